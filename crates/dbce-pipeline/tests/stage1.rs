//! Stage 1 end to end on generated archives: every entry accounted for, buckets within a site
//! and template, the same buckets whatever the shard count, reruns and refusals.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use dbce_artifact::read_all;
use dbce_pipeline::group::{BUCKETS, LshBucket};
use dbce_pipeline::read::PAGES;
use dbce_pipeline::{Config, PageId, PageRef, Shard, StageError, WorkDir, group, read, run_stage1};
use dbce_synth::TruthRecord;

/// Three archives of the same six sites (different captures), with their truth.
fn archives(dir: &Path) -> (Vec<PathBuf>, Vec<TruthRecord>) {
    let mut paths = Vec::new();
    let mut truth = Vec::new();
    for seed in 0..3 {
        let config = dbce_synth::Config {
            seed: 7 + seed,
            sites: 3,
            pages: 24,
            captures_max: 3,
            ..Default::default()
        };
        let (mut archive, mut lines) = (Vec::new(), Vec::new());
        dbce_synth::generate(&config, &mut archive, &mut lines).unwrap();
        let path = dir.join(format!("part-{seed}.warc.gz"));
        std::fs::write(&path, archive).unwrap();
        paths.push(path);
        truth.extend(
            lines
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| serde_json::from_slice::<TruthRecord>(l).unwrap()),
        );
    }
    (paths, truth)
}

fn pages(work: &WorkDir, config: &Config, shards: u32) -> Vec<PageRef> {
    (0..config.lsh.partitions)
        .flat_map(|p| (0..shards).map(move |rank| work.read_pages(p, rank)))
        .flat_map(|path| read_all::<PageRef>(&path, PAGES).unwrap())
        .collect()
}

fn buckets(work: &WorkDir, config: &Config) -> Vec<LshBucket> {
    (0..config.lsh.partitions)
        .flat_map(|p| read_all::<LshBucket>(&work.buckets(p), BUCKETS).unwrap())
        .collect()
}

#[test]
fn stage1_accounts_for_everything_and_groups_by_template() {
    let dir = tempfile::tempdir().unwrap();
    let (inputs, truth) = archives(dir.path());
    let config = Config::default();
    let work = WorkDir::new(dir.path().join("work"));
    let (read_report, group_report) = run_stage1(&work, &config, &inputs, 2).unwrap();
    assert!(read_report.balances() && group_report.balances());

    let entries = 3 + 2 * truth.len() as u64; // a warcinfo per file, a request and a response per truth line
    assert_eq!(read_report.input, entries);
    let html: Vec<&TruthRecord> = truth.iter().filter(|t| t.html && t.status == 200).collect();
    assert_eq!(read_report.emitted, html.len() as u64);

    let pages = pages(&work, &config, 2);
    let by_id: BTreeMap<PageId, &PageRef> = pages.iter().map(|p| (p.page, p)).collect();
    let template: BTreeMap<&str, (&str, Option<&str>)> = html
        .iter()
        .map(|t| (t.id.as_str(), (t.site.as_str(), t.template.as_deref())))
        .collect();
    let mut partnered = BTreeSet::new();
    let (mut pairs, mut same_template) = (0, 0);
    for bucket in buckets(&work, &config) {
        let members: Vec<&PageRef> = bucket.pages.iter().map(|id| by_id[id]).collect();
        let sites: BTreeSet<&str> = members.iter().map(|p| p.site.0.as_str()).collect();
        assert_eq!(sites.len(), 1, "a bucket spans sites: {sites:?}");
        for (i, a) in members.iter().enumerate() {
            partnered.insert(a.page);
            for b in &members[i + 1..] {
                pairs += 1;
                same_template += usize::from(
                    template[a.record_id.as_str()].1 == template[b.record_id.as_str()].1,
                );
            }
        }
    }
    // Every site has many pages of each template: nearly every page finds a partner, and
    // partners share the page's template.
    assert!(
        partnered.len() * 100 >= pages.len() * 95,
        "{} of {} pages partnered",
        partnered.len(),
        pages.len()
    );
    assert!(
        same_template * 100 >= pairs * 90,
        "{same_template} of {pairs} pairs share a template"
    );
}

#[test]
fn buckets_do_not_depend_on_the_shard_count_and_reruns_skip_done_work() {
    let dir = tempfile::tempdir().unwrap();
    let (inputs, _) = archives(dir.path());
    let config = Config::default();
    let outputs: Vec<Vec<Vec<u8>>> = [1, 3]
        .iter()
        .map(|&world| {
            let work = WorkDir::new(dir.path().join(format!("work-{world}")));
            run_stage1(&work, &config, &inputs, world).unwrap();
            (0..config.lsh.partitions)
                .map(|p| std::fs::read(work.buckets(p)).unwrap())
                .collect()
        })
        .collect();
    assert_eq!(outputs[0], outputs[1]);

    let work = WorkDir::new(dir.path().join("work-3"));
    let pages = work.read_pages(0, 1);
    let before = std::fs::metadata(&pages).unwrap().modified().unwrap();
    let again = read::run_read(&work, &config, &inputs, Shard { rank: 1, world: 3 }).unwrap();
    assert_eq!(
        std::fs::metadata(&pages).unwrap().modified().unwrap(),
        before
    );
    assert!(again.emitted > 0);
}

#[test]
fn group_refuses_incomplete_or_foreign_input() {
    let dir = tempfile::tempdir().unwrap();
    let (inputs, _) = archives(dir.path());
    let config = Config::default();
    let work = WorkDir::new(dir.path().join("work"));
    read::run_read(&work, &config, &inputs, Shard { rank: 0, world: 2 }).unwrap();
    let error = group::run_group(&work, &config, 0).unwrap_err();
    assert!(
        error.to_string().contains("shards [1] are not done"),
        "{error}"
    );

    read::run_read(&work, &config, &inputs, Shard { rank: 1, world: 2 }).unwrap();
    let mut other = config.clone();
    other.lsh.threshold = 0.5;
    assert!(matches!(
        group::run_group(&work, &other, 0),
        Err(StageError::Work(_))
    ));
    let error = read::run_read(&work, &other, &inputs, Shard { rank: 0, world: 2 }).unwrap_err();
    assert!(
        error.to_string().contains("started with other settings"),
        "{error}"
    );
    assert!(group::run_group(&work, &config, 0).is_ok());
}

/// Real news pages (`testdata/cleanportaleval`, five per template group): pages of a template
/// group find each other, pages of different sites never share a bucket. Section front pages
/// (such as bbc.co.uk/news/health) differ from their site's article template and may find no
/// partner at the default threshold; they fall back to the single-page classifier later.
#[test]
fn cleanportaleval_pages_group_by_template() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/cleanportaleval");
    let meta: BTreeMap<String, (String, String)> = std::fs::read_to_string(root.join("meta.jsonl"))
        .unwrap()
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let field = |k: &str| v[k].as_str().unwrap().to_owned();
            (field("record_id"), (field("site"), field("template_group")))
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let config = Config::default();
    let work = WorkDir::new(dir.path());
    let (read, _) = run_stage1(&work, &config, &[root.join("pages.warc.gz")], 1).unwrap();
    assert_eq!(read.emitted, meta.len() as u64);

    let pages = pages(&work, &config, 1);
    let group_of: BTreeMap<PageId, &(String, String)> = pages
        .iter()
        .map(|p| (p.page, &meta[&p.record_id]))
        .collect();
    let mut partners: BTreeMap<PageId, BTreeSet<PageId>> = BTreeMap::new();
    for bucket in buckets(&work, &config) {
        let sites: BTreeSet<&str> = bucket
            .pages
            .iter()
            .map(|p| group_of[p].0.as_str())
            .collect();
        assert_eq!(sites.len(), 1, "bucket across sites: {sites:?}");
        for a in &bucket.pages {
            partners
                .entry(*a)
                .or_default()
                .extend(bucket.pages.iter().filter(|b| *b != a));
        }
    }
    let mut alone = Vec::new();
    for page in &pages {
        let group = &group_of[&page.page].1;
        let same_group = pages
            .iter()
            .filter(|p| p.page != page.page && &group_of[&p.page].1 == group)
            .count();
        let found = partners
            .get(&page.page)
            .map_or(0, |p| p.iter().filter(|q| &group_of[q].1 == group).count());
        if same_group > 0 && found == 0 {
            alone.push(page.url.as_str());
        }
    }
    assert!(
        alone.len() <= 2,
        "pages without a partner of their template: {alone:?}"
    );
}

/// ARC records have no `WARC-Record-ID`: each page still gets its own id, from file and offset.
#[test]
fn arc_pages_get_distinct_ids() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/warc");
    let inputs = vec![root.join("example.arc"), root.join("example.arc.gz")];
    let dir = tempfile::tempdir().unwrap();
    let work = WorkDir::new(dir.path());
    let config = Config::default();
    let (read, _) = run_stage1(&work, &config, &inputs, 1).unwrap();
    assert_eq!(read.emitted, 2);
    let pages = pages(&work, &config, 1);
    assert_ne!(pages[0].page, pages[1].page);
    assert_eq!(pages[0].record_id, "<urn:dbce:file-0:offset-151>");
    assert!(pages[1].record_id.starts_with("<urn:dbce:file-1:offset-"));
}

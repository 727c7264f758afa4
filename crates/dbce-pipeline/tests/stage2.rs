//! Stage 2 on a hand-made archive whose sites give every cross shape of Appendix B: each page's
//! cross members are the expected ones, and T001 keeps each page's own story and drops the
//! shared chrome; the same crawl read twice (as WARC responses and as a converted copy) gets the
//! same crosses, of two different pages.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::io::Read as _;

use dbce_pipeline::{ClassifyMethod, Config, WorkDir, run_local};
use dbce_warc::{Headers, NewRecord, RecordType, WarcWriter};

/// A page of the shared template with `story` as its content, captured on `day`.
fn page(story: &str, day: u32) -> String {
    format!(
        "<html><head><title>T</title></head><body>\
         <div class=stamp>Edition of January {day}</div><div class=nav><a href=/>Home page</a> <a href=/n>World news today</a> \
         <a href=/s>Sport and results</a> <a href=/c>Contact the newsroom</a></div>\
         <div class=main><h1>{story}</h1><p>{story} was reported by our correspondent in the \
         morning and confirmed by officials later that day.</p></div>\
         <div class=foot>Copyright Example Publishing all rights reserved, privacy policy and \
         terms of use apply to every page of this website</div></body></html>"
    )
}

/// `(site, path, capture day, story)` of every page.
const PAGES: &[(&str, &str, u32, &str)] = &[
    // 11000: a site of two pages.
    ("b.example", "/p", 1, "Bakers strike over flour prices"),
    ("b.example", "/q", 1, "Bridge reopens after repairs"),
    // 11001, 11011, 11010 for /x; 11000 for /y (its candidates are captures of one URL, /x).
    ("a.example", "/x", 1, "Harbour council approves ferry plan"),
    ("a.example", "/x", 2, "Harbour council approves ferry plan"),
    ("a.example", "/x", 3, "Harbour council approves ferry plan"),
    ("a.example", "/y", 1, "Library extends opening hours"),
    // 11101 and 11110 for /r.
    ("c.example", "/r", 1, "Rail line electrification begins"),
    ("c.example", "/r", 2, "Rail line electrification begins"),
    ("c.example", "/s", 1, "School wins robotics contest"),
    ("c.example", "/t", 1, "Theatre season opens with comedy"),
    // 11111 for /u at day 2.
    ("d.example", "/u", 1, "Unions agree new wage deal"),
    ("d.example", "/u", 2, "Unions agree new wage deal"),
    ("d.example", "/u", 3, "Unions agree new wage deal"),
    ("d.example", "/v", 1, "Volunteers clean the river banks"),
    ("d.example", "/w", 1, "Weather service warns of storms"),
];

/// How [`archive`] writes the crawl.
#[derive(Clone, Copy)]
enum Form {
    /// HTTP `response` records, with a `WARC-Payload-Digest` (as crawlers write them).
    Response,
    /// `resource` records of the bare HTML under other record ids, without a payload digest
    /// (as a converted copy of the same crawl, an ARC file read as WARC, comes out).
    ConvertedCopy,
}

fn archive(path: &std::path::Path, form: Form) {
    let mut writer = WarcWriter::new(std::fs::File::create(path).unwrap());
    for (i, (site, path, day, story)) in PAGES.iter().enumerate() {
        let html = page(story, *day);
        let mut fields = Headers::new();
        let (record_type, block) = match form {
            Form::Response => {
                let mut block = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
                    html.len()
                )
                .into_bytes();
                block.extend_from_slice(html.as_bytes());
                fields.push("WARC-Record-ID", format!("<urn:test:{i}>"));
                fields.push("Content-Type", "application/http; msgtype=response");
                (RecordType::Response, block)
            }
            Form::ConvertedCopy => {
                fields.push("WARC-Record-ID", format!("<urn:copy:{i}>"));
                fields.push("Content-Type", "text/html");
                (RecordType::Resource, html.into_bytes())
            }
        };
        fields.push("WARC-Date", format!("2024-01-{day:02}T00:00:00Z"));
        fields.push("WARC-Target-URI", format!("http://www.{site}{path}"));
        let record = NewRecord {
            record_type,
            fields,
            block,
        };
        writer.write_record(&record).unwrap();
    }
    writer.finish().unwrap();
}

/// Runs the pipeline with T001 on `inputs` and returns the text records by record id.
fn run_t001(
    dir: &std::path::Path,
    inputs: &[std::path::PathBuf],
) -> BTreeMap<String, serde_json::Value> {
    let mut config = Config::default();
    config.annotate.method = ClassifyMethod::T001;
    let out = dir.join("out");
    let work = WorkDir::new(dir.join("work"));
    let report = run_local(&work, &config, inputs, &out, 2, &|_, _, _| {}).unwrap();
    assert_eq!(
        report.stages["4-finish"].output,
        (PAGES.len() * inputs.len()) as u64
    );
    records(&out)
}

/// The JSONL records of a run's output, by record id.
fn records(out: &std::path::Path) -> BTreeMap<String, serde_json::Value> {
    let mut records = BTreeMap::new();
    for entry in std::fs::read_dir(out.join("text")).unwrap() {
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(entry.unwrap().path()).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        for line in text.lines() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            records.insert(record["id"].as_str().unwrap().to_owned(), record);
        }
    }
    records
}

/// The roles of each page's cross members, in the order of [`PAGES`].
const EXPECTED_ROLES: [&[&str]; 15] = [
    &["up"],
    &["up"],
    &["next", "up"],
    &["next", "prev", "up"],
    &["prev", "up"],
    &["up"],
    &["down", "next", "up"],
    &["down", "prev", "up"],
    &["down", "up"],
    &["down", "up"],
    &["down", "next", "up"],
    &["down", "next", "prev", "up"],
    &["down", "prev", "up"],
    &["down", "up"],
    &["down", "up"],
];

/// The roles of `record`'s cross members.
fn roles(record: &serde_json::Value) -> Vec<&str> {
    record["cross"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

/// The index in [`PAGES`] of the page a test record id names.
fn page_index(record_id: &str) -> usize {
    let number = record_id.trim_end_matches('>').rsplit(':').next().unwrap();
    number.parse().unwrap()
}

#[test]
fn every_cross_shape_and_its_classes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("shapes.warc.gz");
    archive(&input, Form::Response);
    let records = run_t001(dir.path(), &[input]);
    for (i, ((_, path, day, story), roles_expected)) in PAGES.iter().zip(EXPECTED_ROLES).enumerate()
    {
        let record = &records[&format!("<urn:test:{i}>")];
        assert_eq!(roles(record), roles_expected, "cross of {path} day {day}");
        let text = record["text"].as_str().unwrap();
        assert!(
            text.contains(story),
            "{path} day {day} lost its story: {text:?}"
        );
        for chrome in ["Home page", "Copyright Example Publishing"] {
            assert!(
                !text.contains(chrome),
                "{path} day {day} kept {chrome:?}: {text:?}"
            );
        }
    }
}

/// The default method: every page keeps its story and says which route decided; where the
/// diff decided, the template's chrome is dropped.
#[test]
fn evidence_keeps_the_stories_and_says_who_decided() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("shapes.warc.gz");
    archive(&input, Form::Response);
    let config = Config::default();
    assert_eq!(config.annotate.method, ClassifyMethod::Evidence);
    let out = dir.path().join("out");
    let work = WorkDir::new(dir.path().join("work"));
    run_local(&work, &config, &[input], &out, 2, &|_, _, _| {}).unwrap();
    let records = records(&out);
    assert_eq!(records.len(), PAGES.len());
    for (id, record) in &records {
        let i = page_index(id);
        let story = PAGES[i].3;
        let text = record["text"].as_str().unwrap();
        assert!(text.contains(story), "page {i} lost its story: {text:?}");
        let route = record["decided_by"].as_str().unwrap();
        assert!(
            ["cross", "agree", "single"].contains(&route),
            "page {i} decided by {route}"
        );
        // What the diff decides drops the template's chrome.
        if route != "single" {
            assert!(!text.contains("Copyright Example"), "page {i}: {text:?}");
        }
        assert!(record.get("empty_reason").is_none());
    }
}

/// An error page (a soft 404 served with status 200) comes out empty under the default method,
/// saying why; a real page beside it keeps its text.
#[test]
fn error_pages_come_out_empty_with_the_reason() {
    let fixtures =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/page-types");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("errors.warc.gz");
    let mut writer = WarcWriter::new(std::fs::File::create(&input).unwrap());
    for (i, (name, url)) in [
        ("not-found.html", "http://www.e.example/missing/page"),
        ("documentation.html", "http://docs.f.example/guide/install"),
    ]
    .iter()
    .enumerate()
    {
        let html = std::fs::read(fixtures.join(name)).unwrap();
        let record = NewRecord::html_response(
            &format!("<urn:test:{i}>"),
            "2024-01-01T00:00:00Z",
            url,
            &html,
        );
        writer.write_record(&record).unwrap();
    }
    writer.finish().unwrap();
    let out = dir.path().join("out");
    let work = WorkDir::new(dir.path().join("work"));
    run_local(&work, &Config::default(), &[input], &out, 2, &|_, _, _| {}).unwrap();
    let records = records(&out);
    let error = &records["<urn:test:0>"];
    assert_eq!(error["page_type"], "error", "{error}");
    assert_eq!(error["text"], "");
    assert_eq!(error["empty_reason"], "error-page");
    assert_eq!(error["decided_by"], "page-type");
    let docs = &records["<urn:test:1>"];
    assert_ne!(docs["text"], "", "{docs}");
    assert!(docs.get("empty_reason").is_none());
}

#[test]
fn a_crawl_read_twice_gets_crosses_of_different_pages() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = [
        dir.path().join("crawl.warc.gz"),
        dir.path().join("converted.warc.gz"),
    ];
    archive(&inputs[0], Form::Response);
    archive(&inputs[1], Form::ConvertedCopy);
    let records = run_t001(dir.path(), &inputs);
    for (id, record) in &records {
        let cur = page_index(id);
        let (_, path, day, story) = PAGES[cur];
        // Each copy gets the cross it gets when the crawl is read once.
        assert_eq!(roles(record), EXPECTED_ROLES[cur], "cross of {id}");
        let member = |role: &str| {
            record["cross"]
                .get(role)
                .map(|m| PAGES[page_index(m["id"].as_str().unwrap())])
        };
        for role in ["up", "down", "prev", "next"] {
            if let Some((site, other_path, other_day, _)) = member(role) {
                assert!(
                    (other_path, other_day) != (path, day) || site != PAGES[cur].0,
                    "{id}: its {role} is a copy of the page"
                );
            }
        }
        if let (Some(up), Some(down)) = (member("up"), member("down")) {
            assert_ne!(up.1, down.1, "{id}: up and down have one URL");
        }
        assert!(record["text"].as_str().unwrap().contains(story));
    }
}

/// Runs the default method over the shapes archive in one partition with `annotate.max-site-pages`
/// at `max_site_pages`; returns the JSONL files' bytes by name and the run's report.
fn run_bounded(
    dir: &std::path::Path,
    max_site_pages: u64,
) -> (BTreeMap<String, Vec<u8>>, dbce_pipeline::finish::RunReport) {
    let input = dir.join("shapes.warc.gz");
    if !input.exists() {
        archive(&input, Form::Response);
    }
    let mut config = Config::default();
    config.lsh.partitions = 1;
    config.annotate.max_site_pages = max_site_pages;
    let out = dir.join(format!("out-{max_site_pages}"));
    let work = WorkDir::new(dir.join(format!("work-{max_site_pages}")));
    let report = run_local(&work, &config, &[input], &out, 2, &|_, _, _| {}).unwrap();
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(out.join("text")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        files.insert(name, std::fs::read(&path).unwrap());
    }
    (files, report)
}

/// A pass of stage `annotate` holds at most `annotate.max-site-pages` pages: sites under the
/// bound go through in batches with the same output as in one pass; a site above it is split
/// into parts of whole URLs where it can be, every page still comes out, and the report says
/// how many pages were annotated in a part, how many lost a bucket partner to another, and of
/// a sample how many lost the partner they would take with their site whole.
#[test]
fn annotate_passes_are_bounded_and_sites_under_the_bound_are_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let (one_pass, report) = run_bounded(dir.path(), 1_000);
    let annotate = &report.stages["3-annotate"];
    assert_eq!(annotate.output, PAGES.len() as u64);
    assert!(annotate.warnings.is_empty(), "{:?}", annotate.warnings);

    // Sites of 2, 4, 4 and 5 pages: four batches of at most 5 pages, no site split.
    let (batched, report) = run_bounded(dir.path(), 5);
    assert_eq!(batched, one_pass, "batches changed the output");
    assert!(report.stages["3-annotate"].warnings.is_empty());

    // At most 2 pages: every site but b.example (2 pages) is split; all pages come out.
    let (split, report) = run_bounded(dir.path(), 2);
    let annotate = &report.stages["3-annotate"];
    assert_eq!(annotate.output, PAGES.len() as u64);
    assert_eq!(annotate.input, annotate.output);
    let in_split_sites = PAGES.iter().filter(|p| p.0 != "b.example").count() as u64;
    assert_eq!(annotate.warnings["site-split"], in_split_sites);
    let cut = annotate.warnings["site-split:partners-cut"];
    assert!(cut > 0 && cut <= in_split_sites, "{cut}");
    // Pages left without a partner of another URL (no `up` or `down` member): those the split
    // left alone are counted, and at least the ones that had a partner in one pass.
    let alone = annotate.warnings["site-split:alone"];
    let alone_in = |max_site_pages: u32| -> BTreeMap<String, bool> {
        records(&dir.path().join(format!("out-{max_site_pages}")))
            .into_iter()
            .map(|(id, record)| {
                let partners = roles(&record).iter().any(|r| *r == "up" || *r == "down");
                (id, !partners)
            })
            .collect()
    };
    let (before, after) = (alone_in(1_000), alone_in(2));
    let newly_alone = after.iter().filter(|(id, a)| **a && !before[*id]).count() as u64;
    let alone_after = after.values().filter(|a| **a).count() as u64;
    assert!(newly_alone > 0, "the split took no page's partners");
    assert!(
        newly_alone <= alone && alone <= cut.min(alone_after),
        "{newly_alone} <= {alone} <= min({cut}, {alone_after})"
    );
    // Every page of a split site is sampled here (sites of at most 5 pages), and a page lost
    // its best partner exactly when its `up` partner is less similar than in one pass, or
    // gone.
    assert_eq!(annotate.warnings["site-split:sampled"], in_split_sites);
    let up_in = |max_site_pages: u32| -> BTreeMap<String, f64> {
        records(&dir.path().join(format!("out-{max_site_pages}")))
            .into_iter()
            .filter_map(|(id, record)| Some((id, record["cross"]["up"]["similarity"].as_f64()?)))
            .collect()
    };
    let (up_before, up_after) = (up_in(1_000), up_in(2));
    let lost = up_before
        .iter()
        .filter(|(id, before)| up_after.get(*id).is_none_or(|after| after < *before))
        .count() as u64;
    assert!(lost >= newly_alone, "{lost} >= {newly_alone}");
    assert_eq!(annotate.warnings["site-split:best-partner-lost"], lost);
    assert_eq!(report.stages["4-finish"].output, PAGES.len() as u64);
    assert_ne!(split, one_pass);
}

//! `dbce run`, `dbce search` and `dbce eval` on the bundled sample.

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::Path;

use crate::dbce;

/// Every file under `dir`, by relative path, with its bytes.
pub(crate) fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(path) = pending.pop() {
        for entry in std::fs::read_dir(&path).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

pub(crate) fn run(out: &Path, extra: &[&str]) -> String {
    let output = dbce()
        .args(["run", "--quiet", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    stderr
}

pub(crate) fn jsonl(out: &Path) -> Vec<serde_json::Value> {
    let texts = files(&out.join("text"));
    let mut lines = Vec::new();
    for bytes in texts.values() {
        let mut text = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .unwrap();
        lines.extend(text.lines().map(|l| serde_json::from_str(l).unwrap()));
    }
    lines
}

#[test]
fn run_on_the_sample_accounts_for_every_record_and_is_searchable() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let stderr = run(&out, &[]);
    assert!(stderr.contains("233 pages written"), "{stderr}");

    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let stages = report["stages"].as_object().unwrap();
    assert_eq!(stages.len(), 4);
    for (name, counts) in stages {
        let skipped: u64 = counts["skipped"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(
            counts["input"].as_u64().unwrap(),
            counts["output"].as_u64().unwrap() + skipped,
            "{name} does not balance"
        );
    }
    assert_eq!(stages["1-read"]["input"], 559);
    assert_eq!(report["indexed"], 233);

    let records = jsonl(&out);
    assert_eq!(records.len(), 233);
    for record in &records {
        for field in ["id", "url", "date", "site", "title", "text", "method"] {
            assert!(record[field].is_string(), "{field} in {record}");
        }
        assert!(record["source"]["offset"].is_u64());
        assert!(
            record["source"]["file"]
                .as_str()
                .unwrap()
                .ends_with("sample.warc.gz")
        );
    }
    // Every page of the sample has partners of its template.
    assert!(records.iter().all(|r| r["method"] == "cross"));

    // The conversion records read back, one per page, and the CDXJ lists each.
    let cdxj = std::fs::read_to_string(out.join("warc/index.cdxj")).unwrap();
    assert_eq!(cdxj.lines().count(), 233);
    let inspect = dbce()
        .args(["inspect", "--json"])
        .args(
            files(&out.join("warc"))
                .keys()
                .filter(|k| k.ends_with(".gz"))
                .map(|k| out.join("warc").join(k)),
        )
        .output()
        .unwrap();
    assert_eq!(inspect.status.code(), Some(0));
    let text = String::from_utf8(inspect.stdout).unwrap();
    assert!(text.contains("conversion"), "{text}");

    // A word of some page's text finds that page.
    let word = records[0]["text"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .find(|w| w.len() > 6 && w.chars().all(char::is_alphabetic))
        .unwrap()
        .to_owned();
    let search = dbce().arg("search").arg(&out).arg(&word).output().unwrap();
    assert_eq!(search.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&search.stdout).contains("sample.warc.gz:"));
    let none = dbce()
        .arg("search")
        .arg(&out)
        .arg("zzqxnotaword")
        .output()
        .unwrap();
    assert_eq!(none.status.code(), Some(1));
}

#[test]
fn pages_of_arc_and_whole_file_gzip_archives_are_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let warcs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/warc");
    run(&out, &[warcs.to_str().unwrap()]);
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    // Ten HTML pages, among them three ARC records (one, example-space-in-url.arc's, with its
    // last block cut short by the end of the file, read as warcio reads it) and one in a file
    // gzipped as one stream; three copies of one capture share a record id, so eight are
    // annotated, every one of them read back from its archive (no other skip).
    let annotate = &report["stages"]["3-annotate"];
    assert_eq!(annotate["input"], 10);
    assert_eq!(annotate["output"], 8);
    assert_eq!(annotate["skipped"]["duplicate-record"], 2);
    assert_eq!(annotate["skipped"].as_object().unwrap().len(), 1);
    assert_eq!(report["stages"]["4-finish"]["output"], 8);
    assert_eq!(
        report["stages"]["1-read"]["warnings"]["warc:short-block"],
        1
    );
}

#[test]
fn annotated_html_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run(&out, &["--annotated-html"]);
    let pages = files(&out.join("html"));
    assert_eq!(pages.len(), 233);
    let html = String::from_utf8(pages.values().next().unwrap().clone()).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        html.contains("class=\"dbce dbce-content\""),
        "no content run"
    );
    assert!(
        html.contains("class=\"dbce dbce-boilerplate\""),
        "no boilerplate run"
    );
    assert!(html.contains("id=\"dbce-legend\""));
    assert!(!html.contains("<script"));
}

#[test]
fn output_does_not_depend_on_threads_or_shards_and_reruns_skip_done_work() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one");
    let many = dir.path().join("many");
    run(&one, &["--threads", "1", "--shards", "1"]);
    run(&many, &["--threads", "2", "--shards", "5"]);
    let outputs = |out: &Path| {
        let mut all = files(&out.join("text"));
        all.extend(files(&out.join("warc")));
        all.insert(
            "report.json".into(),
            std::fs::read(out.join("report.json")).unwrap(),
        );
        all
    };
    let (a, b) = (outputs(&one), outputs(&many));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(
            bytes == &b[name],
            "{name} differs between thread and shard counts"
        );
    }
    let index = |out: &Path| dbce_index::fingerprint(&out.join("index")).unwrap();
    assert_eq!(index(&one), index(&many));

    // A rerun finds every shard done and rewrites nothing but the merged outputs.
    let part = one.join("text/part-00000.jsonl.gz");
    let before = std::fs::metadata(&part).unwrap().modified().unwrap();
    run(&one, &["--threads", "1", "--shards", "1"]);
    assert_eq!(
        std::fs::metadata(&part).unwrap().modified().unwrap(),
        before
    );
    assert_eq!(outputs(&one), a);
}

#[test]
fn every_record_carries_its_page_type() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run(&out, &[]);
    let truth_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/sample/sample.truth.jsonl");
    let truth = std::fs::read_to_string(truth_path).unwrap();
    let kinds: BTreeMap<String, String> = truth
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|t| {
            (
                t["id"].as_str().unwrap().to_owned(),
                t["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let types = [
        "article",
        "forum",
        "product",
        "collection",
        "listing",
        "documentation",
        "service",
        "error",
    ];
    let records = jsonl(&out);
    for record in &records {
        let page_type = record["page_type"].as_str().unwrap();
        assert!(types.contains(&page_type), "{record}");
        let confidence = record["page_type_confidence"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&confidence), "{record}");
    }
    // The generator's articles are articles (its index pages are not told apart yet:
    // docs/page-types.md).
    let articles: Vec<&serde_json::Value> = records
        .iter()
        .filter(|r| kinds[r["id"].as_str().unwrap()] == "article")
        .collect();
    assert!(articles.len() > 100);
    assert!(articles.iter().all(|r| r["page_type"] == "article"));
}

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
    run_with_exit(out, extra, 0)
}

/// `dbce run` with `extra` arguments, which must exit with `code`; its standard error.
fn run_with_exit(out: &Path, extra: &[&str], code: i32) -> String {
    let output = dbce()
        .args(["run", "--quiet", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(code), "{stderr}");
    stderr
}

/// The hits of `dbce search --json` on the run in `out`.
fn search_json(out: &Path, query: &str, limit: usize) -> Vec<serde_json::Value> {
    let output = dbce()
        .args(["search", "--json", "--limit", &limit.to_string()])
        .arg(out)
        .arg(query)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The bundled sample in the source tree.
fn sample() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/sample/sample.warc.gz")
}

/// Reads every record of a WARC with Python's warcio (`$DBCE_PYTHON`, set by `scripts/test`),
/// digests checked, and checks what dbce promises of its output WARCs: a `warcinfo` record
/// first, then `conversion` records that name it, each id the version-5 UUID of its source
/// record's id. Prints the number of conversion records.
const WARCIO_CHECK: &str = r#"
import sys, uuid
from warcio.archiveiterator import ArchiveIterator
with open(sys.argv[1], 'rb') as f:
    records = [(r.rec_type, dict(r.rec_headers.headers), r.content_stream().read())
               for r in ArchiveIterator(f, check_digests='raise')]
kind, info, block = records[0]
assert kind == 'warcinfo', kind
assert info['WARC-Filename'] == sys.argv[1].rsplit('/', 1)[-1], info
assert b'software: dbce/' in block, block
for kind, headers, _ in records[1:]:
    assert kind == 'conversion', kind
    assert headers['WARC-Warcinfo-ID'] == info['WARC-Record-ID'], headers
    for field in ('WARC-Record-ID', 'WARC-Warcinfo-ID'):
        assert uuid.UUID(headers[field][len('<urn:uuid:'):-1]).version == 5, headers
    expected = uuid.uuid5(uuid.NAMESPACE_URL, headers['WARC-Refers-To'])
    assert headers['WARC-Record-ID'] == '<urn:uuid:%s>' % expected, headers
print(len(records) - 1)
"#;

/// Checks every file of a run's `text/` and `warc/` folders: none is empty, every `.gz` one
/// decompresses whole with its checksums (as `gzip -t`), and warcio reads every WARC
/// ([`WARCIO_CHECK`]). Returns the conversion records warcio counted.
fn check_output_files(out: &Path) -> usize {
    let mut files_seen = files(&out.join("text"));
    files_seen.extend(
        files(&out.join("warc"))
            .into_iter()
            .map(|(k, v)| (format!("warc/{k}"), v)),
    );
    let mut conversions = 0;
    for (name, bytes) in &files_seen {
        assert!(!bytes.is_empty(), "{name} is empty");
        if name.ends_with(".gz") {
            let mut all = Vec::new();
            flate2::read::MultiGzDecoder::new(&bytes[..])
                .read_to_end(&mut all)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!all.is_empty(), "{name} holds nothing");
        }
        if name.ends_with(".warc.gz") {
            let python = std::env::var("DBCE_PYTHON").unwrap_or_else(|_| "python3".to_owned());
            let output = std::process::Command::new(&python)
                .arg("-c")
                .arg(WARCIO_CHECK)
                .arg(out.join(name))
                .output()
                .unwrap();
            assert!(
                output.status.success(),
                "warcio ({python}) on {name}; install it with `scripts/test` or `pip install warcio`:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
            conversions += String::from_utf8(output.stdout)
                .unwrap()
                .trim()
                .parse::<usize>()
                .unwrap();
        }
    }
    conversions
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

    // The sample was written into the output directory, and every output file is sound.
    assert_eq!(
        std::fs::read(out.join("sample.warc.gz")).unwrap(),
        std::fs::read(sample()).unwrap()
    );
    assert_eq!(check_output_files(&out), 233);

    // Every page has its language; the generated Japanese site is found by a word of its text.
    let japanese: Vec<&serde_json::Value> = records.iter().filter(|r| r["lang"] == "jpn").collect();
    assert!(japanese.len() > 20, "{} Japanese pages", japanese.len());
    assert!(records.iter().all(|r| r["lang"].is_string()));
    let page = japanese[0];
    let text = page["text"].as_str().unwrap();
    // Three kanji in a row, in the middle of a line: no space or punctuation around them.
    let chars: Vec<char> = text.chars().collect();
    let is_kanji = |c: &char| ('\u{4E00}'..='\u{9FFF}').contains(c);
    let word: String = chars
        .windows(3)
        .find(|w| w.iter().all(is_kanji))
        .unwrap()
        .iter()
        .collect();
    let search = dbce()
        .args(["search", "--json", "--limit", "100"])
        .arg(&out)
        .arg(format!("{word} lang:jpn"))
        .output()
        .unwrap();
    assert_eq!(search.status.code(), Some(0), "{word}");
    let hits: Vec<serde_json::Value> = String::from_utf8(search.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let expected = records
        .iter()
        .filter(|r| {
            r["text"].as_str().unwrap().contains(&word)
                || r["title"].as_str().unwrap().contains(&word)
        })
        .count();
    assert_eq!(hits.len(), expected, "{word}");
    assert!(hits.iter().any(|h| h["id"] == page["id"]), "{word}");
    assert!(hits.iter().all(|h| h["lang"] == "jpn"));
}

#[test]
fn an_input_without_records_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "not an archive\n").unwrap();
    let stderr = run_with_exit(&dir.path().join("out"), &[notes.to_str().unwrap()], 2);
    assert!(
        stderr.contains("notes.txt: not one WARC/ARC record"),
        "{stderr}"
    );
}

#[test]
fn pages_of_arc_and_whole_file_gzip_archives_are_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let warcs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/warc");
    // Some of them are damaged on purpose: exit 1, finished with unreadable records skipped.
    run_with_exit(&out, &[warcs.to_str().unwrap()], 1);
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
    assert_eq!(check_output_files(&out), 8);
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
    let sample = sample();
    let sample = sample.to_str().unwrap();
    run(&one, &[sample, "--threads", "1", "--shards", "1"]);
    run(&many, &[sample, "--threads", "2", "--shards", "5"]);
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
    // One index per partition that has pages, searched as one.
    let shards = std::fs::read_dir(one.join("index")).unwrap().count();
    assert!(shards > 1, "{shards} index shards");
    assert_eq!(
        search_json(&one, "the", 500),
        search_json(&many, "the", 500)
    );

    // Four partitions instead of sixteen: other parts and shards (and part names in the
    // CDXJ), and the same hits with the same scores (BM25 statistics are summed over the
    // shards). Equal scores may come in another order: ties keep the input order, partition
    // by partition.
    let config = dir.path().join("four.toml");
    std::fs::write(&config, "[lsh]\npartitions = 4\n").unwrap();
    let four = dir.path().join("four");
    run(&four, &[sample, "--config", config.to_str().unwrap()]);
    let cdxj = std::fs::read_to_string(four.join("warc/index.cdxj")).unwrap();
    let lines: Vec<&str> = cdxj.lines().collect();
    assert!(lines.is_sorted(), "the merged CDXJ is sorted");
    assert_eq!(lines.len(), 233);
    assert_eq!(std::fs::read_dir(four.join("index")).unwrap().count(), 4);
    for query in ["the", "of OR and", "in -the"] {
        let by_id = |out: &Path| {
            let mut hits: Vec<(String, String)> = search_json(out, query, 500)
                .iter()
                .map(|hit| (hit["id"].to_string(), hit["score"].to_string()))
                .collect();
            hits.sort();
            hits
        };
        let hits = by_id(&one);
        assert!(hits.len() > 10, "{query}: {}", hits.len());
        assert_eq!(hits, by_id(&four), "{query}");
    }

    // A rerun finds every shard done and rewrites nothing but the merged outputs.
    let part = one
        .join("text")
        .join(files(&one.join("text")).keys().next().unwrap());
    let before = std::fs::metadata(&part).unwrap().modified().unwrap();
    run(&one, &[sample, "--threads", "1", "--shards", "1"]);
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

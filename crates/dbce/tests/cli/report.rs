//! `dbce report` and `dbce run --report` on the bundled sample, read as files (the browser test
//! is `scripts/test-report`).

use std::collections::BTreeMap;
use std::path::Path;

use crate::dbce;
use crate::run::{files, jsonl, run};

/// `text` with the escapes `dbce_dom::escape_text` writes undone.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The text of every `<span class="dbce dbce-content" …>` of an annotated page, in order.
fn content_spans(html: &str) -> Vec<String> {
    html.split("<span class=\"dbce dbce-content\"")
        .skip(1)
        .map(|rest| {
            let inner = &rest[rest.find('>').unwrap() + 1..];
            unescape(&inner[..inner.find("</span>").unwrap()])
        })
        .collect()
}

fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// The report's files by name, as text.
fn report(out: &Path) -> BTreeMap<String, String> {
    files(&out.join("report"))
        .into_iter()
        .map(|(name, bytes)| (name, String::from_utf8(bytes).unwrap()))
        .collect()
}

#[test]
fn report_shows_the_counts_of_report_json_and_viewers_shade_the_jsonl_text() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let stderr = run(&out, &["--report", "--threads", "1"]);
    assert!(stderr.contains("72 with a viewer"), "{stderr}");
    let pages = report(&out);
    let counts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let index = &pages["index.html"];
    for (stage, stage_counts) in counts["stages"].as_object().unwrap() {
        let row = index
            .split(&format!("<tr data-stage=\"{stage}\">"))
            .nth(1)
            .unwrap_or_else(|| panic!("no row of {stage}"));
        let row = &row[..row.find("</tr>").unwrap()];
        for field in ["input", "output"] {
            let shown = format!("data-field=\"{field}\">{}<", stage_counts[field]);
            assert!(row.contains(&shown), "{stage} {field}: {row}");
        }
        for (reason, n) in stage_counts["skipped"].as_object().unwrap() {
            let shown = format!("data-reason=\"{reason}\">{reason} <b>{n}</b>");
            assert!(row.contains(&shown), "{stage} {reason}: {row}");
        }
    }
    assert!(index.contains("<span id=\"total-pages\">233</span>"));

    // Every viewer's record is its JSONL line, and its shaded content runs are the line's text.
    let lines: BTreeMap<String, serde_json::Value> = jsonl(&out)
        .into_iter()
        .map(|line| (line["id"].as_str().unwrap().to_owned(), line))
        .collect();
    let viewers: Vec<&String> = pages
        .keys()
        .filter(|name| name.starts_with("pages/") && !name.ends_with(".page.html"))
        .collect();
    assert_eq!(viewers.len(), 72, "12 per site of 6");
    for name in viewers {
        let viewer = &pages[name];
        let record = viewer.split("<pre id=\"record\">").nth(1).unwrap();
        let record: serde_json::Value =
            serde_json::from_str(&unescape(&record[..record.find("</pre>").unwrap()])).unwrap();
        let line = &lines[record["id"].as_str().unwrap()];
        assert_eq!(&record, line, "{name}");
        let frame = &pages[&name.replace(".html", ".page.html")];
        assert!(!frame.contains("<script"), "{name} keeps a script");
        let shaded = content_spans(frame).join(" ");
        assert_eq!(
            words(&shaded),
            words(line["text"].as_str().unwrap()),
            "{name}"
        );
    }
    let bytes: usize = pages.values().map(String::len).sum();
    assert!(bytes < 5_000_000, "the report has {bytes} bytes");
}

#[test]
fn report_does_not_depend_on_threads_and_every_page_gets_a_viewer_within_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run(&out, &["--report", "--threads", "1"]);
    let first = report(&out);
    let output = dbce().arg("report").arg(&out).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(first == report(&out), "a second report differs");

    let output = dbce()
        .args(["report", "--pages-per-site", "1000"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let all = report(&out);
    let viewers = all.keys().filter(|n| n.ends_with(".page.html")).count();
    assert_eq!(viewers, 233);
    assert!(all["pages.html"].contains("<span id=\"listed\">233</span>"));
}

#[test]
fn report_of_an_unfinished_run_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = dbce().arg("report").arg(dir.path()).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("report.json"), "{stderr}");
}

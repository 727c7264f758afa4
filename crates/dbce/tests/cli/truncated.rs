//! `dbce run` on pages past the byte and block-depth limits: read in part and flagged, not
//! dropped.

use dbce_warc::{NewRecord, WarcWriter};

use crate::run::{jsonl, run};

/// `count` paragraphs, each naming its number.
fn paragraphs(count: usize) -> String {
    (0..count)
        .map(|n| {
            format!(
                "<p>Paragraph {n} of the long report says what the committee found in its \
                 survey of rivers, roads and bridges across the region this year.</p>"
            )
        })
        .collect()
}

/// An archive of three pages: a small one, one of 3 MiB (past a 1 MiB byte limit) whose last
/// paragraph says `END-OF-HUGE-PAGE`, and one nesting 50,000 `<div>`s (under the byte limit) (past the default block
/// depth of 4096) after a first paragraph, with `END-OF-DEEP-PAGE` at the bottom.
fn archive() -> Vec<u8> {
    let small = format!(
        "<html><head><title>Small</title></head><body>{}</body></html>",
        paragraphs(5)
    );
    let mut huge = format!(
        "<html><head><title>Huge</title></head><body>{}",
        paragraphs(3 * 1024 * 1024 / 160)
    );
    huge.push_str("<p>END-OF-HUGE-PAGE</p></body></html>");
    let levels = 50_000;
    let deep = format!(
        "<html><head><title>Deep</title></head><body>{}{}<p>END-OF-DEEP-PAGE</p>{}</body></html>",
        paragraphs(3),
        "<div>".repeat(levels),
        "</div>".repeat(levels)
    );
    let mut writer = WarcWriter::new(Vec::new());
    for (n, (path, html)) in [("small", small), ("huge", huge), ("deep", deep)]
        .iter()
        .enumerate()
    {
        let record = NewRecord::html_response(
            &format!("<urn:uuid:00000000-0000-0000-0000-00000000000{n}>"),
            "2024-05-01T12:00:00Z",
            &format!("http://example.com/{path}"),
            html.as_bytes(),
        );
        writer.write_record(&record).unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn huge_and_deep_pages_are_read_in_part_and_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("big.warc.gz");
    std::fs::write(&warc, archive()).unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[sanitize]\nmax-input-bytes = 1048576\n").unwrap();
    let out = dir.path().join("out");
    run(
        &out,
        &["--config", config.to_str().unwrap(), warc.to_str().unwrap()],
    );
    let records = jsonl(&out);
    let by_title = |title: &str| {
        records
            .iter()
            .find(|r| r["title"] == title)
            .unwrap_or_else(|| panic!("no page {title}: {records:?}"))
    };
    assert_eq!(records.len(), 3, "{records:?}");
    assert!(by_title("Small").get("truncated").is_none());
    let huge = by_title("Huge");
    assert_eq!(huge["truncated"], serde_json::json!(["bytes"]));
    let text = huge["text"].as_str().unwrap();
    assert!(
        !text.contains("END-OF-HUGE-PAGE"),
        "the cut part is not read"
    );
    let deep = by_title("Deep");
    assert_eq!(deep["truncated"], serde_json::json!(["depth"]));
    assert!(!deep["text"].as_str().unwrap().contains("END-OF-DEEP-PAGE"));

    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let read = &report["stages"]["1-read"];
    assert_eq!(read["output"], 3, "{read}");
    assert_eq!(read["warnings"]["page-truncated:bytes"], 1, "{read}");
    assert_eq!(read["warnings"]["page-truncated:depth"], 1, "{read}");
}

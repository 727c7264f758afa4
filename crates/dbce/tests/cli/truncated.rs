//! `dbce run` on pages past the byte, decoded-size and block-depth limits: read in part and
//! flagged, not dropped.

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

/// A response record of `html` gzip-coded, as servers send pages and crawlers keep them.
fn gzip_response(record_id: &str, uri: &str, html: &str) -> NewRecord {
    use std::io::Write as _;
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gzip.write_all(html.as_bytes()).unwrap();
    let body = gzip.finish().unwrap();
    let mut record = NewRecord::html_response(record_id, "2024-05-01T12:00:00Z", uri, &body);
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\
         Content-Encoding: gzip\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    record.block = [head.as_bytes(), &body].concat();
    record
}

/// An archive of four pages: a small one, one of 3 MiB (past a 1 MiB byte limit) whose last
/// paragraph says `END-OF-HUGE-PAGE`, one nesting 50,000 `<div>`s (under the byte limit, past
/// the default block depth of 4096) after a first paragraph, with `END-OF-DEEP-PAGE` at the
/// bottom, and a gzip-coded one of 700 KB (past a decoded limit of 500,000 bytes) ending
/// `END-OF-CODED-PAGE`.
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
    let coded = format!(
        "<html><head><title>Coded</title></head><body>{}<p>END-OF-CODED-PAGE</p></body></html>",
        paragraphs(700_000 / 160)
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
    let record = gzip_response(
        "<urn:uuid:00000000-0000-0000-0000-000000000009>",
        "http://example.com/coded",
        &coded,
    );
    writer.write_record(&record).unwrap();
    writer.finish().unwrap()
}

#[test]
fn huge_and_deep_pages_are_read_in_part_and_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("big.warc.gz");
    std::fs::write(&warc, archive()).unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "[read]\nmax-decoded-bytes = 500000\n[sanitize]\nmax-input-bytes = 1048576\n",
    )
    .unwrap();
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
    assert_eq!(records.len(), 4, "{records:?}");
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
    let coded = by_title("Coded");
    assert_eq!(coded["truncated"], serde_json::json!(["bytes"]));
    assert!(
        !coded["text"]
            .as_str()
            .unwrap()
            .contains("END-OF-CODED-PAGE")
    );

    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let read = &report["stages"]["1-read"];
    assert_eq!(read["output"], 4, "{read}");
    assert_eq!(read["warnings"]["page-truncated:bytes"], 2, "{read}");
    assert_eq!(read["warnings"]["page-truncated:depth"], 1, "{read}");
}

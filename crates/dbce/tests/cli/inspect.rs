//! `dbce inspect` on real samples, good and broken.

use serde_json::Value;

use crate::{dbce, testdata};

fn inspect_json(file: &str) -> (i32, Value) {
    let output = dbce()
        .args(["inspect", "--json"])
        .arg(testdata(file))
        .output()
        .unwrap();
    let json = serde_json::from_slice(&output.stdout).unwrap();
    (output.status.code().unwrap(), json)
}

#[test]
fn counts_records_by_type() {
    let (code, json) = inspect_json("example.warc.gz");
    assert_eq!(code, 0);
    assert_eq!(json["records"], 6);
    assert_eq!(json["compression"], "gzip");
    assert_eq!(json["types"]["response"], 1);
    assert_eq!(json["types"]["warcinfo"], 2);
    assert_eq!(json["skips"], serde_json::json!([]));
}

#[test]
fn reports_skips_with_offsets_and_exits_1() {
    let (code, json) = inspect_json("example-trunc.warc");
    assert_eq!(code, 1);
    assert_eq!(json["records"], 3);
    let skips = json["skips"].as_array().unwrap();
    assert_eq!(skips.len(), 1);
    assert_eq!(skips[0]["offset"], 1197);
    assert_eq!(skips[0]["reason"]["kind"], "length-mismatch");
    assert_eq!(
        skips[0]["record_id"],
        "<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>"
    );
}

#[test]
fn text_output_names_the_reason() {
    let output = dbce()
        .arg("inspect")
        .arg(testdata("bad.arc"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout.contains("(arc, compression none)"), "{stdout}");
    assert!(
        stdout.contains("offset 262: 69 bytes of garbage between records"),
        "{stdout}"
    );
}

#[test]
fn payloads_and_digests_are_checked_on_request() {
    let output = dbce()
        .args(["inspect", "--json", "--payloads", "--verify-digests"])
        .arg(testdata("example-iana.org-chunked.warc"))
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["payloads"]["html"], 1);
    assert_eq!(json["payloads"]["statuses"]["2xx"], 1);
    assert_eq!(json["payloads"]["charset_sources"]["http"], 1);
    assert_eq!(json["digests"]["block-valid"], 2);
}

#[test]
fn missing_file_is_an_error_with_exit_2() {
    let output = dbce()
        .args(["inspect", "no/such/file.warc"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("cannot open no/such/file.warc"), "{stderr}");
}

#[test]
fn a_last_block_cut_short_is_read_with_a_warning() {
    let (code, json) = inspect_json("example-space-in-url.arc");
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["records"], 2);
    assert_eq!(json["warnings"]["short-block"], 1);
    assert_eq!(json["skips"], serde_json::json!([]));
}

//! `dbce get`: random access by the offsets the reader reports.

use crate::{dbce, testdata};

#[test]
fn prints_the_record_at_an_offset() {
    let output = dbce()
        .arg("get")
        .arg(testdata("example.warc.gz"))
        .arg("784")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("WARC/1.0\r\n"), "{stdout}");
    assert!(stdout.contains("WARC-Type: response\r\n"));
    assert!(stdout.contains("\r\n\r\nHTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n"));
}

#[test]
fn body_only() {
    let output = dbce()
        .args(["get", "--body"])
        .arg(testdata("example.warc"))
        .arg("0")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stdout.starts_with(b"software: Webrecorder"),
        "{:?}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn an_offset_inside_a_member_is_an_error() {
    let output = dbce()
        .arg("get")
        .arg(testdata("example.warc.gz"))
        .arg("790")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("no readable record at offset 790"),
        "{stderr}"
    );
}

#[test]
fn a_record_inside_a_damaged_whole_file_gzip_is_reached_by_its_decompressed_offset() {
    use std::io::Write as _;
    let plain = std::fs::read(testdata("example.warc")).unwrap();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(&plain).unwrap();
    let mut gz = encoder.finish().unwrap();
    let crc = gz.len() - 8;
    gz[crc] ^= 0xff;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("whole.warc.gz");
    std::fs::write(&path, &gz).unwrap();

    let inspect = dbce()
        .args(["inspect", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&inspect.stdout).unwrap();
    assert_eq!(json["records"], 6, "{json}");
    let skips = json["skips"].as_array().unwrap();
    assert_eq!(skips.len(), 1);
    assert_eq!(skips[0]["reason"]["kind"], "checksum-mismatch");
    assert_eq!(skips[0]["stream_offset"], plain.len());

    let needle = b"WARC/1.0\r\nWARC-Target-URI: http://example.com/\r\nWARC-Date: 2017-03-06T04:02:06Z\r\nWARC-Type: response";
    let response = plain
        .windows(needle.len())
        .position(|w| w == needle)
        .unwrap();
    let output = dbce()
        .arg("get")
        .arg(&path)
        .args(["--stream-offset", &response.to_string()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("WARC-Type: response\r\n"), "{stdout}");
    assert!(
        stdout.contains("a9c51e3e-0221-11e7-bf66-0242ac120005"),
        "{stdout}"
    );

    let past = dbce()
        .arg("get")
        .arg(&path)
        .args(["--stream-offset", &(plain.len() + 1).to_string()])
        .output()
        .unwrap();
    assert_eq!(past.status.code(), Some(2));
}

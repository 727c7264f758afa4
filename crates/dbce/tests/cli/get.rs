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

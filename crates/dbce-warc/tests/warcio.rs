//! What dbce writes reads back with Python's warcio (from PyPI), digests checked, at the
//! offsets dbce reported.
//!
//! The interpreter is `$DBCE_PYTHON` (default `python3`); `scripts/test` sets it to a venv with
//! warcio installed. Without warcio this test fails and says how to install it.

#![allow(clippy::unwrap_used)]

mod common;

use std::process::Command;

use dbce_warc::WarcWriter;

const READ_BACK: &str = r#"
import sys
from warcio.archiveiterator import ArchiveIterator
with open(sys.argv[1], 'rb') as f:
    it = ArchiveIterator(f, check_digests='raise')
    for rec in it:
        body = rec.content_stream().read()
        print(rec.rec_type, rec.rec_headers.get_header('WARC-Record-ID'), len(body),
              it.get_record_offset(), it.get_record_length(), rec.http_headers.get_statuscode())
"#;

#[test]
fn warcio_reads_what_we_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.warc.gz");
    let mut writer = WarcWriter::new(std::fs::File::create(&path).unwrap());
    let locators: Vec<_> = (0..4)
        .map(|n| writer.write_record(&common::response(n)).unwrap())
        .collect();
    writer.finish().unwrap();

    let python = std::env::var("DBCE_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let output = Command::new(&python)
        .arg("-c")
        .arg(READ_BACK)
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "warcio failed ({python}); install it with `scripts/test` or `pip install warcio`:\n{stderr}"
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    for (n, (line, locator)) in lines.iter().zip(&locators).enumerate() {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields[0], "response");
        assert_eq!(
            fields[1],
            format!("<urn:uuid:00000000-0000-0000-0000-{n:012}>")
        );
        assert_eq!(fields[3], locator.offset.to_string());
        assert_eq!(fields[4], locator.length.to_string());
        assert_eq!(fields[5], "200");
    }
}

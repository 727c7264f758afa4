//! Archives built in memory for the reader's tests.

#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

use std::io::{Cursor, Write as _};

use dbce_warc::{
    Entry, Headers, NewRecord, ReaderConfig, Record, RecordLocator, RecordType, Skip, WarcReader,
    WarcWriter,
};

/// A response record with a small HTML page whose text depends on `n`.
pub fn response(n: usize) -> NewRecord {
    let mut fields = Headers::new();
    fields.push(
        "WARC-Record-ID",
        format!("<urn:uuid:00000000-0000-0000-0000-{n:012}>"),
    );
    fields.push("WARC-Date", "2024-05-01T12:00:00Z");
    fields.push("WARC-Target-URI", format!("http://example.com/page/{n}"));
    fields.push("Content-Type", "application/http; msgtype=response");
    let html = format!(
        "<html><body><p>Page {n} {}</p></body></html>",
        "text ".repeat(n % 50)
    );
    let block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{html}",
        html.len()
    );
    NewRecord {
        record_type: RecordType::Response,
        fields,
        block: block.into_bytes(),
    }
}

/// `count` records written one gzip member each, with their locators.
pub fn gzip_archive(count: usize) -> (Vec<u8>, Vec<RecordLocator>) {
    let mut writer = WarcWriter::new(Vec::new());
    let locators = (0..count)
        .map(|n| writer.write_record(&response(n)).unwrap())
        .collect();
    (writer.finish().unwrap(), locators)
}

/// The same records uncompressed, with the offset where each starts.
pub fn plain_archive(count: usize) -> (Vec<u8>, Vec<u64>) {
    let (gz, _) = gzip_archive(count);
    let mut plain = Vec::new();
    let mut decoder = flate2::read::MultiGzDecoder::new(&gz[..]);
    std::io::copy(&mut decoder, &mut plain).unwrap();
    let mut starts = Vec::new();
    let mut at = 0;
    while let Some(found) = memchr::memmem::find(&plain[at..], b"WARC/1.1\r\n") {
        starts.push((at + found) as u64);
        at += found + 1;
    }
    (plain, starts)
}

/// Everything a reader yields for `bytes`.
pub fn read_all(bytes: Vec<u8>, config: ReaderConfig) -> (Vec<Record>, Vec<Skip>) {
    let reader = WarcReader::new(Cursor::new(bytes), config).unwrap();
    let mut records = Vec::new();
    let mut skips = Vec::new();
    for entry in reader {
        match entry.unwrap() {
            Entry::Record(record) => records.push(record),
            Entry::Skip(skip) => skips.push(skip),
        }
    }
    (records, skips)
}

/// gzip of `bytes` as a single member.
pub fn gzip_whole(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

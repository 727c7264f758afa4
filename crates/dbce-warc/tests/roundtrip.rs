//! Write → read round trips, robustness on arbitrary bytes, and interoperability with the
//! `warc` crate.

#![allow(clippy::unwrap_used)]

mod common;

use std::io::Cursor;

use dbce_warc::{Entry, Headers, NewRecord, ReaderConfig, RecordType, WarcReader, WarcWriter};
use proptest::prelude::*;

fn record_strategy() -> impl Strategy<Value = NewRecord> {
    let types = prop_oneof![
        Just(RecordType::Response),
        Just(RecordType::Resource),
        Just(RecordType::Metadata),
        Just(RecordType::Request),
    ];
    (
        types,
        "[a-z]{1,12}",
        proptest::collection::vec(any::<u8>(), 0..2000),
        0u32..1_000_000,
    )
        .prop_map(|(record_type, path, block, n)| {
            let mut fields = Headers::new();
            fields.push(
                "WARC-Record-ID",
                format!("<urn:uuid:{n:08}-0000-0000-0000-000000000000>"),
            );
            fields.push("WARC-Date", "2020-02-02T02:02:02Z");
            fields.push("WARC-Target-URI", format!("https://example.org/{path}"));
            fields.push("Content-Type", "application/octet-stream");
            NewRecord {
                record_type,
                fields,
                block,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn written_records_read_back_with_their_locators(records in proptest::collection::vec(record_strategy(), 1..8)) {
        let mut writer = WarcWriter::new(Vec::new());
        let locators: Vec<_> = records.iter().map(|r| writer.write_record(r).unwrap()).collect();
        let bytes = writer.finish().unwrap();
        let config = ReaderConfig { verify_digests: true, ..ReaderConfig::default() };
        let (read, skips) = common::read_all(bytes, config);
        prop_assert!(skips.is_empty());
        prop_assert_eq!(read.len(), records.len());
        for ((got, want), locator) in read.iter().zip(&records).zip(&locators) {
            prop_assert_eq!(&got.header.record_type, &want.record_type);
            prop_assert_eq!(got.body.bytes().unwrap(), &want.block[..]);
            prop_assert_eq!(got.header.record_id(), want.fields.get("WARC-Record-ID"));
            prop_assert_eq!(&got.locator, locator);
            prop_assert_eq!(got.digests.unwrap().block, dbce_warc::DigestCheck::Valid);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_always_end(bytes in proptest::collection::vec(any::<u8>(), 0..4000)) {
        let (records, skips) = common::read_all(bytes, ReaderConfig::default());
        prop_assert!(records.len() + skips.len() <= 4000);
    }

    #[test]
    fn damaged_archives_account_for_every_record(cut in 0usize..2000, flip in 0usize..2000) {
        let (mut bytes, locators) = common::gzip_archive(6);
        let flip = flip % bytes.len();
        bytes[flip] ^= 0x41;
        let kept = bytes.len() - cut.min(bytes.len());
        bytes.truncate(kept);
        let (records, skips) = common::read_all(bytes, ReaderConfig::default());
        // Each record is read whole, or a skip names its member, or less than a gzip header of
        // it is left before the cut (too little to be told from garbage).
        for locator in &locators {
            let read = records.iter().any(|r| r.locator == *locator);
            let reported = skips.iter().any(|s| s.offset == locator.offset);
            let gone = locator.offset + 10 > kept as u64;
            prop_assert!(read || reported || gone, "record at {} lost: {:?}", locator.offset, skips);
        }
    }
}

#[test]
fn the_warc_crate_reads_what_we_write() {
    let mut writer = WarcWriter::new(Vec::new());
    for n in 0..5 {
        writer.write_record(&common::response(n)).unwrap();
    }
    let gz = writer.finish().unwrap();
    let mut plain = Vec::new();
    std::io::copy(&mut flate2::read::MultiGzDecoder::new(&gz[..]), &mut plain).unwrap();
    let reader = warc::WarcReader::new(Cursor::new(plain));
    let mut count = 0;
    for record in reader.iter_records() {
        let record = record.unwrap();
        assert_eq!(record.warc_type(), &warc::RecordType::Response);
        assert!(record.body().starts_with(b"HTTP/1.1 200 OK"));
        count += 1;
    }
    assert_eq!(count, 5);
}

#[test]
fn reader_output_is_identical_for_any_buffering() {
    let (bytes, _) = common::gzip_archive(20);
    let first: Vec<Entry> = WarcReader::new(Cursor::new(bytes.clone()), ReaderConfig::default())
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let second: Vec<Entry> = WarcReader::new(
        std::io::BufReader::with_capacity(7, Cursor::new(bytes)),
        ReaderConfig::default(),
    )
    .unwrap()
    .map(Result::unwrap)
    .collect();
    assert_eq!(first, second);
}

#[test]
fn an_html_response_reads_back_as_the_page_it_holds() {
    let html = "<html><body><p>Grüße</p></body></html>";
    let record = NewRecord::html_response(
        "<urn:test:1>",
        "2024-05-01T12:00:00Z",
        "http://example.com/a",
        html.as_bytes(),
    );
    let mut writer = WarcWriter::new(Vec::new());
    writer.write_record(&record).unwrap();
    let bytes = writer.finish().unwrap();
    let mut reader = WarcReader::new(Cursor::new(bytes), ReaderConfig::default()).unwrap();
    let Some(Entry::Record(read)) = reader.next_entry().unwrap() else {
        panic!("no record");
    };
    assert_eq!(read.header.record_type, RecordType::Response);
    assert_eq!(read.header.record_id(), Some("<urn:test:1>"));
    assert_eq!(read.header.target_uri(), Some("http://example.com/a"));
    let body = read.body.bytes().unwrap();
    let text = String::from_utf8_lossy(body);
    assert!(text.starts_with("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"));
    assert!(text.contains(&format!("Content-Length: {}\r\n\r\n{html}", html.len())));
}

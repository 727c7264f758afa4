//! Every supported framing yields the same records with exact locators.

#![allow(clippy::unwrap_used)]

mod common;

use common::{gzip_whole, plain_archive, read_all};
use dbce_warc::{ArchiveFormat, Compression, ReaderConfig, RecordType, WarcReader};

fn pieces(plain: &[u8], starts: &[u64]) -> Vec<Vec<u8>> {
    let mut cuts = starts.to_vec();
    cuts.push(plain.len() as u64);
    cuts.windows(2)
        .map(|w| plain[w[0] as usize..w[1] as usize].to_vec())
        .collect()
}

fn zstd_archive(dictionary: Option<(&[u8], bool)>) -> (Vec<u8>, Vec<u64>) {
    let (plain, starts) = plain_archive(4);
    let mut out = Vec::new();
    let mut compressor = match dictionary {
        Some((dict, compress_dict)) => {
            let stored = if compress_dict {
                zstd::bulk::compress(dict, 3).unwrap()
            } else {
                dict.to_vec()
            };
            out.extend_from_slice(&0x184d_2a5d_u32.to_le_bytes());
            out.extend_from_slice(&(stored.len() as u32).to_le_bytes());
            out.extend_from_slice(&stored);
            zstd::bulk::Compressor::with_dictionary(3, dict).unwrap()
        }
        None => zstd::bulk::Compressor::new(3).unwrap(),
    };
    let mut offsets = Vec::new();
    for piece in pieces(&plain, &starts) {
        offsets.push(out.len() as u64);
        out.extend_from_slice(&compressor.compress(&piece).unwrap());
    }
    (out, offsets)
}

#[test]
fn zstd_frames_with_and_without_dictionary() {
    let dictionary = b"WARC/1.1\r\nWARC-Type: response\r\nContent-Type: application/http; msgtype=response\r\n<html><body><p>Page";
    for dict in [
        None,
        Some((&dictionary[..], false)),
        Some((&dictionary[..], true)),
    ] {
        let (bytes, offsets) = zstd_archive(dict);
        assert_eq!(Compression::detect(&bytes), Compression::Zstd);
        let (records, skips) = read_all(bytes, ReaderConfig::default());
        assert!(skips.is_empty(), "{skips:?}");
        let got: Vec<u64> = records.iter().map(|r| r.locator.offset).collect();
        assert_eq!(got, offsets);
        assert!(records.iter().all(|r| !r.locator.shared));
        assert!(records[3].body.bytes().unwrap().ends_with(b"</html>"));
    }
}

#[test]
fn whole_file_gzip_gives_shared_locators_and_the_same_records() {
    let (plain, starts) = plain_archive(3);
    let (expected, _) = read_all(plain.clone(), ReaderConfig::default());
    let (records, skips) = read_all(gzip_whole(&plain), ReaderConfig::default());
    assert!(skips.is_empty());
    assert_eq!(records.len(), 3);
    for (record, want) in records.iter().zip(&expected) {
        assert_eq!(record.header, want.header);
        assert_eq!(record.body, want.body);
    }
    assert!(!records[0].locator.shared || records[0].locator.offset == 0);
    assert!(records[1].locator.shared);
    let stream: Vec<u64> = records.iter().map(|r| r.stream_offset).collect();
    assert_eq!(stream, starts);
}

#[test]
fn uncompressed_locators_are_the_record_bytes() {
    let (plain, starts) = plain_archive(3);
    let (records, _) = read_all(plain.clone(), ReaderConfig::default());
    for (record, start) in records.iter().zip(&starts) {
        assert_eq!(record.locator.offset, *start);
        let bytes =
            &plain[*start as usize..(record.locator.offset + record.locator.length) as usize];
        // Header and block, without the newlines after the block (as warcio counts).
        assert!(bytes.starts_with(b"WARC/1.1\r\n") && bytes.ends_with(b"</html>"));
        let next = (record.locator.offset + record.locator.length) as usize;
        assert_eq!(&plain[next..next + 4], b"\r\n\r\n");
    }
}

#[test]
fn bodies_can_be_skipped_by_type() {
    let (plain, _) = plain_archive(2);
    let config = ReaderConfig {
        keep_bodies: Some(vec![RecordType::Request]),
        ..ReaderConfig::default()
    };
    let (records, _) = read_all(plain, config);
    assert!(
        records
            .iter()
            .all(|r| r.body.bytes().is_none() && !r.body.is_empty())
    );
}

fn testdata(name: &str) -> std::fs::File {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/warc/");
    std::fs::File::open(format!("{path}{name}")).unwrap()
}

fn summary(name: &str) -> (usize, Vec<String>, Option<ArchiveFormat>) {
    let mut reader = WarcReader::new(
        std::io::BufReader::new(testdata(name)),
        ReaderConfig::default(),
    )
    .unwrap();
    let mut records = 0;
    let mut skips = Vec::new();
    while let Some(entry) = reader.next_entry().unwrap() {
        match entry {
            dbce_warc::Entry::Record(_) => records += 1,
            dbce_warc::Entry::Skip(skip) => {
                skips.push(format!("{}@{}", skip.reason.name(), skip.offset))
            }
        }
    }
    (records, skips, reader.format())
}

#[test]
fn real_samples_are_read_or_reported() {
    let cases: &[(&str, usize, &[&str])] = &[
        ("example.warc", 6, &[]),
        ("example.warc.gz", 6, &[]),
        ("example-bad.warc.gz.bad", 6, &[]),
        ("example-digest.warc", 4, &[]),
        ("example-iana.org-chunked.warc", 3, &[]),
        ("example-resource.warc.gz", 3, &[]),
        ("example-wget-bad-target-uri.warc.gz", 6, &[]),
        ("post-test.warc.gz", 6, &[]),
        ("example-wrong-chunks.warc.gz", 2, &[]),
        ("example-trunc.warc", 3, &["length-mismatch@1197"]),
        ("example.arc", 2, &[]),
        ("example.arc.gz", 2, &[]),
        ("example-space-in-url.arc", 2, &[]),
        ("bad.arc", 1, &["garbage@0", "garbage@262"]),
    ];
    for (name, want_records, want_skips) in cases {
        let (records, skips, _) = summary(name);
        assert_eq!(records, *want_records, "{name}");
        assert_eq!(
            skips,
            want_skips
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            "{name}"
        );
    }
    assert_eq!(summary("example.arc").2, Some(ArchiveFormat::Arc));
}

/// A reader started at a record inside an ARC file (random access by offset, as `dbce get` and
/// stage `annotate` do) reads it as ARC, in the version its header line is written in.
#[test]
fn arc_records_read_from_their_offset() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/warc");
    for name in ["example.arc", "example.arc.gz"] {
        let bytes = std::fs::read(root.join(name)).unwrap();
        let whole = WarcReader::new(std::io::Cursor::new(&bytes), ReaderConfig::default()).unwrap();
        let records: Vec<_> = whole
            .filter_map(|e| match e.unwrap() {
                dbce_warc::Entry::Record(r) => Some(r),
                dbce_warc::Entry::Skip(_) => None,
            })
            .collect();
        let response = records
            .iter()
            .find(|r| r.header.record_type == RecordType::Response)
            .unwrap();
        let offset = response.locator.offset as usize;
        let mut reader = WarcReader::new(
            std::io::Cursor::new(&bytes[offset..]),
            ReaderConfig::default(),
        )
        .unwrap();
        let Some(dbce_warc::Entry::Record(again)) = reader.next_entry().unwrap() else {
            panic!("{name}: no record at offset {offset}");
        };
        assert_eq!(reader.format(), Some(ArchiveFormat::Arc), "{name}");
        assert_eq!(again.header.record_type, RecordType::Response, "{name}");
        assert_eq!(again.header.fields, response.header.fields, "{name}");
        assert_eq!(again.body.bytes(), response.body.bytes(), "{name}");
    }
}

//! Broken archives: every record is read or reported, with the right offset and reason.

#![allow(clippy::unwrap_used)]

mod common;

use common::{gzip_archive, plain_archive, read_all};
use dbce_warc::{ReaderConfig, SkipReason};

#[test]
fn truncated_gzip_member_is_reported_and_earlier_records_kept() {
    let (mut bytes, locators) = gzip_archive(5);
    let last = locators[4];
    bytes.truncate((last.offset + last.length / 2) as usize);
    let (records, skips) = read_all(bytes, ReaderConfig::default());
    assert_eq!(records.len(), 4);
    assert_eq!(skips.len(), 1, "{skips:?}");
    assert_eq!(skips[0].offset, last.offset);
    assert_eq!(skips[0].reason, SkipReason::TruncatedMember);
}

#[test]
fn corrupt_member_is_skipped_and_reading_resumes_at_the_next() {
    let (mut bytes, locators) = gzip_archive(6);
    let bad = locators[2];
    for byte in &mut bytes[(bad.offset + 20) as usize..(bad.offset + 40) as usize] {
        *byte ^= 0x5a;
    }
    let (records, skips) = read_all(bytes, ReaderConfig::default());
    assert_eq!(skips.len(), 1, "{skips:?}");
    assert_eq!(skips[0].offset, bad.offset);
    assert_eq!(skips[0].reason, SkipReason::CorruptMember);
    let offsets: Vec<u64> = records.iter().map(|r| r.locator.offset).collect();
    let expected: Vec<u64> = locators
        .iter()
        .filter(|l| l.offset != bad.offset)
        .map(|l| l.offset)
        .collect();
    assert_eq!(offsets, expected);
}

#[test]
fn garbage_between_members_is_measured() {
    let (bytes, locators) = gzip_archive(3);
    let cut = locators[1].offset as usize;
    let mut broken = bytes[..cut].to_vec();
    broken.extend_from_slice(b"this is not gzip at all");
    broken.extend_from_slice(&bytes[cut..]);
    let (records, skips) = read_all(broken, ReaderConfig::default());
    assert_eq!(records.len(), 3);
    assert_eq!(skips.len(), 1);
    assert_eq!(skips[0].offset, cut as u64);
    assert_eq!(skips[0].reason, SkipReason::Garbage { length: 23 });
    assert_eq!(records[1].locator.offset, cut as u64 + 23);
}

#[test]
fn garbage_between_uncompressed_records_is_measured() {
    let (plain, starts) = plain_archive(3);
    let cut = starts[1] as usize;
    let mut broken = plain[..cut].to_vec();
    broken.extend_from_slice(b"junk line\r\nmore junk\r\n");
    broken.extend_from_slice(&plain[cut..]);
    let (records, skips) = read_all(broken, ReaderConfig::default());
    assert_eq!(records.len(), 3);
    assert_eq!(skips[0].offset, cut as u64);
    assert_eq!(skips[0].reason, SkipReason::Garbage { length: 22 });
    assert_eq!(records[1].locator.offset, cut as u64 + 22);
}

/// Offsets of the `WARC/1.1` lines in an uncompressed archive.
fn record_starts(plain: &[u8]) -> Vec<u64> {
    memchr::memmem::find_iter(plain, b"WARC/1.1\r\n")
        .map(|at| at as u64)
        .collect()
}

fn with_content_length(plain: &[u8], record_start: u64, delta: i64) -> Vec<u8> {
    let at = record_start as usize;
    let header_end = at + memchr::memmem::find(&plain[at..], b"\r\n\r\n").unwrap();
    let header = std::str::from_utf8(&plain[at..header_end]).unwrap();
    let line = header
        .lines()
        .find(|l| l.starts_with("Content-Length:"))
        .unwrap();
    let length: i64 = line["Content-Length:".len()..].trim().parse().unwrap();
    let fixed = header.replace(line, &format!("Content-Length: {}", length + delta));
    [&plain[..at], fixed.as_bytes(), &plain[header_end..]].concat()
}

#[test]
fn too_short_content_length_is_reported_and_the_next_record_found() {
    let (plain, starts) = plain_archive(4);
    let broken = with_content_length(&plain, starts[1], -10);
    let starts = record_starts(&broken);
    let (records, skips) = read_all(broken, ReaderConfig::default());
    assert_eq!(records.len(), 3, "{skips:?}");
    assert_eq!(skips.len(), 1);
    assert_eq!(skips[0].offset, starts[1]);
    assert!(matches!(skips[0].reason, SkipReason::LengthMismatch { .. }));
    assert_eq!(records[1].locator.offset, starts[2]);
}

#[test]
fn too_long_content_length_does_not_swallow_the_next_record() {
    let (plain, starts) = plain_archive(4);
    let broken = with_content_length(&plain, starts[1], 30);
    let starts = record_starts(&broken);
    let (records, skips) = read_all(broken, ReaderConfig::default());
    assert_eq!(skips.len(), 1, "{skips:?}");
    assert_eq!(skips[0].offset, starts[1]);
    assert!(matches!(skips[0].reason, SkipReason::LengthMismatch { .. }));
    let offsets: Vec<u64> = records.iter().map(|r| r.locator.offset).collect();
    assert_eq!(offsets, [starts[0], starts[2], starts[3]]);
}

#[test]
fn too_long_content_length_in_a_gzip_member_ends_at_the_member() {
    let (plain, starts) = plain_archive(3);
    let broken = with_content_length(&plain, starts[1], 100);
    let mut cuts = record_starts(&broken);
    cuts.push(broken.len() as u64);
    let members: Vec<Vec<u8>> = cuts
        .windows(2)
        .map(|w| common::gzip_whole(&broken[w[0] as usize..w[1] as usize]))
        .collect();
    let (records, skips) = read_all(members.concat(), ReaderConfig::default());
    assert_eq!(records.len(), 2, "{skips:?}");
    assert_eq!(skips.len(), 1);
    assert_eq!(skips[0].offset, members[0].len() as u64);
    assert!(matches!(skips[0].reason, SkipReason::LengthMismatch { .. }));
    assert_eq!(
        records[1].locator.offset,
        (members[0].len() + members[1].len()) as u64
    );
    assert!(!records[1].locator.shared);
}

#[test]
fn missing_mandatory_header_is_a_skip_with_the_record_id() {
    let (plain, starts) = plain_archive(2);
    let text =
        String::from_utf8(plain)
            .unwrap()
            .replacen("WARC-Date: 2024-05-01T12:00:00Z\r\n", "", 1);
    let (records, skips) = read_all(text.into_bytes(), ReaderConfig::default());
    assert_eq!(records.len(), 1);
    assert_eq!(skips[0].offset, starts[0]);
    assert_eq!(
        skips[0].reason,
        SkipReason::MissingHeader { field: "WARC-Date" }
    );
    assert!(
        skips[0]
            .record_id
            .as_deref()
            .unwrap()
            .contains("000000000000")
    );
}

#[test]
fn over_large_record_is_passed_over_unread() {
    let (bytes, locators) = gzip_archive(3);
    let config = ReaderConfig {
        max_record_size: 110,
        ..ReaderConfig::default()
    };
    let (records, skips) = read_all(bytes, config);
    // Record sizes grow with their number; the limit lets only the first through.
    assert!(records.iter().all(|r| r.body.len() <= 110));
    assert_eq!(records.len() + skips.len(), 3);
    assert!(
        skips
            .iter()
            .all(|s| matches!(s.reason, SkipReason::RecordTooLarge { limit: 110, .. }))
    );
    assert_eq!(skips.last().unwrap().offset, locators[2].offset);
}

#[test]
fn truncated_uncompressed_record_is_reported() {
    let (plain, starts) = plain_archive(3);
    let cut = starts[2] as usize + 150;
    let (records, skips) = read_all(plain[..cut].to_vec(), ReaderConfig::default());
    assert_eq!(records.len(), 2);
    assert_eq!(skips.len(), 1);
    assert_eq!(skips[0].offset, starts[2]);
    assert_eq!(skips[0].reason, SkipReason::TruncatedRecord);
}

#[test]
fn header_without_end_is_bounded_by_the_limit() {
    let mut bytes = b"WARC/1.1\r\nWARC-Type: response\r\n".to_vec();
    bytes.extend(std::iter::repeat_n(b"X-Pad: aaaaaaaaaaaaaaaa\r\n".to_vec(), 5000).flatten());
    let config = ReaderConfig {
        max_header_size: 1024,
        ..ReaderConfig::default()
    };
    let (records, skips) = read_all(bytes, config);
    assert!(records.is_empty());
    assert_eq!(skips.len(), 1);
    assert_eq!(skips[0].reason, SkipReason::HeaderTooLarge { limit: 1024 });
}

#[test]
fn empty_and_whitespace_files_have_no_records() {
    for bytes in [Vec::new(), b"\r\n\r\n".to_vec()] {
        let (records, skips) = read_all(bytes, ReaderConfig::default());
        assert!(records.is_empty() && skips.is_empty());
    }
}

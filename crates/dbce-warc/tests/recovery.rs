//! Damaged archives (issue 14): every record that is intact is read, and every damage is a skip
//! with a reachable offset. Each damaged file is built here from a good one.

#![allow(clippy::unwrap_used)]

mod common;

use common::{gzip_whole, plain_archive, read_all};
use dbce_warc::{
    Entry, Headers, NewRecord, ReadWarning, ReaderConfig, RecordType, SkipReason, WarcReader,
    WarcWriter,
};

const RECORDS: usize = 60;

/// A whole-file gzip archive of `RECORDS` records, with the uncompressed bytes.
fn whole_gzip() -> (Vec<u8>, Vec<u8>) {
    let (plain, _) = plain_archive(RECORDS);
    (gzip_whole(&plain), plain)
}

fn whole_zstd(plain: &[u8]) -> Vec<u8> {
    let mut encoder = zstd::Encoder::new(Vec::new(), 3).unwrap();
    encoder.include_checksum(true).unwrap();
    std::io::Write::write_all(&mut encoder, plain).unwrap();
    encoder.finish().unwrap()
}

/// How many whole records the decompressed prefix `intact` holds.
fn whole_records_in(intact: &[u8], plain: &[u8]) -> usize {
    let (_, starts) = plain_archive_starts(plain);
    let mut ends: Vec<usize> = starts.iter().skip(1).map(|&s| s as usize).collect();
    ends.push(plain.len());
    // A record is whole when its block (without the two trailing CRLFs) is in the prefix.
    ends.iter().filter(|&&end| end - 4 <= intact.len()).count()
}

fn plain_archive_starts(plain: &[u8]) -> (usize, Vec<u64>) {
    let starts: Vec<u64> = memchr::memmem::find_iter(plain, b"WARC/1.1\r\n")
        .map(|at| at as u64)
        .collect();
    (starts.len(), starts)
}

#[test]
fn whole_gzip_with_a_wrong_crc_loses_nothing() {
    let (mut bytes, _) = whole_gzip();
    let crc = bytes.len() - 8;
    bytes[crc] ^= 0xff;
    let (records, skips) = read_all(bytes, ReaderConfig::default());
    assert_eq!(records.len(), RECORDS);
    assert_eq!(skips.len(), 1, "{skips:?}");
    assert_eq!(skips[0].reason, SkipReason::ChecksumMismatch);
    assert_eq!(skips[0].offset, 0);
}

#[test]
fn whole_gzip_with_a_wrong_size_loses_nothing() {
    let (mut bytes, plain) = whole_gzip();
    let isize = bytes.len() - 4;
    bytes[isize] ^= 0x01;
    let (records, skips) = read_all(bytes, ReaderConfig::default());
    assert_eq!(records.len(), RECORDS);
    assert_eq!(skips[0].reason, SkipReason::ChecksumMismatch);
    assert_eq!(skips[0].stream_offset, Some(plain.len() as u64));
}

#[test]
fn whole_gzip_cut_in_its_trailer_or_data_keeps_every_decoded_record() {
    let (bytes, plain) = whole_gzip();
    for missing in [1, 8, 9, 200, 2000] {
        let cut = bytes[..bytes.len() - missing].to_vec();
        let mut zcat = Vec::new();
        // What zcat gives before it reports the damage.
        let _ = std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&cut[..]), &mut zcat);
        let intact = whole_records_in(&zcat, &plain);
        let (records, skips) = read_all(cut, ReaderConfig::default());
        assert!(
            records.len() >= intact,
            "{missing}: {} < {intact}",
            records.len()
        );
        assert_eq!(skips.last().unwrap().reason, SkipReason::TruncatedMember);
        assert!(skips.iter().all(|s| s.stream_offset.is_some()), "{skips:?}");
    }
}

#[test]
fn whole_gzip_with_a_flipped_bit_keeps_the_records_before_it() {
    let (bytes, plain) = whole_gzip();
    let mut checked = 0;
    for back in [40, 300, 1500] {
        let mut broken = bytes.clone();
        let at = broken.len() - back;
        broken[at] ^= 0x10;
        let mut zcat = Vec::new();
        let failed =
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&broken[..]), &mut zcat)
                .is_err();
        if !failed {
            continue;
        }
        checked += 1;
        // zcat's bytes go wrong before it notices: the records that decompress intact are
        // those that end before the first wrong byte.
        let right = zcat.iter().zip(&plain).take_while(|(a, b)| a == b).count();
        let intact = whole_records_in(&zcat[..right], &plain);
        let (records, skips) = read_all(broken, ReaderConfig::default());
        assert!(
            records.len() >= intact,
            "{back}: {} < {intact}",
            records.len()
        );
        assert!(!skips.is_empty());
        assert!(skips.iter().all(|s| s.stream_offset.is_some()), "{skips:?}");
    }
    assert!(checked > 0);
}

#[test]
fn zstd_with_a_damaged_content_checksum_loses_nothing() {
    let (plain, _) = plain_archive(RECORDS);
    let mut bytes = whole_zstd(&plain);
    let checksum = bytes.len() - 2;
    bytes[checksum] ^= 0x01;
    let (records, skips) = read_all(bytes, ReaderConfig::default());
    assert_eq!(records.len(), RECORDS);
    assert_eq!(skips.len(), 1, "{skips:?}");
    assert_eq!(skips[0].reason, SkipReason::ChecksumMismatch);
    assert_eq!(skips[0].stream_offset, Some(plain.len() as u64));
}

#[test]
fn zstd_with_a_good_checksum_has_no_skip() {
    let (plain, _) = plain_archive(RECORDS);
    let (records, skips) = read_all(whole_zstd(&plain), ReaderConfig::default());
    assert_eq!((records.len(), skips.len()), (RECORDS, 0));
}

#[test]
fn gzip_member_with_only_a_wrong_crc_keeps_its_record() {
    let (mut bytes, locators) = common::gzip_archive(4);
    let bad = locators[1];
    let crc = (bad.offset + bad.length - 8) as usize;
    bytes[crc] ^= 0x55;
    let (records, skips) = read_all(bytes, ReaderConfig::default());
    assert_eq!(records.len(), 4, "{skips:?}");
    assert_eq!(records[1].locator, bad);
    assert_eq!(skips.len(), 1);
    assert_eq!(skips[0].reason, SkipReason::ChecksumMismatch);
    assert_eq!(skips[0].offset, bad.offset);
}

#[test]
fn junk_glued_before_a_version_line_does_not_swallow_the_record() {
    let (plain, starts) = plain_archive(4);
    for junk in [&b"abcd"[..], &[0xff, 0x00, 0x13, 0x80], &[0; 10]] {
        let cut = starts[2] as usize;
        let broken = [&plain[..cut], junk, &plain[cut..]].concat();
        let (records, skips) = read_all(broken, ReaderConfig::default());
        assert_eq!(records.len(), 4, "{skips:?}");
        assert_eq!(skips.len(), 1);
        assert_eq!(skips[0].offset, cut as u64);
        assert_eq!(
            skips[0].reason,
            SkipReason::Garbage {
                length: junk.len() as u64
            }
        );
        assert_eq!(records[2].locator.offset, (cut + junk.len()) as u64);
    }
}

#[test]
fn content_length_past_the_end_of_the_file_does_not_lose_later_records() {
    let (plain, starts) = plain_archive(5);
    let at = starts[1] as usize;
    let text = String::from_utf8(plain[at..].to_vec()).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("Content-Length:"))
        .unwrap();
    let broken = [
        &plain[..at],
        text.replacen(line, "Content-Length: 99999999", 1)
            .as_bytes(),
    ]
    .concat();
    let (records, skips) = read_all(broken, ReaderConfig::default());
    assert_eq!(records.len(), 4, "{skips:?}");
    assert_eq!(skips.len(), 1);
    assert_eq!(skips[0].offset, starts[1]);
    assert!(matches!(
        skips[0].reason,
        SkipReason::LengthMismatch {
            declared: 99_999_999
        }
    ));
}

#[test]
fn last_block_cut_by_the_end_of_the_file_is_read_with_a_warning() {
    let (plain, _) = plain_archive(3);
    let cut = plain.len() - 20;
    let (records, skips) = read_all(plain[..cut].to_vec(), ReaderConfig::default());
    assert_eq!((records.len(), skips.len()), (3, 0), "{skips:?}");
    assert!(matches!(
        records[2].warnings[..],
        [ReadWarning::ShortBlock { .. }]
    ));
    assert!(records[..2].iter().all(|r| r.warnings.is_empty()));
}

#[test]
fn header_lines_ending_cr_cr_lf_are_read_with_a_warning() {
    let (plain, starts) = plain_archive(3);
    let at = starts[1] as usize;
    let header_end = at + memchr::memmem::find(&plain[at..], b"\r\n\r\n").unwrap() + 4;
    let header = plain[at..header_end].to_vec();
    let mut doubled = Vec::new();
    for &byte in &header {
        if byte == b'\r' {
            doubled.push(b'\r');
        }
        doubled.push(byte);
    }
    let broken = [&plain[..at], &doubled[..], &plain[header_end..]].concat();
    let (records, skips) = read_all(broken, ReaderConfig::default());
    assert_eq!((records.len(), skips.len()), (3, 0), "{skips:?}");
    assert_eq!(records[1].warnings, [ReadWarning::CrCrLf]);
}

#[test]
fn zeros_over_a_record_start_never_grow_the_previous_record() {
    let (plain, starts) = plain_archive(4);
    let (good, _) = read_all(plain.clone(), ReaderConfig::default());
    let mut broken = plain.clone();
    let at = starts[2] as usize;
    broken[at - 30..at + 40].fill(0);
    let (records, skips) = read_all(broken, ReaderConfig::default());
    for record in &records {
        let same = good
            .iter()
            .find(|g| g.locator.offset == record.locator.offset);
        assert!(
            same.is_some_and(|g| g.locator == record.locator),
            "{record:?}"
        );
    }
    // Record 1 lost its end, record 2 its start: both are reported, record 3 is read.
    assert_eq!(records.len(), 2, "{skips:?}");
    assert!(skips.iter().any(|s| s.offset == starts[1]));
}

#[test]
fn no_skip_of_a_plain_file_ends_past_its_end() {
    let (plain, starts) = plain_archive(4);
    let len = plain.len() as u64;
    let mut broken = plain.clone();
    broken.truncate(starts[3] as usize + 5);
    broken.extend_from_slice(b"garbage at the end without a newline");
    let (_, skips) = read_all(broken.clone(), ReaderConfig::default());
    for skip in &skips {
        if let SkipReason::Garbage { length } = skip.reason {
            assert!(skip.offset + length <= broken.len() as u64, "{skip:?}");
        }
    }
    assert!(len > 0);
}

/// Found by the `gzip_members` fuzz target: one byte of a gzip-per-record archive of five
/// records xored with 0xdd; every record must be read at its locator or reported at its
/// member's offset.
/// A gzip-per-record archive of five records, and where each is.
fn five_members() -> (Vec<u8>, Vec<dbce_warc::RecordLocator>) {
    let mut writer = WarcWriter::new(Vec::new());
    let locators: Vec<_> = (0..5)
        .map(|n| {
            let mut fields = Headers::new();
            fields.push("WARC-Record-ID", format!("<urn:uuid:{n}>"));
            fields.push("WARC-Date", "2020-01-01T00:00:00Z");
            let block = format!("record {n} ").repeat(n + 1).into_bytes();
            writer
                .write_record(&NewRecord {
                    record_type: RecordType::Resource,
                    fields,
                    block,
                })
                .expect("in memory")
        })
        .collect();
    (writer.finish().expect("in memory"), locators)
}

fn entries_of(bytes: &[u8]) -> Vec<Entry> {
    WarcReader::new(std::io::Cursor::new(bytes), ReaderConfig::default())
        .expect("in memory")
        .map(|e| e.expect("in memory"))
        .collect()
}

/// Every record is read at its locator or reported at its own offset.
fn assert_accounted(bytes: &[u8], locators: &[dbce_warc::RecordLocator], damage: &str) {
    let entries = entries_of(bytes);
    for locator in locators {
        let accounted = entries.iter().any(|entry| match entry {
            Entry::Record(record) => record.locator == *locator,
            Entry::Skip(skip) => skip.offset == locator.offset,
        });
        assert!(
            accounted,
            "record at {} ({damage}) neither read nor reported: {locators:?} {entries:#?}",
            locator.offset
        );
    }
}

#[test]
fn one_damaged_byte_leaves_every_member_accounted_for() {
    let (mut bytes, locators) = five_members();
    let at = 64093 % bytes.len();
    bytes[at] ^= 0xdd;
    assert_accounted(&bytes, &locators, &format!("damage at {at}"));
}

#[test]
fn a_member_with_a_damaged_magic_byte_is_read_with_a_warning() {
    let (bytes, locators) = five_members();
    for member in &locators {
        for at in 0..3 {
            let mut damaged = bytes.clone();
            let at = usize::try_from(member.offset).unwrap() + at;
            damaged[at] ^= 0x20;
            let entries = entries_of(&damaged);
            let records: Vec<_> = entries
                .iter()
                .filter_map(|e| match e {
                    Entry::Record(record) => Some(record),
                    Entry::Skip(_) => None,
                })
                .collect();
            assert_eq!(records.len(), 5, "damage at {at}: {entries:#?}");
            for record in records {
                let warned = record.warnings == [ReadWarning::DamagedGzipMagic];
                assert_eq!(warned, record.locator == *member, "damage at {at}");
                assert!(locators.contains(&record.locator));
            }
        }
    }
}

#[test]
fn a_damaged_member_and_a_later_damaged_magic_leave_every_record_accounted_for() {
    // Two faults together (found by the `gzip_members` fuzz target): damage inside one
    // member's data, which can make its decoder run on to the end of the file, and a damaged
    // magic number further on, which used to leave no member start after the first fault.
    let (bytes, locators) = five_members();
    let second = usize::try_from(locators[1].offset).unwrap();
    let fourth = usize::try_from(locators[3].offset).unwrap();
    for at in second + 10..fourth {
        for xor in [0x01, 0x5a, 0xff] {
            let mut damaged = bytes.clone();
            damaged[at] ^= xor;
            damaged[fourth + 1] ^= 0x11;
            assert_accounted(&damaged, &locators, &format!("damage at {at} ^ {xor:#x}"));
        }
    }
}

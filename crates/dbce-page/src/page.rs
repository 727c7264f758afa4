//! What stage 1 knows of a page: its identity, site, capture time, source and signature.

use std::fmt;

use dbce_classify::PageTypeGuess;
use dbce_dom::Truncation;
use dbce_warc::Record;
use dbce_warc::digest::{http_payload, sha1_value};
use serde::{Deserialize, Serialize};
use sha1::{Digest as _, Sha1};

/// A page's identity: the first 128 bits of the SHA-1 of its `WARC-Record-ID`.
///
/// It depends only on the record, so it is the same whatever the shard count or rerun; at 128
/// bits, collisions among 10¹² pages have a probability below 10⁻¹⁴.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PageId(pub [u8; 16]);

impl PageId {
    /// The id of the record with this `WARC-Record-ID`.
    pub fn from_record_id(record_id: &str) -> Self {
        let digest = Sha1::digest(record_id.as_bytes());
        let mut id = [0; 16];
        id.copy_from_slice(&digest[..16]);
        Self(id)
    }
}

impl fmt::Display for PageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// The site a page belongs to: its host's registrable domain (public suffix list plus one
/// label), or the host itself for IP addresses and hosts without a public suffix. Pages are only
/// ever grouped within one site.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SiteKey(pub String);

impl SiteKey {
    /// The site of a host name (lowercased by the URL parser).
    pub fn of_host(host: &str) -> Self {
        let host = host.trim_end_matches('.');
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        if bare.parse::<std::net::IpAddr>().is_ok() {
            return Self(host.to_owned());
        }
        let domain = psl::domain_str(host)
            .filter(|d| !d.is_empty())
            .unwrap_or(host);
        Self(domain.to_owned())
    }
}

impl fmt::Display for SiteKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A capture time as the 14 digits `YYYYMMDDhhmmss` of its `WARC-Date`, as a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// Parses an ISO 8601 `WARC-Date` (`2024-05-01T12:00:00Z`, fractions ignored, missing
    /// trailing fields as zeros). `None` if it has fewer than 4 digits.
    pub fn from_warc_date(date: &str) -> Option<Self> {
        let date = date.split('.').next().unwrap_or(date);
        let mut digits: String = date.chars().filter(char::is_ascii_digit).take(14).collect();
        if digits.len() < 4 {
            return None;
        }
        while digits.len() < 14 {
            digits.push('0');
        }
        digits.parse().ok().map(Self)
    }
}

impl Timestamp {
    /// The time as ISO 8601 in UTC, `2024-05-01T12:00:00Z`, as `WARC-Date` writes it.
    pub fn iso8601(self) -> String {
        let d = format!("{:014}", self.0);
        format!(
            "{}-{}-{}T{}:{}:{}Z",
            &d[0..4],
            &d[4..6],
            &d[6..8],
            &d[8..10],
            &d[10..12],
            &d[12..14]
        )
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:014}", self.0)
    }
}

/// An input file's position in the sorted list of a run's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FileId(pub u32);

/// Where a page's record lies: which input file, and the record's locator in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The input file.
    pub file: FileId,
    /// Byte offset of the record (or of its member) in the file.
    pub offset: u64,
    /// Length in bytes of the record (or member) in the file.
    pub length: u64,
    /// For a record inside a compressed member that holds more (a whole-file gzip or zstd
    /// archive): its offset in the file's decompressed stream, which a refetch skips to
    /// without parsing the records before it. `None` for a record with a member of its own.
    pub stream_offset: Option<u64>,
}

impl Source {
    /// Where `record` of input file `file` lies, as read from the file's start.
    pub fn of_record(file: FileId, record: &Record) -> Self {
        Self {
            file,
            offset: record.locator.offset,
            length: record.locator.length,
            stream_offset: record.locator.shared.then_some(record.stream_offset),
        }
    }
}

/// The SHA-1 of a page's HTTP payload: captures with the same digest (one capture read from
/// two files, a revisit, an unchanged re-crawl) are one page when partners are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PayloadDigest(pub [u8; 20]);

impl PayloadDigest {
    /// The digest of `record`'s payload: its `WARC-Payload-Digest` when that is a well-formed
    /// `sha1:` value, else the SHA-1 of the payload as stored (the bytes after the HTTP header
    /// block, with the transfer and content codings as recorded; the whole block of a record
    /// that is not an HTTP message). Those are the bytes WARC writers digest and
    /// `dbce_warc`'s digest check verifies, so a capture read once from a WARC file with the
    /// field and once from an ARC file without it gets the same digest.
    pub fn of_record(record: &Record) -> Self {
        if let Some(value) = record
            .header
            .fields
            .get("WARC-Payload-Digest")
            .and_then(sha1_value)
        {
            return Self(value);
        }
        let block = record.body.bytes().unwrap_or_default();
        let payload = if record.header.is_http_message() {
            http_payload(block).unwrap_or(block)
        } else {
            block
        };
        Self(Sha1::digest(payload).into())
    }
}

/// Everything later stages need of a page without rereading the archive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageRef {
    /// The page's id.
    pub page: PageId,
    /// The source record's `WARC-Record-ID`; for ARC records, which have none,
    /// `<urn:dbce:file-F:offset-O>` with the record's `FileId` and offset.
    pub record_id: String,
    /// The captured URL (`WARC-Target-URI`).
    pub url: String,
    /// The site the page is grouped within.
    pub site: SiteKey,
    /// When it was captured.
    pub captured: Timestamp,
    /// The digest of its payload.
    pub payload: PayloadDigest,
    /// Where its record lies.
    pub source: Source,
    /// How many template tokens the page has.
    pub tokens: u32,
    /// The MinHash signature of its template tokens.
    pub signature: Vec<u32>,
    /// Its type as the page alone tells it (`dbce_classify::PageTypeModel::classify`), before
    /// its template peers have their say in stage `annotate`.
    pub page_type: PageTypeGuess,
    /// The limits of `sanitize` that cut the page (`max-input-bytes`, `max-block-depth`): its
    /// text comes from the part parsed. Empty when the whole page was parsed.
    pub truncated: Vec<Truncation>,
}

/// Where the page with id `id` is in `pages`, sorted by id.
pub fn position(pages: &[PageRef], id: PageId) -> Option<usize> {
    pages.binary_search_by_key(&id, |p| p.page).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbce_warc::{Entry, Headers, NewRecord, ReaderConfig, RecordType, WarcReader, WarcWriter};

    /// The records of an archive holding `records`.
    fn written(records: &[NewRecord]) -> Vec<Record> {
        let mut writer = WarcWriter::new(Vec::new());
        for record in records {
            writer.write_record(record).unwrap();
        }
        let bytes = writer.finish().unwrap();
        WarcReader::new(std::io::Cursor::new(bytes), ReaderConfig::default())
            .unwrap()
            .map(|entry| match entry.unwrap() {
                Entry::Record(record) => record,
                Entry::Skip(skip) => panic!("skipped {skip:?}"),
            })
            .collect()
    }

    fn record(record_type: RecordType, content_type: &str, block: &[u8]) -> NewRecord {
        let mut fields = Headers::new();
        fields.push("WARC-Record-ID", format!("<urn:test:{}>", block.len()));
        fields.push("WARC-Target-URI", "http://e.com/");
        fields.push("WARC-Date", "2024-01-01T00:00:00Z");
        fields.push("Content-Type", content_type);
        NewRecord {
            record_type,
            fields,
            block: block.to_vec(),
        }
    }

    #[test]
    fn payload_digests_agree_with_or_without_the_field() {
        let http = "application/http; msgtype=response";
        let records = written(&[
            // The writer adds `WARC-Payload-Digest` to the response, not to the resource.
            record(
                RecordType::Response,
                http,
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>same</p>",
            ),
            record(RecordType::Resource, "text/html", b"<p>same</p>"),
            record(
                RecordType::Response,
                http,
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>other</p>",
            ),
        ]);
        assert!(
            records[0]
                .header
                .fields
                .get("WARC-Payload-Digest")
                .is_some()
        );
        assert!(
            records[1]
                .header
                .fields
                .get("WARC-Payload-Digest")
                .is_none()
        );
        let digests: Vec<PayloadDigest> = records.iter().map(PayloadDigest::of_record).collect();
        assert_eq!(digests[0], digests[1]);
        assert_ne!(digests[0], digests[2]);
        assert_eq!(digests[1].0, <[u8; 20]>::from(Sha1::digest(b"<p>same</p>")));
    }

    #[test]
    fn sites_are_registrable_domains() {
        assert_eq!(SiteKey::of_host("www.bbc.co.uk").0, "bbc.co.uk");
        assert_eq!(SiteKey::of_host("blogs.wsj.com").0, "wsj.com");
        assert_eq!(
            SiteKey::of_host("someone.blogspot.com").0,
            "someone.blogspot.com"
        );
        assert_eq!(SiteKey::of_host("127.0.0.1").0, "127.0.0.1");
        assert_eq!(SiteKey::of_host("localhost").0, "localhost");
    }

    #[test]
    fn timestamps_have_fourteen_digits() {
        assert_eq!(
            Timestamp::from_warc_date("2017-03-06T04:02:06Z"),
            Some(Timestamp(20170306040206))
        );
        assert_eq!(
            Timestamp::from_warc_date("2017-03-06T04:02:06.123Z")
                .unwrap()
                .to_string(),
            "20170306040206"
        );
        assert_eq!(
            Timestamp::from_warc_date("2017-03"),
            Some(Timestamp(20170300000000))
        );
        assert_eq!(Timestamp::from_warc_date("n/a"), None);
        assert_eq!(Timestamp(20170306040206).iso8601(), "2017-03-06T04:02:06Z");
    }

    #[test]
    fn page_ids_are_stable_hex() {
        let id = PageId::from_record_id("<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>");
        assert_eq!(id.to_string().len(), 32);
        assert_eq!(
            id,
            PageId::from_record_id("<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>")
        );
    }
}

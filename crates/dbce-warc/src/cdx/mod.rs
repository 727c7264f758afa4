//! CDX index lines: where each capture of a URL lies in which archive file, written as pywb's
//! CDXJ or as classic 11-field CDX, line for line as cdxj-indexer 1.5 writes them.
//!
//! [`CdxLine::from_record`] applies cdxj-indexer's default rules: which records are indexed,
//! and how the key, timestamp, MIME type, status and digest are found. The line's `Display` is
//! CDXJ, [`CdxLine::to_cdx11`] gives classic CDX, and `str::parse` reads CDXJ back.

mod error;
mod format;
mod http;
mod timestamp;

use crate::{ArchiveFormat, Record, RecordType, digest};

pub use error::CdxError;
pub use format::CDX11_HEADER;
use http::HttpHead;

/// The record types cdxj-indexer indexes by default: a reader producing lines needs the blocks
/// of these types only (see [`crate::ReaderConfig::keep_bodies`]).
pub const INDEXED_TYPES: [RecordType; 4] = [
    RecordType::Response,
    RecordType::Revisit,
    RecordType::Resource,
    RecordType::Metadata,
];

/// One index line: a capture of `url` at `timestamp`, stored at `offset` in `filename`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CdxLine {
    /// The sort key: the [`crate::surt`] form of `url`, or `-` when there is no URL. Never
    /// contains a space.
    pub key: String,
    /// The capture time, `YYYYMMDDhhmmss` (from `WARC-Date`).
    pub timestamp: String,
    /// `WARC-Target-URI`, angle brackets removed and spaces written `%20`.
    pub url: Option<String>,
    /// The content's MIME type without parameters: `warc/revisit` for revisits, the HTTP
    /// `Content-Type` for responses, the record's `Content-Type` otherwise.
    pub mime: Option<String>,
    /// The HTTP status code of a response or revisit, as written in its status line.
    pub status: Option<String>,
    /// `WARC-Payload-Digest`, or the `sha1:` base32 digest of the payload when the record has
    /// none (revisits excepted).
    pub digest: Option<String>,
    /// Length in bytes of the record in the file (compressed, for compressed files). In
    /// uncompressed files cdxj-indexer leaves out the newlines after the block, which
    /// [`crate::RecordLocator::length`] and so [`CdxLine::from_record`] include.
    pub length: u64,
    /// Byte offset of the record in the file.
    pub offset: u64,
    /// The archive's file name.
    pub filename: String,
}

impl CdxLine {
    /// The line cdxj-indexer writes for `record` of the archive `filename` (a base name), or
    /// `None` for a record it does not index.
    ///
    /// Indexed are responses, revisits, and resource and metadata records other than
    /// `application/warc-fields` ones. ARC records are seen as warcio converts them: all but
    /// the `filedesc` record are responses.
    ///
    /// # Errors
    /// When the record has no valid `WARC-Date`, or its block is needed but was not kept.
    pub fn from_record(record: &Record, filename: &str) -> Result<Option<Self>, CdxError> {
        let kind = warcio_type(record);
        if !is_indexed(record, kind) {
            return Ok(None);
        }
        let date = record.header.date();
        let timestamp =
            date.and_then(timestamp::from_iso_date)
                .ok_or_else(|| CdxError::InvalidDate {
                    offset: record.locator.offset,
                    record_id: record_id(record),
                    date: date.map(str::to_owned),
                })?;
        let url = record
            .header
            .target_uri()
            .map(|url| url.replace(' ', "%20"));
        let head = http_head(record, kind, url.as_deref())?;
        // An empty head still moves the payload's start, but counts as no head at all.
        let present = head.as_ref().filter(|head| head.is_present());
        Ok(Some(Self {
            key: crate::surt(url.as_deref().unwrap_or_default()),
            timestamp,
            mime: mime(record, kind, present),
            status: present.map(|head| head.status().to_owned()),
            digest: payload_digest(record, kind, head.as_ref())?,
            url,
            length: record.locator.length,
            offset: record.locator.offset,
            filename: filename.to_owned(),
        }))
    }
}

/// The record type as warcio reports it (case-sensitive, ARC records converted).
fn warcio_type(record: &Record) -> &str {
    match record.format {
        ArchiveFormat::Arc if record.header.record_type == RecordType::Warcinfo => "warcinfo",
        ArchiveFormat::Arc => "response",
        ArchiveFormat::Warc => record.header.fields.get("WARC-Type").unwrap_or_default(),
    }
}

fn is_indexed(record: &Record, kind: &str) -> bool {
    match kind {
        "response" | "revisit" => true,
        "resource" | "metadata" => record.header.content_type() != Some("application/warc-fields"),
        _ => false,
    }
}

/// The HTTP head of a response, request or revisit of an `http:` or `https:` URL.
fn http_head(record: &Record, kind: &str, url: Option<&str>) -> Result<Option<HttpHead>, CdxError> {
    let has_head = matches!(kind, "response" | "request" | "revisit")
        && url.is_some_and(|url| url.starts_with("http:") || url.starts_with("https:"))
        && !record.body.is_empty();
    if !has_head {
        return Ok(None);
    }
    Ok(Some(HttpHead::parse(block(record)?)))
}

fn mime(record: &Record, kind: &str, head: Option<&HttpHead>) -> Option<String> {
    let value = match kind {
        "revisit" => return Some("warc/revisit".to_owned()),
        "response" | "request" => head?.content_type()?,
        _ => record.header.content_type()?,
    };
    let end = value.find(|c| c == ';' || http::is_python_space(c));
    Some(value[..end.unwrap_or(value.len())].to_owned())
}

fn payload_digest(
    record: &Record,
    kind: &str,
    head: Option<&HttpHead>,
) -> Result<Option<String>, CdxError> {
    let stated = record.header.fields.get("WARC-Payload-Digest");
    if let Some(stated) = stated.filter(|d| !d.is_empty()) {
        return Ok(Some(stated.to_owned()));
    }
    if matches!(kind, "warcinfo" | "revisit") {
        return Ok(None);
    }
    let block = block(record)?;
    let payload = block
        .get(head.map_or(0, |head| head.len)..)
        .unwrap_or_default();
    Ok(Some(digest::sha1_label(payload)))
}

fn block(record: &Record) -> Result<&[u8], CdxError> {
    record.body.bytes().ok_or_else(|| CdxError::BodyNotKept {
        offset: record.locator.offset,
        record_id: record_id(record),
    })
}

fn record_id(record: &Record) -> Option<String> {
    record.header.record_id().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Body, Headers, RecordHeader, RecordLocator};

    fn record(kind: &str, fields: &[(&str, &str)], block: &[u8]) -> Record {
        let mut headers = Headers::new();
        headers.push("WARC-Type", kind);
        headers.push("WARC-Record-ID", "<urn:uuid:1>");
        headers.push("WARC-Date", "2024-01-02T03:04:05Z");
        for (name, value) in fields {
            headers.push(*name, *value);
        }
        Record {
            header: RecordHeader {
                version: "WARC/1.1".to_owned(),
                record_type: kind.parse().unwrap(),
                fields: headers,
            },
            body: Body::Buffered(block.to_vec()),
            locator: RecordLocator {
                offset: 10,
                length: 99,
                shared: false,
            },
            stream_offset: 10,
            format: ArchiveFormat::Warc,
            digests: None,
            warnings: Vec::new(),
        }
    }

    const RESPONSE: &[u8] =
        b"HTTP/1.1 404 Not Found\r\nContent-Type: Text/HTML; charset=utf-8\r\n\r\nbody";

    fn line(record: &Record) -> CdxLine {
        CdxLine::from_record(record, "f.warc").unwrap().unwrap()
    }

    #[test]
    fn responses_give_http_mime_status_and_payload_digest() {
        let uri = [("WARC-Target-URI", "<http://www.example.com/a b>")];
        let line = line(&record("response", &uri, RESPONSE));
        assert_eq!(line.key, "com,example)/a%20b");
        assert_eq!(line.timestamp, "20240102030405");
        assert_eq!(line.url.as_deref(), Some("http://www.example.com/a%20b"));
        assert_eq!(line.mime.as_deref(), Some("Text/HTML"));
        assert_eq!(line.status.as_deref(), Some("404"));
        assert_eq!(line.digest, Some(digest::sha1_label(b"body")));
        assert_eq!(
            (line.offset, line.length, line.filename.as_str()),
            (10, 99, "f.warc")
        );
    }

    #[test]
    fn revisits_are_warc_revisit_and_keep_only_a_stated_digest() {
        let uri = ("WARC-Target-URI", "http://example.com/");
        let with_head = line(&record("revisit", &[uri], RESPONSE));
        assert_eq!(with_head.mime.as_deref(), Some("warc/revisit"));
        assert_eq!(
            (with_head.status.as_deref(), with_head.digest),
            (Some("404"), None)
        );
        let stated = ("WARC-Payload-Digest", "sha1:ABC");
        let empty = line(&record("revisit", &[uri, stated], b""));
        assert_eq!(
            (empty.status, empty.digest.as_deref()),
            (None, Some("sha1:ABC"))
        );
    }

    #[test]
    fn resources_use_the_record_content_type_and_hash_the_whole_block() {
        let fields = [
            ("WARC-Target-URI", "urn:x"),
            ("Content-Type", "text/plain;x"),
        ];
        let line = line(&record("resource", &fields, RESPONSE));
        assert_eq!(
            (line.key.as_str(), line.mime.as_deref()),
            ("urn:x", Some("text/plain"))
        );
        assert_eq!(
            (line.status, line.digest),
            (None, Some(digest::sha1_label(RESPONSE)))
        );
    }

    #[test]
    fn only_default_record_types_are_indexed() {
        let fields = [("Content-Type", "application/warc-fields")];
        for (kind, fields) in [
            ("metadata", &fields[..]),
            ("request", &[]),
            ("warcinfo", &[]),
        ] {
            assert_eq!(
                CdxLine::from_record(&record(kind, fields, b"x"), "f"),
                Ok(None)
            );
        }
        let line = line(&record("metadata", &[], b"x"));
        assert_eq!((line.key.as_str(), line.url), ("-", None));
    }

    #[test]
    fn arc_records_are_responses_without_http_for_other_schemes() {
        let mut dns = record(
            "resource",
            &[("WARC-Target-URI", "dns:example.com")],
            b"1.2.3.4",
        );
        dns.format = ArchiveFormat::Arc;
        dns.header.fields.push("Content-Type", "text/dns");
        let line = line(&dns);
        assert_eq!((line.mime, line.status), (None, None));
        assert_eq!(line.digest, Some(digest::sha1_label(b"1.2.3.4")));
    }

    #[test]
    fn bad_dates_and_missing_blocks_are_errors() {
        let mut bad = record("resource", &[], b"x");
        bad.header.fields.set("WARC-Date", "yesterday");
        let error = CdxLine::from_record(&bad, "f").unwrap_err();
        assert_eq!(
            error.to_string(),
            "record at offset 10 (<urn:uuid:1>): WARC-Date yesterday is not a valid date"
        );
        let mut skipped = record("resource", &[], b"");
        skipped.body = Body::Skipped { length: 5 };
        let error = CdxLine::from_record(&skipped, "f").unwrap_err();
        assert!(matches!(error, CdxError::BodyNotKept { offset: 10, .. }));
    }
}

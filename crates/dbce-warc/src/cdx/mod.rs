//! CDX index lines: where each capture of a URL lies in which archive file, written as pywb's
//! CDXJ or as classic 11-field CDX, line for line as cdxj-indexer 1.5 writes them.
//!
//! [`CdxLine::from_record`] applies cdxj-indexer's default rules: which records are indexed,
//! and how the key, timestamp, MIME type, status and digest are found. The line's `Display` is
//! CDXJ, [`CdxLine::to_cdx11`] gives classic CDX, and `str::parse` reads CDXJ back.

mod format;
mod http;
mod timestamp;

use crate::{ArchiveFormat, Record, RecordType, digest};

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
    /// Length in bytes of the record in the file (compressed, for compressed files).
    pub length: u64,
    /// Byte offset of the record in the file.
    pub offset: u64,
    /// The archive's file name.
    pub filename: String,
}

/// Why a record gave no index line, or a CDXJ line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CdxError {
    /// The record's `WARC-Date` is missing or not an ISO 8601 date.
    #[error("record at offset {offset}{}: WARC-Date {} is not a valid date",
        id_note(.record_id), .date.as_deref().unwrap_or("(missing)"))]
    InvalidDate {
        /// Byte offset of the record in its file.
        offset: u64,
        /// The record's `WARC-Record-ID`, if it has one.
        record_id: Option<String>,
        /// The `WARC-Date` value, if there is one.
        date: Option<String>,
    },
    /// The record's block is needed (for its HTTP header or payload digest) but was not kept.
    #[error("record at offset {offset}{}: block needed but not kept", id_note(.record_id))]
    BodyNotKept {
        /// Byte offset of the record in its file.
        offset: u64,
        /// The record's `WARC-Record-ID`, if it has one.
        record_id: Option<String>,
    },
    /// A CDXJ line does not have a key, a timestamp and a JSON object separated by spaces.
    #[error("CDXJ line has no {part}")]
    MissingPart {
        /// `key`, `timestamp` or `JSON object`.
        part: &'static str,
    },
    /// A CDXJ timestamp is not 1 to 14 digits.
    #[error("CDXJ timestamp {timestamp:?} is not 1 to 14 digits")]
    InvalidTimestamp {
        /// The timestamp as written.
        timestamp: String,
    },
    /// A CDXJ line's JSON is not an object whose values are strings.
    #[error("CDXJ JSON object is invalid at column {column}")]
    InvalidJson {
        /// One-based column within the JSON object where reading failed.
        column: usize,
    },
    /// A CDXJ line's `length`, `offset` or `filename` is missing or not valid.
    #[error("CDXJ field {field} is missing or invalid")]
    InvalidField {
        /// The field's name.
        field: &'static str,
    },
}

fn id_note(record_id: &Option<String>) -> String {
    record_id
        .as_deref()
        .map(|id| format!(" ({id})"))
        .unwrap_or_default()
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
        let timestamp = date.and_then(timestamp::from_iso_date).ok_or_else(|| {
            CdxError::InvalidDate {
                offset: record.locator.offset,
                record_id: record_id(record),
                date: date.map(str::to_owned),
            }
        })?;
        let url = record.header.target_uri().map(|url| url.replace(' ', "%20"));
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
    let payload = block.get(head.map_or(0, |head| head.len)..).unwrap_or_default();
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

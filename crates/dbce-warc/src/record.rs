//! What a record is: its type, its header, its block, and where it lies in its file.

use std::fmt;
use std::str::FromStr;

use crate::Headers;

/// The value of `WARC-Type` (WARC 1.1, section 6).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RecordType {
    /// `warcinfo`: describes the records that follow.
    Warcinfo,
    /// `response`: a complete response, e.g. HTTP status, headers and body.
    Response,
    /// `resource`: a resource without protocol headers.
    Resource,
    /// `request`: a complete request.
    Request,
    /// `metadata`: content describing another record.
    Metadata,
    /// `revisit`: a revisitation of content already archived.
    Revisit,
    /// `conversion`: an alternative version of another record's content.
    Conversion,
    /// `continuation`: a segment of a record split across files.
    Continuation,
    /// Any other type, kept verbatim.
    Other(String),
}

impl RecordType {
    /// The name as written in `WARC-Type`.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Warcinfo => "warcinfo",
            Self::Response => "response",
            Self::Resource => "resource",
            Self::Request => "request",
            Self::Metadata => "metadata",
            Self::Revisit => "revisit",
            Self::Conversion => "conversion",
            Self::Continuation => "continuation",
            Self::Other(name) => name,
        }
    }
}

impl FromStr for RecordType {
    type Err = std::convert::Infallible;

    /// Parses a `WARC-Type` value; names are compared case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let known = [
            Self::Warcinfo,
            Self::Response,
            Self::Resource,
            Self::Request,
            Self::Metadata,
            Self::Revisit,
            Self::Conversion,
            Self::Continuation,
        ];
        Ok(known
            .into_iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(s))
            .unwrap_or_else(|| Self::Other(s.to_owned())))
    }
}

impl fmt::Display for RecordType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a record lies in its file: the bytes to read (and decompress) to get it back alone.
///
/// For uncompressed files these are the record's header and block, without the newlines that
/// follow the block (as warcio and cdxj-indexer count them). For
/// files compressed per record (one gzip member or zstd frame each, the norm) they are the
/// compressed member. When several records share one member (a whole-file gzip), the locator
/// spans the members that hold the record and [`RecordLocator::shared`] is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct RecordLocator {
    /// Byte offset in the file.
    pub offset: u64,
    /// Length in bytes in the file.
    pub length: u64,
    /// Whether the bytes at `offset` also hold other records.
    pub shared: bool,
}

/// The format of the archive a record came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArchiveFormat {
    /// WARC/1.0 or WARC/1.1.
    Warc,
    /// The legacy Internet Archive ARC format (version 1).
    Arc,
}

/// A record's header: its version line, type and fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordHeader {
    /// The version line, e.g. `WARC/1.1`; `ARC/1` for ARC records.
    pub version: String,
    /// The value of `WARC-Type`.
    pub record_type: RecordType,
    /// All header fields. ARC records get WARC equivalents (`WARC-Target-URI`, `WARC-Date`,
    /// `Content-Type`, `WARC-IP-Address`, `Content-Length`).
    pub fields: Headers,
}

impl RecordHeader {
    /// `WARC-Record-ID`, if present.
    pub fn record_id(&self) -> Option<&str> {
        self.fields.get("WARC-Record-ID")
    }

    /// `WARC-Target-URI` with the angle brackets some writers put around it removed.
    pub fn target_uri(&self) -> Option<&str> {
        self.fields.get("WARC-Target-URI").map(|u| {
            u.strip_prefix('<')
                .and_then(|u| u.strip_suffix('>'))
                .unwrap_or(u)
        })
    }

    /// `WARC-Date`, as written (ISO 8601).
    pub fn date(&self) -> Option<&str> {
        self.fields.get("WARC-Date")
    }

    /// `Content-Type` of the block.
    pub fn content_type(&self) -> Option<&str> {
        self.fields.get("Content-Type")
    }

    /// Whether the block is an HTTP message (`Content-Type: application/http…`).
    pub fn is_http_message(&self) -> bool {
        self.content_type().is_some_and(is_http_content_type)
    }

    /// `Content-Length`, the size of the block in bytes, if present and a valid number.
    pub fn content_length(&self) -> Option<u64> {
        self.fields.get("Content-Length")?.trim().parse().ok()
    }
}

/// A record's block: read into memory, or passed over unread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// The block's bytes.
    Buffered(Vec<u8>),
    /// The block was skipped without being kept (filtered out by the reader's configuration).
    Skipped {
        /// Length of the block in bytes.
        length: u64,
    },
}

impl Body {
    /// The bytes, if the block was kept.
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Self::Buffered(bytes) => Some(bytes),
            Self::Skipped { .. } => None,
        }
    }

    /// Length of the block in bytes.
    pub fn len(&self) -> u64 {
        match self {
            Self::Buffered(bytes) => bytes.len() as u64,
            Self::Skipped { length } => *length,
        }
    }

    /// Whether the block is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One record read from an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The record's header.
    pub header: RecordHeader,
    /// The record's block.
    pub body: Body,
    /// Where the record lies in its file.
    pub locator: RecordLocator,
    /// Offset of the record's first byte in the decompressed stream.
    pub stream_offset: u64,
    /// Whether the record came from a WARC or an ARC file.
    pub format: ArchiveFormat,
    /// Digest checks, when the reader was asked to verify digests and the block was kept.
    pub digests: Option<crate::Digests>,
    /// What was irregular about the record, though it was read.
    pub warnings: Vec<crate::ReadWarning>,
}

/// Whether a `Content-Type` names an HTTP message (`application/http`, any parameters).
pub(crate) fn is_http_content_type(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("application/http")
}

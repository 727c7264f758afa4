//! Why a record was skipped, and the errors that stop a reader.

use std::fmt;
use std::io;

/// Why the reader passed over bytes of the file without yielding a record.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum SkipReason {
    /// The file ended inside a record.
    TruncatedRecord,
    /// The file ended inside a gzip member or zstd frame.
    TruncatedMember,
    /// A gzip member or zstd frame could not be decompressed (bad header or data). The records
    /// decoded before the damage were read; this skip stands for the rest of the member.
    CorruptMember,
    /// A gzip member or zstd frame decompressed to its end, but its checksum (or gzip size) does
    /// not match. Its records were read (each checked by its grammar and `Content-Length`, and
    /// by its `WARC-Block-Digest` where present); nothing was lost.
    ChecksumMismatch,
    /// Bytes that are neither a record nor a compressed member.
    Garbage {
        /// How many bytes were passed over.
        length: u64,
    },
    /// The header block has no valid version line (`WARC/1.0`, `WARC/1.1`, or an ARC line).
    BadVersionLine,
    /// The header block could not be parsed.
    MalformedHeader,
    /// The header block is longer than the configured limit.
    HeaderTooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// A mandatory header field is missing or invalid.
    MissingHeader {
        /// The field's name.
        field: &'static str,
    },
    /// The block does not end where `Content-Length` says.
    LengthMismatch {
        /// The declared `Content-Length`.
        declared: u64,
    },
    /// The block is larger than the configured limit; it was passed over unread.
    RecordTooLarge {
        /// The declared `Content-Length`.
        length: u64,
        /// The limit in bytes.
        limit: u64,
    },
}

impl SkipReason {
    /// A short stable name for counting skips by reason, e.g. `truncated-record`.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// The reason without its details.
    pub fn kind(&self) -> SkipKind {
        match self {
            Self::TruncatedRecord => SkipKind::TruncatedRecord,
            Self::TruncatedMember => SkipKind::TruncatedMember,
            Self::CorruptMember => SkipKind::CorruptMember,
            Self::ChecksumMismatch => SkipKind::ChecksumMismatch,
            Self::Garbage { .. } => SkipKind::Garbage,
            Self::BadVersionLine => SkipKind::BadVersionLine,
            Self::MalformedHeader => SkipKind::MalformedHeader,
            Self::HeaderTooLarge { .. } => SkipKind::HeaderTooLarge,
            Self::MissingHeader { .. } => SkipKind::MissingHeader,
            Self::LengthMismatch { .. } => SkipKind::LengthMismatch,
            Self::RecordTooLarge { .. } => SkipKind::RecordTooLarge,
        }
    }
}

/// A [`SkipReason`] without its details (lengths, limits, fields): what counts of skips by
/// reason are keyed by, and what a reason's [name](SkipKind::name) reads back as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SkipKind {
    /// [`SkipReason::TruncatedRecord`].
    TruncatedRecord,
    /// [`SkipReason::TruncatedMember`].
    TruncatedMember,
    /// [`SkipReason::CorruptMember`].
    CorruptMember,
    /// [`SkipReason::ChecksumMismatch`].
    ChecksumMismatch,
    /// [`SkipReason::Garbage`].
    Garbage,
    /// [`SkipReason::BadVersionLine`].
    BadVersionLine,
    /// [`SkipReason::MalformedHeader`].
    MalformedHeader,
    /// [`SkipReason::HeaderTooLarge`].
    HeaderTooLarge,
    /// [`SkipReason::MissingHeader`].
    MissingHeader,
    /// [`SkipReason::LengthMismatch`].
    LengthMismatch,
    /// [`SkipReason::RecordTooLarge`].
    RecordTooLarge,
}

impl SkipKind {
    /// Every kind.
    pub const ALL: [Self; 11] = [
        Self::TruncatedRecord,
        Self::TruncatedMember,
        Self::CorruptMember,
        Self::ChecksumMismatch,
        Self::Garbage,
        Self::BadVersionLine,
        Self::MalformedHeader,
        Self::HeaderTooLarge,
        Self::MissingHeader,
        Self::LengthMismatch,
        Self::RecordTooLarge,
    ];

    /// A short stable name for counting skips by reason, e.g. `truncated-record`.
    pub fn name(self) -> &'static str {
        match self {
            Self::TruncatedRecord => "truncated-record",
            Self::TruncatedMember => "truncated-member",
            Self::CorruptMember => "corrupt-member",
            Self::ChecksumMismatch => "checksum-mismatch",
            Self::Garbage => "garbage",
            Self::BadVersionLine => "bad-version-line",
            Self::MalformedHeader => "malformed-header",
            Self::HeaderTooLarge => "header-too-large",
            Self::MissingHeader => "missing-header",
            Self::LengthMismatch => "length-mismatch",
            Self::RecordTooLarge => "record-too-large",
        }
    }

    /// The kind whose [name](SkipKind::name) is `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TruncatedRecord => f.write_str("file ends inside a record"),
            Self::TruncatedMember => f.write_str("file ends inside a compressed member"),
            Self::CorruptMember => f.write_str("compressed member cannot be decompressed"),
            Self::ChecksumMismatch => {
                f.write_str("compressed member's checksum does not match; its records were read")
            }
            Self::Garbage { length } => write!(f, "{length} bytes of garbage between records"),
            Self::BadVersionLine => f.write_str("no valid WARC/ARC version line"),
            Self::MalformedHeader => f.write_str("malformed header block"),
            Self::HeaderTooLarge { limit } => write!(f, "header block longer than {limit} bytes"),
            Self::MissingHeader { field } => write!(f, "missing or invalid mandatory {field}"),
            Self::LengthMismatch { declared } => {
                write!(f, "block does not end at its Content-Length {declared}")
            }
            Self::RecordTooLarge { length, limit } => {
                write!(f, "record of {length} bytes exceeds the limit of {limit}")
            }
        }
    }
}

/// Something irregular about a record that was nevertheless read, as warcio reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ReadWarning {
    /// Header lines end CR CR LF instead of CR LF.
    CrCrLf,
    /// The file ends inside the block (the file's last record, with no record start in what
    /// there is of its block): the block is shorter than its `Content-Length`.
    ShortBlock {
        /// The declared `Content-Length`.
        declared: u64,
        /// The bytes there were.
        read: u64,
    },
    /// The record's gzip member has a damaged byte in its magic number; its data decoded and
    /// checked as usual.
    DamagedGzipMagic,
}

impl ReadWarning {
    /// A short stable name for counting warnings, e.g. `short-block`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::CrCrLf => "cr-cr-lf",
            Self::ShortBlock { .. } => "short-block",
            Self::DamagedGzipMagic => "damaged-gzip-magic",
        }
    }
}

/// Bytes of an archive the reader passed over, where they are and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Skip {
    /// Byte offset in the file where the skipped bytes begin.
    pub offset: u64,
    /// Where in the decompressed stream they begin, when `offset` is that of a compressed
    /// member holding more than the skipped bytes (a whole-file gzip or zstd archive): the
    /// position `dbce get --stream-offset` reaches. Counted, like [`crate::Record`]'s
    /// `stream_offset`, from where the reader started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_offset: Option<u64>,
    /// Why they were skipped.
    pub reason: SkipReason,
    /// The `WARC-Record-ID` of the skipped record, when its header could be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_id: Option<String>,
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "offset {}", self.offset)?;
        if let Some(stream_offset) = self.stream_offset {
            write!(f, " (decompressed offset {stream_offset})")?;
        }
        write!(f, ": {}", self.reason)?;
        if let Some(id) = &self.record_id {
            write!(f, " (record {id})")?;
        }
        Ok(())
    }
}

/// An error that stops reading a file: the file cannot be read at all.
///
/// Problems with the file's *content* are never errors; they are [`Skip`]s.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading from the underlying file failed.
    #[error("I/O error at offset {offset}: {source}")]
    Io {
        /// Byte offset in the file where the read was attempted.
        offset: u64,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_skip_kind_has_its_own_name_that_reads_back() {
        let names: std::collections::BTreeSet<&str> =
            SkipKind::ALL.iter().map(|kind| kind.name()).collect();
        assert_eq!(names.len(), SkipKind::ALL.len());
        for kind in SkipKind::ALL {
            assert_eq!(SkipKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(SkipKind::from_name("no-such-kind"), None);
        let reason = SkipReason::RecordTooLarge {
            length: 9,
            limit: 1,
        };
        assert_eq!(reason.kind(), SkipKind::RecordTooLarge);
        assert_eq!(reason.name(), "record-too-large");
    }
}

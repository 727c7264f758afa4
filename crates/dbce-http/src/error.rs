//! The one error type of this crate.

use dbce_warc::HeaderError;

/// Why a WARC block could not be turned into an HTTP response or its body could not be decoded.
///
/// Recoverable oddities (a body that claims to be chunked but is not, a truncated stream) are not
/// errors: they are reported in [`DecodeReport`](crate::DecodeReport) and the best bytes available
/// are kept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The block does not start with an `HTTP/` status line, as with a resource record's raw
    /// payload.
    #[error("block is not an HTTP response: no HTTP/ status line")]
    NotHttp,
    /// The status line starts with `HTTP/` but its version is not `HTTP/<digits>[.<digits>]`.
    #[error("HTTP status line has an invalid version")]
    InvalidVersion,
    /// The status line has no three-digit status code after the version.
    #[error("HTTP status line has no valid three-digit status code")]
    InvalidStatusCode,
    /// The block ends inside the header block, before the blank line that closes it.
    #[error("HTTP header block is not terminated by a blank line")]
    UnterminatedHeaders,
    /// The header block is longer than [`HttpLimits::max_header_bytes`](crate::HttpLimits).
    #[error("HTTP header block exceeds the limit of {limit} bytes")]
    HeadersTooLarge {
        /// The limit in force, in bytes.
        limit: u64,
    },
    /// A header line is malformed.
    #[error("invalid HTTP header block")]
    Headers(#[from] HeaderError),
    /// `Content-Encoding` or `Transfer-Encoding` names a coding this crate cannot undo.
    #[error("unsupported content coding {coding:?}")]
    UnsupportedCoding {
        /// The coding as it appears in the header, lower-cased.
        coding: String,
    },
}

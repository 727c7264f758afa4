//! Why a record gives no index line, or a CDXJ line cannot be read.

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

//! The skip log: one JSON line per archive entry that did not become a page, with its reason.

use std::path::Path;

use dbce_warc::{Record, Skip};
use serde::{Deserialize, Serialize};

use crate::{SkipReason, StageError};
use dbce_artifact::atomic::{AtomicFile, WriteError};
use dbce_page::{FileId, Source};

/// One skipped entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkipLine {
    /// The input file.
    pub file: FileId,
    /// Byte offset in the file.
    pub offset: u64,
    /// Offset in the decompressed stream, for an entry inside a compressed member that holds
    /// more (whole-file gzip or zstd): `dbce get FILE --stream-offset N` reaches it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_offset: Option<u64>,
    /// Why: a reader reason prefixed `warc:`, or a page reason such as `not-html`.
    pub reason: SkipReason,
    /// The record's `WARC-Record-ID`, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record_id: Option<String>,
}

impl SkipLine {
    /// A line for bytes the archive reader could not read.
    pub fn from_warc(file: FileId, skip: &Skip) -> Self {
        Self {
            file,
            offset: skip.offset,
            stream_offset: skip.stream_offset,
            reason: (&skip.reason).into(),
            record_id: skip.record_id.clone(),
        }
    }

    /// A line for a record that is not a page.
    pub fn from_record(source: Source, record: &Record, reason: SkipReason) -> Self {
        Self {
            file: source.file,
            offset: source.offset,
            stream_offset: source.stream_offset,
            reason,
            record_id: record.header.record_id().map(str::to_owned),
        }
    }
}

/// Writes skip lines to a temporary file renamed into place when finished.
pub struct SkipLog {
    out: AtomicFile,
}

impl SkipLog {
    /// Starts the log at `path`.
    ///
    /// # Errors
    /// Fails when the file cannot be created.
    pub fn create(path: &Path) -> Result<Self, StageError> {
        Ok(Self {
            out: AtomicFile::create(path, 1 << 16).map_err(output)?,
        })
    }

    /// Appends a line.
    ///
    /// # Errors
    /// Fails when writing fails.
    pub fn push(&mut self, line: &SkipLine) -> Result<(), StageError> {
        let mut json = serde_json::to_vec(line).map_err(|e| StageError::Output {
            path: self.out.temporary().to_owned(),
            source: e.into(),
        })?;
        json.push(b'\n');
        self.out.write_all(&json).map_err(output)
    }

    /// Flushes and renames the log into place.
    ///
    /// # Errors
    /// Fails when flushing or renaming fails.
    pub fn finish(self) -> Result<(), StageError> {
        self.out.finish(false).map_err(output)
    }
}

fn output(e: WriteError) -> StageError {
    StageError::Output {
        path: e.path,
        source: e.source,
    }
}

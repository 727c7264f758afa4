//! `ArchiveReader`: a WARC/ARC file's records with their offsets, and what had to be skipped.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use dbce_http::HttpLimits;
use dbce_page::captured_html;
use dbce_warc::{DigestCheck, Entry, ReaderConfig, WarcReader};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::DbceError;

/// Reads a WARC or ARC file (gzip, zstd or uncompressed, detected from its bytes) and yields a
/// `Record` for every record and a `Skip` for every stretch of bytes that is not one, in file
/// order. Damage inside the file never raises: it is a `Skip` with its offset and reason, after
/// which reading resumes at the next record.
#[pyclass(module = "dbce")]
pub(crate) struct ArchiveReader {
    path: PathBuf,
    reader: WarcReader<BufReader<File>>,
}

#[pymethods]
impl ArchiveReader {
    /// Opens `path`; `verify_digests` checks each record's `WARC-Block-Digest` and
    /// `WARC-Payload-Digest` (see `Record.digests_ok`).
    #[new]
    #[pyo3(signature = (path, verify_digests = false))]
    fn new(path: PathBuf, verify_digests: bool) -> PyResult<Self> {
        let file = File::open(&path)
            .map_err(|e| PyOSError::new_err(format!("cannot open {}: {e}", path.display())))?;
        let config = ReaderConfig {
            verify_digests,
            ..ReaderConfig::default()
        };
        let reader = WarcReader::new(BufReader::with_capacity(1 << 16, file), config)
            .map_err(|e| DbceError::new_err(format!("cannot read {}: {e}", path.display())))?;
        Ok(Self { path, reader })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        let reader = &mut self.reader;
        match py.allow_threads(|| reader.next()) {
            None => Ok(None),
            Some(Ok(Entry::Record(record))) => Ok(Some(
                Record { record }.into_pyobject(py)?.into_any().unbind(),
            )),
            Some(Ok(Entry::Skip(skip))) => Ok(Some(
                Skip {
                    offset: skip.offset,
                    reason: skip.reason.name().to_owned(),
                    record_id: skip.record_id,
                }
                .into_pyobject(py)?
                .into_any()
                .unbind(),
            )),
            Some(Err(error)) => Err(DbceError::new_err(format!(
                "cannot read {}: {error}",
                self.path.display()
            ))),
        }
    }
}

/// One record of an archive.
#[pyclass(module = "dbce", frozen)]
pub(crate) struct Record {
    record: dbce_warc::Record,
}

#[pymethods]
impl Record {
    /// `WARC-Type`: `response`, `request`, `warcinfo`, `resource`, `revisit`, …
    #[getter]
    fn record_type(&self) -> &str {
        self.record.header.record_type.as_str()
    }

    /// `WARC-Record-ID`, or `None` (ARC records have none).
    #[getter]
    fn record_id(&self) -> Option<&str> {
        self.record.header.record_id()
    }

    /// `WARC-Target-URI`, or `None`.
    #[getter]
    fn target_uri(&self) -> Option<&str> {
        self.record.header.target_uri()
    }

    /// `WARC-Date` as written, or `None`.
    #[getter]
    fn date(&self) -> Option<&str> {
        self.record.header.date()
    }

    /// Byte offset of the record in the file: its gzip member (or zstd frame) when compressed,
    /// its first header byte otherwise; what `dbce get FILE OFFSET` and CDX indexes use.
    #[getter]
    fn offset(&self) -> u64 {
        self.record.locator.offset
    }

    /// Length in the file from `offset` (the compressed member's length when compressed).
    #[getter]
    fn length(&self) -> u64 {
        self.record.locator.length
    }

    /// Whether the record shares its gzip member with others (a whole-file gzip).
    #[getter]
    fn shared(&self) -> bool {
        self.record.locator.shared
    }

    /// The header fields, in order, as `(name, value)` pairs.
    #[getter]
    fn headers(&self) -> Vec<(String, String)> {
        self.record
            .header
            .fields
            .iter()
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect()
    }

    /// The record's block (for `response` records the HTTP message), or `None` when it was
    /// larger than the reader's limit and passed over unread.
    #[getter]
    fn body<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.record.body.bytes().map(|b| PyBytes::new(py, b))
    }

    /// Whether the block and payload digests match, when the reader was opened with
    /// `verify_digests=True` and the record has a digest it can check; `None` otherwise.
    #[getter]
    fn digests_ok(&self) -> Option<bool> {
        let digests = self.record.digests.as_ref()?;
        let known: Vec<bool> = [digests.block, digests.payload]
            .iter()
            .filter_map(|check| match check {
                DigestCheck::Valid => Some(true),
                DigestCheck::Mismatch => Some(false),
                DigestCheck::Absent | DigestCheck::Unverifiable => None,
            })
            .collect();
        (!known.is_empty()).then(|| known.iter().all(|&ok| ok))
    }

    /// The captured page's HTML decoded to text as `dbce run` decodes it (HTTP status 2xx,
    /// transfer and content codings undone, charset from the headers, `<meta>` or detection),
    /// or `None` when the record is not an HTML capture.
    fn html(&self, py: Python<'_>) -> Option<String> {
        let record = &self.record;
        py.allow_threads(|| {
            captured_html(record, &HttpLimits::default())
                .ok()
                .map(|c| c.html)
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Record(type={:?}, offset={}, target_uri={:?})",
            self.record_type(),
            self.offset(),
            self.target_uri().unwrap_or_default()
        )
    }
}

/// Bytes of an archive that could not be read as a record.
#[pyclass(module = "dbce", frozen, get_all)]
pub(crate) struct Skip {
    /// Byte offset in the file where the skipped bytes begin.
    offset: u64,
    /// Why they were skipped (e.g. `bad-gzip-member`, `truncated-block`).
    reason: String,
    /// The skipped record's `WARC-Record-ID`, when its header could be read.
    record_id: Option<String>,
}

#[pymethods]
impl Skip {
    fn __repr__(&self) -> String {
        format!("Skip(offset={}, reason={:?})", self.offset, self.reason)
    }
}

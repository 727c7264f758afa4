//! Rereading a page's record from its archive by locator: how later stages get at the HTML
//! without carrying it through the intermediate files.

use std::io::{BufReader, Seek as _, SeekFrom};
use std::path::PathBuf;
use std::sync::Arc;

use dbce_http::HttpLimits;
use dbce_warc::{Entry, ReaderConfig, WarcReader};

use crate::SkipReason;
use crate::html::{CapturedHtml, captured_html};
use crate::page::PageRef;

/// Reads pages back from the run's input files.
#[derive(Debug, Clone)]
pub struct PageFetcher {
    inputs: Vec<PathBuf>,
    reader: ReaderConfig,
    limits: HttpLimits,
}

/// Why a page could not be read back; each is a counted skip of the stage that needed it.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", self.reason())]
pub enum FetchError {
    /// The page's file is not among the run's inputs.
    NoSuchFile,
    /// The file cannot be opened or read at the record's offset.
    Io(#[source] Arc<std::io::Error>),
    /// No record with the page's id starts at its offset (the file changed since `read`).
    NotAtOffset,
    /// The record no longer decodes as an HTML page.
    NotAPage,
    /// The record reads as a page, but its words are not those the run labelled (the file or
    /// the parser's settings changed since `annotate`).
    RunsDoNotFit,
}

impl FetchError {
    /// The skip reason recorded in reports, and the error's message; an I/O error keeps its
    /// cause as its source.
    pub fn reason(&self) -> SkipReason {
        match self {
            Self::NoSuchFile => SkipReason::RefetchNoSuchFile,
            Self::Io(_) => SkipReason::RefetchIo,
            Self::NotAtOffset => SkipReason::RefetchNotAtOffset,
            Self::NotAPage => SkipReason::RefetchNotAPage,
            Self::RunsDoNotFit => SkipReason::RefetchRunsDoNotFit,
        }
    }
}

impl PageFetcher {
    /// A fetcher over the run's inputs (the list stage `read` recorded), with the settings
    /// `read` used.
    pub fn new(inputs: Vec<PathBuf>, config: &crate::Config) -> Self {
        Self {
            inputs,
            reader: config.read.reader(),
            limits: config.read.http_limits(),
        }
    }

    /// The decoded HTML of `page`, read from its file at its offset. In a file compressed as
    /// one gzip stream (all records share one member) that means reading from the start of the
    /// stream: such archives cost time quadratic in their size (recompress them per record,
    /// as `warcio recompress` does).
    ///
    /// # Errors
    /// Returns why the record could not be read back.
    pub fn fetch(&self, page: &PageRef) -> Result<CapturedHtml, FetchError> {
        let path = self
            .inputs
            .get(page.source.file.0 as usize)
            .ok_or(FetchError::NoSuchFile)?;
        let mut file = std::fs::File::open(path).map_err(|e| FetchError::Io(Arc::new(e)))?;
        file.seek(SeekFrom::Start(page.source.offset))
            .map_err(|e| FetchError::Io(Arc::new(e)))?;
        let mut reader =
            WarcReader::new(BufReader::with_capacity(1 << 16, file), self.reader.clone())
                .map_err(|_| FetchError::NotAtOffset)?;
        // In a file compressed as one gzip stream every record shares the member's offset:
        // read on through that member until the page's record comes.
        let record = loop {
            let Ok(Some(Entry::Record(record))) = reader.next_entry() else {
                return Err(FetchError::NotAtOffset);
            };
            // Still the member seeked to: gzip members keep their offset in the file, other
            // records count from where the reader started.
            let offset = record.locator.offset;
            if offset != page.source.offset && offset != 0 {
                return Err(FetchError::NotAtOffset);
            }
            let id_matches = match record.header.record_id() {
                Some(id) => id == page.record_id,
                // ARC records have no id; read named them by file and offset.
                None => page.record_id.starts_with("<urn:dbce:file-"),
            };
            if id_matches {
                break record;
            }
        };
        captured_html(&record, &self.limits).map_err(|_| FetchError::NotAPage)
    }
}

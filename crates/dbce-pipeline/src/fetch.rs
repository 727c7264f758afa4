//! Why a page could not be read back (from its archive, or from the DOM stage `read` saved),
//! as the stages that need it count it; the refetch itself is `dbce-page`'s [`PageFetcher`].

use std::path::PathBuf;
use std::sync::Arc;

use dbce_page::{PageFetcher, RefetchError};

use crate::{Config, SkipReason};

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
    /// Stage `read` saved no DOM for the page (`read/doms`).
    DomMissing,
    /// The DOM stage `read` saved for the page fails its checksum or does not decode.
    DomDamaged,
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
            Self::DomMissing => SkipReason::StoredDomMissing,
            Self::DomDamaged => SkipReason::StoredDomDamaged,
        }
    }
}

impl From<RefetchError> for FetchError {
    fn from(error: RefetchError) -> Self {
        match error {
            RefetchError::NoSuchFile => Self::NoSuchFile,
            RefetchError::Io(cause) => Self::Io(cause),
            RefetchError::NotAtOffset => Self::NotAtOffset,
            RefetchError::NotAPage => Self::NotAPage,
        }
    }
}

/// A fetcher over a run's `inputs` (the list stage `read` recorded) that reads them with the
/// settings `read` used.
pub fn page_fetcher(inputs: Vec<PathBuf>, config: &Config) -> PageFetcher {
    PageFetcher::new(inputs, config.read.reader(), config.read.http_limits())
}

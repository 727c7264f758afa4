//! Why a report could not be written.

use std::path::PathBuf;

/// Why [`write_report`](crate::write_report) failed. A page that cannot be shown is not an
/// error: it is counted in the overview with its reason.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// A file of the run could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// `report.json` is not a run's report.
    #[error("{path} is not a dbce report.json: {source}")]
    BadRunReport {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        #[source]
        source: std::io::Error,
    },
    /// A file of the report could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The work directory is incomplete or unreadable.
    #[error(transparent)]
    Stage(#[from] dbce_pipeline::StageError),
}

impl From<dbce_pipeline::work::WorkError> for ReportError {
    fn from(error: dbce_pipeline::work::WorkError) -> Self {
        Self::Stage(error.into())
    }
}

impl From<dbce_artifact::ArtifactError> for ReportError {
    fn from(error: dbce_artifact::ArtifactError) -> Self {
        Self::Stage(error.into())
    }
}

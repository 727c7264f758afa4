//! The crate's error type.

use std::io;
use std::path::PathBuf;

/// Why a dataset, a truth file or an archive could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// A text file is not UTF-8.
    #[error("{}: not UTF-8", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// A line of `meta.jsonl` or of a truth file is not the JSON object expected.
    #[error("{}:{line}: {reason}", path.display())]
    MalformedLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: u64,
        /// What the JSON parser said (missing field, wrong type, syntax).
        reason: String,
    },
    /// A page id or record id occurs twice in one file.
    #[error("{}:{line}: id {id:?} occurs twice", path.display())]
    DuplicateId {
        /// The file.
        path: PathBuf,
        /// 1-based line number of the second occurrence.
        line: u64,
        /// The id.
        id: String,
    },
    /// A page id cannot name files (empty, or containing a path separator or `..`).
    #[error("{}:{line}: page id {id:?} is not a file name", path.display())]
    BadPageId {
        /// The `meta.jsonl` file.
        path: PathBuf,
        /// 1-based line number.
        line: u64,
        /// The id.
        id: String,
    },
    /// The dataset directory has no usable name (it names the dataset in record ids and URLs).
    #[error("{}: cannot name the dataset after this directory", path.display())]
    BadDatasetName {
        /// The directory.
        path: PathBuf,
    },
    /// Two pages of a dataset would share a `WARC-Target-URI` (the archive would present them
    /// as two captures of one URL) or, having no URL, a synthetic host (one site for pages meant
    /// to stand alone).
    #[error("dataset {dataset}: pages {first:?} and {second:?} share {uri}")]
    SharedTarget {
        /// The dataset.
        dataset: String,
        /// The first page.
        first: String,
        /// The second page.
        second: String,
        /// The shared URI (for a synthetic host, its root URL).
        uri: String,
    },
    /// A peer is not given as `NAME=DIR`.
    #[error("peer {spec:?} is not NAME=DIR")]
    BadPeer {
        /// What was given.
        spec: String,
    },
}

impl EvalError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { path, source }
    }
}

//! The crate's error type.

use std::io;

/// Why generating an archive failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A parameter is out of range.
    #[error("invalid parameter {parameter}: {reason}")]
    Config {
        /// The parameter, as the command line spells it.
        parameter: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Writing the WARC output failed.
    #[error("cannot write the archive")]
    Archive(#[source] io::Error),
    /// Writing the ground-truth output failed.
    #[error("cannot write the truth file")]
    Truth(#[source] io::Error),
    /// A page holds a character its declared charset cannot encode (a generator bug).
    #[error("{url}: text not encodable in {charset}")]
    Unencodable {
        /// The page.
        url: String,
        /// The declared charset.
        charset: &'static str,
    },
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads")]
    Threads {
        /// The number asked for.
        threads: usize,
        /// What the thread pool reported.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

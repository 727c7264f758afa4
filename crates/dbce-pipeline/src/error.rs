//! Why a stage step failed.

use std::path::PathBuf;

use crate::ConfigError;
use crate::work::WorkError;
use dbce_artifact::ArtifactError;

/// A stage step could not run or finish. Damage inside archives is never one of these: it is
/// counted in the step's report.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StageError {
    /// The configuration is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The work directory is inconsistent, or the previous stage incomplete.
    #[error(transparent)]
    Work(#[from] WorkError),
    /// An intermediate file could not be written or read.
    #[error(transparent)]
    Artifact(#[from] ArtifactError),
    /// An input file could not be opened.
    #[error("cannot open {path}: {source}")]
    Input {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// An input file could not be read at all.
    #[error("cannot read {path}: {source}")]
    Archive {
        /// The file.
        path: PathBuf,
        /// The reader's error.
        #[source]
        source: dbce_warc::Error,
    },
    /// Not one record could be read from an input file: it is not a WARC or ARC file (or is
    /// damaged throughout). Its skips, if any, say what was found instead.
    #[error(
        "{path}: not one WARC/ARC record could be read; is it an archive? ({skips} unreadable part(s) skipped)"
    )]
    NoRecords {
        /// The file.
        path: PathBuf,
        /// Entries the reader skipped in it.
        skips: u64,
    },
    /// An output file could not be written.
    #[error("cannot write {path}: {source}")]
    Output {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The parts' CDXJ files could not be merged.
    #[error(transparent)]
    Merge(#[from] dbce_output::MergeError),
    /// A MinHash computation was given inconsistent settings.
    #[error("MinHash: {0}")]
    Minhash(#[from] dbce_minhash::Error),
    /// The full-text index could not be built.
    #[error(transparent)]
    Index(#[from] dbce_index::IndexError),
    /// A trained model (the run model of `model`, the judge of `evidence`) cannot be used.
    #[error(transparent)]
    Model(#[from] dbce_learn::model::LoadError),
    /// More than 2³² input files.
    #[error("too many input files (at most 4294967295)")]
    TooManyInputs,
    /// A shard number beyond the stage's shard count.
    #[error("{stage} has {shards} shards; there is no shard {shard}")]
    NoSuchShard {
        /// The stage.
        stage: &'static str,
        /// The shard asked for.
        shard: u32,
        /// The stage's shard count.
        shards: u32,
    },
}

/// An output file written as it streams ([`dbce_artifact::atomic::AtomicFile`]) failed.
impl From<dbce_artifact::atomic::WriteError> for StageError {
    fn from(e: dbce_artifact::atomic::WriteError) -> Self {
        Self::Output {
            path: e.path,
            source: e.source,
        }
    }
}

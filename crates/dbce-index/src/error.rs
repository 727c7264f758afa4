//! The crate's one error type.

use std::path::PathBuf;

/// Why an index could not be built, opened or searched.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    /// `build_index` was given a directory that already holds files; it never overwrites.
    #[error("{}: exists and is not empty; an index is built only into a new or empty directory", dir.display())]
    Exists {
        /// The directory.
        dir: PathBuf,
    },
    /// There is no index at the directory: it does not exist, or neither it nor a
    /// subdirectory (a shard) has a `meta.json`.
    #[error("{}: no index here (no meta.json, nor a shard directory with one)", dir.display())]
    Missing {
        /// The directory.
        dir: PathBuf,
    },
    /// The index lacks a field this crate writes, so another program wrote it.
    #[error("{}: not an index written by dbce-index (no field `{field}`)", dir.display())]
    Schema {
        /// The index directory.
        dir: PathBuf,
        /// The missing field.
        field: &'static str,
    },
    /// Two shards of a sharded index have different schemas (written by different versions),
    /// so their scores cannot be merged.
    #[error("{}: its schema differs from that of the shard {}; rebuild the index", dir.display(), first.display())]
    ShardSchema {
        /// The shard that differs.
        dir: PathBuf,
        /// The first shard.
        first: PathBuf,
    },
    /// The query does not parse; `message` is tantivy's query parser error.
    #[error("bad query {query:?}: {message}")]
    Query {
        /// The query as given.
        query: String,
        /// What the parser reported.
        message: String,
    },
    /// A file system operation failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// tantivy failed while writing or reading the index (corrupt files, lock held, I/O inside
    /// tantivy). The cause is tantivy's error, kept opaque so its type is not part of this API.
    #[error("{}: index error: {source}", dir.display())]
    Tantivy {
        /// The index directory.
        dir: PathBuf,
        /// tantivy's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync + 'static>,
    },
}

impl IndexError {
    /// An I/O error at `path`.
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { path, source }
    }

    /// A tantivy error on the index at `dir`.
    pub(crate) fn tantivy(dir: impl Into<PathBuf>) -> impl FnOnce(tantivy::TantivyError) -> Self {
        let dir = dir.into();
        move |source| Self::Tantivy {
            dir,
            source: Box::new(source),
        }
    }
}

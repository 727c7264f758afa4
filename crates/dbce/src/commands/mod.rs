//! One module per subcommand.

pub(crate) mod cdx;
pub(crate) mod config;
pub(crate) mod eval;
pub(crate) mod extract;
pub(crate) mod get;
pub(crate) mod inspect;
pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod search;
pub(crate) mod stage;
pub(crate) mod template;
pub(crate) mod train;
pub(crate) mod train_page_type;
pub(crate) mod train_single_page;

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use anyhow::Context as _;
use dbce_warc::{ReaderConfig, WarcReader};

/// Opens an archive for reading.
pub(crate) fn open(
    path: &Path,
    config: ReaderConfig,
) -> anyhow::Result<WarcReader<BufReader<File>>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    WarcReader::new(BufReader::with_capacity(1 << 16, file), config)
        .with_context(|| format!("cannot read {}", path.display()))
}

/// Whether `error` is a closed standard output (`dbce … | head`), which is not a failure.
pub(crate) fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

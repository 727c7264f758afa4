//! Integration tests of the built `dbce` binary, one module per subcommand.

#![allow(clippy::unwrap_used)]

mod cdx;
mod config;
mod eval;
mod extract;
mod forums;
mod get;
mod inspect;
mod report;
mod run;
mod stage;
mod template;
mod train;
mod train_page_type;
mod train_single_page;
mod truncated;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The built `dbce` binary, ready for arguments.
fn dbce() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dbce"))
}

/// A sample archive in `testdata/warc/`.
fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/warc")
        .join(name)
}

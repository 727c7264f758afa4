//! The `dbce` command line: parses arguments and hands each subcommand to its module.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;

/// Diff-Based Content Extraction: turns web archives into clean text corpora.
#[derive(Debug, Parser)]
#[command(name = "dbce", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the records of WARC/ARC files by type and list what had to be skipped, and why.
    Inspect(commands::inspect::Args),
    /// Print the record at a byte offset of a WARC/ARC file.
    Get(commands::get::Args),
    /// Write a CDXJ (or classic CDX) index of WARC/ARC files to standard output.
    Cdx(commands::cdx::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Inspect(args) => commands::inspect::run(&args),
        Command::Get(args) => commands::get::run(&args),
        Command::Cdx(args) => commands::cdx::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(error) if commands::is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("dbce: error: {error:#}");
            ExitCode::from(2)
        }
    }
}

//! The `dbce` command line: parses arguments and hands each subcommand to its module.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;

/// jemalloc, not glibc's allocator: glibc keeps what one stage freed for the rest of the
/// process, so `dbce run`'s last stage (index, with its writer's budget) came on top of
/// annotate's peak; jemalloc hands it back. Same output, CPU level (docs/bench/2026-11-28-allocator).
#[cfg(all(feature = "jemalloc", not(target_env = "msvc")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Diff-Based Content Extraction: turns web archives into clean text corpora.
#[derive(Debug, Parser)]
#[command(name = "dbce", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run every stage locally: WARC files in, cleaned text, WARC conversion records and a
    /// full-text index out (default input: the bundled sample).
    Run(commands::run::Args),
    /// Print the main content of one HTML page, classified alone as `dbce run` classifies a
    /// page without partners (text, Markdown or JSON).
    Extract(commands::extract::Args),
    /// Write a finished run's HTML report to OUT/report: overview, sites, page viewers.
    Report(commands::report::Args),
    /// Search the full-text index of a `dbce run` output directory.
    Search(commands::search::Args),
    /// Run the pipeline on evaluation datasets and score each method against the ground truth.
    Eval(commands::eval::Args),
    /// Train the run model of method `model` on archives and datasets with ground truth.
    Train(commands::train::Args),
    /// Train the page-type model on datasets with `page_type` labels, cross-validated by site.
    TrainPageType(commands::train_page_type::Args),
    /// Train (and validate held out) the block model of single-page method `blocks` on datasets.
    TrainSinglePage(commands::train_single_page::Args),
    /// Count the records of WARC/ARC files by type and list what had to be skipped, and why.
    Inspect(commands::inspect::Args),
    /// Print the record at a byte offset of a WARC/ARC file.
    Get(commands::get::Args),
    /// Write a CDXJ (or classic CDX) index of WARC/ARC files to standard output.
    Cdx(commands::cdx::Args),
    /// Run one shard of one pipeline stage (what a cluster task runs).
    Stage(commands::stage::Args),
    /// Print the default configuration, or the resolved configuration of a file.
    Config(commands::config::Args),
    /// Print the template tokens and MinHash signature of an HTML file, for comparison with datasketch.
    Template(commands::template::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => commands::run::run(&args),
        Command::Extract(args) => commands::extract::run(&args),
        Command::Report(args) => commands::report::run(&args),
        Command::Search(args) => commands::search::run(&args),
        Command::Eval(args) => commands::eval::run(&args),
        Command::Train(args) => commands::train::run(&args),
        Command::TrainPageType(args) => commands::train_page_type::run(&args),
        Command::TrainSinglePage(args) => commands::train_single_page::run(&args),
        Command::Inspect(args) => commands::inspect::run(&args),
        Command::Get(args) => commands::get::run(&args),
        Command::Cdx(args) => commands::cdx::run(&args),
        Command::Stage(args) => commands::stage::run(&args),
        Command::Config(args) => commands::config::run(&args),
        Command::Template(args) => commands::template::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(error) if commands::is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("dbce: error: {}", commands::error_message(&error));
            ExitCode::from(2)
        }
    }
}

//! `dbce cdx`: a CDXJ or classic CDX index of archives, as cdxj-indexer writes it.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use dbce_warc::{CDX11_HEADER, CdxLine, Entry, INDEXED_TYPES, ReaderConfig};

/// Arguments of `dbce cdx`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// WARC or ARC files (uncompressed, gzip or zstd).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write classic 11-field CDX (`N b a m s k r M S V g`) instead of CDXJ.
    #[arg(long)]
    cdx11: bool,
    /// Skip records whose block is larger than this many bytes.
    #[arg(long, default_value_t = ReaderConfig::default().max_record_size)]
    max_record_size: u64,
}

/// Writes the index lines of every file in file order, and a warning on standard error for
/// every record that could not be read or indexed; the exit code is 1 if there was any.
pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let config = ReaderConfig {
        max_record_size: args.max_record_size,
        keep_bodies: Some(INDEXED_TYPES.to_vec()),
        ..ReaderConfig::default()
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut problems = 0;
    for path in &args.files {
        problems += index(path, &config, args.cdx11, &mut out)?;
    }
    out.flush()?;
    Ok(if problems > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes the lines of one file; returns how many records were skipped or not indexable.
fn index(
    path: &Path,
    config: &ReaderConfig,
    cdx11: bool,
    out: &mut impl Write,
) -> anyhow::Result<u64> {
    let mut reader = super::open(path, config.clone())?;
    let filename = file_name(path);
    if cdx11 {
        writeln!(out, "{CDX11_HEADER}")?;
    }
    let mut problems = 0;
    while let Some(entry) = reader
        .next_entry()
        .with_context(|| format!("reading {}", path.display()))?
    {
        let line = match entry {
            Entry::Record(record) => {
                CdxLine::from_record(&record, &filename).map_err(|e| e.to_string())
            }
            Entry::Skip(skip) => Err(skip.to_string()),
        };
        match line {
            Ok(Some(line)) if cdx11 => writeln!(out, "{}", line.to_cdx11())?,
            Ok(Some(line)) => writeln!(out, "{line}")?,
            Ok(None) => {}
            Err(problem) => {
                eprintln!("dbce: warning: {}: {problem}", path.display());
                problems += 1;
            }
        }
    }
    Ok(problems)
}

/// The base name of `path`, as index lines name their file.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

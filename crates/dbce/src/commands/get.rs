//! `dbce get`: the record at a byte offset.

use std::io::{Seek as _, SeekFrom, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use dbce_warc::{Entry, ReaderConfig, WarcReader};

/// Arguments of `dbce get`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A WARC or ARC file.
    file: PathBuf,
    /// Byte offset of the record in the file, as `dbce cdx` reports it (0 by default).
    #[arg(default_value_t = 0)]
    offset: u64,
    /// Offset of the record in the decompressed stream, counted from `offset`: for records
    /// inside a whole-file gzip or zstd archive, as `dbce inspect` reports a skip's
    /// `stream_offset` (with offset 0).
    #[arg(long)]
    stream_offset: Option<u64>,
    /// Print only the record's block, not its header.
    #[arg(long)]
    body: bool,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let mut file = std::fs::File::open(&args.file)
        .with_context(|| format!("cannot open {}", args.file.display()))?;
    file.seek(SeekFrom::Start(args.offset))?;
    let mut reader = WarcReader::new(std::io::BufReader::new(file), ReaderConfig::default())?;
    if let Some(stream_offset) = args.stream_offset {
        let reached = reader.skip_decompressed(stream_offset)?;
        if reached < stream_offset {
            bail!(
                "decompressed offset {stream_offset} is past the end of {} ({reached} bytes)",
                args.file.display()
            );
        }
    }
    let record = match reader.next_entry()? {
        Some(Entry::Record(record)) => record,
        Some(Entry::Skip(skip)) => bail!("no readable record at offset {}: {skip}", args.offset),
        None => bail!(
            "offset {} is at or past the end of {}",
            args.offset,
            args.file.display()
        ),
    };
    let mut out = std::io::stdout().lock();
    if !args.body {
        write!(
            out,
            "{}\r\n{}\r\n",
            record.header.version, record.header.fields
        )?;
    }
    out.write_all(record.body.bytes().unwrap_or_default())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

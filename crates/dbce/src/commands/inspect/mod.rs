//! `dbce inspect`: records per type and skips with reasons.

mod payloads;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use dbce_warc::{DigestCheck, Entry, ReaderConfig, Skip};
use serde::Serialize;

/// Arguments of `dbce inspect`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// WARC or ARC files (uncompressed, gzip or zstd).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print one JSON object per file instead of text.
    #[arg(long)]
    json: bool,
    /// Check WARC-Block-Digest and WARC-Payload-Digest of every record.
    #[arg(long)]
    verify_digests: bool,
    /// Also parse HTTP responses: statuses, HTML pages, charsets, decoding fallbacks.
    #[arg(long)]
    payloads: bool,
    /// Skip records whose block is larger than this many bytes.
    #[arg(long, default_value_t = ReaderConfig::default().max_record_size)]
    max_record_size: u64,
}

/// What one file holds.
#[derive(Debug, Default, Serialize)]
struct Inspection {
    file: String,
    compression: String,
    format: Option<String>,
    /// Records read.
    records: u64,
    /// Records read, by `WARC-Type`.
    types: BTreeMap<String, u64>,
    /// Digest checks by outcome, when asked for.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    digests: BTreeMap<String, u64>,
    /// Records read despite something irregular (a block cut short by the end of the file,
    /// header lines ending CR CR LF), by warning.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    warnings: BTreeMap<String, u64>,
    /// What the HTTP responses hold, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    payloads: Option<payloads::PayloadCounts>,
    skips: Vec<Skip>,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let config = ReaderConfig {
        verify_digests: args.verify_digests,
        max_record_size: args.max_record_size,
        ..ReaderConfig::default()
    };
    let mut stdout = std::io::stdout().lock();
    let mut any_skips = false;
    for path in &args.files {
        let inspection = inspect(path, &config, args.payloads)?;
        any_skips |= !inspection.skips.is_empty();
        if args.json {
            serde_json::to_writer(&mut stdout, &inspection)?;
            writeln!(stdout)?;
        } else {
            print_text(&mut stdout, &inspection)?;
        }
    }
    Ok(if any_skips {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn inspect(
    path: &std::path::Path,
    config: &ReaderConfig,
    with_payloads: bool,
) -> anyhow::Result<Inspection> {
    let mut reader = super::open(path, config.clone())?;
    let mut inspection = Inspection {
        file: path.display().to_string(),
        compression: format!("{:?}", reader.compression()).to_lowercase(),
        payloads: with_payloads.then(payloads::PayloadCounts::default),
        ..Inspection::default()
    };
    let limits = dbce_http::HttpLimits::default();
    while let Some(entry) = reader
        .next_entry()
        .with_context(|| format!("reading {}", path.display()))?
    {
        match entry {
            Entry::Record(record) => {
                inspection.records += 1;
                if let Some(counts) = &mut inspection.payloads {
                    counts.add(&record, &limits);
                }
                *inspection
                    .types
                    .entry(record.header.record_type.to_string())
                    .or_default() += 1;
                for warning in &record.warnings {
                    *inspection
                        .warnings
                        .entry(warning.name().to_owned())
                        .or_default() += 1;
                }
                if let Some(digests) = record.digests {
                    for (which, check) in [("block", digests.block), ("payload", digests.payload)] {
                        if check != DigestCheck::Absent {
                            let key = format!("{which}-{}", check_name(check));
                            *inspection.digests.entry(key).or_default() += 1;
                        }
                    }
                }
            }
            Entry::Skip(skip) => inspection.skips.push(skip),
        }
    }
    inspection.format = reader.format().map(|f| format!("{f:?}").to_lowercase());
    Ok(inspection)
}

fn check_name(check: DigestCheck) -> &'static str {
    match check {
        DigestCheck::Absent => "absent",
        DigestCheck::Valid => "valid",
        DigestCheck::Mismatch => "mismatch",
        DigestCheck::Unverifiable => "unverifiable",
    }
}

fn print_text(out: &mut impl std::io::Write, inspection: &Inspection) -> std::io::Result<()> {
    let format = inspection.format.as_deref().unwrap_or("empty");
    writeln!(
        out,
        "{} ({format}, compression {})",
        inspection.file, inspection.compression
    )?;
    writeln!(out, "  records: {}", inspection.records)?;
    for (kind, count) in &inspection.types {
        writeln!(out, "    {kind}: {count}")?;
    }
    for (outcome, count) in &inspection.digests {
        writeln!(out, "  digest {outcome}: {count}")?;
    }
    for (warning, count) in &inspection.warnings {
        writeln!(out, "  warning {warning}: {count}")?;
    }
    if let Some(counts) = &inspection.payloads {
        counts.print(out)?;
    }
    writeln!(out, "  skips: {}", inspection.skips.len())?;
    for skip in &inspection.skips {
        writeln!(out, "    {skip}")?;
    }
    Ok(())
}

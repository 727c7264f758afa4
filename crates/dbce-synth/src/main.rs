//! `dbce-synth`: writes a generated web archive and its ground-truth file.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context as _;
use clap::Parser;

/// Writes a synthetic WARC/1.1 archive (several sites, templates and captures per URL) and a
/// JSONL ground-truth file with the main content of every page. See docs/synth.md.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Seed every random choice derives from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of sites (site i follows profile i mod 6).
    #[arg(long, default_value_t = 5)]
    sites: u32,
    /// HTML URLs (article and index pages) over all sites, split evenly.
    #[arg(long, default_value_t = 100)]
    pages: u32,
    /// Most captures of one URL (1-12).
    #[arg(long, default_value_t = 4)]
    captures_max: u32,
    /// gzip level of the WARC records (0-9); 6 gives files a fifth smaller, 1.7 times slower.
    #[arg(long, default_value_t = 1)]
    level: u32,
    /// Worker threads (0: one per core); does not change the output.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Every site also hosts a forum whose threads span several pages (docs/synth.md).
    #[arg(long)]
    forums: bool,
    /// Output archive (.warc.gz).
    #[arg(long)]
    out: PathBuf,
    /// Output ground truth (.jsonl).
    #[arg(long)]
    truth: PathBuf,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let config = dbce_synth::Config {
        seed: args.seed,
        sites: args.sites,
        pages: args.pages,
        captures_max: args.captures_max,
        level: args.level,
        threads: args.threads,
        forums: args.forums,
    };
    let create = |path: &PathBuf| {
        File::create(path)
            .map(|file| BufWriter::with_capacity(1 << 20, file))
            .with_context(|| format!("cannot create {}", path.display()))
    };
    let started = Instant::now();
    let summary = dbce_synth::generate(&config, create(&args.out)?, create(&args.truth)?)
        .with_context(|| format!("generating {}", args.out.display()))?;
    eprintln!(
        "dbce-synth: {} records, {} responses ({} HTML pages), {:.1} MiB in {:.2} s",
        summary.records,
        summary.responses,
        summary.pages,
        summary.archive_bytes as f64 / (1024.0 * 1024.0),
        started.elapsed().as_secs_f64()
    );

    Ok(())
}

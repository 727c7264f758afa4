//! `dbce report`: a finished run's HTML report, `OUT/report/`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use dbce_pipeline::WorkDir;
use dbce_report::{REPORT_DIR, ReportConfig, write_report};

/// Arguments of `dbce report`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The run's output directory; the report is written to DIR/report.
    out: PathBuf,
    /// The run's work directory (default: OUT/work).
    #[arg(long, value_name = "DIR")]
    work: Option<PathBuf>,
    #[command(flatten)]
    options: ReportArgs,
}

/// What `dbce report` and `dbce run --report` share.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ReportArgs {
    /// Pages with a viewer per site; beyond it a sample (the least and most kept, the
    /// emptied, then by page id).
    #[arg(long, value_name = "N", default_value_t = ReportConfig::default().pages_per_site)]
    pages_per_site: usize,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let work = WorkDir::new(args.work.clone().unwrap_or_else(|| args.out.join("work")));
    write(&args.out, &work, &args.options)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the report of the run in `out` and says where it is and what it cost.
pub(crate) fn write(out: &Path, work: &WorkDir, options: &ReportArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let config = ReportConfig {
        pages_per_site: options.pages_per_site,
    };
    let summary = write_report(out, work, &config)
        .with_context(|| format!("cannot write the report of {}", out.display()))?;
    eprintln!(
        "dbce: report of {} pages of {} sites ({} with a viewer, {} could not be read back), \
         {:.1} MB in {:.2} s: open {}",
        summary.pages,
        summary.sites,
        summary.viewers,
        summary.viewer_skips,
        summary.bytes as f64 / 1e6,
        started.elapsed().as_secs_f64(),
        out.join(REPORT_DIR).join("index.html").display()
    );
    Ok(())
}

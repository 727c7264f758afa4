//! `dbce run`: every stage, locally, on all cores.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::Context as _;
use dbce_pipeline::{WorkDir, run_local};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::config::ConfigArgs;
use super::stage::{exit_code, skipped_list};

/// The archive `dbce run` reads when given none: `testdata/sample/sample.warc.gz` (233 HTML
/// pages of 6 generated sites, 1.8 MB), built into the binary so an installed `dbce` has it too.
const SAMPLE: &[u8] = include_bytes!("../../../../testdata/sample/sample.warc.gz");

/// The file name the sample is written under, in the output directory.
const SAMPLE_NAME: &str = "sample.warc.gz";

/// Arguments of `dbce run`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// WARC/ARC files or folders of them (default: the bundled sample, written to
    /// OUT/sample.warc.gz and read from there).
    inputs: Vec<PathBuf>,
    /// The output directory.
    #[arg(long, value_name = "DIR", default_value = "dbce-out")]
    out: PathBuf,
    /// The work directory for intermediate files (default: OUT/work). Rerunning on it skips
    /// finished shards.
    #[arg(long, value_name = "DIR")]
    work: Option<PathBuf>,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Shards of the read stage (default: 4 per thread). The output does not depend on it.
    #[arg(long)]
    shards: Option<u32>,
    /// Also write each page's annotated HTML to OUT/html (sets `annotate.annotated-html`).
    #[arg(long)]
    annotated_html: bool,
    /// Also write each page's content as Markdown, the JSONL's `markdown` field (sets
    /// `annotate.markdown`).
    #[arg(long)]
    markdown: bool,
    /// Also write the run's HTML report to OUT/report (as `dbce report OUT` does).
    #[arg(long)]
    report: bool,
    #[command(flatten)]
    report_options: super::report::ReportArgs,
    /// No progress bars.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    config: ConfigArgs,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let mut config = args.config.resolve()?;
    config.annotate.annotated_html |= args.annotated_html;
    config.annotate.markdown |= args.markdown;
    let inputs = if args.inputs.is_empty() {
        vec![write_sample(&args.out)?]
    } else {
        dbce_pipeline::inputs::expand_inputs(&args.inputs)?
    };
    anyhow::ensure!(!inputs.is_empty(), "no WARC/ARC files among the inputs");
    let work = WorkDir::new(args.work.clone().unwrap_or_else(|| args.out.join("work")));
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = args.threads {
        pool = pool.num_threads(threads);
    }
    let pool = pool.build().context("cannot start the worker threads")?;
    let shards = args
        .shards
        .unwrap_or_else(|| u32::try_from(pool.current_num_threads() * 4).unwrap_or(4));
    let bars = Bars::new(args.quiet);
    let started = std::time::Instant::now();
    let report = pool.install(|| {
        run_local(
            &work,
            &config,
            &inputs,
            &args.out,
            shards,
            &|stage, done, total| {
                bars.update(stage, done, total);
            },
        )
    })?;
    bars.finish();
    let read = report.stages.values().next();
    eprintln!(
        "dbce: {} input file(s), {} records read, {} pages written, {} indexed, in {:.1} s",
        report.inputs.len(),
        read.map_or(0, |s| s.input),
        report.stages.values().last().map_or(0, |s| s.output),
        report.indexed,
        started.elapsed().as_secs_f64()
    );
    for (stage, counts) in &report.stages {
        eprintln!(
            "  {stage:<11} {:>9} in {:>9} out   skipped: {}",
            counts.input,
            counts.output,
            skipped_list(&counts.skipped)
        );
    }
    if args.report {
        pool.install(|| super::report::write(&args.out, &work, &args.report_options))?;
    }
    let out = args.out.display();
    eprintln!("dbce: text in {out}/text, WARC in {out}/warc, report in {out}/report.json");
    eprintln!("dbce: search it with: dbce search {out} \"your query\"");
    Ok(exit_code(read.into_iter().flat_map(|s| s.skipped.keys())))
}

/// Writes the bundled sample to `OUT/sample.warc.gz` unless it is there already (a rerun
/// leaves it untouched), and returns its path.
fn write_sample(out: &Path) -> anyhow::Result<PathBuf> {
    let path = out.join(SAMPLE_NAME);
    if std::fs::read(&path).is_ok_and(|bytes| bytes == SAMPLE) {
        return Ok(path);
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let temporary = out.join(format!(".{SAMPLE_NAME}.tmp-{}", std::process::id()));
    std::fs::write(&temporary, SAMPLE)
        .and_then(|()| std::fs::rename(&temporary, &path))
        .with_context(|| format!("cannot write the bundled sample to {}", path.display()))?;
    Ok(path)
}

/// One progress bar per stage, shown on standard error when it is a terminal.
struct Bars {
    multi: MultiProgress,
    bars: Mutex<BTreeMap<String, ProgressBar>>,
    quiet: bool,
}

impl Bars {
    fn new(quiet: bool) -> Self {
        let target = if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        Self {
            multi: MultiProgress::with_draw_target(target),
            bars: Mutex::new(BTreeMap::new()),
            quiet,
        }
    }

    fn update(&self, stage: &str, done: u64, total: u64) {
        if self.quiet {
            return;
        }
        let Ok(mut bars) = self.bars.lock() else {
            return;
        };
        let bar = bars.entry(stage.to_owned()).or_insert_with(|| {
            let bar = self.multi.add(ProgressBar::new(total));
            bar.set_style(
                ProgressStyle::with_template("{prefix:>9} [{bar:30}] {pos}/{len} shards {elapsed}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            bar.set_prefix(stage.to_owned());
            bar
        });
        bar.set_length(total);
        bar.set_position(done);
        if done == total {
            bar.finish();
        }
    }

    fn finish(&self) {
        if let Ok(bars) = self.bars.lock() {
            bars.values().for_each(ProgressBar::finish);
        }
    }
}

//! The stages of dbce as map/merge steps over shards: what each step reads, plans, writes, skips
//! and reports.
//!
//! Stage 1 is [`read::run_read`] (map over archive files: [`PageRef`]s and LSH band rows
//! partitioned by [`BucketKey`]) and [`group::run_group`] (merge per partition:
//! [`group::LshBucket`]s); then [`annotate::run_annotate`], [`finish::run_finish`] and
//! [`index::run_index`] per partition, and [`merge::run_merge`] once. Every step takes its
//! [`Shard`] or partition, writes its outputs atomically through [`dbce_artifact`], records a
//! [`StageReport`] whose counts balance, leaves a done marker in the [`WorkDir`], and skips work
//! already done. [`run_stage1`] and [`run_local`] run all shards locally on a rayon pool; a
//! cluster engine runs the same steps one shard per task. What a step computes is the
//! libraries': a page's text is `dbce-extract`'s, the output records `dbce-output`'s, the page
//! record `dbce-page`'s.
//!
//! ```no_run
//! use dbce_pipeline::{Config, WorkDir, run_stage1};
//!
//! let work = WorkDir::new("/tmp/dbce-work");
//! let inputs = vec!["testdata/sample/sample.warc.gz".into()];
//! let (read, group) = run_stage1(&work, &Config::default(), &inputs, 2)?;
//! assert!(read.balances() && group.balances());
//! # Ok::<(), dbce_pipeline::StageError>(())
//! ```
#![deny(missing_docs)]

pub mod annotate;
pub mod bands;
pub mod doms;
mod error;
pub mod fetch;
pub mod finish;
pub mod group;
pub mod index;
pub mod inputs;
pub mod merge;
pub mod read;
mod report;
mod shard;
pub mod site;
mod skip_reason;
pub mod skips;
pub mod timings;
pub mod work;

pub use bands::BucketKey;
pub use dbce_config::{AnnotateConfig, ClassifyMethod, Config, ConfigError, LshConfig, ReadConfig};
pub use dbce_page::{FileId, PageId, PageRef, PayloadDigest, SiteKey, Timestamp};
pub use error::StageError;
pub use report::StageReport;
pub use shard::Shard;
pub use skip_reason::{SkipReason, UnknownSkipReason};
pub use timings::StageTimings;
pub use work::WorkDir;

use rayon::prelude::*;
use std::path::PathBuf;

/// Runs stage 1 locally: `read` in `world` shards, then `group` on every partition, all on the
/// current rayon pool. Returns the summed reports of both stages.
///
/// # Errors
/// Fails as the steps do.
pub fn run_stage1(
    work: &WorkDir,
    config: &Config,
    inputs: &[PathBuf],
    world: u32,
) -> Result<(StageReport, StageReport), StageError> {
    let world = world.max(1);
    let reads: Vec<StageReport> = (0..world)
        .into_par_iter()
        .map(|rank| read::run_read(work, config, inputs, Shard { rank, world }))
        .collect::<Result<_, _>>()?;
    let groups: Vec<StageReport> = (0..config.lsh.partitions)
        .into_par_iter()
        .map(|partition| group::run_group(work, config, partition))
        .collect::<Result<_, _>>()?;
    Ok((sum(read::STAGE, &reads), sum(group::STAGE, &groups)))
}

/// Which stage a local run is in and how far it got: the stage's name, shards done, shards in
/// all. Called from worker threads.
pub type Progress<'a> = &'a (dyn Fn(&str, u64, u64) + Sync);

/// Runs every stage locally on the current rayon pool: `read` in `world` shards, then `group`,
/// `annotate` (`annotate.tasks-per-partition` shards per partition), `finish` and `index` on
/// every partition, then `merge` (the CDXJ and `report.json`) in `out`.
/// Shards already done (by an earlier, interrupted run on the same work directory) are
/// skipped. The output does not depend on `world`, the tasks per partition or the pool's size.
///
/// # Errors
/// Fails as the steps do.
pub fn run_local(
    work: &WorkDir,
    config: &Config,
    inputs: &[PathBuf],
    out: &std::path::Path,
    world: u32,
    progress: Progress<'_>,
) -> Result<finish::RunReport, StageError> {
    let world = world.max(1);
    let partitions = config.lsh.partitions;
    // Returns the stage's wall-clock seconds.
    let each = |stage: &str,
                shards: u32,
                step: &(dyn Fn(u32) -> Result<StageReport, StageError> + Sync)| {
        let started = std::time::Instant::now();
        let done = std::sync::atomic::AtomicU64::new(0);
        progress(stage, 0, u64::from(shards));
        (0..shards).into_par_iter().try_for_each(|shard| {
            step(shard)?;
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(stage, n, u64::from(shards));
            Ok::<(), StageError>(())
        })?;
        Ok::<(String, f64), StageError>((
            finish::report_stage_name(stage),
            started.elapsed().as_secs_f64(),
        ))
    };
    let mut timings = StageTimings::default();
    timings.seconds.extend([
        each(read::STAGE, world, &|rank| {
            read::run_read(work, config, inputs, Shard { rank, world })
        })?,
        each(group::STAGE, partitions, &|p| {
            group::run_group(work, config, p)
        })?,
        each(annotate::STAGE, config.annotate_shards(), &|shard| {
            annotate::run_annotate(work, config, shard)
        })?,
        each(finish::STAGE, partitions, &|p| {
            finish::run_finish(work, config, p, out)
        })?,
        each(index::STAGE, partitions, &|p| {
            index::run_index(work, config, p, out)
        })?,
    ]);
    progress(merge::STAGE, 0, 1);
    let started = std::time::Instant::now();
    let report = merge::run_merge(work, config, out)?;
    timings.seconds.insert(
        finish::report_stage_name(merge::STAGE),
        started.elapsed().as_secs_f64(),
    );
    progress(merge::STAGE, 1, 1);
    timings.write(work)?;
    Ok(report)
}

fn sum(stage: &str, reports: &[StageReport]) -> StageReport {
    let mut total = StageReport::new(stage, 0);
    reports.iter().for_each(|report| total.absorb(report));
    total
}

//! `dbce stage`: one shard of one stage, as a cluster task runs it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use dbce_pipeline::{
    Shard, SkipReason, StageError, StageReport, WorkDir, annotate, finish, group, index, merge,
    read,
};

use super::config::ConfigArgs;

/// Arguments of `dbce stage`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    stage: Stage,
}

#[derive(Debug, clap::Subcommand)]
enum Stage {
    /// Stage 1, map: read archives, compute template signatures, write pages and LSH band rows.
    Read {
        /// WARC/ARC files or folders of them; every task of the stage must get the same list.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[command(flatten)]
        common: Common,
        /// This task's rank, from 0.
        #[arg(long, default_value_t = 0)]
        rank: u32,
        /// How many tasks share the stage.
        #[arg(long, default_value_t = 1)]
        world: u32,
    },
    /// Stage 1, merge: the LSH buckets of one band partition (all partitions without one).
    Group {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        partition: PartitionArg,
    },
    /// Stage 2: crosses, diffs and run classes of one partition's pages, or of one task's
    /// share of them (`annotate.tasks-per-partition`).
    Annotate {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        shard: AnnotateArg,
    },
    /// Stage 3, map: one partition's cleaned records (JSONL, WARC conversion records, CDXJ).
    Finish {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        partition: PartitionArg,
        #[command(flatten)]
        output: OutputArg,
    },
    /// Stage 3, index: one partition's full-text index, `OUT/index/part-PART/`.
    Index {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        partition: PartitionArg,
        #[command(flatten)]
        output: OutputArg,
    },
    /// Stage 3, merge (one task): the partitions' CDXJ merged into `warc/index.cdxj`, and
    /// `report.json`.
    Merge {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        output: OutputArg,
    },
}

/// Which partition a task takes.
#[derive(Debug, clap::Args)]
struct PartitionArg {
    /// The partition, from 0 (default: every partition, one after another).
    #[arg(long)]
    partition: Option<u32>,
    /// Added to `--partition`: for engines whose task numbers stop below the partition count
    /// (a Slurm array capped at `MaxArraySize` runs `--partition $SLURM_ARRAY_TASK_ID
    /// --partition-offset 1000`).
    #[arg(long, default_value_t = 0, requires = "partition")]
    partition_offset: u32,
}

impl PartitionArg {
    fn partitions(&self, config: &dbce_pipeline::Config) -> anyhow::Result<Vec<u32>> {
        match self.partition {
            Some(p) => {
                let p = p
                    .checked_add(self.partition_offset)
                    .context("--partition plus --partition-offset overflows")?;
                Ok(vec![p])
            }
            None => Ok((0..config.lsh.partitions).collect()),
        }
    }
}

/// Which shards of stage `annotate` a task takes: every task of a partition, or one shard.
#[derive(Debug, clap::Args)]
struct AnnotateArg {
    #[command(flatten)]
    partition: PartitionArg,
    /// The shard, from 0: task K % T of partition K / T, where T is
    /// `annotate.tasks-per-partition` (the one number a cluster engine's task id maps to;
    /// default: every shard, or with `--partition` every task of that partition).
    #[arg(long, conflicts_with = "partition")]
    shard: Option<u32>,
    /// Added to `--shard`, as `--partition-offset` to `--partition`.
    #[arg(long, default_value_t = 0, requires = "shard")]
    shard_offset: u32,
}

impl AnnotateArg {
    fn shards(&self, config: &dbce_pipeline::Config) -> anyhow::Result<Vec<u32>> {
        if let Some(shard) = self.shard {
            let shard = shard
                .checked_add(self.shard_offset)
                .context("--shard plus --shard-offset overflows")?;
            return Ok(vec![shard]);
        }
        let tasks = config.annotate.tasks_per_partition;
        Ok(self
            .partition
            .partitions(config)?
            .into_iter()
            .flat_map(|p| {
                let first = p.saturating_mul(tasks);
                first..first.saturating_add(tasks)
            })
            .collect())
    }
}

/// Where the stage writes its outputs.
#[derive(Debug, clap::Args)]
struct OutputArg {
    /// The output directory.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct Common {
    /// The run's work directory.
    #[arg(long, value_name = "DIR")]
    work: PathBuf,
    #[command(flatten)]
    config: ConfigArgs,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let reports = match &args.stage {
        Stage::Read {
            inputs,
            common,
            rank,
            world,
        } => {
            if *world == 0 || rank >= world {
                bail!("--rank must be below --world (got rank {rank}, world {world})");
            }
            let inputs = dbce_pipeline::inputs::expand_inputs(inputs)?;
            let shard = Shard {
                rank: *rank,
                world: *world,
            };
            let work = WorkDir::new(&common.work);
            vec![read::run_read(
                &work,
                &common.config.resolve()?,
                &inputs,
                shard,
            )?]
        }
        Stage::Group { common, partition } => each_shard(
            common,
            |config| partition.partitions(config),
            group::run_group,
        )?,
        Stage::Annotate { common, shard } => each_shard(
            common,
            |config| shard.shards(config),
            annotate::run_annotate,
        )?,
        Stage::Finish {
            common,
            partition,
            output,
        } => each_shard(
            common,
            |config| partition.partitions(config),
            |work, config, p| finish::run_finish(work, config, p, &output.out),
        )?,
        Stage::Index {
            common,
            partition,
            output,
        } => each_shard(
            common,
            |config| partition.partitions(config),
            |work, config, p| index::run_index(work, config, p, &output.out),
        )?,
        Stage::Merge { common, output } => {
            let out = &output.out;
            let config = common.config.resolve()?;
            let work = WorkDir::new(&common.work);
            let report = merge::run_merge(&work, &config, out)?;
            eprintln!(
                "dbce: merge: {} pages indexed; report in {}",
                report.indexed,
                out.join("report.json").display()
            );
            Vec::new()
        }
    };
    for report in &reports {
        eprintln!("{}", summary(report));
    }
    Ok(exit_code(reports.iter().flat_map(|r| r.skipped.keys())))
}

/// The exit code of a finished run or stage given its skip reasons: 1 when the archive reader
/// had to skip something it could not read (reasons `warc:…`, as `dbce inspect` counts them),
/// else 0. Records that are read but are not pages (requests, images, redirects) do not count.
pub(crate) fn exit_code<'a>(mut reasons: impl Iterator<Item = &'a SkipReason>) -> ExitCode {
    if reasons.any(|reason| reason.is_unreadable_input()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs `step` on the shards (partitions, or annotate's shards) `shards` names, one after
/// another.
fn each_shard(
    common: &Common,
    shards: impl FnOnce(&dbce_pipeline::Config) -> anyhow::Result<Vec<u32>>,
    step: impl Fn(&WorkDir, &dbce_pipeline::Config, u32) -> Result<StageReport, StageError>,
) -> anyhow::Result<Vec<StageReport>> {
    let config = common.config.resolve()?;
    let work = WorkDir::new(&common.work);
    shards(&config)?
        .into_iter()
        .map(|p| Ok(step(&work, &config, p)?))
        .collect()
}

fn summary(report: &StageReport) -> String {
    format!(
        "dbce: {} shard {}: {} in, {} out, skipped: {}",
        report.stage,
        report.shard,
        report.input,
        report.emitted,
        skipped_list(&report.skipped)
    )
}

/// Skip counts as `reason n, reason n`, or `none`.
pub(crate) fn skipped_list(skipped: &std::collections::BTreeMap<SkipReason, u64>) -> String {
    if skipped.is_empty() {
        return "none".to_owned();
    }
    let items: Vec<String> = skipped
        .iter()
        .map(|(reason, n)| format!("{reason} {n}"))
        .collect();
    items.join(", ")
}

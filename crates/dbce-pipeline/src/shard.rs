//! Which part of a stage's input one task takes, and how a partition step starts.

use crate::work::{LAYOUT_VERSION, Manifest, WorkDir};
use crate::{Config, StageError, StageReport};

/// Task `rank` of `world`: for stage `read`, the input files whose index is `rank` modulo
/// `world`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This task, from 0.
    pub rank: u32,
    /// How many tasks share the stage.
    pub world: u32,
}

impl Shard {
    /// The only shard of a stage run as one task.
    pub const WHOLE: Shard = Shard { rank: 0, world: 1 };

    /// Whether input `index` belongs to this shard.
    pub fn owns(&self, index: usize) -> bool {
        index % self.world.max(1) as usize == self.rank as usize
    }
}

/// How a partition step begins: the shard is already done (its report), or it runs with the
/// manifest of the stage it reads.
pub(crate) enum PartitionStart {
    /// Done by an earlier run.
    Done(StageReport),
    /// To run; the manifest of the last of the required stages.
    Run(Box<Manifest>),
}

/// The common start of a step over one partition (or for `annotate`, one task of one): the
/// `earlier` stages and `last` are complete with this configuration, `shard` exists (one per
/// partition, but for `annotate` one per task of each: [`Config::annotate_shards`]), the
/// stage's manifest is written (or matches), and the shard is not already done.
///
/// # Errors
/// Fails when a required stage is incomplete or foreign, or the partition does not exist.
pub(crate) fn start_partition(
    work: &WorkDir,
    config: &Config,
    stage: &'static str,
    earlier: &[&str],
    last: &str,
    shard: u32,
) -> Result<PartitionStart, StageError> {
    let fingerprint = config.fingerprint()?;
    for name in earlier {
        work.require_complete(name, &fingerprint)?;
    }
    let previous = work.require_complete(last, &fingerprint)?;
    let shards = if stage == crate::work::ANNOTATE {
        config.annotate_shards()
    } else {
        config.lsh.partitions
    };
    if shard >= shards {
        return Err(StageError::NoSuchShard {
            stage,
            shard,
            shards,
        });
    }
    let inputs = previous.inputs.clone();
    work.begin(&Manifest {
        layout: LAYOUT_VERSION,
        stage: stage.to_owned(),
        fingerprint,
        config: config.clone(),
        inputs,
        shards,
    })?;
    if work.is_done(stage, shard) {
        return Ok(PartitionStart::Done(work.report(stage, shard)?));
    }
    Ok(PartitionStart::Run(Box::new(previous)))
}

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

/// The common start of a step over one partition: the `earlier` stages and `last` are complete
/// with this configuration, `partition` exists, the stage's manifest is written (or matches), and
/// the shard is not already done.
///
/// # Errors
/// Fails when a required stage is incomplete or foreign, or the partition does not exist.
pub(crate) fn start_partition(
    work: &WorkDir,
    config: &Config,
    stage: &'static str,
    earlier: &[&str],
    last: &str,
    partition: u32,
) -> Result<PartitionStart, StageError> {
    let fingerprint = config.fingerprint()?;
    for name in earlier {
        work.require_complete(name, &fingerprint)?;
    }
    let previous = work.require_complete(last, &fingerprint)?;
    if partition >= config.lsh.partitions {
        return Err(StageError::NoSuchShard {
            stage,
            shard: partition,
            shards: config.lsh.partitions,
        });
    }
    let inputs = previous.inputs.clone();
    work.begin(&Manifest {
        layout: LAYOUT_VERSION,
        stage: stage.to_owned(),
        fingerprint,
        config: config.clone(),
        inputs,
        shards: config.lsh.partitions,
    })?;
    if work.is_done(stage, partition) {
        return Ok(PartitionStart::Done(work.report(stage, partition)?));
    }
    Ok(PartitionStart::Run(Box::new(previous)))
}

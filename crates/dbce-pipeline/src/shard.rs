//! Which part of a stage's input one task takes.

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

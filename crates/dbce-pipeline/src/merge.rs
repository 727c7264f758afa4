//! The last step, `merge` (one task): the partitions' sorted CDXJ files merged into
//! `OUT/warc/index.cdxj` by a streaming k-way merge ([`merge_sorted_lines`]), and
//! `OUT/report.json`.

use std::collections::BTreeMap;
use std::path::Path;

use crate::finish::{RunReport, StageCounts, report_stage_name};
use crate::work::{WorkDir, write_atomically};
use crate::{Config, StageError, StageReport, annotate, finish, group, index, read};
use dbce_output::merge_sorted_lines;

/// The step's name and the directory of its done marker.
pub const STAGE: &str = crate::work::MERGE;

/// Runs the last step: merges the parts' CDXJ into `warc/index.cdxj` and writes
/// `out/report.json`, then the step's done marker. `index` (and so every earlier stage) must be
/// complete with the same configuration. A rerun redoes both files: they are small beside the
/// parts, and the merge reads each part once.
///
/// # Errors
/// Fails when a stage is incomplete, a part is missing or not sorted, or files cannot be read
/// or written.
pub fn run_merge(work: &WorkDir, config: &Config, out: &Path) -> Result<RunReport, StageError> {
    let fingerprint = config.fingerprint()?;
    work.require_complete(index::STAGE, &fingerprint)?;
    let finished = work.require_complete(finish::STAGE, &fingerprint)?;
    let files = finished.input_names();
    let mut parts = Vec::new();
    for partition in 0..config.lsh.partitions {
        // A partition without pages wrote no part files.
        if work.report(finish::STAGE, partition)?.emitted > 0 {
            parts.push(out.join("warc").join(format!("part-{partition:05}.cdxj")));
        }
    }
    merge_sorted_lines(&parts, &out.join("warc").join("index.cdxj"))?;

    let mut stages = BTreeMap::new();
    for stage in [read::STAGE, group::STAGE, annotate::STAGE, finish::STAGE] {
        let total = stage_total(work, stage)?;
        stages.insert(
            report_stage_name(stage),
            StageCounts {
                input: total.input,
                output: total.emitted,
                skipped: total.skipped,
                warnings: total.warnings,
            },
        );
    }
    let report = RunReport {
        fingerprint,
        inputs: files,
        stages,
        indexed: stage_total(work, index::STAGE)?.emitted,
    };
    let path = out.join("report.json");
    let json = serde_json::to_vec_pretty(&report).map_err(|e| StageError::Output {
        path: path.clone(),
        source: e.into(),
    })?;
    write_atomically(&path, &json)?;
    // The step's own done marker, written last: engines check `report.json` and it.
    let mut done = StageReport::new(STAGE, 0);
    (0..report.indexed).for_each(|_| done.emit());
    work.finish_shard(&done)?;
    Ok(report)
}

/// The summed reports of every shard of `stage`.
fn stage_total(work: &WorkDir, stage: &str) -> Result<StageReport, StageError> {
    let manifest = work.manifest(stage)?;
    let mut total = StageReport::new(stage, 0);
    for shard in 0..manifest.shards {
        total.absorb(&work.report(stage, shard)?);
    }
    Ok(total)
}

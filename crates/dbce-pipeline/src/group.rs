//! Stage `group`, the merge step of stage 1: per partition, the band rows of every `read` shard
//! become LSH buckets of pages with similar templates.

use serde::{Deserialize, Serialize};

use crate::bands::{BAND_ROWS, BandRow, BucketKey};
use crate::page::PageId;
use crate::shard::{PartitionStart, start_partition};
use crate::work::WorkDir;
use crate::{Config, SkipReason, StageError, StageReport, read};
use dbce_artifact::{ArtifactKind, ArtifactReader, ArtifactWriter};

/// The stage's name and directory.
pub const STAGE: &str = crate::work::GROUP;
/// `group/buckets/PART.bin`: the [`LshBucket`]s of a partition, sorted by key.
pub const BUCKETS: ArtifactKind = ArtifactKind {
    tag: *b"BUCK",
    version: 1,
};

/// Pages of one site that agree on one band of their signatures: candidates for each other's
/// crosses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LshBucket {
    /// The bucket's key.
    pub key: BucketKey,
    /// Its pages, sorted, at least two.
    pub pages: Vec<PageId>,
}

/// Runs stage `group` on `partition`, unless it is already done; `read` must be complete with
/// the same configuration.
///
/// # Errors
/// Fails when `read` is incomplete or was run with other settings, or files cannot be read or
/// written.
pub fn run_group(
    work: &WorkDir,
    config: &Config,
    partition: u32,
) -> Result<StageReport, StageError> {
    let read = match start_partition(work, config, STAGE, &[], read::STAGE, partition)? {
        PartitionStart::Done(report) => return Ok(report),
        PartitionStart::Run(manifest) => manifest,
    };
    let mut rows = Vec::new();
    for rank in 0..read.shards {
        let path = work.read_band_rows(partition, rank);
        for row in ArtifactReader::<BandRow>::open(&path, BAND_ROWS)? {
            rows.push(row?);
        }
    }
    let mut report = StageReport::new(STAGE, partition);
    let mut out = ArtifactWriter::create(&buckets_path(work, partition), BUCKETS)?;
    for bucket in buckets(rows, &mut report) {
        out.push(&bucket)?;
    }
    out.finish()?;
    work.finish_shard(&report)?;
    Ok(report)
}

/// The file of `partition`'s buckets.
fn buckets_path(work: &WorkDir, partition: u32) -> std::path::PathBuf {
    work.buckets(partition)
}

/// The buckets stage `group` wrote for `partition`, sorted by key.
///
/// # Errors
/// Fails when the file cannot be read or is damaged.
pub fn read_buckets(work: &WorkDir, partition: u32) -> Result<Vec<LshBucket>, StageError> {
    Ok(
        ArtifactReader::<LshBucket>::open(&buckets_path(work, partition), BUCKETS)?
            .collect::<Result<Vec<_>, _>>()?,
    )
}

/// Groups band rows into buckets of two or more pages, in key order; the report counts each row
/// as emitted (in a bucket) or skipped (`alone-in-bucket`, `duplicate-row`).
pub fn buckets(mut rows: Vec<BandRow>, report: &mut StageReport) -> Vec<LshBucket> {
    rows.sort_unstable();
    let mut out = Vec::new();
    let mut start = 0;
    while start < rows.len() {
        let key = rows[start].key;
        let end = start
            + rows[start..]
                .iter()
                .take_while(|row| row.key == key)
                .count();
        let mut pages: Vec<PageId> = rows[start..end].iter().map(|row| row.page).collect();
        pages.dedup();
        for _ in pages.len()..end - start {
            report.skip(SkipReason::DuplicateRow);
        }
        if pages.len() >= 2 {
            pages.iter().for_each(|_| report.emit());
            out.push(LshBucket { key, pages });
        } else {
            report.skip(SkipReason::AloneInBucket);
        }
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn row(site: u64, hash: u64, page: u8) -> BandRow {
        BandRow {
            key: BucketKey {
                site,
                band: 0,
                hash,
            },
            page: PageId([page; 16]),
        }
    }

    #[test]
    fn rows_sharing_a_key_form_buckets() {
        let mut report = StageReport::new(STAGE, 0);
        let rows = vec![
            row(1, 5, 2),
            row(1, 5, 1),
            row(2, 5, 3),
            row(1, 6, 4),
            row(1, 5, 1),
        ];
        let got = buckets(rows, &mut report);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].pages, [PageId([1; 16]), PageId([2; 16])]);
        assert!(report.balances());
        assert_eq!(
            (
                report.emitted,
                report.skipped[&SkipReason::AloneInBucket],
                report.skipped[&SkipReason::DuplicateRow]
            ),
            (2, 2, 1)
        );
    }

    proptest! {
        #[test]
        fn grouping_ignores_row_order(mut rows in proptest::collection::vec((0u64..3, 0u64..4, 0u8..20), 0..60), seed in any::<u64>()) {
            let rows: Vec<BandRow> = rows.drain(..).map(|(s, h, p)| row(s, h, p)).collect();
            let mut shuffled = rows.clone();
            let n = shuffled.len();
            for i in 0..n {
                shuffled.swap(i, (seed.wrapping_mul(i as u64 + 1) % n as u64) as usize);
            }
            let (mut a, mut b) = (StageReport::default(), StageReport::default());
            prop_assert_eq!(buckets(rows, &mut a), buckets(shuffled, &mut b));
            prop_assert_eq!(a, b);
        }
    }
}

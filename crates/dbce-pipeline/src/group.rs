//! Stage `group`, the merge step of stage 1: per partition, the band rows of every `read` shard
//! become LSH buckets of pages with similar templates.

use serde::{Deserialize, Serialize};

use crate::bands::{BAND_ROWS, BandRow, BucketKey};
use crate::shard::{PartitionStart, start_partition};
use crate::work::WorkDir;
use crate::{Config, SkipReason, StageError, StageReport, read};
use dbce_artifact::{ArtifactKind, ArtifactReader, ArtifactWriter, SpillSorter};
use dbce_page::PageId;

/// The stage's name and directory.
pub const STAGE: &str = crate::work::GROUP;
/// `group/buckets/PART.bin`: the [`LshBucket`]s of a partition, sorted by key.
pub const BUCKETS: ArtifactKind = ArtifactKind {
    tag: *b"BUCK",
    version: 1,
};

/// Band rows sorted in memory at once (40 bytes each: 40 MiB). A partition with more is sorted
/// in runs of this many, spilled to disk and merged, so the stage's memory does not grow with
/// the partition (issue #17). The output does not depend on it.
const ROWS_IN_MEMORY: usize = 1 << 20;

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
    // At most `ROWS_IN_MEMORY` rows are held; the rest are spilled as sorted runs
    // (`group/spill/PART/rows-RUN.bin`) and merged as they are read back.
    let spill = work.clone();
    let mut sorter = SpillSorter::new(BAND_ROWS, ROWS_IN_MEMORY, move |run| {
        spill.spill(STAGE, partition, "rows", run)
    });
    for rank in 0..read.shards {
        let path = work.read_band_rows(partition, rank);
        for row in ArtifactReader::<BandRow>::open(&path, BAND_ROWS)? {
            sorter.push(row?)?;
        }
    }
    let mut report = StageReport::new(STAGE, partition);
    let mut out = ArtifactWriter::create(&buckets_path(work, partition), BUCKETS)?;
    let sorted = sorter.sorted()?;
    let rows = sorted.iter()?.map(|row| row.map_err(StageError::from));
    group_sorted(rows, &mut report, |bucket| Ok(out.push(&bucket)?))?;
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
    Ok(buckets(work, partition)?.collect::<Result<Vec<_>, _>>()?)
}

/// The LSH buckets of `partition`, one at a time, as stage `group` wrote them.
///
/// # Errors
/// Fails when the bucket file cannot be opened or is of another kind; each bucket, when it
/// cannot be read.
pub fn buckets(
    work: &WorkDir,
    partition: u32,
) -> Result<ArtifactReader<LshBucket>, dbce_artifact::ArtifactError> {
    ArtifactReader::<LshBucket>::open(&buckets_path(work, partition), BUCKETS)
}
/// Groups band rows, sorted by key, into LSH buckets, handing each to `emit`: rows sharing a
/// key form a bucket of their pages, once each. A page is emitted once per bucket it shares with
/// another page; a key with one page is skipped as `alone-in-bucket`, a repeated row as
/// `duplicate-row`.
///
/// # Errors
/// Fails when a row cannot be read or `emit` fails.
pub fn group_sorted(
    rows: impl Iterator<Item = Result<BandRow, StageError>>,
    report: &mut StageReport,
    mut emit: impl FnMut(LshBucket) -> Result<(), StageError>,
) -> Result<(), StageError> {
    let mut bucket: Option<(LshBucket, usize)> = None;
    for row in rows {
        let row = row?;
        match &mut bucket {
            Some((open, rows)) if open.key == row.key => {
                *rows += 1;
                if open.pages.last() != Some(&row.page) {
                    open.pages.push(row.page);
                }
            }
            _ => {
                if let Some((done, rows)) = bucket.take() {
                    close_bucket(done, rows, report, &mut emit)?;
                }
                let open = LshBucket {
                    key: row.key,
                    pages: vec![row.page],
                };
                bucket = Some((open, 1));
            }
        }
    }
    match bucket {
        Some((done, rows)) => close_bucket(done, rows, report, &mut emit),
        None => Ok(()),
    }
}

/// Counts a bucket made of `rows` rows and emits it if it has two pages or more.
fn close_bucket(
    bucket: LshBucket,
    rows: usize,
    report: &mut StageReport,
    emit: &mut impl FnMut(LshBucket) -> Result<(), StageError>,
) -> Result<(), StageError> {
    for _ in bucket.pages.len()..rows {
        report.skip(SkipReason::DuplicateRow);
    }
    if bucket.pages.len() >= 2 {
        bucket.pages.iter().for_each(|_| report.emit());
        emit(bucket)
    } else {
        report.skip(SkipReason::AloneInBucket);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The buckets of `rows` in any order, sorted in memory.
    fn buckets(mut rows: Vec<BandRow>, report: &mut StageReport) -> Vec<LshBucket> {
        rows.sort_unstable();
        let mut out = Vec::new();
        group_sorted(rows.into_iter().map(Ok), report, |bucket| {
            out.push(bucket);
            Ok(())
        })
        .unwrap();
        out
    }

    /// `rows` through the stage's sorter holding at most `limit` rows, and the spill files
    /// (and folder) it left.
    fn sorted_with_limit(rows: &[BandRow], limit: usize) -> (Vec<BandRow>, usize) {
        let dir = tempfile::tempdir().unwrap();
        let work = WorkDir::new(dir.path());
        let spill = work.clone();
        let mut sorter = SpillSorter::new(BAND_ROWS, limit, move |run| {
            spill.spill(STAGE, 3, "rows", run)
        });
        rows.iter().for_each(|&row| sorter.push(row).unwrap());
        let sorted: Vec<BandRow> = {
            let sorted = sorter.sorted().unwrap();
            sorted.iter().unwrap().map(Result::unwrap).collect()
        };
        let spill = work.spill(STAGE, 3, "rows", 0);
        let left = std::fs::read_dir(spill.parent().unwrap()).map_or(0, |d| d.count() + 1);
        (sorted, left)
    }

    #[test]
    fn rows_beyond_the_memory_limit_are_spilled_merged_and_removed() {
        let rows: Vec<BandRow> = (0..50u8)
            .map(|i| row(u64::from(i % 3), u64::from(i.wrapping_mul(37) % 11), i % 17))
            .collect();
        let mut expected = rows.clone();
        expected.sort_unstable();
        for limit in [1, 3, 7, 49, 50, 1000] {
            let (sorted, left) = sorted_with_limit(&rows, limit);
            assert_eq!(sorted, expected, "limit {limit}");
            assert_eq!(left, 0, "limit {limit}: spill files left");
        }
    }

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

        #[test]
        fn spilled_runs_merge_to_the_full_sort(rows in proptest::collection::vec((0u64..3, 0u64..4, 0u8..20), 0..80), limit in 1usize..20) {
            let rows: Vec<BandRow> = rows.into_iter().map(|(s, h, p)| row(s, h, p)).collect();
            let mut expected = rows.clone();
            expected.sort_unstable();
            prop_assert_eq!(sorted_with_limit(&rows, limit).0, expected);
        }
    }
}

//! A partition's pages and LSH buckets sorted by batch once, spilled to disk beyond a bound, so
//! that each pass of stage `annotate` reads only its own batch's ([`PagesByBatch`],
//! [`BucketsByBatch`], taken together by a [`BatchCursor`]): the work stays linear in the
//! partition's size however many passes it takes, and memory bounded by the sorts' limits and
//! one batch.

use std::iter::Peekable;
use std::path::PathBuf;

use dbce_artifact::{ArtifactError, ArtifactKind, Sorted, SortedIter, SpillSorter};
use dbce_page::{FileId, PageId, PageRef, position};
use serde::{Deserialize, Serialize};

use crate::{BatchBuckets, Batches};

/// Runs of [`PagesByBatch::sort`]: page ids with their batches.
const PAGE_BATCHES: ArtifactKind = ArtifactKind {
    tag: *b"PBAT",
    version: 1,
};
/// Runs of [`PagesByBatch::sort`]: pages with their batches.
const BATCH_PAGES: ArtifactKind = ArtifactKind {
    tag: *b"BPAG",
    version: 1,
};
/// Runs of [`BucketsByBatch::sort`]: a page's place in a bucket, by page id, then the same
/// with the page's batch first.
const BUCKET_PLACES: ArtifactKind = ArtifactKind {
    tag: *b"BKTP",
    version: 1,
};

/// Each page's batch, sorted by page id (a page read twice is listed twice, with one batch):
/// what joins a page's other items (words, DOM, bucket places) with its batch.
pub type PageBatches = Sorted<(PageId, u64)>;

/// A page with the batch it goes to; ordered by batch, then as a batch's pages are taken (id,
/// input file, offset).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct BatchPage {
    batch: u64,
    page: PageRef,
}

impl BatchPage {
    fn key(&self) -> (u64, PageId, FileId, u64) {
        (
            self.batch,
            self.page.page,
            self.page.source.file,
            self.page.source.offset,
        )
    }
}

impl PartialEq for BatchPage {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for BatchPage {}

impl PartialOrd for BatchPage {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BatchPage {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

/// A partition's pages sorted by batch, on disk beyond a bound.
pub struct PagesByBatch {
    pages: Sorted<BatchPage>,
}

/// How many items the sorts of [`PagesByBatch`] and [`BucketsByBatch`] hold in memory before
/// they spill a run.
#[derive(Debug, Clone, Copy)]
pub struct SortLimits {
    /// Pages with their signatures (~1 KB each).
    pub pages: usize,
    /// Small items: page ids with their batch (~24 bytes), places in buckets (~40).
    pub places: usize,
}

impl PagesByBatch {
    /// In one pass over `pages` (every page of the partition, in any order): each page's batch
    /// in `batches` sorted by page id, and the pages sorted by batch; pages of a site the plan
    /// did not see are left out. Runs spill to `runs(what, run)`, the path of run `run` of the
    /// sort named `what` (`page-batches`, `batch-pages`).
    ///
    /// # Errors
    /// The first error `pages` gives, or a run that cannot be written.
    pub fn sort<E: From<ArtifactError>>(
        pages: impl IntoIterator<Item = Result<PageRef, E>>,
        batches: &Batches,
        limits: SortLimits,
        runs: impl Fn(&str, usize) -> PathBuf + Clone + Send + 'static,
    ) -> Result<(PageBatches, Self), E> {
        let run_path = |what: &'static str| {
            let runs = runs.clone();
            move |run| runs(what, run)
        };
        let mut by_id = SpillSorter::new(PAGE_BATCHES, limits.places, run_path("page-batches"));
        let mut by_batch = SpillSorter::new(BATCH_PAGES, limits.pages, run_path("batch-pages"));
        for page in pages {
            let page = page?;
            if let Some(batch) = batches.batch_of(&page) {
                let batch = batch as u64;
                by_id.push((page.page, batch))?;
                by_batch.push(BatchPage { batch, page })?;
            }
        }
        Ok((
            by_id.sorted()?,
            Self {
                pages: by_batch.sorted()?,
            },
        ))
    }
}

/// `(batch, bucket, place, page, size)`: a page's place in an LSH bucket (the bucket's number
/// in the partition's bucket order, the page's place in it), with its batch and the bucket's
/// size.
type BucketPlace = (u64, u64, u32, PageId, u32);

/// The LSH buckets of a partition, as each page's place in them, sorted by batch.
pub struct BucketsByBatch {
    places: Sorted<BucketPlace>,
}

impl BucketsByBatch {
    /// Sorts `buckets` (the partition's, in their order, each as its pages' ids) by the batch
    /// of their pages: a merge join of every page's places with `page_batches`. A page without
    /// a batch is left out (it still counts in its bucket's size). Runs spill to `runs(what,
    /// run)` (`bucket-places`, then `batch-buckets`).
    ///
    /// # Errors
    /// The first error `buckets` gives, or a run that cannot be written or read.
    pub fn sort<E: From<ArtifactError>>(
        buckets: impl IntoIterator<Item = Result<Vec<PageId>, E>>,
        page_batches: &PageBatches,
        limit: usize,
        runs: impl Fn(&str, usize) -> PathBuf + Clone + Send + 'static,
    ) -> Result<Self, E> {
        let run_path = |what: &'static str| {
            let runs = runs.clone();
            move |run| runs(what, run)
        };
        let mut by_page = SpillSorter::new(BUCKET_PLACES, limit, run_path("bucket-places"));
        for (bucket, pages) in buckets.into_iter().enumerate() {
            let pages = pages?;
            let size = u32::try_from(pages.len()).unwrap_or(u32::MAX);
            for (place, page) in pages.into_iter().enumerate() {
                let place = u32::try_from(place).unwrap_or(u32::MAX);
                by_page.push((page, bucket as u64, place, size))?;
            }
        }
        let by_page = by_page.sorted()?;
        // Both sides ascend by page id.
        let mut by_batch = SpillSorter::new(BUCKET_PLACES, limit, run_path("batch-buckets"));
        let mut batches = page_batches.iter()?;
        let mut next = batches.next().transpose()?;
        for place in by_page.iter()? {
            let (page, bucket, place, size) = place?;
            while let Some((id, _)) = next
                && id < page
            {
                next = batches.next().transpose()?;
            }
            if let Some((id, batch)) = next
                && id == page
            {
                by_batch.push((batch, bucket, place, page, size))?;
            }
        }
        Ok(Self {
            places: by_batch.sorted()?,
        })
    }
}

/// The pages and buckets of a partition, taken one batch at a time in ascending order.
pub struct BatchCursor<'a> {
    pages: Peekable<SortedIter<'a, BatchPage>>,
    buckets: Peekable<SortedIter<'a, BucketPlace>>,
}

/// One batch's pages and buckets.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    /// Its pages, by id, once each.
    pub pages: Vec<PageRef>,
    /// Records of its pages read more than once, beyond the first (left out of `pages`).
    pub duplicates: usize,
    /// Its buckets, over `pages`.
    pub buckets: BatchBuckets,
}

impl<'a> BatchCursor<'a> {
    /// A cursor at the first batch of `pages` and `buckets`.
    ///
    /// # Errors
    /// Fails when a run cannot be opened.
    pub fn new(
        pages: &'a PagesByBatch,
        buckets: &'a BucketsByBatch,
    ) -> Result<Self, ArtifactError> {
        Ok(Self {
            pages: pages.pages.iter()?.peekable(),
            buckets: buckets.places.iter()?.peekable(),
        })
    }

    /// Batch `batch` of `batches` (at or after the batches taken before; the items of skipped
    /// batches are passed over): its pages, and its buckets as [`crate::plan_crosses`] takes
    /// them, in the partition's bucket order, each bucket's pages in its order.
    ///
    /// # Errors
    /// Fails when an item cannot be read back from a run.
    pub fn take(&mut self, batch: u64, batches: &Batches) -> Result<Batch, ArtifactError> {
        let mut pages: Vec<PageRef> = Vec::new();
        while let Some(next) = self
            .pages
            .next_if(|p| !matches!(p, Ok(p) if p.batch > batch))
        {
            let next = next?;
            if next.batch == batch {
                pages.push(next.page);
            }
        }
        // By id (`position` finds pages by binary search, and they came sorted), one copy of
        // each.
        let before = pages.len();
        pages.dedup_by_key(|p| p.page);
        let duplicates = before - pages.len();
        let mut buckets = BatchBuckets::default();
        let mut open: Option<(u64, u32, Vec<usize>)> = None;
        while let Some(next) = self
            .buckets
            .next_if(|p| !matches!(p, Ok((b, ..)) if *b > batch))
        {
            let (b, bucket, _, page, size) = next?;
            if b < batch {
                continue;
            }
            if open.as_ref().is_some_and(|(open, ..)| *open != bucket) {
                close_bucket(open.take(), &pages, batches, &mut buckets);
            }
            let (_, _, found) = open.get_or_insert_with(|| (bucket, size, Vec::new()));
            found.extend(position(&pages, page));
        }
        close_bucket(open, &pages, batches, &mut buckets);
        Ok(Batch {
            pages,
            duplicates,
            buckets,
        })
    }
}

/// Adds a bucket of `size` pages, of which `found` (indices into `pages`) are in the batch, to
/// `kept`: as members if two or more are, and its split sites' pages as cut if some are not.
fn close_bucket(
    bucket: Option<(u64, u32, Vec<usize>)>,
    pages: &[PageRef],
    batches: &Batches,
    kept: &mut BatchBuckets,
) {
    let Some((_, size, found)) = bucket else {
        return;
    };
    if found.len() < size as usize {
        // Buckets are per site: the others are pages of other parts of a split site.
        let split = found
            .iter()
            .filter(|&&i| batches.is_split(&pages[i].site.0));
        kept.cut.extend(split.map(|&i| pages[i].page));
    }
    if found.len() >= 2 {
        kept.members.push(found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_pages::{page_ref, plan};
    use proptest::prelude::*;

    const SITES: [&str; 3] = ["a.org", "b.org", "c.org"];

    /// Pages (site, path) read in `order`, the ones listed in `twice` read a second time; the
    /// buckets, each a site's pages by `picks` (ids 0.. of the pages of that site, one past
    /// them an id read from no page).
    fn partition(
        pages: &[(usize, u8)],
        twice: &[usize],
        buckets: &[(usize, Vec<usize>)],
    ) -> (Vec<PageRef>, Vec<Vec<PageId>>) {
        let mut refs: Vec<PageRef> = pages
            .iter()
            .enumerate()
            .map(|(n, &(site, path))| page_ref(n as u8, SITES[site], &format!("/p{path}"), 10))
            .collect();
        for &n in twice {
            if let Some(page) = refs.get(n % refs.len().max(1)).cloned() {
                let mut again = page;
                again.source.offset += 1_000;
                refs.push(again);
            }
        }
        let lists = buckets
            .iter()
            .map(|(site, picks)| {
                let of_site: Vec<PageId> = pages
                    .iter()
                    .enumerate()
                    .filter(|(_, (s, _))| s == site)
                    .map(|(n, _)| PageId([n as u8; 16]))
                    .chain([PageId([200; 16])])
                    .collect();
                let mut ids: Vec<PageId> =
                    picks.iter().map(|&p| of_site[p % of_site.len()]).collect();
                ids.sort();
                ids.dedup();
                ids
            })
            .collect();
        (refs, lists)
    }

    /// Batch `batch` worked out from everything in memory.
    fn expected(
        pages: &[PageRef],
        buckets: &[Vec<PageId>],
        batches: &Batches,
        batch: usize,
    ) -> Batch {
        let mut of_batch: Vec<PageRef> = pages
            .iter()
            .filter(|p| batches.batch_of(p) == Some(batch))
            .cloned()
            .collect();
        of_batch.sort_by_key(|p| (p.page, p.source.offset));
        let before = of_batch.len();
        of_batch.dedup_by_key(|p| p.page);
        let mut kept = BatchBuckets::default();
        for bucket in buckets {
            let found: Vec<usize> = bucket
                .iter()
                .filter_map(|&id| position(&of_batch, id))
                .collect();
            if found.is_empty() {
                continue;
            }
            let size = u32::try_from(bucket.len()).unwrap();
            close_bucket(Some((0, size, found)), &of_batch, batches, &mut kept);
        }
        Batch {
            duplicates: before - of_batch.len(),
            pages: of_batch,
            buckets: kept,
        }
    }

    proptest! {
        // Each case spills up to a hundred small runs.
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn each_batch_gets_its_pages_and_buckets_whatever_the_spilling(
            pages in proptest::collection::vec((0_usize..3, 0_u8..6), 1..40),
            twice in proptest::collection::vec(0_usize..40, 0..4),
            buckets in proptest::collection::vec(
                (0_usize..3, proptest::collection::vec(0_usize..20, 1..8)), 0..12),
            max_pages in 1_u64..15,
            limits in (1_usize..6, 1_usize..6),
            every_other in any::<bool>(),
        ) {
            let (pages, buckets) = partition(&pages, &twice, &buckets);
            let batches = plan(&pages, max_pages);
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().to_owned();
            let runs = move |what: &str, run: usize| dir.join(format!("{what}-{run}.bin"));
            let limits = SortLimits { pages: limits.0, places: limits.1 };
            let (by_id, by_batch) = PagesByBatch::sort(
                pages.iter().cloned().map(Ok::<_, ArtifactError>),
                &batches,
                limits,
                runs.clone(),
            ).unwrap();
            let sorted = BucketsByBatch::sort(
                buckets.iter().cloned().map(Ok::<_, ArtifactError>),
                &by_id,
                limits.places,
                runs,
            ).unwrap();
            let mut cursor = BatchCursor::new(&by_batch, &sorted).unwrap();
            let step = if every_other { 2 } else { 1 };
            for batch in (0..batches.count()).step_by(step) {
                let got = cursor.take(batch as u64, &batches).unwrap();
                let want = expected(&pages, &buckets, &batches, batch);
                let ids = |b: &Batch| b.pages.iter().map(|p| p.page).collect::<Vec<_>>();
                prop_assert_eq!(ids(&got), ids(&want));
                prop_assert_eq!(got.duplicates, want.duplicates);
                prop_assert_eq!(&got.buckets, &want.buckets);
            }
        }
    }

    #[test]
    fn a_split_site_s_pages_that_share_a_bucket_across_parts_are_cut() {
        // Four pages of one site, two URLs, bound 2: two parts; one bucket across them.
        let pages: Vec<PageRef> = (0..4)
            .map(|n| page_ref(n, "a.org", &format!("/u{}", n / 2), 10))
            .collect();
        let batches = plan(&pages, 2);
        assert_eq!(batches.count(), 2);
        let bucket = vec![vec![PageId([0; 16]), PageId([1; 16]), PageId([2; 16])]];
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_owned();
        let runs = move |what: &str, run: usize| dir.join(format!("{what}-{run}.bin"));
        let limits = SortLimits {
            pages: 100,
            places: 100,
        };
        let (by_id, by_batch) = PagesByBatch::sort(
            pages.into_iter().map(Ok::<_, ArtifactError>),
            &batches,
            limits,
            runs.clone(),
        )
        .unwrap();
        let sorted = BucketsByBatch::sort(
            bucket.into_iter().map(Ok::<_, ArtifactError>),
            &by_id,
            100,
            runs,
        )
        .unwrap();
        let mut cursor = BatchCursor::new(&by_batch, &sorted).unwrap();
        let first = cursor.take(0, &batches).unwrap();
        assert_eq!(first.buckets.members, vec![vec![0, 1]]);
        assert_eq!(first.buckets.cut.len(), 2);
        let second = cursor.take(1, &batches).unwrap();
        assert!(
            second.buckets.members.is_empty(),
            "one page of the bucket: no members"
        );
        assert_eq!(second.buckets.cut, [PageId([2; 16])].into_iter().collect());
    }
}

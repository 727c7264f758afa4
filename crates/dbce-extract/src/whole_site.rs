//! What a site's split costs its crosses, measured on a sample: for a few pages of the sites
//! split into parts ([`Batches`]), the partner (`up`) they would take if their site were
//! annotated whole, so that the stage can count the pages whose partner in their part is less
//! similar than that one (`site-split:best-partner-lost` in the report).
//!
//! Doing this for every page would need, for each, the signatures of its candidates in other
//! parts (up to `annotate.max-candidates` per bucket): a join that writes about a kilobyte per
//! candidate. A sample of [`SAMPLED_PER_PARTITION`] pages needs three passes over the
//! partition's files (pages twice, buckets once) and holds only the sample's candidates: at
//! most `max-candidates` per bucket of each sampled page, whatever the number or size of the
//! split sites.

use std::collections::{BTreeMap, BTreeSet};

use dbce_annotate::{CrossCandidate, UrlKey, select_cross};
use dbce_page::{PageId, PageRef};

use crate::Batches;
use crate::plan::{bucket_neighbours, cross_candidate};

/// How many pages of a partition's split sites have their whole-site partner found: the pages
/// with the smallest ids, which are digests, so an unbiased sample of the split sites' pages
/// whatever the order of the files.
pub const SAMPLED_PER_PARTITION: usize = 256;

/// For a sample of the split sites' pages, the partner each would take with its site whole.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WholeSitePartners {
    /// Per sampled page, its `up` partner's similarity with the site whole; `None` when it
    /// would have no partner of another URL either.
    best: BTreeMap<PageId, Option<f32>>,
}

/// What the whole site would have given a sampled page, against what its part gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartnerLoss {
    /// Its partner in its part is as similar as the best with the site whole (often the same
    /// page), or neither has one.
    Kept,
    /// Its partner in its part is less similar than the one the whole site offered, or it has
    /// none in its part.
    Lost,
}

impl WholeSitePartners {
    /// Finds the whole-site partners of up to `sampled` pages of the split sites of `batches`
    /// (the smallest ids among their pages; kept only if this task takes their batch), as
    /// [`crate::plan_crosses`] would choose them with `max_candidates` and `min_similarity`
    /// if the site were one batch. `pages()` lists the partition's pages, in any order (called
    /// twice); `buckets` its LSH buckets, each as its pages sorted by id.
    ///
    /// # Errors
    /// The first error `pages` or `buckets` gives.
    pub fn find<E, P>(
        pages: impl Fn() -> P,
        buckets: impl IntoIterator<Item = Result<Vec<PageId>, E>>,
        batches: &Batches,
        sampled: usize,
        max_candidates: usize,
        min_similarity: f64,
    ) -> Result<Self, E>
    where
        P: IntoIterator<Item = Result<PageRef, E>>,
    {
        // The sample: the `sampled` smallest page ids of the split sites.
        let mut sample: BTreeMap<PageId, PageRef> = BTreeMap::new();
        for page in pages() {
            let page = page?;
            if !batches.is_split(&page.site.0) {
                continue;
            }
            if sample.len() < sampled
                || sample.last_key_value().is_some_and(|(&l, _)| page.page < l)
            {
                sample.entry(page.page).or_insert(page);
                if sample.len() > sampled {
                    sample.pop_last();
                }
            }
        }
        let sampled: BTreeMap<PageId, (PageRef, UrlKey)> = sample
            .into_iter()
            .filter(|(_, page)| batches.batch_of(page).is_some())
            .map(|(id, page)| {
                let url = UrlKey::of(&page.url);
                (id, (page, url))
            })
            .collect();
        if sampled.is_empty() {
            return Ok(Self::default());
        }
        // Each sampled page's candidates from its buckets, taken whole.
        let mut wanted: BTreeMap<PageId, BTreeSet<PageId>> = BTreeMap::new();
        for bucket in buckets {
            let bucket = bucket?;
            for (place, id) in bucket.iter().enumerate() {
                if sampled.contains_key(id) {
                    for near in bucket_neighbours(bucket.len(), place, max_candidates) {
                        wanted.entry(bucket[near]).or_default().insert(*id);
                    }
                }
            }
        }
        // The sampled pages by site and URL key: their URLs' other captures are candidates too.
        let mut by_url: BTreeMap<(&str, &UrlKey), Vec<PageId>> = BTreeMap::new();
        for (id, (page, url)) in &sampled {
            by_url.entry((&page.site.0, url)).or_default().push(*id);
        }
        let mut candidates: BTreeMap<PageId, BTreeMap<PageId, CrossCandidate<PageId>>> =
            BTreeMap::new();
        for page in pages() {
            let page = page?;
            if !batches.is_split(&page.site.0) {
                continue;
            }
            let url = UrlKey::of(&page.url);
            let of_bucket = wanted.get(&page.page).into_iter().flatten();
            let of_url = by_url
                .get(&(page.site.0.as_str(), &url))
                .into_iter()
                .flatten()
                .filter(|&&id| id != page.page);
            for &id in of_bucket.chain(of_url) {
                let (of, _) = &sampled[&id];
                candidates.entry(id).or_default().insert(
                    page.page,
                    cross_candidate(page.page, &page, url.clone(), &of.signature),
                );
            }
        }
        let best = sampled
            .iter()
            .map(|(&id, (page, url))| {
                let list: Vec<CrossCandidate<PageId>> = candidates
                    .remove(&id)
                    .unwrap_or_default()
                    .into_values()
                    .filter(|c| c.similarity >= min_similarity || c.url == *url)
                    .collect();
                let cur = cross_candidate(id, page, url.clone(), &page.signature);
                let up = select_cross(&cur, &list).and_then(|cross| {
                    list.iter()
                        .find(|c| c.page == cross.up)
                        .map(|c| c.similarity as f32)
                });
                (id, up)
            })
            .collect();
        Ok(Self { best })
    }

    /// How many pages were sampled (in this task's batches).
    pub fn len(&self) -> usize {
        self.best.len()
    }

    /// Whether no page was sampled.
    pub fn is_empty(&self) -> bool {
        self.best.is_empty()
    }

    /// For a sampled page whose `up` partner in its part has similarity `in_part` (`None`
    /// without a partner), whether the split cost it its best partner; `None` for a page not
    /// sampled.
    pub fn loss(&self, page: PageId, in_part: Option<f32>) -> Option<PartnerLoss> {
        let whole = (*self.best.get(&page)?).unwrap_or(f32::NEG_INFINITY);
        Some(if in_part.unwrap_or(f32::NEG_INFINITY) < whole {
            PartnerLoss::Lost
        } else {
            PartnerLoss::Kept
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan_crosses;
    use crate::test_pages::{page_ref, plan};
    use proptest::prelude::*;
    use std::convert::Infallible;

    fn find(
        pages: &[PageRef],
        buckets: &[Vec<usize>],
        batches: &Batches,
        sampled: usize,
        max: usize,
    ) -> WholeSitePartners {
        let listed = || pages.iter().cloned().map(Ok::<_, Infallible>);
        let buckets = buckets
            .iter()
            .map(|b| Ok(b.iter().map(|&i| pages[i].page).collect()));
        WholeSitePartners::find(listed, buckets, batches, sampled, max, 0.1).unwrap()
    }

    #[test]
    fn a_page_whose_best_partner_went_to_the_other_part_lost_it() {
        // Pages 1 and 2 are nearly alike, page 3 less so; the cut falls between /b and /c.
        let pages = [
            page_ref(1, "e.com", "/b", 9),
            page_ref(2, "e.com", "/c", 9),
            page_ref(3, "e.com", "/a", 4),
        ];
        let batches = plan(&pages, 2);
        assert!(batches.is_split("e.com"));
        let whole = find(&pages, &[vec![0, 1, 2]], &batches, 10, 64);
        assert_eq!(whole.len(), 3);
        // Page 1's part holds /a and /b: its partner there is page 3 (similarity 0.4, against
        // page 2's 0.9).
        assert_eq!(
            whole.loss(pages[0].page, Some(0.4)),
            Some(PartnerLoss::Lost)
        );
        assert_eq!(
            whole.loss(pages[0].page, Some(0.9)),
            Some(PartnerLoss::Kept)
        );
        // Page 2 is alone in its part: anything whole is a loss.
        assert_eq!(whole.loss(pages[1].page, None), Some(PartnerLoss::Lost));
    }

    #[test]
    fn only_the_smallest_ids_of_split_sites_are_sampled() {
        let pages: Vec<PageRef> = (1..=6)
            .map(|n| page_ref(n, "e.com", &format!("/{n}"), 5))
            .chain([page_ref(7, "f.org", "/", 5)])
            .collect();
        let batches = plan(&pages, 5);
        let whole = find(&pages, &[(0..6).collect()], &batches, 2, 64);
        let mut ids: Vec<PageId> = pages[..6].iter().map(|p| p.page).collect();
        ids.sort();
        let sampled: Vec<bool> = pages
            .iter()
            .map(|p| whole.loss(p.page, None).is_some())
            .collect();
        let expected: Vec<bool> = pages.iter().map(|p| ids[..2].contains(&p.page)).collect();
        assert_eq!(sampled, expected);
        assert_eq!(whole.len(), 2);
        // The sample is the partition's, across its split sites: here e.com's first three
        // pages and f.org's first.
        let two: Vec<PageRef> = (1..=6)
            .map(|n| {
                page_ref(
                    n,
                    if n <= 3 { "e.com" } else { "f.org" },
                    &format!("/{n}"),
                    5,
                )
            })
            .collect();
        let batches = plan(&two, 2);
        let whole = find(&two, &[vec![0, 1, 2], vec![3, 4, 5]], &batches, 4, 64);
        let sampled: Vec<bool> = two
            .iter()
            .map(|p| whole.loss(p.page, None).is_some())
            .collect();
        assert_eq!(sampled, [true, true, true, true, false, false]);
        // A page not sampled has no verdict, a sampled one with no partner whole keeps none.
        let alone = find(&pages, &[], &batches, 2, 64);
        assert_eq!(alone.loss(pages[0].page, None), Some(PartnerLoss::Kept));
    }

    proptest! {
        /// With the site in one part, the whole-site partner is the one `plan_crosses` takes,
        /// in buckets small and huge (`max_candidates` below their size).
        #[test]
        fn the_whole_site_partner_is_the_planned_one(
            shared in proptest::collection::vec(0_u32..10, 3..24),
            paths in proptest::collection::vec(0_u8..6, 3..24),
            buckets in proptest::collection::vec(proptest::collection::btree_set(0_usize..24, 2..12), 1..6),
            max in 1_usize..6,
        ) {
            let n = shared.len().min(paths.len());
            let pages: Vec<PageRef> = (0..n)
                .map(|i| page_ref(i as u8 + 1, "e.com", &format!("/{}", paths[i]), shared[i]))
                .collect();
            let buckets: Vec<Vec<usize>> = buckets
                .into_iter()
                .map(|b| b.into_iter().filter(|&i| i < n).collect::<Vec<_>>())
                .filter(|b| b.len() >= 2)
                .collect();
            // One page fewer than the site per part would split it; a bound of the site's size
            // keeps it whole, so to compare, mark it split with a bound it fits in anyway.
            let whole = find(&pages, &buckets, &plan(&pages, n as u64 - 1), n, max);
            let planned = plan_crosses(&pages, &buckets, max, 0.1);
            prop_assert_eq!(whole.len(), n);
            for (i, page) in pages.iter().enumerate() {
                let up = planned[i].as_ref().map(|p| p.similarity[&p.cross.up]);
                prop_assert_eq!(whole.loss(page.page, up), Some(PartnerLoss::Kept));
                if let Some(up) = up {
                    prop_assert_eq!(whole.loss(page.page, Some(up - 1e-3)), Some(PartnerLoss::Lost));
                }
            }
        }
    }
}

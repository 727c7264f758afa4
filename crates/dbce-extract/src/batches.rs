//! Which pages are annotated together: stage `annotate` in passes of bounded size. A partition
//! holds whole sites, so its size follows its largest site; instead of all of a partition's
//! pages, a pass holds one *batch*: consecutive sites (in name order) of at most
//! `annotate.max-site-pages` pages together. A site above that bound is split into parts of
//! about equal size, each of consecutive URL keys (captures of one URL, and the pages of one
//! path, stay together), and each part is annotated as if it were a site of its own: its pages
//! take partners only from their part.
//!
//! Sites under the bound go through exactly as in one pass, in the same order, so a partition
//! without a large site gives the same output whatever the bound.

use std::collections::{BTreeMap, BTreeSet};

use dbce_annotate::UrlKey;

use dbce_page::{PageId, PageRef, position};

/// Which batch each page of a partition goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batches {
    /// Per site, by name: where its pages go.
    sites: BTreeMap<String, SitePlace>,
    /// How many batches there are.
    count: usize,
}

/// Where a site's pages go.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SitePlace {
    /// All to one batch.
    Whole(usize),
    /// A site above the bound: each page's part (by page id), and each part's batch.
    Split {
        part_of: Vec<(PageId, usize)>,
        batches: Vec<usize>,
    },
}

impl Batches {
    /// Plans the batches of a partition whose sites have `pages_per_site` pages (records read,
    /// duplicates included), at most `max_pages` a batch. `split_site(site)` lists the URL key
    /// and id of every page of a site above the bound; it is only called for those.
    ///
    /// # Errors
    /// What `split_site` returns.
    pub fn plan<E>(
        pages_per_site: &BTreeMap<String, u64>,
        max_pages: u64,
        mut split_site: impl FnMut(&str) -> Result<Vec<(UrlKey, PageId)>, E>,
    ) -> Result<Self, E> {
        let max_pages = max_pages.max(1);
        let (mut count, mut filled) = (0_usize, 0_u64);
        // The batch of a unit of `size` pages: the open one while it has room, else a new one.
        let mut place = |size: u64| {
            if count == 0 || (filled > 0 && filled + size > max_pages) {
                count += 1;
                filled = 0;
            }
            filled += size;
            count - 1
        };
        let mut sites = BTreeMap::new();
        for (site, &size) in pages_per_site {
            let site_place = if size <= max_pages {
                SitePlace::Whole(place(size))
            } else {
                let (part_of, sizes) = split(split_site(site)?, max_pages);
                let batches = sizes.into_iter().map(&mut place).collect();
                SitePlace::Split { part_of, batches }
            };
            sites.insert(site.clone(), site_place);
        }
        Ok(Self { sites, count })
    }

    /// How many batches there are (none for a partition without pages).
    pub fn count(&self) -> usize {
        self.count
    }

    /// The batch of `page`; `None` for a page of a site the plan did not see.
    pub fn batch_of(&self, page: &PageRef) -> Option<usize> {
        match self.sites.get(&page.site.0)? {
            SitePlace::Whole(batch) => Some(*batch),
            SitePlace::Split { part_of, batches } => {
                let at = part_of
                    .binary_search_by_key(&page.page, |&(id, _)| id)
                    .ok()?;
                batches.get(part_of[at].1).copied()
            }
        }
    }

    /// Whether `site` was split into parts.
    pub fn is_split(&self, site: &str) -> bool {
        matches!(self.sites.get(site), Some(SitePlace::Split { .. }))
    }
}

/// A batch's LSH buckets, and its pages that lost a bucket partner to another part of a
/// split site.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchBuckets {
    /// The buckets with at least two of the batch's pages, each as the indices of those pages
    /// (into the batch's pages) in the bucket's order: what [`crate::plan_crosses`] takes.
    pub members: Vec<Vec<usize>>,
    /// Pages of the batch that share a bucket with a page of another part of their site.
    pub cut: BTreeSet<PageId>,
}

impl Batches {
    /// The buckets of one batch's `pages` (sorted by id) among a partition's `buckets` (each
    /// as its pages' ids), streamed.
    ///
    /// # Errors
    /// The first error `buckets` gives.
    pub fn buckets_of<E>(
        &self,
        pages: &[PageRef],
        buckets: impl IntoIterator<Item = Result<Vec<PageId>, E>>,
    ) -> Result<BatchBuckets, E> {
        let mut kept = BatchBuckets::default();
        for bucket in buckets {
            let bucket = bucket?;
            let found: Vec<usize> = bucket
                .iter()
                .filter_map(|&id| position(pages, id))
                .collect();
            if found.is_empty() {
                continue;
            }
            if found.len() < bucket.len() {
                // Buckets are per site: the others are pages of other parts of a split site.
                let split = found.iter().filter(|&&i| self.is_split(&pages[i].site.0));
                kept.cut.extend(split.map(|&i| pages[i].page));
            }
            if found.len() >= 2 {
                kept.members.push(found);
            }
        }
        Ok(kept)
    }
}

/// Splits a site's pages (URL key and id; a page read twice is listed twice) into parts of
/// consecutive URL keys, as many as the bound needs and of about equal size. A part ends
/// only between two URL keys, unless one URL alone has more captures than the bound. Returns
/// each page's part, by page id, and the parts' sizes.
fn split(mut pages: Vec<(UrlKey, PageId)>, max_pages: u64) -> (Vec<(PageId, usize)>, Vec<u64>) {
    pages.sort_unstable();
    pages.dedup_by(|a, b| a.1 == b.1);
    let total = pages.len() as u64;
    let parts = total.div_ceil(max_pages).max(1);
    let target = total.div_ceil(parts);
    let mut part_of = Vec::with_capacity(pages.len());
    let mut sizes = vec![0_u64];
    for (i, (url, id)) in pages.iter().enumerate() {
        let size = *sizes.last().unwrap_or(&0);
        let new_url = i > 0 && pages[i - 1].0 != *url;
        if size >= max_pages || (size >= target && new_url) {
            sizes.push(0);
        }
        if let Some(last) = sizes.last_mut() {
            *last += 1;
        }
        part_of.push((*id, sizes.len() - 1));
    }
    part_of.sort_unstable();
    (part_of, sizes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn id(n: u32) -> PageId {
        let mut bytes = [0; 16];
        bytes[..4].copy_from_slice(&n.to_be_bytes());
        PageId(bytes)
    }

    /// Whether `a` and `b`, pages of the split site `site`, are in the same part of it.
    fn same_part(plan: &Batches, site: &str, a: PageId, b: PageId) -> bool {
        let SitePlace::Split { part_of, .. } = &plan.sites[site] else {
            panic!("{site} is not split");
        };
        let part = |id: PageId| {
            let at = part_of
                .binary_search_by_key(&id, |&(page, _)| page)
                .unwrap();
            part_of[at].1
        };
        part(a) == part(b)
    }

    fn sites(sizes: &[(&str, u64)]) -> BTreeMap<String, u64> {
        sizes.iter().map(|&(s, n)| (s.to_owned(), n)).collect()
    }

    #[test]
    fn sites_under_the_bound_fill_batches_in_name_order() {
        let plan = Batches::plan(&sites(&[("a", 3), ("b", 4), ("c", 2), ("d", 6)]), 7, |_| {
            Err::<Vec<_>, ()>(())
        })
        .unwrap();
        assert_eq!(plan.count(), 3);
        let batch = |site: &str| match plan.sites[site] {
            SitePlace::Whole(b) => b,
            SitePlace::Split { .. } => panic!("{site} split"),
        };
        assert_eq!(
            [batch("a"), batch("b"), batch("c"), batch("d")],
            [0, 0, 1, 2]
        );
    }

    #[test]
    fn one_batch_when_everything_fits() {
        let plan = Batches::plan(&sites(&[("a", 3), ("b", 4)]), 1_000, |_| {
            Err::<Vec<_>, ()>(())
        })
        .unwrap();
        assert_eq!(plan.count(), 1);
        assert!(!plan.is_split("a"));
    }

    #[test]
    fn a_large_site_is_split_by_url_and_captures_stay_together() {
        // 10 pages: URL u0..u4, two captures each; bound 4: three parts.
        let pages: Vec<(UrlKey, PageId)> = (0..10)
            .map(|n| (UrlKey::of(&format!("http://x.org/u{}", n / 2)), id(n)))
            .collect();
        let plan = Batches::plan(&sites(&[("x.org", 10), ("y.org", 1)]), 4, |_| {
            Ok::<_, ()>(pages.clone())
        })
        .unwrap();
        assert!(plan.is_split("x.org"));
        for n in (0..10).step_by(2) {
            assert!(same_part(&plan, "x.org", id(n), id(n + 1)), "u{}", n / 2);
        }
        assert!(!same_part(&plan, "x.org", id(0), id(9)));
        let SitePlace::Split { batches, .. } = &plan.sites["x.org"] else {
            panic!("not split");
        };
        assert_eq!(batches.len(), 3);
        // y.org's one page joins the last part's batch.
        assert_eq!(plan.count(), 3);
    }

    proptest! {
        #[test]
        fn parts_respect_the_bound_and_cover_every_page(
            urls in proptest::collection::vec(0_u32..40, 1..300),
            max in 1_u64..60,
        ) {
            let pages: Vec<(UrlKey, PageId)> = urls
                .iter()
                .enumerate()
                .map(|(n, u)| (UrlKey::of(&format!("http://x.org/{u}")), id(n as u32)))
                .collect();
            let (part_of, sizes) = split(pages.clone(), max);
            prop_assert_eq!(part_of.len(), pages.len());
            prop_assert_eq!(sizes.iter().sum::<u64>(), pages.len() as u64);
            prop_assert!(sizes.iter().all(|&s| s >= 1 && s <= max));
            // Parts are as few as the bound allows, give or take one per URL boundary.
            let least = (pages.len() as u64).div_ceil(max);
            prop_assert!(sizes.len() as u64 >= least);
            prop_assert!(sizes.len() as u64 <= 2 * least);
            // Every part is a run of consecutive URL keys.
            let mut by_url: BTreeMap<&UrlKey, Vec<usize>> = BTreeMap::new();
            for (url, page) in &pages {
                let at = part_of.binary_search_by_key(page, |&(p, _)| p).unwrap();
                by_url.entry(url).or_default().push(part_of[at].1);
            }
            let mut last = 0;
            for parts in by_url.values() {
                let (lo, hi) = (*parts.iter().min().unwrap(), *parts.iter().max().unwrap());
                prop_assert!(lo >= last);
                last = hi;
            }
        }
    }
}

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
//!
//! Several tasks may share a partition (`annotate.tasks-per-partition`): each plans the same
//! batches from the same files and takes its [`Batches::share`] of them. A batch is annotated
//! alone, whichever task takes it, so the pages come out the same however they are shared.

use std::collections::{BTreeMap, BTreeSet};

use dbce_annotate::UrlKey;

use dbce_page::{PageId, PageRef};

/// Which batch each page of a partition goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batches {
    /// Per site, by name: where its pages go.
    sites: BTreeMap<String, SitePlace>,
    /// Each batch's pages (records read, duplicates included).
    sizes: Vec<u64>,
    /// Whether this plan's task takes each batch (all of them until [`Batches::share`]).
    taken: Vec<bool>,
}

/// Where a site's pages go.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SitePlace {
    /// All to one batch.
    Whole(usize),
    /// A site above the bound: where each part after the first starts (the URL key and id of
    /// its first page, in the order of [`PartCutter`]), and each part's batch.
    Split {
        starts: Vec<(UrlKey, PageId)>,
        batches: Vec<usize>,
    },
}

impl Batches {
    /// Plans the batches of a partition whose sites have `pages_per_site` pages (records read,
    /// duplicates included), at most `max_pages` a batch. `large_pages()` lists the site, URL
    /// key and id of every page of the sites above the bound, sorted (a page read twice is
    /// listed twice); it is called twice, and only if there is such a site, so the pages of a
    /// large site need not be held: only where each of its parts starts is.
    ///
    /// # Errors
    /// What `large_pages` returns.
    pub fn plan<E, I>(
        pages_per_site: &BTreeMap<String, u64>,
        max_pages: u64,
        large_pages: impl Fn() -> Result<I, E>,
    ) -> Result<Self, E>
    where
        I: Iterator<Item = Result<(String, UrlKey, PageId), E>>,
    {
        let max_pages = max_pages.max(1);
        let splits = if pages_per_site.values().any(|&n| n > max_pages) {
            split_sites(max_pages, &large_pages)?
        } else {
            BTreeMap::new()
        };
        let mut sizes: Vec<u64> = Vec::new();
        // The batch of a unit of `size` pages: the open one while it has room, else a new one.
        let mut place = |size: u64| {
            match sizes.last_mut() {
                Some(filled) if *filled == 0 || *filled + size <= max_pages => *filled += size,
                _ => sizes.push(size),
            }
            sizes.len() - 1
        };
        let mut sites = BTreeMap::new();
        for (site, &size) in pages_per_site {
            let site_place = match splits.get(site) {
                Some(parts) if size > max_pages => SitePlace::Split {
                    starts: parts.starts.clone(),
                    batches: parts.sizes.iter().map(|&n| place(n)).collect(),
                },
                _ => SitePlace::Whole(place(size)),
            };
            sites.insert(site.clone(), site_place);
        }
        let taken = vec![true; sizes.len()];
        Ok(Self {
            sites,
            sizes,
            taken,
        })
    }

    /// How many batches there are (none for a partition without pages).
    pub fn count(&self) -> usize {
        self.sizes.len()
    }

    /// The batches this plan's task takes, ascending: all of them, or its [`Batches::share`].
    pub fn taken(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.count()).filter(|&batch| self.taken[batch])
    }

    /// The batch of `page`; `None` for a page of a site the plan did not see, or of a batch
    /// another task takes.
    pub fn batch_of(&self, page: &PageRef) -> Option<usize> {
        let batch = match self.sites.get(&page.site.0)? {
            SitePlace::Whole(batch) => *batch,
            SitePlace::Split { starts, batches } => {
                let key = (UrlKey::of(&page.url), page.page);
                *batches.get(starts.partition_point(|start| *start <= key))?
            }
        };
        self.taken[batch].then_some(batch)
    }

    /// The task of each batch when `tasks` tasks share the partition, balanced by pages: the
    /// batches in plan order, each to the task with the fewest pages so far, the lower task on
    /// a tie. No two tasks then differ by more than the largest batch's pages (at most
    /// `annotate.max-site-pages`), and the deal depends only on the plan.
    pub fn tasks(&self, tasks: u32) -> Vec<u32> {
        let mut load = vec![0_u64; tasks.max(1) as usize];
        self.sizes
            .iter()
            .map(|&size| {
                let (task, _) = load
                    .iter()
                    .enumerate()
                    .min_by_key(|&(task, &pages)| (pages, task))
                    .unwrap_or((0, &0));
                load[task] += size;
                u32::try_from(task).unwrap_or(u32::MAX)
            })
            .collect()
    }

    /// This plan with only the batches task `task` of `tasks` takes ([`Batches::tasks`]):
    /// [`Batches::batch_of`] places no page in the others, and [`Batches::taken`] lists its
    /// own. A task may take none.
    #[must_use]
    pub fn share(mut self, task: u32, tasks: u32) -> Self {
        self.taken = self.tasks(tasks).into_iter().map(|t| t == task).collect();
        self
    }

    /// Whether `site` was split into parts.
    pub fn is_split(&self, site: &str) -> bool {
        matches!(self.sites.get(site), Some(SitePlace::Split { .. }))
    }

    /// Whether any site was split into parts.
    pub fn any_split(&self) -> bool {
        self.sites
            .values()
            .any(|place| matches!(place, SitePlace::Split { .. }))
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

/// The parts of each site of `large_pages()` (see [`Batches::plan`]): one pass counts each
/// site's pages, a second cuts them into parts.
fn split_sites<E, I>(
    max_pages: u64,
    large_pages: &impl Fn() -> Result<I, E>,
) -> Result<BTreeMap<String, PartCutter>, E>
where
    I: Iterator<Item = Result<(String, UrlKey, PageId), E>>,
{
    // Pages once each: a page read twice is listed twice, next to itself.
    let distinct = |pages: I| {
        let mut last: Option<(String, PageId)> = None;
        pages.filter(move |page| match page {
            Ok((site, _, id)) => {
                let repeat = last.as_ref().is_some_and(|(s, i)| s == site && i == id);
                last = Some((site.clone(), *id));
                !repeat
            }
            Err(_) => true,
        })
    };
    let mut totals: BTreeMap<String, u64> = BTreeMap::new();
    for page in distinct(large_pages()?) {
        *totals.entry(page?.0).or_default() += 1;
    }
    let mut cutters: BTreeMap<String, PartCutter> = BTreeMap::new();
    for page in distinct(large_pages()?) {
        let (site, url, id) = page?;
        let total = totals.get(&site).copied().unwrap_or(1);
        cutters
            .entry(site)
            .or_insert_with(|| PartCutter::new(total, max_pages))
            .push(url, id);
    }
    Ok(cutters)
}

/// Cuts a site's pages, taken once each in (URL key, id) order, into parts of consecutive URL
/// keys, as many as the bound needs and of about equal size. A part ends only between two URL
/// keys, unless one URL alone has more captures than the bound.
#[derive(Debug, Clone)]
struct PartCutter {
    max_pages: u64,
    /// The size a part aims at: the site's pages over the fewest parts the bound allows.
    target: u64,
    /// The URL key of the last page taken.
    last: Option<UrlKey>,
    /// Where each part after the first starts.
    starts: Vec<(UrlKey, PageId)>,
    /// Each part's pages.
    sizes: Vec<u64>,
}

impl PartCutter {
    /// A cutter for a site of `total` pages, at most `max_pages` a part.
    fn new(total: u64, max_pages: u64) -> Self {
        let parts = total.div_ceil(max_pages).max(1);
        Self {
            max_pages,
            target: total.div_ceil(parts),
            last: None,
            starts: Vec::new(),
            sizes: vec![0],
        }
    }

    /// Takes the next page.
    fn push(&mut self, url: UrlKey, id: PageId) {
        let size = *self.sizes.last().unwrap_or(&0);
        let new_url = self.last.as_ref().is_some_and(|last| *last != url);
        if size >= self.max_pages || (size >= self.target && new_url) {
            self.sizes.push(0);
            self.starts.push((url.clone(), id));
        }
        if let Some(last) = self.sizes.last_mut() {
            *last += 1;
        }
        self.last = Some(url);
    }
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

    /// Whether `a` and `b` (URL key and id), pages of the split site `site`, are in the same
    /// part of it.
    fn same_part(plan: &Batches, site: &str, a: &(UrlKey, PageId), b: &(UrlKey, PageId)) -> bool {
        let SitePlace::Split { starts, .. } = &plan.sites[site] else {
            panic!("{site} is not split");
        };
        let part = |key: &(UrlKey, PageId)| starts.partition_point(|start| start <= key);
        part(a) == part(b)
    }

    /// What `large_pages` lists in these tests.
    type Listed = std::vec::IntoIter<Result<(String, UrlKey, PageId), ()>>;

    /// No site above the bound: `large_pages` is never called.
    fn no_large_pages() -> Result<Listed, ()> {
        Err(())
    }

    /// `pages` of `site`, sorted, as `large_pages` lists them.
    fn listed(site: &str, pages: &[(UrlKey, PageId)]) -> Listed {
        let mut pages: Vec<_> = pages
            .iter()
            .map(|(url, id)| (site.to_owned(), url.clone(), *id))
            .collect();
        pages.sort();
        pages.into_iter().map(Ok).collect::<Vec<_>>().into_iter()
    }

    fn sites(sizes: &[(&str, u64)]) -> BTreeMap<String, u64> {
        sizes.iter().map(|&(s, n)| (s.to_owned(), n)).collect()
    }

    #[test]
    fn sites_under_the_bound_fill_batches_in_name_order() {
        let plan = Batches::plan(
            &sites(&[("a", 3), ("b", 4), ("c", 2), ("d", 6)]),
            7,
            no_large_pages,
        )
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
        let plan = Batches::plan(&sites(&[("a", 3), ("b", 4)]), 1_000, no_large_pages).unwrap();
        assert_eq!(plan.count(), 1);
        assert!(!plan.is_split("a"));
    }

    #[test]
    fn a_large_site_is_split_by_url_and_captures_stay_together() {
        // 10 pages: URL u0..u4, two captures each; bound 4: three parts.
        let pages: Vec<(UrlKey, PageId)> = (0..10)
            .map(|n| (UrlKey::of(&format!("http://x.org/u{}", n / 2)), id(n)))
            .collect();
        let plan = Batches::plan(&sites(&[("x.org", 10), ("y.org", 1)]), 4, || {
            Ok::<_, ()>(listed("x.org", &pages))
        })
        .unwrap();
        assert!(plan.is_split("x.org"));
        for n in (0..10).step_by(2) {
            assert!(
                same_part(&plan, "x.org", &pages[n], &pages[n + 1]),
                "u{}",
                n / 2
            );
        }
        assert!(!same_part(&plan, "x.org", &pages[0], &pages[9]));
        let SitePlace::Split { batches, .. } = &plan.sites["x.org"] else {
            panic!("not split");
        };
        assert_eq!(batches.len(), 3);
        // y.org's one page joins the last part's batch.
        assert_eq!(plan.count(), 3);
    }

    #[test]
    fn tasks_take_batches_in_plan_order_to_the_least_loaded() {
        // Batches of 6, 5, 2, 5, 3 pages (bound 6) over two tasks: 6 → 0; 5 → 1; 2 → 1 (5 < 6);
        // 5 → 0 (6 < 7); 3 → 1 (7 < 11); the loads end 11 and 10.
        let plan = Batches::plan(
            &sites(&[("a", 6), ("b", 5), ("c", 2), ("d", 5), ("e", 3)]),
            6,
            no_large_pages,
        )
        .unwrap();
        assert_eq!(plan.sizes, [6, 5, 2, 5, 3]);
        assert_eq!(plan.tasks(2), [0, 1, 1, 0, 1]);
        assert_eq!(plan.tasks(1), [0; 5]);
        // More tasks than batches: the last tasks take none.
        assert_eq!(plan.tasks(7), [0, 1, 2, 3, 4]);
        let second = plan.clone().share(1, 2);
        assert_eq!(second.taken().collect::<Vec<_>>(), [1, 2, 4]);
        let page = |site: &str| crate::test_pages::page_ref(1, site, "/x", 10);
        assert_eq!(second.batch_of(&page("a")), None);
        assert_eq!(second.batch_of(&page("b")), Some(1));
        assert_eq!(plan.batch_of(&page("a")), Some(0));
        assert_eq!(plan.clone().share(6, 7).taken().count(), 0);
    }

    proptest! {
        #[test]
        fn every_batch_goes_to_one_task_and_the_tasks_are_balanced(
            sizes in proptest::collection::vec(1_u64..50, 0..40),
            max in 1_u64..60,
            tasks in 1_u32..9,
        ) {
            let sites: BTreeMap<String, u64> = sizes
                .iter()
                .enumerate()
                .map(|(n, &size)| (format!("s{n:03}"), size.min(max)))
                .collect();
            let plan = Batches::plan(&sites, max, no_large_pages).unwrap();
            let dealt = plan.tasks(tasks);
            prop_assert_eq!(dealt.len(), plan.count());
            // Each batch taken by exactly one task's share.
            let mut takers = vec![0; plan.count()];
            for task in 0..tasks {
                for batch in plan.clone().share(task, tasks).taken() {
                    prop_assert_eq!(dealt[batch], task);
                    takers[batch] += 1;
                }
            }
            prop_assert!(takers.iter().all(|&n| n == 1), "{:?}", takers);
            // Balanced within one batch's pages.
            let mut load = vec![0_u64; tasks as usize];
            for (batch, &task) in dealt.iter().enumerate() {
                load[task as usize] += plan.sizes[batch];
            }
            let largest = plan.sizes.iter().copied().max().unwrap_or(0);
            let (lo, hi) = (load.iter().min().unwrap(), load.iter().max().unwrap());
            prop_assert!(hi - lo <= largest, "{:?} by {:?}", load, plan.sizes);
            prop_assert!(largest <= max);
        }

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
            let mut listed = pages.clone();
            listed.sort();
            let mut cutter = PartCutter::new(pages.len() as u64, max);
            for (url, id) in listed {
                cutter.push(url, id);
            }
            let (starts, sizes) = (cutter.starts, cutter.sizes);
            prop_assert_eq!(starts.len() + 1, sizes.len());
            prop_assert_eq!(sizes.iter().sum::<u64>(), pages.len() as u64);
            prop_assert!(sizes.iter().all(|&s| s >= 1 && s <= max));
            // Parts are as few as the bound allows, give or take one per URL boundary.
            let least = (pages.len() as u64).div_ceil(max);
            prop_assert!(sizes.len() as u64 >= least);
            prop_assert!(sizes.len() as u64 <= 2 * least);
            // Every part is a run of consecutive URL keys, and each part has the pages its
            // size says.
            let part = |key: &(UrlKey, PageId)| starts.partition_point(|start| start <= key);
            let mut by_url: BTreeMap<&UrlKey, Vec<usize>> = BTreeMap::new();
            let mut counted = vec![0_u64; sizes.len()];
            for page in &pages {
                by_url.entry(&page.0).or_default().push(part(page));
                counted[part(page)] += 1;
            }
            prop_assert_eq!(&counted, &sizes);
            let mut last = 0;
            for parts in by_url.values() {
                let (lo, hi) = (*parts.iter().min().unwrap(), *parts.iter().max().unwrap());
                prop_assert!(lo >= last);
                last = hi;
            }
        }
    }
}

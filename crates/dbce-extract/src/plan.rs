//! Cross planning: every page's partners (`up`, `down`) and other captures (`prev`, `next`)
//! chosen among the pages of its LSH buckets and its URL's captures, and its page type
//! smoothed by its partners'.

use std::collections::{BTreeMap, BTreeSet};

use dbce_annotate::{Cross, CrossCandidate, UrlFamily, UrlKey, select_cross, with_outside_witness};
use dbce_classify::PageTypeGuess;
use dbce_classify::page_type::smooth_page_types;
use dbce_minhash::jaccard_of_values;
use dbce_page::PageRef;
use rayon::prelude::*;

/// A cross over indices into the pages planned together, with each member's similarity to the
/// page.
#[derive(Debug, Clone)]
pub struct PlannedCross {
    /// The cross, as indices into the pages.
    pub cross: Cross<usize>,
    /// Each member's estimated Jaccard similarity to the page, by index.
    pub similarity: BTreeMap<usize, f32>,
}

impl PlannedCross {
    /// The indices of the members other than the page itself, in role order.
    pub fn partners(&self) -> impl Iterator<Item = usize> + '_ {
        self.cross.members().into_iter().skip(1).map(|(_, j)| j)
    }
}

/// Every page's cross, or `None` for pages without a partner of another URL. `members` are
/// the LSH buckets, each as the indices of its pages into `pages` in page-id order; a page's
/// candidates are the other pages of its buckets (at most `max_candidates` neighbours per
/// bucket) and the other captures of its URL key, partners only with an estimated Jaccard
/// similarity of at least `min_similarity`.
pub fn plan_crosses(
    pages: &[PageRef],
    members: &[Vec<usize>],
    max_candidates: usize,
    min_similarity: f64,
) -> Vec<Option<PlannedCross>> {
    // Per page the buckets it is in with its place there: a page's candidates are gathered
    // when its cross is chosen, so the partition never holds every page's candidate set at
    // once (tens of kilobytes per page when a site fills huge buckets).
    let mut memberships: Vec<Vec<(usize, usize)>> = vec![Vec::new(); pages.len()];
    for (bucket, pages_in) in members.iter().enumerate() {
        for (place, &page) in pages_in.iter().enumerate() {
            memberships[page].push((bucket, place));
        }
    }
    let urls: Vec<UrlKey> = pages.iter().map(|p| UrlKey::of(&p.url)).collect();
    let families: Vec<UrlFamily> = pages.iter().map(|p| UrlFamily::of(&p.url)).collect();
    let mut by_url: BTreeMap<(&str, &UrlKey), Vec<usize>> = BTreeMap::new();
    for (i, page) in pages.iter().enumerate() {
        by_url.entry((&page.site.0, &urls[i])).or_default().push(i);
    }
    let mut captures_of: Vec<usize> = vec![0; pages.len()];
    let captures: Vec<Vec<usize>> = by_url.into_values().collect();
    for (group, pages_in) in captures.iter().enumerate() {
        pages_in.iter().for_each(|&page| captures_of[page] = group);
    }
    // The pages of every bucket `a` is in (in a huge bucket, its neighbours in page-id order,
    // half on each side) and the other captures of its URL.
    let candidates = |a: usize| {
        let mut candidates = BTreeSet::new();
        for &(bucket, place) in &memberships[a] {
            let members = &members[bucket];
            candidates.extend(
                bucket_neighbours(members.len(), place, max_candidates).map(|near| members[near]),
            );
        }
        candidates.extend(captures[captures_of[a]].iter().copied().filter(|&b| b != a));
        candidates
    };
    (0..pages.len())
        .into_par_iter()
        .map(|i| {
            let candidate =
                |j: usize| cross_candidate(j, &pages[j], urls[j].clone(), &pages[i].signature);
            let list: Vec<CrossCandidate<usize>> = candidates(i)
                .into_iter()
                .map(candidate)
                .filter(|c| c.similarity >= min_similarity || c.url == urls[i])
                .collect();
            let cross = select_cross(&candidate(i), &list)?;
            let cross = with_outside_witness(cross, &candidate(i), &list, |c| {
                families[c.page] == families[i]
            });
            let members: Vec<usize> = cross.members().into_iter().map(|(_, j)| j).collect();
            let similarity = list
                .iter()
                .filter(|c| members.contains(&c.page))
                .map(|c| (c.page, c.similarity as f32))
                .collect();
            Some(PlannedCross { cross, similarity })
        })
        .collect()
}

/// The places of a page's candidates in a bucket of `n` pages where it is at `place`: every
/// other place, or, in a bucket of more than `max_candidates + 1` pages, its `max_candidates`
/// nearest (half on each side, wrapping around the ends).
pub(crate) fn bucket_neighbours(
    n: usize,
    place: usize,
    max_candidates: usize,
) -> impl Iterator<Item = usize> {
    let every = n <= max_candidates + 1;
    let half = if every {
        0
    } else {
        (max_candidates / 2).max(1)
    };
    let all = (0..n).filter(move |&other| every && other != place);
    let near = (1..=half).flat_map(move |step| [(place + step) % n, (place + n - step % n) % n]);
    all.chain(near)
}

/// `page`, known as `id` and of URL key `url`, as a cross candidate of the page whose MinHash
/// signature is `of`.
pub(crate) fn cross_candidate<Id>(
    id: Id,
    page: &PageRef,
    url: UrlKey,
    of: &[u32],
) -> CrossCandidate<Id> {
    CrossCandidate {
        page: id,
        url,
        captured: page.captured.0,
        payload: page.payload.0,
        similarity: jaccard_of_values(of, &page.signature),
    }
}

/// Each page's type: its own guess, or, below `smoothing` confidence, its cross partners'
/// vote (`smooth_page_types`); `smoothing` 0 keeps every page's own guess.
pub fn page_types(
    pages: &[PageRef],
    crosses: &[Option<PlannedCross>],
    smoothing: f32,
) -> Vec<PageTypeGuess> {
    let own: Vec<PageTypeGuess> = pages.iter().map(|p| p.page_type).collect();
    if smoothing <= 0.0 {
        return own;
    }
    let partners: Vec<Vec<usize>> = crosses
        .iter()
        .map(|planned| {
            planned
                .as_ref()
                .map_or_else(Vec::new, |p| p.partners().collect())
        })
        .collect();
    smooth_page_types(&own, &partners, smoothing)
}

/// The cross without the members `keep` rejects; `None` if that removes `up` and no `down`
/// can take its place.
pub(crate) fn restrict(cross: Cross<usize>, keep: impl Fn(usize) -> bool) -> Option<Cross<usize>> {
    let down = cross.down.filter(|&j| keep(j));
    let (up, down) = if keep(cross.up) {
        (cross.up, down)
    } else {
        (down?, None)
    };
    Some(Cross {
        cur: cross.cur,
        up,
        down,
        prev: cross.prev.filter(|&j| keep(j)),
        next: cross.next.filter(|&j| keep(j)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Page `n` of site `e.com` (see [`crate::test_pages::page_ref`]).
    fn page_ref(n: u8, path: &str, shared: u32) -> PageRef {
        crate::test_pages::page_ref(n, "e.com", path, shared)
    }

    #[test]
    fn partners_below_the_least_similarity_are_not_taken() {
        let pages = [
            page_ref(0, "/a", 10),
            page_ref(1, "/b", 9),
            page_ref(2, "/c", 2),
        ];
        // One bucket of the three pages.
        let buckets = [vec![0, 1, 2]];
        let partners = |least: f64| {
            plan_crosses(&pages, &buckets, 64, least)
                .into_iter()
                .map(|planned| planned.map(|p| (p.cross.up, p.cross.down)))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            partners(0.0),
            [Some((1, Some(2))), Some((0, Some(2))), Some((0, Some(1)))]
        );
        // The third page shares 0.2 of its signature with the others: below 0.3 it is nobody's
        // partner and has none.
        assert_eq!(partners(0.3), [Some((1, None)), Some((0, None)), None]);
    }

    #[test]
    fn restrict_promotes_down_when_up_is_missing() {
        let cross = Cross {
            cur: 0,
            up: 1,
            down: Some(2),
            prev: Some(3),
            next: None,
        };
        let without_up = restrict(cross, |j| j != 1).unwrap();
        assert_eq!((without_up.up, without_up.down), (2, None));
        assert_eq!(without_up.prev, Some(3));
        assert!(restrict(cross, |j| j == 3).is_none());
        assert_eq!(restrict(cross, |_| true), Some(cross));
    }
}

//! Which pages of a site get a viewer: all of them up to the per-site cap, beyond it a sample
//! that always holds the pages a reader looks at first.

use std::collections::BTreeSet;

use dbce_pipeline::PageId;

use crate::site::Site;

/// How many of the least and of the most kept pages a site page lists (and the sample holds).
pub(crate) const EXTREMES: usize = 5;

/// The pages of `site` that get a viewer: every page when the site has at most `cap`, else
/// `cap` of them (at least `2 × EXTREMES`) chosen in this order: the [`EXTREMES`] least kept,
/// the [`EXTREMES`] most kept, the emptied pages, then the others by page id (a hash of the
/// record id: an arbitrary but fixed order). The choice depends on the run's output only.
pub(crate) fn sample(site: &Site, cap: usize) -> BTreeSet<PageId> {
    if site.pages.len() <= cap {
        return site.pages.iter().map(|row| row.id).collect();
    }
    let cap = cap.max(2 * EXTREMES);
    let by_share = site.by_kept_share();
    let least = by_share.iter().take(EXTREMES);
    let most = by_share.iter().rev().take(EXTREMES);
    let candidates = least
        .chain(most)
        .map(|row| row.id)
        .chain(site.emptied().map(|row| row.id))
        .chain(site.pages.iter().map(|row| row.id));
    let mut chosen = BTreeSet::new();
    for id in candidates {
        if chosen.len() == cap {
            break;
        }
        chosen.insert(id);
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::PageRow;
    use crate::testutil::row;

    fn site(rows: Vec<PageRow>) -> Site {
        Site::new("a.test".into(), rows, &[])
    }

    #[test]
    fn a_site_within_the_cap_is_shown_whole() {
        let s = site((0..8).map(|n| row(n, u64::from(n), false)).collect());
        assert_eq!(sample(&s, 8).len(), 8);
    }

    #[test]
    fn beyond_the_cap_the_extremes_and_emptied_pages_come_first() {
        // Pages 0..40 keep n words of 100, page 20 is emptied; ids follow n.
        let s = site(
            (0..40)
                .map(|n| row(n, if n == 20 { 0 } else { u64::from(n) + 1 }, n == 20))
                .collect(),
        );
        let chosen = sample(&s, 12);
        assert_eq!(chosen.len(), 12);
        let id = |n: u8| PageId([n; 16]);
        // The least kept: 20 (nothing), 0, 1, 2, 3; the most kept: 39 … 35.
        for n in [20, 0, 1, 2, 3, 39, 38, 37, 36, 35] {
            assert!(chosen.contains(&id(n)), "page {n} missing");
        }
        // Then by id: 4 and 5.
        assert!(chosen.contains(&id(4)) && chosen.contains(&id(5)));
        // A cap below the extremes still holds them.
        assert_eq!(sample(&s, 3).len(), 2 * EXTREMES);
    }
}

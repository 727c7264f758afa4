//! Who a page's partners are: the candidates LSH finds within its site, or every other page of
//! the site ranked by estimated Jaccard similarity.

use std::collections::BTreeMap;

use dbce_minhash::{Candidate, Error, LshIndex, LshParams};

use crate::load::Page;

/// What one page found.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Found {
    /// Pages sharing a bucket, other captures of the same URL included: what `group` pays for.
    pub(crate) candidates: usize,
    /// Candidates with another URL.
    pub(crate) partners: usize,
    /// The most similar partner (the cross's `up`).
    pub(crate) best: Option<Partner>,
    /// The next most similar partner (the cross's `down`).
    pub(crate) second: Option<Partner>,
}

/// A partner of a page.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Partner {
    /// Estimated Jaccard similarity of the two pages' template tokens.
    pub(crate) jaccard: f64,
    /// Whether both pages have the same template; `None` where a template is not known.
    pub(crate) same_template: Option<bool>,
}

/// The pages of a dataset that have another page in their site, and what each found.
pub(crate) struct Outcome {
    /// One per page of a site with two pages or more, by page index.
    pub(crate) found: BTreeMap<usize, Found>,
    /// Partner pairs of which both templates are known.
    pub(crate) pairs_known: usize,
    /// Of those, pairs of one template.
    pub(crate) pairs_same: usize,
}

/// The indices of each site's pages, for sites with two pages or more.
pub(crate) fn sites(pages: &[Page]) -> Vec<Vec<usize>> {
    let mut sites: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (index, page) in pages.iter().enumerate() {
        sites.entry(&page.site).or_default().push(index);
    }
    sites.into_values().filter(|ids| ids.len() >= 2).collect()
}

/// Partners found by LSH with `params`, an index per site as stage `group` keys buckets by site.
pub(crate) fn by_lsh(
    pages: &[Page],
    sites: &[Vec<usize>],
    params: LshParams,
) -> Result<Outcome, Error> {
    measure(pages, sites, |ids| {
        let mut index = LshIndex::new(pages[ids[0]].signature.config(), params)?;
        for &id in ids {
            index.insert(id, pages[id].signature.clone())?;
        }
        ids.iter().map(|&id| index.candidates(id)).collect()
    })
}

/// Every other page of the site as a candidate: the exhaustive search a fallback query makes.
pub(crate) fn exhaustive(pages: &[Page], sites: &[Vec<usize>]) -> Result<Outcome, Error> {
    measure(pages, sites, |ids| {
        ids.iter()
            .map(|&id| {
                let mut ranked = ids
                    .iter()
                    .filter(|&&other| other != id)
                    .map(|&other| {
                        let jaccard = pages[id].signature.jaccard(&pages[other].signature)?;
                        Ok(Candidate { id: other, jaccard })
                    })
                    .collect::<Result<Vec<_>, Error>>()?;
                ranked.sort_by(|a, b| b.jaccard.total_cmp(&a.jaccard).then(a.id.cmp(&b.id)));
                Ok(ranked)
            })
            .collect()
    })
}

/// Tallies what `rank` finds for each site's pages: for the site's page indices, one candidate
/// list per page, most similar first.
fn measure(
    pages: &[Page],
    sites: &[Vec<usize>],
    mut rank: impl FnMut(&[usize]) -> Result<Vec<Vec<Candidate<usize>>>, Error>,
) -> Result<Outcome, Error> {
    let mut outcome = Outcome {
        found: BTreeMap::new(),
        pairs_known: 0,
        pairs_same: 0,
    };
    for ids in sites {
        for (&id, candidates) in ids.iter().zip(rank(ids)?) {
            let partners: Vec<&Candidate<usize>> = candidates
                .iter()
                .filter(|c| pages[c.id].url != pages[id].url)
                .collect();
            for c in partners.iter().filter(|c| c.id > id) {
                if let Some(same) = same_template(&pages[id], &pages[c.id]) {
                    outcome.pairs_known += 1;
                    outcome.pairs_same += usize::from(same);
                }
            }
            let partner = |c: &&Candidate<usize>| Partner {
                jaccard: c.jaccard,
                same_template: same_template(&pages[id], &pages[c.id]),
            };
            outcome.found.insert(
                id,
                Found {
                    candidates: candidates.len(),
                    partners: partners.len(),
                    best: partners.first().map(partner),
                    second: partners.get(1).map(partner),
                },
            );
        }
    }
    Ok(outcome)
}

fn same_template(a: &Page, b: &Page) -> Option<bool> {
    Some(a.template.as_ref()? == b.template.as_ref()?)
}

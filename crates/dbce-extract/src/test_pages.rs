//! Pages for the unit tests.

use std::collections::BTreeMap;
use std::convert::Infallible;

use dbce_annotate::UrlKey;
use dbce_classify::PageType;
use dbce_page::{FileId, PageId, PageRef, PayloadDigest, SiteKey, Source, Timestamp};

use crate::Batches;

/// Page `n` of `site` at `path`, with a MinHash signature of ten values: the first
/// `shared` common to every page, the others page `n`'s own (page 0 must share all ten).
pub(crate) fn page_ref(n: u8, site: &str, path: &str, shared: u32) -> PageRef {
    PageRef {
        page: PageId([n; 16]),
        record_id: format!("<urn:test:{n}>"),
        url: format!("http://{site}{path}"),
        site: SiteKey(site.into()),
        captured: Timestamp(20240101000000),
        payload: PayloadDigest([n; 20]),
        source: Source {
            file: FileId(0),
            offset: u64::from(n),
            length: 1,
            stream_offset: None,
        },
        tokens: 10,
        signature: (0..10)
            .map(|v| {
                if v < shared {
                    v
                } else {
                    v + 100 * u32::from(n)
                }
            })
            .collect(),
        page_type: dbce_classify::PageTypeGuess {
            page_type: PageType::Article,
            confidence: 1.0,
        },
        truncated: Vec::new(),
    }
}

/// `pages` planned in batches of at most `max_pages` (a larger site split into parts).
pub(crate) fn plan(pages: &[PageRef], max_pages: u64) -> Batches {
    let mut per_site: BTreeMap<String, u64> = BTreeMap::new();
    for page in pages {
        *per_site.entry(page.site.0.clone()).or_default() += 1;
    }
    let mut large: Vec<(String, UrlKey, PageId)> = pages
        .iter()
        .filter(|p| per_site[&p.site.0] > max_pages)
        .map(|p| (p.site.0.clone(), UrlKey::of(&p.url), p.page))
        .collect();
    large.sort();
    Batches::plan(&per_site, max_pages, || {
        Ok::<_, Infallible>(large.clone().into_iter().map(Ok))
    })
    .unwrap()
}

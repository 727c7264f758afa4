//! Pages for the unit tests.

use dbce_classify::PageType;
use dbce_page::{FileId, PageId, PageRef, PayloadDigest, SiteKey, Source, Timestamp};

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

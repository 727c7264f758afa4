//! Pages to test with.

use dbce_output::{RunCounts, SourceCoordinates, TextRecord};
use dbce_pipeline::PageId;

use crate::site::PageRow;

/// A page of site `a.test` with id `[n; 16]`, record id `<urn:test:n>`, URL
/// `http://a.test/n`, keeping `kept_words` of 100 words.
pub(crate) fn row(n: u8, kept_words: u64, empty: bool) -> PageRow {
    PageRow {
        id: PageId([n; 16]),
        record: TextRecord {
            id: format!("<urn:test:{n}>"),
            url: format!("http://a.test/{n}"),
            date: String::new(),
            site: "a.test".into(),
            title: String::new(),
            text: String::new(),
            markdown: None,
            method: "cross".into(),
            decided_by: "cross".into(),
            empty_reason: empty.then(|| "every-route-empty".into()),
            lang: None,
            lang_confidence: None,
            page_type: dbce_classify::PageType::Article,
            page_type_confidence: 1.0,
            cross: Default::default(),
            runs: RunCounts {
                content: 0,
                boilerplate: 0,
                invalid: 0,
            },
            source: SourceCoordinates {
                file: String::new(),
                offset: 0,
                length: 0,
            },
            truncated: Vec::new(),
        },
        words: 100,
        kept_words,
    }
}

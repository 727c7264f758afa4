//! Every single-page method takes any page: arbitrary tag soup (unbalanced, nested, with the
//! class names Readability weighs) gives one verdict per block, the same on a second run, and
//! never a panic.
#![allow(clippy::unwrap_used)]

use dbce_classify::{PageTypeGuess, Readability, SinglePageMethod, text_blocks};
use dbce_dom::{Document, SanitizeConfig};
use proptest::prelude::*;

/// A piece of HTML: an opening or closing tag from a small set, or some text.
fn piece() -> impl Strategy<Value = String> {
    let tags = prop::sample::select(vec![
        "div",
        "p",
        "a",
        "span",
        "ul",
        "li",
        "table",
        "td",
        "tr",
        "article",
        "main",
        "aside",
        "nav",
        "form",
        "h1",
        "h2",
        "pre",
        "section",
        "header",
        "footer",
        "blockquote",
        "br",
        "img",
        "input",
    ]);
    let classes = prop::sample::select(vec![
        "", "comment", "sidebar", "article", "content", "footer", "post", "share", "main",
    ]);
    prop_oneof![
        (tags.clone(), classes).prop_map(|(t, c)| format!("<{t} class=\"{c}\" id=\"{c}\">")),
        tags.prop_map(|t| format!("</{t}>")),
        "[A-Za-z ,.]{0,120}".prop_map(|t| t),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_tag_soup_gets_one_verdict_per_block(pieces in prop::collection::vec(piece(), 0..80)) {
        let html = format!("<html><body>{}</body></html>", pieces.concat());
        let doc = Document::parse(&html, &SanitizeConfig::default()).unwrap();
        let blocks = text_blocks(&doc);
        let readability = Readability::default();
        let said = readability.blocks(&doc, &blocks);
        prop_assert_eq!(said.len(), blocks.len());
        prop_assert_eq!(readability.blocks(&doc, &blocks), said.clone());
        for block in &said {
            prop_assert!((0.0..=1.0).contains(&block.score));
            prop_assert!((-100.0..=100.0).contains(&block.class_weight));
        }
        for method in ["readability", "num-words", "article", "bf-smoothed"] {
            let method: SinglePageMethod = method.parse().unwrap();
            prop_assert_eq!(method.classify_page(&doc, &blocks, PageTypeGuess::default()).len(), blocks.len());
        }
    }
}

//! The thesis's worked example: doc1 (Listing 1.2) annotated against doc2 (Listing 1.3) gives
//! the runs of Listing 2.10 and, classified by Table B.1, the content of Listing 1.4.
#![allow(clippy::unwrap_used)]

use dbce_annotate::{
    Bits, CrossRole, InvalidMode, PageTokens, PatternClass, annotate, classify_runs, content_text,
};
use dbce_dom::{Document, SanitizeConfig};

const DOC1: &str = r#"<html><head></head><body>
  <span class="def" style="color:blue">
    <ul class="adv"><li>Buy More</li><li>New Cars</li></ul>
    Definition of Boilerplate
    2016 - Example Inc. All rights reserved
  </span>
</body></html>"#;

const DOC2: &str = r#"<html><head></head><body>
  <span class="def" style="color:blue">
    <ul class="adv"><li>Buy More</li><li>New Cars</li></ul>
    <i>Content description</i>
    2016 - Example Inc. All rights reserved
  </span>
</body></html>"#;

#[test]
fn listing_2_10_runs_and_listing_1_4_classes() {
    let config = SanitizeConfig::default();
    let (doc1, doc2) = (
        Document::parse(DOC1, &config).unwrap(),
        Document::parse(DOC2, &config).unwrap(),
    );
    let cur = PageTokens::read(&doc1);
    let up = PageTokens::read(&doc2);
    let runs = annotate(&cur, &[(CrossRole::Up, &up.words)]);

    let cur_up = Bits::of(&[CrossRole::Cur, CrossRole::Up]);
    let cur_only = Bits::of(&[CrossRole::Cur]);
    let shown: Vec<(String, Bits)> = runs
        .iter()
        .map(|r| {
            let text = r
                .text(&doc1)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            (text, r.bits)
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("Buy More".to_owned(), cur_up),
            ("New Cars".to_owned(), cur_up),
            ("Definition of Boilerplate".to_owned(), cur_only),
            ("2016 - Example Inc. All rights reserved".to_owned(), cur_up),
        ]
    );

    let labelled = classify_runs(&runs, cur_up, InvalidMode::Keep);
    let classes: Vec<PatternClass> = labelled.iter().map(|r| r.class).collect();
    use PatternClass::{Boilerplate as B, Content as C};
    assert_eq!(classes, [B, B, C, B]);
    assert_eq!(content_text(&doc1, &labelled), "Definition of Boilerplate");
}

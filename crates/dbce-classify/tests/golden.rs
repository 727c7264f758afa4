//! Golden tests on two real pages (`testdata/classify/README.md`): segmentation, features and
//! classes are compared with a committed snapshot, and the extracted text with the page's
//! ground truth.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use dbce_classify::{PageTypeGuess, SinglePageMethod, TextBlock, text_blocks};
use dbce_dom::{Document, SanitizeConfig};

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/classify")
        .join(name)
}

struct Page {
    doc: Document,
    blocks: Vec<TextBlock>,
    truth: String,
}

fn page(name: &str) -> Page {
    let html = std::fs::read_to_string(testdata(&format!("{name}.html"))).expect("page");
    let truth = std::fs::read_to_string(testdata(&format!("{name}.gt.txt"))).expect("truth");
    let doc = Document::parse(&html, &SanitizeConfig::default()).expect("parses");
    let blocks = text_blocks(&doc);
    Page { doc, blocks, truth }
}

fn classes(page: &Page, method: &str) -> Vec<bool> {
    let method: SinglePageMethod = method.parse().expect("method name");
    method.classify_page(&page.doc, &page.blocks, PageTypeGuess::default())
}

/// One line per block: offset, words, linked words, lines, text density, link density, depth,
/// heading, the classes of `num-words` and `article`, and the start of the text.
fn snapshot(page: &Page) -> String {
    let num_words = classes(page, "num-words");
    let article = classes(page, "article");
    let mut out =
        String::from("offset\twords\tlinked\tlines\ttd\tld\tdepth\theading\tnw\tart\ttext\n");
    for (i, b) in page.blocks.iter().enumerate() {
        let text: String = b.text.chars().take(60).collect();
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{:.2}\t{:.2}\t{}\t{}\t{}\t{}\t{text}",
            b.offset.get(),
            b.words,
            b.linked_words,
            b.wrapped_lines,
            b.text_density,
            b.link_density,
            b.tag_depth,
            u8::from(b.heading),
            u8::from(num_words[i]),
            u8::from(article[i]),
        )
        .expect("writes to a string");
    }
    out
}

fn check_snapshot(name: &str) {
    let page = page(name);
    let actual = snapshot(&page);
    let path = testdata(&format!("{name}.blocks.tsv"));
    if std::env::var_os("DBCE_BLESS").is_some() {
        std::fs::write(&path, &actual).expect("snapshot written");
    }
    let expected = std::fs::read_to_string(&path).expect("snapshot");
    for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        assert_eq!(a, e, "{name}: line {} differs", i + 1);
    }
    assert_eq!(
        actual.lines().count(),
        expected.lines().count(),
        "{name}: block count"
    );
}

/// Bag-of-words F1 of `pred` against `truth` (whitespace tokens, multiset overlap).
fn bow_f1(truth: &str, pred: &str) -> f64 {
    let mut counts: HashMap<&str, i64> = HashMap::new();
    for t in truth.split_whitespace() {
        *counts.entry(t).or_default() += 1;
    }
    let mut hits = 0i64;
    for t in pred.split_whitespace() {
        if let Some(c) = counts.get_mut(t)
            && *c > 0
        {
            *c -= 1;
            hits += 1;
        }
    }
    let (n_true, n_pred) = (
        truth.split_whitespace().count(),
        pred.split_whitespace().count(),
    );
    let (p, r) = (hits as f64 / n_pred as f64, hits as f64 / n_true as f64);
    2.0 * p * r / (p + r)
}

fn extracted(page: &Page, method: &str) -> String {
    let keep = classes(page, method);
    let kept: Vec<&str> = page
        .blocks
        .iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(b, _)| b.text.as_str())
        .collect();
    kept.join("\n")
}

#[test]
fn independent_ie_blocks_match_the_snapshot() {
    check_snapshot("l3s-gn1-independent-ie");
}

#[test]
fn entermedia_blocks_match_the_snapshot() {
    check_snapshot("scrapinghub-entermedia-co-kr");
}

#[test]
fn extraction_is_close_to_the_ground_truth() {
    // Measured (bag-of-words F1): keep-all 0.66 and 0.87, num-words 0.91 and 0.96, article
    // 0.98 and 0.98, readability 0.89 and 1.00.
    for (name, min_num_words, min_article, min_readability) in [
        ("l3s-gn1-independent-ie", 0.9, 0.96, 0.87),
        ("scrapinghub-entermedia-co-kr", 0.94, 0.96, 0.98),
    ] {
        let page = page(name);
        let all = bow_f1(&page.truth, &extracted(&page, "keep-all"));
        let nw = bow_f1(&page.truth, &extracted(&page, "num-words"));
        let art = bow_f1(&page.truth, &extracted(&page, "article"));
        assert!(nw > all && art > all, "{name}: keep-all {all:.3}");
        assert!(nw >= min_num_words, "{name}: num-words {nw:.3}");
        assert!(art >= min_article, "{name}: article {art:.3}");
        let read = bow_f1(&page.truth, &extracted(&page, "readability"));
        assert!(
            read > all,
            "{name}: readability {read:.3}, keep-all {all:.3}"
        );
        assert!(read >= min_readability, "{name}: readability {read:.3}");
    }
}

//! Pages nested 100,000 levels deep: segmentation and classification must not recurse.

use dbce_classify::{PageTypeGuess, Readability, SinglePageMethod, text_blocks};
use dbce_dom::{Document, SanitizeConfig};

const LEVELS: usize = 100_000;

/// Runs `f` on a thread with a 256 KiB stack: recursion over 100,000 levels would overflow it.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("thread starts")
        .join()
        .expect("thread finishes");
}

/// `levels` nested `tag` elements, each opening with the word `w<level>`.
fn nested(tag: &str, levels: usize) -> String {
    let mut html = String::from("<body><p>before</p>");
    for i in 0..levels {
        html.push_str(&format!("<{tag}>w{i} "));
    }
    for _ in 0..levels {
        html.push_str(&format!("</{tag}>"));
    }
    html.push_str("<p>after</p>");
    html
}

#[test]
fn hundred_thousand_nested_inline_elements_make_one_block() {
    on_small_stack(|| {
        // No depth limit: the DOM really is 100,000 levels deep.
        let config = SanitizeConfig {
            max_depth: u32::MAX,
            ..SanitizeConfig::default()
        };
        let doc = Document::parse(&nested("span", LEVELS), &config).unwrap();
        let blocks = text_blocks(&doc);
        let texts: Vec<usize> = blocks.iter().map(|b| b.words as usize).collect();
        assert_eq!(texts, [1, LEVELS, 1]);
        // The block starts inside the first span: the others open inside it.
        assert_eq!(blocks[1].tag_count as usize, LEVELS - 1);
        assert!(blocks[1].text.starts_with("w0 w1 w2"));
        assert!(blocks[1].text.ends_with("w99999"));
        assert_eq!(blocks[1].nodes.len(), LEVELS);
        // Algorithm 2 keeps the one-word neighbours of a long block; Block Fusion's density
        // rule does not.
        for (method, expected) in [
            ("num-words", [true, true, true]),
            ("article", [true, true, true]),
            ("bf-rule-based", [false, true, false]),
        ] {
            let method: SinglePageMethod = method.parse().unwrap();
            assert_eq!(method.classify(&blocks), expected, "{method}");
        }
        drop(doc);
    });
}

#[test]
fn deeply_nested_links_count_as_linked() {
    on_small_stack(|| {
        let config = SanitizeConfig {
            max_depth: u32::MAX,
            ..SanitizeConfig::default()
        };
        // The parser does not nest <a> in <a>; <b> inside one <a> nests freely.
        let mut html = String::from("<body><p>x <a href=y>");
        html.push_str(&nested("b", LEVELS)["<body>".len()..]);
        let doc = Document::parse(&html, &config).unwrap();
        let blocks = text_blocks(&doc);
        let linked: u32 = blocks.iter().map(|b| b.linked_words).sum();
        let words: u32 = blocks.iter().map(|b| b.words).sum();
        assert_eq!(words as usize, LEVELS + 3);
        assert_eq!(linked as usize, LEVELS + 2);
        drop(doc);
    });
}

#[test]
fn deep_block_nesting_makes_a_block_per_level() {
    on_small_stack(|| {
        // Block elements cost the HTML parser quadratic time in depth, so the default block
        // depth limit (4096) bounds this test; the walk itself is the same.
        let config = SanitizeConfig {
            max_depth: u32::MAX,
            ..SanitizeConfig::default()
        };
        let doc = Document::parse(&nested("div", 4000), &config).unwrap();
        let blocks = text_blocks(&doc);
        assert_eq!(blocks.len(), 4002);
        assert_eq!(blocks[4000].text, "w3999");
        assert!(blocks[4000].tag_depth > blocks[1].tag_depth + 3990);
        let classes = SinglePageMethod::NumWords.classify(&blocks);
        assert_eq!(classes.len(), 4002);
    });
}

#[test]
fn readability_walks_deep_trees_without_recursion() {
    on_small_stack(|| {
        let config = SanitizeConfig {
            max_depth: u32::MAX,
            ..SanitizeConfig::default()
        };
        // 100,000 nested spans inside a <div>: one paragraph of 100,000 words, inside 4,000
        // nested <div>s.
        let mut html = String::from("<body>");
        html.push_str(&"<div>".repeat(4000));
        html.push_str(&nested("span", LEVELS)["<body>".len()..]);
        let doc = Document::parse(&html, &config).unwrap();
        let blocks = text_blocks(&doc);
        let readability = Readability::default();
        let features = readability.blocks(&doc, &blocks);
        assert_eq!(features.len(), blocks.len());
        let long = blocks
            .iter()
            .position(|b| b.words as usize == LEVELS)
            .unwrap();
        assert!(features[long].kept && features[long].in_top_candidate);
        let method: SinglePageMethod = "readability".parse().unwrap();
        assert_eq!(
            method.classify_page(&doc, &blocks, PageTypeGuess::default()),
            readability.classify(&doc, &blocks)
        );
    });
}

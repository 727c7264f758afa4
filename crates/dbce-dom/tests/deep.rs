//! Pages nested 100,000 levels deep: no walk of this crate may recurse.

use dbce_dom::{Document, SanitizeConfig, Truncation};

const LEVELS: usize = 100_000;

/// `<span>` nests without the quadratic scope checks a `<div>` start tag makes the parser do.
fn nested(tag: &str, levels: usize) -> String {
    let mut html = String::with_capacity(levels * (2 * tag.len() + 5) + 16);
    html.push_str("<body>");
    for _ in 0..levels {
        html.push('<');
        html.push_str(tag);
        html.push('>');
    }
    html.push_str("deep text");
    for _ in 0..levels {
        html.push_str("</");
        html.push_str(tag);
        html.push('>');
    }
    html
}

/// Runs `f` on a thread with a 256 KiB stack: recursion over 100,000 levels would overflow it.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("thread starts")
        .join()
        .expect("thread finishes");
}

#[test]
fn deep_page_is_unwrapped_at_max_depth_and_tokenised() {
    on_small_stack(|| {
        let config = SanitizeConfig::default();
        let doc = Document::parse(&nested("span", LEVELS), &config).unwrap();
        let deepest = doc.nodes().filter_map(|n| n.layer()).max().unwrap();
        assert_eq!(deepest.get(), config.max_depth);
        // html, head, body take layers 0-1; spans fill layers 2..=max_depth.
        let kept_spans = u64::from(config.max_depth) - 1;
        assert_eq!(doc.report().unwrapped_elements, LEVELS as u64 - kept_spans);
        assert_eq!(doc.visible_text(), "deep text");
        let runs: Vec<_> = doc.text_runs().collect();
        assert_eq!(runs.len(), 1);
        let parent = doc.get(runs[0].node).unwrap().parent().unwrap();
        assert_eq!(parent.layer(), Some(deepest));
        let tokens = doc.template_tokens();
        assert_eq!(tokens.len() as u64, 3 + kept_spans);
        assert!(tokens.iter().all(|t| t.matches('/').count() <= 513));
        drop(doc);
    });
}

#[test]
fn deep_page_kept_whole_without_a_depth_limit() {
    on_small_stack(|| {
        let config = SanitizeConfig {
            max_depth: u32::MAX,
            ..SanitizeConfig::default()
        };
        let doc = Document::parse(&nested("span", LEVELS), &config).unwrap();
        assert_eq!(doc.report().unwrapped_elements, 0);
        let run = doc.text_runs().next().unwrap();
        let node = doc.get(run.node).unwrap();
        assert_eq!(node.ancestors().count(), LEVELS + 3);
        assert_eq!(doc.root().descendants().count(), LEVELS + 4);
        assert_eq!(doc.visible_text(), "deep text");
        let layers = dbce_dom::Layers::new(&doc);
        assert_eq!(layers.len() as usize, LEVELS + 3);
        drop(doc);
    });
}

#[test]
fn deep_divs_parse_on_a_small_stack_up_to_the_block_limit() {
    on_small_stack(|| {
        let config = SanitizeConfig::default();
        let doc = Document::parse(&nested("div", 4_000), &config).unwrap();
        assert_eq!(doc.visible_text(), "deep text");
        assert_eq!(doc.template_tokens().len(), 3 + 511);
    });
}

#[test]
fn deep_divs_are_truncated_at_the_block_limit() {
    // Each <div> start tag makes the parser scan its whole stack: 100,000 levels would take
    // 30 s; the limit stops the parse after a few chunks and keeps what it built.
    on_small_stack(|| {
        let config = SanitizeConfig::default();
        let mut html = String::from("<body><p>Before the nesting.</p>");
        html.push_str(&nested("div", LEVELS));
        let doc = Document::parse(&html, &config).unwrap();
        assert_eq!(doc.report().truncated, vec![Truncation::Depth]);
        let parsed = doc.report().input_bytes;
        assert!(parsed < 64 * 1024, "stopped at {parsed}");
        assert!(parsed > 4096 * 5, "parsed past the limit's depth: {parsed}");
        assert_eq!(doc.visible_text(), "Before the nesting.");
        assert!(doc.template_tokens().len() > 500);
    });
}

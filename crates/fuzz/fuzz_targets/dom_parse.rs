//! Arbitrary text through the DOM builder and sanitiser under small limits, then every view of
//! the tree: no panic, limits respected, truncation reported.
#![no_main]

use libfuzzer_sys::fuzz_target;

use dbce_dom::{Document, Layers, SanitizeConfig, Truncation};

fuzz_target!(|data: &[u8]| {
    let html = String::from_utf8_lossy(data);
    let config = SanitizeConfig {
        max_input_bytes: 1 << 9,
        max_nodes: 2_000,
        max_depth: 24,
        max_block_depth: 48,
        max_attribute_bytes: 1 << 10,
    };
    let Ok(doc) = Document::parse(&html, &config) else {
        return;
    };
    let report = doc.report();
    assert!(report.input_bytes <= html.len() as u64);
    assert_eq!(
        report.truncated.contains(&Truncation::Bytes),
        html.len() as u64 > config.max_input_bytes,
        "{report:?}"
    );
    let deepest = doc.nodes().filter_map(|n| n.layer()).max();
    assert!(deepest.is_none_or(|d| d.get() <= config.max_depth));
    let _ = doc.visible_text();
    let _ = doc.template_tokens();
    let _ = doc.title();
    for run in doc.text_runs() {
        assert!(doc.get(run.node).is_some());
    }
    let _ = Layers::new(&doc);
});

//! The thesis's example documents (Listings 1.1–1.3, 2.1, 2.2): layers as in Listings 2.3 and
//! 2.4 and template tokens as Listing 2.7 computes them.

use dbce_dom::{Document, Layer, Layers, NodeKind, SanitizeConfig};

fn load(name: &str) -> Document {
    let path = format!(
        "{}/../../testdata/html/thesis/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let html = std::fs::read_to_string(path).expect("thesis page");
    Document::parse(&html, &SanitizeConfig::default()).expect("HTML parses")
}

/// The layers printed as Listings 2.3/2.4 print them: document order, empty groups left out.
fn nested_names(doc: &Document) -> Vec<Vec<Vec<String>>> {
    let layers = Layers::new(doc);
    (0..layers.len())
        .map(|level| {
            let mut groups: Vec<Vec<String>> = layers
                .groups(doc, Layer::new(level))
                .filter(|g| !g.is_empty())
                .map(|g| {
                    let mut names: Vec<String> = g
                        .nodes()
                        .filter_map(|(_, n)| n.name())
                        .map(str::to_owned)
                        .collect();
                    names.reverse();
                    names
                })
                .collect();
            groups.reverse();
            groups
        })
        .filter(|groups| !groups.is_empty())
        .collect()
}

fn names(spec: &[&[&[&str]]]) -> Vec<Vec<Vec<String>>> {
    spec.iter()
        .map(|layer| {
            layer
                .iter()
                .map(|g| g.iter().map(|s| (*s).to_owned()).collect())
                .collect()
        })
        .collect()
}

/// A token of Listing 2.7 for an element whose path (element first) is `path`.
fn token(node_nr: u32, group_nr: u32, path: &[&str]) -> String {
    let level = path.len() - 1;
    path.iter()
        .chain(["[document]"].iter())
        .map(|name| format!("{node_nr}_{group_nr}_{level}_{name}"))
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn listing_2_3_layers_of_doc1() {
    let expected = names(&[
        &[&["html"]],
        &[&["head", "body"]],
        &[&["span"]],
        &[&["ul"]],
        &[&["li", "li"]],
    ]);
    assert_eq!(nested_names(&load("doc1.html")), expected);
    assert_eq!(nested_names(&load("doc1-lsh.html")), expected);
}

#[test]
fn listing_2_4_layers_of_doc2() {
    // The thesis prints line 4 as `[ [ ul ], [ i ] ]`; both are children of the one <span>, so
    // by the rule of Listing 2.6 they form one group.
    let expected = names(&[
        &[&["html"]],
        &[&["head", "body"]],
        &[&["span"]],
        &[&["ul", "i"]],
        &[&["li", "li"]],
    ]);
    assert_eq!(nested_names(&load("doc2.html")), expected);
    assert_eq!(nested_names(&load("doc2-lsh.html")), expected);
}

#[test]
fn figure_2_5_layer_numbers() {
    let doc = load("doc1.html");
    let layer_of = |name: &str| {
        doc.nodes()
            .find(|n| n.is_element(name))
            .and_then(|n| n.layer())
            .map(Layer::get)
    };
    // Figure 2.5 counts from 1; Listing 2.7's `level` (kept here) from 0.
    assert_eq!(layer_of("html"), Some(0));
    assert_eq!(layer_of("head"), Some(1));
    assert_eq!(layer_of("body"), Some(1));
    assert_eq!(layer_of("span"), Some(2));
    assert_eq!(layer_of("ul"), Some(3));
    assert_eq!(layer_of("li"), Some(4));
    assert_eq!(doc.root().kind(), NodeKind::Document);
    assert_eq!(doc.root().layer(), None);
}

#[test]
fn listing_2_7_tokens_of_doc1() {
    let expected = vec![
        token(0, 0, &["html"]),
        token(0, 0, &["body", "html"]),
        token(1, 0, &["head", "html"]),
        // Group 1 of layer 2 is <head>'s, empty.
        token(0, 0, &["span", "body", "html"]),
        token(0, 0, &["ul", "span", "body", "html"]),
        token(0, 0, &["li", "ul", "span", "body", "html"]),
        token(1, 0, &["li", "ul", "span", "body", "html"]),
    ];
    assert_eq!(load("doc1.html").template_tokens(), expected);
    assert_eq!(load("doc1-lsh.html").template_tokens(), expected);
    assert_eq!(load("template.html").template_tokens(), expected);
    assert_eq!(expected[0], "0_0_0_html/0_0_0_[document]");
}

#[test]
fn listing_2_7_tokens_of_doc2() {
    let expected = vec![
        token(0, 0, &["html"]),
        token(0, 0, &["body", "html"]),
        token(1, 0, &["head", "html"]),
        token(0, 0, &["span", "body", "html"]),
        // Last child first: <i> is node 0, <ul> node 1.
        token(0, 0, &["i", "span", "body", "html"]),
        token(1, 0, &["ul", "span", "body", "html"]),
        // Layer 4: <i>'s empty group is number 0, so <ul>'s is 1.
        token(0, 1, &["li", "ul", "span", "body", "html"]),
        token(1, 1, &["li", "ul", "span", "body", "html"]),
    ];
    assert_eq!(load("doc2.html").template_tokens(), expected);
    assert_eq!(load("doc2-lsh.html").template_tokens(), expected);
}

#[test]
fn doc1_and_doc2_share_most_tokens() {
    let a = load("doc1.html").template_tokens();
    let b = load("doc2.html").template_tokens();
    let shared = a.iter().filter(|t| b.contains(t)).count();
    // html, body, head, span; ul and both li differ in node or group number.
    assert_eq!(shared, 4);
}

#[test]
fn thesis_text_runs_and_visible_text() {
    let doc = load("doc1.html");
    let runs: Vec<String> = doc
        .text_runs()
        .map(|r| r.text.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        runs,
        [
            "Buy More",
            "New Cars",
            "Definition of Boilerplate 2016 - Example Inc. All rights reserved"
        ]
    );
    assert_eq!(
        doc.visible_text(),
        "Buy More\nNew Cars\nDefinition of Boilerplate 2016 - Example Inc. All rights reserved"
    );
    let span = doc.nodes().find(|n| n.is_element("span")).unwrap();
    assert_eq!(span.attr("class"), Some("def"));
    assert_eq!(span.attr("style"), Some("color:blue"));
}

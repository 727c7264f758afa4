//! Properties on arbitrary input: parsing never panics and the arena is consistent.

use dbce_dom::{Document, Layer, Layers, NodeKind, NodeRef, SanitizeConfig};
use proptest::prelude::*;

/// Pieces of markup that exercise the parser's repair paths and the sanitiser.
const PIECES: &[&str] = &[
    "<div>",
    "</div>",
    "<p>",
    "</p>",
    "<span>",
    "</span>",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<a href=x>",
    "</a>",
    "<table>",
    "</table>",
    "<tr>",
    "<td>",
    "</td>",
    "<ul>",
    "<li>",
    "</ul>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<!--",
    "-->",
    "<noscript>",
    "</noscript>",
    "<iframe>",
    "</iframe>",
    "<template>",
    "</template>",
    "<svg>",
    "<path>",
    "<foreignObject>",
    "</svg>",
    "<math>",
    "<mi>",
    "</math>",
    "<object>",
    "</object>",
    "<select>",
    "<option>",
    "<textarea>",
    "<title>",
    "<head>",
    "<body>",
    "</body>",
    "<html>",
    "</html>",
    "<frameset>",
    "<br>",
    "<hr>",
    "<form>",
    "<button>",
    "<plaintext>",
    "&amp;",
    "&",
    "text",
    " ",
    "\n",
    "<",
    ">",
    "\"",
    "<DIV CLASS=x>",
    "<h1>",
    "<pre>",
    "\u{e9}",
];

fn markup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..80).prop_map(|v| v.concat())
}

fn configs() -> impl Strategy<Value = SanitizeConfig> {
    (1u32..8, 8u32..200, 0u64..64).prop_map(|(max_depth, max_nodes, attrs)| SanitizeConfig {
        max_depth,
        max_nodes,
        max_attribute_bytes: attrs,
        max_block_depth: max_depth * 2,
        ..SanitizeConfig::default()
    })
}

/// Parent, child, sibling, depth and subtree links agree with one another.
fn check_links(doc: &Document, config: &SanitizeConfig) {
    let root = doc.root();
    assert_eq!(root.kind(), NodeKind::Document);
    assert_eq!(root.descendants().count() + 1, doc.len() as usize);
    let mut elements = 0;
    for node in doc.nodes().skip(1) {
        let parent = node.parent().expect("every node but the root has a parent");
        assert!(parent.id() < node.id());
        assert_ne!(parent.kind(), NodeKind::Text);
        assert_eq!(node.depth(), parent.depth() + 1);
        assert!(parent.children().any(|c| c.id() == node.id()));
        assert!(parent.descendants().any(|d| d.id() == node.id()));
        check_children(node);
        match node.kind() {
            NodeKind::Element => {
                elements += 1;
                assert!(node.layer().is_some_and(|l| l.get() <= config.max_depth));
            }
            NodeKind::Text => assert!(!node.text().unwrap_or_default().is_empty()),
            NodeKind::Document => panic!("a second document node"),
        }
    }
    check_children(root);
    assert_eq!(doc.template_tokens().len(), elements);
    check_layers(doc, elements);
}

/// Children are in increasing id order, point back to the parent and never two texts in a row.
fn check_children(node: NodeRef<'_>) {
    let children: Vec<_> = node.children().collect();
    for pair in children.windows(2) {
        assert!(pair[0].id() < pair[1].id());
        assert!(!(pair[0].kind() == NodeKind::Text && pair[1].kind() == NodeKind::Text));
    }
    assert!(
        children
            .iter()
            .all(|c| c.parent().map(|p| p.id()) == Some(node.id()))
    );
    let direct = node
        .descendants()
        .filter(|d| d.depth() == node.depth() + 1)
        .count();
    assert_eq!(direct, children.len());
}

/// Every element is in exactly one group, whose parent is its parent.
fn check_layers(doc: &Document, elements: usize) {
    let layers = Layers::new(doc);
    let mut grouped = 0;
    for level in 0..layers.len() {
        for (i, group) in layers.groups(doc, Layer::new(level)).enumerate() {
            assert_eq!(group.number() as usize, i);
            for (_, node) in group.nodes() {
                assert_eq!(node.parent().map(|p| p.id()), Some(group.parent().id()));
                assert_eq!(node.layer(), Some(Layer::new(level)));
                grouped += 1;
            }
        }
    }
    assert_eq!(grouped, elements);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(html in any::<String>()) {
        let config = SanitizeConfig::default();
        let doc = Document::parse(&html, &config).unwrap();
        check_links(&doc, &config);
        let _ = doc.visible_text();
    }

    #[test]
    fn markup_soup_gives_a_consistent_arena(html in markup()) {
        let config = SanitizeConfig::default();
        let doc = Document::parse(&html, &config).unwrap();
        check_links(&doc, &config);
        let ids: Vec<u32> = doc.text_runs().map(|r| r.id.get()).collect();
        prop_assert!(ids.iter().copied().eq(0..ids.len() as u32));
    }

    #[test]
    fn small_limits_give_errors_or_consistent_arenas(html in markup(), config in configs()) {
        if let Ok(doc) = Document::parse(&html, &config) {
            check_links(&doc, &config);
        }
    }
}

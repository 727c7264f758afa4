//! Content streamed in by React's server rendering, put where the page shows it.
//!
//! A page rendered with React 18's streaming (Next.js and others) sends a placeholder where a
//! suspended part of the page goes, `<template id="B:0"></template>` among its fallback (a
//! spinner, a skeleton), and that part's content later in the body inside `<div hidden
//! id="S:0">`, followed by a script (`$RC("B:0","S:0")`) that moves the content to the
//! placeholder and removes the fallback. A browser's reader sees the content in its place; a
//! parse without scripts sees it hidden after the footer. [`put_streamed_content_in_place`]
//! does the script's move: the children of each `S:n` go right before the `B:n` template, the
//! emptied `div` goes, and so does every boundary template. The fallback stays (it sits between
//! comments that the sanitiser has already dropped); it is a few words at most.

use html5ever::Attribute;

use crate::node::NONE;
use crate::raw::{RawData, RawTree};

/// The number `n` of an `id` attribute `{prefix}n` (`B:3`, `S:3`), if it is one.
fn numbered_id(attrs: &[Attribute], prefix: &str) -> Option<u32> {
    let id = attrs.iter().find(|a| &*a.name.local == "id")?;
    let digits = id.value.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Whether a `<template>` with these attributes is a streamed boundary's placeholder
/// (`id="B:n"`), which the sink keeps until [`put_streamed_content_in_place`] has used it.
pub(crate) fn is_boundary_template(attrs: &[Attribute]) -> bool {
    numbered_id(attrs, "B:").is_some()
}

/// Moves the content of every `<div hidden id="S:n">` to its `<template id="B:n">`, then
/// removes the boundary templates and the emptied `div`s; a `div` without its template stays
/// where it is.
pub(crate) fn put_streamed_content_in_place(tree: &mut RawTree) {
    let mut templates = Vec::new();
    let mut segments = Vec::new();
    for (id, node) in tree.nodes.iter().enumerate() {
        let RawData::Element { local, attrs, .. } = &node.data else {
            continue;
        };
        let id = crate::node::to_u32(id);
        if &**local == "template" {
            if let Some(n) = numbered_id(attrs, "B:") {
                templates.push((n, id));
            }
        } else if &**local == "div"
            && attrs.iter().any(|a| &*a.name.local == "hidden")
            && let Some(n) = numbered_id(attrs, "S:")
        {
            segments.push((n, id));
        }
    }
    if templates.is_empty() {
        return;
    }
    // The first placeholder of each number counts, as `getElementById` finds it.
    templates.sort_unstable();
    let mut first = templates.clone();
    first.dedup_by_key(|&mut (n, _)| n);
    for (n, segment) in segments {
        let Ok(t) = first.binary_search_by_key(&n, |&(n, _)| n) else {
            continue;
        };
        let template = first[t].1;
        if tree.nodes[template as usize].parent == NONE || is_inside(tree, template, segment) {
            continue;
        }
        let mut child = tree.nodes[segment as usize].first_child;
        while child != NONE {
            let next = tree.nodes[child as usize].next_sibling;
            tree.detach(child);
            tree.link_before(template, child);
            child = next;
        }
        tree.detach(segment);
    }
    for (_, template) in templates {
        tree.detach(template);
    }
}

/// Whether `node` lies inside `ancestor`'s subtree (moving `ancestor` before it would cut it
/// from the document).
fn is_inside(tree: &RawTree, node: u32, ancestor: u32) -> bool {
    let mut at = tree.nodes[node as usize].parent;
    while at != NONE {
        if at == ancestor {
            return true;
        }
        at = tree.nodes[at as usize].parent;
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::{Document, SanitizeConfig};

    fn body_text(html: &str) -> String {
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        let text: Vec<&str> = doc.nodes().filter_map(|n| n.text()).collect();
        text.join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn streamed_content_takes_its_placeholders_place() {
        let html = r#"<body><header>Shop</header><main><h1>Keyboard</h1>
            <!--$?--><template id="B:0"></template><p>Loading</p><!--/$-->
            <!--$?--><template id="B:1"></template><!--/$--></main>
            <footer>Terms</footer>
            <div hidden id="S:1"><p>Reviews here.</p></div>
            <script>$RC("B:1","S:1")</script>
            <div hidden id="S:0"><table><tr><td>Weight</td><td>653 g</td></tr></table></div>
            <script>$RC("B:0","S:0")</script></body>"#;
        assert_eq!(
            body_text(html),
            "Shop Keyboard Weight 653 g Loading Reviews here. Terms"
        );
    }

    #[test]
    fn a_segment_without_its_template_and_other_templates_are_left_alone() {
        let html = r#"<body><p>Before</p><template id="x"><p>inert</p></template>
            <div hidden id="S:4"><p>Orphan</p></div><div hidden id="S:x"><p>Other</p></div></body>"#;
        assert_eq!(body_text(html), "Before Orphan Other");
        let plain = "<body><p>Before</p><div hidden id=\"S:4\"><p>Orphan</p></div></body>";
        assert_eq!(body_text(plain), "Before Orphan");
    }

    #[test]
    fn a_template_inside_its_own_segment_moves_nothing() {
        let html = r#"<body><p>A</p><div hidden id="S:0"><p>B</p><template id="B:0"></template></div></body>"#;
        assert_eq!(body_text(html), "A B");
    }

    #[test]
    fn every_boundary_template_goes_even_when_numbers_repeat() {
        let html = r#"<body><p>A</p><template id="B:0"></template><p>B</p><template id="B:0"></template>
            <div hidden id="S:0"><p>C</p></div></body>"#;
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        assert!(!doc.nodes().any(|n| n.name() == Some("template")));
        assert_eq!(body_text(html), "A C B");
    }
}

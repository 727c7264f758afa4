//! Content streamed in by React's server rendering, put where the page shows it.
//!
//! A page rendered with React 18's streaming (Next.js and others) sends a placeholder where a
//! suspended part of the page goes, `<template id="B:0"></template>` among its fallback (a
//! spinner, a skeleton), and that part's content later in the body inside `<div hidden
//! id="S:0">`, followed by a script (`$RC("B:0","S:0")`) that moves the content to the
//! placeholder and removes the fallback; a part without fallback has a `<template id="P:5">`
//! and the script `$RS("S:5","P:5")`. The three kinds of id count from one counter of segments
//! (in hexadecimal: `S:a`), so a segment's placeholder is the `B:` or `P:` template with its
//! number. A browser's reader sees the content in its place; a parse without scripts sees it
//! hidden after the footer. [`put_streamed_content_in_place`] does the scripts' move without
//! them (archives often lose inline scripts): the children of each `S:n` go right before the
//! `B:n` or `P:n` template, the emptied `div` goes, and so does every such template. A fallback
//! stays (it sits between comments that the sanitiser has already dropped): mostly a "Loading"
//! or a skeleton without words, but on some pages a menu (Vercel's home page has 39).

use html5ever::Attribute;

use crate::node::NONE;
use crate::raw::{RawData, RawTree};

/// The segment number `n` of an `id` attribute `{prefix}n` (`B:3`, `S:a`), if it is one: ASCII
/// letters and digits after one of `prefixes`.
fn segment_id<'a>(attrs: &'a [Attribute], prefixes: &[&str]) -> Option<&'a str> {
    let id = attrs.iter().find(|a| &*a.name.local == "id")?;
    let number = prefixes.iter().find_map(|p| id.value.strip_prefix(p))?;
    (!number.is_empty() && number.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(number)
}

/// The prefixes of a placeholder's id: a boundary's (`$RC`) or a segment's (`$RS`).
const PLACEHOLDERS: [&str; 2] = ["B:", "P:"];

/// Whether a `<template>` with these attributes is a streamed segment's placeholder (`id="B:n"`
/// or `id="P:n"`), which the sink keeps until [`put_streamed_content_in_place`] has used it.
pub(crate) fn is_placeholder_template(attrs: &[Attribute]) -> bool {
    segment_id(attrs, &PLACEHOLDERS).is_some()
}

/// Moves the content of every `<div hidden id="S:n">` to its `<template id="B:n">` (or
/// `P:n`), then removes the placeholder templates and the emptied `div`s; a `div` without its
/// template stays where it is.
pub(crate) fn put_streamed_content_in_place(tree: &mut RawTree) {
    let mut templates = Vec::new();
    let mut segments = Vec::new();
    for (id, node) in tree.nodes.iter().enumerate() {
        let RawData::Element { local, attrs, .. } = &node.data else {
            continue;
        };
        let id = crate::node::to_u32(id);
        if &**local == "template" {
            if let Some(n) = segment_id(attrs, &PLACEHOLDERS) {
                templates.push((n.to_owned(), id));
            }
        } else if &**local == "div"
            && attrs.iter().any(|a| &*a.name.local == "hidden")
            && let Some(n) = segment_id(attrs, &["S:"])
        {
            segments.push((n.to_owned(), id));
        }
    }
    // By number, then by arena order: the first placeholder of each number counts, as
    // `getElementById` finds it.
    templates.sort_unstable();
    for (n, segment) in segments {
        let t = templates.partition_point(|(m, _)| *m < n);
        let Some(&(_, template)) = templates.get(t).filter(|(m, _)| *m == n) else {
            continue;
        };
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
    fn segments_go_to_placeholders_of_either_kind_numbered_in_hexadecimal() {
        let html = r#"<body><h1>Docs</h1><template id="P:a"></template><p>Middle</p>
            <!--$?--><template id="B:1f"></template><!--/$--><footer>End</footer>
            <div hidden id="S:1f"><p>Second part.</p></div><div hidden id="S:a"><p>First part.</p></div></body>"#;
        assert_eq!(body_text(html), "Docs First part. Middle Second part. End");
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

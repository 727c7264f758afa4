//! Malformed HTML is repaired as a browser repairs it.

use dbce_dom::{Document, NodeRef, SanitizeConfig};

fn parse(html: &str) -> Document {
    Document::parse(html, &SanitizeConfig::default()).expect("HTML parses")
}

/// The body as nested S-expressions: `(p "a" (b "c"))`.
fn outline(node: NodeRef<'_>) -> String {
    // An explicit stack: the pages here are small, but this crate never recurses.
    let mut out = String::new();
    let mut stack = vec![(node, false)];
    while let Some((n, closing)) = stack.pop() {
        if closing {
            out.push(')');
            continue;
        }
        if !out.is_empty() && !out.ends_with('(') {
            out.push(' ');
        }
        if let Some(text) = n.text() {
            out.push_str(&format!("{text:?}"));
            continue;
        }
        out.push('(');
        out.push_str(n.name().unwrap_or("[document]"));
        stack.push((n, true));
        let children: Vec<_> = n.children().collect();
        stack.extend(children.into_iter().rev().map(|c| (c, false)));
    }
    out
}

fn body(html: &str) -> String {
    let doc = parse(html);
    outline(doc.body().expect("a body"))
}

#[test]
fn unclosed_tags_are_closed() {
    assert_eq!(
        body("<p>one<p>two<ul><li>a<li>b</ul><div><span>x"),
        r#"(body (p "one") (p "two") (ul (li "a") (li "b")) (div (span "x")))"#
    );
}

#[test]
fn stray_end_tags_are_ignored() {
    let doc = parse("</div></span><p>a</i></b>b</p></p>");
    assert_eq!(outline(doc.body().unwrap()), r#"(body (p "ab") (p))"#);
    assert!(doc.report().parse_errors > 0);
}

#[test]
fn misnested_formatting_uses_the_adoption_agency() {
    assert_eq!(
        body("<b>1<p>2</b>3</p>"),
        r#"(body (b "1") (p (b "2") "3"))"#
    );
}

#[test]
fn text_in_tables_is_foster_parented() {
    assert_eq!(
        body("<table>lost?<tr><td>cell</table>"),
        r#"(body "lost?" (table (tbody (tr (td "cell")))))"#
    );
}

#[test]
fn tables_get_their_implied_elements() {
    assert_eq!(
        body("<table><td>a<td>b<tr><th>c</table>"),
        r#"(body (table (tbody (tr (td "a") (td "b")) (tr (th "c")))))"#
    );
}

#[test]
fn content_after_the_end_is_moved_into_the_body() {
    let doc = parse("<html><body><p>a</p></body></html><p>b</p><!-- end -->");
    assert_eq!(outline(doc.body().unwrap()), r#"(body (p "a") (p "b"))"#);
    assert_eq!(
        outline(doc.root()),
        r#"([document] (html (head) (body (p "a") (p "b"))))"#
    );
}

#[test]
fn truncated_markup_does_not_fail() {
    for html in [
        "<div class=\"x",
        "<p>a<!-- open",
        "<scr",
        "<",
        "&am",
        "<table><tr><td",
    ] {
        let doc = parse(html);
        assert!(doc.body().is_some(), "{html}");
    }
}

//! Writing a subtree back out as HTML, with a hook for text nodes.

use crate::document::{Document, NodeRef};
use crate::node::{NodeId, NodeKind};

/// Elements written without an end tag.
fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "source"
            | "track"
            | "wbr"
    )
}

/// Appends `text` to `out` escaped for HTML character data (`&`, `<`, `>`).
pub fn escape_text(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

/// Appends `value` to `out` escaped for a double-quoted attribute value (`&`, `"`, `<`, `>`).
pub fn escape_attr(value: &str, out: &mut String) {
    for c in value.chars() {
        match c {
            '"' => out.push_str("&quot;"),
            c => escape_text(c.encode_utf8(&mut [0; 4]), out),
        }
    }
}

impl Document {
    /// Appends the HTML of `node` and everything inside it to `out`: elements with their
    /// attributes (double-quoted, escaped), void elements without end tags; each text node is
    /// handed to `text`, which writes it (escaped with [`escape_text`], or marked up). The walk
    /// does not recurse, so any depth is fine.
    pub fn write_html(
        &self,
        node: NodeRef<'_>,
        out: &mut String,
        mut text: impl FnMut(NodeId, &str, &mut String),
    ) {
        // Open elements: (one past their last node, name).
        let mut open: Vec<(u32, &str)> = Vec::new();
        for id in node.id().get()..node.end() {
            while let Some(&(end, name)) = open.last() {
                if id < end {
                    break;
                }
                open.pop();
                close(name, out);
            }
            let Some(current) = self.get(NodeId::new(id)) else {
                break;
            };
            match current.kind() {
                NodeKind::Document => {}
                NodeKind::Text => text(current.id(), current.text().unwrap_or_default(), out),
                NodeKind::Element => {
                    let name = current.name().unwrap_or_default();
                    out.push('<');
                    out.push_str(name);
                    for (key, value) in current.attrs() {
                        out.push(' ');
                        out.push_str(key);
                        out.push_str("=\"");
                        escape_attr(value, out);
                        out.push('"');
                    }
                    out.push('>');
                    if !is_void(name) {
                        open.push((current.end(), name));
                    }
                }
            }
        }
        while let Some((_, name)) = open.pop() {
            close(name, out);
        }
    }
}

fn close(name: &str, out: &mut String) {
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SanitizeConfig;

    #[test]
    fn round_trips_structure_and_escapes() {
        let doc = Document::parse(
            "<body><p class='a\"b'>x &amp; y<br><img src=i.png>z</p><ul><li>1<li>2</ul></body>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let mut out = String::new();
        let body = doc.body().unwrap();
        doc.write_html(body, &mut out, |_, t, out| escape_text(t, out));
        assert_eq!(
            out,
            "<body><p class=\"a&quot;b\">x &amp; y<br><img src=\"i.png\">z</p>\
             <ul><li>1</li><li>2</li></ul></body>"
        );
    }

    #[test]
    fn text_hook_sees_every_text_node() {
        let doc = Document::parse("<p>a<b>b</b>c</p>", &SanitizeConfig::default()).unwrap();
        let mut out = String::new();
        doc.write_html(doc.body().unwrap(), &mut out, |_, t, out| {
            out.push('[');
            out.push_str(t);
            out.push(']');
        });
        assert_eq!(out, "<body><p>[a]<b>[b]</b>[c]</p></body>");
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let html = "<div>".repeat(4_000) + "x";
        let doc = Document::parse(&html, &SanitizeConfig::default()).unwrap();
        let mut out = String::new();
        doc.write_html(doc.root(), &mut out, |_, t, out| escape_text(t, out));
        assert!(out.contains('x'));
        assert!(out.ends_with("</body></html>"));
    }
}

//! The sanitised DOM arena and read access to its nodes.

use std::fmt;

use crate::node::{AttrSpan, Layer, NONE, Node, NodeId, NodeKind};
use crate::report::ParseReport;

/// A parsed and sanitised HTML page: a flat arena of nodes in document order.
///
/// Built by [`Document::parse`]. Every node is reached through a [`NodeRef`]; ids are dense and
/// follow document order, so a subtree is a contiguous id range and no walk needs recursion.
/// Dropping a document frees four buffers.
#[derive(Debug, Clone)]
pub struct Document {
    pub(crate) nodes: Vec<Node>,
    pub(crate) attrs: Vec<AttrSpan>,
    /// Content of all text nodes, in document order.
    pub(crate) text: String,
    /// Element names, attribute names and attribute values.
    pub(crate) names: String,
    pub(crate) report: ParseReport,
}

impl Document {
    /// The document node.
    pub fn root(&self) -> NodeRef<'_> {
        NodeRef {
            doc: self,
            id: NodeId::ROOT,
        }
    }

    /// The node `id`, if this document has it.
    pub fn get(&self, id: NodeId) -> Option<NodeRef<'_>> {
        (id.index() < self.nodes.len()).then_some(NodeRef { doc: self, id })
    }

    /// Number of nodes, the document node included.
    pub fn len(&self) -> u32 {
        crate::node::to_u32(self.nodes.len())
    }

    /// Whether the document holds nothing but the document node.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// Every node in document order, starting with the document node.
    pub fn nodes(&self) -> impl Iterator<Item = NodeRef<'_>> {
        (0..self.len()).map(|i| NodeRef {
            doc: self,
            id: NodeId::new(i),
        })
    }

    /// Text of the first `<title>`, trimmed; `None` if there is none or it is blank.
    pub fn title(&self) -> Option<&str> {
        let title = self.nodes().find(|n| n.is_element("title"))?;
        let text = title.children().find_map(NodeRef::text)?.trim();
        (!text.is_empty()).then_some(text)
    }

    /// The `<body>` element (or `<frameset>`), if the page has one.
    pub fn body(&self) -> Option<NodeRef<'_>> {
        let html = self.root().children().find(|n| n.is_element("html"))?;
        html.children()
            .find(|n| n.is_element("body") || n.is_element("frameset"))
    }

    /// What sanitising dropped, unwrapped and repaired.
    pub fn report(&self) -> &ParseReport {
        &self.report
    }

    fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }
}

/// A node of a [`Document`]: its id and the document, for reading it and moving around.
#[derive(Clone, Copy)]
pub struct NodeRef<'a> {
    doc: &'a Document,
    id: NodeId,
}

impl<'a> NodeRef<'a> {
    /// The node's id.
    pub fn id(self) -> NodeId {
        self.id
    }

    /// What the node is.
    pub fn kind(self) -> NodeKind {
        self.node().kind
    }

    /// Lowercase local name of an element; `None` for the document and text.
    pub fn name(self) -> Option<&'a str> {
        let node = self.node();
        (node.kind == NodeKind::Element).then(|| node.data.get(&self.doc.names))
    }

    /// Whether this is an element named `name` (lowercase).
    pub fn is_element(self, name: &str) -> bool {
        self.name() == Some(name)
    }

    /// Content of a text node; `None` for the document and elements.
    pub fn text(self) -> Option<&'a str> {
        let node = self.node();
        (node.kind == NodeKind::Text).then(|| node.data.get(&self.doc.text))
    }

    /// Value of the attribute `name` (lowercase) of an element.
    pub fn attr(self, name: &str) -> Option<&'a str> {
        self.attrs().find(|&(n, _)| n == name).map(|(_, v)| v)
    }

    /// Names and values of an element's attributes, in source order, each name once: the
    /// parser keeps the first of repeated attributes, as HTML5 says (and a later `<html>` or
    /// `<body>` tag adds only the names its element lacks).
    pub fn attrs(self) -> impl Iterator<Item = (&'a str, &'a str)> + use<'a> {
        let doc = self.doc;
        let range = self.node().attrs;
        doc.attrs[range.start as usize..range.end as usize]
            .iter()
            .map(|a| (a.name.get(&doc.names), a.value.get(&doc.names)))
    }

    /// The parent; `None` for the document node.
    pub fn parent(self) -> Option<NodeRef<'a>> {
        self.at(self.node().parent)
    }

    /// The children, in document order.
    pub fn children(self) -> Children<'a> {
        let first = self.id.get() + 1;
        Children {
            doc: self.doc,
            next: if first < self.node().end { first } else { NONE },
        }
    }

    /// Parent, grandparent and so on up to the document node.
    pub fn ancestors(self) -> Ancestors<'a> {
        Ancestors {
            doc: self.doc,
            next: self.node().parent,
        }
    }

    /// Every node inside this one, in document order.
    pub fn descendants(self) -> impl DoubleEndedIterator<Item = NodeRef<'a>> + use<'a> {
        let doc = self.doc;
        (self.id.get() + 1..self.node().end).map(move |i| NodeRef {
            doc,
            id: NodeId::new(i),
        })
    }

    /// The element's layer (thesis §2.2); `None` for the document and text.
    pub fn layer(self) -> Option<Layer> {
        let node = self.node();
        (node.kind == NodeKind::Element).then(|| Layer::new(node.depth - 1))
    }

    /// Distance from the document node: 0 for the document, 1 for `<html>`.
    pub fn depth(self) -> u32 {
        self.node().depth
    }

    /// The document the node belongs to.
    pub(crate) fn document(self) -> &'a Document {
        self.doc
    }

    /// One past the id of the last node inside this one: the node and its descendants are the
    /// ids `id().get()..end()`, so a walk in document order skips a subtree by going on at
    /// `end()`.
    pub fn end(self) -> u32 {
        self.node().end
    }

    fn node(self) -> &'a Node {
        self.doc.node(self.id)
    }

    fn at(self, id: u32) -> Option<NodeRef<'a>> {
        (id != NONE).then(|| NodeRef {
            doc: self.doc,
            id: NodeId::new(id),
        })
    }
}

impl fmt::Debug for NodeRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("NodeRef");
        s.field("id", &self.id).field("kind", &self.kind());
        if let Some(name) = self.name() {
            s.field("name", &name);
        }
        if let Some(text) = self.text() {
            s.field("text", &text);
        }
        s.finish()
    }
}

/// Iterator over a node's children, from [`NodeRef::children`].
#[derive(Debug, Clone)]
pub struct Children<'a> {
    doc: &'a Document,
    next: u32,
}

impl<'a> Iterator for Children<'a> {
    type Item = NodeRef<'a>;

    fn next(&mut self) -> Option<NodeRef<'a>> {
        let node = self.doc.get(NodeId::new(self.next))?;
        self.next = node.node().next_sibling;
        Some(node)
    }
}

/// Iterator from a node's parent up to the document node, from [`NodeRef::ancestors`].
#[derive(Debug, Clone)]
pub struct Ancestors<'a> {
    doc: &'a Document,
    next: u32,
}

impl<'a> Iterator for Ancestors<'a> {
    type Item = NodeRef<'a>;

    fn next(&mut self) -> Option<NodeRef<'a>> {
        let node = self.doc.get(NodeId::new(self.next))?;
        self.next = node.node().parent;
        Some(node)
    }
}

/// Whether an inline `style` hides its element: a declaration that reads `display:none` or
/// `visibility:hidden` once its whitespace is removed and its letters lowercased, with or
/// without `!important` (readability's `displayNoneRe`, and what dbce reads of hiding without
/// a CSS engine).
pub fn style_hides(style: &str) -> bool {
    style.split(';').any(|decl| {
        let decl: String = decl
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        let decl = decl.strip_suffix("!important").unwrap_or(&decl);
        decl == "display:none" || decl == "visibility:hidden"
    })
}

#[cfg(test)]
mod tests {
    use crate::{Document, NodeId, NodeKind, SanitizeConfig, style_hides};

    #[test]
    fn styles_that_hide_are_recognised() {
        assert!(style_hides("color: red; display : none !important"));
        assert!(style_hides("visibility:hidden"));
        assert!(!style_hides("display: block"));
    }

    fn parse(html: &str) -> Document {
        Document::parse(html, &SanitizeConfig::default()).unwrap()
    }

    #[test]
    fn an_element_has_each_attribute_name_once_the_first_kept() {
        let doc = parse(
            "<html lang=en><body class=a><div class=x ID=y Class=z id=w>t</div>\
             <html lang=de dir=ltr><body class=b id=c>",
        );
        let names = |name: &str| {
            let node = doc.nodes().find(|n| n.is_element(name)).unwrap();
            node.attrs().collect::<Vec<_>>()
        };
        assert_eq!(names("div"), [("class", "x"), ("id", "y")]);
        assert_eq!(names("html"), [("lang", "en"), ("dir", "ltr")]);
        assert_eq!(names("body"), [("class", "a"), ("id", "c")]);
    }

    #[test]
    fn navigation_follows_document_order() {
        let doc = parse("<ul id=m><li>a</li><li>b<b>c</b></li></ul>");
        let ul = doc.nodes().find(|n| n.is_element("ul")).unwrap();
        assert_eq!(ul.attr("id"), Some("m"));
        assert_eq!(ul.attr("class"), None);
        let items: Vec<_> = ul.children().collect();
        assert_eq!(items.len(), 2);
        assert!(
            items
                .iter()
                .all(|li| li.parent().map(|p| p.id()) == Some(ul.id()))
        );
        let inside: Vec<_> = ul.descendants().map(|n| n.id().get()).collect();
        let expected: Vec<_> = (ul.id().get() + 1..ul.id().get() + 7).collect();
        assert_eq!(inside, expected);
        let b = doc.nodes().find(|n| n.is_element("b")).unwrap();
        let up: Vec<_> = b
            .ancestors()
            .map(|n| n.name().unwrap_or("[document]"))
            .collect();
        assert_eq!(up, ["li", "ul", "body", "html", "[document]"]);
        assert_eq!(b.depth(), 5);
        assert_eq!(b.layer().map(|l| l.get()), Some(4));
    }

    #[test]
    fn kinds_and_lookups() {
        let doc = parse("<p>t</p>");
        assert_eq!(doc.root().kind(), NodeKind::Document);
        assert_eq!(doc.root().parent().map(|p| p.id()), None);
        assert!(doc.get(NodeId::new(doc.len())).is_none());
        assert!(!doc.is_empty());
        let text = doc.nodes().find(|n| n.kind() == NodeKind::Text).unwrap();
        assert_eq!(text.text(), Some("t"));
        assert_eq!(text.name(), None);
        assert_eq!(text.layer(), None);
        assert_eq!(text.children().count(), 0);
        assert!(format!("{text:?}").contains("\"t\""));
    }

    #[test]
    fn empty_input_still_has_the_skeleton() {
        let doc = parse("");
        let names: Vec<_> = doc.nodes().filter_map(|n| n.name()).collect();
        assert_eq!(names, ["html", "head", "body"]);
        assert_eq!(doc.visible_text(), "");
    }
}

//! Ids and the stored form of one node of the arena.

use std::fmt;

/// Index of a node in a [`crate::Document`].
///
/// Ids follow document order (a pre-order walk): the document node is [`NodeId::ROOT`], a node's
/// descendants directly follow it, and every node has a larger id than its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NodeId(u32);

impl NodeId {
    /// The document node, root of every tree.
    pub const ROOT: NodeId = NodeId(0);

    /// The id with this index.
    pub const fn new(index: u32) -> Self {
        Self(index)
    }

    /// The index of this id in document order.
    pub const fn get(self) -> u32 {
        self.0
    }

    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Layer of an element, the `level` of thesis Listings 2.6 and 2.7: how many element ancestors
/// it has. `<html>` is in layer 0, `<head>` and `<body>` in layer 1.
///
/// Figure 2.5 and Listing 2.3 of the thesis number the same layers from 1 (`<html>` on line 1);
/// the tokens of Listing 2.7 use the 0-based number kept here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Layer(u32);

impl Layer {
    /// The layer with this number.
    pub const fn new(level: u32) -> Self {
        Self(level)
    }

    /// The layer number, 0 for `<html>`.
    pub const fn get(self) -> u32 {
        self.0
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a node is. Comments, doctypes and processing instructions are not kept (thesis §2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// The document node, named `[document]` in template tokens.
    Document,
    /// An element, with a lowercase local name and its attributes.
    Element,
    /// Character data. Adjacent text is always merged into one node.
    Text,
}

/// Marks an absent link in [`Node`].
pub(crate) const NONE: u32 = u32::MAX;

/// A byte range of one of the document's string buffers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Span {
    pub(crate) fn new(start: usize, end: usize) -> Span {
        Span {
            start: to_u32(start),
            end: to_u32(end),
        }
    }

    pub(crate) fn get(self, buf: &str) -> &str {
        buf.get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }
}

/// Buffers are limited to `u32::MAX` bytes by [`crate::SanitizeConfig::max_input_bytes`].
pub(crate) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// One node as stored in the arena: plain data, so dropping a document frees a few buffers and
/// walks nothing.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub(crate) kind: NodeKind,
    /// Parent id, [`NONE`] for the document.
    pub(crate) parent: u32,
    /// Next sibling id, or [`NONE`].
    pub(crate) next_sibling: u32,
    /// One past the last descendant: the subtree is `id..end`.
    pub(crate) end: u32,
    /// Distance from the document node, which is at depth 0.
    pub(crate) depth: u32,
    /// Name of an element (in `Document::names`) or content of a text node (in `Document::text`).
    pub(crate) data: Span,
    /// Range of `Document::attrs` holding an element's attributes.
    pub(crate) attrs: Span,
}

/// One attribute: name and value, both in `Document::names`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AttrSpan {
    pub(crate) name: Span,
    pub(crate) value: Span,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_display_and_order() {
        assert_eq!(NodeId::new(3).to_string(), "#3");
        assert!(NodeId::ROOT < NodeId::new(1));
        assert_eq!(Layer::new(2).get(), 2);
        assert_eq!(Layer::new(2).to_string(), "2");
    }

    #[test]
    fn span_reads_its_range() {
        let buf = String::from("abcde");
        let s = Span::new(2, buf.len());
        assert_eq!(s.get(&buf), "cde");
        assert_eq!(Span::default().get(&buf), "");
    }
}

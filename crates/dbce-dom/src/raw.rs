//! The tree as html5ever builds it, before sanitising: a flat arena with sibling links.

use html5ever::tendril::StrTendril;
use html5ever::{Attribute, LocalName};

use crate::node::NONE;

/// One node as the parser built it.
pub(crate) struct RawNode {
    pub(crate) parent: u32,
    pub(crate) first_child: u32,
    pub(crate) last_child: u32,
    pub(crate) prev_sibling: u32,
    pub(crate) next_sibling: u32,
    /// Distance from the root of the tree the node was last linked into.
    pub(crate) depth: u32,
    pub(crate) data: RawData,
}

/// Content of a [`RawNode`]. Dropped elements and comments never become raw nodes.
pub(crate) enum RawData {
    Document,
    Element {
        /// The local name; the namespace only matters to the rules, applied at creation.
        local: LocalName,
        attrs: Vec<Attribute>,
        /// Nothing may be appended (`<svg>`).
        empty: bool,
        /// Its start tag makes the parser scan the stack of open elements.
        scans: bool,
    },
    /// A text node: its first piece, and the first and last of the pieces the parser appended
    /// to it since (in [`RawTree::pieces`], `NONE` when there are none). Pieces are kept apart
    /// rather than copied together, as [`crate::compact`] copies the text once anyway.
    Text {
        first: StrTendril,
        more: u32,
        last: u32,
    },
}

/// A piece of text appended to a text node, and the next piece of that node (`NONE`: none).
pub(crate) struct Piece {
    text: StrTendril,
    next: u32,
}

/// The arena the parser fills. Node 0 is the document.
pub(crate) struct RawTree {
    pub(crate) nodes: Vec<RawNode>,
    pieces: Vec<Piece>,
    /// Bytes of all text stored, and of all element names, attribute names and values: what
    /// [`crate::compact`] copies at most, so it can make room once.
    pub(crate) text_bytes: usize,
    pub(crate) name_bytes: usize,
}

impl RawTree {
    pub(crate) fn new() -> Self {
        Self {
            nodes: vec![RawNode::new(RawData::Document)],
            pieces: Vec::new(),
            text_bytes: 0,
            name_bytes: 0,
        }
    }

    /// Adds a text node holding `text`; returns its id.
    pub(crate) fn push_text(&mut self, text: StrTendril) -> u32 {
        self.text_bytes += text.len();
        self.push(RawData::Text {
            first: text,
            more: NONE,
            last: NONE,
        })
    }

    pub(crate) fn push(&mut self, data: RawData) -> u32 {
        if let RawData::Element { local, attrs, .. } = &data {
            self.name_bytes += local.len() + attr_bytes(attrs);
        }
        self.nodes.push(RawNode::new(data));
        crate::node::to_u32(self.nodes.len() - 1)
    }

    pub(crate) fn get(&self, id: u32) -> Option<&RawNode> {
        self.nodes.get(id as usize)
    }

    /// Whether `id` can take children: the document or a non-empty element.
    pub(crate) fn accepts_children(&self, id: u32) -> bool {
        matches!(
            self.get(id).map(|n| &n.data),
            Some(RawData::Document | RawData::Element { empty: false, .. })
        )
    }

    /// Appends `text` to node `id` if it is a text node; gives `text` back if it is not. Once
    /// the tree holds `max_pieces` pieces, text is copied onto the node's last piece instead,
    /// so that input made of many tiny pieces (`&amp;&amp;…`, `\r\n\r\n…`) cannot take
    /// more memory than the node limit allows.
    pub(crate) fn append_to_text(
        &mut self,
        id: u32,
        text: StrTendril,
        max_pieces: usize,
    ) -> Result<(), StrTendril> {
        let piece = crate::node::to_u32(self.pieces.len());
        let room = self.pieces.len() < max_pieces;
        let len = text.len();
        match self.nodes.get_mut(id as usize).map(|n| &mut n.data) {
            Some(RawData::Text { first, last, .. }) if !room && *last == NONE => {
                first.push_tendril(&text);
            }
            Some(RawData::Text { last, .. }) if !room => {
                self.pieces[*last as usize].text.push_tendril(&text);
            }
            Some(RawData::Text { more, last, .. }) => {
                let before = std::mem::replace(last, piece);
                if before == NONE {
                    *more = piece;
                } else {
                    self.pieces[before as usize].next = piece;
                }
                self.pieces.push(Piece { text, next: NONE });
            }
            _ => return Err(text),
        }
        self.text_bytes += len;
        Ok(())
    }

    /// The pieces of text after the first one of a text node, from the first appended, `more`.
    pub(crate) fn pieces(&self, more: u32) -> impl Iterator<Item = &str> {
        std::iter::successors(self.pieces.get(more as usize), |p| {
            self.pieces.get(p.next as usize)
        })
        .map(|p| &*p.text)
    }

    /// Whether `id` is an element whose start tag scans the stack and that is deeper than
    /// `max_depth`.
    pub(crate) fn scans_deeper_than(&self, id: u32, max_depth: u32) -> bool {
        self.get(id).is_some_and(|n| {
            n.depth > max_depth && matches!(n.data, RawData::Element { scans: true, .. })
        })
    }

    /// Unlinks `id` from its parent and siblings.
    pub(crate) fn detach(&mut self, id: u32) {
        let node = &mut self.nodes[id as usize];
        let (parent, prev, next) = (node.parent, node.prev_sibling, node.next_sibling);
        node.parent = NONE;
        node.prev_sibling = NONE;
        node.next_sibling = NONE;
        if prev != NONE {
            self.nodes[prev as usize].next_sibling = next;
        } else if parent != NONE {
            self.nodes[parent as usize].first_child = next;
        }
        if next != NONE {
            self.nodes[next as usize].prev_sibling = prev;
        } else if parent != NONE {
            self.nodes[parent as usize].last_child = prev;
        }
    }

    /// Makes the detached node `child` the last child of `parent`.
    pub(crate) fn link_last(&mut self, parent: u32, child: u32) {
        let (last, depth) = {
            let p = &self.nodes[parent as usize];
            (p.last_child, p.depth + 1)
        };
        let node = &mut self.nodes[child as usize];
        node.parent = parent;
        node.depth = depth;
        node.prev_sibling = last;
        if last == NONE {
            self.nodes[parent as usize].first_child = child;
        } else {
            self.nodes[last as usize].next_sibling = child;
        }
        self.nodes[parent as usize].last_child = child;
    }

    /// Puts the detached node `child` right before `sibling`, which has a parent.
    pub(crate) fn link_before(&mut self, sibling: u32, child: u32) {
        let (parent, prev, depth) = {
            let s = &self.nodes[sibling as usize];
            (s.parent, s.prev_sibling, s.depth)
        };
        let node = &mut self.nodes[child as usize];
        node.parent = parent;
        node.depth = depth;
        node.prev_sibling = prev;
        node.next_sibling = sibling;
        self.nodes[sibling as usize].prev_sibling = child;
        if prev == NONE {
            self.nodes[parent as usize].first_child = child;
        } else {
            self.nodes[prev as usize].next_sibling = child;
        }
    }
}

/// Bytes of the names and values of `attrs`.
pub(crate) fn attr_bytes(attrs: &[Attribute]) -> usize {
    attrs
        .iter()
        .map(|a| a.name.local.len() + a.value.len())
        .sum()
}

impl RawNode {
    fn new(data: RawData) -> Self {
        Self {
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev_sibling: NONE,
            next_sibling: NONE,
            depth: 0,
            data,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn children(tree: &RawTree, parent: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut c = tree.nodes[parent as usize].first_child;
        while c != NONE {
            out.push(c);
            c = tree.nodes[c as usize].next_sibling;
        }
        out
    }

    #[test]
    fn link_and_detach_keep_sibling_lists_consistent() {
        let mut tree = RawTree::new();
        let a = tree.push_text("a".into());
        let b = tree.push_text("b".into());
        let c = tree.push_text("c".into());
        tree.link_last(0, a);
        tree.link_last(0, c);
        tree.link_before(c, b);
        assert_eq!(children(&tree, 0), [a, b, c]);
        assert_eq!(tree.nodes[b as usize].depth, 1);
        tree.detach(b);
        assert_eq!(children(&tree, 0), [a, c]);
        tree.detach(a);
        tree.detach(c);
        assert!(children(&tree, 0).is_empty());
        assert_eq!(tree.nodes[0].last_child, NONE);
    }

    #[test]
    fn text_pieces_come_back_in_the_order_appended() {
        let mut tree = RawTree::new();
        let a = tree.push_text("one".into());
        let b = tree.push_text("two".into());
        let c = tree.push_text("three".into());
        // Room for three pieces: the later ones are copied onto the last piece, or onto the
        // first when the node has no piece.
        let appended = [
            (a, " 1a"),
            (b, " 2a"),
            (a, " 1b"),
            (a, " 1c"),
            (b, " 2b"),
            (c, " 3a"),
        ];
        for (id, piece) in appended {
            assert!(tree.append_to_text(id, piece.into(), 3).is_ok());
        }
        assert_eq!(tree.pieces.len(), 3);
        let element = tree.push(RawData::Document);
        assert!(tree.append_to_text(element, "x".into(), 3).is_err());
        assert!(tree.append_to_text(NONE, "x".into(), 3).is_err());
        let text = |id: u32| match &tree.nodes[id as usize].data {
            RawData::Text { first, more, .. } => std::iter::once(&**first)
                .chain(tree.pieces(*more))
                .collect::<String>(),
            _ => String::new(),
        };
        assert_eq!(text(a), "one 1a 1b 1c");
        assert_eq!(text(b), "two 2a 2b");
        assert_eq!(text(c), "three 3a");
        assert_eq!(tree.text_bytes, "one 1a 1b 1ctwo 2a 2bthree 3a".len());
    }
}

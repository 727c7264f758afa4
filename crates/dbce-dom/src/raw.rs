//! The tree as html5ever builds it, before sanitising: a flat arena with sibling links.

use html5ever::tendril::StrTendril;
use html5ever::{Attribute, QualName};

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
        name: QualName,
        attrs: Vec<Attribute>,
        /// Nothing may be appended (`<svg>`).
        empty: bool,
        /// Its start tag makes the parser scan the stack of open elements.
        scans: bool,
    },
    Text(StrTendril),
}

/// The arena the parser fills. Node 0 is the document.
pub(crate) struct RawTree {
    pub(crate) nodes: Vec<RawNode>,
}

impl RawTree {
    pub(crate) fn new() -> Self {
        Self {
            nodes: vec![RawNode::new(RawData::Document)],
        }
    }

    pub(crate) fn push(&mut self, data: RawData) -> u32 {
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

    /// The text node `id`, if it is one.
    pub(crate) fn text_mut(&mut self, id: u32) -> Option<&mut StrTendril> {
        match self.nodes.get_mut(id as usize).map(|n| &mut n.data) {
            Some(RawData::Text(text)) => Some(text),
            _ => None,
        }
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
        let a = tree.push(RawData::Text("a".into()));
        let b = tree.push(RawData::Text("b".into()));
        let c = tree.push(RawData::Text("c".into()));
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
}

//! The layer view of thesis §2.2, Listing 2.6: for each layer, groups of sibling elements.
//!
//! Listing 2.6 (`get_layers`/`dfs`) visits every non-text node `P` at depth `level` (the
//! document at 0) and records the list of `P`'s element children as one *group* of layer
//! `level`. A node without element children still records an empty group, and both lists are
//! built by `insert(0, …)`, so a layer lists its groups in reverse document order of their
//! parents and each group lists its elements in reverse document order. [`Layers`] keeps that
//! order, because Listing 2.7 numbers groups (`node_group_nr`) and nodes (`node_nr`) by it.
//!
//! Listings 2.3 and 2.4 print the same layers in document order without the empty groups; the
//! thesis's Listing 2.4 also shows `<ul>` and `<i>`, children of one `<span>`, as two groups,
//! which contradicts the rule the text states ("share the same parent"): here they are one
//! group, as the code of Listing 2.6 makes them.

use crate::document::{Document, NodeRef};
use crate::node::{Layer, NodeId, NodeKind};

/// The document's element layers and node groups in the order of thesis Listing 2.6.
///
/// Build once per document with [`Layers::new`], or keep one and [`Layers::rebuild`] it to reuse
/// its buffers.
#[derive(Debug, Clone, Default)]
pub struct Layers {
    /// Document and element ids sorted by depth, then by document order.
    by_depth: Vec<NodeId>,
    /// `by_depth[starts[d]..starts[d + 1]]` holds the nodes at depth `d`.
    starts: Vec<u32>,
}

impl Layers {
    /// The layers of `doc`.
    pub fn new(doc: &Document) -> Self {
        let mut layers = Self::default();
        layers.rebuild(doc);
        layers
    }

    /// Replaces the content with the layers of `doc`, reusing the allocations.
    pub fn rebuild(&mut self, doc: &Document) {
        // Counting sort by depth: a stable pass keeps document order within a depth.
        self.starts.clear();
        for node in structural(doc) {
            let depth = node.depth() as usize;
            if self.starts.len() <= depth + 1 {
                self.starts.resize(depth + 2, 0);
            }
            self.starts[depth + 1] += 1;
        }
        for d in 1..self.starts.len() {
            self.starts[d] += self.starts[d - 1];
        }
        let total = self.starts.last().copied().unwrap_or(0) as usize;
        self.by_depth.clear();
        self.by_depth.resize(total, NodeId::ROOT);
        let mut cursor = self.starts.clone();
        for node in structural(doc) {
            let slot = &mut cursor[node.depth() as usize];
            self.by_depth[*slot as usize] = node.id();
            *slot += 1;
        }
    }

    /// Number of layers: one per depth that has a document or element node, as the keys of
    /// Listing 2.6's `level_nodes`. The last one holds only empty groups.
    pub fn len(&self) -> u32 {
        crate::node::to_u32(self.starts.len().saturating_sub(1))
    }

    /// Whether there are no layers (never the case for a parsed document).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The groups of `layer` in Listing 2.6 order, numbered from 0 (`node_group_nr`).
    pub fn groups<'a>(&'a self, doc: &'a Document, layer: Layer) -> Groups<'a> {
        let depth = layer.get() as usize;
        let parents = self.at_depth(depth);
        let children = self.at_depth(depth + 1);
        Groups {
            doc,
            parents: parents.iter().rev(),
            children,
            number: 0,
        }
    }

    fn at_depth(&self, depth: usize) -> &[NodeId] {
        let start = self.starts.get(depth).copied().unwrap_or(0) as usize;
        let end = self.starts.get(depth + 1).copied().unwrap_or(0) as usize;
        self.by_depth.get(start..end).unwrap_or_default()
    }
}

/// Document and element nodes: the ones Listing 2.6 descends into.
fn structural(doc: &Document) -> impl Iterator<Item = NodeRef<'_>> {
    doc.nodes().filter(|n| n.kind() != NodeKind::Text)
}

/// Iterator over the groups of one layer, from [`Layers::groups`].
#[derive(Debug, Clone)]
pub struct Groups<'a> {
    doc: &'a Document,
    /// Parents still to visit, last in document order first.
    parents: std::iter::Rev<std::slice::Iter<'a, NodeId>>,
    /// Elements of the layer not yet grouped, in document order.
    children: &'a [NodeId],
    number: u32,
}

impl<'a> Iterator for Groups<'a> {
    type Item = NodeGroup<'a>;

    fn next(&mut self) -> Option<NodeGroup<'a>> {
        let parent = self.doc.get(*self.parents.next()?)?;
        // Children of later parents were taken already, so this parent's are at the end.
        let mut start = self.children.len();
        while start > 0 {
            let child = self.doc.get(self.children[start - 1])?;
            if child.parent().map(NodeRef::id) != Some(parent.id()) {
                break;
            }
            start -= 1;
        }
        let (rest, nodes) = self.children.split_at(start);
        self.children = rest;
        let number = self.number;
        self.number += 1;
        Some(NodeGroup {
            doc: self.doc,
            number,
            parent,
            nodes,
        })
    }
}

/// The element children of one node: a sublist of thesis Listing 2.5.
#[derive(Debug, Clone, Copy)]
pub struct NodeGroup<'a> {
    doc: &'a Document,
    number: u32,
    parent: NodeRef<'a>,
    /// In document order.
    nodes: &'a [NodeId],
}

impl<'a> NodeGroup<'a> {
    /// Position of the group in its layer: `node_group_nr` of Listing 2.7.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The node whose element children the group holds.
    pub fn parent(&self) -> NodeRef<'a> {
        self.parent
    }

    /// Number of elements in the group.
    pub fn len(&self) -> u32 {
        crate::node::to_u32(self.nodes.len())
    }

    /// Whether the parent has no element children.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The elements with their `node_nr` (Listing 2.7), in Listing 2.6 order: last child first.
    pub fn nodes(&self) -> impl Iterator<Item = (u32, NodeRef<'a>)> + use<'a> {
        let doc = self.doc;
        self.nodes
            .iter()
            .rev()
            .filter_map(move |&id| doc.get(id))
            .zip(0..)
            .map(|(node, nr)| (nr, node))
    }
}

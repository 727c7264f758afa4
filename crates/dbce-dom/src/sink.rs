//! html5ever's [`TreeSink`] on [`RawTree`], sanitising as nodes are created.
//!
//! Dropped elements (rules.rs) and comments get *virtual* handles: ids past the arena that html5ever
//! can compare and append to, while nothing is stored. Whatever the parser appends into them is
//! left detached, so a dropped subtree is never reachable from the document, as if removed after
//! parsing. The same happens once [`Sink`] reaches its node limit, so memory stays bounded and
//! the caller can stop the parse at the next chunk.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::{Attribute, QualName, local_name, ns};

use crate::node::NONE;
use crate::raw::{RawData, RawTree, attr_bytes};
use crate::rules::{DropReason, ElementRule, element_rule, scans_open_elements};
use crate::streamed::is_placeholder_template;

/// First virtual id; real ids are below it (the arena never holds 2^32 nodes).
const VIRTUAL_BASE: u64 = 1 << 32;

/// A node as html5ever holds it: arena id and, for elements, the name it asks back for. The
/// tree builder clones and drops handles many times per element (scope checks walk the stack
/// of open elements), so the name is shared rather than copied.
#[derive(Clone)]
pub(crate) struct Handle {
    id: u64,
    name: Rc<QualName>,
    integration_point: bool,
}

/// What parsing leaves besides the tree.
#[derive(Debug, Default, Clone)]
pub(crate) struct SinkCounts {
    pub(crate) parse_errors: u64,
    pub(crate) dropped: [u64; DropReason::ALL.len()],
    pub(crate) overflowed: bool,
    /// A block element went deeper than the limit.
    pub(crate) too_deep: bool,
    /// Placeholders of streamed content were kept (`streamed`): the tree needs the move.
    pub(crate) streamed: bool,
}

/// The [`TreeSink`] filling a [`RawTree`].
pub(crate) struct Sink {
    tree: RefCell<RawTree>,
    counts: RefCell<SinkCounts>,
    /// The empty name of the document, comments and template contents.
    no_name: Rc<QualName>,
    next_virtual: Cell<u64>,
    max_nodes: usize,
    max_block_depth: u32,
    /// Keep `<noscript>` elements and their content (a page that shows nothing otherwise).
    keep_noscript: bool,
}

impl Sink {
    pub(crate) fn new(max_nodes: usize, max_block_depth: u32, keep_noscript: bool) -> Self {
        Self {
            tree: RefCell::new(RawTree::new()),
            counts: RefCell::new(SinkCounts::default()),
            no_name: Rc::new(QualName::new(None, ns!(), local_name!(""))),
            next_virtual: Cell::new(VIRTUAL_BASE),
            max_nodes,
            max_block_depth,
            keep_noscript,
        }
    }

    /// Whether the node limit or the block depth limit was reached.
    pub(crate) fn limit_hit(&self) -> bool {
        let counts = self.counts.borrow();
        counts.overflowed || counts.too_deep
    }

    /// What was counted so far.
    pub(crate) fn counts(&self) -> SinkCounts {
        self.counts.borrow().clone()
    }

    /// Records a block element linked deeper than the limit.
    fn check_depth(&self, tree: &RawTree, id: u32) {
        if tree.scans_deeper_than(id, self.max_block_depth) {
            self.counts.borrow_mut().too_deep = true;
        }
    }

    /// `n` fresh virtual ids; the first is returned.
    fn virtual_ids(&self, n: u64) -> u64 {
        let id = self.next_virtual.get();
        self.next_virtual.set(id + n);
        id
    }

    fn drop_node(&self, reason: DropReason, name: Rc<QualName>) -> Handle {
        self.counts.borrow_mut().dropped[reason.index()] += 1;
        // A template reserves the next id for its contents (`get_template_contents`).
        let id = self.virtual_ids(2);
        Handle {
            id,
            name,
            integration_point: false,
        }
    }

    /// Room for one more stored node; records the overflow when there is none.
    fn has_room(&self, tree: &RawTree) -> bool {
        let room = tree.nodes.len() < self.max_nodes;
        if !room {
            self.counts.borrow_mut().overflowed = true;
        }
        room
    }

    /// `id` as an arena index, if it is a stored node.
    fn real(id: u64) -> Option<u32> {
        u32::try_from(id).ok()
    }

    fn append_text(&self, tree: &mut RawTree, parent: u32, text: StrTendril) {
        let last = tree.get(parent).map_or(NONE, |p| p.last_child);
        if let Err(text) = tree.append_to_text(last, text, self.max_nodes)
            && self.has_room(tree)
        {
            let id = tree.push_text(text);
            tree.link_last(parent, id);
        }
    }

    fn insert_text_before(&self, tree: &mut RawTree, sibling: u32, text: StrTendril) {
        let prev = tree.get(sibling).map_or(NONE, |s| s.prev_sibling);
        if let Err(text) = tree.append_to_text(prev, text, self.max_nodes)
            && self.has_room(tree)
        {
            let id = tree.push_text(text);
            tree.link_before(sibling, id);
        }
    }

    /// Where `parent` cannot take children (virtual, dropped, `<svg>`), the child is detached:
    /// it ends up outside the document, as it would inside a removed subtree.
    fn append_to(&self, tree: &mut RawTree, parent: Option<u32>, child: NodeOrText<Handle>) {
        let parent = parent.filter(|&p| tree.accepts_children(p));
        match (parent, child) {
            (Some(p), NodeOrText::AppendText(text)) => self.append_text(tree, p, text),
            (Some(p), NodeOrText::AppendNode(node)) => {
                if let Some(c) = Self::real(node.id) {
                    tree.detach(c);
                    tree.link_last(p, c);
                    self.check_depth(tree, c);
                }
            }
            (None, NodeOrText::AppendNode(node)) => {
                if let Some(c) = Self::real(node.id) {
                    tree.detach(c);
                }
            }
            (None, NodeOrText::AppendText(_)) => {}
        }
    }
}

impl TreeSink for Sink {
    type Handle = Handle;
    type Output = (RawTree, SinkCounts);
    type ElemName<'a> = &'a QualName;

    fn finish(self) -> Self::Output {
        (self.tree.into_inner(), self.counts.into_inner())
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {
        self.counts.borrow_mut().parse_errors += 1;
    }

    fn get_document(&self) -> Handle {
        Handle {
            id: 0,
            name: Rc::clone(&self.no_name),
            integration_point: false,
        }
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> &'a QualName {
        &target.name
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        let empty = match element_rule(&name, &attrs) {
            ElementRule::Drop(DropReason::Noscript) if self.keep_noscript => false,
            // Kept, without contents, until `streamed` has put the content streamed for it in
            // its place (and then removed); counted as dropped, as every template is.
            ElementRule::Drop(reason @ DropReason::Template) if is_placeholder_template(&attrs) => {
                let mut counts = self.counts.borrow_mut();
                counts.dropped[reason.index()] += 1;
                counts.streamed = true;
                true
            }
            ElementRule::Drop(reason) => return self.drop_node(reason, Rc::new(name)),
            ElementRule::Keep => false,
            ElementRule::KeepEmpty => true,
        };
        let mut tree = self.tree.borrow_mut();
        let id = if self.has_room(&tree) {
            let data = RawData::Element {
                scans: scans_open_elements(&name),
                local: name.local.clone(),
                attrs,
                empty,
            };
            u64::from(tree.push(data))
        } else {
            self.virtual_ids(1)
        };
        Handle {
            id,
            name: Rc::new(name),
            integration_point: flags.mathml_annotation_xml_integration_point,
        }
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        self.drop_node(DropReason::Comment, Rc::clone(&self.no_name))
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        self.drop_node(DropReason::Comment, Rc::clone(&self.no_name))
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        let mut tree = self.tree.borrow_mut();
        self.append_to(&mut tree, Self::real(parent.id), child);
    }

    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        let has_parent = Self::real(element.id)
            .and_then(|e| self.tree.borrow().get(e).map(|n| n.parent != NONE))
            .unwrap_or(false);
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, target: &Handle) -> Handle {
        let id = if Self::real(target.id).is_some() {
            self.virtual_ids(1)
        } else {
            target.id + 1
        };
        Handle {
            id,
            name: Rc::clone(&self.no_name),
            integration_point: false,
        }
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.id == y.id
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Handle, child: NodeOrText<Handle>) {
        let mut tree = self.tree.borrow_mut();
        let place = Self::real(sibling.id).filter(|&s| {
            tree.get(s)
                .is_some_and(|n| n.parent != NONE && tree.accepts_children(n.parent))
        });
        let Some(s) = place else {
            return self.append_to(&mut tree, None, child);
        };
        match child {
            NodeOrText::AppendText(text) => self.insert_text_before(&mut tree, s, text),
            NodeOrText::AppendNode(node) => {
                if let Some(c) = Self::real(node.id).filter(|&c| c != s) {
                    tree.detach(c);
                    tree.link_before(s, c);
                    self.check_depth(&tree, c);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        let Some(t) = Self::real(target.id) else {
            return;
        };
        let mut tree = self.tree.borrow_mut();
        if let Some(RawData::Element { attrs: have, .. }) =
            tree.nodes.get_mut(t as usize).map(|n| &mut n.data)
        {
            let before = have.len();
            for attr in attrs {
                if !have.iter().any(|a| a.name == attr.name) {
                    have.push(attr);
                }
            }
            let added = attr_bytes(&have[before..]);
            tree.name_bytes += added;
        }
    }

    fn remove_from_parent(&self, target: &Handle) {
        if let Some(t) = Self::real(target.id) {
            self.tree.borrow_mut().detach(t);
        }
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        let Some(from) = Self::real(node.id) else {
            return;
        };
        let mut tree = self.tree.borrow_mut();
        let to = Self::real(new_parent.id).filter(|&p| tree.accepts_children(p));
        let mut child = tree.get(from).map_or(NONE, |n| n.first_child);
        while child != NONE {
            let next = tree.nodes[child as usize].next_sibling;
            tree.detach(child);
            if let Some(p) = to {
                tree.link_last(p, child);
            }
            child = next;
        }
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        handle.integration_point
    }
}

//! From the parser's [`RawTree`] to a [`Document`]: reachable nodes only, in document order,
//! with the depth limit applied, adjacent text merged and strings copied into shared buffers.

use html5ever::Attribute;

use crate::SanitizeConfig;
use crate::document::Document;
use crate::node::{AttrSpan, NONE, Node, NodeKind, Span, to_u32};
use crate::raw::{RawData, RawTree};
use crate::report::ParseReport;

/// Builds a [`Document`] from `raw` with one iterative pre-order walk.
pub(crate) fn compact(raw: &RawTree, config: &SanitizeConfig, report: ParseReport) -> Document {
    let mut walk = Compactor {
        raw,
        max_depth: config.max_depth,
        attr_budget: config.max_attribute_bytes,
        doc: Document {
            nodes: Vec::with_capacity(raw.nodes.len()),
            attrs: Vec::new(),
            text: String::with_capacity(raw.text_bytes),
            names: String::with_capacity(raw.name_bytes),
            report,
        },
        open: Vec::new(),
        frames: Vec::new(),
    };
    walk.run();
    walk.doc
}

/// A kept node whose children are being added.
struct Open {
    id: u32,
    last_child: u32,
}

/// A raw node whose children are being walked.
struct Frame {
    next_child: u32,
    kept: bool,
}

struct Compactor<'a> {
    raw: &'a RawTree,
    max_depth: u32,
    attr_budget: u64,
    doc: Document,
    /// Kept ancestors of the walk position, innermost last.
    open: Vec<Open>,
    /// Raw ancestors of the walk position, innermost last; unwrapped ones are not in `open`.
    frames: Vec<Frame>,
}

impl Compactor<'_> {
    fn run(&mut self) {
        let first = self.raw.get(0).map_or(NONE, |n| n.first_child);
        self.add_node(NodeKind::Document, Span::default(), Span::default());
        self.enter(0, first);
        while let Some(frame) = self.frames.last_mut() {
            let child = frame.next_child;
            let Some(node) = self.raw.get(child) else {
                let kept = frame.kept;
                self.frames.pop();
                if kept {
                    self.close();
                }
                continue;
            };
            frame.next_child = node.next_sibling;
            match &node.data {
                RawData::Text { first, more, .. } => {
                    self.add_text(first);
                    self.raw
                        .pieces(*more)
                        .for_each(|piece| self.add_text(piece));
                }
                RawData::Element { local, attrs, .. } => {
                    self.add_element(local, attrs, node.first_child);
                }
                RawData::Document => {}
            }
        }
    }

    fn add_element(&mut self, name: &str, attrs: &[Attribute], first_child: u32) {
        // Depth of a new child is the number of open (kept) ancestors; its layer one less.
        let layer = to_u32(self.open.len()).saturating_sub(1);
        if layer > self.max_depth {
            self.doc.report.unwrapped_elements += 1;
            self.frames.push(Frame {
                next_child: first_child,
                kept: false,
            });
            return;
        }
        let name = self.push_name(name);
        let attrs = self.push_attrs(attrs);
        let id = self.add_node(NodeKind::Element, name, attrs);
        self.enter(id, first_child);
    }

    fn push_name(&mut self, name: &str) -> Span {
        let names = &mut self.doc.names;
        let start = names.len();
        names.push_str(name);
        names[start..].make_ascii_lowercase();
        Span::new(start, names.len())
    }

    fn push_attrs(&mut self, attrs: &[Attribute]) -> Span {
        let start = self.doc.attrs.len();
        for attr in attrs {
            let (name, value) = (&*attr.name.local, &*attr.value);
            let bytes = (name.len() + value.len()) as u64;
            if bytes > self.attr_budget {
                self.doc.report.dropped_attributes += 1;
                continue;
            }
            self.attr_budget -= bytes;
            let name = self.push_name(name);
            let value_start = self.doc.names.len();
            self.doc.names.push_str(value);
            let value = Span::new(value_start, self.doc.names.len());
            self.doc.attrs.push(AttrSpan { name, value });
        }
        Span::new(start, self.doc.attrs.len())
    }

    /// Appends `content` to the innermost open node, merged into its last child if that is text.
    fn add_text(&mut self, content: &str) {
        if content.is_empty() {
            return;
        }
        let text_end = self.doc.text.len();
        self.doc.text.push_str(content);
        let last = self.open.last().map_or(NONE, |o| o.last_child);
        if let Some(prev) = self.doc.nodes.get_mut(last as usize)
            && prev.kind == NodeKind::Text
            && prev.data.end as usize == text_end
        {
            prev.data.end = to_u32(self.doc.text.len());
            return;
        }
        let data = Span::new(text_end, self.doc.text.len());
        self.add_node(NodeKind::Text, data, Span::default());
    }

    /// Pushes a node as last child of the innermost open node; returns its id.
    fn add_node(&mut self, kind: NodeKind, data: Span, attrs: Span) -> u32 {
        let id = to_u32(self.doc.nodes.len());
        let parent = self.open.last_mut().map_or(NONE, |open| {
            let prev = std::mem::replace(&mut open.last_child, id);
            if let Some(prev) = self.doc.nodes.get_mut(prev as usize) {
                prev.next_sibling = id;
            }
            open.id
        });
        self.doc.nodes.push(Node {
            kind,
            parent,
            next_sibling: NONE,
            end: id + 1,
            depth: to_u32(self.open.len()),
            data,
            attrs,
        });
        id
    }

    /// Opens the kept node `id` and starts walking the raw children from `first_child`.
    fn enter(&mut self, id: u32, first_child: u32) {
        self.open.push(Open {
            id,
            last_child: NONE,
        });
        self.frames.push(Frame {
            next_child: first_child,
            kept: true,
        });
    }

    /// Ends the innermost open node: its subtree is complete.
    fn close(&mut self) {
        if let Some(open) = self.open.pop() {
            let end = to_u32(self.doc.nodes.len());
            if let Some(node) = self.doc.nodes.get_mut(open.id as usize) {
                node.end = end;
            }
        }
    }
}

//! The page as one pass of readability-lxml sees it: hidden elements and (when ruthless)
//! unlikely candidates removed, `<div>`s read as paragraphs, the paragraphs it makes of the
//! loose text and inline elements of other `<div>`s, and the counts of every subtree.

use super::page::{NONE, Page, Seg, Tag};
use super::stats::Stats;

/// A paragraph readability-lxml wraps around consecutive children of a `<div>` that stays a
/// `<div>`: its leading text and the inline elements after it, or the text after a `<br>` or a
/// block, or a run of inline elements with the text between them.
#[derive(Debug, Clone)]
pub(super) struct Group {
    /// The first child in it; the group's nodes are the range `first..end`.
    pub(super) first: u32,
    pub(super) end: u32,
    pub(super) stats: Stats,
    /// The text node that is the paragraph's own text (`p.text`), if it starts with text.
    pub(super) lead: Option<u32>,
}

/// One pass's view of the page.
pub(super) struct Tree {
    pub(super) removed: Vec<bool>,
    /// Counts over each subtree, removed nodes left out.
    pub(super) stats: Vec<Stats>,
    /// `<div>`s without block content inside, read as `<p>`.
    pub(super) converted: Vec<bool>,
    pub(super) groups: Vec<Group>,
    /// For each child of a `<div>` in a group, the group's index; [`NONE`] elsewhere.
    pub(super) group_of: Vec<u32>,
}

/// A paragraph to score: an element or a [`Group`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Node(u32),
    Group(u32),
}

impl Tree {
    /// Removes hidden elements and (when `ruthless`) unlikely candidates, and counts every
    /// subtree bottom-up: children have larger ids than their parent, so a reverse walk over
    /// the arena finishes every child before its parent.
    pub(super) fn build(page: &Page<'_>, ruthless: bool) -> Tree {
        let n = page.len();
        let mut removed = vec![false; n];
        for i in 0..n {
            let info = &page.nodes[i];
            let parent = info.parent as usize;
            removed[i] =
                info.hidden || (ruthless && info.unlikely) || (parent < n && removed[parent]);
        }
        let mut tree = Tree {
            removed,
            stats: vec![Stats::default(); n],
            converted: vec![false; n],
            groups: Vec::new(),
            group_of: vec![NONE; n],
        };
        let mut segs = vec![Seg::default(); n];
        let mut blockish_inside = vec![false; n];
        for i in (0..n).rev() {
            let info = &page.nodes[i];
            if tree.removed[i] || info.tag == Tag::Document {
                continue;
            }
            if info.tag == Tag::Text {
                segs[i] = info.seg;
                tree.stats[i].commas = info.commas;
            } else {
                match info.tag {
                    Tag::P => tree.stats[i].p += 1,
                    Tag::Div if !blockish_inside[i] => {
                        tree.converted[i] = true;
                        tree.stats[i].p += 1;
                    }
                    Tag::Div => {
                        let made = tree.group_children(page, &segs, &blockish_inside, i);
                        tree.stats[i].p += made;
                    }
                    Tag::Img => tree.stats[i].img += 1,
                    Tag::Li => tree.stats[i].li += 1,
                    Tag::Input => tree.stats[i].input += 1,
                    Tag::Blockquote => tree.stats[i].blockquote += 1,
                    _ => {}
                }
            }
            tree.stats[i].len = segs[i].trimmed();
            if info.tag == Tag::A {
                tree.stats[i].link = tree.stats[i].len;
            }
            let parent = info.parent as usize;
            if parent < n {
                segs[parent] = segs[i].then(segs[parent]);
                tree.stats[parent] = tree.stats[parent] + tree.stats[i];
                if info.tag != Tag::Text {
                    blockish_inside[parent] |= info.blockish || blockish_inside[i];
                }
            }
        }
        tree
    }

    /// Makes the paragraphs of `<div>` `div`'s loose text and inline children
    /// (readability-lxml's `transform_misused_divs_into_paragraphs`); returns how many.
    fn group_children(
        &mut self,
        page: &Page<'_>,
        segs: &[Seg],
        blockish_inside: &[bool],
        div: usize,
    ) -> u32 {
        let Some(node) = page.node(u32::try_from(div).unwrap_or(NONE)) else {
            return 0;
        };
        let before = self.groups.len();
        let mut open: Option<(usize, Seg)> = None;
        let mut seen_element = false;
        for child in node.children() {
            let c = child.id().get();
            let ci = c as usize;
            if self.removed[ci] {
                continue;
            }
            let info = &page.nodes[ci];
            let joins = match info.tag {
                Tag::Text => open.is_some(),
                Tag::Br => {
                    open = None;
                    false
                }
                _ if info.inline && !blockish_inside[ci] => open.is_some(),
                _ => {
                    open = None;
                    false
                }
            };
            let is_text = info.tag == Tag::Text;
            if let Some((g, seg)) = open.as_mut().filter(|_| joins) {
                let group = &mut self.groups[*g];
                group.end = info.end;
                group.stats = group.stats + self.stats[ci];
                *seg = seg.then(segs[ci]);
                group.stats.len = seg.trimmed();
            } else if (is_text && info.seg.trimmed() > 0)
                || (!is_text && info.inline && !blockish_inside[ci] && info.tag != Tag::Br)
            {
                let mut stats = self.stats[ci];
                stats.len = segs[ci].trimmed();
                self.groups.push(Group {
                    first: c,
                    end: info.end,
                    stats,
                    lead: is_text.then_some(c),
                });
                // Text after a `<br>` or a block is a paragraph of its own; the leading text
                // and inline elements take the inline elements that follow.
                if !is_text || !seen_element {
                    open = Some((self.groups.len() - 1, segs[ci]));
                }
            }
            if !is_text {
                seen_element = true;
            }
        }
        for g in before..self.groups.len() {
            let group_id = u32::try_from(g).unwrap_or(NONE);
            let (first, end) = (self.groups[g].first, self.groups[g].end);
            let mut c = first as usize;
            while c < end as usize {
                self.group_of[c] = group_id;
                c = page.nodes[c].end as usize;
            }
        }
        u32::try_from(self.groups.len() - before).unwrap_or(u32::MAX)
    }

    /// Counts of a paragraph.
    pub(super) fn unit_stats(&self, unit: Unit) -> Stats {
        match unit {
            Unit::Node(i) => self.stats[i as usize],
            Unit::Group(g) => self.groups[g as usize].stats,
        }
    }

    /// The first node of a paragraph.
    pub(super) fn unit_node(&self, unit: Unit) -> u32 {
        match unit {
            Unit::Node(i) => i,
            Unit::Group(g) => self.groups[g as usize].first,
        }
    }
}

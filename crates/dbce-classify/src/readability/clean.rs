//! readability-lxml's `sanitize`: headings, forms and conditionally cleaned containers are
//! dropped from the article, innermost first, each decision seeing the drops before it.
//!
//! The article is cleaned as readability-lxml builds it ([`Output`]): the best candidate and
//! its siblings under a wrapping `<div>`, with the segments and leads moved into the best
//! candidate, numbered in the article's document order so that every subtree is a range of
//! positions. Subtree counts are computed once ([`Stats`]); a drop records the dropped
//! subtree's current counts at its root in a Fenwick tree, so the current counts of any element
//! are its static counts minus a range sum, in O(log n), and each node is marked dropped once.

use super::page::{DIV_RANK, NONE, Page, Tag};
use super::stats::Stats;
use super::tree::Tree;

/// Prefix sums of [`Stats`] over node positions.
struct Fenwick(Vec<Stats>);

impl Fenwick {
    fn new(n: usize) -> Self {
        Fenwick(vec![Stats::default(); n + 1])
    }

    fn add(&mut self, pos: usize, value: Stats) {
        let mut i = pos + 1;
        while i < self.0.len() {
            self.0[i] = self.0[i] + value;
            i += i & i.wrapping_neg();
        }
    }

    /// Sum over positions `< end`.
    fn prefix(&self, end: usize) -> Stats {
        let mut sum = Stats::default();
        let mut i = end.min(self.0.len() - 1);
        while i > 0 {
            sum = sum + self.0[i];
            i -= i & i.wrapping_neg();
        }
        sum
    }
}

/// Thresholds of the cleaning step.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    pub(super) min_text_length: u32,
}

/// How readability-lxml's article is put together from the page.
pub(super) struct Layout<'l> {
    /// Roots of the article's top-level subtrees, in order (elements and tail texts).
    pub(super) roots: &'l [u32],
    /// The roots sit in a new `<div>` (`get_article`'s output); `false` for the body fallback.
    /// readability-lxml's conditional cleaning reaches that `<div>` too, and drops the whole
    /// article when, taken together, it has too many links or list items; that is not done
    /// here (it cost 0.009 F1 on l3s-gn1 and 0.004 on scrapinghub, on pages where html5ever
    /// and libxml2 build different trees).
    pub(super) wrapper: bool,
    /// The best candidate, into which `front` and `back` are moved.
    pub(super) best: Option<u32>,
    /// Subtrees moved to the start of the best candidate, in order (editorial leads, earlier
    /// article segments).
    pub(super) front: &'l [u32],
    /// Subtrees moved to its end, in order (later article segments).
    pub(super) back: &'l [u32],
}

/// The article as a tree of its own, in its document order: position `p` holds node
/// `order[p]` (or the wrapping `<div>`, [`NONE`]), and the subtree of `p` is `p..end[p]`.
pub(super) struct Output {
    order: Vec<u32>,
    parent: Vec<u32>,
    end: Vec<u32>,
    stats: Vec<Stats>,
    /// Position of each node id, [`NONE`] when not in the article.
    pos: Vec<u32>,
}

impl Output {
    /// Lays out the article: pre-order over the roots' subtrees without removed nodes, moved
    /// subtrees taken out of their place and put into the best candidate.
    pub(super) fn build(page: &Page<'_>, tree: &Tree, layout: &Layout<'_>) -> Output {
        let n = page.len();
        let mut moved = vec![false; n];
        for &m in layout.front.iter().chain(layout.back) {
            moved[m as usize] = true;
        }
        let mut out = Output {
            order: Vec::new(),
            parent: Vec::new(),
            end: Vec::new(),
            stats: Vec::new(),
            pos: vec![NONE; n],
        };
        let top = if layout.wrapper {
            out.push(NONE, NONE);
            0
        } else {
            NONE
        };
        for &root in layout.roots {
            out.emit(page, tree, &moved, root, top, Some(layout));
        }
        // Ends and counts bottom-up: own counts are a node's counts less its children's.
        let len = out.order.len();
        let mut own = tree.stats.clone();
        for (i, info) in page.nodes.iter().enumerate() {
            let parent = info.parent as usize;
            if parent < n && !tree.removed[i] {
                own[parent] = own[parent] - tree.stats[i];
            }
        }
        out.end = (1..=len)
            .map(|e| u32::try_from(e).unwrap_or(NONE))
            .collect();
        out.stats = out
            .order
            .iter()
            .map(|&id| own.get(id as usize).copied().unwrap_or_default())
            .collect();
        for p in (0..len).rev() {
            let parent = out.parent[p] as usize;
            if parent < len {
                out.end[parent] = out.end[parent].max(out.end[p]);
                out.stats[parent] = out.stats[parent] + out.stats[p];
            }
        }
        out
    }

    fn push(&mut self, id: u32, parent: u32) -> u32 {
        let p = u32::try_from(self.order.len()).unwrap_or(NONE);
        self.order.push(id);
        self.parent.push(parent);
        if let Some(slot) = self.pos.get_mut(id as usize) {
            *slot = p;
        }
        p
    }

    /// Emits `root`'s subtree under position `parent`; with a layout, the moved subtrees go
    /// into the best candidate when it comes by (they never contain it).
    fn emit(
        &mut self,
        page: &Page<'_>,
        tree: &Tree,
        moved: &[bool],
        root: u32,
        parent: u32,
        layout: Option<&Layout<'_>>,
    ) {
        let end = page.nodes[root as usize].end;
        let best = layout.and_then(|l| l.best);
        let best_end = best.map_or(0, |b| page.nodes[b as usize].end);
        let mut back_pending = false;
        let mut i = root;
        while i < end {
            let iu = i as usize;
            if i != root && (tree.removed[iu] || moved[iu]) {
                i = page.nodes[iu].end;
                continue;
            }
            if back_pending && i >= best_end {
                back_pending = false;
                self.emit_moved(page, tree, moved, layout, false);
            }
            let p = if i == root {
                parent
            } else {
                self.pos[page.nodes[iu].parent as usize]
            };
            self.push(i, p);
            if Some(i) == best {
                self.emit_moved(page, tree, moved, layout, true);
                back_pending = true;
            }
            i += 1;
        }
        if back_pending {
            self.emit_moved(page, tree, moved, layout, false);
        }
    }

    fn emit_moved(
        &mut self,
        page: &Page<'_>,
        tree: &Tree,
        moved: &[bool],
        layout: Option<&Layout<'_>>,
        front: bool,
    ) {
        let Some(layout) = layout else { return };
        let Some(best) = layout.best else { return };
        let at = self.pos[best as usize];
        let list = if front { layout.front } else { layout.back };
        for &m in list {
            if self.pos[m as usize] == NONE {
                self.emit(page, tree, moved, m, at, None);
            }
        }
    }

    /// Whether node `id` is in the article and not dropped.
    pub(super) fn kept(&self, id: usize, dropped: &[bool]) -> bool {
        self.pos
            .get(id)
            .is_some_and(|&p| p != NONE && !dropped[p as usize])
    }
}

/// The article being cleaned: which positions have been dropped.
pub(super) struct Cleaner<'p, 'a> {
    page: &'p Page<'a>,
    tree: &'p Tree,
    out: &'p Output,
    /// Candidate scores by node id, NaN for nodes that are not candidates.
    scores: &'p [f64],
    dropped: Vec<bool>,
    fenwick: Fenwick,
}

impl<'p, 'a> Cleaner<'p, 'a> {
    pub(super) fn new(
        page: &'p Page<'a>,
        tree: &'p Tree,
        out: &'p Output,
        scores: &'p [f64],
    ) -> Self {
        Cleaner {
            page,
            tree,
            out,
            scores,
            dropped: vec![false; out.order.len()],
            fenwick: Fenwick::new(out.order.len()),
        }
    }

    fn tag(&self, p: u32) -> Tag {
        let id = self.out.order[p as usize] as usize;
        match self.page.nodes.get(id) {
            Some(_) if self.tree.converted[id] => Tag::P,
            Some(info) => info.tag,
            None => Tag::Div,
        }
    }

    fn weight(&self, p: u32) -> i32 {
        let id = self.out.order[p as usize] as usize;
        self.page.nodes.get(id).map_or(0, |info| info.class_weight)
    }

    fn score(&self, p: u32) -> f64 {
        let id = self.out.order[p as usize] as usize;
        self.scores
            .get(id)
            .copied()
            .filter(|s| !s.is_nan())
            .unwrap_or(0.0)
    }

    /// Runs the cleaning and returns the dropped flags by position.
    pub(super) fn run(mut self, limits: Limits) -> Vec<bool> {
        let mut headings: Vec<(u8, u32)> = Vec::new();
        let mut forms: Vec<u32> = Vec::new();
        let mut paragraphs: Vec<u32> = Vec::new();
        let mut conditional: Vec<(u8, std::cmp::Reverse<u32>)> = Vec::new();
        let len = u32::try_from(self.out.order.len()).unwrap_or(NONE);
        for p in 0..len {
            match self.tag(p) {
                Tag::Heading(level) => headings.push((level, p)),
                Tag::Form => forms.push(p),
                Tag::P => paragraphs.push(p),
                // readability-lxml's own wrapping `<div>` is left alone (see `Layout::wrapper`).
                Tag::Div if self.out.order[p as usize] != NONE => {
                    conditional.push((DIV_RANK, std::cmp::Reverse(p)));
                }
                Tag::Conditional(rank) => conditional.push((rank, std::cmp::Reverse(p))),
                _ => {}
            }
        }
        headings.sort_unstable();
        conditional.sort_unstable();
        for (_, h) in headings {
            if !self.dropped[h as usize]
                && (self.weight(h) < 0 || self.current(h).link_density() > 0.33)
            {
                self.drop_tree(h);
            }
        }
        for p in paragraphs {
            if !self.dropped[p as usize]
                && self.is_call_to_action(p)
                && self.current(p).link_density() > 0.2
            {
                self.drop_tree(p);
            }
        }
        for f in forms {
            if !self.dropped[f as usize] {
                self.drop_tree(f);
            }
        }
        let allowed = self.preserved(limits);
        let semantic = self.in_semantic();
        for (_, std::cmp::Reverse(e)) in conditional {
            if !self.dropped[e as usize]
                && !allowed[e as usize]
                && self.should_drop(e, semantic[e as usize], limits)
            {
                self.drop_tree(e);
            }
        }
        self.dropped
    }

    /// Counts of `p`'s subtree without what has been dropped inside it.
    fn current(&self, p: u32) -> Stats {
        let end = self.out.end[p as usize] as usize;
        let inside = self.fenwick.prefix(end) - self.fenwick.prefix(p as usize + 1);
        self.out.stats[p as usize] - inside
    }

    fn drop_tree(&mut self, p: u32) {
        let current = self.current(p);
        self.fenwick.add(p as usize, current);
        let end = self.out.end[p as usize] as usize;
        let mut j = p as usize;
        while j < end {
            if self.dropped[j] {
                // The root of an earlier drop: its subtree is marked already.
                j = self.out.end[j] as usize;
            } else {
                self.dropped[j] = true;
                j += 1;
            }
        }
    }

    fn is_text(&self, p: usize) -> bool {
        let id = self.out.order[p] as usize;
        self.page.nodes.get(id).is_some_and(|i| i.tag == Tag::Text)
    }

    /// The texts of `p`'s subtree that are left, in order.
    fn texts(&self, p: u32) -> impl Iterator<Item = &'a str> + '_ {
        (p + 1..self.out.end[p as usize])
            .filter(|&q| self.is_text(q as usize) && !self.dropped[q as usize])
            .map(|q| self.page.text(self.out.order[q as usize]))
    }

    /// Whether the paragraph's text starts with "sign up", "subscribe", "download" or "get the
    /// latest" (`callToActionRe`).
    fn is_call_to_action(&self, p: u32) -> bool {
        let Some(first) = self.texts(p).map(str::trim_start).find(|t| !t.is_empty()) else {
            return false;
        };
        let head: String = first.chars().take(16).collect::<String>().to_lowercase();
        ["sign up", "subscribe", "download", "get the latest"]
            .iter()
            .any(|w| {
                head.strip_prefix(w).is_some_and(|rest| {
                    !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            })
    }

    /// Whether an ancestor of each position is a `<main>` or `<article>` in the article
    /// (`ancestor::main | ancestor::article`).
    fn in_semantic(&self) -> Vec<bool> {
        let len = self.out.order.len();
        let mut semantic = vec![false; len];
        for p in 0..len {
            let parent = self.out.parent[p];
            if (parent as usize) < len {
                semantic[p] = semantic[parent as usize]
                    || matches!(self.tag(parent), Tag::Main | Tag::Article);
            }
        }
        semantic
    }

    /// readability-lxml's `get_preserved_elements`, after the headings and forms are gone: a
    /// `<ul>` right after a "Table of contents" `<h2>`–`<h4>` (or inside such a list), and a
    /// `<div>` or `<section>` that is or lies in a quote lead (text of at least
    /// `min_text_length` characters ending in a colon, followed by an element holding a
    /// `<blockquote>`).
    fn preserved(&self, limits: Limits) -> Vec<bool> {
        let len = self.out.order.len();
        let alive = |p: usize| !self.dropped[p] && !self.is_text(p);
        // Previous and next element siblings that are left.
        let mut next = vec![NONE; len];
        let mut last_child = vec![NONE; len + 1];
        let previous: Vec<u32> = (0..len)
            .map(|p| {
                let parent = (self.out.parent[p] as usize).min(len);
                let before = last_child[parent];
                if alive(p) {
                    last_child[parent] = u32::try_from(p).unwrap_or(NONE);
                }
                before
            })
            .collect();
        last_child.fill(NONE);
        for p in (0..len).rev() {
            let parent = (self.out.parent[p] as usize).min(len);
            next[p] = last_child[parent];
            if alive(p) {
                last_child[parent] = u32::try_from(p).unwrap_or(NONE);
            }
        }
        // Last non-blank character of each subtree's text that is left, bottom-up.
        let mut last_char: Vec<Option<char>> = vec![None; len];
        for p in (0..len).rev() {
            if self.dropped[p] {
                continue;
            }
            if self.is_text(p) {
                last_char[p] = self
                    .page
                    .text(self.out.order[p])
                    .trim_end()
                    .chars()
                    .next_back();
            }
            let parent = self.out.parent[p] as usize;
            if parent < len && last_char[parent].is_none() {
                last_char[parent] = last_char[p];
            }
        }
        // The quote-lead rule keeps `<div>`s and `<section>`s, the contents rule `<ul>`s.
        let mut toc_ul = vec![false; len];
        for p in 0..len {
            let pu = u32::try_from(p).unwrap_or(NONE);
            let parent = self.out.parent[p] as usize;
            let toc = self.tag(pu) == Tag::Conditional(1)
                && previous[p] != NONE
                && self.is_toc_heading(previous[p]);
            toc_ul[p] = toc || (parent < len && toc_ul[parent]);
        }
        let mut quote = vec![false; len];
        for p in 0..len {
            let pu = u32::try_from(p).unwrap_or(NONE);
            let parent = self.out.parent[p] as usize;
            let lead = !self.dropped[p]
                && !self.is_text(p)
                && last_char[p] == Some(':')
                && self.current(pu).len >= limits.min_text_length
                && next[p] != NONE
                && {
                    let following = next[p];
                    let own = u32::from(self.tag(following) == Tag::Blockquote);
                    self.current(following).blockquote > own
                };
            quote[p] = lead || (parent < len && quote[parent]);
        }
        (0..len)
            .map(|p| {
                let pu = u32::try_from(p).unwrap_or(NONE);
                match self.tag(pu) {
                    Tag::Conditional(1) => toc_ul[p],
                    Tag::Div | Tag::Conditional(6) => quote[p],
                    _ => false,
                }
            })
            .collect()
    }

    /// An `<h2>`, `<h3>` or `<h4>` whose text is "Table of contents".
    fn is_toc_heading(&self, h: u32) -> bool {
        const TOC: &str = "table of contents";
        matches!(self.tag(h), Tag::Heading(2..=4)) && self.current(h).len as usize == TOC.len() && {
            let text: String = self.texts(h).collect();
            text.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
                == TOC
        }
    }

    /// readability-lxml's conditional cleaning of one `<table>`, `<ul>`, `<div>`, `<aside>`,
    /// `<header>`, `<footer>` or `<section>`. Its rescue of text-less elements next to long
    /// siblings is left out: it never changes which text is kept.
    #[allow(clippy::cast_precision_loss)]
    fn should_drop(&self, e: u32, in_semantic: bool, limits: Limits) -> bool {
        let tag = self.tag(e);
        let weight = self.weight(e);
        if f64::from(weight) + self.score(e) < 0.0 {
            return true;
        }
        let c = self.current(e);
        if c.commas >= 10 {
            return false;
        }
        let p = f64::from(c.p);
        let img = f64::from(c.img);
        // readability-lxml subtracts 100 from the item count, so this rule needs 100 items
        // more than paragraphs.
        let li = f64::from(c.li) - 100.0;
        let short = c.len < limits.min_text_length;
        let ld = c.link_density();
        // Link lists and sections inside <main> or <article> may have a few more links.
        let max_ld = if matches!(tag, Tag::Conditional(1 | 6)) && in_semantic {
            0.25
        } else {
            0.2
        };
        (c.p > 0 && img > 1.0 + p * 1.3)
            || (li > p && tag != Tag::Conditional(1))
            || f64::from(c.input) > p / 3.0
            || (short && (c.img == 0 || c.img > 2))
            || (weight < 25 && ld > max_ld)
            || (weight >= 25 && ld > 0.5)
            || c.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenwick_range_sums() {
        let mut f = Fenwick::new(10);
        let one = |len| Stats {
            len,
            ..Stats::default()
        };
        f.add(2, one(5));
        f.add(7, one(3));
        f.add(9, one(1));
        assert_eq!(f.prefix(0).len, 0);
        assert_eq!(f.prefix(3).len, 5);
        assert_eq!(f.prefix(8).len, 8);
        assert_eq!((f.prefix(10) - f.prefix(3)).len, 4);
        assert_eq!(f.prefix(100).len, 9);
    }
}

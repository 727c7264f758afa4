//! readability-lxml's `sanitize`: headings, forms and conditionally cleaned containers are
//! dropped from the article, innermost first, each decision seeing the drops before it.
//!
//! Subtree counts are computed once ([`Stats`]); a drop records the dropped subtree's current
//! counts at its root in a Fenwick tree, so the current counts of any element are its static
//! counts minus a range sum, in O(log n), and each node is marked dropped once.

use std::ops::{Add, Sub};

use super::page::{DIV_RANK, Page, Tag};
use super::tree::Tree;

/// Counts over a subtree, for scoring and cleaning.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Stats {
    /// Whitespace-collapsed, trimmed text length.
    pub(super) len: u32,
    /// Text length inside `<a>`.
    pub(super) link: u32,
    pub(super) commas: u32,
    /// Paragraphs: `<p>`, `<div>`s read as paragraphs, and text directly in other `<div>`s.
    pub(super) p: u32,
    pub(super) img: u32,
    pub(super) li: u32,
    /// `<input>`s other than hidden ones.
    pub(super) input: u32,
}

impl Add for Stats {
    type Output = Stats;

    fn add(self, o: Stats) -> Stats {
        Stats {
            len: self.len.wrapping_add(o.len),
            link: self.link.wrapping_add(o.link),
            commas: self.commas.wrapping_add(o.commas),
            p: self.p.wrapping_add(o.p),
            img: self.img.wrapping_add(o.img),
            li: self.li.wrapping_add(o.li),
            input: self.input.wrapping_add(o.input),
        }
    }
}

impl Sub for Stats {
    type Output = Stats;

    fn sub(self, o: Stats) -> Stats {
        Stats {
            len: self.len.wrapping_sub(o.len),
            link: self.link.wrapping_sub(o.link),
            commas: self.commas.wrapping_sub(o.commas),
            p: self.p.wrapping_sub(o.p),
            img: self.img.wrapping_sub(o.img),
            li: self.li.wrapping_sub(o.li),
            input: self.input.wrapping_sub(o.input),
        }
    }
}

impl Stats {
    /// Link text per character, 0 without text (`get_link_density`).
    #[allow(clippy::cast_precision_loss)]
    pub(super) fn link_density(self) -> f64 {
        f64::from(self.link) / f64::from(self.len.max(1))
    }
}

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

/// The article being cleaned: which nodes are in it and which have been dropped.
pub(super) struct Cleaner<'p, 'a> {
    page: &'p Page<'a>,
    tree: &'p Tree,
    /// Candidate scores, NaN for nodes that are not candidates.
    scores: &'p [f64],
    dropped: Vec<bool>,
    fenwick: Fenwick,
}

impl<'p, 'a> Cleaner<'p, 'a> {
    pub(super) fn new(page: &'p Page<'a>, tree: &'p Tree, scores: &'p [f64]) -> Self {
        Cleaner {
            page,
            tree,
            scores,
            dropped: vec![false; page.len()],
            fenwick: Fenwick::new(page.len()),
        }
    }

    /// Runs the cleaning over the elements of `in_article` and returns the dropped flags.
    pub(super) fn run(mut self, in_article: &[bool], limits: Limits) -> Vec<bool> {
        let mut headings: Vec<(u8, u32)> = Vec::new();
        let mut forms: Vec<u32> = Vec::new();
        let mut paragraphs: Vec<u32> = Vec::new();
        let mut conditional: Vec<(u8, std::cmp::Reverse<u32>)> = Vec::new();
        for (i, info) in self.page.nodes.iter().enumerate() {
            if !in_article[i] {
                continue;
            }
            let id = u32::try_from(i).unwrap_or(u32::MAX);
            match info.tag {
                Tag::Heading(level) => headings.push((level, id)),
                Tag::Form => forms.push(id),
                Tag::P => paragraphs.push(id),
                Tag::Div if self.tree.converted[i] => paragraphs.push(id),
                Tag::Div => {
                    conditional.push((DIV_RANK, std::cmp::Reverse(id)));
                }
                Tag::Conditional(rank) => conditional.push((rank, std::cmp::Reverse(id))),
                _ => {}
            }
        }
        headings.sort_unstable();
        conditional.sort_unstable();
        for (_, h) in headings {
            if !self.dropped[h as usize]
                && (self.page.nodes[h as usize].class_weight < 0
                    || self.current(h).link_density() > 0.33)
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
        for (_, std::cmp::Reverse(e)) in conditional {
            if !self.dropped[e as usize] && self.should_drop(e, limits) {
                self.drop_tree(e);
            }
        }
        self.dropped
    }

    /// Counts of `i`'s subtree without what has been dropped inside it.
    fn current(&self, i: u32) -> Stats {
        let end = self.page.nodes[i as usize].end as usize;
        let inside = self.fenwick.prefix(end) - self.fenwick.prefix(i as usize + 1);
        self.tree.stats[i as usize] - inside
    }

    fn drop_tree(&mut self, i: u32) {
        let current = self.current(i);
        self.fenwick.add(i as usize, current);
        let end = self.page.nodes[i as usize].end as usize;
        let mut j = i as usize;
        while j < end {
            if self.dropped[j] {
                // The root of an earlier drop: its subtree is marked already.
                j = self.page.nodes[j].end as usize;
            } else {
                self.dropped[j] = true;
                j += 1;
            }
        }
    }

    /// Whether the paragraph's text starts with "sign up", "subscribe", "download" or "get the
    /// latest" (`callToActionRe`).
    fn is_call_to_action(&self, p: u32) -> bool {
        let end = self.page.nodes[p as usize].end;
        let Some(first) = (p + 1..end)
            .filter(|&i| self.page.nodes[i as usize].tag == Tag::Text && !self.dropped[i as usize])
            .map(|i| self.page.text(i).trim_start())
            .find(|t| !t.is_empty())
        else {
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

    /// readability-lxml's conditional cleaning of one `<table>`, `<ul>`, `<div>`, `<aside>`,
    /// `<header>`, `<footer>` or `<section>`. Its rescue of text-less elements next to long
    /// siblings is left out: it never changes which text is kept.
    #[allow(clippy::cast_precision_loss)]
    fn should_drop(&self, e: u32, limits: Limits) -> bool {
        let info = &self.page.nodes[e as usize];
        let weight = info.class_weight;
        let score = self.scores[e as usize];
        let score = if score.is_nan() { 0.0 } else { score };
        if f64::from(weight) + score < 0.0 {
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
        let max_ld = if matches!(info.tag, Tag::Conditional(1 | 6)) && info.in_semantic {
            0.25
        } else {
            0.2
        };
        (c.p > 0 && img > 1.0 + p * 1.3)
            || (li > p && info.tag != Tag::Conditional(1))
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

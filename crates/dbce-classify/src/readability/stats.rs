//! Counts over a subtree (text, links, commas, paragraphs, …), which scoring and cleaning add
//! up and subtract.

use std::ops::{Add, Sub};

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
    pub(super) blockquote: u32,
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
            blockquote: self.blockquote.wrapping_add(o.blockquote),
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
            blockquote: self.blockquote.wrapping_sub(o.blockquote),
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

//! Tag tables: which tags split text blocks, and which force or avoid a Block Fusion gap.
//!
//! Boilerpipe's `DefaultTagActionMap` (the library behind the paper) knows four actions:
//! *ignorable* elements whose text is dropped (`style`, `script`, `option`, `object`, `embed`,
//! `applet`, `link`, `noscript`), *anchor text* (`a`), *inline* elements that do not split a
//! block (`strike`, `u`, `b`, `i`, `em`, `strong`, `span`, `sup`, `code`, `tt`, `sub`, `var`,
//! `font`, `abbr`, `acronym`), and everything else, which ends the current block. The
//! sanitised DOM has no scripts, styles, objects or noscript left, so only `option` is ignored
//! here. [`InlineTags::Phrasing`] adds the other HTML phrasing elements that a browser renders
//! inline ([`PHRASING_EXTRA`]).
//!
//! The gap tags of rule-based Block Fusion are those of the dissertation (§4.2.2):
//! T_ForceGap = `h1`–`h6`, `ul`, `dl`, `ol`, `hr`, `table`, `address`, `img`, `script` and
//! T_NoGap = `a`, `b`, `br`, `em`, `font`, `i`, `s`, `span`, `strong`, `sub`, `sup`, `u`, `tt`.

/// Boilerpipe's inline elements (`TA_INLINE_NO_WHITESPACE`, `TA_INLINE_WHITESPACE`); `a` is
/// handled on its own.
pub const BOILERPIPE_INLINE: &[&str] = &[
    "abbr", "acronym", "b", "code", "em", "font", "i", "span", "strike", "strong", "sub", "sup",
    "tt", "u", "var",
];

/// Which tags split text into blocks (the lists are below).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InlineTags {
    /// Boilerpipe's `DefaultTagActionMap`: only `a`, `b`, `i`, `u`, `em`, `strong`, `span`,
    /// `font`, `strike`, `sup`, `sub`, `code`, `tt`, `var`, `abbr` and `acronym` keep a block
    /// together; every other tag (`br`, `img`, `small`, `cite`, …) ends it. The default: the
    /// paper's, and on the development sets within 0.003 F1 of [`InlineTags::Phrasing`] for
    /// every method, mostly ahead (`docs/single-page.md`).
    #[default]
    Boilerpipe,
    /// Boilerpipe's list plus the other phrasing elements a browser renders inline (`small`,
    /// `cite`, `q`, `time`, `mark`, `img`, …), so that blocks follow the rendered lines.
    Phrasing,
}

/// Phrasing elements that [`InlineTags::Phrasing`] keeps inside a block besides
/// [`BOILERPIPE_INLINE`].
pub const PHRASING_EXTRA: &[&str] = &[
    "bdi", "bdo", "big", "cite", "data", "del", "dfn", "img", "ins", "kbd", "label", "mark",
    "nobr", "picture", "q", "rb", "rp", "rt", "rtc", "ruby", "s", "samp", "small", "source", "svg",
    "time", "wbr",
];

/// Elements whose text is not part of any block.
pub const IGNORED: &[&str] = &["option"];

/// Tags that always separate two Block Fusion segments (dissertation §4.2.2, T_ForceGap).
pub const FORCE_GAP: &[&str] = &[
    "address", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "img", "ol", "script", "table", "ul",
];

/// Tags that never separate two Block Fusion segments when they are the only ones between
/// them (dissertation §4.2.2, T_NoGap).
pub const NO_GAP: &[&str] = &[
    "a", "b", "br", "em", "font", "i", "s", "span", "strong", "sub", "sup", "tt", "u",
];

/// What an element does to the block being built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TagClass {
    /// `<a>`: inside the block, its words are linked.
    Anchor,
    /// Inside the block.
    Inline,
    /// Ends the block before and after it.
    Block,
    /// Ends the block; its content is skipped.
    Ignored,
}

pub(crate) fn tag_class(name: &str, inline: InlineTags) -> TagClass {
    if name == "a" {
        TagClass::Anchor
    } else if BOILERPIPE_INLINE.contains(&name)
        || (inline == InlineTags::Phrasing && PHRASING_EXTRA.contains(&name))
    {
        TagClass::Inline
    } else if IGNORED.contains(&name) {
        TagClass::Ignored
    } else {
        TagClass::Block
    }
}

/// The tags between two adjacent blocks, as rule-based Block Fusion sees them (dissertation
/// Eq. 4.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gap {
    /// A gap-enforcing tag ([`FORCE_GAP`]) is among them: the blocks are never fused.
    pub forced: bool,
    /// Every tag among them is gap-avoiding ([`NO_GAP`]), or there is none: the blocks are
    /// always fused unless `forced`.
    pub avoided: bool,
}

impl Gap {
    /// No tags at all.
    pub const EMPTY: Gap = Gap {
        forced: false,
        avoided: true,
    };

    /// Adds one start or end tag.
    pub(crate) fn add(&mut self, name: &str) {
        self.forced |= FORCE_GAP.contains(&name);
        self.avoided &= NO_GAP.contains(&name);
    }
}

impl Default for Gap {
    fn default() -> Self {
        Self::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_tables() {
        assert_eq!(tag_class("a", InlineTags::Boilerpipe), TagClass::Anchor);
        assert_eq!(tag_class("span", InlineTags::Boilerpipe), TagClass::Inline);
        assert_eq!(tag_class("small", InlineTags::Boilerpipe), TagClass::Block);
        assert_eq!(tag_class("small", InlineTags::Phrasing), TagClass::Inline);
        assert_eq!(tag_class("br", InlineTags::Phrasing), TagClass::Block);
        assert_eq!(tag_class("option", InlineTags::Phrasing), TagClass::Ignored);
        assert_eq!(
            tag_class("my-widget", InlineTags::Phrasing),
            TagClass::Block
        );
    }

    #[test]
    fn gap_accumulates() {
        let mut g = Gap::EMPTY;
        g.add("b");
        g.add("br");
        assert_eq!(
            g,
            Gap {
                forced: false,
                avoided: true
            }
        );
        g.add("p");
        assert_eq!(
            g,
            Gap {
                forced: false,
                avoided: false
            }
        );
        g.add("ul");
        assert!(g.forced);
    }

    #[test]
    fn tables_are_sorted_and_disjoint_where_they_must_be() {
        for table in [BOILERPIPE_INLINE, PHRASING_EXTRA, FORCE_GAP, NO_GAP] {
            assert!(table.windows(2).all(|w| w[0] < w[1]), "{table:?}");
        }
        assert!(!BOILERPIPE_INLINE.iter().any(|t| PHRASING_EXTRA.contains(t)));
        assert!(!FORCE_GAP.iter().any(|t| NO_GAP.contains(t)));
    }
}

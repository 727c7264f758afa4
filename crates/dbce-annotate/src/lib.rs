//! Cross selection, text-run diff, bit-pattern classification (thesis §2.3, App. B).
//!
//! For now this crate holds the text-run diff's matcher and the bit-pattern tables. The
//! principal types are:
//! - [`select_cross`]: a page's [`Cross`] among its candidates ([`CrossCandidate`], compared
//!   by [`UrlKey`]), and [`free_family_runs`] for partners of the page's own paginated
//!   document ([`UrlFamily`]), and [`keep_teaser_headlines`] for a listing's linked headlines
//!   whose summaries the cross keeps, and [`RepeatedPassages`] for the second copy of a
//!   passage a reader sees once (a responsive copy hidden by class, a quoted post);
//! - [`BitPattern`] (a cross's [`Bits`] and a run's, over [`CrossRole`]s) and [`classify`],
//!   Appendix B's tables ([`APPENDIX_B`]) as data, with [`InvalidMode`] for test case T002;
//! - [`SequenceMatcher`], a faithful port of Python's `difflib.SequenceMatcher` (CPython
//!   3.11, `isjunk=None`), generic over any `Eq + Hash` key, with
//!   [`find_longest_match`](SequenceMatcher::find_longest_match),
//!   [`get_matching_blocks`](SequenceMatcher::get_matching_blocks),
//!   [`get_opcodes`](SequenceMatcher::get_opcodes) and [`ratio`](SequenceMatcher::ratio);
//! - [`Match`] (a matching block) and [`Opcode`] with its [`Tag`];
//! - lxml `html_annotate`'s short-match filter:
//!   [`insensitive_matching_blocks`](SequenceMatcher::insensitive_matching_blocks),
//!   [`insensitive_opcodes`](SequenceMatcher::insensitive_opcodes) and [`matched_ranges`].
//!
//! Parity with Python is checked by `tests/difflib_parity.rs` against
//! `testdata/difflib/golden.json`, written by `scripts/difflib-golden.py` with the standard
//! library's difflib.
//!
//! ```
//! use dbce_annotate::{Match, SequenceMatcher, Tag};
//!
//! let old = ["Hello", "big", "World", "menu", "home", "about"];
//! let new = ["Goodbye", "big", "World", "menu", "home", "contact"];
//! let matcher = SequenceMatcher::new(&old, &new, true);
//! assert_eq!(
//!     matcher.get_matching_blocks(),
//!     [Match { a: 1, b: 1, size: 4 }, Match { a: 6, b: 6, size: 0 }],
//! );
//! let tags: Vec<Tag> = matcher.get_opcodes().iter().map(|op| op.tag).collect();
//! assert_eq!(tags, [Tag::Replace, Tag::Equal, Tag::Replace]);
//! assert_eq!(matcher.ratio(), 8.0 / 12.0);
//! ```

#![deny(missing_docs)]

mod annotation;
mod cross;
mod error;
mod family;
mod markdown;
mod matcher;
mod pattern;
mod render;
mod repeated;
mod teaser;
mod tokens;

pub use annotation::{
    Decision, LabelledRun, Run, annotate, classify_runs, propagate, resolve_invalid_by_parents,
};
pub use cross::{Cross, CrossCandidate, UrlKey, select_cross};
pub use error::{Error, Side};
pub use family::{UrlFamily, free_family_runs, with_outside_witness};
pub use markdown::content_markdown;
pub use matcher::{Match, Opcode, SequenceMatcher, Tag, matched_ranges};
pub use pattern::{
    APPENDIX_B, BitPattern, Bits, CrossRole, InvalidMode, PatternClass, classify, classify_with,
};
pub use render::{RunLayout, annotated_html, content_text, decision_name, label_name};
pub use repeated::RepeatedPassages;
pub use teaser::keep_teaser_headlines;
pub use tokens::{PageTokens, TokenPlace, WordId};

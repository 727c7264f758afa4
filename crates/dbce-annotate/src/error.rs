//! The crate's one error type.

use std::ops::Range;

/// What went wrong in this crate. Matching two token sequences cannot fail; only explicit
/// sub-ranges passed by a caller can be wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A range given to [`SequenceMatcher::find_longest_match`](crate::SequenceMatcher::find_longest_match)
    /// is reversed or reaches past the end of its sequence.
    #[error("range {range:?} is not within sequence {side:?} of length {len}")]
    Range {
        /// Which sequence the range indexes.
        side: Side,
        /// The rejected range.
        range: Range<usize>,
        /// Length of that sequence.
        len: usize,
    },
}

/// One of the two sequences a [`SequenceMatcher`](crate::SequenceMatcher) compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The first sequence, `a` (in html_annotate, the older document).
    A,
    /// The second sequence, `b` (in html_annotate, the newer document).
    B,
}

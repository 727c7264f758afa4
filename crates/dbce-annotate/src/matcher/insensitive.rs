//! lxml's `InsensitiveSequenceMatcher`: the matcher `html_annotate` really runs, which drops
//! short matches (project note `notes/html-annotate.md`, step 2, "Carry annotations forward").

use std::hash::Hash;

use super::blocks::opcodes_from_blocks;
use super::{Match, Opcode, SequenceMatcher};

/// lxml's `InsensitiveSequenceMatcher.threshold`.
const THRESHOLD: usize = 2;

impl<K: Eq + Hash> SequenceMatcher<'_, K> {
    /// lxml's `InsensitiveSequenceMatcher.get_matching_blocks()`: Python's blocks without
    /// those of `size <= min(2, len(b) / 4)` (integer division, as lxml 6 computes it; the
    /// zero-size sentinel is kept). So in a `b` of 12 or more tokens, matches of two tokens or
    /// fewer are dropped.
    #[must_use]
    pub fn insensitive_matching_blocks(&self) -> Vec<Match> {
        // lxml writes `min(len(self.b), len(self.b))`: only `b` counts.
        let threshold = THRESHOLD.min(self.b.len() / 4);
        let mut blocks = self.get_matching_blocks();
        blocks.retain(|m| m.size > threshold || m.size == 0);
        blocks
    }

    /// lxml's `InsensitiveSequenceMatcher.get_opcodes()`: Python's `get_opcodes` over
    /// [`insensitive_matching_blocks`](Self::insensitive_matching_blocks), so dropped short
    /// matches become `replace`, `delete` or `insert` steps.
    #[must_use]
    pub fn insensitive_opcodes(&self) -> Vec<Opcode> {
        opcodes_from_blocks(&self.insensitive_matching_blocks())
    }
}

/// The `equal` ranges `html_annotate` copies annotations across from `older` to `newer`:
/// `InsensitiveSequenceMatcher(a=older, b=newer)` with autojunk on, its matching blocks
/// without the sentinel (each is exactly one `equal` opcode).
///
/// ```
/// use dbce_annotate::{matched_ranges, Match};
///
/// let v2 = ["Goodbye", "big", "World", "menu", "home", "contact"];
/// let v3 = ["Goodbye", "small", "World", "menu", "home", "contact"];
/// // `Goodbye` alone (size 1 <= min(2, 6 / 4)) is dropped, as in the shared note.
/// assert_eq!(matched_ranges(&v2, &v3), [Match { a: 2, b: 2, size: 4 }]);
/// ```
#[must_use]
pub fn matched_ranges<K: Eq + Hash>(older: &[K], newer: &[K]) -> Vec<Match> {
    let mut blocks = SequenceMatcher::new(older, newer, true).insensitive_matching_blocks();
    blocks.pop();
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tag;

    #[test]
    fn short_b_lowers_the_threshold() {
        // len(b) = 4: threshold min(2, 1) = 1, so a single-token match is dropped.
        let (a, b) = (["x", "k", "y", "z"], ["p", "k", "q", "r"]);
        let m = SequenceMatcher::new(&a, &b, true);
        assert_eq!(m.get_matching_blocks().len(), 2);
        assert_eq!(
            m.insensitive_matching_blocks(),
            [Match {
                a: 4,
                b: 4,
                size: 0
            }]
        );
        // len(b) = 3: threshold 0, every match is kept.
        let m = SequenceMatcher::new(&a[..3], &b[..3], true);
        assert_eq!(m.insensitive_matching_blocks().len(), 2);
    }

    #[test]
    fn two_token_matches_are_dropped_three_kept() {
        let a = ["a", "b", "x", "c", "d", "e", "y", "f", "g", "h", "i", "j"];
        let b = ["a", "b", "X", "c", "d", "e", "Y", "F", "G", "H", "I", "J"];
        let m = SequenceMatcher::new(&a, &b, true);
        assert_eq!(
            m.insensitive_matching_blocks(),
            [
                Match {
                    a: 3,
                    b: 3,
                    size: 3
                },
                Match {
                    a: 12,
                    b: 12,
                    size: 0
                }
            ]
        );
        let tags: Vec<Tag> = m.insensitive_opcodes().iter().map(|o| o.tag).collect();
        assert_eq!(tags, [Tag::Replace, Tag::Equal, Tag::Replace]);
        assert_eq!(
            matched_ranges(&a, &b),
            [Match {
                a: 3,
                b: 3,
                size: 3
            }]
        );
    }
}

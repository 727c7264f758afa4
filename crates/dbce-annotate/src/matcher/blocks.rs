//! Matching blocks, opcodes and ratio: Python's `get_matching_blocks`, `get_opcodes` and
//! `ratio`.

use std::hash::Hash;
use std::ops::Range;

use super::{Match, Rows, SequenceMatcher, cut_runs, longest_run};

/// What an [`Opcode`] does, Python's opcode tag strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tag {
    /// `'equal'`: `a[a_range] == b[b_range]`.
    Equal,
    /// `'replace'`: `a[a_range]` is replaced by `b[b_range]`.
    Replace,
    /// `'delete'`: `a[a_range]` is deleted; `b_range` is empty.
    Delete,
    /// `'insert'`: `b[b_range]` is inserted; `a_range` is empty.
    Insert,
}

impl Tag {
    /// The tag as Python spells it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Equal => "equal",
            Self::Replace => "replace",
            Self::Delete => "delete",
            Self::Insert => "insert",
        }
    }
}

/// One step turning `a` into `b`, Python's `(tag, i1, i2, j1, j2)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Opcode {
    /// What the step does.
    pub tag: Tag,
    /// `i1..i2`, the range of `a`.
    pub a: Range<usize>,
    /// `j1..j2`, the range of `b`.
    pub b: Range<usize>,
}

impl<K: Eq + Hash> SequenceMatcher<'_, K> {
    /// Python's `get_matching_blocks()`: the non-overlapping matching blocks, increasing in
    /// both sequences, adjacent blocks merged, and ending in the sentinel
    /// `Match { a: len(a), b: len(b), size: 0 }`.
    #[must_use]
    pub fn get_matching_blocks(&self) -> Vec<Match> {
        self.matching_blocks(self.runs_fit())
    }

    /// [`get_matching_blocks`](Self::get_matching_blocks) with runs (`with_runs`) or with
    /// Python's row programme for every searched range.
    pub(super) fn matching_blocks(&self, with_runs: bool) -> Vec<Match> {
        let (la, lb) = (self.a.len(), self.b.len());
        let mut rows = (!with_runs).then(|| Rows::new(lb));
        let runs = if with_runs {
            self.runs(0..la, 0..lb)
        } else {
            Vec::new()
        };
        // Python keeps a list and pops from its end: a stack, right half searched first. Each
        // range carries the runs within it (see `SequenceMatcher`), none without runs.
        let mut queue = vec![(0..la, 0..lb, runs)];
        let mut found = Vec::new();
        while let Some((a, b, runs)) = queue.pop() {
            let best = match &mut rows {
                Some(rows) => rows.longest_indexed(self, a.clone(), b.clone()),
                None => longest_run(&runs, &a, &b),
            };
            let x = self.extend(best, a.clone(), b.clone());
            if x.size == 0 {
                continue;
            }
            found.push(x);
            if a.start < x.a && b.start < x.b {
                let (a, b) = (a.start..x.a, b.start..x.b);
                let runs = cut_runs(&runs, &a, &b);
                queue.push((a, b, runs));
            }
            if x.a + x.size < a.end && x.b + x.size < b.end {
                let (a, b) = (x.a + x.size..a.end, x.b + x.size..b.end);
                let runs = cut_runs(&runs, &a, &b);
                queue.push((a, b, runs));
            }
        }
        found.sort_unstable();
        let mut blocks = collapse_adjacent(&found);
        blocks.push(Match {
            a: la,
            b: lb,
            size: 0,
        });
        blocks
    }

    /// Python's `get_opcodes()`: the steps turning `a` into `b`, covering both sequences.
    #[must_use]
    pub fn get_opcodes(&self) -> Vec<Opcode> {
        opcodes_from_blocks(&self.get_matching_blocks())
    }

    /// Python's `ratio()`: `2 * matches / (len(a) + len(b))`, or `1.0` when both are empty,
    /// computed with the same floating-point operations so the bits agree.
    #[must_use]
    pub fn ratio(&self) -> f64 {
        let matches: usize = self.get_matching_blocks().iter().map(|m| m.size).sum();
        let length = self.a.len() + self.b.len();
        if length == 0 {
            return 1.0;
        }
        // Counts of tokens are far below 2^53, so these conversions are exact.
        let (matches, length) = (matches as f64, length as f64);
        2.0 * matches / length
    }
}

/// Merges blocks that touch in both sequences, as Python's `non_adjacent` loop does.
pub(super) fn collapse_adjacent(sorted: &[Match]) -> Vec<Match> {
    let mut out = Vec::with_capacity(sorted.len());
    let mut cur = Match {
        a: 0,
        b: 0,
        size: 0,
    };
    for &next in sorted {
        if cur.a + cur.size == next.a && cur.b + cur.size == next.b {
            cur.size += next.size;
        } else {
            if cur.size > 0 {
                out.push(cur);
            }
            cur = next;
        }
    }
    if cur.size > 0 {
        out.push(cur);
    }
    out
}

/// The body of Python's `get_opcodes()` over a list of matching blocks ending in the
/// sentinel.
pub(super) fn opcodes_from_blocks(blocks: &[Match]) -> Vec<Opcode> {
    let (mut i, mut j) = (0, 0);
    let mut answer = Vec::new();
    for m in blocks {
        let tag = match (i < m.a, j < m.b) {
            (true, true) => Some(Tag::Replace),
            (true, false) => Some(Tag::Delete),
            (false, true) => Some(Tag::Insert),
            (false, false) => None,
        };
        if let Some(tag) = tag {
            answer.push(Opcode {
                tag,
                a: i..m.a,
                b: j..m.b,
            });
        }
        (i, j) = (m.a + m.size, m.b + m.size);
        if m.size > 0 {
            answer.push(Opcode {
                tag: Tag::Equal,
                a: m.a..i,
                b: m.b..j,
            });
        }
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::collection::vec;
    use proptest::prelude::*;

    #[test]
    fn adjacent_blocks_are_merged() {
        let sorted = [
            Match {
                a: 0,
                b: 0,
                size: 2,
            },
            Match {
                a: 2,
                b: 2,
                size: 1,
            },
            Match {
                a: 4,
                b: 3,
                size: 1,
            },
        ];
        let merged = collapse_adjacent(&sorted);
        assert_eq!(
            merged,
            [
                Match {
                    a: 0,
                    b: 0,
                    size: 3
                },
                Match {
                    a: 4,
                    b: 3,
                    size: 1
                }
            ]
        );
    }

    #[test]
    fn empty_sequences_give_the_sentinel_and_ratio_one() {
        let m = SequenceMatcher::<u8>::new(&[], &[], true);
        assert_eq!(
            m.get_matching_blocks(),
            [Match {
                a: 0,
                b: 0,
                size: 0
            }]
        );
        assert!(m.get_opcodes().is_empty());
        assert_eq!(m.ratio().to_bits(), 1.0_f64.to_bits());
    }

    #[test]
    fn opcodes_follow_python_tags() {
        let (a, b) = (
            ['q', 'a', 'b', 'x', 'c', 'd'],
            ['a', 'b', 'y', 'c', 'd', 'f'],
        );
        let ops = SequenceMatcher::new(&a, &b, true).get_opcodes();
        let got: Vec<(&str, usize, usize, usize, usize)> = ops
            .iter()
            .map(|o| (o.tag.as_str(), o.a.start, o.a.end, o.b.start, o.b.end))
            .collect();
        let want = [
            ("delete", 0, 1, 0, 0),
            ("equal", 1, 3, 0, 2),
            ("replace", 3, 4, 2, 3),
            ("equal", 4, 6, 3, 5),
            ("insert", 6, 6, 5, 6),
        ];
        assert_eq!(got, want);
    }

    proptest! {
        #[test]
        fn blocks_increase_without_overlap_and_match(
            a in vec(0u8..6, 0..260),
            b in vec(0u8..6, 0..260),
            autojunk in any::<bool>(),
        ) {
            let blocks = SequenceMatcher::new(&a, &b, autojunk).get_matching_blocks();
            let (last, body) = blocks.split_last().expect("sentinel");
            prop_assert_eq!(*last, Match { a: a.len(), b: b.len(), size: 0 });
            let mut end = (0, 0);
            for m in body {
                prop_assert!(m.size > 0);
                prop_assert!(m.a >= end.0 && m.b >= end.1);
                // Merged: no block continues the previous one in both sequences.
                prop_assert!(end == (0, 0) || (m.a, m.b) != end);
                prop_assert_eq!(&a[m.a..m.a + m.size], &b[m.b..m.b + m.size]);
                end = (m.a + m.size, m.b + m.size);
            }
            prop_assert!(end.0 <= a.len() && end.1 <= b.len());
        }

        #[test]
        fn opcodes_cover_both_sequences(
            a in vec(0u8..5, 0..120),
            b in vec(0u8..5, 0..120),
        ) {
            let ops = SequenceMatcher::new(&a, &b, true).get_opcodes();
            let (mut i, mut j) = (0, 0);
            for op in &ops {
                prop_assert_eq!((op.a.start, op.b.start), (i, j));
                match op.tag {
                    Tag::Equal => prop_assert_eq!(&a[op.a.clone()], &b[op.b.clone()]),
                    Tag::Replace => prop_assert!(!op.a.is_empty() && !op.b.is_empty()),
                    Tag::Delete => prop_assert!(!op.a.is_empty() && op.b.is_empty()),
                    Tag::Insert => prop_assert!(op.a.is_empty() && !op.b.is_empty()),
                }
                (i, j) = (op.a.end, op.b.end);
            }
            prop_assert_eq!((i, j), (a.len(), b.len()));
        }
    }
}

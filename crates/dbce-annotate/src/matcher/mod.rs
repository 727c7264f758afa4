//! A faithful port of Python's `difflib.SequenceMatcher` (CPython 3.11 `Lib/difflib.py`),
//! the matcher lxml's `html_annotate` runs between token lists (thesis §2.3).
//!
//! Only the `isjunk=None` form exists here, because that is the only one `html_annotate`
//! uses; `autojunk` is kept because lxml leaves it on. Everything else follows the Python
//! line by line, so the alignment (not just its size) is the one Python finds: the longest
//! block first, then recursively left and right of it. A Myers diff (`similar`, imara-diff)
//! finds a different alignment and must not replace this.

mod blocks;
mod insensitive;
#[cfg(test)]
mod reference;

use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Range;

use crate::{Error, Side};

pub use blocks::{Opcode, Tag};
pub use insensitive::matched_ranges;

/// A fast hasher with a fixed seed: the element map is looked up, never iterated, but a fixed
/// seed keeps run times reproducible too. (The `SipHash` of `DefaultHasher` took about half of
/// the matcher's time on two 2,000-word pages.)
type FixedState = foldhash::fast::FixedState;

/// The element id of a position of `a` whose element is not in the index.
const NOT_IN_A: u32 = u32::MAX;
/// The element id of a position of `b` whose element is popular (left out of the index).
/// Differs from [`NOT_IN_A`], so that two positions match exactly when their ids are equal.
const POPULAR_IN_B: u32 = u32::MAX - 1;

/// Runs are kept while the indexed pairs number at most this many per element of both
/// sequences; denser pairs of sequences (a long table of a few numbers each under the
/// popularity limit) are searched with Python's row programme, whose memory is one row of `b`.
const MAX_PAIRS_PER_ELEMENT: usize = 16;

/// A matching block, Python's `Match(a, b, size)`: `a[a..a + size] == b[b..b + size]`.
///
/// Blocks order like Python's tuples: by `a`, then `b`, then `size`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Match {
    /// Start of the block in sequence `a`.
    pub a: usize,
    /// Start of the block in sequence `b`.
    pub b: usize,
    /// Number of equal elements.
    pub size: usize,
}

/// A maximal run of indexed pairs, `a[a + t] == b[b + t]` for `t < size`, kept in 12 bytes:
/// a pair of large pages can have a million of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Run {
    a: u32,
    b: u32,
    size: u32,
}

impl Run {
    /// The run as a block.
    fn block(self) -> Match {
        Match {
            a: self.a as usize,
            b: self.b as usize,
            size: self.size as usize,
        }
    }
}

/// An index of `a` or `b` as stored in a [`Run`]; [`SequenceMatcher::new`] checked that both
/// sequences are short enough.
fn narrow(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// Python's `difflib.SequenceMatcher(None, a, b, autojunk)` over two key slices.
///
/// Elements compare with `Eq` and are indexed with `Hash`; `html_annotate` uses the word text
/// of each token as its key.
///
/// Python's `find_longest_match` walks every pair `(i, j)` with `a[i] == b[j]` in its ranges
/// (`b[j]` not popular) with a dynamic programme, again for every range the recursion of
/// `get_matching_blocks` searches. Those pairs lie on diagonals in runs; this port finds the
/// maximal runs once, by element ids instead of hashing, and answers each search from the runs
/// that cross its ranges, cut to them. The longest cut run, the earliest in `a` then in `b`
/// among the longest, is exactly the block Python's programme finds first; the extension over
/// popular elements is Python's. A property test compares the two on random sequences.
///
/// ```
/// use dbce_annotate::{Match, SequenceMatcher};
///
/// let a: Vec<char> = "qabxcd".chars().collect();
/// let b: Vec<char> = "abycdf".chars().collect();
/// let m = SequenceMatcher::new(&a, &b, true);
/// assert_eq!(m.get_matching_blocks()[0], Match { a: 1, b: 0, size: 2 });
/// assert_eq!(m.ratio(), 2.0 * 4.0 / 12.0);
/// ```
#[derive(Debug, Clone)]
pub struct SequenceMatcher<'s, K> {
    a: &'s [K],
    b: &'s [K],
    /// Python's `b2j` in one array: the indices in `b` of the element with id `e` are
    /// `b_indices[b_starts[e]..b_starts[e + 1]]`, ascending; popular elements have none.
    b_indices: Vec<usize>,
    /// Offsets into `b_indices` by element id, one more than there are ids.
    b_starts: Vec<usize>,
    /// The element id of each position of `a`, or [`NOT_IN_A`].
    a_ids: Vec<u32>,
    /// The element id of each position of `b`, or [`POPULAR_IN_B`].
    b_ids: Vec<u32>,
}

impl<'s, K: Eq + Hash> SequenceMatcher<'s, K> {
    /// Prepares to compare `a` with `b`, building the index of `b` (Python's `__chain_b`).
    ///
    /// With `autojunk`, if `b` has at least 200 elements, every element occurring more than
    /// `len(b) / 100 + 1` times is *popular* and left out of the index: it is matched only
    /// when `find_longest_match` extends a block over it (including, as in Python, the empty
    /// block at the start of the searched ranges).
    ///
    /// # Panics
    ///
    /// If `a` or `b` holds `u32::MAX - 1` elements or more.
    #[must_use]
    pub fn new(a: &'s [K], b: &'s [K], autojunk: bool) -> Self {
        assert!(
            a.len() < POPULAR_IN_B as usize && b.len() < POPULAR_IN_B as usize,
            "sequences of fewer than u32::MAX - 1 elements"
        );
        // Ids in order of first occurrence in `b`: no hash order is ever observed.
        let mut ids: HashMap<&K, u32, FixedState> = HashMap::default();
        let mut counts: Vec<usize> = Vec::new();
        let mut b_ids = Vec::with_capacity(b.len());
        for elt in b {
            let next = narrow(counts.len());
            let id = *ids.entry(elt).or_insert(next);
            if id == next {
                counts.push(0);
            }
            counts[id as usize] += 1;
            b_ids.push(id);
        }
        let n = b.len();
        if autojunk && n >= 200 {
            // A popular element keeps its id but no indices: its count becomes 0.
            let ntest = n / 100 + 1;
            for count in &mut counts {
                if *count > ntest {
                    *count = 0;
                }
            }
            for id in &mut b_ids {
                if counts[*id as usize] == 0 {
                    *id = POPULAR_IN_B;
                }
            }
        }
        let mut b_starts = Vec::with_capacity(counts.len() + 1);
        let mut total = 0;
        b_starts.push(0);
        for count in &counts {
            total += count;
            b_starts.push(total);
        }
        let mut next_slot = b_starts.clone();
        let mut b_indices = vec![0; total];
        for (j, &id) in b_ids.iter().enumerate() {
            if id != POPULAR_IN_B {
                let slot = &mut next_slot[id as usize];
                b_indices[*slot] = j;
                *slot += 1;
            }
        }
        let a_ids = a
            .iter()
            .map(|elt| match ids.get(elt) {
                Some(&id) if counts[id as usize] > 0 => id,
                _ => NOT_IN_A,
            })
            .collect();
        Self {
            a,
            b,
            b_indices,
            b_starts,
            a_ids,
            b_ids,
        }
    }

    /// The first sequence.
    #[must_use]
    pub fn a(&self) -> &'s [K] {
        self.a
    }

    /// The second sequence.
    #[must_use]
    pub fn b(&self) -> &'s [K] {
        self.b
    }

    /// Python's `find_longest_match(alo, ahi, blo, bhi)`: the longest block of
    /// `a[alo..ahi]` equal to a block of `b[blo..bhi]`; among the longest, the one starting
    /// earliest in `a`, then earliest in `b`. Returns a block of size 0 at `(alo, blo)` when
    /// nothing matches.
    ///
    /// # Errors
    ///
    /// [`Error::Range`] if a range is reversed or reaches past its sequence's end.
    pub fn find_longest_match(&self, a: Range<usize>, b: Range<usize>) -> Result<Match, Error> {
        check_range(Side::A, &a, self.a.len())?;
        check_range(Side::B, &b, self.b.len())?;
        let best = Rows::new(self.b.len()).longest_indexed(self, a.clone(), b.clone());
        Ok(self.extend(best, a, b))
    }

    /// Whether [`get_matching_blocks`](Self::get_matching_blocks) keeps runs: the indexed
    /// pairs are few enough (see [`MAX_PAIRS_PER_ELEMENT`]).
    pub(super) fn runs_fit(&self) -> bool {
        let limit = MAX_PAIRS_PER_ELEMENT * (self.a.len() + self.b.len());
        let mut pairs = 0;
        for &id in &self.a_ids {
            if id != NOT_IN_A {
                pairs += self.indices(id).len();
                if pairs > limit {
                    return false;
                }
            }
        }
        true
    }

    /// The indices in `b` of the element with id `id`, ascending.
    fn indices(&self, id: u32) -> &[usize] {
        let id = id as usize;
        &self.b_indices[self.b_starts[id]..self.b_starts[id + 1]]
    }

    /// Whether `a[i]` and `b[j]` are equal and indexed: a cell Python's programme visits.
    fn indexed_pair(&self, i: usize, j: usize) -> bool {
        self.a_ids[i] == self.b_ids[j]
    }

    /// The maximal runs of indexed pairs along diagonals within the ranges, in order of their
    /// start in `a`, then in `b`.
    pub(super) fn runs(&self, a: Range<usize>, b: Range<usize>) -> Vec<Run> {
        let mut runs = Vec::new();
        for i in a.clone() {
            let id = self.a_ids[i];
            if id == NOT_IN_A {
                continue;
            }
            let js = self.indices(id);
            let from = js.partition_point(|&j| j < b.start);
            for &j in &js[from..] {
                if j >= b.end {
                    break;
                }
                if i > a.start && j > b.start && self.indexed_pair(i - 1, j - 1) {
                    continue; // inside a run that starts above
                }
                let mut size = 1;
                while i + size < a.end && j + size < b.end && self.indexed_pair(i + size, j + size)
                {
                    size += 1;
                }
                runs.push(Run {
                    a: narrow(i),
                    b: narrow(j),
                    size: narrow(size),
                });
            }
        }
        runs
    }

    /// Python's extension passes after the index search. They grow the block over equal
    /// elements that the index omitted, i.e. popular ones. Python then repeats both loops for
    /// junk elements; with `isjunk=None` the junk set is empty, so those two loops never run
    /// and are not ported.
    pub(super) fn extend(&self, best: Match, a: Range<usize>, b: Range<usize>) -> Match {
        let Match {
            a: mut i,
            b: mut j,
            mut size,
        } = best;
        while i > a.start && j > b.start && self.a[i - 1] == self.b[j - 1] {
            (i, j, size) = (i - 1, j - 1, size + 1);
        }
        while i + size < a.end && j + size < b.end && self.a[i + size] == self.b[j + size] {
            size += 1;
        }
        Match { a: i, b: j, size }
    }
}

/// The block Python's `for i in range(alo, ahi)` loop finds among `runs` (all within the
/// ranges): the longest, and among the longest the earliest in `a`, then in `b` (Python keeps
/// the first cell reaching the greatest length, `k > bestsize`); size 0 at the ranges' start
/// when there is none.
pub(super) fn longest_run(runs: &[Run], a: &Range<usize>, b: &Range<usize>) -> Match {
    let mut best: Option<Run> = None;
    for &run in runs {
        if best.is_none_or(|best| {
            run.size > best.size || (run.size == best.size && (run.a, run.b) < (best.a, best.b))
        }) {
            best = Some(run);
        }
    }
    best.map_or(
        Match {
            a: a.start,
            b: b.start,
            size: 0,
        },
        Run::block,
    )
}

/// The parts of `runs` within the ranges: each run cut to them, those left empty dropped. The
/// maximal runs of a sub-rectangle are exactly these.
pub(super) fn cut_runs(runs: &[Run], a: &Range<usize>, b: &Range<usize>) -> Vec<Run> {
    runs.iter()
        .map(|run| run.block())
        .filter(|run| run.a < a.end && run.b < b.end)
        .filter_map(|run| {
            let skip = a
                .start
                .saturating_sub(run.a)
                .max(b.start.saturating_sub(run.b));
            let end = run.size.min(a.end - run.a).min(b.end - run.b);
            (end > skip).then(|| Run {
                a: narrow(run.a + skip),
                b: narrow(run.b + skip),
                size: narrow(end - skip),
            })
        })
        .collect()
}

/// Python's `j2len` / `newj2len` dictionaries as two dense rows indexed by `j + 1`, with the
/// indices each row set, so that clearing a row costs what filling it did.
pub(super) struct Rows {
    prev: Vec<usize>,
    prev_set: Vec<usize>,
    cur: Vec<usize>,
    cur_set: Vec<usize>,
}

impl Rows {
    /// Rows for a `b` of `len_b` elements.
    pub(super) fn new(len_b: usize) -> Self {
        Self {
            prev: vec![0; len_b + 1],
            prev_set: Vec::new(),
            cur: vec![0; len_b + 1],
            cur_set: Vec::new(),
        }
    }

    /// The `for i in range(alo, ahi)` loop of `find_longest_match`: the longest block whose
    /// elements all start in the index, first found wins (`k > bestsize`).
    pub(super) fn longest_indexed<K: Eq + Hash>(
        &mut self,
        m: &SequenceMatcher<'_, K>,
        a: Range<usize>,
        b: Range<usize>,
    ) -> Match {
        let mut best = Match {
            a: a.start,
            b: b.start,
            size: 0,
        };
        for i in a {
            let id = m.a_ids[i];
            let js = if id == NOT_IN_A {
                &[][..]
            } else {
                m.indices(id)
            };
            let from = js.partition_point(|&j| j < b.start);
            for &j in &js[from..] {
                if j >= b.end {
                    break;
                }
                let k = self.prev[j] + 1;
                self.cur[j + 1] = k;
                self.cur_set.push(j + 1);
                if k > best.size {
                    best = Match {
                        a: i + 1 - k,
                        b: j + 1 - k,
                        size: k,
                    };
                }
            }
            self.next_row();
        }
        self.next_row();
        best
    }

    /// `j2len = newj2len`: clears the old row and makes the new row the old one.
    fn next_row(&mut self) {
        for &j in &self.prev_set {
            self.prev[j] = 0;
        }
        self.prev_set.clear();
        std::mem::swap(&mut self.prev, &mut self.cur);
        std::mem::swap(&mut self.prev_set, &mut self.cur_set);
    }
}

/// Rejects a reversed range or one past `len`.
fn check_range(side: Side, range: &Range<usize>, len: usize) -> Result<(), Error> {
    if range.start <= range.end && range.end <= len {
        Ok(())
    } else {
        Err(Error::Range {
            side,
            range: range.clone(),
            len,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn longest_match_prefers_earliest_in_a_then_b() {
        let (a, b) = (chars("xab_ab"), chars("ab_ab"));
        let m = SequenceMatcher::new(&a, &b, false);
        assert_eq!(
            m.find_longest_match(0..6, 0..5),
            Ok(Match {
                a: 1,
                b: 0,
                size: 5
            })
        );
        assert_eq!(
            m.find_longest_match(0..3, 0..5),
            Ok(Match {
                a: 1,
                b: 0,
                size: 2
            })
        );
    }

    #[test]
    fn reversed_or_long_ranges_are_errors() {
        let (a, b) = (chars("abc"), chars("ab"));
        let m = SequenceMatcher::new(&a, &b, true);
        let err = m.find_longest_match(0..4, 0..2).unwrap_err();
        assert_eq!(
            err,
            Error::Range {
                side: Side::A,
                range: 0..4,
                len: 3
            }
        );
        let reversed = Range { start: 2, end: 1 };
        let err = m.find_longest_match(0..3, reversed.clone()).unwrap_err();
        assert_eq!(
            err,
            Error::Range {
                side: Side::B,
                range: reversed,
                len: 2
            }
        );
    }

    /// Whether `elt` is in the index of `b` (Python's `elt in b2j`).
    fn indexed<K: Eq + Hash>(m: &SequenceMatcher<'_, K>, b: &[K], elt: &K) -> Option<usize> {
        let j = b.iter().position(|e| e == elt)?;
        let id = m.b_ids[j];
        (id != POPULAR_IN_B).then(|| m.indices(id).len())
    }

    #[test]
    fn autojunk_removes_popular_elements_from_the_index_only_from_200() {
        // 199 elements: nothing is popular, however frequent.
        let b: Vec<u8> = (0..199).map(|i| u8::from(i % 2 == 0)).collect();
        assert!(indexed(&SequenceMatcher::new(&[], &b, true), &b, &1).is_some());
        // 200 elements: ntest = 3, so an element seen 4 times is popular, 3 times is not.
        let mut b: Vec<u8> = (0..200)
            .map(|i| u8::try_from(i % 100).unwrap_or(0) + 10)
            .collect();
        b[..4].copy_from_slice(&[1, 1, 1, 1]);
        b[4..7].copy_from_slice(&[2, 2, 2]);
        let m = SequenceMatcher::new(&[1, 2], &b, true);
        assert_eq!(indexed(&m, &b, &1), None);
        assert_eq!(m.a_ids[0], NOT_IN_A);
        assert_eq!(indexed(&m, &b, &2), Some(3));
        let m = SequenceMatcher::new(&[], &b, false);
        assert_eq!(indexed(&m, &b, &1), Some(4));
    }

    #[test]
    fn dense_pairs_of_sequences_are_searched_without_runs() {
        // Every element of `a` equals a quarter of `b`: 75 pairs per element of `a`.
        let dense: Vec<u8> = (0..300).map(|i| (i % 4) as u8).collect();
        let m = SequenceMatcher::new(&dense, &dense, false);
        assert!(!m.runs_fit());
        assert_eq!(
            m.get_matching_blocks()[0],
            Match {
                a: 0,
                b: 0,
                size: 300
            }
        );
        let sparse: Vec<u16> = (0..300).collect();
        assert!(SequenceMatcher::new(&sparse, &sparse, false).runs_fit());
    }

    #[test]
    fn popular_elements_are_only_reached_by_extension() {
        // `0` is popular in `b`, so the run of zeros is only reached by extending the match
        // of the unique `7` to its left.
        let mut b = vec![0_u16; 100];
        b.push(7);
        b.extend(1000..1099);
        let a = [0, 0, 7];
        let m = SequenceMatcher::new(&a, &b, true);
        assert_eq!(
            m.find_longest_match(0..3, 0..200),
            Ok(Match {
                a: 0,
                b: 98,
                size: 3
            })
        );
        // Nothing indexed matches, and the empty block at (0, 0) cannot extend over `5`.
        let a = [5, 0, 0];
        let m = SequenceMatcher::new(&a, &b, true);
        assert_eq!(
            m.find_longest_match(0..3, 0..200),
            Ok(Match {
                a: 0,
                b: 0,
                size: 0
            })
        );
        let m = SequenceMatcher::new(&a, &b, false);
        assert_eq!(
            m.find_longest_match(0..3, 0..200),
            Ok(Match {
                a: 1,
                b: 0,
                size: 2
            })
        );
        // Python's quirk, kept: the empty block at (alo, blo) does extend when it can.
        let m = SequenceMatcher::new(&a, &b, true);
        assert_eq!(
            m.find_longest_match(1..3, 0..200),
            Ok(Match {
                a: 1,
                b: 0,
                size: 2
            })
        );
    }
}

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

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher, Hash};
use std::ops::Range;

use crate::{Error, Side};

pub use blocks::{Opcode, Tag};
pub use insensitive::matched_ranges;

/// A fixed-key hasher: the index lists are looked up, never iterated, but a fixed hasher keeps
/// run times reproducible too.
type FixedState = BuildHasherDefault<DefaultHasher>;

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

/// Python's `difflib.SequenceMatcher(None, a, b, autojunk)` over two key slices.
///
/// Elements compare with `Eq` and are indexed with `Hash`; `html_annotate` uses the word text
/// of each token as its key.
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
    /// Python's `b2j`: for each element of `b` that is not popular, its indices, ascending.
    b2j: HashMap<&'s K, Vec<usize>, FixedState>,
}

impl<'s, K: Eq + Hash> SequenceMatcher<'s, K> {
    /// Prepares to compare `a` with `b`, building the index of `b` (Python's `__chain_b`).
    ///
    /// With `autojunk`, if `b` has at least 200 elements, every element occurring more than
    /// `len(b) / 100 + 1` times is *popular* and left out of the index: it is matched only
    /// when `find_longest_match` extends a block over it (including, as in Python, the empty
    /// block at the start of the searched ranges).
    #[must_use]
    pub fn new(a: &'s [K], b: &'s [K], autojunk: bool) -> Self {
        let mut b2j: HashMap<&K, Vec<usize>, FixedState> = HashMap::default();
        for (i, elt) in b.iter().enumerate() {
            b2j.entry(elt).or_default().push(i);
        }
        let n = b.len();
        if autojunk && n >= 200 {
            let ntest = n / 100 + 1;
            // Walks `b`, not the map, so that no hash order is ever observed.
            for elt in b {
                if b2j.get(elt).is_some_and(|idxs| idxs.len() > ntest) {
                    b2j.remove(elt);
                }
            }
        }
        Self { a, b, b2j }
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
        Ok(self.longest_match(&mut Scratch::new(self.b.len()), a, b))
    }

    /// The body of `find_longest_match`, for ranges known to be valid.
    fn longest_match(&self, scratch: &mut Scratch, a: Range<usize>, b: Range<usize>) -> Match {
        let best = scratch.longest_indexed(self, a.clone(), b.clone());
        self.extend(best, a, b)
    }

    /// Python's extension passes after the index search. They grow the block over equal
    /// elements that the index omitted, i.e. popular ones. Python then repeats both loops for
    /// junk elements; with `isjunk=None` the junk set is empty, so those two loops never run
    /// and are not ported.
    fn extend(&self, best: Match, a: Range<usize>, b: Range<usize>) -> Match {
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

/// Python's `j2len` / `newj2len` dictionaries as two dense rows indexed by `j + 1`, with the
/// indices each row set, so that clearing a row costs what filling it did.
struct Scratch {
    prev: Vec<usize>,
    prev_set: Vec<usize>,
    cur: Vec<usize>,
    cur_set: Vec<usize>,
}

impl Scratch {
    fn new(len_b: usize) -> Self {
        Self {
            prev: vec![0; len_b + 1],
            prev_set: Vec::new(),
            cur: vec![0; len_b + 1],
            cur_set: Vec::new(),
        }
    }

    /// The `for i in range(alo, ahi)` loop of `find_longest_match`: the longest block whose
    /// elements all start in the index, first found wins (`k > bestsize`).
    fn longest_indexed<K: Eq + Hash>(
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
            let js = m.b2j.get(&m.a[i]).map_or(&[][..], Vec::as_slice);
            for &j in js.iter().skip_while(|&&j| j < b.start) {
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

    #[test]
    fn autojunk_removes_popular_elements_from_the_index_only_from_200() {
        // 199 elements: nothing is popular, however frequent.
        let b: Vec<u8> = (0..199).map(|i| u8::from(i % 2 == 0)).collect();
        assert!(SequenceMatcher::new(&[], &b, true).b2j.contains_key(&1));
        // 200 elements: ntest = 3, so an element seen 4 times is popular, 3 times is not.
        let mut b: Vec<u8> = (0..200)
            .map(|i| u8::try_from(i % 100).unwrap_or(0) + 10)
            .collect();
        b[..4].copy_from_slice(&[1, 1, 1, 1]);
        b[4..7].copy_from_slice(&[2, 2, 2]);
        let m = SequenceMatcher::new(&[], &b, true);
        assert!(!m.b2j.contains_key(&1));
        assert_eq!(m.b2j.get(&2).map(Vec::len), Some(3));
        assert!(SequenceMatcher::new(&[], &b, false).b2j.contains_key(&1));
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

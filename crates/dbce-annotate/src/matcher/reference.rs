//! The straightforward port of CPython's `find_longest_match` and `get_matching_blocks`
//! (`j2len` dictionaries as rows, the index as a hash map of lists), kept to test the runs of
//! [`SequenceMatcher`] against on random sequences.

use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Range;

use proptest::collection::vec;
use proptest::prelude::*;

use super::blocks::collapse_adjacent;
use super::{Match, SequenceMatcher, longest_run};

/// Python's `b2j` after `__chain_b`, popular elements removed when `autojunk`.
fn chain_b<K: Eq + Hash>(b: &[K], autojunk: bool) -> HashMap<&K, Vec<usize>> {
    let mut b2j: HashMap<&K, Vec<usize>> = HashMap::new();
    for (i, elt) in b.iter().enumerate() {
        b2j.entry(elt).or_default().push(i);
    }
    if autojunk && b.len() >= 200 {
        let ntest = b.len() / 100 + 1;
        b2j.retain(|_, idxs| idxs.len() <= ntest);
    }
    b2j
}

/// Python's `find_longest_match`, line by line.
fn find_longest_match<K: Eq + Hash>(
    a: &[K],
    b: &[K],
    b2j: &HashMap<&K, Vec<usize>>,
    ar: Range<usize>,
    br: Range<usize>,
) -> Match {
    let mut best = Match {
        a: ar.start,
        b: br.start,
        size: 0,
    };
    let mut j2len: HashMap<usize, usize> = HashMap::new();
    for i in ar.clone() {
        let mut newj2len = HashMap::new();
        for &j in b2j.get(&a[i]).map_or(&[][..], Vec::as_slice) {
            if j < br.start {
                continue;
            }
            if j >= br.end {
                break;
            }
            let k = j.checked_sub(1).and_then(|p| j2len.get(&p)).unwrap_or(&0) + 1;
            newj2len.insert(j, k);
            if k > best.size {
                best = Match {
                    a: i + 1 - k,
                    b: j + 1 - k,
                    size: k,
                };
            }
        }
        j2len = newj2len;
    }
    let Match {
        a: mut i,
        b: mut j,
        mut size,
    } = best;
    while i > ar.start && j > br.start && a[i - 1] == b[j - 1] {
        (i, j, size) = (i - 1, j - 1, size + 1);
    }
    while i + size < ar.end && j + size < br.end && a[i + size] == b[j + size] {
        size += 1;
    }
    Match { a: i, b: j, size }
}

/// Python's `get_matching_blocks`, without the sentinel.
fn matching_blocks<K: Eq + Hash>(a: &[K], b: &[K], autojunk: bool) -> Vec<Match> {
    let b2j = chain_b(b, autojunk);
    let mut queue = vec![(0..a.len(), 0..b.len())];
    let mut found = Vec::new();
    while let Some((ar, br)) = queue.pop() {
        let x = find_longest_match(a, b, &b2j, ar.clone(), br.clone());
        if x.size == 0 {
            continue;
        }
        found.push(x);
        if ar.start < x.a && br.start < x.b {
            queue.push((ar.start..x.a, br.start..x.b));
        }
        if x.a + x.size < ar.end && x.b + x.size < br.end {
            queue.push((x.a + x.size..ar.end, x.b + x.size..br.end));
        }
    }
    found.sort_unstable();
    collapse_adjacent(&found)
}

/// Two sequences over a small alphabet, long enough for autojunk (200 elements of `b`) to
/// matter, with stretches of `a` copied into `b` so that long blocks occur.
fn sequences() -> impl Strategy<Value = (Vec<u8>, Vec<u8>)> {
    (2u8..12, 0usize..320, 0usize..320).prop_flat_map(|(alphabet, la, lb)| {
        (
            vec(0..alphabet, la),
            vec(0..alphabet, lb),
            vec(
                (
                    any::<prop::sample::Index>(),
                    any::<prop::sample::Index>(),
                    1usize..40,
                ),
                0..6,
            ),
        )
            .prop_map(|(a, mut b, copies)| {
                for (from, to, len) in copies {
                    if a.is_empty() || b.is_empty() {
                        break;
                    }
                    let (from, to) = (from.index(a.len()), to.index(b.len()));
                    let len = len.min(a.len() - from).min(b.len() - to);
                    b[to..to + len].copy_from_slice(&a[from..from + len]);
                }
                (a, b)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn runs_give_the_straightforward_ports_blocks(
        (a, b) in sequences(),
        autojunk in any::<bool>(),
    ) {
        let m = SequenceMatcher::new(&a, &b, autojunk);
        let want = matching_blocks(&a, &b, autojunk);
        for with_runs in [true, false] {
            let mut blocks = m.matching_blocks(with_runs);
            blocks.pop();
            prop_assert_eq!(&blocks, &want, "with runs: {}", with_runs);
        }
    }

    #[test]
    fn runs_give_the_straightforward_ports_longest_match(
        (a, b) in sequences(),
        autojunk in any::<bool>(),
        bounds in vec(any::<prop::sample::Index>(), 4),
    ) {
        let cut = |x: &prop::sample::Index, y: &prop::sample::Index, len: usize| {
            let (x, y) = (x.index(len + 1), y.index(len + 1));
            x.min(y)..x.max(y)
        };
        let (ar, br) = (cut(&bounds[0], &bounds[1], a.len()), cut(&bounds[2], &bounds[3], b.len()));
        let m = SequenceMatcher::new(&a, &b, autojunk);
        let want = find_longest_match(&a, &b, &chain_b(&b, autojunk), ar.clone(), br.clone());
        prop_assert_eq!(m.find_longest_match(ar.clone(), br.clone()), Ok(want));
        let runs = m.runs(ar.clone(), br.clone());
        prop_assert_eq!(m.extend(longest_run(&runs, &ar, &br), ar, br), want);
    }
}

//! The union LCS of summary-level ROUGE-L (`score.py`'s `_lsum_hits`), bit-parallel.
//!
//! `score.py` fills the full `(a + 1) × (b + 1)` LCS table of every reference sentence
//! against every candidate sentence sharing a token, walks back from the bottom-right cell
//! (diagonal on equal tokens, else left if the left cell is greater than the one above, else
//! up) and marks the reference positions of the diagonal steps. Then, in reference order, a
//! marked token is a hit if it is still unused in both texts' token counts.
//!
//! Here each table row is a bit vector over the candidate sentence (Allison–Dix / Hyyrö:
//! a zero bit at column `j` means `D[i][j] = D[i][j-1] + 1`), so a row costs `⌈b/64⌉` word
//! operations instead of `b` cells, and only rows of reference tokens found in the candidate
//! sentence are stored (the others repeat the row above). Every cell the walk back compares is
//! recovered exactly: it keeps `D[i][j]` and `D[i-1][j]`, a step left subtracts one bit of each
//! row, a step to a lower row counts `j - popcount(row & low j bits)`. The walk therefore takes
//! the same path and marks the same positions as the full table. Marks do not depend on the order of the sentence pairs, so the
//! candidate sentence is the outer loop (its match masks are built once); hits are counted
//! afterwards in reference order, as `score.py` does.

const NONE: u32 = u32::MAX;

/// Reusable buffers of the union-LCS computation.
#[derive(Debug, Default)]
pub(crate) struct UnionLcs {
    /// Per token id: its index in `masks`, or `NONE` if not in the current candidate sentence.
    slot: Vec<u32>,
    /// Match masks of the current candidate sentence's tokens, `words` words each.
    masks: Vec<u64>,
    /// Distinct bit rows of the current reference sentence, `words` words each.
    rows: Vec<u64>,
    /// Per row 0..=a: its index in `rows`.
    row_at: Vec<u32>,
    /// Words per row: `⌈b/64⌉` for the current candidate sentence.
    words: usize,
    /// Per reference token: on some LCS path.
    marks: Vec<bool>,
    counts_r: Vec<u32>,
    counts_c: Vec<u32>,
}

/// Token ids and sentence offsets (`off[k]..off[k + 1]` is sentence `k`).
pub(crate) type Sentences<'a> = (&'a [u32], &'a [usize]);

impl UnionLcs {
    /// Union-LCS hits of `reference` against `candidate`, token ids below `vocab`.
    pub(crate) fn hits(
        &mut self,
        reference: Sentences<'_>,
        candidate: Sentences<'_>,
        vocab: usize,
    ) -> usize {
        let (r_ids, r_off) = reference;
        let (c_ids, c_off) = candidate;
        self.marks.clear();
        self.marks.resize(r_ids.len(), false);
        self.slot.clear();
        self.slot.resize(vocab, NONE);
        for q in c_off.windows(2) {
            let c = &c_ids[q[0]..q[1]];
            if c.is_empty() {
                continue;
            }
            self.load_candidate(c);
            for k in r_off.windows(2) {
                self.mark_sentence(r_ids, k[0]..k[1], c);
            }
            for &t in c {
                self.slot[t as usize] = NONE;
            }
        }
        self.count_hits(r_ids, c_ids, vocab)
    }

    fn load_candidate(&mut self, c: &[u32]) {
        let words = c.len().div_ceil(64);
        self.masks.clear();
        for (j, &t) in c.iter().enumerate() {
            let slot = &mut self.slot[t as usize];
            if *slot == NONE {
                *slot = u32::try_from(self.masks.len() / words).unwrap_or(NONE);
                self.masks.resize(self.masks.len() + words, 0);
            }
            self.masks[*slot as usize * words + j / 64] |= 1 << (j % 64);
        }
    }

    /// Marks the reference positions on the LCS path of `r_ids[range]` against `c`.
    fn mark_sentence(&mut self, r_ids: &[u32], range: std::ops::Range<usize>, c: &[u32]) {
        let start = range.start;
        let r = &r_ids[range];
        if !self.fill_rows(r, c.len().div_ceil(64)) {
            return;
        }
        let (mut i, mut j) = (r.len(), c.len());
        // `cur` = D[i][j] and `up` = D[i-1][j], kept up to date so that only steps to a lower
        // row count bits.
        let mut cur = self.cell(i, j);
        let mut up = self.cell(i - 1, j);
        while i > 0 && j > 0 {
            if r[i - 1] == c[j - 1] {
                self.marks[start + i - 1] = true;
                cur = up - self.step(i - 1, j);
                i -= 1;
                j -= 1;
                up = if i > 0 { self.cell(i - 1, j) } else { 0 };
            } else if cur - self.step(i, j) > up {
                cur -= self.step(i, j);
                up -= self.step(i - 1, j);
                j -= 1;
            } else {
                cur = up;
                i -= 1;
                up = if i > 0 { self.cell(i - 1, j) } else { 0 };
            }
        }
    }

    /// Computes the bit rows of `r` against the loaded candidate; false if no token is shared.
    ///
    /// A reference token absent from the candidate leaves the row unchanged, so such rows
    /// are not stored: `row_at[i]` is the index of row `i`'s bits in `rows`.
    fn fill_rows(&mut self, r: &[u32], words: usize) -> bool {
        self.words = words;
        self.row_at.clear();
        self.row_at.push(0);
        if self.rows.len() < (r.len() + 1) * words {
            self.rows.resize((r.len() + 1) * words, 0);
        }
        self.rows[..words].fill(u64::MAX);
        let mut last = 0;
        for &t in r {
            let slot = self.slot[t as usize];
            if slot != NONE {
                let (done, next) = self.rows.split_at_mut((last + 1) * words);
                let prev = &done[last * words..];
                let mask = &self.masks[slot as usize * words..][..words];
                let mut carry = false;
                for ((out, &v), &m) in next[..words].iter_mut().zip(prev).zip(mask) {
                    let u = v & m;
                    let (sum, c1) = v.overflowing_add(u);
                    let (sum, c2) = sum.overflowing_add(u64::from(carry));
                    carry = c1 || c2;
                    *out = sum | (v & !u);
                }
                last += 1;
            }
            self.row_at.push(u32::try_from(last).unwrap_or(u32::MAX));
        }
        last > 0
    }

    /// The bits of row `i`.
    fn row(&self, i: usize) -> &[u64] {
        &self.rows[self.row_at[i] as usize * self.words..][..self.words]
    }

    /// `D[i][j] - D[i][j-1]` (0 or 1): bit `j - 1` of row `i` is clear.
    fn step(&self, i: usize, j: usize) -> usize {
        usize::from(self.row(i)[(j - 1) / 64] >> ((j - 1) % 64) & 1 == 0)
    }

    /// `D[i][j]`: the LCS length of the first `i` reference and first `j` candidate tokens.
    fn cell(&self, i: usize, j: usize) -> usize {
        let row = self.row(i);
        let full = j / 64;
        let mut ones: usize = row[..full].iter().map(|w| w.count_ones() as usize).sum();
        if !j.is_multiple_of(64) {
            ones += (row[full] & ((1u64 << (j % 64)) - 1)).count_ones() as usize;
        }
        j - ones
    }

    fn count_hits(&mut self, r_ids: &[u32], c_ids: &[u32], vocab: usize) -> usize {
        self.counts_r.clear();
        self.counts_r.resize(vocab, 0);
        self.counts_c.clear();
        self.counts_c.resize(vocab, 0);
        for &t in r_ids {
            self.counts_r[t as usize] += 1;
        }
        for &t in c_ids {
            self.counts_c[t as usize] += 1;
        }
        let mut hits = 0;
        for (&t, _) in r_ids.iter().zip(&self.marks).filter(|(_, m)| **m) {
            let t = t as usize;
            if self.counts_c[t] > 0 && self.counts_r[t] > 0 {
                hits += 1;
                self.counts_c[t] -= 1;
                self.counts_r[t] -= 1;
            }
        }
        hits
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// `score.py`'s `_lsum_hits`, line by line: full table, same walk back, same counting.
    fn reference_hits(r_ids: &[u32], r_off: &[usize], c_ids: &[u32], c_off: &[usize]) -> usize {
        let vocab = r_ids
            .iter()
            .chain(c_ids)
            .max()
            .map_or(0, |m| *m as usize + 1);
        let mut r_cnt = vec![0i64; vocab];
        let mut c_cnt = vec![0i64; vocab];
        r_ids.iter().for_each(|&t| r_cnt[t as usize] += 1);
        c_ids.iter().for_each(|&t| c_cnt[t as usize] += 1);
        let mut hits = 0;
        for k in r_off.windows(2) {
            let r = &r_ids[k[0]..k[1]];
            let a = r.len();
            let mut mark = vec![false; a];
            for q in c_off.windows(2) {
                let c = &c_ids[q[0]..q[1]];
                if !c.iter().any(|t| r.contains(t)) {
                    continue;
                }
                let w = c.len() + 1;
                let mut dp = vec![0u32; (a + 1) * w];
                for i in 1..=a {
                    for j in 1..w {
                        dp[i * w + j] = if r[i - 1] == c[j - 1] {
                            dp[(i - 1) * w + j - 1] + 1
                        } else {
                            dp[(i - 1) * w + j].max(dp[i * w + j - 1])
                        };
                    }
                }
                let (mut i, mut j) = (a, c.len());
                while i > 0 && j > 0 {
                    if r[i - 1] == c[j - 1] {
                        mark[i - 1] = true;
                        i -= 1;
                        j -= 1;
                    } else if dp[i * w + j - 1] > dp[(i - 1) * w + j] {
                        j -= 1;
                    } else {
                        i -= 1;
                    }
                }
            }
            for (i, &m) in mark.iter().enumerate() {
                let t = r[i] as usize;
                if m && c_cnt[t] > 0 && r_cnt[t] > 0 {
                    hits += 1;
                    c_cnt[t] -= 1;
                    r_cnt[t] -= 1;
                }
            }
        }
        hits
    }

    fn offsets(lens: &[usize]) -> Vec<usize> {
        let mut off = vec![0];
        for l in lens {
            off.push(off[off.len() - 1] + l);
        }
        off
    }

    /// Token ids from a small alphabet (many ties) cut into sentences of up to `max_len`.
    fn sentences(max_len: usize) -> impl Strategy<Value = (Vec<u32>, Vec<usize>)> {
        prop::collection::vec(1..=max_len, 1..6).prop_flat_map(|lens| {
            let total: usize = lens.iter().sum();
            (prop::collection::vec(0u32..7, total), Just(offsets(&lens)))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn bit_parallel_hits_equal_the_full_table(
            (r_ids, r_off) in sentences(150),
            (c_ids, c_off) in sentences(150),
        ) {
            let mut lcs = UnionLcs::default();
            let got = lcs.hits((&r_ids, &r_off), (&c_ids, &c_off), 7);
            prop_assert_eq!(got, reference_hits(&r_ids, &r_off, &c_ids, &c_off));
        }
    }

    #[test]
    fn word_boundaries_carry() {
        // A candidate of 64, 65 and 130 tokens: carries cross words and partial words.
        let mut lcs = UnionLcs::default();
        for b in [63, 64, 65, 128, 130] {
            let c: Vec<u32> = (0..b).map(|j| (j % 3) as u32).collect();
            let r: Vec<u32> = (0..97).map(|i| ((i * 7) % 4) as u32).collect();
            let (r_off, c_off) = (offsets(&[r.len()]), offsets(&[c.len()]));
            let got = lcs.hits((&r, &r_off), (&c, &c_off), 4);
            assert_eq!(got, reference_hits(&r, &r_off, &c, &c_off), "b = {b}");
            assert!(got > 0);
        }
    }
}

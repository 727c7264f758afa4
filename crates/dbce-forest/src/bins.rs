//! Quantile binning of the training matrix: at most [`MAX_BINS`] bins per feature.
//!
//! Each feature's candidate thresholds (its *cuts*) are midpoints between two adjacent distinct
//! training values. A feature with at most [`MAX_BINS`] distinct values gets a cut between every
//! pair (exact CART); otherwise the cuts are placed so that each bin holds about `n / MAX_BINS`
//! rows. A value `v` falls in bin `b` when `cuts[b - 1] < v <= cuts[b]`, so "bin `<= b`" and
//! "`v <= cuts[b]`" select exactly the same training rows and a split found on bins is
//! reproduced by the stored `f32` threshold.

/// Largest number of bins per feature (bins are stored as `u8`).
pub(crate) const MAX_BINS: usize = 64;

/// The binned training matrix, row-major: the features a split search tries for one row share
/// a cache line.
pub(crate) struct Binned {
    /// Number of rows.
    pub(crate) n_rows: usize,
    /// Number of features.
    pub(crate) n_features: usize,
    /// `cuts[f]`: ascending thresholds of feature `f` (at most `MAX_BINS - 1`).
    pub(crate) cuts: Vec<Vec<f32>>,
    /// `bins[row * n_features + f]`: bin of the row's value of feature `f`.
    pub(crate) bins: Vec<u8>,
}

impl Binned {
    /// Bins a finite row-major `n_rows × n_features` matrix.
    pub(crate) fn new(features: &[f32], n_features: usize) -> Self {
        let n_rows = features.len() / n_features;
        let one = |f: usize| {
            let column: Vec<f32> = (0..n_rows).map(|r| features[r * n_features + f]).collect();
            let cuts = feature_cuts(&column);
            let bins = column.iter().map(|&v| bin_of(&cuts, v)).collect();
            (cuts, bins)
        };
        #[cfg(feature = "rayon")]
        let per_feature: Vec<(Vec<f32>, Vec<u8>)> = {
            use rayon::prelude::*;
            (0..n_features).into_par_iter().map(one).collect()
        };
        #[cfg(not(feature = "rayon"))]
        let per_feature: Vec<(Vec<f32>, Vec<u8>)> = (0..n_features).map(one).collect();
        let mut bins = vec![0_u8; n_rows * n_features];
        for (f, (_, column)) in per_feature.iter().enumerate() {
            for (row, &b) in column.iter().enumerate() {
                bins[row * n_features + f] = b;
            }
        }
        let cuts = per_feature.into_iter().map(|(cuts, _)| cuts).collect();
        Self {
            n_rows,
            n_features,
            cuts,
            bins,
        }
    }

    /// The bins of one row.
    pub(crate) fn row(&self, row: u32) -> &[u8] {
        let start = row as usize * self.n_features;
        &self.bins[start..start + self.n_features]
    }
}

/// The bin of `v`: the number of cuts strictly below it.
fn bin_of(cuts: &[f32], v: f32) -> u8 {
    // At most MAX_BINS - 1 cuts, so the result fits in a u8.
    cuts.partition_point(|&c| c < v) as u8
}

/// The cuts of one feature column (finite values).
fn feature_cuts(column: &[f32]) -> Vec<f32> {
    let mut sorted = column.to_vec();
    sorted.sort_unstable_by(f32::total_cmp);
    // Distinct values with the number of rows up to and including each.
    let mut distinct: Vec<(f32, usize)> = Vec::new();
    for (i, &v) in sorted.iter().enumerate() {
        match distinct.last_mut() {
            // -0.0 and 0.0 compare equal and must share a bin.
            Some((last, upto)) if *last == v => *upto = i + 1,
            _ => distinct.push((v, i + 1)),
        }
    }
    let n = sorted.len();
    let mut cuts = Vec::new();
    if distinct.len() <= MAX_BINS {
        for pair in distinct.windows(2) {
            cuts.push(midpoint(pair[0].0, pair[1].0));
        }
        return cuts;
    }
    // Cut after the distinct value that first reaches each quantile target.
    let mut next_target = 1;
    for pair in distinct.windows(2) {
        let (value, upto) = pair[0];
        if upto * MAX_BINS >= next_target * n {
            cuts.push(midpoint(value, pair[1].0));
            while next_target * n <= upto * MAX_BINS {
                next_target += 1;
            }
            if cuts.len() == MAX_BINS - 1 {
                break;
            }
        }
    }
    cuts
}

/// A threshold `t` with `a <= t < b` for finite `a < b`, as close to their midpoint as `f32`
/// allows.
fn midpoint(a: f32, b: f32) -> f32 {
    let mid = ((f64::from(a) + f64::from(b)) / 2.0) as f32;
    if mid >= a && mid < b { mid } else { a }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_distinct_values_get_exact_midpoints() {
        let cuts = feature_cuts(&[3.0, 1.0, 2.0, 1.0, 3.0]);
        assert_eq!(cuts, vec![1.5, 2.5]);
        assert_eq!(bin_of(&cuts, 1.0), 0);
        assert_eq!(bin_of(&cuts, 2.0), 1);
        assert_eq!(bin_of(&cuts, 3.0), 2);
    }

    #[test]
    fn many_distinct_values_get_at_most_max_bins() {
        let column: Vec<f32> = (0..10_000).map(|i| (i * 7919 % 10_000) as f32).collect();
        let cuts = feature_cuts(&column);
        assert_eq!(cuts.len(), MAX_BINS - 1);
        assert!(cuts.windows(2).all(|w| w[0] < w[1]));
        let mut counts = [0_usize; MAX_BINS];
        for &v in &column {
            counts[usize::from(bin_of(&cuts, v))] += 1;
        }
        // Roughly equal-frequency bins.
        assert!(
            counts.iter().all(|&c| (140..=170).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn bins_agree_with_threshold_comparison() {
        let column: Vec<f32> = (0..5_000)
            .map(|i| ((i * 31 % 977) as f32 - 400.0) * 0.37)
            .collect();
        let cuts = feature_cuts(&column);
        for &v in &column {
            let b = usize::from(bin_of(&cuts, v));
            for (k, &c) in cuts.iter().enumerate() {
                assert_eq!(b <= k, v <= c, "value {v} bin {b} cut {k} = {c}");
            }
        }
    }

    #[test]
    fn adjacent_floats_get_a_separating_threshold() {
        let a = 1.0_f32;
        let b = f32::from_bits(a.to_bits() + 1);
        let t = midpoint(a, b);
        assert!(a <= t && t < b);
        let big = midpoint(f32::MAX / 2.0 * 1.5, f32::MAX);
        assert!(big.is_finite() && big < f32::MAX);
    }

    #[test]
    fn negative_zero_shares_a_bin_with_zero() {
        let cuts = feature_cuts(&[-0.0, 0.0, 1.0]);
        assert_eq!(cuts, vec![0.5]);
    }
}

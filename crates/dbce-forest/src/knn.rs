//! k nearest neighbours, the classifier of the DBCE thesis's test cases T003–T005, and the
//! thesis's rule for conflicting training vectors.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{ForestError, check_matrix};

/// A k-nearest-neighbours classifier over stored training rows: Euclidean distance on the raw
/// values, a uniform vote of the `k` nearest (scikit-learn's `KNeighborsClassifier` with its
/// defaults, as the thesis's Listing 4.1 has it). Ties in distance go to the earlier training
/// row, so the answer does not depend on anything but the input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NearestNeighbours {
    k: usize,
    n_features: usize,
    rows: Vec<f32>,
    labels: Vec<bool>,
}

impl NearestNeighbours {
    /// The thesis's number of neighbours (scikit-learn's default).
    pub const DEFAULT_K: usize = 5;

    /// Stores the training rows (`labels.len()` rows of `n_features` values, row-major).
    pub fn fit(
        features: &[f32],
        n_features: usize,
        labels: &[bool],
        k: usize,
    ) -> Result<Self, ForestError> {
        check_matrix(features, n_features, labels)?;
        if k == 0 {
            return Err(ForestError::InvalidParams("k must be at least 1"));
        }
        Ok(Self {
            k,
            n_features,
            rows: features.to_vec(),
            labels: labels.to_vec(),
        })
    }

    /// Number of features a row must have.
    pub fn n_features(&self) -> usize {
        self.n_features
    }

    /// The share of the `k` nearest training rows (fewer if there are fewer rows) labelled
    /// `true`. A row of the wrong length counts its missing values as 0.
    pub fn predict_proba(&self, row: &[f32]) -> f32 {
        // The k best (squared distance, index), kept sorted; k is small.
        let mut best: Vec<(f32, usize)> = Vec::with_capacity(self.k + 1);
        for (i, train) in self.rows.chunks_exact(self.n_features).enumerate() {
            let distance: f32 = train
                .iter()
                .enumerate()
                .map(|(j, &t)| {
                    let d = t - row.get(j).copied().unwrap_or(0.0);
                    d * d
                })
                .sum();
            if best.len() == self.k && best.last().is_some_and(|&(d, _)| d <= distance) {
                continue;
            }
            let at = best.partition_point(|&(d, _)| d <= distance);
            best.insert(at, (distance, i));
            best.truncate(self.k);
        }
        let votes = best.iter().filter(|&&(_, i)| self.labels[i]).count();
        votes as f32 / best.len().max(1) as f32
    }

    /// Whether the majority of the nearest rows is `true` (more than half).
    pub fn predict(&self, row: &[f32]) -> bool {
        self.predict_proba(row) > 0.5
    }
}

/// The thesis's rule for the learning set (§2.4): a vector seen with both labels is a conflict,
/// and every row with that vector is removed. Returns the kept rows and labels, in input order.
pub fn remove_conflicting(
    features: &[f32],
    n_features: usize,
    labels: &[bool],
) -> (Vec<f32>, Vec<bool>) {
    if n_features == 0 {
        return (Vec::new(), Vec::new());
    }
    let keys: Vec<Vec<u32>> = features
        .chunks_exact(n_features)
        .map(|row| row.iter().map(|v| v.to_bits()).collect())
        .collect();
    // For each distinct vector: whether it was seen as true, as false.
    let mut seen: BTreeMap<&[u32], (bool, bool)> = BTreeMap::new();
    for (key, &label) in keys.iter().zip(labels) {
        let entry = seen.entry(key).or_default();
        if label {
            entry.0 = true;
        } else {
            entry.1 = true;
        }
    }
    let mut kept_rows = Vec::with_capacity(features.len());
    let mut kept_labels = Vec::with_capacity(labels.len());
    for ((row, key), &label) in features.chunks_exact(n_features).zip(&keys).zip(labels) {
        if seen[key.as_slice()] != (true, true) {
            kept_rows.extend_from_slice(row);
            kept_labels.push(label);
        }
    }
    (kept_rows, kept_labels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn votes_among_the_nearest() {
        // Three `true` rows near 0, three `false` rows near 10.
        let rows = [0.0, 0.5, 1.0, 10.0, 10.5, 11.0];
        let labels = [true, true, true, false, false, false];
        let knn = NearestNeighbours::fit(&rows, 1, &labels, 3).unwrap();
        assert!(knn.predict(&[0.2]));
        assert!(!knn.predict(&[9.0]));
        assert_eq!(knn.predict_proba(&[0.2]), 1.0);
        // With k = 5 the vote near 0 is 3 of 5.
        let knn = NearestNeighbours::fit(&rows, 1, &labels, 5).unwrap();
        assert!((knn.predict_proba(&[0.2]) - 0.6).abs() < 1e-6);
        // More neighbours asked than rows: all rows vote.
        let knn = NearestNeighbours::fit(&rows, 1, &labels, 50).unwrap();
        assert!((knn.predict_proba(&[0.2]) - 0.5).abs() < 1e-6);
        assert!(!knn.predict(&[0.2]));
    }

    #[test]
    fn distance_is_euclidean_over_all_features() {
        // The first feature alone points at row 0, both together at row 1.
        let rows = [0.0, 10.0, 1.0, 0.0];
        let knn = NearestNeighbours::fit(&rows, 2, &[true, false], 1).unwrap();
        assert!(!knn.predict(&[0.0, 0.0]));
        assert!(knn.predict(&[0.0, 9.0]));
    }

    #[test]
    fn equal_distances_go_to_the_earlier_row() {
        let rows = [1.0, -1.0];
        assert!(
            NearestNeighbours::fit(&rows, 1, &[true, false], 1)
                .unwrap()
                .predict(&[0.0])
        );
        assert!(
            !NearestNeighbours::fit(&rows, 1, &[false, true], 1)
                .unwrap()
                .predict(&[0.0])
        );
    }

    #[test]
    fn refuses_bad_input() {
        assert!(NearestNeighbours::fit(&[1.0], 1, &[true], 0).is_err());
        assert!(NearestNeighbours::fit(&[1.0, 2.0], 1, &[true], 1).is_err());
        assert!(NearestNeighbours::fit(&[f32::NAN], 1, &[true], 1).is_err());
        assert!(NearestNeighbours::fit(&[], 1, &[], 1).is_err());
    }

    #[test]
    fn conflicting_vectors_are_removed_with_every_copy() {
        let rows = [1.0, 2.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let labels = [true, false, true, true, true, false];
        let (kept, kept_labels) = remove_conflicting(&rows, 2, &labels);
        // [1, 2] has both labels: all three copies go; [3, 4] twice as true stays twice.
        assert_eq!(kept, vec![3.0, 4.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(kept_labels, vec![true, true, false]);
        assert_eq!(
            remove_conflicting(&rows, 0, &labels),
            (Vec::new(), Vec::new())
        );
    }
}

//! Small deterministic classifiers for text runs: a random forest, gradient-boosted trees, and
//! the k nearest neighbours of the DBCE thesis's test cases T003–T005.
//!
//! The principal types are:
//! - [`ForestParams`], the training settings (trees, depth, leaf size, features per split,
//!   bootstrap fraction, seed, class weighting), stored with the model it produced;
//! - [`RandomForest`], a trained binary classifier: [`RandomForest::fit`] on a row-major
//!   `f32` matrix and `bool` labels, then [`RandomForest::predict_proba`] and
//!   [`RandomForest::predict`] per row; it serialises with serde;
//! - [`BoostedTrees`], gradient-boosted trees trained on weighted rows ([`WeightedRows`]) with
//!   [`BoostParams`], stopped early on a validation set, predicting through the same flat
//!   arrays as the forest;
//! - [`NearestNeighbours`], k nearest neighbours by Euclidean distance, and
//!   [`remove_conflicting`], the thesis's rule that drops vectors seen with both labels;
//! - [`FeatureSchema`], the names of the features a stored model reads, checked on load
//!   ([`SchemaMismatch`]);
//! - [`ForestError`], why training refused its input, and [`CompileError`], why a stored
//!   forest was refused on load.
//!
//! Each tree is a CART tree grown on a bootstrap sample with Gini impurity and a random subset
//! of features at every split. Split search works on a quantile histogram: each feature is
//! binned once into at most 64 bins, whose edges are midpoints between adjacent distinct
//! training values (a feature with at most 64 distinct values is split exactly). Rows with
//! `row[feature] <= threshold` go left; a NaN at prediction time goes right. For prediction the
//! trees are compiled to one flat array when the forest is trained or loaded (`flat.rs`: every
//! node a 12-byte record, a split's children side by side, found by index arithmetic), which
//! gives the same probabilities bit for bit as walking the stored trees; the stored form is
//! unchanged.
//!
//! Training is deterministic: tree `i` draws its randomness from a ChaCha8 stream `i` seeded
//! with [`ForestParams::seed`], and trees are collected in index order, so the same input and
//! parameters give a bit-identical model whatever the number of threads (the `rayon` feature,
//! on by default, trains trees in parallel).
//!
//! ```
//! use dbce_forest::{ForestParams, RandomForest};
//!
//! // Two features; the label is "first feature above 0.5".
//! let mut features = Vec::new();
//! let mut labels = Vec::new();
//! for i in 0..200 {
//!     let x = i as f32 / 200.0;
//!     features.extend([x, (i % 7) as f32]);
//!     labels.push(x > 0.5);
//! }
//! let params = ForestParams { trees: 16, seed: 7, ..ForestParams::default() };
//! let forest = RandomForest::fit(&features, 2, &labels, &params)?;
//! assert!(forest.predict(&[0.9, 3.0]));
//! assert!(!forest.predict(&[0.1, 3.0]));
//! assert!(forest.feature_importances()[0] > 0.9);
//! # Ok::<(), dbce_forest::ForestError>(())
//! ```
#![deny(missing_docs)]

mod bins;
mod boost;
mod flat;
mod knn;
mod schema;
mod tree;

pub use boost::{BoostParams, BoostedTrees, WeightedRows};
pub use flat::CompileError;
pub use knn::{NearestNeighbours, remove_conflicting};
pub use schema::{FeatureSchema, SchemaMismatch};

use serde::{Deserialize, Serialize};

use crate::bins::Binned;
use crate::flat::FlatForest;
use crate::tree::{Tree, TreeSettings};

/// Training settings of a [`RandomForest`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ForestParams {
    /// Number of trees (default 48).
    pub trees: u32,
    /// Largest depth of a tree; the root has depth 0 (default 14).
    pub max_depth: u32,
    /// Fewest bootstrap draws in a leaf (default 3).
    pub min_samples_leaf: u32,
    /// Features tried at each split; `None` means `floor(sqrt(n_features))`, at least 1.
    pub max_features: Option<u32>,
    /// Bootstrap draws per tree, with replacement, as a fraction of the rows (default 1.0).
    pub sample_fraction: f32,
    /// Seed of every random choice.
    pub seed: u64,
    /// Weight each class by `n / (2 * n_class)` so both classes weigh the same (default false).
    pub class_weight_balanced: bool,
}

impl Default for ForestParams {
    fn default() -> Self {
        Self {
            trees: 48,
            max_depth: 14,
            min_samples_leaf: 3,
            max_features: None,
            sample_fraction: 1.0,
            seed: 0,
            class_weight_balanced: false,
        }
    }
}

/// Why [`RandomForest::fit`] refused its input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ForestError {
    /// There are no rows or no features.
    #[error("no training rows or no features")]
    Empty,
    /// The feature matrix does not hold `labels × n_features` values.
    #[error("{values} feature values do not make {rows} rows of {n_features} features")]
    ShapeMismatch {
        /// Length of the feature slice.
        values: usize,
        /// Number of labels (rows).
        rows: usize,
        /// Features per row.
        n_features: usize,
    },
    /// A feature value is NaN or infinite.
    #[error("feature value at row {row}, column {col} is not finite")]
    NonFinite {
        /// Row of the value.
        row: usize,
        /// Column (feature) of the value.
        col: usize,
    },
    /// More rows or features than the model can index (`u32` rows, `u16` features).
    #[error("too large: {rows} rows, {n_features} features")]
    TooLarge {
        /// Number of rows.
        rows: usize,
        /// Features per row.
        n_features: usize,
    },
    /// A parameter is out of range.
    #[error("invalid forest parameter: {0}")]
    InvalidParams(&'static str),
    /// The trained trees cannot be compiled for prediction (more nodes than it can address).
    #[error("cannot compile the forest: {0}")]
    Compile(#[from] CompileError),
}

/// A trained random forest of binary CART trees.
///
/// It serialises as its trees; when it is trained or deserialised, the trees are also compiled
/// to a flat array (`flat.rs`) that every prediction walks, and a model whose trees do not
/// compile (links outside a tree, a loop, a feature beyond the row) is refused on load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "StoredForest")]
pub struct RandomForest {
    n_features: usize,
    params: ForestParams,
    trees: Vec<Tree>,
    importances: Vec<f32>,
    /// The trees compiled for prediction.
    #[serde(skip)]
    flat: FlatForest,
}

/// A [`RandomForest`] as stored: its fields but the compiled trees, in the same order.
#[derive(Deserialize)]
struct StoredForest {
    n_features: usize,
    params: ForestParams,
    trees: Vec<Tree>,
    importances: Vec<f32>,
}

impl TryFrom<StoredForest> for RandomForest {
    type Error = CompileError;

    fn try_from(stored: StoredForest) -> Result<Self, CompileError> {
        Ok(Self {
            flat: FlatForest::compile(&stored.trees, stored.n_features)?,
            n_features: stored.n_features,
            params: stored.params,
            trees: stored.trees,
            importances: stored.importances,
        })
    }
}

impl RandomForest {
    /// Trains a forest on a row-major `labels.len() × n_features` matrix.
    ///
    /// A single-class training set is accepted: every tree is then one leaf predicting that
    /// class.
    ///
    /// # Errors
    /// [`ForestError::Empty`] without rows or features, [`ForestError::ShapeMismatch`] when
    /// the matrix does not match the labels, [`ForestError::NonFinite`] for the first NaN or
    /// infinite value, [`ForestError::TooLarge`] beyond `u32::MAX` rows or `u16::MAX`
    /// features, and [`ForestError::InvalidParams`] for zero trees, a `max_features` of 0 or
    /// above `n_features`, or a `sample_fraction` that is not positive and finite.
    pub fn fit(
        features: &[f32],
        n_features: usize,
        labels: &[bool],
        params: &ForestParams,
    ) -> Result<Self, ForestError> {
        let rows = check_matrix(features, n_features, labels)?;
        if params.trees == 0 {
            return Err(ForestError::InvalidParams("trees must be at least 1"));
        }
        let max_features = match params.max_features {
            None => ((n_features as f64).sqrt().floor() as usize).max(1),
            Some(0) => {
                return Err(ForestError::InvalidParams(
                    "max_features must be at least 1",
                ));
            }
            Some(k) if k as usize > n_features => {
                return Err(ForestError::InvalidParams(
                    "max_features exceeds n_features",
                ));
            }
            Some(k) => k as usize,
        };
        if !(params.sample_fraction.is_finite() && params.sample_fraction > 0.0) {
            return Err(ForestError::InvalidParams(
                "sample_fraction must be positive and finite",
            ));
        }
        let draws = ((f64::from(params.sample_fraction) * rows as f64).round() as usize).max(1);
        let n_true = labels.iter().filter(|&&l| l).count();
        let class_weight = if params.class_weight_balanced {
            let w = |n_class: usize| {
                if n_class == 0 {
                    1.0
                } else {
                    rows as f64 / (2.0 * n_class as f64)
                }
            };
            [w(rows - n_true), w(n_true)]
        } else {
            [1.0, 1.0]
        };
        let settings = TreeSettings {
            max_depth: params.max_depth,
            min_samples_leaf: params.min_samples_leaf,
            max_features,
            draws,
            class_weight,
            seed: params.seed,
        };

        let data = Binned::new(features, n_features);
        let one = |i: u32| tree::build(&data, labels, &settings, i);
        #[cfg(feature = "rayon")]
        let built: Vec<(Tree, Vec<f64>)> = {
            use rayon::prelude::*;
            (0..params.trees).into_par_iter().map(one).collect()
        };
        #[cfg(not(feature = "rayon"))]
        let built: Vec<(Tree, Vec<f64>)> = (0..params.trees).map(one).collect();

        // Mean over trees of each tree's normalised impurity decrease, then normalised again.
        let mut importance = vec![0.0_f64; n_features];
        let mut trees = Vec::with_capacity(built.len());
        for (tree, decrease) in built {
            let sum: f64 = decrease.iter().sum();
            if sum > 0.0 {
                for (acc, d) in importance.iter_mut().zip(&decrease) {
                    *acc += d / sum;
                }
            }
            trees.push(tree);
        }
        let sum: f64 = importance.iter().sum();
        let importances = importance
            .iter()
            .map(|&v| if sum > 0.0 { (v / sum) as f32 } else { 0.0 })
            .collect();
        Ok(Self {
            flat: FlatForest::compile(&trees, n_features)?,
            n_features,
            params: *params,
            trees,
            importances,
        })
    }

    /// The mean over trees of the leaf P(true) for `row`.
    ///
    /// A NaN value follows the right ("greater") branch.
    ///
    /// # Panics
    /// If `row.len()` differs from [`RandomForest::n_features`].
    pub fn predict_proba(&self, row: &[f32]) -> f32 {
        assert_eq!(
            row.len(),
            self.n_features,
            "row length differs from the model's features"
        );
        self.flat.predict_proba(row)
    }

    /// [`RandomForest::predict_proba`] of every row of a row-major matrix, bit-identical to
    /// calling it row by row but faster: rows walk the trees eight at a time in lockstep
    /// (and blocks of rows run in parallel with the `rayon` feature).
    ///
    /// # Panics
    /// If `features.len()` is not a multiple of [`RandomForest::n_features`].
    pub fn predict_proba_batch(&self, features: &[f32]) -> Vec<f32> {
        let d = self.n_features;
        assert_eq!(
            features.len() % d,
            0,
            "row length differs from the model's features"
        );
        const BLOCK_ROWS: usize = 2048;
        let block = |rows: &[f32]| self.flat.predict_proba_rows(rows, d);
        #[cfg(feature = "rayon")]
        let blocks: Vec<Vec<f32>> = {
            use rayon::prelude::*;
            features.par_chunks(BLOCK_ROWS * d).map(block).collect()
        };
        #[cfg(not(feature = "rayon"))]
        let blocks: Vec<Vec<f32>> = features.chunks(BLOCK_ROWS * d).map(block).collect();
        blocks.concat()
    }

    /// Whether `row` is predicted `true`: [`RandomForest::predict_proba`] `>= 0.5`
    /// ([`RandomForest::reaches`]).
    ///
    /// # Panics
    /// If `row.len()` differs from [`RandomForest::n_features`].
    pub fn predict(&self, row: &[f32]) -> bool {
        self.reaches(row, 0.5)
    }

    /// Whether [`RandomForest::predict_proba`] of `row` is at least `threshold`, always the
    /// same answer as comparing it, but from only as many trees as it takes to know: the
    /// trees are walked in order, and once the leaves so far, with the least or the greatest
    /// the remaining trees' leaves can add, put the probability on one side of the threshold,
    /// the rest are skipped. For a decision at a threshold, not a probability.
    ///
    /// # Panics
    /// If `row.len()` differs from [`RandomForest::n_features`].
    pub fn reaches(&self, row: &[f32], threshold: f32) -> bool {
        assert_eq!(
            row.len(),
            self.n_features,
            "row length differs from the model's features"
        );
        self.flat.reaches(row, threshold)
    }

    /// Number of features per row the model was trained on.
    pub fn n_features(&self) -> usize {
        self.n_features
    }

    /// Mean impurity decrease per feature (each tree's decreases normalised, averaged over
    /// trees, normalised to sum 1); all zeros when no tree has a split.
    pub fn feature_importances(&self) -> Vec<f32> {
        self.importances.clone()
    }

    /// The parameters the model was trained with.
    pub fn params(&self) -> &ForestParams {
        &self.params
    }

    /// Number of trees.
    pub fn n_trees(&self) -> usize {
        self.trees.len()
    }

    /// Total number of nodes over all trees (a size measure).
    pub fn n_nodes(&self) -> usize {
        self.trees.iter().map(|t| t.nodes.len()).sum()
    }
}

/// Checks that `features` holds `labels.len()` finite rows of `n_features` values, as many as
/// the models can index; returns the number of rows.
fn check_matrix(
    features: &[f32],
    n_features: usize,
    labels: &[bool],
) -> Result<usize, ForestError> {
    let rows = labels.len();
    if rows == 0 || n_features == 0 {
        return Err(ForestError::Empty);
    }
    if rows.checked_mul(n_features) != Some(features.len()) {
        return Err(ForestError::ShapeMismatch {
            values: features.len(),
            rows,
            n_features,
        });
    }
    if u32::try_from(rows).is_err() || n_features > usize::from(u16::MAX) {
        return Err(ForestError::TooLarge { rows, n_features });
    }
    if let Some(i) = features.iter().position(|v| !v.is_finite()) {
        return Err(ForestError::NonFinite {
            row: i / n_features,
            col: i % n_features,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threshold_data(n: usize) -> (Vec<f32>, Vec<bool>) {
        let mut features = Vec::new();
        let mut labels = Vec::new();
        for i in 0..n {
            let x = (i * 37 % n) as f32 / n as f32;
            features.extend([x, (i % 5) as f32, (i * 13 % 11) as f32]);
            labels.push(x > 0.3);
        }
        (features, labels)
    }

    #[test]
    fn single_tree_finds_the_exact_threshold() {
        let (features, labels) = threshold_data(300);
        let params = ForestParams {
            trees: 1,
            max_features: Some(3),
            sample_fraction: 1.0,
            min_samples_leaf: 1,
            ..ForestParams::default()
        };
        let forest = RandomForest::fit(&features, 3, &labels, &params).unwrap();
        let root = forest.trees[0].nodes[0];
        let Node::Split {
            feature, threshold, ..
        } = root
        else {
            panic!("root is a leaf")
        };
        assert_eq!(feature, 0);
        // The bootstrap may miss rows near 0.3, but the threshold separates the classes.
        assert!((0.28..=0.32).contains(&threshold), "{threshold}");
        for (row, &label) in features.chunks(3).zip(&labels) {
            assert_eq!(forest.predict(row), label);
        }
    }

    #[test]
    fn leaves_respect_min_samples_leaf_and_depth() {
        let (features, labels) = threshold_data(500);
        let params = ForestParams {
            trees: 4,
            max_depth: 2,
            min_samples_leaf: 40,
            ..Default::default()
        };
        let forest = RandomForest::fit(&features, 3, &labels, &params).unwrap();
        for tree in &forest.trees {
            // Depth 2 allows at most 7 nodes.
            assert!(tree.nodes.len() <= 7, "{}", tree.nodes.len());
        }
    }

    #[test]
    fn balanced_weights_shift_the_probability() {
        // 90% false; the feature carries no information beyond noise.
        let n = 1000;
        let features: Vec<f32> = (0..n).map(|i| (i % 2) as f32).collect();
        let labels: Vec<bool> = (0..n).map(|i| i % 10 == 0).collect();
        let plain = ForestParams {
            trees: 8,
            ..Default::default()
        };
        let balanced = ForestParams {
            class_weight_balanced: true,
            ..plain
        };
        let p = RandomForest::fit(&features, 1, &labels, &plain)
            .unwrap()
            .predict_proba(&[0.0]);
        let b = RandomForest::fit(&features, 1, &labels, &balanced)
            .unwrap()
            .predict_proba(&[0.0]);
        assert!(p < 0.3, "{p}");
        assert!(b > p + 0.3, "{b} vs {p}");
    }

    use crate::tree::Node;
}

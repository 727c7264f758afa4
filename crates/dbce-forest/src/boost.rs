//! Gradient-boosted trees for a binary label: each round fits a small tree to the gradient of
//! the weighted log loss, grown leaf by leaf (the leaf whose best split gains most is split
//! next) on the same quantile bins as the forest's trees, with L2-regularised leaf values,
//! a fresh sample of rows every round and of features every tree, and rounds stopped early on
//! a validation set.
//!
//! For a row, the model's score is its base log-odds plus one leaf value per tree, and its
//! probability the logistic function of the score. Trees are stored as the forest's are and
//! compiled to the same flat arrays for prediction.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::bins::{Binned, MAX_BINS};
use crate::flat::{CompileError, FlatForest, settled_by};
use crate::tree::{Node, Tree};
use crate::{ForestError, check_matrix};

/// Training settings of [`BoostedTrees`]; the defaults are LightGBM-like small trees.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BoostParams {
    /// Most boosting rounds (trees) (default 1,000).
    pub max_rounds: u32,
    /// Each tree's leaf values are multiplied by it (default 0.1).
    pub learning_rate: f32,
    /// Most leaves of a tree (default 15).
    pub max_leaves: u32,
    /// Largest depth of a leaf; the root has depth 0 (default 6).
    pub max_depth: u32,
    /// Fewest sampled rows in a leaf (default 200).
    pub min_rows_leaf: u32,
    /// L2 penalty on leaf values (default 10).
    pub l2: f32,
    /// Share of the features a tree may split on, drawn per tree (default 0.5).
    pub feature_fraction: f32,
    /// Share of the rows a round's tree is grown on, drawn per round (default 0.5).
    pub row_fraction: f32,
    /// With a validation set, training stops after this many rounds without a lower
    /// validation loss, and the model keeps the rounds up to the lowest (default 30).
    pub patience: u32,
    /// Seed of every random choice.
    pub seed: u64,
}

impl Default for BoostParams {
    fn default() -> Self {
        Self {
            max_rounds: 1000,
            learning_rate: 0.1,
            max_leaves: 15,
            max_depth: 6,
            min_rows_leaf: 200,
            l2: 10.0,
            feature_fraction: 0.5,
            row_fraction: 0.5,
            patience: 30,
            seed: 0,
        }
    }
}

/// Rows to train or validate on: a row-major `labels.len() × n_features` matrix, each row's
/// label, and each row's weight in the loss.
#[derive(Clone, Copy, Debug)]
pub struct WeightedRows<'a> {
    /// The feature matrix, row-major.
    pub features: &'a [f32],
    /// Each row's label.
    pub labels: &'a [bool],
    /// Each row's weight (finite, not negative).
    pub weights: &'a [f32],
}

impl WeightedRows<'_> {
    /// Checks the matrix and the weights; returns the number of rows.
    fn check(&self, n_features: usize) -> Result<usize, ForestError> {
        let rows = check_matrix(self.features, n_features, self.labels)?;
        if self.weights.len() != rows {
            return Err(ForestError::InvalidParams("one weight per row is needed"));
        }
        if self.weights.iter().any(|w| !(w.is_finite() && *w >= 0.0)) {
            return Err(ForestError::InvalidParams(
                "weights must be finite and not negative",
            ));
        }
        if self.weights.iter().all(|&w| w == 0.0) {
            return Err(ForestError::InvalidParams("all weights are zero"));
        }
        Ok(rows)
    }

    /// The weighted mean log loss of the scores `scores`, one per row.
    fn log_loss(&self, scores: &[f64]) -> f64 {
        let (mut loss, mut total) = (0.0, 0.0);
        for ((&score, &label), &weight) in scores.iter().zip(self.labels).zip(self.weights) {
            // -log(sigmoid(s)) = log(1 + exp(-s)), computed without overflow.
            let signed = if label { score } else { -score };
            loss += f64::from(weight) * softplus(-signed);
            total += f64::from(weight);
        }
        loss / total
    }
}

/// A trained gradient-boosted binary classifier.
///
/// It serialises as its parameters, base score and trees; when it is trained or deserialised
/// the trees are compiled to flat arrays, and a model whose trees do not compile is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "StoredBoosted")]
pub struct BoostedTrees {
    n_features: usize,
    params: BoostParams,
    /// The log-odds every row starts from: the training rows' weighted share of `true`.
    base: f64,
    trees: Vec<Tree>,
    /// The trees compiled for prediction.
    #[serde(skip)]
    flat: FlatForest,
}

/// A [`BoostedTrees`] as stored: its fields but the compiled trees, in the same order.
#[derive(Deserialize)]
struct StoredBoosted {
    n_features: usize,
    params: BoostParams,
    base: f64,
    trees: Vec<Tree>,
}

impl TryFrom<StoredBoosted> for BoostedTrees {
    type Error = CompileError;

    fn try_from(stored: StoredBoosted) -> Result<Self, CompileError> {
        Ok(Self {
            flat: FlatForest::compile(&stored.trees, stored.n_features)?,
            n_features: stored.n_features,
            params: stored.params,
            base: stored.base,
            trees: stored.trees,
        })
    }
}

impl BoostedTrees {
    /// Trains on `train`, rows of `n_features` values. With `validation`, rounds stop once
    /// [`BoostParams::patience`] rounds in a row have not lowered its weighted log loss, and
    /// the model keeps the rounds up to the lowest; without, it has
    /// [`BoostParams::max_rounds`] trees. The same input and parameters give a bit-identical
    /// model.
    ///
    /// # Errors
    /// What [`crate::RandomForest::fit`] refuses of a matrix, for either set; weights that
    /// are not one per row, finite and not negative, or all zero; and
    /// [`ForestError::InvalidParams`] for no rounds, fewer than two leaves, a learning rate
    /// or L2 penalty out of range, or a fraction outside (0, 1].
    pub fn fit(
        train: WeightedRows<'_>,
        n_features: usize,
        validation: Option<WeightedRows<'_>>,
        params: &BoostParams,
    ) -> Result<Self, ForestError> {
        let rows = train.check(n_features)?;
        if let Some(validation) = &validation {
            validation.check(n_features)?;
        }
        check_params(params)?;
        let data = Binned::new(train.features, n_features);
        let base = base_score(train);
        let mut scores = vec![base; rows];
        let mut validation_scores =
            validation.map(|v| (v, vec![base; v.labels.len()], f64::INFINITY, 0_usize));
        let features_per_tree =
            ((f64::from(params.feature_fraction) * n_features as f64).round() as usize).max(1);
        let mut trees = Vec::new();
        let mut gradients = vec![(0.0_f64, 0.0_f64); rows];
        for round in 0..params.max_rounds {
            let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
            rng.set_stream(u64::from(round));
            for (i, gradient) in gradients.iter_mut().enumerate() {
                let p = sigmoid(scores[i]);
                let w = f64::from(train.weights[i]);
                let y = if train.labels[i] { 1.0 } else { 0.0 };
                *gradient = (w * (p - y), w * p * (1.0 - p));
            }
            let mut sampled: Vec<u32> = (0..rows as u32)
                .filter(|_| params.row_fraction >= 1.0 || rng.random::<f32>() < params.row_fraction)
                .collect();
            if sampled.is_empty() {
                sampled.push(rng.random_range(0..rows as u32));
            }
            // A partial Fisher–Yates shuffle: the first `features_per_tree` are the tree's.
            let mut features: Vec<usize> = (0..n_features).collect();
            for k in 0..features_per_tree {
                let j = rng.random_range(k as u32..n_features as u32) as usize;
                features.swap(k, j);
            }
            features.truncate(features_per_tree);
            features.sort_unstable();
            let tree = grow(&data, &gradients, sampled, &features, params);
            for (score, row) in scores
                .iter_mut()
                .zip(train.features.chunks_exact(n_features))
            {
                *score += f64::from(tree.leaf(row));
            }
            trees.push(tree);
            if let Some((validation, scores, best, best_rounds)) = &mut validation_scores {
                let tree = trees.last().expect("a tree was just added");
                for (score, row) in scores
                    .iter_mut()
                    .zip(validation.features.chunks_exact(n_features))
                {
                    *score += f64::from(tree.leaf(row));
                }
                let loss = validation.log_loss(scores);
                if loss < *best {
                    (*best, *best_rounds) = (loss, trees.len());
                } else if trees.len() - *best_rounds >= params.patience as usize {
                    break;
                }
            }
        }
        if let Some((_, _, _, best_rounds)) = validation_scores {
            trees.truncate(best_rounds.max(1));
        }
        Ok(Self {
            flat: FlatForest::compile(&trees, n_features)?,
            n_features,
            params: *params,
            base,
            trees,
        })
    }

    /// P(true) for `row`: the logistic function of the base score plus one leaf per tree (a
    /// NaN value follows the right branch).
    ///
    /// # Panics
    /// If `row.len()` differs from [`BoostedTrees::n_features`].
    pub fn predict_proba(&self, row: &[f32]) -> f32 {
        self.check_row(row.len());
        self.probability(self.flat.sum(row))
    }

    /// [`BoostedTrees::predict_proba`] of every row of a row-major matrix, bit-identical to
    /// calling it row by row and faster: rows walk the trees eight at a time in lockstep.
    ///
    /// # Panics
    /// If `features.len()` is not a multiple of [`BoostedTrees::n_features`].
    pub fn predict_proba_batch(&self, features: &[f32]) -> Vec<f32> {
        assert_eq!(
            features.len() % self.n_features,
            0,
            "row length differs from the model's features"
        );
        self.flat
            .sum_rows(features, self.n_features)
            .into_iter()
            .map(|sum| self.probability(sum))
            .collect()
    }

    /// Whether [`BoostedTrees::predict_proba`] of `row` is at least `threshold`: always the
    /// same answer, from only as many trees as it takes to know (as
    /// [`crate::RandomForest::reaches`]).
    ///
    /// # Panics
    /// If `row.len()` differs from [`BoostedTrees::n_features`].
    pub fn reaches(&self, row: &[f32], threshold: f32) -> bool {
        self.check_row(row.len());
        self.flat.reaches_by(row, self.settled(threshold), |sum| {
            self.probability(sum) >= threshold
        })
    }

    /// The `settled` of [`FlatForest::reaches_by`] at `threshold`: for thresholds in [0.001,
    /// 0.999] the bounds are compared with the threshold's log-odds ([`BoostedTrees::cut`]),
    /// without a logistic function per tree; others through the probability.
    fn settled(&self, threshold: f32) -> impl Fn(f64, f64) -> Option<bool> + '_ {
        let cut = self.cut(threshold);
        let by_probability = settled_by(threshold, |sum| self.probability(sum));
        move |lo, hi| match cut {
            Some(cut) if lo >= cut + CUT_SLACK => Some(true),
            Some(cut) if hi < cut - CUT_SLACK => Some(false),
            Some(_) => None,
            None => by_probability(lo, hi),
        }
    }

    /// The sum of leaves at which the probability is `threshold` (its log-odds less the base
    /// score), for thresholds in [0.001, 0.999]: there, a sum [`CUT_SLACK`] above it gives a
    /// probability above `threshold` by more than `f32` rounds, and one [`CUT_SLACK`] below
    /// it one below.
    fn cut(&self, threshold: f32) -> Option<f64> {
        let t = f64::from(threshold);
        (0.001..=0.999)
            .contains(&t)
            .then(|| (t / (1.0 - t)).ln() - self.base)
    }

    /// Number of features per row the model was trained on.
    pub fn n_features(&self) -> usize {
        self.n_features
    }

    /// The parameters the model was trained with.
    pub fn params(&self) -> &BoostParams {
        &self.params
    }

    /// Number of trees (the rounds kept).
    pub fn n_trees(&self) -> usize {
        self.trees.len()
    }

    /// The probability of a sum of leaves.
    fn probability(&self, sum: f64) -> f32 {
        sigmoid(self.base + sum) as f32
    }

    fn check_row(&self, len: usize) {
        assert_eq!(
            len, self.n_features,
            "row length differs from the model's features"
        );
    }
}

/// Refuses parameters no model can be trained with.
fn check_params(params: &BoostParams) -> Result<(), ForestError> {
    let fraction = |f: f32| f.is_finite() && f > 0.0 && f <= 1.0;
    if params.max_rounds == 0 {
        return Err(ForestError::InvalidParams("max_rounds must be at least 1"));
    }
    if params.max_leaves < 2 {
        return Err(ForestError::InvalidParams("max_leaves must be at least 2"));
    }
    if !(params.learning_rate.is_finite() && params.learning_rate > 0.0) {
        return Err(ForestError::InvalidParams(
            "learning_rate must be positive and finite",
        ));
    }
    if !(params.l2.is_finite() && params.l2 >= 0.0) {
        return Err(ForestError::InvalidParams(
            "l2 must be finite and not negative",
        ));
    }
    if !fraction(params.feature_fraction) || !fraction(params.row_fraction) {
        return Err(ForestError::InvalidParams(
            "feature_fraction and row_fraction must be in (0, 1]",
        ));
    }
    Ok(())
}

/// The log-odds of the weighted share of `true` rows, kept finite for a single class.
fn base_score(train: WeightedRows<'_>) -> f64 {
    let (mut positive, mut total) = (0.0_f64, 0.0_f64);
    for (&label, &weight) in train.labels.iter().zip(train.weights) {
        total += f64::from(weight);
        if label {
            positive += f64::from(weight);
        }
    }
    let p = (positive / total).clamp(1e-6, 1.0 - 1e-6);
    (p / (1.0 - p)).ln()
}

fn sigmoid(score: f64) -> f64 {
    1.0 / (1.0 + (-score).exp())
}

/// `log(1 + exp(x))` without overflow.
fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// Gradient and hessian sums, and sampled rows, of one bin or one leaf.
#[derive(Clone, Copy, Default)]
struct Sums {
    gradient: f64,
    hessian: f64,
    rows: u32,
}

impl Sums {
    fn add(&mut self, gradient: (f64, f64)) {
        self.gradient += gradient.0;
        self.hessian += gradient.1;
        self.rows += 1;
    }

    fn minus(self, other: Self) -> Self {
        Self {
            gradient: self.gradient - other.gradient,
            hessian: self.hessian - other.hessian,
            rows: self.rows - other.rows,
        }
    }

    /// The loss reduction of a leaf with these sums, doubled: `G² / (H + λ)`.
    fn score(self, l2: f64) -> f64 {
        self.gradient * self.gradient / (self.hessian + l2)
    }
}

/// The least hessian sum a leaf may have (LightGBM's `min_sum_hessian_in_leaf`).
const MIN_HESSIAN: f64 = 1e-3;

/// How far from the threshold's log-odds ([`BoostedTrees::cut`]) the bounds of a sum must lie
/// to settle a decision: at a threshold t in [0.001, 0.999] it moves the probability by at
/// least 1e-4 · t(1 − t) ≥ 1e-7, more than half an `f32` step below 1 (3e-8), so the
/// probability as `f32` lies on the same side of t.
const CUT_SLACK: f64 = 1e-4;

/// A leaf of a tree being grown.
struct Leaf {
    /// Its node in the tree.
    node: usize,
    depth: u32,
    /// Its sampled rows.
    rows: Vec<u32>,
    /// Per feature of the tree (in the tree's feature order) and bin, the sums of its rows.
    histogram: Vec<[Sums; MAX_BINS]>,
    total: Sums,
    /// Its best split, if any gains: (gain, feature's place among the tree's, bin).
    best: Option<(f64, usize, u8)>,
}

/// Grows one tree on the `sampled` rows, splitting on `features` only.
fn grow(
    data: &Binned,
    gradients: &[(f64, f64)],
    sampled: Vec<u32>,
    features: &[usize],
    params: &BoostParams,
) -> Tree {
    let l2 = f64::from(params.l2);
    let histogram = |rows: &[u32]| {
        let mut histogram = vec![[Sums::default(); MAX_BINS]; features.len()];
        for &row in rows {
            let bins = data.row(row);
            let gradient = gradients[row as usize];
            for (sums, &f) in histogram.iter_mut().zip(features) {
                sums[usize::from(bins[f])].add(gradient);
            }
        }
        histogram
    };
    let new_leaf = |node: usize, depth: u32, rows: Vec<u32>, histogram: Vec<[Sums; MAX_BINS]>| {
        let mut total = Sums::default();
        for sums in &histogram[0] {
            total.gradient += sums.gradient;
            total.hessian += sums.hessian;
            total.rows += sums.rows;
        }
        let mut leaf = Leaf {
            node,
            depth,
            rows,
            histogram,
            total,
            best: None,
        };
        if depth < params.max_depth {
            leaf.best = best_split(&leaf, data, features, params.min_rows_leaf, l2);
        }
        leaf
    };
    let root_histogram = histogram(&sampled);
    let mut nodes = vec![Node::Leaf { value: 0.0 }];
    let mut leaves = vec![new_leaf(0, 0, sampled, root_histogram)];
    while leaves.len() < params.max_leaves as usize {
        // The leaf whose split gains most; the first of equals.
        let Some((at, (_, place, bin))) = leaves
            .iter()
            .enumerate()
            .filter_map(|(i, leaf)| leaf.best.map(|best| (i, best)))
            .fold(
                None,
                |chosen: Option<(usize, (f64, usize, u8))>, (i, best)| match chosen {
                    Some((_, (gain, _, _))) if gain >= best.0 => chosen,
                    _ => Some((i, best)),
                },
            )
        else {
            break;
        };
        let leaf = leaves.swap_remove(at);
        let feature = features[place];
        let (left_rows, right_rows): (Vec<u32>, Vec<u32>) = leaf
            .rows
            .into_iter()
            .partition(|&row| data.row(row)[feature] <= bin);
        let left = nodes.len();
        nodes.push(Node::Leaf { value: 0.0 });
        nodes.push(Node::Leaf { value: 0.0 });
        nodes[leaf.node] = Node::Split {
            feature: feature as u16,
            threshold: data.cuts[feature][usize::from(bin)],
            left: left as u32,
            right: left as u32 + 1,
        };
        // The smaller child's histogram from its rows, the larger's by subtraction.
        let left_is_smaller = left_rows.len() <= right_rows.len();
        let smaller = histogram(if left_is_smaller {
            &left_rows
        } else {
            &right_rows
        });
        let larger: Vec<[Sums; MAX_BINS]> = leaf
            .histogram
            .iter()
            .zip(&smaller)
            .map(|(parent, child)| std::array::from_fn(|b| parent[b].minus(child[b])))
            .collect();
        let (left_histogram, right_histogram) = if left_is_smaller {
            (smaller, larger)
        } else {
            (larger, smaller)
        };
        let depth = leaf.depth + 1;
        // Leaves in node order, so ties between equal gains go to the earlier node.
        leaves.push(new_leaf(left, depth, left_rows, left_histogram));
        leaves.push(new_leaf(left + 1, depth, right_rows, right_histogram));
        leaves.sort_by_key(|leaf| leaf.node);
    }
    let learning_rate = f64::from(params.learning_rate);
    for leaf in &leaves {
        let value = -leaf.total.gradient / (leaf.total.hessian + l2) * learning_rate;
        nodes[leaf.node] = Node::Leaf {
            value: value as f32,
        };
    }
    Tree { nodes }
}

/// The best split of `leaf`: the feature and bin whose split gains most (`G_L² / (H_L + λ) +
/// G_R² / (H_R + λ) - G² / (H + λ)`, above 0), each side with at least `min_rows` rows and
/// [`MIN_HESSIAN`]; the first of equal gains.
fn best_split(
    leaf: &Leaf,
    data: &Binned,
    features: &[usize],
    min_rows: u32,
    l2: f64,
) -> Option<(f64, usize, u8)> {
    let parent = leaf.total.score(l2);
    let mut best: Option<(f64, usize, u8)> = None;
    for (place, (sums, &f)) in leaf.histogram.iter().zip(features).enumerate() {
        let mut left = Sums::default();
        for (bin, bin_sums) in sums.iter().enumerate().take(data.cuts[f].len()) {
            left.gradient += bin_sums.gradient;
            left.hessian += bin_sums.hessian;
            left.rows += bin_sums.rows;
            let right = leaf.total.minus(left);
            if left.rows < min_rows || right.rows < min_rows {
                continue;
            }
            if left.hessian < MIN_HESSIAN || right.hessian < MIN_HESSIAN {
                continue;
            }
            let gain = left.score(l2) + right.score(l2) - parent;
            if gain > 0.0 && best.is_none_or(|(g, _, _)| gain > g) {
                best = Some((gain, place, bin as u8));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::Rng;

    /// Rows of two features where the label is "x + noise > 0.5" and the second feature is
    /// noise; weights 1.
    fn rows(n: usize, seed: u64) -> (Vec<f32>, Vec<bool>, Vec<f32>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut features = Vec::new();
        let mut labels = Vec::new();
        for _ in 0..n {
            let x: f32 = Rng::random(&mut rng);
            let noise: f32 = Rng::random(&mut rng);
            features.extend([x, noise]);
            labels.push(x + (noise - 0.5) * 0.2 > 0.5);
        }
        (features, labels, vec![1.0; n])
    }

    fn small() -> BoostParams {
        BoostParams {
            max_rounds: 60,
            min_rows_leaf: 5,
            l2: 1.0,
            ..BoostParams::default()
        }
    }

    #[test]
    fn it_learns_a_threshold_and_ignores_noise() {
        let (features, labels, weights) = rows(2000, 1);
        let train = WeightedRows {
            features: &features,
            labels: &labels,
            weights: &weights,
        };
        let model = BoostedTrees::fit(train, 2, None, &small()).unwrap();
        assert_eq!(model.n_trees(), 60);
        assert!(model.predict_proba(&[0.95, 0.5]) > 0.9);
        assert!(model.predict_proba(&[0.05, 0.5]) < 0.1);
        let (test, truth, _) = rows(1000, 2);
        let right = test
            .chunks_exact(2)
            .zip(&truth)
            .filter(|(row, label)| (model.predict_proba(row) >= 0.5) == **label)
            .count();
        assert!(right > 930, "{right} of 1000");
    }

    #[test]
    fn weights_move_the_base_and_the_leaves() {
        // One feature that says nothing: the probability is the weighted share of `true` (every
        // row in every round, so no round's sample leans either way).
        let features = vec![0.0_f32; 400];
        let labels: Vec<bool> = (0..400).map(|i| i % 4 == 0).collect();
        let even = vec![1.0_f32; 400];
        let heavy: Vec<f32> = labels.iter().map(|&l| if l { 3.0 } else { 1.0 }).collect();
        let fit = |weights: &[f32]| {
            let train = WeightedRows {
                features: &features,
                labels: &labels,
                weights,
            };
            let params = BoostParams {
                row_fraction: 1.0,
                ..small()
            };
            BoostedTrees::fit(train, 1, None, &params).unwrap()
        };
        assert!((fit(&even).predict_proba(&[0.0]) - 0.25).abs() < 1e-4);
        assert!((fit(&heavy).predict_proba(&[0.0]) - 0.5).abs() < 1e-4);
    }

    #[test]
    fn validation_stops_the_rounds_at_the_lowest_loss() {
        let (features, labels, weights) = rows(1000, 3);
        let (held, held_labels, held_weights) = rows(500, 4);
        let train = WeightedRows {
            features: &features,
            labels: &labels,
            weights: &weights,
        };
        let validation = WeightedRows {
            features: &held,
            labels: &held_labels,
            weights: &held_weights,
        };
        let params = BoostParams {
            max_rounds: 1000,
            patience: 10,
            learning_rate: 0.3,
            ..small()
        };
        let model = BoostedTrees::fit(train, 2, Some(validation), &params).unwrap();
        assert!(model.n_trees() < 1000, "{}", model.n_trees());
        // No prefix of the trees has a lower validation loss than the kept rounds.
        let loss = |trees: usize| {
            let scores: Vec<f64> = held
                .chunks_exact(2)
                .map(|row| {
                    model.base
                        + model.trees[..trees]
                            .iter()
                            .map(|t| f64::from(t.leaf(row)))
                            .sum::<f64>()
                })
                .collect();
            validation.log_loss(&scores)
        };
        let kept = loss(model.n_trees());
        assert!((1..model.n_trees()).all(|t| loss(t) >= kept));
    }

    #[test]
    fn bad_input_and_parameters_are_refused() {
        let (features, labels, weights) = rows(50, 5);
        let train = WeightedRows {
            features: &features,
            labels: &labels,
            weights: &weights,
        };
        let fit = |params: BoostParams| BoostedTrees::fit(train, 2, None, &params);
        assert!(
            fit(BoostParams {
                max_rounds: 0,
                ..small()
            })
            .is_err()
        );
        assert!(
            fit(BoostParams {
                max_leaves: 1,
                ..small()
            })
            .is_err()
        );
        assert!(
            fit(BoostParams {
                row_fraction: 0.0,
                ..small()
            })
            .is_err()
        );
        assert!(
            fit(BoostParams {
                feature_fraction: 1.5,
                ..small()
            })
            .is_err()
        );
        assert!(
            fit(BoostParams {
                learning_rate: f32::NAN,
                ..small()
            })
            .is_err()
        );
        let short = WeightedRows {
            weights: &weights[1..],
            ..train
        };
        assert!(BoostedTrees::fit(short, 2, None, &small()).is_err());
        let negative: Vec<f32> = weights.iter().map(|w| -w).collect();
        let negative = WeightedRows {
            weights: &negative,
            ..train
        };
        assert!(BoostedTrees::fit(negative, 2, None, &small()).is_err());
    }

    #[test]
    fn a_stored_model_predicts_what_it_did() {
        let (features, labels, weights) = rows(500, 6);
        let train = WeightedRows {
            features: &features,
            labels: &labels,
            weights: &weights,
        };
        let model = BoostedTrees::fit(train, 2, None, &small()).unwrap();
        let bytes = postcard::to_allocvec(&model).unwrap();
        let back: BoostedTrees = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back, model);
        for row in features.chunks_exact(2).take(50) {
            assert_eq!(
                back.predict_proba(row).to_bits(),
                model.predict_proba(row).to_bits()
            );
        }
    }

    proptest! {
        /// The same input gives the same model, prediction by flat arrays is the stored
        /// trees' walk, the batch is the row-by-row prediction, and `reaches` is comparing.
        #[test]
        fn predictions_agree_every_way(
            train in proptest::collection::vec((0_u8..6, 0_u8..6, any::<bool>(), 1_u8..4), 20..150),
            rows in proptest::collection::vec((0_u8..7, 0_u8..7), 1..30),
            thresholds in proptest::collection::vec(0_u8..=20, 1..5),
            seed in any::<u64>(),
        ) {
            let features: Vec<f32> = train.iter().flat_map(|&(a, b, _, _)| [a, b]).map(f32::from).collect();
            let labels: Vec<bool> = train.iter().map(|t| t.2).collect();
            let weights: Vec<f32> = train.iter().map(|t| f32::from(t.3)).collect();
            let set = WeightedRows { features: &features, labels: &labels, weights: &weights };
            let params = BoostParams { max_rounds: 8, min_rows_leaf: 2, seed, ..BoostParams::default() };
            let model = BoostedTrees::fit(set, 2, None, &params).unwrap();
            prop_assert_eq!(&BoostedTrees::fit(set, 2, None, &params).unwrap(), &model);
            let value = |v: u8| if v == 6 { f32::NAN } else { f32::from(v) * 0.75 };
            let rows: Vec<f32> = rows.iter().flat_map(|&(a, b)| [value(a), value(b)]).collect();
            let batch = model.predict_proba_batch(&rows);
            for (row, batched) in rows.chunks_exact(2).zip(batch) {
                let walked: f64 = model.trees.iter().map(|t| f64::from(t.leaf(row))).sum();
                let p = sigmoid(model.base + walked) as f32;
                prop_assert_eq!(model.predict_proba(row).to_bits(), p.to_bits());
                prop_assert_eq!(batched.to_bits(), p.to_bits());
                for t in thresholds.iter().map(|&t| f32::from(t) / 20.0) {
                    prop_assert_eq!(model.reaches(row, t), p >= t);
                }
            }
        }
    }
}

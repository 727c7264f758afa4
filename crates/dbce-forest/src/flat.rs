//! A forest's trees compiled to one flat array for prediction: every node of every tree as a
//! 12-byte record, the two children of a split side by side, so that a walk is index
//! arithmetic (`left + goes_right`) over one cache line per node instead of matching on node
//! variants. Leaves are records too, their probability in the threshold's place, so a walk
//! never leaves the array.
//!
//! For many rows at once ([`FlatForest::sum_rows`]) a second copy of the records, `steps`,
//! makes every leaf a step back to itself, so eight rows walk a tree in lockstep for exactly
//! its depth in steps, without a branch: their loads overlap and no walk's end is guessed
//! wrong (about twice as fast per row on the built-in block model,
//! `docs/bench/2026-11-29-lockstep`).
//!
//! Compiling renumbers each tree's nodes from its root, depth first, so a tree whose links
//! point outside it, back up or twice at one node is refused rather than walked.

use crate::tree::{Node, Tree};

/// The feature a leaf record holds: no split reads it (a forest has at most `u16::MAX`
/// features, so indices stop below it).
const LEAF: u16 = u16::MAX;

/// Why a forest's trees cannot be compiled for prediction (a damaged or foreign model file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CompileError {
    /// A tree has no nodes.
    #[error("a tree has no nodes")]
    EmptyTree,
    /// A child link points outside its tree, or to a node already reached.
    #[error("a tree's node links do not form a tree")]
    NotATree,
    /// A split reads a feature the model does not have.
    #[error("a split reads feature {0}, beyond the model's features")]
    FeatureOutOfRange(u16),
    /// More nodes than a `u32` can index.
    #[error("too many nodes")]
    TooLarge,
}

/// One node: a split, or a leaf when `feature` is [`LEAF`].
#[derive(Debug, Clone, Copy, PartialEq)]
struct FlatNode {
    /// A split's threshold (rows with a value `<=` it go left, the others and NaN right); a
    /// leaf's value.
    value: f32,
    /// The feature a split reads, or [`LEAF`].
    feature: u16,
    /// A split's left child; its right child is the next record.
    left: u32,
}

/// The trees of a forest, or of boosted trees, as one flat array, for prediction.
#[derive(Debug, Clone, Default)]
pub(crate) struct FlatForest {
    /// Each tree's root.
    roots: Vec<u32>,
    /// Each tree's depth: the most splits a walk of it passes.
    depths: Vec<u32>,
    nodes: Vec<FlatNode>,
    /// `nodes` for walks of a fixed number of steps: a leaf reads feature 0 against NaN, so
    /// it always goes right, and links to the node before it, so it goes back to itself.
    steps: Vec<FlatNode>,
    /// Per tree `k`: the least and the greatest sum the leaves of trees `k..` can add (one
    /// more entry, 0, after the last tree), for [`FlatForest::reaches`].
    rest: Vec<(f64, f64)>,
}

/// Two are equal when their trees are: `depths` and `steps` follow from the nodes (and a
/// leaf's step holds NaN, which no comparison finds equal).
impl PartialEq for FlatForest {
    fn eq(&self, other: &Self) -> bool {
        self.roots == other.roots && self.nodes == other.nodes && self.rest == other.rest
    }
}

/// Rows walked together by [`FlatForest::sum_rows`].
const LANES: usize = 8;

/// How far from a threshold a bound must be for [`FlatForest::reaches`] to decide before the
/// last tree: far more than the rounding of summing a forest's leaves in another order.
const MARGIN: f64 = 1e-9;

/// The `settled` of [`FlatForest::reaches_by`] for a `score` of the sum that never decreases
/// as the sum grows, compared with `threshold`: the answer once both bounds, a [`MARGIN`]
/// wider, score on one side of it.
pub(crate) fn settled_by(
    threshold: f32,
    score: impl Fn(f64) -> f32,
) -> impl Fn(f64, f64) -> Option<bool> {
    move |lo, hi| {
        if score(lo - MARGIN) >= threshold {
            Some(true)
        } else if score(hi + MARGIN) < threshold {
            Some(false)
        } else {
            None
        }
    }
}

impl FlatForest {
    /// Compiles `trees` for rows of `n_features` values.
    pub(crate) fn compile(trees: &[Tree], n_features: usize) -> Result<Self, CompileError> {
        let mut flat = Self::default();
        // Exactly the nodes the trees have (a forest is held for the whole process).
        flat.nodes
            .reserve_exact(trees.iter().map(|tree| tree.nodes.len()).sum());
        flat.roots.reserve_exact(trees.len());
        flat.depths.reserve_exact(trees.len());
        let mut leaf_ranges = Vec::with_capacity(trees.len());
        for tree in trees {
            let (root, depth) = flat.add_tree(tree, n_features)?;
            flat.roots.push(root);
            flat.depths.push(depth);
            let leaves = tree.nodes.iter().filter_map(|node| match *node {
                Node::Leaf { value } => Some(f64::from(value)),
                Node::Split { .. } => None,
            });
            let range = leaves.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p), hi.max(p))
            });
            leaf_ranges.push(range);
        }
        flat.steps = flat
            .nodes
            .iter()
            .zip(0_u32..)
            .map(|(node, at)| {
                if node.feature == LEAF {
                    FlatNode {
                        value: f32::NAN,
                        feature: 0,
                        left: at.wrapping_sub(1),
                    }
                } else {
                    *node
                }
            })
            .collect();
        flat.rest = vec![(0.0, 0.0); trees.len() + 1];
        for (k, (lo, hi)) in leaf_ranges.into_iter().enumerate().rev() {
            let (rest_lo, rest_hi) = flat.rest[k + 1];
            flat.rest[k] = (rest_lo + lo, rest_hi + hi);
        }
        Ok(flat)
    }

    /// Appends `tree`'s nodes, depth first from its root; returns the root's index and the
    /// tree's depth (the most splits a walk passes).
    fn add_tree(&mut self, tree: &Tree, n_features: usize) -> Result<(u32, u32), CompileError> {
        if tree.nodes.is_empty() {
            return Err(CompileError::EmptyTree);
        }
        let mut reached = vec![false; tree.nodes.len()];
        reached[0] = true;
        let root = self.push(&tree.nodes[0], n_features)?;
        let mut deepest = 0;
        // (node index in `tree`, its index here, its depth)
        let mut stack = vec![(0_usize, root, 0_u32)];
        while let Some((index, at, depth)) = stack.pop() {
            let Node::Split { left, right, .. } = tree.nodes[index] else {
                deepest = deepest.max(depth);
                continue;
            };
            let children = [left as usize, right as usize];
            for child in children {
                if reached.get(child).is_none_or(|&r| r) {
                    return Err(CompileError::NotATree);
                }
                reached[child] = true;
            }
            let first = self.push(&tree.nodes[children[0]], n_features)?;
            self.push(&tree.nodes[children[1]], n_features)?;
            self.nodes[at as usize].left = first;
            // Right first on the stack: the left subtree is laid out next.
            stack.push((children[1], first + 1, depth + 1));
            stack.push((children[0], first, depth + 1));
        }
        Ok((root, deepest))
    }

    /// Appends `node` (a split's children are linked later); returns its index.
    fn push(&mut self, node: &Node, n_features: usize) -> Result<u32, CompileError> {
        let at = u32::try_from(self.nodes.len()).map_err(|_| CompileError::TooLarge)?;
        self.nodes.push(match *node {
            Node::Leaf { value } => FlatNode {
                value,
                feature: LEAF,
                left: 0,
            },
            Node::Split {
                feature, threshold, ..
            } => {
                if usize::from(feature) >= n_features || feature == LEAF {
                    return Err(CompileError::FeatureOutOfRange(feature));
                }
                FlatNode {
                    value: threshold,
                    feature,
                    left: 0,
                }
            }
        });
        Ok(at)
    }

    /// Tree `tree`'s leaf value for `row`.
    #[inline]
    fn leaf_of(&self, tree: usize, row: &[f32]) -> f32 {
        let mut node = self.nodes[self.roots[tree] as usize];
        while node.feature != LEAF {
            // NaN compares false: it goes right.
            let goes_left = row[usize::from(node.feature)] <= node.value;
            node = self.nodes[node.left as usize + usize::from(!goes_left)];
        }
        node.value
    }

    /// The mean over trees, in order and summed in `f64`, of the leaf P(true) for `row`.
    pub(crate) fn predict_proba(&self, row: &[f32]) -> f32 {
        self.mean(self.sum(row))
    }

    /// The leaf values of `row`, summed in `f64` over the trees in order: [`LANES`] trees at a
    /// time walk `row` in lockstep, as many steps as the deepest of them (a walk that reached
    /// its leaf stays there), so their loads overlap; a short last group repeats its last tree.
    pub(crate) fn sum(&self, row: &[f32]) -> f64 {
        let mut sum = 0.0_f64;
        for (roots, depths) in self.roots.chunks(LANES).zip(self.depths.chunks(LANES)) {
            let mut at: [u32; LANES] = std::array::from_fn(|lane| roots[lane.min(roots.len() - 1)]);
            for _ in 0..depths.iter().copied().max().unwrap_or(0) {
                for at in &mut at {
                    let step = self.steps[*at as usize];
                    // NaN compares false: it goes right (and a leaf's NaN back to it).
                    let goes_left = row[usize::from(step.feature)] <= step.value;
                    *at = step.left.wrapping_add(u32::from(!goes_left));
                }
            }
            for &at in &at[..roots.len()] {
                sum += f64::from(self.nodes[at as usize].value);
            }
        }
        sum
    }

    /// A forest's probability from the sum of its leaves: their mean.
    fn mean(&self, sum: f64) -> f32 {
        (sum / self.roots.len() as f64) as f32
    }

    /// Whether [`FlatForest::predict_proba`] of `row` is at least `threshold`
    /// ([`FlatForest::reaches_by`] with the mean).
    pub(crate) fn reaches(&self, row: &[f32], threshold: f32) -> bool {
        let mean = |sum| self.mean(sum);
        self.reaches_by(row, settled_by(threshold, mean), |sum| {
            mean(sum) >= threshold
        })
    }

    /// Whether the sum of `row`'s leaves passes `reaches`, walking only as many trees as it
    /// takes to know: after each tree, the sum so far plus the least (the greatest) the other
    /// trees' leaves can add bounds the final sum, and once `settled` gives an answer for
    /// those bounds, that is the answer. `settled` must answer only what `reaches` says of
    /// every sum between the bounds: then the answer is the same as from the full sum, from
    /// fewer trees when the model is sure.
    pub(crate) fn reaches_by(
        &self,
        row: &[f32],
        settled: impl Fn(f64, f64) -> Option<bool>,
        reaches: impl Fn(f64) -> bool,
    ) -> bool {
        let mut sum = 0.0_f64;
        for tree in 0..self.roots.len() {
            sum += f64::from(self.leaf_of(tree, row));
            let (rest_lo, rest_hi) = self.rest[tree + 1];
            if let Some(answer) = settled(sum + rest_lo, sum + rest_hi) {
                return answer;
            }
        }
        reaches(sum)
    }

    /// [`FlatForest::predict_proba`] of every `d`-value row of `rows`, one tree at a time.
    pub(crate) fn predict_proba_rows(&self, rows: &[f32], d: usize) -> Vec<f32> {
        self.sum_rows(rows, d)
            .into_iter()
            .map(|s| self.mean(s))
            .collect()
    }

    /// [`FlatForest::sum`] of every `d`-value row of `rows`: [`LANES`] rows at a time walk
    /// each tree in lockstep, as many steps as the tree is deep (a walk that reached its leaf
    /// stays there), so the walks' loads overlap and no branch asks where a walk is; a short
    /// last group fills its lanes with its last row. A group's sums are kept in a local array
    /// until its last tree: added to the output slice tree by tree, each addition waited for
    /// the store of the one before (13 % of the batch's time on the block model's bench).
    pub(crate) fn sum_rows(&self, rows: &[f32], d: usize) -> Vec<f64> {
        let mut sums = vec![0.0_f64; rows.len() / d];
        for (group, sums) in rows.chunks(d * LANES).zip(sums.chunks_mut(LANES)) {
            // Where each lane's row starts; a short last group repeats its last row.
            let starts: [usize; LANES] = std::array::from_fn(|lane| lane.min(sums.len() - 1) * d);
            let mut acc = [0.0_f64; LANES];
            for (&root, &depth) in self.roots.iter().zip(&self.depths) {
                let mut at = [root; LANES];
                for _ in 0..depth {
                    for (at, &start) in at.iter_mut().zip(&starts) {
                        let step = self.steps[*at as usize];
                        // NaN compares false: it goes right (and a leaf's NaN back to it).
                        let goes_left = group[start + usize::from(step.feature)] <= step.value;
                        *at = step.left.wrapping_add(u32::from(!goes_left));
                    }
                }
                for (acc, &at) in acc.iter_mut().zip(&at) {
                    *acc += f64::from(self.nodes[at as usize].value);
                }
            }
            sums.copy_from_slice(&acc[..sums.len()]);
        }
        sums
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ForestParams, RandomForest};
    use proptest::prelude::*;

    fn walked(forest: &RandomForest, row: &[f32]) -> f32 {
        let sum: f64 = forest.trees.iter().map(|t| f64::from(t.leaf(row))).sum();
        (sum / forest.trees.len() as f64) as f32
    }

    proptest! {
        #[test]
        fn flat_arrays_predict_what_the_trees_do(
            train in proptest::collection::vec((0_u8..6, 0_u8..6, 0_u8..6, any::<bool>()), 20..120),
            rows in proptest::collection::vec((0_u8..7, 0_u8..7, 0_u8..7), 1..40),
            seed in any::<u64>(),
        ) {
            let features: Vec<f32> = train.iter().flat_map(|&(a, b, c, _)| [a, b, c]).map(f32::from).collect();
            let labels: Vec<bool> = train.iter().map(|t| t.3).collect();
            let params = ForestParams { trees: 5, min_samples_leaf: 1, seed, ..ForestParams::default() };
            let forest = RandomForest::fit(&features, 3, &labels, &params).unwrap();
            // Values on the training grid, between it, and NaN (6 stands for NaN).
            let value = |v: u8| if v == 6 { f32::NAN } else { f32::from(v) * 0.75 };
            let rows: Vec<f32> = rows.iter().flat_map(|&(a, b, c)| [value(a), value(b), value(c)]).collect();
            let batch = forest.predict_proba_batch(&rows);
            for (row, batched) in rows.chunks_exact(3).zip(batch) {
                let expected = walked(&forest, row);
                prop_assert_eq!(forest.predict_proba(row).to_bits(), expected.to_bits());
                prop_assert_eq!(batched.to_bits(), expected.to_bits());
            }
        }
    }

    proptest! {
        #[test]
        fn reaching_a_threshold_is_comparing_the_probability(
            train in proptest::collection::vec((0_u8..6, 0_u8..6, any::<bool>()), 20..120),
            rows in proptest::collection::vec((0_u8..7, 0_u8..7), 1..40),
            thresholds in proptest::collection::vec(0_u8..=20, 1..6),
            trees in 1_u32..12,
            seed in any::<u64>(),
        ) {
            let features: Vec<f32> = train.iter().flat_map(|&(a, b, _)| [a, b]).map(f32::from).collect();
            let labels: Vec<bool> = train.iter().map(|t| t.2).collect();
            let params = ForestParams { trees, min_samples_leaf: 1, seed, ..ForestParams::default() };
            let forest = RandomForest::fit(&features, 2, &labels, &params).unwrap();
            let value = |v: u8| if v == 6 { f32::NAN } else { f32::from(v) * 0.75 };
            for &(a, b) in &rows {
                let row = [value(a), value(b)];
                let p = forest.predict_proba(&row);
                // Thresholds on a grid of twentieths, and the probability itself and its
                // neighbours, where a bound that is off by a rounding would show.
                let near = [p, f32::from_bits(p.to_bits() + 1), f32::from_bits(p.to_bits().max(1) - 1)];
                for t in thresholds.iter().map(|&t| f32::from(t) / 20.0).chain(near) {
                    prop_assert_eq!(forest.flat.reaches(&row, t), p >= t, "p {} t {}", p, t);
                }
            }
        }
    }

    fn split(feature: u16, left: u32, right: u32) -> Node {
        Node::Split {
            feature,
            threshold: 0.5,
            left,
            right,
        }
    }

    const LEAF_NODE: Node = Node::Leaf { value: 1.0 };

    #[test]
    fn links_that_do_not_form_a_tree_are_refused() {
        let compile = |nodes: Vec<Node>| FlatForest::compile(&[Tree { nodes }], 2);
        assert!(compile(vec![split(0, 1, 2), LEAF_NODE, LEAF_NODE]).is_ok());
        assert_eq!(compile(vec![]), Err(CompileError::EmptyTree));
        // A child outside the tree, a loop back to the root, one node reached twice.
        assert_eq!(
            compile(vec![split(0, 1, 3), LEAF_NODE, LEAF_NODE]),
            Err(CompileError::NotATree)
        );
        assert_eq!(
            compile(vec![split(0, 1, 0), LEAF_NODE]),
            Err(CompileError::NotATree)
        );
        assert_eq!(
            compile(vec![split(0, 1, 1), LEAF_NODE]),
            Err(CompileError::NotATree)
        );
        assert_eq!(
            compile(vec![split(2, 1, 2), LEAF_NODE, LEAF_NODE]),
            Err(CompileError::FeatureOutOfRange(2))
        );
    }
}

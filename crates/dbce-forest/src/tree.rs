//! One CART tree: Gini impurity, bootstrap rows, a random feature subset per split, split
//! search on the binned matrix.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::bins::{Binned, MAX_BINS};

/// A node of a flat tree; children are indices into the same tree's node vector.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) enum Node {
    /// Rows with `row[feature] <= threshold` go to `left`, the others (and NaN) to `right`.
    Split {
        /// Feature index.
        feature: u16,
        /// Threshold, a midpoint between two training values.
        threshold: f32,
        /// Index of the left child.
        left: u32,
        /// Index of the right child.
        right: u32,
    },
    /// A leaf: in a forest's tree the (class-weighted) fraction of `true` among its training
    /// rows, in a boosted tree its score (log-odds, learning rate applied).
    Leaf {
        /// P(true), or the boosted score.
        value: f32,
    },
}

/// A tree: node 0 is the root.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
}

impl Tree {
    /// The leaf value of `row`, walking the nodes as they are stored (`row[feature] <=
    /// threshold` goes left, NaN right): what the flat arrays reproduce, and how training
    /// updates its scores.
    pub(crate) fn leaf(&self, row: &[f32]) -> f32 {
        let mut node = 0;
        loop {
            match self.nodes[node] {
                Node::Leaf { value } => return value,
                Node::Split {
                    feature,
                    threshold,
                    left,
                    right,
                } => {
                    let goes_left = row[usize::from(feature)] <= threshold;
                    node = if goes_left { left } else { right } as usize;
                }
            }
        }
    }
}

/// Settings of one tree, resolved from the forest's parameters.
pub(crate) struct TreeSettings {
    pub(crate) max_depth: u32,
    pub(crate) min_samples_leaf: u32,
    pub(crate) max_features: usize,
    /// Bootstrap draws (with replacement).
    pub(crate) draws: usize,
    /// Weight of a `false` and of a `true` row.
    pub(crate) class_weight: [f64; 2],
    pub(crate) seed: u64,
}

/// Per-bin sums of a node's rows.
#[derive(Clone, Copy, Default)]
struct Bin {
    /// Bootstrap draws.
    draws: u32,
    /// Class-weighted draws.
    weight: f64,
    /// Class-weighted draws of `true` rows.
    weight_true: f64,
}

impl Bin {
    fn add(&mut self, s: &Sample) {
        self.draws += s.draws;
        self.weight += s.weight;
        self.weight_true += s.weight_true;
    }
}

/// An in-bag row with its bootstrap multiplicity and class weight.
#[derive(Clone, Copy)]
struct Sample {
    row: u32,
    draws: u32,
    /// `draws` times the class weight of the row's label.
    weight: f64,
    /// `weight` if the label is `true`, else 0.
    weight_true: f64,
}

/// Gini impurity times weight: `w * (1 - p² - q²) = 2 * t * (w - t) / w`.
fn weighted_gini(weight: f64, weight_true: f64) -> f64 {
    if weight <= 0.0 {
        0.0
    } else {
        2.0 * weight_true * (weight - weight_true) / weight
    }
}

struct Best {
    feature: usize,
    bin: u8,
    gain: f64,
}

/// Builds tree `index` and returns it with its impurity decrease per feature.
pub(crate) fn build(
    data: &Binned,
    labels: &[bool],
    settings: &TreeSettings,
    index: u32,
) -> (Tree, Vec<f64>) {
    let n_features = data.n_features;
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    rng.set_stream(u64::from(index));

    // Bootstrap: multiplicity of each row, then the in-bag rows in ascending order.
    let mut count = vec![0_u32; data.n_rows];
    // `fit` checked that the row count fits in a u32.
    let n_rows = data.n_rows as u32;
    for _ in 0..settings.draws {
        count[rng.random_range(0..n_rows) as usize] += 1;
    }
    let mut samples: Vec<Sample> = (0..n_rows)
        .filter(|&r| count[r as usize] > 0)
        .map(|r| {
            let draws = count[r as usize];
            let label = labels[r as usize];
            let weight = f64::from(draws) * settings.class_weight[usize::from(label)];
            Sample {
                row: r,
                draws,
                weight,
                weight_true: if label { weight } else { 0.0 },
            }
        })
        .collect();
    drop(count);

    let mut nodes = Vec::new();
    let mut importance = vec![0.0_f64; n_features];
    let mut features: Vec<usize> = (0..n_features).collect();
    let mut scratch: Vec<Sample> = Vec::with_capacity(samples.len());
    let mut hist = vec![[Bin::default(); MAX_BINS]; settings.max_features];
    let mut left_rows: Vec<Sample> = Vec::new();
    let min_leaf = settings.min_samples_leaf.max(1);

    // (node index, rows start, rows end, depth); depth first, left child first.
    nodes.push(Node::Leaf { value: 0.0 });
    let mut stack = vec![(0_usize, 0_usize, samples.len(), 0_u32)];
    while let Some((node, start, end, depth)) = stack.pop() {
        let part = &samples[start..end];
        let mut total = Bin::default();
        for s in part {
            total.add(s);
        }
        let p_true = if total.weight > 0.0 {
            (total.weight_true / total.weight) as f32
        } else {
            0.0
        };
        nodes[node] = Node::Leaf { value: p_true };
        let pure = total.weight_true <= 0.0 || total.weight_true >= total.weight;
        if pure || depth >= settings.max_depth || total.draws < 2 * min_leaf {
            continue;
        }
        let parent_gini = weighted_gini(total.weight, total.weight_true);

        // Random feature subset: partial Fisher-Yates over a persistent permutation.
        for k in 0..settings.max_features {
            let j = rng.random_range(k as u32..n_features as u32) as usize;
            features.swap(k, j);
        }
        let tried = &features[..settings.max_features];
        for h in hist.iter_mut() {
            h.fill(Bin::default());
        }
        // One pass over the rows fills every tried feature's histogram.
        for s in part {
            let bins = data.row(s.row);
            for (h, &f) in hist.iter_mut().zip(tried) {
                h[usize::from(bins[f])].add(s);
            }
        }
        let mut best: Option<Best> = None;
        for (h, &f) in hist.iter().zip(tried) {
            let n_bins = data.cuts[f].len() + 1;
            let mut left = Bin::default();
            for (b, h) in h[..n_bins - 1].iter().enumerate() {
                left.draws += h.draws;
                left.weight += h.weight;
                left.weight_true += h.weight_true;
                let right_draws = total.draws - left.draws;
                if left.draws < min_leaf {
                    continue;
                }
                if right_draws < min_leaf {
                    break;
                }
                if h.draws == 0 {
                    continue; // same split as the previous bin
                }
                let gain = parent_gini
                    - weighted_gini(left.weight, left.weight_true)
                    - weighted_gini(
                        total.weight - left.weight,
                        total.weight_true - left.weight_true,
                    );
                if best.as_ref().is_none_or(|bst| gain > bst.gain) {
                    best = Some(Best {
                        feature: f,
                        bin: b as u8,
                        gain,
                    });
                }
            }
        }
        let Some(best) = best else { continue };

        // Stable partition keeps both halves in ascending row order.
        scratch.clear();
        left_rows.clear();
        for s in &samples[start..end] {
            if data.row(s.row)[best.feature] <= best.bin {
                left_rows.push(*s);
            } else {
                scratch.push(*s);
            }
        }
        let mid = start + left_rows.len();
        samples[start..mid].copy_from_slice(&left_rows);
        samples[mid..end].copy_from_slice(&scratch);

        importance[best.feature] += best.gain.max(0.0);
        let left = nodes.len();
        nodes.push(Node::Leaf { value: p_true });
        nodes.push(Node::Leaf { value: p_true });
        nodes[node] = Node::Split {
            feature: best.feature as u16,
            threshold: data.cuts[best.feature][usize::from(best.bin)],
            left: left as u32,
            right: (left + 1) as u32,
        };
        stack.push((left + 1, mid, end, depth + 1));
        stack.push((left, start, mid, depth + 1));
    }
    (Tree { nodes }, importance)
}

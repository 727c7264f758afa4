//! The learned step after the bit patterns (thesis §2.4, test cases T003–T006, and the joint
//! variant): nearest neighbours or a random forest over the runs' shallow features, trained per
//! site on the runs the patterns decided; or the model trained offline on ground truth.

use dbce_annotate::{Decision, LabelledRun, PatternClass};
use dbce_forest::{ForestParams, NearestNeighbours, RandomForest, remove_conflicting};
use rayon::prelude::*;

use crate::features::{MODEL_WIDTH, RunFeatures, WIDTH};
use crate::method::ClassifyMethod;

/// Fewer decided runs than this in a site, or only one class among them: no forest is trained.
const MIN_TRAINING_RUNS: usize = 40;

/// Most training rows nearest neighbours keep (every n-th row of a larger set): each `invalid`
/// run is compared with all of them, so a huge site must not make that quadratic.
const MAX_NEIGHBOUR_ROWS: usize = 16_384;

/// A page's runs with their features, as the learned step sees it.
pub struct PageRuns<'a> {
    /// The runs, classified by the patterns; updated in place.
    pub runs: &'a mut Vec<LabelledRun>,
    /// Their features.
    pub features: &'a RunFeatures,
    /// Their rows for the trained model, when computed.
    pub model_rows: Option<&'a [f32]>,
}

/// Reclassifies the runs of one site's cross pages as `method` says.
///
/// - [`ClassifyMethod::T003`] to [`ClassifyMethod::T005`]: k nearest neighbours over the
///   runs' 1-, 2- or 3-layer windows, trained on every decided run of the site (conflicting
///   vectors removed), classify the `invalid` runs;
/// - [`ClassifyMethod::T006`]: the same with a random forest over the 3-layer windows (the
///   thesis's best variant).
/// - [`ClassifyMethod::Joint`]: the site's pages are split in two halves by position; a forest
///   trained on one half's decided runs classifies every run of the other half, so it can
///   overturn a pattern's verdict where the shallow features of the whole site disagree.
///
/// - [`ClassifyMethod::Model`]: the model trained offline on ground truth classifies every run.
///
/// Per-site learners train on the pattern-decided runs with conflicting vectors removed; where
/// none can be trained, `invalid` runs take the single-page classifier's verdict on their
/// block. Other methods change nothing.
pub fn reclassify(
    pages: &mut [PageRuns<'_>],
    method: ClassifyMethod,
    seed: u64,
    model: Option<&RandomForest>,
) {
    match method {
        ClassifyMethod::Model => {
            for page in pages.iter_mut() {
                let (Some(model), Some(rows)) = (model, page.model_rows) else {
                    continue;
                };
                for (i, run) in page.runs.iter_mut().enumerate() {
                    let content = model.predict(&rows[i * MODEL_WIDTH..(i + 1) * MODEL_WIDTH]);
                    decide(run, content, Decision::Learned);
                }
            }
        }
        ClassifyMethod::T003
        | ClassifyMethod::T004
        | ClassifyMethod::T005
        | ClassifyMethod::T006 => {
            let kind = if method == ClassifyMethod::T006 {
                Kind::Forest
            } else {
                Kind::Neighbours
            };
            let classifier = Classifier::train(pages.iter(), Rows::Windows, kind, seed);
            // Pages are independent once the classifier is trained.
            pages.par_iter_mut().for_each(|page| {
                apply(page, classifier.as_ref(), Rows::Windows, is_invalid);
            });
        }
        ClassifyMethod::Joint => {
            for half in 0..2 {
                let training = pages
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % 2 != half)
                    .map(|(_, p)| p);
                let forest = Classifier::train(
                    training,
                    Rows::Shallow,
                    Kind::Forest,
                    seed.wrapping_add(half as u64),
                );
                for page in pages.iter_mut().skip(half).step_by(2) {
                    match &forest {
                        Some(forest) => apply(page, Some(forest), Rows::Shallow, |_| true),
                        None => apply(page, None, Rows::Shallow, is_invalid),
                    }
                }
            }
        }
        ClassifyMethod::T001
        | ClassifyMethod::T002
        | ClassifyMethod::Single
        | ClassifyMethod::Evidence => {}
    }
}

/// Which of a run's feature rows a per-site classifier reads.
#[derive(Clone, Copy)]
enum Rows {
    /// Table 2.1 for the run and its block, with the extras ([`WIDTH`] values).
    Shallow,
    /// The run's neighbourhood window ([`RunFeatures::window_width`] values).
    Windows,
}

impl Rows {
    fn width(self, features: &RunFeatures) -> usize {
        match self {
            Self::Shallow => WIDTH,
            Self::Windows => features.window_width,
        }
    }

    /// Run `i`'s row.
    fn of(self, features: &RunFeatures, i: usize) -> &[f32] {
        let width = self.width(features);
        let all = match self {
            Self::Shallow => &features.rows,
            Self::Windows => &features.windows,
        };
        &all[i * width..(i + 1) * width]
    }
}

/// Which learner a per-site classifier is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// k nearest neighbours (T003–T005).
    Neighbours,
    /// A random forest (T006, joint).
    Forest,
}

/// A classifier trained on one site's pattern-decided runs.
enum Classifier {
    Neighbours(NearestNeighbours),
    Forest(RandomForest),
}

impl Classifier {
    /// Trained on the pattern-decided runs of `pages`, conflicting vectors removed (thesis
    /// §2.4); `None` if too few are left or only one class.
    fn train<'p, 'a: 'p>(
        pages: impl Iterator<Item = &'p PageRuns<'a>>,
        read: Rows,
        kind: Kind,
        seed: u64,
    ) -> Option<Self> {
        let mut pages = pages.peekable();
        let width = read.width(pages.peek()?.features);
        let mut rows: Vec<f32> = Vec::new();
        let mut labels: Vec<bool> = Vec::new();
        for page in pages {
            for (i, run) in page.runs.iter().enumerate() {
                if run.decision == Decision::Pattern && !is_invalid(run) {
                    rows.extend_from_slice(read.of(page.features, i));
                    labels.push(run.class == PatternClass::Content);
                }
            }
        }
        let (rows, labels) = remove_conflicting(&rows, width, &labels);
        let positives = labels.iter().filter(|&&l| l).count();
        if labels.len() < MIN_TRAINING_RUNS || positives == 0 || positives == labels.len() {
            return None;
        }
        match kind {
            Kind::Forest => {
                let params = ForestParams {
                    seed,
                    ..ForestParams::default()
                };
                RandomForest::fit(&rows, width, &labels, &params)
                    .ok()
                    .map(Self::Forest)
            }
            Kind::Neighbours => {
                let (rows, labels) = thin_out(rows, labels, width, MAX_NEIGHBOUR_ROWS);
                NearestNeighbours::fit(&rows, width, &labels, NearestNeighbours::DEFAULT_K)
                    .ok()
                    .map(Self::Neighbours)
            }
        }
    }

    fn predict(&self, row: &[f32]) -> bool {
        match self {
            Self::Neighbours(knn) => knn.predict(row),
            Self::Forest(forest) => forest.predict(row),
        }
    }
}

/// At most `max` of the rows (`width` values each) with their labels: every n-th row, in
/// order, for the smallest n that fits.
fn thin_out(rows: Vec<f32>, labels: Vec<bool>, width: usize, max: usize) -> (Vec<f32>, Vec<bool>) {
    if labels.len() <= max || width == 0 {
        return (rows, labels);
    }
    let step = labels.len().div_ceil(max);
    let kept_rows = rows
        .chunks_exact(width)
        .step_by(step)
        .flatten()
        .copied()
        .collect();
    (kept_rows, labels.into_iter().step_by(step).collect())
}

fn is_invalid(run: &LabelledRun) -> bool {
    run.class == PatternClass::Invalid
}

/// Gives the runs `select` picks the classifier's verdict on their `read` row, or without a
/// classifier the single-page verdict.
fn apply(
    page: &mut PageRuns<'_>,
    classifier: Option<&Classifier>,
    read: Rows,
    select: impl Fn(&LabelledRun) -> bool,
) {
    for (i, run) in page.runs.iter_mut().enumerate() {
        if !select(run) {
            continue;
        }
        let (content, decision) = match classifier {
            Some(classifier) => (
                classifier.predict(read.of(page.features, i)),
                Decision::Learned,
            ),
            None => (page.features.single[i], Decision::SinglePage),
        };
        decide(run, content, decision);
    }
}

/// Sets a run's class from a classifier's verdict.
fn decide(run: &mut LabelledRun, content: bool, decision: Decision) {
    run.class = if content {
        PatternClass::Content
    } else {
        PatternClass::Boilerplate
    };
    run.decision = decision;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_every_nth_row_with_its_label() {
        let rows: Vec<f32> = (0..20).map(|v| v as f32).collect();
        let labels: Vec<bool> = (0..10).map(|i| i % 3 == 0).collect();
        let (kept, kept_labels) = thin_out(rows.clone(), labels.clone(), 2, 4);
        // 10 rows, at most 4: every 3rd row (0, 3, 6, 9).
        assert_eq!(kept, vec![0.0, 1.0, 6.0, 7.0, 12.0, 13.0, 18.0, 19.0]);
        assert_eq!(kept_labels, vec![true, true, true, true]);
        assert_eq!(
            thin_out(rows.clone(), labels.clone(), 2, 10),
            (rows, labels)
        );
    }
}

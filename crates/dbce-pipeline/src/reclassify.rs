//! The learned step after the bit patterns (thesis §2.4, test cases T003–T006, and the joint
//! variant): nearest neighbours or a random forest over the runs' shallow features, trained per
//! site on the runs the patterns decided; or the model trained offline on ground truth.

use dbce_annotate::{Decision, LabelledRun, PatternClass};
use dbce_forest::{ForestParams, NearestNeighbours, RandomForest, remove_conflicting};
use rayon::prelude::*;

use crate::config::ClassifyMethod;
use crate::features::{MODEL_WIDTH, RunFeatures, WIDTH};

/// Fewer decided runs than this in a site, or only one class among them: no forest is trained.
const MIN_TRAINING_RUNS: usize = 40;

/// Most training rows nearest neighbours keep (every n-th row of a larger set): each `invalid`
/// run is compared with all of them, so a huge site must not make that quadratic.
const MAX_NEIGHBOUR_ROWS: usize = 16_384;

/// A page's runs with their features, as the learned step sees it.
pub(crate) struct PageRuns<'a> {
    /// The runs, classified by the patterns; updated in place.
    pub(crate) runs: &'a mut Vec<LabelledRun>,
    /// Their features.
    pub(crate) features: &'a RunFeatures,
    /// Their rows for the trained model, when computed.
    pub(crate) model_rows: Option<&'a [f32]>,
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
/// Where no forest can be trained, `invalid` runs take the single-page classifier's verdict
/// on their block. Other methods change nothing.
pub(crate) fn reclassify(
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
            let classifier = Window::train(pages, method, seed);
            // Pages are independent once the classifier is trained.
            pages.par_iter_mut().for_each(|page| {
                let width = page.features.window_width;
                for (i, run) in page.runs.iter_mut().enumerate() {
                    if run.class != PatternClass::Invalid {
                        continue;
                    }
                    let (content, decision) = match &classifier {
                        Some(classifier) => (
                            classifier.predict(&page.features.windows[i * width..(i + 1) * width]),
                            Decision::Learned,
                        ),
                        None => (page.features.single[i], Decision::SinglePage),
                    };
                    decide(run, content, decision);
                }
            });
        }
        ClassifyMethod::Joint => {
            for half in 0..2 {
                let forest = train(
                    pages
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| i % 2 != half)
                        .map(|(_, p)| p),
                    seed.wrapping_add(half as u64),
                );
                for page in pages.iter_mut().skip(half).step_by(2) {
                    match &forest {
                        Some(forest) => apply(page, Some(forest), |_| true),
                        None => apply(page, None, |r| r.class == PatternClass::Invalid),
                    }
                }
            }
        }
        ClassifyMethod::T001 | ClassifyMethod::T002 | ClassifyMethod::Single => {}
    }
}

/// The classifier of T003–T006 over the runs' windows.
enum Window {
    Neighbours(NearestNeighbours),
    Forest(RandomForest),
}

impl Window {
    /// Trained on the pattern-decided runs of `pages` with conflicting vectors removed; `None`
    /// if too few are left or only one class.
    fn train(pages: &[PageRuns<'_>], method: ClassifyMethod, seed: u64) -> Option<Self> {
        let width = pages.first()?.features.window_width;
        let mut rows: Vec<f32> = Vec::new();
        let mut labels: Vec<bool> = Vec::new();
        for page in pages {
            for (i, run) in page.runs.iter().enumerate() {
                if is_decided(run) {
                    rows.extend_from_slice(&page.features.windows[i * width..(i + 1) * width]);
                    labels.push(run.class == PatternClass::Content);
                }
            }
        }
        let (rows, labels) = remove_conflicting(&rows, width, &labels);
        if !trainable(&labels) {
            return None;
        }
        if method == ClassifyMethod::T006 {
            let params = ForestParams {
                seed,
                ..ForestParams::default()
            };
            return RandomForest::fit(&rows, width, &labels, &params)
                .ok()
                .map(Self::Forest);
        }
        let (rows, labels) = thin_out(rows, labels, width, MAX_NEIGHBOUR_ROWS);
        let k = NearestNeighbours::DEFAULT_K;
        NearestNeighbours::fit(&rows, width, &labels, k)
            .ok()
            .map(Self::Neighbours)
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

/// Whether the patterns decided a run (content or boilerplate).
fn is_decided(run: &LabelledRun) -> bool {
    run.decision == Decision::Pattern && run.class != PatternClass::Invalid
}

/// Whether a learning set is large enough and has both classes.
fn trainable(labels: &[bool]) -> bool {
    let positives = labels.iter().filter(|&&l| l).count();
    labels.len() >= MIN_TRAINING_RUNS && positives > 0 && positives < labels.len()
}

/// A forest over the decided runs of `pages`, or `None` if there are too few or one class.
fn train<'p, 'a: 'p>(
    pages: impl Iterator<Item = &'p PageRuns<'a>>,
    seed: u64,
) -> Option<RandomForest> {
    let mut rows: Vec<f32> = Vec::new();
    let mut labels: Vec<bool> = Vec::new();
    for page in pages {
        for (i, run) in page.runs.iter().enumerate() {
            if !is_decided(run) {
                continue;
            }
            rows.extend_from_slice(&page.features.rows[i * WIDTH..(i + 1) * WIDTH]);
            labels.push(run.class == PatternClass::Content);
        }
    }
    if !trainable(&labels) {
        return None;
    }
    let params = ForestParams {
        seed,
        ..ForestParams::default()
    };
    RandomForest::fit(&rows, WIDTH, &labels, &params).ok()
}

/// Gives the runs `select` picks the forest's class, or without a forest the single-page
/// verdict.
fn apply(
    page: &mut PageRuns<'_>,
    forest: Option<&RandomForest>,
    select: impl Fn(&LabelledRun) -> bool,
) {
    for (i, run) in page.runs.iter_mut().enumerate() {
        if !select(run) {
            continue;
        }
        let (content, decision) = match forest {
            Some(forest) => (
                forest.predict(&page.features.rows[i * WIDTH..(i + 1) * WIDTH]),
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

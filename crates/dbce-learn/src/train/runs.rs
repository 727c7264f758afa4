//! The run model of method `model` and the judge of method `evidence`, trained on the cross
//! pages of a pipeline run over pages with ground truth (`dbce train`, which runs the
//! pipeline; this module has what is learned of its rows).

use dbce_forest::{ForestError, ForestParams, RandomForest};

use crate::model;

/// The forests `dbce train` trains (the run model, the judge's): `trees` trees of depth at
/// most `depth`, with leaves of at least five rows.
pub fn forest_params(trees: u32, depth: u32, seed: u64) -> ForestParams {
    ForestParams {
        trees,
        max_depth: depth,
        min_samples_leaf: 5,
        seed,
        ..ForestParams::default()
    }
}

/// A run model trained by [`fit_run_model`].
#[derive(Debug, Clone)]
pub struct RunModel {
    /// The forest over rows of [`model::WIDTH`] values.
    pub forest: RandomForest,
    /// The share of the training runs it labels right.
    pub training_accuracy: f64,
}

/// The run model trained on `rows` ([`model::WIDTH`] values a run) and their `labels`.
///
/// # Errors
/// When the forest refuses the rows (none, another width, values that are not finite).
pub fn fit_run_model(
    rows: &[f32],
    labels: &[bool],
    params: &ForestParams,
) -> Result<RunModel, ForestError> {
    let forest = RandomForest::fit(rows, model::WIDTH, labels, params)?;
    let correct = rows
        .chunks_exact(model::WIDTH)
        .zip(labels)
        .filter(|&(row, &label)| forest.predict(row) == label)
        .count();
    Ok(RunModel {
        forest,
        training_accuracy: correct as f64 / labels.len().max(1) as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_model_learns_a_separable_rule_and_reports_its_accuracy() {
        // Content when the values are high: every value tells.
        let rows: Vec<f32> = (0..40)
            .flat_map(|i| vec![(i % 2) as f32; model::WIDTH])
            .collect();
        let labels: Vec<bool> = (0..40).map(|i| i % 2 == 1).collect();
        let fitted = fit_run_model(&rows, &labels, &forest_params(4, 4, 0)).unwrap();
        assert_eq!(fitted.training_accuracy, 1.0);
        assert_eq!(fitted.forest.n_features(), model::WIDTH);
        assert!(fit_run_model(&rows[1..], &labels, &forest_params(4, 4, 0)).is_err());
    }
}

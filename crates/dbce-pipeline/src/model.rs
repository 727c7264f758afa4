//! The run model of method `model`: a random forest trained on ground truth by `dbce train`,
//! stored as postcard bytes.

use std::path::Path;

use dbce_forest::RandomForest;

use crate::StageError;
use crate::features::MODEL_WIDTH;

/// How many values a model's rows must have.
pub const WIDTH: usize = MODEL_WIDTH;

/// The model built into dbce: trained by `scripts/train-model` on three generated archives and
/// the four development datasets.
const BUILT_IN: &[u8] = include_bytes!("../models/runs.bin");

/// Reads the model at `path`, or the built-in one.
///
/// # Errors
/// When the file cannot be read, is not a model, or was trained on rows of another width.
pub fn load(path: Option<&Path>) -> Result<RandomForest, StageError> {
    let Some(path) = path else {
        return decode(BUILT_IN).map_err(|reason| StageError::Model {
            path: "(built-in)".into(),
            reason,
        });
    };
    let bytes = std::fs::read(path).map_err(|source| StageError::Input {
        path: path.to_owned(),
        source,
    })?;
    decode(&bytes).map_err(|reason| StageError::Model {
        path: path.to_owned(),
        reason,
    })
}

/// The model in `bytes`.
///
/// # Errors
/// A description of what is wrong.
pub fn decode(bytes: &[u8]) -> Result<RandomForest, String> {
    let model: RandomForest =
        postcard::from_bytes(bytes).map_err(|e| format!("not a dbce run model: {e}"))?;
    if model.n_features() != WIDTH {
        return Err(format!(
            "trained on rows of {} values; this dbce makes rows of {WIDTH}",
            model.n_features()
        ));
    }
    Ok(model)
}

/// The bytes of `model`, as [`decode`] reads them.
pub fn encode(model: &RandomForest) -> Vec<u8> {
    postcard::to_allocvec(model).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_model_reads_the_rows_this_build_makes() {
        let model = load(None).unwrap();
        assert_eq!(model.n_features(), WIDTH);
        assert!(model.n_trees() > 0);
        assert_eq!(decode(&encode(&model)).unwrap(), model);
    }

    #[test]
    fn foreign_bytes_are_refused() {
        assert!(decode(b"not a model").is_err());
    }
}

//! The run model of method `model`: a random forest trained on ground truth by `dbce train`,
//! stored as postcard bytes with the names of the values it reads ([`FeatureSchema`]).

use std::path::{Path, PathBuf};

use dbce_classify::BlockModel;
use dbce_forest::{FeatureSchema, RandomForest, SchemaMismatch};
use serde::{Deserialize, Serialize};

use crate::features::{MODEL_WIDTH, model_feature_names};

/// How many values a model's rows must have.
pub const WIDTH: usize = MODEL_WIDTH;

/// The model built into dbce: trained by `scripts/train-model` on three generated archives and
/// the four development datasets.
pub(crate) const BUILT_IN: &[u8] = include_bytes!("../models/runs.bin");

/// Why a stored model (the run model, the judge or a block model) cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ModelFileError {
    /// The bytes are not a model of this kind.
    #[error("not a dbce {kind}")]
    NotAModel {
        /// What was expected ("run model", "judge").
        kind: &'static str,
        /// What the decoder said.
        #[source]
        source: postcard::Error,
    },
    /// The model reads other values than this build computes.
    #[error("the {kind} was trained on other features")]
    Schema {
        /// What was read ("run model", "judge").
        kind: &'static str,
        /// Where the features differ.
        #[source]
        source: SchemaMismatch,
    },
    /// The model's parts do not fit together or this build (the judge's routes, a forest of
    /// another width).
    #[error("the {kind} does not fit this build: {reason}")]
    Shape {
        /// What was read.
        kind: &'static str,
        /// What does not fit.
        reason: String,
    },
    /// A single-page block model that this build cannot use (not one, or trained on another
    /// layout of the block rows).
    #[error("not a block model this dbce can use")]
    Blocks(#[source] dbce_classify::ModelError),
    /// The model cannot be written.
    #[error("cannot encode the {kind}")]
    Encode {
        /// What was written.
        kind: &'static str,
        /// What the encoder said.
        #[source]
        source: postcard::Error,
    },
}

/// Why a model could not be loaded: its file, or its contents.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file cannot be read.
    #[error("cannot read the model {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a model this build can use.
    #[error("model {path}")]
    Model {
        /// The file, or the name of a built-in model.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: ModelFileError,
    },
}

/// A run model as stored: the names of the values it reads, then the forest.
#[derive(Serialize, Deserialize)]
struct StoredModel {
    schema: FeatureSchema,
    forest: RandomForest,
}

const KIND: &str = "run model";

/// Reads the model at `path`, or the built-in one.
///
/// # Errors
/// When the file cannot be read, is not a model, or was trained on other features.
pub fn load(path: Option<&Path>) -> Result<RandomForest, LoadError> {
    read_model(path, BUILT_IN, "(built-in run model)", decode)
}

/// Reads the block model of the `blocks` single-page classifier at `path`
/// (`annotate.block-model`, a file written by `dbce train-single-page --out`).
///
/// # Errors
/// When the file cannot be read, is not a block model, or was trained on another layout of
/// the block rows.
pub fn load_block_model(path: &Path) -> Result<BlockModel, LoadError> {
    read_model(
        Some(path),
        BlockModel::BUILT_IN_BYTES,
        "(built-in block model)",
        |bytes| BlockModel::decode(bytes).map_err(ModelFileError::Blocks),
    )
}

/// Decodes the model file at `path` with `decode`, or the built-in `bytes` named `built_in`.
pub fn read_model<T>(
    path: Option<&Path>,
    built_in: &[u8],
    built_in_name: &str,
    decode: impl Fn(&[u8]) -> Result<T, ModelFileError>,
) -> Result<T, LoadError> {
    let Some(path) = path else {
        return decode(built_in).map_err(|source| LoadError::Model {
            path: built_in_name.into(),
            source,
        });
    };
    let bytes = std::fs::read(path).map_err(|source| LoadError::Read {
        path: path.to_owned(),
        source,
    })?;
    decode(&bytes).map_err(|source| LoadError::Model {
        path: path.to_owned(),
        source,
    })
}

/// The model in `bytes`.
///
/// # Errors
/// [`ModelFileError::NotAModel`] for other bytes, [`ModelFileError::Schema`] for a model of
/// other features (even the same number in another order), [`ModelFileError::Shape`] for a
/// forest of another width than its schema.
pub fn decode(bytes: &[u8]) -> Result<RandomForest, ModelFileError> {
    let model: StoredModel = postcard::from_bytes(bytes)
        .map_err(|source| ModelFileError::NotAModel { kind: KIND, source })?;
    model
        .schema
        .check(&model_feature_names())
        .map_err(|source| ModelFileError::Schema { kind: KIND, source })?;
    if model.forest.n_features() != WIDTH {
        return Err(ModelFileError::Shape {
            kind: KIND,
            reason: format!(
                "its forest reads {} values, its schema names {WIDTH}",
                model.forest.n_features()
            ),
        });
    }
    Ok(model.forest)
}

/// The bytes of `model`, as [`decode`] reads them.
///
/// # Errors
/// [`ModelFileError::Encode`] when it cannot be serialised.
pub fn encode(model: &RandomForest) -> Result<Vec<u8>, ModelFileError> {
    let stored = StoredModel {
        schema: FeatureSchema::new(&model_feature_names()),
        forest: model.clone(),
    };
    postcard::to_allocvec(&stored).map_err(|source| ModelFileError::Encode { kind: KIND, source })
}

#[cfg(test)]
mod tests {
    use dbce_forest::ForestParams;

    use super::*;

    #[test]
    fn the_built_in_model_reads_the_rows_this_build_makes() {
        let model = load(None).unwrap();
        assert_eq!(model.n_features(), WIDTH);
        assert_eq!(model_feature_names().len(), WIDTH);
        assert!(model.n_trees() > 0);
        assert_eq!(decode(&encode(&model).unwrap()).unwrap(), model);
    }

    #[test]
    fn foreign_bytes_are_refused() {
        assert!(matches!(
            decode(b"not a model"),
            Err(ModelFileError::NotAModel { .. })
        ));
    }

    #[test]
    fn a_model_of_reordered_features_is_refused() {
        let rows: Vec<f32> = (0..4 * WIDTH).map(|v| (v % 7) as f32).collect();
        let params = ForestParams {
            trees: 1,
            ..ForestParams::default()
        };
        let forest = RandomForest::fit(&rows, WIDTH, &[true, false, true, false], &params).unwrap();
        let mut names = model_feature_names();
        names.swap(0, 1);
        let stored = StoredModel {
            schema: FeatureSchema::new(&names),
            forest,
        };
        let error = decode(&postcard::to_allocvec(&stored).unwrap()).unwrap_err();
        assert!(matches!(error, ModelFileError::Schema { .. }), "{error}");
    }
}

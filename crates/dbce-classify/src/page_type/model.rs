//! The page-type model: one random forest per learned type, one against the rest, stored with
//! the names of the features it was trained on.

use std::sync::OnceLock;

use dbce_dom::Document;
use dbce_forest::{ForestParams, RandomForest};
use serde::{Deserialize, Serialize};

use super::error_page::error_page;
use super::features::{PAGE_TYPE_FEATURE_NAMES, page_type_features};
use super::{PageType, PageTypeGuess};

/// The model built into dbce: trained by `scripts/train-page-type` on WCXB's development
/// split and the older sets' articles.
const BUILT_IN: &[u8] = include_bytes!("../../models/page_type.bin");

/// Why a page-type model could not be trained or read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PageTypeModelError {
    /// The bytes are not a page-type model.
    #[error("not a dbce page-type model: {reason}")]
    Decode {
        /// What the decoder said.
        reason: String,
    },
    /// The model was trained on other features than this build computes.
    #[error(
        "the page-type model was trained on {found} features ({first_difference}); this dbce computes {expected}"
    )]
    Layout {
        /// How many features this build computes.
        expected: usize,
        /// How many the model was trained on.
        found: usize,
        /// The first feature name that differs, as `model's name != this build's name`.
        first_difference: String,
    },
    /// The model cannot be serialised.
    #[error("cannot encode the page-type model: {reason}")]
    Encode {
        /// What the encoder said.
        reason: String,
    },
    /// A forest refused its training data.
    #[error("cannot train the {page_type} forest: {reason}")]
    Training {
        /// The type whose forest failed.
        page_type: PageType,
        /// The forest's error.
        reason: String,
    },
}

/// A trained page-type classifier: a forest per type of [`PageType::LEARNED`], each telling
/// its type from all the others, over rows of [`PAGE_TYPE_FEATURE_NAMES`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageTypeModel {
    /// The features the rows had, by name, in order.
    feature_names: Vec<String>,
    /// One forest per type of [`PageType::LEARNED`], in that order.
    forests: Vec<RandomForest>,
}

impl PageTypeModel {
    /// The bytes of the model built into this crate.
    pub const BUILT_IN_BYTES: &'static [u8] = BUILT_IN;

    /// Trains a forest per learned type on row-major `rows` of
    /// [`PAGE_TYPE_FEATURE_NAMES`]`.len()` values with their `labels` (rows labelled
    /// [`PageType::Error`] count as negatives for every type). Every forest uses `params`
    /// with its seed offset by the type's index.
    ///
    /// # Errors
    /// [`PageTypeModelError::Training`] when a forest refuses the rows (wrong shape, values
    /// that are not finite, bad parameters).
    pub fn fit(
        rows: &[f32],
        labels: &[PageType],
        params: &ForestParams,
    ) -> Result<Self, PageTypeModelError> {
        let forests = PageType::LEARNED
            .iter()
            .enumerate()
            .map(|(i, &page_type)| {
                let is_type: Vec<bool> = labels.iter().map(|&l| l == page_type).collect();
                let params = ForestParams {
                    seed: params.seed.wrapping_add(i as u64),
                    ..*params
                };
                RandomForest::fit(rows, PAGE_TYPE_FEATURE_NAMES.len(), &is_type, &params).map_err(
                    |e| PageTypeModelError::Training {
                        page_type,
                        reason: e.to_string(),
                    },
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            feature_names: PAGE_TYPE_FEATURE_NAMES.map(str::to_owned).to_vec(),
            forests,
        })
    }

    /// The model built into dbce, decoded once.
    ///
    /// # Panics
    /// Never with a consistent build: a test checks that the built-in model decodes.
    #[expect(
        clippy::expect_used,
        reason = "the built-in bytes are checked by a test"
    )]
    pub fn built_in() -> &'static PageTypeModel {
        static MODEL: OnceLock<PageTypeModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            PageTypeModel::decode(BUILT_IN).expect("the built-in page-type model decodes")
        })
    }

    /// The type of the page `doc`, parsed from `html` and captured at `url`: an
    /// [`error_page`] rule's verdict if one fires, else the model's most probable type.
    ///
    /// Pure and deterministic: the same page gives the same guess.
    pub fn classify(&self, doc: &Document, url: &str, html: &str) -> PageTypeGuess {
        if let Some(rule) = error_page(doc, url) {
            return PageTypeGuess {
                page_type: PageType::Error,
                confidence: rule.confidence(),
            };
        }
        self.predict(&page_type_features(doc, url, html))
    }

    /// The probability of each type of [`PageType::LEARNED`] for a row: each forest's vote
    /// share, normalised to sum to 1 (uniform when every forest says no).
    ///
    /// # Panics
    /// If `row` does not have [`PAGE_TYPE_FEATURE_NAMES`]`.len()` values.
    pub fn probabilities(&self, row: &[f32]) -> [f32; PageType::LEARNED.len()] {
        let mut p = [0.0f32; PageType::LEARNED.len()];
        for (p, forest) in p.iter_mut().zip(&self.forests) {
            *p = forest.predict_proba(row);
        }
        let sum: f32 = p.iter().sum();
        if sum > 0.0 {
            p.iter_mut().for_each(|v| *v /= sum);
        } else {
            p = [1.0 / PageType::LEARNED.len() as f32; PageType::LEARNED.len()];
        }
        p
    }

    /// The most probable type of a row and its probability; ties go to the earlier type.
    ///
    /// # Panics
    /// If `row` does not have [`PAGE_TYPE_FEATURE_NAMES`]`.len()` values.
    pub fn predict(&self, row: &[f32]) -> PageTypeGuess {
        most_probable(&self.probabilities(row))
    }

    /// The model in `bytes`, as [`PageTypeModel::encode`] wrote it.
    ///
    /// # Errors
    /// [`PageTypeModelError::Decode`] for bytes that are not a model,
    /// [`PageTypeModelError::Layout`] for a model of other features.
    pub fn decode(bytes: &[u8]) -> Result<Self, PageTypeModelError> {
        let model: PageTypeModel =
            postcard::from_bytes(bytes).map_err(|e| PageTypeModelError::Decode {
                reason: e.to_string(),
            })?;
        let names = &model.feature_names;
        if names.iter().map(String::as_str).ne(PAGE_TYPE_FEATURE_NAMES) {
            let first_difference = names
                .iter()
                .map(String::as_str)
                .chain(std::iter::repeat("(none)"))
                .zip(
                    PAGE_TYPE_FEATURE_NAMES
                        .iter()
                        .copied()
                        .chain(std::iter::repeat("(none)")),
                )
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("{a} != {b}"))
                .unwrap_or_default();
            return Err(PageTypeModelError::Layout {
                expected: PAGE_TYPE_FEATURE_NAMES.len(),
                found: names.len(),
                first_difference,
            });
        }
        let consistent = model.forests.len() == PageType::LEARNED.len()
            && model
                .forests
                .iter()
                .all(|f| f.n_features() == PAGE_TYPE_FEATURE_NAMES.len());
        if !consistent {
            return Err(PageTypeModelError::Decode {
                reason: format!(
                    "{} forests, expected one per learned type ({})",
                    model.forests.len(),
                    PageType::LEARNED.len()
                ),
            });
        }
        Ok(model)
    }

    /// The model as bytes (postcard).
    ///
    /// # Errors
    /// [`PageTypeModelError::Encode`] when it cannot be serialised.
    pub fn encode(&self) -> Result<Vec<u8>, PageTypeModelError> {
        postcard::to_allocvec(self).map_err(|e| PageTypeModelError::Encode {
            reason: e.to_string(),
        })
    }

    /// Each feature's importance, averaged over the forests, by name.
    pub fn feature_importances(&self) -> Vec<(&'static str, f32)> {
        let mut sum = vec![0.0f32; PAGE_TYPE_FEATURE_NAMES.len()];
        for forest in &self.forests {
            for (s, v) in sum.iter_mut().zip(forest.feature_importances()) {
                *s += v / self.forests.len() as f32;
            }
        }
        PAGE_TYPE_FEATURE_NAMES.into_iter().zip(sum).collect()
    }
}

/// The type of [`PageType::LEARNED`] with the highest probability; ties go to the earlier one.
pub(super) fn most_probable(p: &[f32; PageType::LEARNED.len()]) -> PageTypeGuess {
    let mut best = 0;
    for (i, &v) in p.iter().enumerate() {
        if v > p[best] {
            best = i;
        }
    }
    PageTypeGuess {
        page_type: PageType::LEARNED[best],
        confidence: p[best],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_model_reads_this_builds_features() {
        let model = PageTypeModel::built_in();
        assert_eq!(model.forests.len(), PageType::LEARNED.len());
        assert_eq!(
            &PageTypeModel::decode(&model.encode().unwrap()).unwrap(),
            model
        );
    }

    #[test]
    fn a_model_of_other_features_is_refused() {
        let mut model = PageTypeModel::built_in().clone();
        model.feature_names[3] = "renamed".into();
        let err = PageTypeModel::decode(&model.encode().unwrap()).unwrap_err();
        assert!(matches!(err, PageTypeModelError::Layout { .. }), "{err}");
        assert!(PageTypeModel::decode(b"not a model").is_err());
    }

    #[test]
    fn ties_go_to_the_earlier_type() {
        let guess = most_probable(&[0.1, 0.3, 0.3, 0.1, 0.1, 0.05, 0.05]);
        assert_eq!(guess.page_type, PageType::Forum);
        assert!((guess.confidence - 0.3).abs() < 1e-6);
    }
}

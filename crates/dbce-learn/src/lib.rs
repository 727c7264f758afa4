//! What dbce learns per page, apart from the stages that run it: the shallow features and
//! neighbourhood windows of a cross page's runs (thesis Table 2.1, §4.2), the thesis's
//! reclassifiers of `invalid` runs (T003–T006) and the joint per-site forest, the run model
//! trained on ground truth (`model`), the page-level judge of `evidence`, the single-page
//! route's verdicts on runs, and the training of the learned models on datasets with ground
//! truth (`train`).
//!
//! The principal items are:
//! - [`ClassifyMethod`], how a cross page's runs are classified (`annotate.method`);
//! - [`features::RunFeatures`] and [`features::model_row`], what the learned classifiers read
//!   of each run; [`windows::window_rows`], the thesis's neighbourhood windows;
//! - [`reclassify::reclassify`], the thesis's reclassifiers and the run model applied to a
//!   site's pages;
//! - [`model`], the run model as stored ([`dbce_forest::FeatureSchema`] checked on load), and
//!   [`judge::Judge`], the page-level judge with its training ([`judge::fit_judge`]) and
//!   leave-one-group-out validation ([`judge::validate_judge`]);
//! - [`single::BlockVerdicts`], the single-page classifier's verdicts mapped onto runs, and
//!   [`settle::settle`], the first route with text deciding a page's runs;
//! - [`train`], what `dbce train-single-page`, `dbce train-page-type` and `dbce train` call:
//!   [`train::label::label_runs`], [`train::single_page::TrainingSet`] (the block model with
//!   its grouped, leave-dataset-out and nested validation),
//!   [`train::page_type::train_page_types`], with [`train::TrainError`].
//!
//! The stages themselves (reading, grouping, writing) are `dbce-pipeline`'s; cross planning and
//! the per-page composition of diff, classifiers and judge are `dbce-extract`'s.
#![deny(missing_docs)]

pub mod features;
pub mod judge;
mod method;
pub mod model;
pub mod reclassify;
pub mod settle;
pub mod single;
pub mod train;
pub mod windows;

pub use method::ClassifyMethod;

/// A short digest of every model built into this dbce (the run model, the judge, the block and
/// page-type models): part of the configuration fingerprint, so that a rebuilt dbce with
/// retrained models does not mix its annotations with older ones. Computed once per process:
/// every stage and partition asks for the fingerprint, and hashing the models each time was
/// 0.8 % of a run's CPU.
pub fn built_in_models_digest() -> [u8; 20] {
    use sha1::{Digest as _, Sha1};
    static DIGEST: std::sync::OnceLock<[u8; 20]> = std::sync::OnceLock::new();
    *DIGEST.get_or_init(|| {
        let mut hasher = Sha1::new();
        for bytes in [
            model::BUILT_IN,
            judge::BUILT_IN,
            dbce_classify::BlockModel::BUILT_IN_BYTES,
            dbce_classify::PageTypeModel::BUILT_IN_BYTES,
        ] {
            hasher.update(u64::try_from(bytes.len()).unwrap_or(u64::MAX).to_le_bytes());
            hasher.update(bytes);
        }
        hasher.finalize().into()
    })
}

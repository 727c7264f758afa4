//! Training and held-out validation on dataset folders with ground truth: the labels
//! ([`label`]), the learned block model of the single-page route with its grouped,
//! leave-dataset-out and nested validation ([`single_page`]), and the page-type model
//! ([`page_type`]). The run model and the judge are trained on what a pipeline run annotates
//! (`dbce train` runs it; [`label::label_runs`] labels the runs, [`runs`] fits the run model,
//! [`crate::judge::fit_judge`] the judge).
//!
//! Everything here is deterministic: the same datasets and options give the same model bytes
//! and the same reports, whatever the number of threads.

use std::path::PathBuf;

use dbce_classify::page_type::{PageTypeModelError, ParsePageTypeError};
use dbce_dom::DomError;
use dbce_eval::EvalError;

pub mod label;
pub mod page_type;
pub mod runs;
pub mod single_page;

/// Why a model could not be trained or validated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrainError {
    /// A dataset folder could not be read.
    #[error("cannot read dataset {}: {source}", path.display())]
    Dataset {
        /// The folder.
        path: PathBuf,
        /// Why (boxed: the dataset reader's error is large).
        source: Box<EvalError>,
    },
    /// A page's HTML could not be read.
    #[error("{dataset}/{id}: {source}")]
    Read {
        /// The dataset's name.
        dataset: String,
        /// The page's id.
        id: String,
        /// Why (boxed: the dataset reader's error is large).
        source: Box<EvalError>,
    },
    /// A page's HTML could not be parsed.
    #[error("{dataset}/{id}: {source}")]
    Parse {
        /// The dataset's name.
        dataset: String,
        /// The page's id.
        id: String,
        /// Why.
        source: DomError,
    },
    /// A page of a dataset given as labelled has no `page_type` in its `meta.jsonl`.
    #[error("{dataset}/{id}: no page_type in meta.jsonl")]
    MissingPageType {
        /// The dataset's name.
        dataset: String,
        /// The page's id.
        id: String,
    },
    /// A page's `page_type` is not a page type.
    #[error("{page}: {source}")]
    PageType {
        /// The page: `dataset/id`, or its id.
        page: String,
        /// Why.
        source: ParsePageTypeError,
    },
    /// A block model could not be trained.
    #[error(transparent)]
    BlockModel(#[from] dbce_classify::ModelError),
    /// A page-type model could not be trained.
    #[error(transparent)]
    PageTypeModel(#[from] PageTypeModelError),
}

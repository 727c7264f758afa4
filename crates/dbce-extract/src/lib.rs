//! A page's text by Diff-Based Content Extraction: its cross planned, its runs diffed,
//! classified, judged and settled; or the page classified alone.
//!
//! The composition of the libraries below it, apart from the stage that reads and writes the
//! files: [`Batches`] bounds the pages planned together (a partition's sites in batches, a
//! site too large for one split into parts of whole URLs); [`plan_crosses`] chooses every page's cross among the pages of its LSH buckets and the
//! other captures of its URL, and [`page_types`] lets a page's partners outvote an uncertain
//! page type. A [`PageAnnotator`] then makes each page's [`Draft`] from its DOM and its cross
//! members' words (`dbce-annotate`'s diff and bit patterns, `dbce-learn`'s features and
//! judge), and after the per-site learning ([`Draft::learner`]) settles it into an
//! [`AnnotatedPage`], the record stage `annotate` writes. [`extract_page`] runs the route of a
//! page without partners on one page's HTML, so `dbce extract` and `dbce run` give such a page
//! the same text.
//!
//! ```
//! use dbce_config::Config;
//!
//! let html = "<html><head><title>T</title></head><body><nav><a href=/>Home</a></nav>\
//!             <article><h1>A headline</h1><p>A paragraph of the article with enough words \
//!             to be content, as articles have.</p></article></body></html>";
//! let page = dbce_extract::extract_page(html, "https://example.com/a", &Config::default())?;
//! assert!(page.text.contains("A paragraph of the article"));
//! # Ok::<(), dbce_extract::ExtractError>(())
//! ```
#![deny(missing_docs)]

mod alone;
mod batches;
mod by_batch;
mod draft;
mod plan;
mod record;
#[cfg(test)]
mod test_pages;
mod whole_site;

pub use alone::{ExtractError, ExtractedPage, decode_page, extract_page};
pub use batches::{BatchBuckets, Batches};
pub use by_batch::{Batch, BatchCursor, BucketsByBatch, PageBatches, PagesByBatch, SortLimits};
pub use draft::{Draft, PageAnnotator};
pub use plan::{PlannedCross, page_types, plan_crosses};
pub use record::{AnnotatedPage, CrossMembers, EmptyReason, Method, RunLabel, TrainingRuns};
pub use whole_site::{PartnerLoss, SAMPLED_PER_PARTITION, WholeSitePartners};

//! Generated web archives with known ground truth: several sites, templates and captures per
//! URL, written as WARC/1.1 with a JSONL file saying what each page's main content is.
//!
//! [`generate`] writes the archive a [`Config`] describes and returns a [`Summary`]; each
//! line of the truth file is a [`TruthRecord`]. The same configuration always gives the same
//! bytes, whatever the number of threads. `docs/synth.md` describes the model: sites and their
//! templates, articles and index pages, how captures of a URL differ, and what counts as
//! content.
//!
//! ```
//! use dbce_synth::{Config, TruthRecord, generate};
//!
//! let config = Config { sites: 2, pages: 8, captures_max: 2, ..Config::default() };
//! let (mut archive, mut truth) = (Vec::new(), Vec::new());
//! let summary = generate(&config, &mut archive, &mut truth)?;
//! assert_eq!(summary.records, 1 + 2 * summary.responses);
//! let first: TruthRecord = serde_json::from_slice(truth.split(|&b| b == b'\n').next().unwrap())?;
//! assert!(first.url.starts_with("http"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod archive;
mod article;
mod assets;
mod clock;
mod config;
mod error;
mod forum;
mod html;
mod http;
mod lang;
mod listing;
mod naming;
mod page;
mod plan;
mod profile;
mod render;
mod seed;
mod site;
mod template;
mod text;
mod truth;

#[cfg(test)]
mod testutil;

pub use archive::{Summary, generate};
pub use config::Config;
pub use error::Error;
pub use truth::{PageKind, TruthRecord};

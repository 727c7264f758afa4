//! Template tokens → MinHash signature → LSH band keys; pure, seeded, no I/O.
//!
//! This is the grouping step of Diff-Based Content Extraction (thesis §2.2): pages built from
//! the same template have similar sets of template tokens, MinHash estimates that similarity,
//! and locality-sensitive hashing finds the similar pages without comparing all pairs.
//!
//! The principal types are:
//! - [`MinhashConfig`] (number of permutations, seed, [`Scheme`]) and [`MinHasher`], built once
//!   from it, which turns a token list into a [`Signature`];
//! - [`LshParams`], the bands and rows of LSH, with [`LshParams::optimal`] choosing them for a
//!   Jaccard threshold, and [`LshParams::band_keys`] giving a signature's [`BandKey`]s;
//! - [`LshIndex`], an in-memory index returning [`Candidate`]s and sorted buckets.
//!
//! Everything is bit-compatible with the Python `datasketch` library the thesis used: the
//! same seed gives the same permutations (numpy's `RandomState`, ported), tokens hash with
//! [`sha1_hash32`], signatures, Jaccard estimates, `(bands, rows)` and candidate sets equal
//! datasketch's. `testdata/minhash/datasketch-vectors.json`, written by
//! `scripts/minhash-vectors.py` with the real datasketch, holds the evidence that
//! `tests/datasketch_parity.rs` checks.
//!
//! ```
//! use dbce_minhash::{LshIndex, LshParams, MinHasher, MinhashConfig};
//!
//! let config = MinhashConfig::default(); // 128 permutations, seed 1, legacy scheme
//! let hasher = MinHasher::new(config)?;
//! let params = LshParams::optimal(0.6, config.num_perm)?;
//! assert_eq!((params.bands, params.rows), (18, 7));
//!
//! let page = |extra: &str| {
//!     let tokens = (0..50).map(|i| format!("body>div.main>p:{i}"));
//!     hasher.signature(tokens.chain([extra.to_owned()]))
//! };
//! let mut index = LshIndex::new(config, params)?;
//! index.insert(1_u64, page("a"))?;
//! index.insert(2, page("b"))?;
//! index.insert(3, hasher.signature(["footer", "nav"]))?;
//!
//! let candidates = index.candidates(1)?;
//! assert_eq!(candidates.len(), 1);
//! assert_eq!(candidates[0].id, 2);
//! assert!(candidates[0].jaccard > 0.8);
//!
//! // Buckets shared by several pages, sorted by key, for the annotate stage.
//! let shared: Vec<_> = index.buckets().filter(|(_, ids)| ids.len() > 1).collect();
//! assert!(!shared.is_empty() && shared.iter().all(|(_, ids)| *ids == [1, 2]));
//! # Ok::<(), dbce_minhash::Error>(())
//! ```
#![deny(missing_docs)]

mod config;
mod error;
mod hasher;
mod lsh;
mod permutation;
mod random_state;
mod signature;

pub use config::{MinhashConfig, Scheme};
pub use error::Error;
pub use hasher::{MinHasher, sha1_hash32};
pub use lsh::{BandKey, Candidate, LshIndex, LshParams};
pub use signature::{Signature, jaccard_of_values};

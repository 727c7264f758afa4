//! The crate's one error type.

use crate::MinhashConfig;

/// What went wrong in this crate. Every error is about arguments or configuration: computing
/// a signature of any token list cannot fail.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// [`MinhashConfig::num_perm`] is 0 or above [`MinhashConfig::MAX_NUM_PERM`].
    #[error("num_perm must be in 1..={max}, got {num_perm}")]
    NumPerm {
        /// The rejected value.
        num_perm: u32,
        /// The largest accepted value.
        max: u32,
    },
    /// An LSH threshold outside `[0, 1]` (or NaN).
    #[error("LSH threshold must be in [0, 1], got {threshold}")]
    Threshold {
        /// The rejected value.
        threshold: f64,
    },
    /// LSH parameters that datasketch rejects: fewer than 2 bands, no rows, or more values
    /// banded than a signature has.
    #[error(
        "LSH needs bands >= 2, rows >= 1 and bands * rows <= num_perm; \
         got {bands} bands of {rows} rows for num_perm {num_perm}"
    )]
    LshParams {
        /// Number of bands.
        bands: u32,
        /// Rows (signature values) per band.
        rows: u32,
        /// Number of permutations of the signatures.
        num_perm: u32,
    },
    /// A signature made with another configuration than expected (different scheme, seed or
    /// number of permutations); comparing or indexing it would give meaningless results.
    #[error("signature made with {found:?} where {expected:?} was expected")]
    Incompatible {
        /// The configuration required here.
        expected: MinhashConfig,
        /// The configuration of the signature given.
        found: MinhashConfig,
    },
    /// Signature values whose count differs from the configuration's `num_perm`.
    #[error("a signature of num_perm {expected} needs {expected} values, got {found}")]
    SignatureLength {
        /// `num_perm` of the configuration.
        expected: u32,
        /// Number of values given.
        found: u64,
    },
    /// [`LshIndex::insert`](crate::LshIndex::insert) with an id the index already holds.
    #[error("id is already in the LSH index")]
    DuplicateId,
    /// [`LshIndex::candidates`](crate::LshIndex::candidates) with an id the index does not hold.
    #[error("id is not in the LSH index")]
    UnknownId,
}

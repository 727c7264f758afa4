//! `MinHash`: datasketch's `MinHash` (schemes `affine32` and `legacy`), value for value.

use std::sync::Arc;

use dbce_minhash::{MinHasher, MinhashConfig, Scheme, jaccard_of_values};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// A MinHash sketch equal to `datasketch.MinHash(num_perm, seed, scheme=scheme)` fed the same
/// tokens: the same `digest()`, `jaccard()` and equality.
#[pyclass(module = "dbce")]
#[derive(Clone)]
pub(crate) struct MinHash {
    hasher: Arc<MinHasher>,
    values: Vec<u32>,
}

impl MinHash {
    fn config(&self) -> MinhashConfig {
        self.hasher.config()
    }

    fn check_compatible(&self, other: &Self, what: &str) -> PyResult<()> {
        let (a, b) = (self.config(), other.config());
        if a.scheme != b.scheme {
            return Err(PyValueError::new_err(format!(
                "Cannot {what} MinHash with different permutation schemes"
            )));
        }
        if a.seed != b.seed {
            return Err(PyValueError::new_err(format!(
                "Cannot {what} MinHash with different seeds"
            )));
        }
        if a.num_perm != b.num_perm {
            return Err(PyValueError::new_err(format!(
                "Cannot {what} MinHash with different numbers of permutation functions"
            )));
        }
        Ok(())
    }
}

/// A token as bytes: `bytes` as given, `str` encoded as UTF-8.
fn token_bytes(token: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = token.downcast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    if let Ok(text) = token.downcast::<PyString>() {
        return Ok(text.to_cow()?.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err("a token must be bytes or str"))
}

#[pymethods]
impl MinHash {
    /// An empty sketch of `num_perm` permutations drawn from `seed` (numpy's `RandomState`)
    /// under `scheme`: `"affine32"` (datasketch 2's default) or `"legacy"` (datasketch before
    /// 2.0, the values of the thesis).
    #[new]
    #[pyo3(signature = (num_perm = 128, seed = 1, scheme = "affine32"))]
    fn new(num_perm: u32, seed: u32, scheme: &str) -> PyResult<Self> {
        let scheme = match scheme {
            "affine32" => Scheme::Affine32,
            "legacy" => Scheme::Legacy,
            other => {
                return Err(PyValueError::new_err(format!(
                    "scheme must be \"affine32\" or \"legacy\", got {other:?}"
                )));
            }
        };
        let config = MinhashConfig {
            num_perm,
            seed,
            scheme,
        };
        let hasher = MinHasher::new(config).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Self {
            values: vec![u32::MAX; num_perm as usize],
            hasher: Arc::new(hasher),
        })
    }

    /// Adds one token (`bytes`, or `str` as UTF-8), hashed by datasketch's `sha1_hash32`.
    fn update(&mut self, token: &Bound<'_, PyAny>) -> PyResult<()> {
        let token = token_bytes(token)?;
        self.hasher.update(&mut self.values, [token]);
        Ok(())
    }

    /// Adds every token of an iterable, with the GIL released while hashing.
    fn update_batch(&mut self, py: Python<'_>, tokens: &Bound<'_, PyAny>) -> PyResult<()> {
        let tokens: Vec<Vec<u8>> = tokens
            .try_iter()?
            .map(|token| token_bytes(&token?))
            .collect::<PyResult<_>>()?;
        let (hasher, values) = (&self.hasher, &mut self.values);
        py.allow_threads(|| hasher.update(values, &tokens));
        Ok(())
    }

    /// The hash values, as `datasketch.MinHash.digest()` (a list instead of a numpy array).
    fn digest(&self) -> Vec<u32> {
        self.values.clone()
    }

    /// The hash values (datasketch's `hashvalues`).
    #[getter]
    fn hashvalues(&self) -> Vec<u32> {
        self.values.clone()
    }

    /// The seed.
    #[getter]
    fn seed(&self) -> u32 {
        self.config().seed
    }

    /// The permutation scheme, `"affine32"` or `"legacy"`.
    #[getter]
    fn scheme(&self) -> &'static str {
        match self.config().scheme {
            Scheme::Affine32 => "affine32",
            Scheme::Legacy => "legacy",
        }
    }

    /// The estimated Jaccard similarity of the two token sets: the share of equal values.
    /// Raises `ValueError` for sketches of other schemes, seeds or sizes.
    fn jaccard(&self, other: &Self) -> PyResult<f64> {
        self.check_compatible(other, "compute Jaccard given")?;
        Ok(jaccard_of_values(&self.values, &other.values))
    }

    /// Makes this sketch the union of both.
    fn merge(&mut self, other: &Self) -> PyResult<()> {
        self.check_compatible(other, "merge")?;
        for (mine, theirs) in self.values.iter_mut().zip(&other.values) {
            *mine = (*mine).min(*theirs);
        }
        Ok(())
    }

    /// Whether no token was added.
    fn is_empty(&self) -> bool {
        self.values.iter().all(|&v| v == u32::MAX)
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __len__(&self) -> usize {
        self.values.len()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, Self>>()
            .is_ok_and(|other| self.config() == other.config() && self.values == other.values)
    }

    fn __repr__(&self) -> String {
        let config = self.config();
        format!(
            "MinHash(num_perm={}, seed={}, scheme={:?})",
            config.num_perm,
            config.seed,
            self.scheme()
        )
    }
}

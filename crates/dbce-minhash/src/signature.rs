//! [`Signature`]: the MinHash values of one token set.

use crate::{Error, MinhashConfig};

/// The MinHash signature of a set of tokens: one minimum per permutation, together with the
/// configuration that made it, so that signatures of different configurations are never
/// compared.
///
/// Legacy values are below 2³² by construction (datasketch stores them as `uint64`); both
/// schemes are therefore stored as `u32`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Signature {
    config: MinhashConfig,
    values: Box<[u32]>,
}

impl Signature {
    /// A signature from values computed elsewhere, e.g. read back from disk or taken from
    /// datasketch's `MinHash.hashvalues`.
    ///
    /// # Errors
    /// [`Error::NumPerm`] if the configuration is invalid, [`Error::SignatureLength`] if
    /// there are not exactly `config.num_perm` values.
    pub fn from_values(config: MinhashConfig, values: Vec<u32>) -> Result<Self, Error> {
        config.validate()?;
        if values.len() != config.len() {
            return Err(Error::SignatureLength {
                expected: config.num_perm,
                found: values.len() as u64,
            });
        }
        Ok(Self::new_unchecked(config, values.into()))
    }

    /// A signature whose length the caller guarantees to be `config.num_perm`.
    pub(crate) fn new_unchecked(config: MinhashConfig, values: Box<[u32]>) -> Self {
        debug_assert_eq!(values.len(), config.len());
        Self { config, values }
    }

    /// The configuration the signature was made with.
    pub fn config(&self) -> MinhashConfig {
        self.config
    }

    /// The values, one per permutation (datasketch's `hashvalues`).
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// Estimated Jaccard similarity of the two token sets: the fraction of permutations whose
    /// minima agree, exactly datasketch's `MinHash.jaccard`
    /// (`count_nonzero(a == b) / num_perm`).
    ///
    /// # Errors
    /// [`Error::Incompatible`] if `other` was made with another configuration.
    pub fn jaccard(&self, other: &Signature) -> Result<f64, Error> {
        other.expect_config(self.config)?;
        Ok(self.estimate(self.agreements(other)))
    }

    /// [`Error::Incompatible`] unless this signature was made with `expected`.
    pub(crate) fn expect_config(&self, expected: MinhashConfig) -> Result<(), Error> {
        if self.config == expected {
            Ok(())
        } else {
            Err(Error::Incompatible {
                expected,
                found: self.config,
            })
        }
    }

    /// Number of permutations whose minima agree; the numerator of [`jaccard`](Self::jaccard).
    pub(crate) fn agreements(&self, other: &Signature) -> u32 {
        // At most `num_perm`, which is a `u32`.
        count_equal(&self.values, &other.values) as u32
    }

    /// The Jaccard estimate for a number of [`agreements`](Self::agreements).
    pub(crate) fn estimate(&self, agreements: u32) -> f64 {
        f64::from(agreements) / f64::from(self.config.num_perm)
    }
}

/// [`Signature::jaccard`] over bare signature values, as intermediate files store them: the
/// fraction of positions whose minima agree. 0 when the lengths differ or are 0 (signatures of
/// different configurations are not comparable).
pub fn jaccard_of_values(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() || a.len() != b.len() {
        return 0.0;
    }
    count_equal(a, b) as f64 / a.len() as f64
}

fn count_equal(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MinHasher, Scheme};
    use proptest::collection::{btree_set, vec};
    use proptest::prelude::*;

    fn hasher(scheme: Scheme) -> MinHasher {
        MinHasher::new(MinhashConfig {
            num_perm: 128,
            seed: 7,
            scheme,
        })
        .unwrap()
    }

    fn scheme() -> impl Strategy<Value = Scheme> {
        prop_oneof![Just(Scheme::Legacy), Just(Scheme::Affine32)]
    }

    #[test]
    fn from_values_checks_length() {
        let config = MinhashConfig {
            num_perm: 4,
            ..MinhashConfig::default()
        };
        assert!(Signature::from_values(config, vec![1, 2, 3, 4]).is_ok());
        let err = Signature::from_values(config, vec![1, 2, 3]).unwrap_err();
        assert_eq!(
            err,
            Error::SignatureLength {
                expected: 4,
                found: 3
            }
        );
    }

    #[test]
    fn jaccard_rejects_other_configurations() {
        let legacy = hasher(Scheme::Legacy).signature(["a"]);
        let affine = hasher(Scheme::Affine32).signature(["a"]);
        assert!(matches!(
            legacy.jaccard(&affine),
            Err(Error::Incompatible { .. })
        ));
    }

    #[test]
    fn jaccard_tracks_true_similarity() {
        let hasher = hasher(Scheme::Legacy);
        let a: Vec<String> = (0..400).map(|i| format!("t{i}")).collect();
        let b: Vec<String> = (100..500).map(|i| format!("t{i}")).collect(); // J = 300/500
        let estimate = hasher.signature(&a).jaccard(&hasher.signature(&b)).unwrap();
        assert!((estimate - 0.6).abs() < 0.15, "estimate {estimate}");
    }

    proptest! {
        #[test]
        fn identical_sets_estimate_one(
            scheme in scheme(),
            tokens in vec(vec(any::<u8>(), 0..40), 0..50),
        ) {
            let hasher = hasher(scheme);
            let a = hasher.signature(&tokens);
            prop_assert_eq!(a.jaccard(&hasher.signature(&tokens)).unwrap(), 1.0);
        }

        #[test]
        fn token_order_and_repetition_do_not_matter(
            scheme in scheme(),
            tokens in vec(vec(any::<u8>(), 0..40), 1..50),
            rotation in any::<prop::sample::Index>(),
        ) {
            let hasher = hasher(scheme);
            let mut shuffled = tokens.clone();
            shuffled.rotate_left(rotation.index(tokens.len()));
            shuffled.reverse();
            shuffled.extend(tokens.iter().take(3).cloned());
            prop_assert_eq!(hasher.signature(&tokens), hasher.signature(&shuffled));
        }

        #[test]
        fn disjoint_sets_estimate_low(
            scheme in scheme(),
            words in btree_set(vec(any::<u8>(), 1..24), 60..120),
        ) {
            let hasher = hasher(scheme);
            let words: Vec<_> = words.into_iter().collect();
            let (left, right) = words.split_at(words.len() / 2);
            let estimate = hasher.signature(left).jaccard(&hasher.signature(right)).unwrap();
            // Truly 0; more than 13 of 128 agreeing minima is far in the tail.
            prop_assert!((0.0..=0.1).contains(&estimate), "estimate {}", estimate);
        }

        #[test]
        fn estimate_is_a_fraction_and_symmetric(
            scheme in scheme(),
            a in vec(vec(any::<u8>(), 0..8), 0..30),
            b in vec(vec(any::<u8>(), 0..8), 0..30),
        ) {
            let hasher = hasher(scheme);
            let (a, b) = (hasher.signature(&a), hasher.signature(&b));
            let estimate = a.jaccard(&b).unwrap();
            prop_assert!((0.0..=1.0).contains(&estimate));
            prop_assert_eq!(estimate, b.jaccard(&a).unwrap());
        }
    }
}

//! [`MinhashConfig`]: which permutations a [`MinHasher`](crate::MinHasher) draws.

use crate::Error;

/// The permutation scheme, named as in datasketch 2.x (`MinHash(scheme=...)`).
///
/// Signatures of different schemes must never be compared or indexed together: their values
/// carry no trace of the scheme, so mixing them silently gives wrong estimates. A
/// [`Signature`](crate::Signature) therefore records the configuration it was made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Scheme {
    /// `(a·h + b) mod (2⁶¹ − 1)`, truncated to 32 bits: the only scheme of datasketch before
    /// 2.0.0, and so the one the thesis prototype (datasketch 0.2.5) used.
    #[default]
    Legacy,
    /// `a·fmix32(h) + b mod 2³²` with odd `a`: datasketch 2.x's default, collision-free per
    /// permutation.
    Affine32,
}

/// How signatures are computed: the number of permutations, the seed they are drawn from and
/// the scheme that applies them (thesis §2.2).
///
/// Two signatures can be compared only if they were made with equal configurations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(default, rename_all = "kebab-case", deny_unknown_fields)
)]
pub struct MinhashConfig {
    /// Number of permutations, i.e. values in a signature. By default, 128 (as datasketch).
    /// Must be in `1..=`[`MinhashConfig::MAX_NUM_PERM`].
    pub num_perm: u32,
    /// Seed of the numpy `RandomState` the permutations are drawn from. By default, 1 (as
    /// datasketch). datasketch accepts exactly the seeds `0..2³²`, which is this type's range.
    pub seed: u32,
    /// Permutation scheme. By default, [`Scheme::Legacy`], the values the thesis used.
    pub scheme: Scheme,
}

impl MinhashConfig {
    /// Largest accepted [`num_perm`](Self::num_perm). datasketch allows up to 2³², but beyond
    /// a few hundred permutations estimates barely improve while memory and the search of
    /// [`LshParams::optimal`](crate::LshParams::optimal) (quadratic in `num_perm`) grow.
    pub const MAX_NUM_PERM: u32 = 4096;

    /// Checks that [`num_perm`](Self::num_perm) is in `1..=MAX_NUM_PERM`.
    ///
    /// # Errors
    /// [`Error::NumPerm`] otherwise.
    pub fn validate(&self) -> Result<(), Error> {
        if (1..=Self::MAX_NUM_PERM).contains(&self.num_perm) {
            Ok(())
        } else {
            Err(Error::NumPerm {
                num_perm: self.num_perm,
                max: Self::MAX_NUM_PERM,
            })
        }
    }

    /// [`num_perm`](Self::num_perm) as a length.
    pub(crate) fn len(&self) -> usize {
        // `u32` always fits `usize` on the 32- and 64-bit targets dbce supports.
        self.num_perm as usize
    }
}

impl Default for MinhashConfig {
    /// datasketch's defaults (128 permutations, seed 1) with the scheme the thesis used.
    fn default() -> Self {
        Self {
            num_perm: 128,
            seed: 1,
            scheme: Scheme::Legacy,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_datasketch_legacy() {
        let config = MinhashConfig::default();
        assert_eq!(
            (config.num_perm, config.seed, config.scheme),
            (128, 1, Scheme::Legacy)
        );
        assert_eq!(config.validate(), Ok(()));
    }

    #[test]
    fn validate_bounds_num_perm() {
        for (num_perm, ok) in [(0, false), (1, true), (4096, true), (4097, false)] {
            let config = MinhashConfig {
                num_perm,
                ..MinhashConfig::default()
            };
            assert_eq!(config.validate().is_ok(), ok, "num_perm {num_perm}");
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_round_trip() {
        let config = MinhashConfig {
            num_perm: 64,
            seed: 42,
            scheme: Scheme::Affine32,
        };
        let json = serde_json::to_string(&config).unwrap();
        assert_eq!(json, r#"{"num-perm":64,"seed":42,"scheme":"affine32"}"#);
        assert_eq!(
            serde_json::from_str::<MinhashConfig>(&json).unwrap(),
            config
        );
    }
}

//! [`LshParams`]: how a signature is cut into bands, and datasketch's choice for a threshold.

use super::quadrature::GaussLegendre;
use crate::{Error, MinhashConfig};

/// How signatures are banded for locality-sensitive hashing (thesis §2.2): band `i` is the
/// values `i·rows .. (i+1)·rows`, and pages whose values agree on a whole band land in the
/// same bucket. Values past `bands · rows` are unused, as in datasketch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct LshParams {
    /// Number of bands (datasketch's `b`). At least 2.
    pub bands: u32,
    /// Signature values per band (datasketch's `r`). At least 1.
    pub rows: u32,
}

/// Weight of the false-positive and of the false-negative probability in the error that
/// [`LshParams::optimal`] minimises: datasketch's default `weights=(0.5, 0.5)`.
const WEIGHT: f64 = 0.5;

/// How much smaller an error must be to replace the best so far. datasketch keeps the first
/// of exactly tied parameters (strict `<`); the integrals here and scipy's differ from the
/// exact values by rounding, far below this margin, so exact ties also keep the first.
const TIE_MARGIN: f64 = 1e-12;

impl LshParams {
    /// datasketch's `MinHashLSH(threshold, num_perm).b, .r`: the `(bands, rows)` with
    /// `bands · rows ≤ num_perm` minimising the equally weighted probabilities of false
    /// positives (`∫₀ᵗ 1 − (1 − sʳ)ᵇ ds`) and false negatives (`∫ₜ¹ (1 − sʳ)ᵇ ds`), searched
    /// in datasketch's order (bands, then rows, ascending). For 128 permutations, 0.6 gives
    /// (18, 7) and 0.3 gives (37, 3).
    ///
    /// datasketch integrates with scipy's adaptive `quad`; the integrands are polynomials of
    /// degree `b·r ≤ num_perm`, so a Gauss–Legendre rule of `num_perm / 2 + 1` points
    /// integrates them exactly up to rounding. The results equal datasketch's for every case
    /// in `testdata/minhash/datasketch-vectors.json` (thresholds 0.01 to 0.99 for 64, 128
    /// and 256 permutations, among others). Cost grows as `num_perm² · log num_perm`: under a
    /// millisecond for 128, 70 ms for 1024, under two seconds for [`MinhashConfig::MAX_NUM_PERM`].
    ///
    /// # Errors
    /// [`Error::Threshold`] outside `[0, 1]`; [`Error::NumPerm`] for `num_perm` 0 or above
    /// the maximum; [`Error::LshParams`] where datasketch also refuses: when the optimum has
    /// a single band (thresholds near 1, or `num_perm` < 2).
    pub fn optimal(threshold: f64, num_perm: u32) -> Result<Self, Error> {
        if !(0.0..=1.0).contains(&threshold) {
            return Err(Error::Threshold { threshold });
        }
        MinhashConfig {
            num_perm,
            ..MinhashConfig::default()
        }
        .validate()?;
        let rule = GaussLegendre::new(num_perm / 2 + 1);
        let mut best = (f64::INFINITY, Self { bands: 0, rows: 0 });
        for bands in 1..=num_perm {
            for rows in 1..=num_perm / bands {
                let params = Self { bands, rows };
                let error = params.weighted_error(&rule, threshold);
                if error < best.0 - TIE_MARGIN {
                    best = (error, params);
                }
            }
        }
        best.1.validate(num_perm)?;
        Ok(best.1)
    }

    /// Checks datasketch's constraints for signatures of `num_perm` values: at least 2 bands,
    /// at least 1 row, `bands · rows ≤ num_perm`.
    ///
    /// # Errors
    /// [`Error::LshParams`] otherwise.
    pub fn validate(&self, num_perm: u32) -> Result<(), Error> {
        let banded = u64::from(self.bands) * u64::from(self.rows);
        if self.bands >= 2 && self.rows >= 1 && banded <= u64::from(num_perm) {
            Ok(())
        } else {
            Err(Error::LshParams {
                bands: self.bands,
                rows: self.rows,
                num_perm,
            })
        }
    }

    /// `FP · 0.5 + FN · 0.5` for these parameters at `threshold`.
    fn weighted_error(&self, rule: &GaussLegendre, threshold: f64) -> f64 {
        // Exponents are at most MAX_NUM_PERM, far inside `i32`.
        let (bands, rows) = (self.bands as i32, self.rows as i32);
        let miss = |s: f64| (1.0 - s.powi(rows)).powi(bands);
        let false_positive = rule.integrate(0.0, threshold, |s| 1.0 - miss(s));
        let false_negative = rule.integrate(threshold, 1.0, miss);
        false_positive * WEIGHT + false_negative * WEIGHT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(bands: u32, rows: u32) -> LshParams {
        LshParams { bands, rows }
    }

    #[test]
    fn optimal_matches_datasketch_for_128_permutations() {
        let table = [
            (0.3, 37, 3),
            (0.5, 25, 5),
            (0.6, 18, 7),
            (0.7, 14, 9),
            (0.8, 9, 13),
            (0.9, 5, 25),
        ];
        for (threshold, bands, rows) in table {
            assert_eq!(
                LshParams::optimal(threshold, 128),
                Ok(params(bands, rows)),
                "{threshold}"
            );
        }
        assert_eq!(LshParams::optimal(0.6, 256), Ok(params(32, 8)));
    }

    #[test]
    fn optimal_keeps_the_first_of_exact_ties() {
        // (1, 1) and (1, 2) tie exactly at 0.5 (both errors are 1/8); datasketch keeps
        // (1, 1) and then refuses a single band.
        let err = LshParams::optimal(0.5, 2).unwrap_err();
        assert_eq!(
            err,
            Error::LshParams {
                bands: 1,
                rows: 1,
                num_perm: 2
            }
        );
    }

    #[test]
    fn optimal_rejects_bad_arguments() {
        for threshold in [-0.1, 1.1, f64::NAN] {
            assert!(matches!(
                LshParams::optimal(threshold, 128),
                Err(Error::Threshold { .. })
            ));
        }
        assert!(matches!(
            LshParams::optimal(0.5, 0),
            Err(Error::NumPerm { .. })
        ));
        assert!(matches!(
            LshParams::optimal(0.5, 5000),
            Err(Error::NumPerm { .. })
        ));
        assert!(matches!(
            LshParams::optimal(0.99, 64),
            Err(Error::LshParams { bands: 1, .. })
        ));
    }

    #[test]
    fn validate_applies_datasketch_constraints() {
        assert_eq!(params(18, 7).validate(128), Ok(()));
        assert_eq!(params(2, 64).validate(128), Ok(()));
        for bad in [
            params(1, 128),
            params(2, 0),
            params(17, 8),
            params(u32::MAX, u32::MAX),
        ] {
            assert!(bad.validate(128).is_err(), "{bad:?}");
        }
    }
}

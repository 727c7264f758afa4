//! The permutations of each [`Scheme`]: drawn from the seed exactly as datasketch draws them,
//! and applied to token hashes with datasketch's arithmetic.

use crate::random_state::RandomState;
use crate::{MinhashConfig, Scheme};

/// The Mersenne prime 2⁶¹ − 1 of the legacy scheme.
const MERSENNE_61: u64 = (1 << 61) - 1;

/// The per-permutation parameters `a` and `b` of a configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Permutations {
    /// `a ∈ [1, P)`, `b ∈ [0, P)` with `P = 2⁶¹ − 1`.
    Legacy { a: Box<[u64]>, b: Box<[u64]> },
    /// Odd `a` and any `b`, both 32-bit.
    Affine32 { a: Box<[u32]>, b: Box<[u32]> },
}

impl Permutations {
    /// datasketch's `MinHash._init_permutations` for `config` (which must be valid).
    pub(crate) fn draw(config: &MinhashConfig) -> Self {
        let mut rng = RandomState::new(config.seed);
        let n = config.len();
        match config.scheme {
            Scheme::Legacy => {
                // One (a, b) pair per permutation, drawn interleaved:
                // `randint(1, P)` then `randint(0, P)`.
                let (a, b): (Vec<u64>, Vec<u64>) = (0..n)
                    .map(|_| {
                        let a = 1 + rng.masked_u64(MERSENNE_61 - 2);
                        (a, rng.masked_u64(MERSENNE_61 - 1))
                    })
                    .unzip();
                Self::Legacy {
                    a: a.into(),
                    b: b.into(),
                }
            }
            Scheme::Affine32 => {
                // All a's (`randint(0, 2**31) * 2 + 1`), then all b's (`randint(0, 2**32)`).
                let a = (0..n)
                    .map(|_| rng.masked_u32((1 << 31) - 1) * 2 + 1)
                    .collect();
                let b = (0..n).map(|_| rng.next_u32()).collect();
                Self::Affine32 { a, b }
            }
        }
    }
}

/// Folds one token hash into `values` under the legacy scheme (see [`permute_legacy`]).
#[inline]
pub(crate) fn update_legacy(values: &mut [u32], a: &[u64], b: &[u64], hash: u32) {
    let h = u64::from(hash);
    for ((value, &a), &b) in values.iter_mut().zip(a).zip(b) {
        *value = (*value).min(permute_legacy(a, b, h));
    }
}

/// One legacy permutation of a token hash `h < 2³²`: `((a·h + b) mod 2⁶⁴ mod P) & 0xffffffff`
/// for `a < 2⁶¹`. The product wraps at 2⁶⁴ before the reduction, as numpy's uint64 arithmetic
/// does (exact arithmetic gives other values).
///
/// Written so that loops over it vectorise with baseline SSE2, which has neither 64-bit
/// multiplies nor 64-bit compares: `a·h` as two 32×32→64-bit products, `mod P` as a fold of
/// the top bits (`2⁶¹ ≡ 1`) and a conditional subtraction expressed as arithmetic.
#[inline]
fn permute_legacy(a: u64, b: u64, h: u64) -> u32 {
    let product = ((a & 0xffff_ffff) * h).wrapping_add(((a >> 32) * h) << 32);
    let x = product.wrapping_add(b);
    let folded = (x & MERSENNE_61) + (x >> 61);
    // `folded ≤ P + 7`, so `folded ≥ P` iff bit 61 of `folded + 1` is set; subtracting
    // P = 2³² · (2²⁹ − 1) + (2³² − 1) then adds 1 to the low 32 bits.
    let reduce = (folded + 1) >> 61;
    // Truncation to the low 32 bits is the scheme's `& 0xffffffff`.
    (folded as u32).wrapping_add(reduce as u32)
}

/// Folds one token hash into `values` under the affine32 scheme:
/// `min(v, a·fmix32(h) + b mod 2³²)`.
#[inline]
pub(crate) fn update_affine32(values: &mut [u32], a: &[u32], b: &[u32], hash: u32) {
    let h = fmix32(hash);
    for ((value, &a), &b) in values.iter_mut().zip(a).zip(b) {
        *value = (*value).min(a.wrapping_mul(h).wrapping_add(b));
    }
}

/// MurmurHash3's 32-bit finalizer, which datasketch applies once to each token hash.
fn fmix32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn config(scheme: Scheme) -> MinhashConfig {
        MinhashConfig {
            num_perm: 8,
            seed: 1,
            scheme,
        }
    }

    /// Reference values of `/work/shared/notes/datasketch-minhash.md` §4.4 (num_perm 8, seed 1).
    #[test]
    fn draws_datasketch_legacy_parameters() {
        let Permutations::Legacy { a, b } = Permutations::draw(&config(Scheme::Legacy)) else {
            panic!("legacy config drew other permutations");
        };
        assert_eq!(
            a[..3],
            [
                775_169_054_918_279_404,
                2_109_959_069_025_162,
                401_325_382_989_534_145
            ]
        );
        assert_eq!(b[7], 838_727_479_550_634_564);
    }

    #[test]
    fn draws_datasketch_affine32_parameters() {
        let Permutations::Affine32 { a, b } = Permutations::draw(&config(Scheme::Affine32)) else {
            panic!("affine32 config drew other permutations");
        };
        assert_eq!(a[..3], [3_582_191_691, 4_270_784_983, 1_892_572_953]);
        assert_eq!(b[7], 2_876_537_340);
        assert!(a.iter().all(|a| a % 2 == 1));
    }

    /// All permutation parameters recorded from datasketch by `scripts/minhash-vectors.py`.
    #[test]
    fn draws_parameters_recorded_from_datasketch() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/minhash/datasketch-vectors.json"
        );
        let vectors: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cases = vectors["permutations"].as_array().unwrap();
        assert!(cases.len() >= 4);
        for case in cases {
            let scheme = match case["scheme"].as_str().unwrap() {
                "legacy" => Scheme::Legacy,
                _ => Scheme::Affine32,
            };
            let seed = u32::try_from(case["seed"].as_u64().unwrap()).unwrap();
            let num_perm = u32::try_from(case["num_perm"].as_u64().unwrap()).unwrap();
            let numbers = |key: &str| -> Vec<u64> {
                case[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap())
                    .collect()
            };
            let (a, b) = match Permutations::draw(&MinhashConfig {
                num_perm,
                seed,
                scheme,
            }) {
                Permutations::Legacy { a, b } => (a.to_vec(), b.to_vec()),
                Permutations::Affine32 { a, b } => (
                    a.iter().map(|&v| u64::from(v)).collect(),
                    b.iter().map(|&v| u64::from(v)).collect(),
                ),
            };
            assert_eq!((a, b), (numbers("a"), numbers("b")), "{case}");
        }
    }

    #[test]
    fn fmix32_matches_murmur3() {
        assert_eq!(fmix32(0), 0);
        assert_eq!(fmix32(1), 0x514e_28b7);
    }

    /// numpy's arithmetic, written plainly.
    fn reference(a: u64, b: u64, h: u64) -> u32 {
        ((a.wrapping_mul(h).wrapping_add(b) % MERSENNE_61) & 0xffff_ffff) as u32
    }

    proptest! {
        #[test]
        fn permute_legacy_equals_numpy_arithmetic(
            a in 1..MERSENNE_61,
            b in 0..MERSENNE_61,
            h in any::<u32>(),
        ) {
            let h = u64::from(h);
            prop_assert_eq!(permute_legacy(a, b, h), reference(a, b, h));
        }
    }

    #[test]
    fn permute_legacy_handles_reduction_edges() {
        // Sums that land on P, just below and just above it, with and without wrapping.
        let p = MERSENNE_61;
        let cases = [
            (1, p - 1, 1),
            (1, p - 2, 1),
            (1, p - 1, 2),
            (2, p - 1, 0xffff_ffff),
            (p - 1, p - 1, 0xffff_ffff),
        ];
        for (a, b, h) in cases {
            assert_eq!(
                permute_legacy(a, b, h),
                reference(a, b, h),
                "a {a} b {b} h {h}"
            );
        }
        assert_eq!(permute_legacy(1, p - 1, 1), 0);
    }
}

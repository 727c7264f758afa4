//! [`BandKey`]: the bucket of one band of a signature.

use super::LshParams;
use crate::{Error, Signature};

/// The LSH bucket of one band of a signature: the band's index and a 64-bit hash of its
/// values. Two signatures share a bucket of band `i` iff their values in that band are equal
/// (up to hash collisions, below).
///
/// datasketch keys its per-band tables by the band's bytes; only the grouping matters to
/// dbce, so a fixed-size key suffices and keeps band files compact.
///
/// The hash is **FNV-1a 64** (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`) over
/// the band index as 4 little-endian bytes followed by the band's values, each as 4
/// little-endian bytes. It is fixed by this definition, independent of platform and Rust
/// version, so keys may be persisted (unlike `std`'s `DefaultHasher`).
///
/// Collisions: two different bands of the same index get the same key with probability
/// about 2⁻⁶⁴, so among `n` distinct bands of one index about `n² / 2⁶⁵` pairs collide:
/// 3·10⁻⁴ for a hundred million pages. A collision only adds a spurious candidate, which the
/// Jaccard estimate of [`LshIndex::candidates`](crate::LshIndex::candidates) ranks low; bands
/// of different indices never collide, as the index is part of the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BandKey {
    /// Index of the band, `0..bands`.
    pub band: u32,
    /// FNV-1a 64 of the band index and the band's values (see the type's documentation).
    pub hash: u64,
}

const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl BandKey {
    /// The key of band `band` holding `values`.
    fn new(band: u32, values: &[u32]) -> Self {
        let words = std::iter::once(band).chain(values.iter().copied());
        let hash = words
            .flat_map(u32::to_le_bytes)
            .fold(FNV_OFFSET_BASIS, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
            });
        Self { band, hash }
    }
}

impl LshParams {
    /// The bucket keys of `signature`, one per band, in band order.
    ///
    /// # Errors
    /// [`Error::LshParams`] if these parameters do not fit the signature's `num_perm` (see
    /// [`validate`](Self::validate)).
    pub fn band_keys(&self, signature: &Signature) -> Result<Vec<BandKey>, Error> {
        self.validate(signature.config().num_perm)?;
        Ok(self.band_keys_unchecked(signature))
    }

    /// [`band_keys`](Self::band_keys) for parameters known to fit the signature.
    pub(crate) fn band_keys_unchecked(&self, signature: &Signature) -> Vec<BandKey> {
        // `rows` ≥ 1 and `bands · rows` ≤ `num_perm` were validated, so the casts are exact.
        let rows = signature.values().chunks_exact(self.rows as usize);
        (0..self.bands)
            .zip(rows)
            .map(|(band, values)| BandKey::new(band, values))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MinhashConfig;
    use proptest::collection::vec;
    use proptest::prelude::*;

    fn signature(values: Vec<u32>) -> Signature {
        let num_perm = u32::try_from(values.len()).unwrap();
        let config = MinhashConfig {
            num_perm,
            ..MinhashConfig::default()
        };
        Signature::from_values(config, values).unwrap()
    }

    #[test]
    fn hash_is_fnv1a_of_little_endian_words() {
        // Published FNV-1a 64 test vector: "a" → 0xaf63dc4c8601ec8c.
        let a = (FNV_OFFSET_BASIS ^ u64::from(b'a')).wrapping_mul(FNV_PRIME);
        assert_eq!(a, 0xaf63_dc4c_8601_ec8c);
        // Computed independently over the bytes `struct.pack('<II', 0, 1)` and
        // `struct.pack('<III', 2, 0xdeadbeef, 7)`.
        assert_eq!(BandKey::new(0, &[1]).hash, 0x08cd_4c29_d1e4_7d34);
        assert_eq!(
            BandKey::new(2, &[0xdead_beef, 7]).hash,
            0x9a48_47b6_3f03_3dde
        );
    }

    #[test]
    fn band_keys_cover_bands_and_ignore_trailing_values() {
        let params = LshParams { bands: 3, rows: 2 };
        let keys = params
            .band_keys(&signature(vec![1, 2, 3, 4, 5, 6, 7]))
            .unwrap();
        assert_eq!(keys.iter().map(|k| k.band).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(
            keys,
            params
                .band_keys(&signature(vec![1, 2, 3, 4, 5, 6, 99]))
                .unwrap()
        );
        assert_eq!(keys[1], BandKey::new(1, &[3, 4]));
    }

    #[test]
    fn band_keys_reject_params_too_large() {
        let params = LshParams { bands: 4, rows: 2 };
        let err = params.band_keys(&signature(vec![0; 7])).unwrap_err();
        assert_eq!(
            err,
            Error::LshParams {
                bands: 4,
                rows: 2,
                num_perm: 7
            }
        );
    }

    #[test]
    fn equal_values_in_different_bands_get_different_keys() {
        let keys = LshParams { bands: 2, rows: 2 }
            .band_keys(&signature(vec![5, 5, 5, 5]))
            .unwrap();
        assert_ne!(keys[0].hash, keys[1].hash);
    }

    proptest! {
        #[test]
        fn keys_equal_iff_band_values_equal(
            values in vec(0u32..4, 24),
            changes in vec((0usize..24, 0u32..4), 0..6),
        ) {
            // Small value ranges make equal bands common, so both directions are exercised.
            let mut other = values.clone();
            for (at, value) in changes {
                other[at] = value;
            }
            let params = LshParams { bands: 6, rows: 4 };
            let left = params.band_keys(&signature(values.clone())).unwrap();
            let right = params.band_keys(&signature(other.clone())).unwrap();
            for (band, (l, r)) in left.iter().zip(&right).enumerate() {
                let slice = band * 4..band * 4 + 4;
                prop_assert_eq!(l == r, values[slice.clone()] == other[slice]);
            }
        }
    }
}

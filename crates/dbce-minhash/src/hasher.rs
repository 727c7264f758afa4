//! [`MinHasher`]: token lists to [`Signature`]s (thesis §2.2).

use sha1::{Digest, Sha1};

use crate::permutation::{Permutations, update_affine32, update_legacy};
use crate::{Error, MinhashConfig, Signature};

/// Computes MinHash signatures bit-identical to datasketch's `MinHash` with the same
/// `num_perm`, `seed` and `scheme`, fed with `update(token)` for each token.
///
/// Build it once per configuration: construction draws the permutations (`2 · num_perm`
/// numbers from MT19937), after which [`signature`](Self::signature) allocates only the
/// signature itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinHasher {
    config: MinhashConfig,
    permutations: Permutations,
}

impl MinHasher {
    /// Draws the permutations of `config` as datasketch's `MinHash(num_perm, seed, scheme)`
    /// does, from numpy's `RandomState(seed)`.
    ///
    /// # Errors
    /// [`Error::NumPerm`] if `config.num_perm` is out of range.
    pub fn new(config: MinhashConfig) -> Result<Self, Error> {
        config.validate()?;
        Ok(Self {
            config,
            permutations: Permutations::draw(&config),
        })
    }

    /// The configuration this hasher was built from.
    pub fn config(&self) -> MinhashConfig {
        self.config
    }

    /// The signature of a set of tokens: for each permutation, the smallest permuted
    /// [`sha1_hash32`] of a token. Order and repetition of the tokens do not matter; the
    /// signature of no tokens has every value `u32::MAX`, as datasketch's empty `MinHash`.
    ///
    /// ```
    /// use dbce_minhash::{MinHasher, MinhashConfig};
    ///
    /// let hasher = MinHasher::new(MinhashConfig::default())?;
    /// let signature = hasher.signature(["div.nav", "ul.menu", "li"]);
    /// assert_eq!(signature.values().len(), 128);
    /// assert_eq!(signature, hasher.signature([b"li".as_slice(), b"ul.menu", b"div.nav", b"li"]));
    /// # Ok::<(), dbce_minhash::Error>(())
    /// ```
    pub fn signature<I>(&self, tokens: I) -> Signature
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        let mut values = vec![u32::MAX; self.config.len()];
        self.update(&mut values, tokens);
        Signature::new_unchecked(self.config, values.into())
    }

    /// Lowers `values` (a signature's, `num_perm` of them; `u32::MAX` each for no tokens yet)
    /// by `tokens`, as datasketch's `MinHash.update` does one token at a time: the signature of
    /// a set is the same whether its tokens come in one call or many.
    ///
    /// ```
    /// use dbce_minhash::{MinHasher, MinhashConfig};
    ///
    /// let hasher = MinHasher::new(MinhashConfig::default())?;
    /// let mut values = vec![u32::MAX; 128];
    /// hasher.update(&mut values, ["div.nav"]);
    /// hasher.update(&mut values, ["li"]);
    /// assert_eq!(values, hasher.signature(["li", "div.nav"]).values());
    /// # Ok::<(), dbce_minhash::Error>(())
    /// ```
    ///
    /// # Panics
    /// If `values` does not have `num_perm` values.
    pub fn update<I>(&self, values: &mut [u32], tokens: I)
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        assert_eq!(values.len(), self.config.len(), "one value per permutation");
        let hashes = tokens.into_iter().map(|token| sha1_hash32(token.as_ref()));
        match &self.permutations {
            Permutations::Legacy { a, b } => {
                hashes.for_each(|hash| update_legacy(values, a, b, hash));
            }
            Permutations::Affine32 { a, b } => {
                hashes.for_each(|hash| update_affine32(values, a, b, hash));
            }
        }
    }
}

/// datasketch's default token hash, `sha1_hash32`: the first 4 bytes of the token's SHA-1
/// digest, read little-endian.
///
/// ```
/// assert_eq!(dbce_minhash::sha1_hash32(b"a"), 937_752_454);
/// ```
pub fn sha1_hash32(token: &[u8]) -> u32 {
    let digest = Sha1::digest(token);
    u32::from_le_bytes([digest[0], digest[1], digest[2], digest[3]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scheme;

    fn hasher(num_perm: u32, scheme: Scheme) -> MinHasher {
        MinHasher::new(MinhashConfig {
            num_perm,
            seed: 1,
            scheme,
        })
        .unwrap()
    }

    #[test]
    fn sha1_hash32_matches_datasketch() {
        let hashes = [b"a", b"b", b"c"].map(|t| sha1_hash32(t));
        assert_eq!(hashes, [937_752_454, 1_579_145_193, 2_216_076_676]);
    }

    /// Reference values of `/work/shared/notes/datasketch-minhash.md` §4.4.
    #[test]
    fn signature_of_abc_matches_datasketch() {
        let legacy = hasher(8, Scheme::Legacy).signature(["a", "b", "c"]);
        let expected = [297_616_339, 739_114_274, 2_013_617_805, 1_974_455_217];
        assert_eq!(legacy.values()[..4], expected);
        let affine = hasher(8, Scheme::Affine32).signature(["a", "b", "c"]);
        let expected = [2_120_695_791, 1_008_881_376, 645_121_904, 2_519_195_804];
        assert_eq!(affine.values()[..4], expected);
    }

    #[test]
    fn signature_of_many_tokens_matches_datasketch() {
        let tokens: Vec<String> = (0..3000).map(|i| format!("tok{i}")).collect();
        let signature = hasher(128, Scheme::Legacy).signature(&tokens);
        assert_eq!(
            signature.values()[..4],
            [256_073, 289_490, 289_704, 689_256]
        );
    }

    #[test]
    fn empty_set_is_all_max() {
        let signature = hasher(16, Scheme::Affine32).signature(std::iter::empty::<&[u8]>());
        assert!(signature.values().iter().all(|&v| v == u32::MAX));
    }

    #[test]
    fn rejects_invalid_config() {
        let config = MinhashConfig {
            num_perm: 0,
            ..MinhashConfig::default()
        };
        assert!(matches!(
            MinHasher::new(config),
            Err(Error::NumPerm { num_perm: 0, .. })
        ));
    }
}

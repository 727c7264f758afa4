//! [`LshIndex`]: an in-memory MinHash LSH index, datasketch's `MinHashLSH` with sorted output.

use std::collections::{BTreeMap, BTreeSet};

use super::{BandKey, LshParams};
use crate::{Error, MinhashConfig, Signature};

/// A page found by an [`LshIndex`] query: it shares at least one band bucket with the query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate<Id> {
    /// The candidate's id.
    pub id: Id,
    /// Estimated Jaccard similarity to the query ([`Signature::jaccard`]).
    pub jaccard: f64,
}

/// An in-memory LSH index over signatures of one [`MinhashConfig`] (thesis §2.2).
///
/// Candidate sets equal those of datasketch's `MinHashLSH` with the same `(bands, rows)`;
/// unlike datasketch, every output is ordered (candidates by estimate, buckets by key), so
/// results never depend on insertion order or hashing.
#[derive(Debug, Clone)]
pub struct LshIndex<Id> {
    config: MinhashConfig,
    params: LshParams,
    signatures: BTreeMap<Id, Signature>,
    buckets: BTreeMap<BandKey, Vec<Id>>,
}

impl<Id: Ord + Copy> LshIndex<Id> {
    /// An empty index for signatures made with `config`, banded by `params`.
    ///
    /// # Errors
    /// [`Error::NumPerm`] or [`Error::LshParams`] if either is invalid or they do not fit
    /// each other.
    pub fn new(config: MinhashConfig, params: LshParams) -> Result<Self, Error> {
        config.validate()?;
        params.validate(config.num_perm)?;
        Ok(Self {
            config,
            params,
            signatures: BTreeMap::new(),
            buckets: BTreeMap::new(),
        })
    }

    /// The banding of this index.
    pub fn params(&self) -> LshParams {
        self.params
    }

    /// Number of signatures inserted.
    pub fn len(&self) -> usize {
        self.signatures.len()
    }

    /// Whether nothing was inserted yet.
    pub fn is_empty(&self) -> bool {
        self.signatures.is_empty()
    }

    /// Adds `signature` under `id`, to the bucket of each of its bands.
    ///
    /// # Errors
    /// [`Error::Incompatible`] if `signature` was made with another configuration than the
    /// index's; [`Error::DuplicateId`] if `id` is already indexed (as datasketch's
    /// `check_duplication`). The index is unchanged on error.
    pub fn insert(&mut self, id: Id, signature: Signature) -> Result<(), Error> {
        signature.expect_config(self.config)?;
        if self.signatures.contains_key(&id) {
            return Err(Error::DuplicateId);
        }
        for key in self.params.band_keys_unchecked(&signature) {
            let ids = self.buckets.entry(key).or_default();
            if let Err(at) = ids.binary_search(&id) {
                ids.insert(at, id);
            }
        }
        self.signatures.insert(id, signature);
        Ok(())
    }

    /// The pages sharing a bucket with the indexed page `id`, other than `id` itself, by
    /// estimated Jaccard similarity (highest first), ties by id (ascending).
    ///
    /// # Errors
    /// [`Error::UnknownId`] if `id` is not indexed.
    pub fn candidates(&self, id: Id) -> Result<Vec<Candidate<Id>>, Error> {
        let signature = self.signatures.get(&id).ok_or(Error::UnknownId)?;
        Ok(self.rank(signature, Some(id)))
    }

    /// The indexed pages sharing a bucket with `signature` (datasketch's `query`), ordered
    /// as by [`candidates`](Self::candidates). A page indexed with an equal signature is
    /// included, with estimate 1.
    ///
    /// # Errors
    /// [`Error::Incompatible`] if `signature` was made with another configuration.
    pub fn query(&self, signature: &Signature) -> Result<Vec<Candidate<Id>>, Error> {
        signature.expect_config(self.config)?;
        Ok(self.rank(signature, None))
    }

    /// Every non-empty bucket with the ids in it, in ascending key order (band, then hash),
    /// ids ascending. Buckets holding a single id are included.
    pub fn buckets(&self) -> impl Iterator<Item = (BandKey, &[Id])> + '_ {
        self.buckets.iter().map(|(&key, ids)| (key, ids.as_slice()))
    }

    /// The candidates of `signature` except `skip`, estimated and sorted.
    fn rank(&self, signature: &Signature, skip: Option<Id>) -> Vec<Candidate<Id>> {
        let keys = self.params.band_keys_unchecked(signature);
        let ids: BTreeSet<Id> = keys
            .iter()
            .filter_map(|key| self.buckets.get(key))
            .flatten()
            .copied()
            .filter(|&id| Some(id) != skip)
            .collect();
        let mut scored: Vec<(u32, Id)> = ids
            .into_iter()
            .filter_map(|id| Some((signature.agreements(self.signatures.get(&id)?), id)))
            .collect();
        // Integer agreements sort exactly; larger first, then ids ascending.
        scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored
            .into_iter()
            .map(|(agreements, id)| Candidate {
                id,
                jaccard: signature.estimate(agreements),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MinHasher, Scheme};
    use proptest::prelude::*;

    const CONFIG: MinhashConfig = MinhashConfig {
        num_perm: 32,
        seed: 3,
        scheme: Scheme::Legacy,
    };
    const PARAMS: LshParams = LshParams { bands: 16, rows: 2 };

    /// Token sets `base..base + 40` of words `w0, w1, …`: overlapping ranges are similar.
    fn page(hasher: &MinHasher, base: u32) -> Signature {
        hasher.signature((base..base + 40).map(|i| format!("w{i}")))
    }

    fn index(bases: &[u32]) -> LshIndex<u32> {
        let hasher = MinHasher::new(CONFIG).unwrap();
        let mut index = LshIndex::new(CONFIG, PARAMS).unwrap();
        for (id, &base) in (0u32..).zip(bases) {
            index.insert(id, page(&hasher, base)).unwrap();
        }
        index
    }

    #[test]
    fn candidates_are_sorted_by_estimate_then_id_and_exclude_the_query() {
        // Pages 1 and 5 equal page 0; 2 and 4 are near it (J = 0.67 and 0.54), 3 is not.
        let index = index(&[0, 0, 8, 500, 12, 0]);
        let candidates = index.candidates(0).unwrap();
        let ids: Vec<u32> = candidates.iter().map(|c| c.id).collect();
        assert_eq!(ids[..2], [1, 5], "identical pages first, by id");
        assert_eq!((candidates[0].jaccard, candidates[1].jaccard), (1.0, 1.0));
        assert!(!ids.contains(&0) && !ids.contains(&3), "{ids:?}");
        let key = |c: &Candidate<u32>| (std::cmp::Reverse(c.jaccard.to_bits()), c.id);
        assert!(
            candidates.windows(2).all(|w| key(&w[0]) < key(&w[1])),
            "{candidates:?}"
        );
    }

    #[test]
    fn query_includes_equal_signatures() {
        let index = index(&[0, 500]);
        let hasher = MinHasher::new(CONFIG).unwrap();
        let found = index.query(&page(&hasher, 0)).unwrap();
        assert_eq!(
            found,
            [Candidate {
                id: 0,
                jaccard: 1.0
            }]
        );
    }

    #[test]
    fn rejects_duplicates_unknown_ids_and_other_configurations() {
        let mut index = index(&[0]);
        let hasher = MinHasher::new(CONFIG).unwrap();
        assert_eq!(index.insert(0, page(&hasher, 9)), Err(Error::DuplicateId));
        assert_eq!(index.candidates(7), Err(Error::UnknownId));
        let other = MinHasher::new(MinhashConfig { seed: 4, ..CONFIG }).unwrap();
        assert!(matches!(
            index.insert(1, page(&other, 0)),
            Err(Error::Incompatible { .. })
        ));
        assert!(matches!(
            index.query(&page(&other, 0)),
            Err(Error::Incompatible { .. })
        ));
        assert_eq!(index.len(), 1);
        let too_wide = LshParams { bands: 17, rows: 2 };
        assert!(matches!(
            LshIndex::<u32>::new(CONFIG, too_wide),
            Err(Error::LshParams { .. })
        ));
    }

    #[test]
    fn buckets_are_sorted_and_cover_every_band_of_every_page() {
        let index = index(&[0, 1, 0, 300]);
        let buckets: Vec<_> = index.buckets().collect();
        assert!(buckets.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(
            buckets
                .iter()
                .all(|(_, ids)| ids.windows(2).all(|w| w[0] < w[1]))
        );
        let memberships: usize = buckets.iter().map(|(_, ids)| ids.len()).sum();
        assert_eq!(memberships, 4 * 16);
        // Pages 0 and 2 are identical, so they share every bucket.
        let with = |id| {
            buckets
                .iter()
                .filter(|(_, ids)| ids.contains(&id))
                .map(|(k, _)| *k)
                .collect::<Vec<_>>()
        };
        assert_eq!(with(0).len(), 16);
        assert_eq!(with(0), with(2));
    }

    proptest! {
        #[test]
        fn output_does_not_depend_on_insertion_order(
            bases in proptest::collection::vec(0u32..80, 1..12),
            rotation in any::<prop::sample::Index>(),
        ) {
            let hasher = MinHasher::new(CONFIG).unwrap();
            let pages: Vec<(u32, Signature)> =
                (0u32..).zip(&bases).map(|(id, &b)| (id, page(&hasher, b))).collect();
            let mut reordered = pages.clone();
            reordered.rotate_left(rotation.index(pages.len()));
            reordered.reverse();
            let build = |pages: Vec<(u32, Signature)>| {
                let mut index = LshIndex::new(CONFIG, PARAMS).unwrap();
                pages.into_iter().for_each(|(id, s)| index.insert(id, s).unwrap());
                index
            };
            let (a, b) = (build(pages), build(reordered));
            prop_assert!(a.buckets().eq(b.buckets()));
            for id in 0..u32::try_from(bases.len()).unwrap() {
                prop_assert_eq!(a.candidates(id).unwrap(), b.candidates(id).unwrap());
            }
        }
    }
}

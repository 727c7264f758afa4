//! LSH band rows and bucket keys: how stage `read` hands pages to stage `group`.

use dbce_minhash::BandKey;
use serde::{Deserialize, Serialize};

use dbce_artifact::ArtifactKind;
use dbce_page::{PageId, SiteKey};

/// `read/bands/PART/RANK.bin`: the [`BandRow`]s of one partition written by one shard, in input
/// order.
pub const BAND_ROWS: ArtifactKind = ArtifactKind {
    tag: *b"BAND",
    version: 1,
};

/// The key of an LSH bucket: one band's values of a signature, within one site.
///
/// The site is part of the key, so pages of different sites never share a bucket; keeping it
/// as its own 64-bit hash next to the band's 64-bit hash makes two unrelated pages collide only
/// if both hashes do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BucketKey {
    /// FNV-1a 64 of the site's name.
    pub site: u64,
    /// The band's index.
    pub band: u32,
    /// The band's hash ([`BandKey::hash`]).
    pub hash: u64,
}

impl BucketKey {
    /// The key of `band` of a page of `site`.
    pub fn new(site: &SiteKey, band: BandKey) -> Self {
        Self {
            site: site_hash(site),
            band: band.band,
            hash: band.hash,
        }
    }

    /// The partition this key belongs to, out of `partitions`: its site's
    /// ([`site_partition`]), so that every bucket of a site lands in one partition.
    pub fn partition(&self, partitions: u32) -> u32 {
        site_partition(self.site, partitions)
    }
}

/// The partition of the site with FNV-1a hash `site`, out of `partitions`.
///
/// All of a site's buckets and pages go to one partition, so the task that takes the partition
/// sees every LSH bucket a page of the site is in: it answers each page's LSH query (the union
/// of its buckets) and annotates each page exactly once, with nothing to reconcile across tasks.
/// The price is that a partition's size follows its largest site (`docs/SCALE.md`).
pub fn site_partition(site: u64, partitions: u32) -> u32 {
    let mixed = site.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // The high bits of a multiplicative hash are the well-mixed ones.
    u32::try_from((u128::from(mixed) * u128::from(partitions)) >> 64).unwrap_or(0)
}

/// FNV-1a 64 of a site's name, as [`BucketKey::site`] holds it.
pub fn site_hash(site: &SiteKey) -> u64 {
    fnv1a(site.0.as_bytes())
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// One page in one band: the unit shuffled from `read` to `group`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BandRow {
    /// The bucket.
    pub key: BucketKey,
    /// The page.
    pub page: PageId,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sites_spread_over_partitions_and_keep_their_buckets_together() {
        let mut counts = [0u32; 8];
        for n in 0..8000 {
            let site = SiteKey(format!("site{n}.example"));
            let partition = site_partition(site_hash(&site), 8);
            counts[partition as usize] += 1;
            for band in 0..3 {
                let key = BucketKey::new(&site, BandKey { band, hash: n });
                assert_eq!(key.partition(8), partition);
            }
        }
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn sites_separate_keys() {
        let band = BandKey { band: 0, hash: 42 };
        assert_ne!(
            BucketKey::new(&SiteKey("a.com".into()), band),
            BucketKey::new(&SiteKey("b.com".into()), band)
        );
    }
}

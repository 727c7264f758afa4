//! LSH band rows and bucket keys: how stage `read` hands pages to stage `group`.

use dbce_minhash::BandKey;
use serde::{Deserialize, Serialize};

use crate::artifact::ArtifactKind;
use crate::page::{PageId, SiteKey};

/// `read/bands/PART/RANK.bin`: the [`BandRow`]s of one partition written by one shard, in input
/// order.
pub const BAND_ROWS: ArtifactKind = ArtifactKind {
    tag: *b"BAND",
    version: 1,
};

/// The path of the band rows of `partition` written by `rank`, relative to the stage directory.
pub fn rows_path(partition: usize, rank: u32) -> String {
    format!("bands/{partition:05}/{rank:05}.bin")
}

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
            site: fnv1a(site.0.as_bytes()),
            band: band.band,
            hash: band.hash,
        }
    }

    /// The partition this key belongs to, out of `partitions`.
    pub fn partition(&self, partitions: u32) -> u32 {
        let mixed = (self.site ^ self.hash.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        // The high bits of a multiplicative hash are the well-mixed ones.
        u32::try_from((u128::from(mixed) * u128::from(partitions)) >> 64).unwrap_or(0)
    }
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
    fn partitions_are_in_range_and_spread() {
        let site = SiteKey("example.com".into());
        let mut counts = [0u32; 8];
        for hash in 0..8000u64 {
            let key = BucketKey::new(
                &site,
                BandKey {
                    band: 1,
                    hash: hash.wrapping_mul(0x2545_f491_4f6c_dd1d),
                },
            );
            counts[key.partition(8) as usize] += 1;
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

//! Seeds: every random choice derives from the run seed and the coordinates of what is drawn.
//!
//! Nothing is drawn from a shared generator, so any page can be generated alone, on any thread,
//! in any order, and still come out the same.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

/// The random generator used everywhere in the crate.
pub(crate) type Rng = ChaCha8Rng;

/// What a draw is for; two purposes at the same coordinates get unrelated streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    /// A site's fixed traits: sections, blurb, ad pool.
    Site = 1,
    /// A template's structure.
    Template,
    /// An article's headline.
    Headline,
    /// An article's index-page summary.
    Dek,
    /// An article's body.
    Body,
    /// An article's section.
    Section,
    /// Publication time jitter.
    Publish,
    /// The capture times of a URL.
    Timeline,
    /// What changes between captures: teasers, ads, HTTP details.
    Capture,
    /// One user comment.
    Comment,
    /// A non-HTML resource.
    Asset,
    /// Record identifiers.
    Record,
    /// A forum thread's posts and start.
    Thread,
}

/// Mixes `seed`, `stream` and `parts` into one 64-bit value (`SplitMix64` steps).
pub(crate) fn mix(seed: u64, stream: Stream, parts: &[u64]) -> u64 {
    let mut h = splitmix(seed ^ splitmix(stream as u64));
    for &part in parts {
        h = splitmix(h ^ splitmix(part.wrapping_add(0x632B_E59B_D9B4_E019)));
    }
    h
}

/// A generator for `stream` at `parts`.
pub(crate) fn rng(seed: u64, stream: Stream, parts: &[u64]) -> Rng {
    Rng::seed_from_u64(mix(seed, stream, parts))
}

/// A WARC-Record-ID (`<urn:uuid:…>`, version 4 layout) determined by `seed` and `parts`.
pub(crate) fn record_id(seed: u64, parts: &[u64]) -> String {
    let high = mix(seed, Stream::Record, parts);
    let low = splitmix(high ^ 0xA076_1D64_78BD_642F);
    let high = (high & !0xF000) | 0x4000;
    let low = (low & !(0b11 << 62)) | (0b10 << 62);
    format!(
        "<urn:uuid:{:08x}-{:04x}-{:04x}-{:04x}-{:012x}>",
        high >> 32,
        (high >> 16) & 0xFFFF,
        high & 0xFFFF,
        low >> 48,
        low & 0xFFFF_FFFF_FFFF
    )
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;

    #[test]
    fn streams_and_parts_separate_draws() {
        assert_eq!(mix(1, Stream::Body, &[2, 3]), mix(1, Stream::Body, &[2, 3]));
        assert_ne!(mix(1, Stream::Body, &[2, 3]), mix(1, Stream::Body, &[3, 2]));
        assert_ne!(mix(1, Stream::Body, &[2]), mix(1, Stream::Dek, &[2]));
        assert_ne!(mix(1, Stream::Body, &[2]), mix(2, Stream::Body, &[2]));
        let a: u64 = rng(7, Stream::Site, &[1]).random();
        let b: u64 = rng(7, Stream::Site, &[1]).random();
        assert_eq!(a, b);
    }

    #[test]
    fn record_ids_are_version_4_uuids() {
        let id = record_id(42, &[1, 2, 3]);
        assert_eq!(id.len(), "<urn:uuid:>".len() + 36);
        let uuid = &id[10..46];
        assert_eq!(&uuid[14..15], "4");
        assert!(matches!(&uuid[19..20], "8" | "9" | "a" | "b"), "{uuid}");
        assert_ne!(id, record_id(42, &[1, 2, 4]));
    }
}

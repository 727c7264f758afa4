//! [`AtomCache`]: recently made tag and attribute name atoms, kept for the next time.

use html5ever::LocalName;

/// Slots of the cache; a power of two.
const SLOTS: usize = 256;

/// A name of up to 16 bytes packed in two words, and its length.
type Key = (u64, u64, usize);

/// `name` as a [`Key`], if it is short enough (byte by byte: names are short, and a copy
/// into a buffer read back as words stalls).
fn packed(name: &[u8]) -> Option<Key> {
    if name.len() > 16 {
        return None;
    }
    let (mut lo, mut hi) = (0_u64, 0_u64);
    for (i, &b) in name.iter().enumerate() {
        if i < 8 {
            lo |= u64::from(b) << (8 * i);
        } else {
            hi |= u64::from(b) << (8 * (i - 8));
        }
    }
    Some((lo, hi, name.len()))
}

/// A direct-mapped cache of `LocalName`s of up to 16 bytes by their text. Making an atom
/// hashes the name with SipHash and looks it up in the static set; pages use few names, so
/// most are found here. Longer names are made each time.
pub(crate) struct AtomCache {
    slots: Box<[Option<(Key, LocalName)>; SLOTS]>,
}

impl Default for AtomCache {
    fn default() -> Self {
        Self {
            slots: Box::new([const { None }; SLOTS]),
        }
    }
}

impl AtomCache {
    /// The atom of `name`.
    pub(crate) fn get(&mut self, name: &str) -> LocalName {
        let Some(key) = packed(name.as_bytes()) else {
            return LocalName::from(name);
        };
        let folded = key.0 ^ key.1.rotate_left(29) ^ key.2 as u64;
        let hash = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS.trailing_zeros());
        let slot = &mut self.slots[hash as usize];
        match slot {
            Some((k, atom)) if *k == key => atom.clone(),
            _ => slot.insert((key, LocalName::from(name))).1.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_the_atom_of_the_name() {
        let mut cache = AtomCache::default();
        for name in [
            "div",
            "a",
            "data-long-attribute-name",
            "div",
            "",
            "\u{e9}t\u{e9}",
            "a\0",
        ] {
            assert_eq!(cache.get(name), LocalName::from(name));
            assert_eq!(cache.get(name), LocalName::from(name));
        }
    }
}

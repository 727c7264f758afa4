//! [`AtomCache`]: recently made tag and attribute name atoms, kept for the next time.

use html5ever::LocalName;

/// Slots of the cache; a power of two.
const SLOTS: usize = 256;

/// A name of up to 16 bytes packed, and its length.
type Key = (u128, usize);

/// `name` as a [`Key`], if it is short enough.
fn packed(name: &[u8]) -> Option<Key> {
    let mut bytes = [0; 16];
    bytes.get_mut(..name.len())?.copy_from_slice(name);
    Some((u128::from_le_bytes(bytes), name.len()))
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
        let folded = (key.0 ^ (key.0 >> 64)) as u64 ^ key.1 as u64;
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

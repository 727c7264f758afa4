//! Items of several files read back by slot: one checking pass notes where each item lies
//! ([`ItemIndex`]), a selection gives some of them slots ([`ItemSlots`]), and the items of any
//! slots are then read at their offsets, so the files' items are never all in memory at once
//! (dbce's stage `annotate` reads each page's words and DOM, which stage `read` wrote shard by
//! shard, a chunk of a site at a time).

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::path::PathBuf;

use crate::{ArtifactError, ArtifactItems, ArtifactKind, ArtifactReader};
use serde::de::DeserializeOwned;

/// Every item of a set of files of items of type `T`: its leading fields (`H`, see
/// [`ArtifactReader::next_head`]) and where it lies. Made in one pass over the files; any
/// selection of items is then made from it ([`ItemSlots::select`]) without reading the files
/// again.
pub struct ItemIndex<T, H> {
    files: Vec<PathBuf>,
    /// Each item's leading fields, file (by its place in `files`) and offset, in file order.
    items: Vec<(H, usize, u64)>,
    item: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned, H: DeserializeOwned + Copy> ItemIndex<T, H> {
    /// Checks the files at `paths` (one full pass each: kind, version and checksum) and notes
    /// where each item lies.
    ///
    /// # Errors
    /// Fails when a file cannot be read, is of another kind, or is truncated or damaged.
    pub fn open(paths: Vec<PathBuf>, kind: ArtifactKind) -> Result<Self, ArtifactError> {
        let mut items = Vec::new();
        for (file, path) in paths.iter().enumerate() {
            let mut reader = ArtifactReader::<T>::open(path, kind)?;
            while let Some((offset, head)) = reader.next_head::<H>()? {
                items.push((head, file, offset));
            }
        }
        Ok(Self {
            files: paths,
            items,
            item: PhantomData,
        })
    }
}

/// Where the item of type `T` of each slot (`0..slots`, e.g. a page's index among the pages of
/// one pass of a stage) lies in an [`ItemIndex`]'s files.
pub struct ItemSlots<T> {
    files: Vec<PathBuf>,
    /// Per slot: which file (by its place in `files`) and the offset of its item.
    at: Vec<Option<(usize, u64)>>,
    item: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> ItemSlots<T> {
    /// The items of `slots` slots among those `index` holds: `locate` tells from an item's
    /// leading fields which slot it is, if any; a later item for a slot replaces an earlier
    /// one.
    pub fn select<H: Copy>(
        index: &ItemIndex<T, H>,
        slots: usize,
        locate: impl Fn(H) -> Option<usize>,
    ) -> Self {
        let mut at = vec![None; slots];
        for &(head, file, offset) in &index.items {
            if let Some(i) = locate(head) {
                at[i] = Some((file, offset));
            }
        }
        Self {
            files: index.files.clone(),
            at,
            item: PhantomData,
        }
    }

    /// The items of the slots at `indices` that have one, read in file order.
    ///
    /// # Errors
    /// Fails when a file cannot be read or an item does not decode.
    pub fn load(
        &self,
        indices: impl IntoIterator<Item = usize>,
    ) -> Result<BTreeMap<usize, T>, ArtifactError> {
        let mut wanted: Vec<(usize, u64, usize)> = indices
            .into_iter()
            .filter_map(|i| self.at[i].map(|(file, offset)| (file, offset, i)))
            .collect();
        wanted.sort_unstable();
        let mut items = BTreeMap::new();
        let mut open: Option<(usize, ArtifactItems<T>)> = None;
        for (file, offset, i) in wanted {
            let reader = match open.take() {
                Some((f, reader)) if f == file => reader,
                _ => ArtifactItems::open(&self.files[file])?,
            };
            let (_, reader) = open.insert((file, reader));
            items.insert(i, reader.read_at(offset)?);
        }
        Ok(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write_all;

    const KIND: ArtifactKind = ArtifactKind {
        tag: *b"TEST",
        version: 1,
    };

    #[test]
    fn items_come_back_by_slot_from_any_file() {
        let dir = tempfile::tempdir().unwrap();
        let paths = vec![dir.path().join("0.bin"), dir.path().join("1.bin")];
        // Items are (key, payload); keys 10, 20, 30, 40 are slots 0..4.
        write_all(
            &paths[0],
            KIND,
            &[(30_u32, "c".to_owned()), (10, "a".to_owned())],
        )
        .unwrap();
        write_all(
            &paths[1],
            KIND,
            &[(99_u32, "x".to_owned()), (20, "b".to_owned())],
        )
        .unwrap();
        let index = ItemIndex::<(u32, String), u32>::open(paths, KIND).unwrap();
        let items = ItemSlots::select(&index, 4, |key: u32| {
            [10, 20, 30, 40].iter().position(|&k| k == key)
        });
        let loaded = items.load([3, 2, 0, 1]).unwrap();
        let payloads: Vec<(usize, &str)> =
            loaded.iter().map(|(&i, (_, p))| (i, p.as_str())).collect();
        // Key 40 has no item; the item of no slot (99) is never read.
        assert_eq!(payloads, [(0, "a"), (1, "b"), (2, "c")]);
        assert!(items.load([3]).unwrap().is_empty());
    }

    #[test]
    fn a_damaged_file_is_refused_when_opened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("0.bin");
        write_all(&path, KIND, &[(1_u32, "one".to_owned())]).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[18] ^= 0x20;
        std::fs::write(&path, &bytes).unwrap();
        let opened = ItemIndex::<(u32, String), u32>::open(vec![path], KIND);
        assert!(matches!(opened, Err(ArtifactError::Checksum { .. })));
    }
}

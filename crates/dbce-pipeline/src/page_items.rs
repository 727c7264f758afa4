//! Per-page items stage `read` writes shard by shard (each page's words, each page's DOM), read
//! back by page: stage `annotate` notes where each page's item lies and reads the items when a
//! chunk of a site needs them, so a partition's items are never all in memory at once.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::path::PathBuf;

use dbce_artifact::{ArtifactError, ArtifactItems, ArtifactKind, ArtifactReader};
use serde::de::DeserializeOwned;

/// Every item of a partition's files of items of type `T`: its leading fields (`H`, see
/// [`ArtifactReader::next_head`]) and where it lies. Made in one pass over the files, once
/// per stage step; each pass of the stage then picks its pages' items from it
/// ([`PageItems::select`]) without reading the files again.
pub(crate) struct ItemIndex<T, H> {
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
    pub(crate) fn open(paths: Vec<PathBuf>, kind: ArtifactKind) -> Result<Self, ArtifactError> {
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

/// Where each page's item of type `T` lies in a partition's files, by index into the pages
/// of one pass of the stage.
pub(crate) struct PageItems<T> {
    files: Vec<PathBuf>,
    /// Per page: which file (by its place in `files`) and the offset of its item.
    at: Vec<Option<(usize, u64)>>,
    item: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> PageItems<T> {
    /// The items of `pages` pages among those `index` holds: `locate` tells from an item's
    /// leading fields which page it is, if any; a later item for a page replaces an earlier
    /// one.
    pub(crate) fn select<H: Copy>(
        index: &ItemIndex<T, H>,
        pages: usize,
        locate: impl Fn(H) -> Option<usize>,
    ) -> Self {
        let mut at = vec![None; pages];
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

    /// The items of the pages at `indices` that have one, read in file order.
    ///
    /// # Errors
    /// Fails when a file cannot be read or an item does not decode.
    pub(crate) fn load(
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
    use dbce_artifact::write_all;

    const KIND: ArtifactKind = ArtifactKind {
        tag: *b"TEST",
        version: 1,
    };

    #[test]
    fn items_come_back_by_page_from_any_file() {
        let dir = tempfile::tempdir().unwrap();
        let paths = vec![dir.path().join("0.bin"), dir.path().join("1.bin")];
        // Items are (page key, payload); pages 10, 20, 30, 40 are indices 0..4.
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
        let items = PageItems::select(&index, 4, |key: u32| {
            [10, 20, 30, 40].iter().position(|&k| k == key)
        });
        let loaded = items.load([3, 2, 0, 1]).unwrap();
        let payloads: Vec<(usize, &str)> =
            loaded.iter().map(|(&i, (_, p))| (i, p.as_str())).collect();
        // Page 40 has no item; the item of no page (99) is never read.
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

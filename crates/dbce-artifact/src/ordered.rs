//! The items of several files in the order of a key, with memory bounded whatever the files
//! hold: one checking pass notes each item's key (from its leading fields) and place, sorted
//! with spilling ([`SpillSorter`]); the items are then read one at a time at their places
//! (dbce's stages `finish` and `index` read a partition's annotated pages by page id, from the
//! file of each task of stage `annotate` that shared the partition).

use std::marker::PhantomData;
use std::path::PathBuf;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{
    ArtifactError, ArtifactItems, ArtifactKind, ArtifactReader, Sorted, SortedIter, SpillSorter,
};

/// Where every item of a set of files of items of type `T` lies, sorted by key `K`: items of
/// equal keys by file (their place in the list), then offset.
pub struct OrderedItems<T, K> {
    files: Vec<PathBuf>,
    /// `(key, file, offset)` of each item.
    places: Sorted<(K, u32, u64)>,
    item: PhantomData<fn() -> T>,
}

/// The place list's runs.
const ORDERED: ArtifactKind = ArtifactKind {
    tag: *b"ORDR",
    version: 1,
};

impl<T, K> OrderedItems<T, K>
where
    T: DeserializeOwned,
    K: Ord + Clone + Serialize + DeserializeOwned,
{
    /// Checks the files at `paths` (one full pass each: kind, version and checksum) and notes
    /// each item's key, `key(head)` of its leading fields `H` ([`ArtifactReader::next_head`]),
    /// and place, sorted: at most `limit` are held in memory, the rest spill to `runs(run)`.
    ///
    /// # Errors
    /// Fails when a file cannot be read, is of another kind, or is truncated or damaged, or
    /// when a run cannot be written.
    pub fn sort<H: DeserializeOwned>(
        paths: Vec<PathBuf>,
        kind: ArtifactKind,
        key: impl Fn(H) -> K,
        limit: usize,
        runs: impl Fn(usize) -> PathBuf + Send + 'static,
    ) -> Result<Self, ArtifactError> {
        let mut places = SpillSorter::new(ORDERED, limit, runs);
        for (file, path) in paths.iter().enumerate() {
            let file = u32::try_from(file).unwrap_or(u32::MAX);
            let mut reader = ArtifactReader::<T>::open(path, kind)?;
            while let Some((offset, head)) = reader.next_head::<H>()? {
                places.push((key(head), file, offset))?;
            }
        }
        Ok(Self {
            files: paths,
            places: places.sorted()?,
            item: PhantomData,
        })
    }

    /// The items' keys and places (file, by its place in the list, and offset) in order.
    pub(crate) fn places(&self) -> Result<SortedIter<'_, (K, u32, u64)>, ArtifactError> {
        self.places.iter()
    }

    /// The files, in the order places name them.
    pub(crate) fn into_files(self) -> Vec<PathBuf> {
        self.files
    }

    /// Whether the files hold no item.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// The items' keys in order, from the start; may be called again.
    ///
    /// # Errors
    /// Fails when a run cannot be opened; the iterator, when a place cannot be read.
    pub fn keys(
        &self,
    ) -> Result<impl Iterator<Item = Result<K, ArtifactError>> + '_, ArtifactError> {
        Ok(self.places.iter()?.map(|place| place.map(|(key, ..)| key)))
    }

    /// The items in order, read one at a time; may be called again.
    ///
    /// # Errors
    /// Fails when a run cannot be opened; the iterator, when a file cannot be opened or an
    /// item read.
    pub fn items(
        &self,
    ) -> Result<impl Iterator<Item = Result<T, ArtifactError>> + '_, ArtifactError> {
        let mut open: Vec<Option<ArtifactItems<T>>> = self.files.iter().map(|_| None).collect();
        Ok(self.places.iter()?.map(move |place| {
            let (_, file, offset) = place?;
            let file = file as usize;
            let items = match &mut open[file] {
                Some(items) => items,
                slot => slot.insert(ArtifactItems::open(&self.files[file])?),
            };
            items.read_at(offset)
        }))
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
    fn items_of_several_files_come_back_by_key() {
        for limit in [1, 2, 100] {
            let dir = tempfile::tempdir().unwrap();
            let files: [&[(u32, &str)]; 3] = [
                &[(30, "c"), (10, "a")],
                &[],
                &[(20, "b"), (10, "a2"), (40, "d")],
            ];
            let paths: Vec<PathBuf> = (0..files.len())
                .map(|i| dir.path().join(format!("{i}.bin")))
                .collect();
            for (path, items) in paths.iter().zip(files) {
                let items: Vec<(u32, String)> =
                    items.iter().map(|&(k, p)| (k, p.to_owned())).collect();
                write_all(path, KIND, &items).unwrap();
            }
            let runs = dir.path().join("runs");
            let ordered = OrderedItems::<(u32, String), u32>::sort(
                paths,
                KIND,
                |key: u32| key,
                limit,
                move |run| runs.join(format!("{run}.bin")),
            )
            .unwrap();
            assert!(!ordered.is_empty());
            let keys: Vec<u32> = ordered.keys().unwrap().map(Result::unwrap).collect();
            assert_eq!(keys, [10, 10, 20, 30, 40], "limit {limit}");
            // Equal keys by file: "a" (file 0) before "a2" (file 2); and a second pass.
            for _ in 0..2 {
                let items: Vec<String> = ordered.items().unwrap().map(|i| i.unwrap().1).collect();
                assert_eq!(items, ["a", "a2", "b", "c", "d"], "limit {limit}");
            }
            drop(ordered);
            assert!(!dir.path().join("runs").exists(), "limit {limit}");
        }
    }

    #[test]
    fn no_files_or_empty_files_hold_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("0.bin");
        write_all::<(u32, String)>(&path, KIND, &[]).unwrap();
        let runs = dir.path().join("runs");
        let ordered = OrderedItems::<(u32, String), u32>::sort(
            vec![path],
            KIND,
            |key: u32| key,
            4,
            move |run| runs.join(format!("{run}.bin")),
        )
        .unwrap();
        assert!(ordered.is_empty());
        assert_eq!(ordered.items().unwrap().count(), 0);
    }
}

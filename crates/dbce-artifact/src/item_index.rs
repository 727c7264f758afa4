//! Items of several files read back by slot, with memory bounded whatever the files hold: one
//! checking pass notes where each item lies and sorts those places by the batch each item
//! belongs to, spilling to disk ([`BatchedItems`]); a batch's places then give its slots
//! ([`ItemSlots`]), and the items of any slots are read at their offsets, so neither the
//! items nor their places are ever all in memory at once (dbce's stage `annotate` reads each
//! page's words and DOM, which stage `read` wrote shard by shard, a batch of sites and a chunk
//! of a site at a time).

use std::collections::BTreeMap;
use std::iter::Peekable;
use std::marker::PhantomData;
use std::path::PathBuf;

use crate::{ArtifactError, ArtifactItems, ArtifactKind, Sorted, SortedIter};
use crate::{OrderedItems, SpillSorter};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The runs of [`BatchedItems::sort`]'s second sort: items' places with their batch first
/// (the first, by leading fields, is an [`OrderedItems`]'s).
const PLACES: ArtifactKind = ArtifactKind {
    tag: *b"PLCE",
    version: 1,
};

/// Where every item of a set of files of items of type `T` lies (its leading fields `H`, see
/// [`ArtifactReader::next_head`], file and offset), sorted by the batch it belongs to, on disk
/// beyond a limit. Made in one checking pass over the files and a join with the batch of
/// each key; then read batch by batch, in order ([`BatchedItems::batches`]).
pub struct BatchedItems<T, H> {
    files: Vec<PathBuf>,
    /// `(batch, head, file, offset)`: an item's batch, leading fields, file (by its place in
    /// `files`) and offset.
    places: Sorted<(u64, H, u32, u64)>,
    item: PhantomData<fn() -> T>,
}

impl<T, H> BatchedItems<T, H>
where
    T: DeserializeOwned,
    H: DeserializeOwned + Serialize + Ord + Clone,
{
    /// Checks the files at `paths` (one full pass each: kind, version and checksum), notes
    /// where each item lies, and sorts the places by batch: `batches` gives, sorted by key, the batch of
    /// each key (`key(head)`, which must order heads as `H` does; of a key listed twice, the
    /// first batch counts); an item whose key has no batch is left out. At most `limit` places are held in
    /// memory by each of the two sorts; the rest spill to `runs(what, run)`, the path of run
    /// `run` of the sort named `what` (`heads`, then `places`).
    ///
    /// # Errors
    /// Fails when a file cannot be read, is of another kind, or is truncated or damaged, when
    /// `batches` fails, or when a run cannot be written or read.
    pub fn sort<K: Ord>(
        paths: Vec<PathBuf>,
        kind: ArtifactKind,
        batches: impl IntoIterator<Item = Result<(K, u64), ArtifactError>>,
        key: impl Fn(&H) -> K,
        limit: usize,
        runs: impl Fn(&str, usize) -> PathBuf + Clone + Send + 'static,
    ) -> Result<Self, ArtifactError> {
        let run_path = |what: &'static str| {
            let runs = runs.clone();
            move |run| runs(what, run)
        };
        let heads =
            OrderedItems::<T, H>::sort(paths, kind, |head: H| head, limit, run_path("heads"))?;
        // A merge join: both sides ascend by key.
        let mut places = SpillSorter::new(PLACES, limit, run_path("places"));
        let mut batches = batches.into_iter();
        let mut next_batch = batches.next().transpose()?;
        for head in heads.places()? {
            let (head, file, offset) = head?;
            let wanted = key(&head);
            while let Some((k, _)) = &next_batch {
                if *k >= wanted {
                    break;
                }
                next_batch = batches.next().transpose()?;
            }
            if let Some((k, batch)) = &next_batch
                && *k == wanted
            {
                places.push((*batch, head, file, offset))?;
            }
        }
        let places = places.sorted()?;
        Ok(Self {
            files: heads.into_files(),
            places,
            item: PhantomData,
        })
    }

    /// The places batch by batch, in ascending batch order ([`ItemBatches::slots`]).
    ///
    /// # Errors
    /// Fails when a run cannot be opened.
    pub fn batches(&self) -> Result<ItemBatches<'_, T, H>, ArtifactError> {
        Ok(ItemBatches {
            files: &self.files,
            places: self.places.iter()?.peekable(),
            item: PhantomData,
        })
    }
}

/// The places of a [`BatchedItems`], taken one batch at a time, in ascending batch order.
pub struct ItemBatches<'a, T, H: Ord + Clone + DeserializeOwned> {
    files: &'a [PathBuf],
    places: Peekable<SortedIter<'a, (u64, H, u32, u64)>>,
    item: PhantomData<fn() -> T>,
}

impl<T, H> ItemBatches<'_, T, H>
where
    T: DeserializeOwned,
    H: DeserializeOwned + Ord + Clone,
{
    /// The items of batch `batch` (at or after the batches taken before; the places of
    /// skipped batches are passed over) in `slots` slots: `locate` tells from an item's
    /// leading fields which slot it is, if any; of several items for one slot, the one last
    /// in file order is kept.
    ///
    /// # Errors
    /// Fails when a place cannot be read back from a run.
    pub fn slots(
        &mut self,
        batch: u64,
        slots: usize,
        locate: impl Fn(&H) -> Option<usize>,
    ) -> Result<ItemSlots<T>, ArtifactError> {
        let mut at = vec![None; slots];
        loop {
            match self.places.peek() {
                None => break,
                Some(Ok((b, ..))) if *b > batch => break,
                Some(_) => {}
            }
            let Some(place) = self.places.next() else {
                break;
            };
            let (b, head, file, offset) = place?;
            if b < batch {
                continue;
            }
            if let Some(i) = locate(&head) {
                at[i] = Some((file as usize, offset));
            }
        }
        Ok(ItemSlots {
            files: self.files.to_vec(),
            at,
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

    /// Items are (key, payload) in two files; `batches` maps keys to batches.
    fn sorted(
        dir: &std::path::Path,
        files: &[&[(u32, &str)]],
        batches: &[(u32, u64)],
        limit: usize,
    ) -> BatchedItems<(u32, String), u32> {
        let paths: Vec<PathBuf> = (0..files.len())
            .map(|i| dir.join(format!("{i}.bin")))
            .collect();
        for (path, items) in paths.iter().zip(files) {
            let items: Vec<(u32, String)> = items.iter().map(|&(k, p)| (k, p.to_owned())).collect();
            write_all(path, KIND, &items).unwrap();
        }
        let runs = dir.join("runs");
        BatchedItems::sort(
            paths,
            KIND,
            batches.iter().map(|&b| Ok(b)),
            |&key: &u32| key,
            limit,
            move |what: &str, run| runs.join(format!("{what}-{run}.bin")),
        )
        .unwrap()
    }

    #[test]
    fn items_come_back_by_batch_and_slot_from_any_file() {
        for limit in [1, 2, 100] {
            let dir = tempfile::tempdir().unwrap();
            // Keys 10 and 30 are batch 0, 20 and 40 batch 2, 50 batch 3; 99 is in none.
            let items = sorted(
                dir.path(),
                &[&[(30, "c"), (10, "a"), (50, "e")], &[(99, "x"), (20, "b")]],
                &[(10, 0), (20, 2), (30, 0), (40, 2), (50, 3)],
                limit,
            );
            let mut batches = items.batches().unwrap();
            let slot = |keys: &'static [u32]| move |key: &u32| keys.iter().position(|k| k == key);
            let first = batches.slots(0, 2, slot(&[10, 30])).unwrap();
            let loaded = first.load([1, 0]).unwrap();
            let payloads: Vec<(usize, &str)> =
                loaded.iter().map(|(&i, (_, p))| (i, p.as_str())).collect();
            assert_eq!(payloads, [(0, "a"), (1, "c")], "limit {limit}");
            // Batch 1 has no item; batch 2 has key 20 but not 40.
            assert!(
                batches
                    .slots(1, 1, slot(&[20]))
                    .unwrap()
                    .load([0])
                    .unwrap()
                    .is_empty()
            );
            let third = batches.slots(2, 2, slot(&[20, 40])).unwrap();
            assert_eq!(third.load([0, 1]).unwrap()[&0].1, "b");
            assert!(third.load([1]).unwrap().is_empty());
            // Batch 3 is passed over on the way to batch 4, which has nothing.
            assert!(
                batches
                    .slots(4, 1, slot(&[50]))
                    .unwrap()
                    .load([0])
                    .unwrap()
                    .is_empty()
            );
            drop(batches);
            drop(items);
            // The spilled runs are gone with the sorted places.
            assert!(!dir.path().join("runs").exists(), "limit {limit}");
        }
    }

    #[test]
    fn of_several_items_for_one_slot_the_last_in_file_order_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let items = sorted(
            dir.path(),
            &[&[(7, "first"), (7, "second")], &[(7, "third")]],
            &[(7, 0)],
            1,
        );
        let slots = items
            .batches()
            .unwrap()
            .slots(0, 1, |_: &u32| Some(0))
            .unwrap();
        assert_eq!(slots.load([0]).unwrap()[&0].1, "third");
    }

    #[test]
    fn a_damaged_file_is_refused_when_opened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("0.bin");
        write_all(&path, KIND, &[(1_u32, "one".to_owned())]).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[18] ^= 0x20;
        std::fs::write(&path, &bytes).unwrap();
        let runs = dir.path().join("runs");
        let opened = BatchedItems::<(u32, String), u32>::sort(
            vec![path],
            KIND,
            [Ok((1_u32, 0_u64))],
            |&key: &u32| key,
            8,
            move |what: &str, run| runs.join(format!("{what}-{run}.bin")),
        );
        assert!(matches!(opened, Err(ArtifactError::Checksum { .. })));
    }
}

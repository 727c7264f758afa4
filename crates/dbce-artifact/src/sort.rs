//! Sorting more items than memory should hold: at most a fixed number are held; when more come,
//! each full batch is sorted and spilled to a run file, and the runs are merged as they are
//! read back. The sorted items can be read more than once.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{ArtifactError, ArtifactKind, ArtifactReader, ArtifactWriter};

/// Sorts items of type `T` holding at most `limit` of them: each full batch is sorted and
/// written as a run (an artifact file of `kind` at the path `run_path` gives for its number).
pub struct SpillSorter<T> {
    kind: ArtifactKind,
    run_path: Box<dyn Fn(usize) -> PathBuf + Send>,
    limit: usize,
    items: Vec<T>,
    runs: Vec<PathBuf>,
}

impl<T: Ord + Serialize + DeserializeOwned> SpillSorter<T> {
    /// A sorter holding at most `limit` items (at least one), spilling runs of `kind` to
    /// `run_path(0)`, `run_path(1)`, …
    pub fn new(
        kind: ArtifactKind,
        limit: usize,
        run_path: impl Fn(usize) -> PathBuf + Send + 'static,
    ) -> Self {
        Self {
            kind,
            run_path: Box::new(run_path),
            limit: limit.max(1),
            items: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// Adds `item`, spilling a run when `limit` items are held.
    ///
    /// # Errors
    /// Fails when a run cannot be written.
    pub fn push(&mut self, item: T) -> Result<(), ArtifactError> {
        self.items.push(item);
        if self.items.len() >= self.limit {
            self.spill()?;
        }
        Ok(())
    }

    fn spill(&mut self) -> Result<(), ArtifactError> {
        self.items.sort_unstable();
        let path = (self.run_path)(self.runs.len());
        let mut out = ArtifactWriter::create(&path, self.kind)?;
        for item in self.items.drain(..) {
            out.push(&item)?;
        }
        out.finish()?;
        self.runs.push(path);
        Ok(())
    }

    /// Every item pushed, sorted: in memory if no run was spilled, else the runs (the last
    /// batch spilled too), to be merged by [`Sorted::iter`].
    ///
    /// # Errors
    /// Fails when the last run cannot be written.
    pub fn sorted(mut self) -> Result<Sorted<T>, ArtifactError> {
        if self.runs.is_empty() {
            self.items.sort_unstable();
            return Ok(Sorted::InMemory(self.items));
        }
        if !self.items.is_empty() {
            self.spill()?;
        }
        Ok(Sorted::Runs {
            kind: self.kind,
            files: std::mem::take(&mut self.runs),
        })
    }
}

/// Items sorted by a [`SpillSorter`]: held in memory, or in run files merged on reading (the
/// files, and their folder once empty, are removed when this is dropped).
pub enum Sorted<T> {
    /// Everything fit in memory.
    InMemory(Vec<T>),
    /// The spilled runs, each sorted.
    Runs {
        /// Their kind.
        kind: ArtifactKind,
        /// Their files.
        files: Vec<PathBuf>,
    },
}

impl<T: Ord + Clone + DeserializeOwned> Sorted<T> {
    /// Whether there is no item (runs are only spilled when full, so never empty).
    pub fn is_empty(&self) -> bool {
        match self {
            Self::InMemory(items) => items.is_empty(),
            Self::Runs { files, .. } => files.is_empty(),
        }
    }

    /// The items in order, from the start; may be called again for another pass.
    ///
    /// # Errors
    /// Fails when a run cannot be opened; the iterator, when an item cannot be read.
    pub fn iter(&self) -> Result<SortedIter<'_, T>, ArtifactError> {
        match self {
            Self::InMemory(items) => Ok(SortedIter::InMemory(items.iter())),
            Self::Runs { kind, files } => {
                let mut runs = Vec::with_capacity(files.len());
                let mut heads = BinaryHeap::new();
                for (run, path) in files.iter().enumerate() {
                    let mut reader = ArtifactReader::<T>::open(path, *kind)?;
                    if let Some(item) = reader.next() {
                        heads.push(Reverse((item?, run)));
                    }
                    runs.push(reader);
                }
                Ok(SortedIter::Merged { runs, heads })
            }
        }
    }
}

impl<T> Drop for Sorted<T> {
    fn drop(&mut self) {
        if let Self::Runs { files, .. } = self {
            // The runs are scratch: a file left behind by a failed removal is rewritten by the
            // next run of the same step and never read as output.
            for file in files.iter() {
                let _ = std::fs::remove_file(file);
            }
            if let Some(dir) = files.first().and_then(|f| f.parent()) {
                // Only once empty: the folder may hold other sorters' runs.
                let _ = std::fs::remove_dir(dir);
            }
        }
    }
}

/// One pass over [`Sorted`] items.
pub enum SortedIter<'a, T> {
    /// Over the items in memory.
    InMemory(std::slice::Iter<'a, T>),
    /// A k-way merge of the runs.
    Merged {
        /// A reader per run.
        runs: Vec<ArtifactReader<T>>,
        /// The next item of each run that has one, with the run's number.
        heads: BinaryHeap<Reverse<(T, usize)>>,
    },
}

impl<T: Ord + Clone + DeserializeOwned> Iterator for SortedIter<'_, T> {
    type Item = Result<T, ArtifactError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Self::InMemory(items) => items.next().cloned().map(Ok),
            Self::Merged { runs, heads } => {
                let Reverse((item, run)) = heads.pop()?;
                match runs[run].next() {
                    Some(Ok(next)) => heads.push(Reverse((next, run))),
                    Some(Err(error)) => return Some(Err(error)),
                    None => {}
                }
                Some(Ok(item))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const KIND: ArtifactKind = ArtifactKind {
        tag: *b"SORT",
        version: 1,
    };

    proptest! {
        #[test]
        fn spilled_runs_merge_to_the_full_sort_on_every_pass(
            items in proptest::collection::vec((0_u64..5, 0_u8..30), 0..120),
            limit in 1_usize..25,
        ) {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("runs");
            let base = dir.clone();
            let mut sorter = SpillSorter::new(KIND, limit, move |run| base.join(format!("{run}.bin")));
            for item in &items {
                sorter.push(*item).unwrap();
            }
            let sorted = sorter.sorted().unwrap();
            prop_assert_eq!(sorted.is_empty(), items.is_empty());
            let mut expected = items.clone();
            expected.sort_unstable();
            for _ in 0..2 {
                let got: Vec<(u64, u8)> = sorted.iter().unwrap().map(Result::unwrap).collect();
                prop_assert_eq!(&got, &expected);
            }
            prop_assert_eq!(dir.exists(), items.len() >= limit);
            drop(sorted);
            prop_assert!(!dir.exists());
        }
    }
}

//! dbce's intermediate files: a typed, versioned, checksummed sequence of serde items, written
//! atomically. Its own crate because the format has one job, knows nothing of pages or stages,
//! and every stage and tool that reads a work directory shares it.
//!
//! Layout (all integers little-endian), documented in `docs/formats.md`:
//!
//! ```text
//! "DBCE" kind[4] version:u32          header
//! ( length:u32 postcard(item) )*      items, length < 0xFFFF_FFFF
//! 0xFFFF_FFFF count:u64 crc32:u32     trailer; the CRC-32 covers every byte before it
//! ```
//!
//! A file is written under a temporary name and renamed into place when complete
//! ([`atomic::AtomicFile`]), so a file that exists under its final name is whole; the trailer
//! still lets a reader tell a damaged or truncated copy from a good one.
//!
//! ```
//! use dbce_artifact::{ArtifactKind, read_all, write_all};
//!
//! const PAIRS: ArtifactKind = ArtifactKind { tag: *b"PAIR", version: 1 };
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("pairs.bin");
//! write_all(&path, PAIRS, &[(1_u32, "one".to_owned()), (2, "two".to_owned())])?;
//! let pairs: Vec<(u32, String)> = read_all(&path, PAIRS)?;
//! assert_eq!(pairs[1], (2, "two".to_owned()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod atomic;
mod item_index;
mod ordered;
mod sort;

pub use item_index::{BatchedItems, ItemBatches, ItemSlots};
pub use ordered::OrderedItems;
pub use sort::{Sorted, SortedIter, SpillSorter};

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::atomic::{AtomicFile, WriteError};

const MAGIC: &[u8; 4] = b"DBCE";
const END: u32 = u32::MAX;

/// What an intermediate file holds, with the version of its item layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArtifactKind {
    /// Four ASCII bytes naming the content, e.g. `PAGE`.
    pub tag: [u8; 4],
    /// The layout version of the items; bumped whenever the item type changes.
    pub version: u32,
}

/// An intermediate file could not be written or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArtifactError {
    /// Reading or writing the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The file is not a dbce intermediate file of the expected kind and version.
    #[error("{path}: expected a {expected} file, found {found}")]
    WrongKind {
        /// The file.
        path: PathBuf,
        /// The kind expected, as `TAG/version`.
        expected: String,
        /// What the header says, as `TAG/version`, or `no dbce header`.
        found: String,
    },
    /// The file ends before its trailer: it was cut short.
    #[error("{path}: truncated after {items} items")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Items read before the end.
        items: u64,
    },
    /// The checksum or item count in the trailer does not match the content.
    #[error("{path}: checksum mismatch, the file is damaged")]
    Checksum {
        /// The file.
        path: PathBuf,
    },
    /// An item could not be encoded or decoded.
    #[error("{path}: item {item} cannot be {action}")]
    Item {
        /// The file.
        path: PathBuf,
        /// The item's index.
        item: u64,
        /// `encoded` or `decoded`.
        action: &'static str,
    },
}

fn written(e: WriteError) -> ArtifactError {
    ArtifactError::Io {
        path: e.path,
        source: e.source,
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> ArtifactError + '_ {
    move |source| ArtifactError::Io {
        path: path.to_owned(),
        source,
    }
}

impl ArtifactKind {
    pub(crate) fn label(&self) -> String {
        format!("{}/{}", String::from_utf8_lossy(&self.tag), self.version)
    }

    pub(crate) fn header(&self) -> [u8; 12] {
        let mut header = [0; 12];
        header[..4].copy_from_slice(MAGIC);
        header[4..8].copy_from_slice(&self.tag);
        header[8..].copy_from_slice(&self.version.to_le_bytes());
        header
    }
}

/// Writes items of type `T` to a temporary file that becomes `path` on [`ArtifactWriter::finish`].
pub struct ArtifactWriter<T> {
    path: PathBuf,
    out: AtomicFile,
    crc: crc32fast::Hasher,
    count: u64,
    buffer: Vec<u8>,
    item: PhantomData<fn(&T)>,
}

impl<T: Serialize> ArtifactWriter<T> {
    /// Starts writing `path` (its parent directories are created).
    ///
    /// # Errors
    /// Fails when the temporary file cannot be created.
    pub fn create(path: &Path, kind: ArtifactKind) -> Result<Self, ArtifactError> {
        Self::with_buffer(path, kind, 1 << 20)
    }

    /// As [`ArtifactWriter::create`], with a write buffer of `capacity` bytes instead of 1 MiB:
    /// for a writer among many open at once whose items are large, where bigger buffers only
    /// add to the peak memory.
    ///
    /// # Errors
    /// Fails when the temporary file cannot be created.
    pub fn with_buffer(
        path: &Path,
        kind: ArtifactKind,
        capacity: usize,
    ) -> Result<Self, ArtifactError> {
        let mut writer = Self {
            path: path.to_owned(),
            out: AtomicFile::create(path, capacity).map_err(written)?,
            crc: crc32fast::Hasher::new(),
            count: 0,
            buffer: Vec::new(),
            item: PhantomData,
        };
        writer.write_bytes(&kind.header())?;
        Ok(writer)
    }

    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), ArtifactError> {
        self.crc.update(bytes);
        self.out.write_all(bytes).map_err(written)
    }

    /// Appends one item.
    ///
    /// # Errors
    /// Fails when the item cannot be encoded or written.
    pub fn push(&mut self, item: &T) -> Result<(), ArtifactError> {
        let encoded = postcard::to_extend(item, std::mem::take(&mut self.buffer));
        let encoded = encoded
            .ok()
            .filter(|e| e.len() < END as usize)
            .ok_or_else(|| ArtifactError::Item {
                path: self.path.clone(),
                item: self.count,
                action: "encoded",
            })?;
        // Checked just above: the length is below u32::MAX.
        let length = u32::try_from(encoded.len()).unwrap_or(END);
        self.write_bytes(&length.to_le_bytes())?;
        self.write_bytes(&encoded)?;
        self.buffer = encoded;
        self.buffer.clear();
        self.count += 1;
        Ok(())
    }

    /// Writes the trailer, flushes to disk and renames the file into place; returns the number
    /// of items written.
    ///
    /// # Errors
    /// Fails when writing, syncing or renaming fails.
    pub fn finish(mut self) -> Result<u64, ArtifactError> {
        let count = self.count;
        self.write_bytes(&END.to_le_bytes())?;
        self.write_bytes(&count.to_le_bytes())?;
        let crc = self.crc.clone().finalize();
        self.out.write_all(&crc.to_le_bytes()).map_err(written)?;
        self.out.finish(true).map_err(written)?;
        Ok(count)
    }
}

/// Writes all `items` to `path` atomically.
///
/// # Errors
/// As [`ArtifactWriter::create`], [`ArtifactWriter::push`] and [`ArtifactWriter::finish`].
pub fn write_all<'a, T: Serialize + 'a>(
    path: &Path,
    kind: ArtifactKind,
    items: impl IntoIterator<Item = &'a T>,
) -> Result<u64, ArtifactError> {
    let mut writer = ArtifactWriter::create(path, kind)?;
    for item in items {
        writer.push(item)?;
    }
    writer.finish()
}

/// Reads the items of an intermediate file in order, checking its kind, version and checksum.
///
/// The checksum is verified when the last item has been read; a damaged file therefore ends
/// the iteration with an error, which callers treat as the failure of the whole stage step.
pub struct ArtifactReader<T> {
    path: PathBuf,
    input: BufReader<File>,
    crc: crc32fast::Hasher,
    count: u64,
    /// Bytes read so far: where the next frame starts.
    offset: u64,
    done: bool,
    buffer: Vec<u8>,
    item: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> ArtifactReader<T> {
    /// Opens `path`, expecting a file of `kind`.
    ///
    /// # Errors
    /// Fails when the file cannot be opened or is not of `kind`.
    pub fn open(path: &Path, kind: ArtifactKind) -> Result<Self, ArtifactError> {
        let file = File::open(path).map_err(io_error(path))?;
        let mut reader = Self {
            path: path.to_owned(),
            input: BufReader::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
            count: 0,
            offset: 0,
            done: false,
            buffer: Vec::new(),
            item: PhantomData,
        };
        let mut header = [0; 12];
        let complete = reader.read_exact_into(&mut header)?;
        if !complete || header != kind.header() {
            let found = if complete && header.starts_with(MAGIC) {
                let version = u32::from_le_bytes([header[8], header[9], header[10], header[11]]);
                let tag = [header[4], header[5], header[6], header[7]];
                ArtifactKind { tag, version }.label()
            } else {
                "no dbce header".to_owned()
            };
            return Err(ArtifactError::WrongKind {
                path: path.to_owned(),
                expected: kind.label(),
                found,
            });
        }
        Ok(reader)
    }

    /// Reads exactly `buf.len()` bytes; `false` if the file ended first.
    fn read_exact_into(&mut self, buf: &mut [u8]) -> Result<bool, ArtifactError> {
        match self.input.read_exact(buf) {
            Ok(()) => {
                self.crc.update(buf);
                self.offset += buf.len() as u64;
                Ok(true)
            }
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(false),
            Err(e) => Err(io_error(&self.path)(e)),
        }
    }

    fn truncated(&self) -> ArtifactError {
        ArtifactError::Truncated {
            path: self.path.clone(),
            items: self.count,
        }
    }

    /// The next item's offset in the file (for [`ArtifactItems::read_at`]) and its leading
    /// fields decoded as `H`, a type whose serde layout begins the item's (its first field, or
    /// a struct of its first fields); `None` after the last item, once the trailer checks out.
    /// Cheaper than decoding whole items when a pass only needs to know where each one is.
    ///
    /// # Errors
    /// Fails when the file is truncated or damaged, or the item does not begin with an `H`.
    pub fn next_head<H: DeserializeOwned>(&mut self) -> Result<Option<(u64, H)>, ArtifactError> {
        let item = self.count;
        let Some((offset, bytes)) = self.next_frame()? else {
            return Ok(None);
        };
        let head = postcard::take_from_bytes(bytes).ok().map(|(head, _)| head);
        head.map(|head| Some((offset, head)))
            .ok_or_else(|| self.undecodable(item))
    }

    /// The next item's offset and encoded bytes; `None` after the last item, once the trailer
    /// checks out.
    fn next_frame(&mut self) -> Result<Option<(u64, &[u8])>, ArtifactError> {
        if self.done {
            return Ok(None);
        }
        let at = self.offset;
        let mut length = [0; 4];
        if !self.read_exact_into(&mut length)? {
            self.done = true;
            return Err(self.truncated());
        }
        let length = u32::from_le_bytes(length);
        if length == END {
            self.done = true;
            return self.check_trailer().map(|()| None);
        }
        self.buffer.resize(length as usize, 0);
        let mut buffer = std::mem::take(&mut self.buffer);
        let complete = self.read_exact_into(&mut buffer)?;
        self.buffer = buffer;
        if !complete {
            self.done = true;
            return Err(self.truncated());
        }
        self.count += 1;
        Ok(Some((at, &self.buffer)))
    }

    fn next_item(&mut self) -> Result<Option<T>, ArtifactError> {
        let item = self.count;
        let Some((_, bytes)) = self.next_frame()? else {
            return Ok(None);
        };
        let decoded = postcard::from_bytes(bytes).ok();
        decoded.map(Some).ok_or_else(|| self.undecodable(item))
    }

    fn undecodable(&self, item: u64) -> ArtifactError {
        ArtifactError::Item {
            path: self.path.clone(),
            item,
            action: "decoded",
        }
    }

    fn check_trailer(&mut self) -> Result<(), ArtifactError> {
        let mut count = [0; 8];
        if !self.read_exact_into(&mut count)? {
            return Err(self.truncated());
        }
        let expected = self.crc.clone().finalize();
        let mut crc = [0; 4];
        self.input
            .read_exact(&mut crc)
            .map_err(|_| self.truncated())?;
        let mut rest = [0; 1];
        let trailing = self.input.read(&mut rest).map_err(io_error(&self.path))?;
        if u64::from_le_bytes(count) != self.count
            || u32::from_le_bytes(crc) != expected
            || trailing > 0
        {
            return Err(ArtifactError::Checksum {
                path: self.path.clone(),
            });
        }
        Ok(())
    }
}

impl<T: DeserializeOwned> Iterator for ArtifactReader<T> {
    type Item = Result<T, ArtifactError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.next_item();
        self.done = !matches!(next, Ok(Some(_)));
        next.transpose()
    }
}

/// Reads single items of an intermediate file at the offsets [`ArtifactReader::next_head`]
/// gave, so that a stage can keep offsets instead of items. It checks neither the header nor
/// the checksum: it is meant for a file that one complete [`ArtifactReader`] pass has checked.
pub struct ArtifactItems<T> {
    path: PathBuf,
    input: BufReader<File>,
    buffer: Vec<u8>,
    item: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> ArtifactItems<T> {
    /// Opens `path` for reading items by offset.
    ///
    /// # Errors
    /// Fails when the file cannot be opened.
    pub fn open(path: &Path) -> Result<Self, ArtifactError> {
        let file = File::open(path).map_err(io_error(path))?;
        Ok(Self {
            path: path.to_owned(),
            input: BufReader::with_capacity(1 << 16, file),
            buffer: Vec::new(),
            item: PhantomData,
        })
    }

    /// The item whose frame starts at `offset`.
    ///
    /// # Errors
    /// Fails when the file cannot be read there or the bytes there are not an item.
    pub fn read_at(&mut self, offset: u64) -> Result<T, ArtifactError> {
        let damaged = |path: &Path| ArtifactError::Item {
            path: path.to_owned(),
            item: offset,
            action: "decoded",
        };
        self.input
            .seek(SeekFrom::Start(offset))
            .map_err(io_error(&self.path))?;
        let mut length = [0; 4];
        self.input
            .read_exact(&mut length)
            .map_err(io_error(&self.path))?;
        let length = u32::from_le_bytes(length);
        if length == END {
            return Err(damaged(&self.path));
        }
        self.buffer.resize(length as usize, 0);
        self.input
            .read_exact(&mut self.buffer)
            .map_err(io_error(&self.path))?;
        postcard::from_bytes(&self.buffer).map_err(|_| damaged(&self.path))
    }
}

/// Reads every item of `path`.
///
/// # Errors
/// As [`ArtifactReader::open`] and its iteration.
pub fn read_all<T: DeserializeOwned>(
    path: &Path,
    kind: ArtifactKind,
) -> Result<Vec<T>, ArtifactError> {
    ArtifactReader::open(path, kind)?.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const KIND: ArtifactKind = ArtifactKind {
        tag: *b"TEST",
        version: 3,
    };

    proptest! {
        #[test]
        fn items_round_trip(items in proptest::collection::vec((any::<u64>(), ".{0,40}"), 0..50)) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("x.bin");
            prop_assert_eq!(write_all(&path, KIND, &items).unwrap(), items.len() as u64);
            prop_assert_eq!(read_all::<(u64, String)>(&path, KIND).unwrap(), items);
        }
    }

    fn written(items: &[u32]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.bin");
        write_all(&path, KIND, items).unwrap();
        (dir, path)
    }

    #[test]
    fn no_temporary_file_is_left_behind() {
        let (dir, _) = written(&[1, 2]);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["x.bin"]);
    }

    #[test]
    fn truncation_and_damage_are_detected() {
        let (_dir, path) = written(&[1, 2, 3, 400_000]);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
        assert!(matches!(
            read_all::<u32>(&path, KIND),
            Err(ArtifactError::Truncated { .. })
        ));
        let mut damaged = bytes.clone();
        damaged[16] ^= 1;
        std::fs::write(&path, &damaged).unwrap();
        assert!(matches!(
            read_all::<u32>(&path, KIND),
            Err(ArtifactError::Checksum { .. })
        ));
    }

    #[test]
    fn items_are_read_back_at_their_frames_offsets() {
        let items: Vec<(u32, String)> = (0..40).map(|i| (i, "x".repeat(i as usize))).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.bin");
        write_all(&path, KIND, &items).unwrap();
        let mut reader = ArtifactReader::<(u32, String)>::open(&path, KIND).unwrap();
        let mut offsets = Vec::new();
        while let Some((offset, first)) = reader.next_head::<u32>().unwrap() {
            offsets.push((first, offset));
        }
        assert_eq!(offsets.len(), items.len());
        let mut at = ArtifactItems::<(u32, String)>::open(&path).unwrap();
        for &(i, offset) in offsets.iter().rev() {
            assert_eq!(at.read_at(offset).unwrap(), items[i as usize]);
        }
    }

    #[test]
    fn wrong_kind_or_version_is_refused() {
        let (_dir, path) = written(&[1]);
        let other = ArtifactKind {
            tag: *b"TEST",
            version: 4,
        };
        let error = read_all::<u32>(&path, other).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("{}: expected a TEST/4 file, found TEST/3", path.display())
        );
    }
}

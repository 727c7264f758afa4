//! `read/doms/PART/RANK.bin` (`WorkDir::read_doms`): each page's sanitised DOM as stage
//! `read` parsed it, so stage `annotate` reads it back by position instead of fetching the
//! record from its archive and parsing it again.
//!
//! An intermediate file ([`dbce_artifact`], kind [`DOMS`]) of [`PageDom`] items: the capture
//! (page id, input file, record offset: a record read twice has one id) and its DOM
//! ([`Document::encode`], LZ4-compressed: [`PackedDom`]). Stage `annotate` reads them a chunk
//! of a site at a time ([`DomStore`]), like the words.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use dbce_artifact::{ArtifactError, ArtifactKind};
use dbce_dom::Document;
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::fetch::FetchError;
use dbce_artifact::{BatchedItems, ItemBatches, ItemSlots};
use dbce_page::{FileId, PageId, PageRef, position};

/// The kind and version of a DOM file.
pub const DOMS: ArtifactKind = ArtifactKind {
    tag: *b"DOMS",
    version: 1,
};

/// Which capture a DOM is of: the leading fields of a [`PageDom`]; ordered by page first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Capture {
    /// The page.
    pub page: PageId,
    /// The input file of its record.
    pub file: FileId,
    /// The record's offset in that file.
    pub offset: u64,
}

impl Capture {
    /// The capture `page` is.
    pub fn of(page: &PageRef) -> Self {
        Self {
            page: page.page,
            file: page.source.file,
            offset: page.source.offset,
        }
    }
}

/// One item of a DOM file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageDom {
    /// Which capture the DOM is of.
    pub capture: Capture,
    /// Its DOM.
    pub dom: PackedDom,
}

/// A page's DOM as a DOM file holds it: its encoding ([`Document::encode`]) compressed as one
/// LZ4 block, the uncompressed length first (u32, little-endian).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedDom(Vec<u8>);

impl PackedDom {
    /// `doc`, packed.
    pub fn of(doc: &Document) -> Self {
        let mut encoded = Vec::new();
        doc.encode(&mut encoded);
        let mut packed = lz4_flex::compress_prepend_size(&encoded);
        // The compressor reserves the worst case, more than twice what pages need: stage
        // `read` holds a batch of these.
        packed.shrink_to_fit();
        Self(packed)
    }

    /// The document back.
    ///
    /// # Errors
    /// [`FetchError::DomDamaged`] when the bytes do not decompress or decode.
    pub fn document(&self) -> Result<Document, FetchError> {
        let encoded =
            lz4_flex::decompress_size_prepended(&self.0).map_err(|_| FetchError::DomDamaged)?;
        Document::decode(&encoded).map_err(|_| FetchError::DomDamaged)
    }
}

/// As bytes (a length and the bytes in postcard), not as a sequence of numbers.
impl Serialize for PackedDom {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for PackedDom {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl Visitor<'_> for Bytes {
            type Value = PackedDom;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a packed DOM's bytes")
            }
            fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<PackedDom, E> {
                Ok(PackedDom(bytes.to_vec()))
            }
            fn visit_byte_buf<E: de::Error>(self, bytes: Vec<u8>) -> Result<PackedDom, E> {
                Ok(PackedDom(bytes))
            }
        }
        deserializer.deserialize_byte_buf(Bytes)
    }
}

/// Where each DOM lies in a partition's DOM files, sorted by the batch of its page.
pub(crate) type DomPlaces = BatchedItems<PageDom, Capture>;

/// Where each page's DOM lies in a partition's DOM files, by index into the pages of one pass.
pub(crate) struct DomStore(ItemSlots<PageDom>);

impl DomStore {
    /// Checks the DOM files at `paths` (a partition's, one per read shard) and sorts where
    /// each DOM lies by the batch of its page (`batches`, by page id), for
    /// [`DomStore::select`]; at most `limit` places in memory, the rest spilled to `runs`.
    ///
    /// # Errors
    /// Fails when a file cannot be read, is of another kind, or is truncated or damaged, or
    /// a run cannot be written.
    pub(crate) fn places(
        paths: Vec<PathBuf>,
        batches: impl IntoIterator<Item = Result<(PageId, u64), ArtifactError>>,
        limit: usize,
        runs: impl Fn(&str, usize) -> PathBuf + Clone + Send + 'static,
    ) -> Result<DomPlaces, ArtifactError> {
        BatchedItems::sort(paths, DOMS, batches, |c: &Capture| c.page, limit, runs)
    }

    /// Where the DOM of each of `pages` (batch `batch`'s, sorted by id, one capture each) is.
    ///
    /// # Errors
    /// Fails when a spilled place cannot be read back.
    pub(crate) fn select(
        places: &mut ItemBatches<'_, PageDom, Capture>,
        batch: u64,
        pages: &[PageRef],
    ) -> Result<Self, ArtifactError> {
        let slots = places.slots(batch, pages.len(), |capture: &Capture| {
            let i = position(pages, capture.page)?;
            (Capture::of(&pages[i]) == *capture).then_some(i)
        })?;
        Ok(Self(slots))
    }

    /// The DOMs of the pages at `indices` that have one.
    ///
    /// # Errors
    /// Fails when a file cannot be read or an item does not decode.
    pub(crate) fn load(
        &self,
        indices: impl IntoIterator<Item = usize>,
    ) -> Result<BTreeMap<usize, PackedDom>, ArtifactError> {
        let items = self.0.load(indices)?;
        Ok(items.into_iter().map(|(i, item)| (i, item.dom)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbce_artifact::{ArtifactWriter, read_all};
    use dbce_dom::SanitizeConfig;

    fn packed(html: &str) -> PackedDom {
        PackedDom::of(&Document::parse(html, &SanitizeConfig::default()).unwrap())
    }

    #[test]
    fn a_dom_comes_back_through_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.bin");
        let item = PageDom {
            capture: Capture {
                page: PageId([7; 16]),
                file: FileId(2),
                offset: 1234,
            },
            dom: packed("<title>one</title><p>words here</p>"),
        };
        let mut writer = ArtifactWriter::with_buffer(&path, DOMS, 1024).unwrap();
        writer.push(&item).unwrap();
        writer.finish().unwrap();
        let back: Vec<PageDom> = read_all(&path, DOMS).unwrap();
        assert_eq!(back, [item]);
        let doc = back[0].dom.document().unwrap();
        assert_eq!(doc.title(), Some("one"));
    }

    #[test]
    fn damaged_bytes_are_an_error_not_a_document() {
        let PackedDom(mut bytes) = packed("<p>words</p>");
        let last = bytes.len() - 1;
        bytes[last] ^= 0x40;
        bytes.truncate(last - 1);
        assert!(matches!(
            PackedDom(bytes).document(),
            Err(FetchError::DomDamaged)
        ));
        assert!(matches!(
            PackedDom(Vec::new()).document(),
            Err(FetchError::DomDamaged)
        ));
    }
}

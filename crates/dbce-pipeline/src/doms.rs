//! `read/doms/PART/RANK.bin` ([`WorkDir::read_doms`](crate::WorkDir::read_doms)): each page's
//! sanitised DOM as stage `read` parsed it ([`Document::encode`], LZ4-compressed: [`packed`]),
//! so stage `annotate` reads it back by position instead of fetching the record from its
//! archive and parsing it again.
//!
//! Layout (integers little-endian, documented in `docs/formats.md`):
//!
//! ```text
//! "DBCE" "DOMS" version:u32                                            header
//! ( length:u32 crc32:u32 page[16] file:u32 offset:u64 bytes[length] )*  one item per page
//! 0xFFFF_FFFF count:u64                                                trailer
//! ```
//!
//! Each item carries the CRC-32 of its bytes, checked when it is read, because `annotate` reads
//! items one at a time in site order rather than the file front to back; the item's page id,
//! input file and record offset say which capture it is (a record read twice has one id).

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufReader, Read as _};
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};

use dbce_dom::Document;

use crate::artifact::{ArtifactError, ArtifactKind};
use crate::atomic::AtomicFile;
use crate::fetch::FetchError;
use crate::page::{FileId, PageId, PageRef};

/// The kind and version of a DOM file.
pub const DOMS: ArtifactKind = ArtifactKind {
    tag: *b"DOMS",
    version: 1,
};

const END: u32 = u32::MAX;
/// Length, CRC-32, page id, file and offset.
const ITEM_HEADER: usize = 4 + 4 + 16 + 4 + 8;

/// `doc` as an item of a DOM file holds it: its encoding ([`Document::encode`]) compressed as
/// one LZ4 block, the uncompressed length first (u32, little-endian).
pub fn packed(doc: &Document) -> Vec<u8> {
    let mut encoded = Vec::new();
    doc.encode(&mut encoded);
    let mut packed = lz4_flex::compress_prepend_size(&encoded);
    // The compressor reserves the worst case, more than twice what pages need: stage `read`
    // holds a batch of these.
    packed.shrink_to_fit();
    packed
}

/// Writes a shard's DOMs of one partition to a temporary file that becomes its path on
/// [`DomWriter::finish`].
pub struct DomWriter {
    path: PathBuf,
    out: AtomicFile,
    count: u64,
}

impl DomWriter {
    /// Starts writing `path` (its parent directories are created).
    ///
    /// # Errors
    /// Fails when the temporary file cannot be created or written.
    pub fn create(path: &Path) -> Result<Self, ArtifactError> {
        // A small buffer: a shard writes one file per partition at once, and items are tens of
        // kilobytes, so larger buffers only add to the peak memory.
        let mut out = AtomicFile::create(path, 1 << 16).map_err(written)?;
        out.write_all(&DOMS.header()).map_err(written)?;
        Ok(Self {
            path: path.to_owned(),
            out,
            count: 0,
        })
    }

    /// Appends `page`'s DOM, as [`packed`] makes it.
    ///
    /// # Errors
    /// Fails when writing fails or the DOM is 4 GiB or more.
    pub fn push(&mut self, page: &PageRef, dom: &[u8]) -> Result<(), ArtifactError> {
        let length = u32::try_from(dom.len())
            .ok()
            .filter(|&n| n != END)
            .ok_or_else(|| ArtifactError::Item {
                path: self.path.clone(),
                item: self.count,
                action: "encoded",
            })?;
        let mut header = [0; ITEM_HEADER];
        header[..4].copy_from_slice(&length.to_le_bytes());
        header[4..8].copy_from_slice(&crc32fast::hash(dom).to_le_bytes());
        header[8..24].copy_from_slice(&page.page.0);
        header[24..28].copy_from_slice(&page.source.file.0.to_le_bytes());
        header[28..].copy_from_slice(&page.source.offset.to_le_bytes());
        self.out.write_all(&header).map_err(written)?;
        self.out.write_all(dom).map_err(written)?;
        self.count += 1;
        Ok(())
    }

    /// Writes the trailer, flushes to disk and renames the file into place; returns the number
    /// of DOMs written.
    ///
    /// # Errors
    /// Fails when writing, syncing or renaming fails.
    pub fn finish(mut self) -> Result<u64, ArtifactError> {
        self.out.write_all(&END.to_le_bytes()).map_err(written)?;
        self.out
            .write_all(&self.count.to_le_bytes())
            .map_err(written)?;
        self.out.finish(true).map_err(written)?;
        Ok(self.count)
    }
}

fn written(e: crate::atomic::WriteError) -> ArtifactError {
    ArtifactError::Io {
        path: e.path,
        source: e.source,
    }
}

/// Where one DOM lies.
#[derive(Debug, Clone, Copy)]
struct Located {
    file: usize,
    offset: u64,
    length: u32,
    crc: u32,
}

/// The DOMs of a partition, read one at a time by page.
#[derive(Debug)]
pub struct DomStore {
    files: Vec<File>,
    at: HashMap<(PageId, FileId, u64), Located>,
}

impl DomStore {
    /// Indexes the DOM files at `paths` (every read shard's file of one partition): reads each
    /// item's header, not its bytes.
    ///
    /// # Errors
    /// Fails when a file cannot be read, is not a DOM file of this version, or is cut short.
    pub fn open(paths: &[PathBuf]) -> Result<Self, ArtifactError> {
        let mut store = Self {
            files: Vec::with_capacity(paths.len()),
            at: HashMap::new(),
        };
        for path in paths {
            store.index_file(path)?;
        }
        Ok(store)
    }

    fn index_file(&mut self, path: &Path) -> Result<(), ArtifactError> {
        let io_error = |source: io::Error| ArtifactError::Io {
            path: path.to_owned(),
            source,
        };
        let file = File::open(path).map_err(io_error)?;
        let mut input = BufReader::with_capacity(1 << 16, file.try_clone().map_err(io_error)?);
        let mut header = [0; 12];
        let complete = read_exact_or_end(&mut input, &mut header).map_err(io_error)?;
        if !complete || header != DOMS.header() {
            return Err(ArtifactError::WrongKind {
                path: path.to_owned(),
                expected: DOMS.label(),
                found: "another header".to_owned(),
            });
        }
        let mut offset = header.len() as u64;
        let mut count = 0_u64;
        let truncated = |items| ArtifactError::Truncated {
            path: path.to_owned(),
            items,
        };
        loop {
            let mut length = [0; 4];
            if !read_exact_or_end(&mut input, &mut length).map_err(io_error)? {
                return Err(truncated(count));
            }
            let length = u32::from_le_bytes(length);
            if length == END {
                let mut written = [0; 8];
                if !read_exact_or_end(&mut input, &mut written).map_err(io_error)? {
                    return Err(truncated(count));
                }
                let mut rest = [0; 1];
                let trailing = input.read(&mut rest).map_err(io_error)?;
                if u64::from_le_bytes(written) != count || trailing > 0 {
                    return Err(ArtifactError::Checksum {
                        path: path.to_owned(),
                    });
                }
                break;
            }
            let mut rest = [0; ITEM_HEADER - 4];
            if !read_exact_or_end(&mut input, &mut rest).map_err(io_error)? {
                return Err(truncated(count));
            }
            let field = |range: std::ops::Range<usize>| &rest[range];
            let crc = u32::from_le_bytes(field(0..4).try_into().unwrap_or_default());
            let page = PageId(field(4..20).try_into().unwrap_or_default());
            let source_file = FileId(u32::from_le_bytes(
                field(20..24).try_into().unwrap_or_default(),
            ));
            let source_offset = u64::from_le_bytes(field(24..32).try_into().unwrap_or_default());
            offset += ITEM_HEADER as u64;
            // The first copy of a record read twice stands, as `annotate` keeps the first.
            self.at
                .entry((page, source_file, source_offset))
                .or_insert(Located {
                    file: self.files.len(),
                    offset,
                    length,
                    crc,
                });
            input.seek_relative(i64::from(length)).map_err(io_error)?;
            offset += u64::from(length);
            count += 1;
        }
        self.files.push(file);
        Ok(())
    }

    /// The DOM stage `read` saved for `page`.
    ///
    /// # Errors
    /// [`FetchError::DomMissing`] when the store has no DOM for this capture,
    /// [`FetchError::DomDamaged`] when its bytes fail their checksum or do not decode, and
    /// [`FetchError::Io`] when they cannot be read.
    pub fn document(&self, page: &PageRef) -> Result<Document, FetchError> {
        let located = self
            .at
            .get(&(page.page, page.source.file, page.source.offset))
            .ok_or(FetchError::DomMissing)?;
        let mut bytes = vec![0; located.length as usize];
        self.files[located.file]
            .read_exact_at(&mut bytes, located.offset)
            .map_err(|e| FetchError::Io(std::sync::Arc::new(e)))?;
        if crc32fast::hash(&bytes) != located.crc {
            return Err(FetchError::DomDamaged);
        }
        let encoded =
            lz4_flex::decompress_size_prepended(&bytes).map_err(|_| FetchError::DomDamaged)?;
        Document::decode(&encoded).map_err(|_| FetchError::DomDamaged)
    }
}

/// Reads exactly `buf.len()` bytes; `false` if the input ended first.
fn read_exact_or_end(input: &mut impl io::Read, buf: &mut [u8]) -> io::Result<bool> {
    match input.read_exact(buf) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{PayloadDigest, SiteKey, Source, Timestamp};
    use dbce_classify::PageTypeGuess;
    use dbce_dom::SanitizeConfig;

    fn page(id: u8, offset: u64) -> PageRef {
        PageRef {
            page: PageId([id; 16]),
            record_id: format!("<urn:test:{id}>"),
            url: format!("http://e.com/{id}"),
            site: SiteKey("e.com".into()),
            captured: Timestamp(20_240_101_000_000),
            payload: PayloadDigest([id; 20]),
            source: Source {
                file: FileId(0),
                offset,
                length: 10,
            },
            tokens: 0,
            signature: Vec::new(),
            page_type: PageTypeGuess::default(),
        }
    }

    fn encoded(html: &str) -> Vec<u8> {
        packed(&Document::parse(html, &SanitizeConfig::default()).unwrap())
    }

    fn title(doc: &Document) -> &str {
        doc.title().unwrap_or_default()
    }

    #[test]
    fn pages_come_back_by_id_from_any_shard() {
        let dir = tempfile::tempdir().unwrap();
        let paths = [dir.path().join("a/0.bin"), dir.path().join("a/1.bin")];
        let mut first = DomWriter::create(&paths[0]).unwrap();
        first
            .push(&page(1, 0), &encoded("<title>one</title>"))
            .unwrap();
        first
            .push(&page(2, 50), &encoded("<title>two</title>"))
            .unwrap();
        assert_eq!(first.finish().unwrap(), 2);
        let mut second = DomWriter::create(&paths[1]).unwrap();
        second
            .push(&page(3, 0), &encoded("<title>three</title>"))
            .unwrap();
        second.finish().unwrap();
        let store = DomStore::open(&paths).unwrap();
        assert_eq!(title(&store.document(&page(3, 0)).unwrap()), "three");
        assert_eq!(title(&store.document(&page(1, 0)).unwrap()), "one");
        assert_eq!(title(&store.document(&page(2, 50)).unwrap()), "two");
        // The same id at another offset is another capture.
        assert!(matches!(
            store.document(&page(2, 0)),
            Err(FetchError::DomMissing)
        ));
    }

    #[test]
    fn damage_is_an_error_not_a_document() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.bin");
        let mut writer = DomWriter::create(&path).unwrap();
        writer.push(&page(1, 0), &encoded("<p>words</p>")).unwrap();
        writer.finish().unwrap();
        let good = std::fs::read(&path).unwrap();

        // A flipped byte inside the DOM fails its checksum.
        let mut flipped = good.clone();
        flipped[12 + ITEM_HEADER + 3] ^= 0x40;
        std::fs::write(&path, &flipped).unwrap();
        let store = DomStore::open(std::slice::from_ref(&path)).unwrap();
        assert!(matches!(
            store.document(&page(1, 0)),
            Err(FetchError::DomDamaged)
        ));

        // A file cut anywhere is refused when opened.
        for cut in [0, 11, 20, good.len() - 9, good.len() - 1] {
            std::fs::write(&path, &good[..cut]).unwrap();
            assert!(
                DomStore::open(std::slice::from_ref(&path)).is_err(),
                "cut at {cut}"
            );
        }
        // So is another kind of file.
        std::fs::write(&path, b"DBCEPAGE\x03\0\0\0").unwrap();
        assert!(matches!(
            DomStore::open(std::slice::from_ref(&path)),
            Err(ArtifactError::WrongKind { .. })
        ));
    }
}

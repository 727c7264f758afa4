//! Building an index: a temporary sibling directory, one indexing thread, segments as the
//! memory budget flushes them (never merged), then a rename into place.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::indexer::NoMergePolicy;
use tantivy::{Index, IndexWriter, TantivyDocument};

use crate::IndexError;
use crate::analyser::{CjkMode, tokenizers};
use crate::queue::{InFlight, QueuedDocument};
use crate::schema::{Fields, parse_date};

/// One cleaned page as the index stores it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexedPage {
    /// The source record's `WARC-Record-ID`, e.g. `<urn:uuid:…>`.
    pub id: String,
    /// The page's URL (`WARC-Target-URI`).
    pub url: String,
    /// The site: the host's registrable domain, lowercase, as stage 1 computes it.
    pub site: String,
    /// The `WARC-Date` as written, ISO 8601, e.g. `2024-05-01T12:00:00Z`.
    pub date: String,
    /// The page's language, an ISO 639-3 code (`eng`, `jpn`, …; empty when unknown). It
    /// chooses the analyser: words, or n-grams for languages written without spaces
    /// ([`dbce_lang::writes_words_apart`]).
    pub lang: String,
    /// The page's title.
    pub title: String,
    /// The main content, one block per line.
    pub text: String,
    /// The source archive as it was given (a path string).
    pub file: String,
    /// The source record's offset in `file`, as `dbce get FILE OFFSET` takes it.
    pub offset: u64,
    /// The source record's length in `file`.
    pub length: u64,
}

/// What [`build_index`] wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IndexSummary {
    /// Pages indexed.
    pub documents: u64,
    /// Pages whose date did not parse: they are indexed and keep their date as written, but
    /// have no value in the `date` field, so date ranges never match them.
    pub undated: u64,
    /// Segments of the index: the writer flushes one whenever its memory budget fills (1 when
    /// everything fit, 0 for no pages). They are not merged, so a build holds no more than the
    /// budget and never reads its own index back; the search orders ties by input position
    /// ([`crate::search`]), so hits are the same however the pages fell into segments.
    pub segments: u64,
    /// Total size of the index's files in bytes.
    pub bytes: u64,
    /// The most bytes of pages (an estimate: their strings) that waited for the indexing
    /// thread at once; at most [`IndexConfig::queue_bytes`] unless one page alone is larger.
    pub peak_queued_bytes: u64,
}

/// Settings of [`build_index_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexConfig {
    /// Memory of the single indexing thread in bytes; when it is full the writer flushes a
    /// segment. tantivy accepts 15 MB to 4 GB. By default, 64 MiB.
    pub memory_budget: u64,
    /// Bytes of pages (their strings) that may wait for the indexing thread at once; adding a
    /// page waits while more are queued. tantivy's own queue bounds only the number of
    /// documents (10,000), which pages of ~8 KB of text turn into over 100 MB. A page larger
    /// than this goes alone. By default, 8 MiB. It changes no output.
    pub queue_bytes: u64,
}

impl Default for IndexConfig {
    fn default() -> Self {
        Self {
            memory_budget: 64 << 20,
            queue_bytes: 8 << 20,
        }
    }
}

/// Builds an index of `pages` at `dir` with the default [`IndexConfig`]; see
/// [`build_index_with`].
///
/// # Errors
/// As [`build_index_with`].
pub fn build_index(
    dir: &Path,
    pages: impl IntoIterator<Item = IndexedPage>,
) -> Result<IndexSummary, IndexError> {
    build_index_with(dir, pages, &IndexConfig::default())
}

/// Builds an index of `pages` at `dir`, which must not exist or be empty.
///
/// The index is written into the sibling directory `DIR.tmp` (a leftover one from a crashed
/// build is removed first) and renamed to `dir` when complete, so `dir` never holds a partial
/// index. Pages are added in the given order by one indexing thread, which flushes a segment
/// whenever the memory budget fills; the segments stay as flushed.
///
/// # Errors
/// [`IndexError::Exists`] if `dir` holds files, [`IndexError::Io`] and
/// [`IndexError::Tantivy`] if writing fails (the temporary directory is then removed).
pub fn build_index_with(
    dir: &Path,
    pages: impl IntoIterator<Item = IndexedPage>,
    config: &IndexConfig,
) -> Result<IndexSummary, IndexError> {
    let existing = check_target(dir)?;
    let tmp = temporary_dir(dir)?;
    if tmp.exists() {
        fs::remove_dir_all(&tmp).map_err(IndexError::io(&tmp))?;
    }
    fs::create_dir_all(&tmp).map_err(IndexError::io(&tmp))?;
    let summary = match write_index(&tmp, pages, config) {
        Ok(summary) => summary,
        Err(error) => {
            // The build failed already; a leftover directory is removed by the next build.
            let _ = fs::remove_dir_all(&tmp);
            return Err(error);
        }
    };
    if existing {
        fs::remove_dir(dir).map_err(IndexError::io(dir))?;
    }
    fs::rename(&tmp, dir).map_err(IndexError::io(dir))?;
    Ok(summary)
}

/// Whether `dir` exists (empty); an error if it holds anything or is not a directory.
fn check_target(dir: &Path) -> Result<bool, IndexError> {
    match fs::read_dir(dir) {
        Ok(mut entries) => match entries.next() {
            None => Ok(true),
            Some(_) => Err(IndexError::Exists { dir: dir.into() }),
        },
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(_) if dir.exists() => Err(IndexError::Exists { dir: dir.into() }),
        Err(error) => Err(IndexError::io(dir)(error)),
    }
}

/// `DIR.tmp`, beside `dir`.
fn temporary_dir(dir: &Path) -> Result<PathBuf, IndexError> {
    let Some(name) = dir.file_name() else {
        let error = std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "an index directory needs a final path component",
        );
        return Err(IndexError::io(dir)(error));
    };
    let mut tmp = OsString::from(name);
    tmp.push(".tmp");
    Ok(dir.with_file_name(tmp))
}

/// Writes the whole index into the empty directory `dir`.
fn write_index(
    dir: &Path,
    pages: impl IntoIterator<Item = IndexedPage>,
    config: &IndexConfig,
) -> Result<IndexSummary, IndexError> {
    let tantivy_error = || IndexError::tantivy(dir);
    let (schema, fields) = Fields::schema();
    let index = Index::builder()
        .schema(schema)
        .tokenizers(tokenizers(CjkMode::Index))
        .create_in_dir(dir)
        .map_err(tantivy_error())?;
    let budget = usize::try_from(config.memory_budget).unwrap_or(usize::MAX);
    let mut writer: IndexWriter<QueuedDocument> = index
        .writer_with_num_threads(1, budget)
        .map_err(tantivy_error())?;
    writer.set_merge_policy(Box::new(NoMergePolicy));
    let queue_limit = usize::try_from(config.queue_bytes).unwrap_or(usize::MAX);
    let in_flight = Arc::new(InFlight::default());
    let mut summary = IndexSummary::default();
    for page in pages {
        let ticket = in_flight.admit(page.queued_bytes(), queue_limit);
        let (document, dated) = fields.document(&page, summary.documents);
        drop(page);
        writer
            .add_document(QueuedDocument {
                document,
                _ticket: ticket,
            })
            .map_err(tantivy_error())?;
        summary.documents += 1;
        summary.undated += u64::from(!dated);
    }
    writer.commit().map_err(tantivy_error())?;
    summary.peak_queued_bytes = in_flight.peak() as u64;
    summary.segments = index
        .searchable_segment_ids()
        .map_err(tantivy_error())?
        .len() as u64;
    writer.wait_merging_threads().map_err(tantivy_error())?;
    summary.bytes = directory_size(dir)?;
    Ok(summary)
}

impl IndexedPage {
    /// What the page's document takes while it waits for the indexing thread, roughly: its
    /// strings, and a little for the document's own structure.
    fn queued_bytes(&self) -> usize {
        let strings = [
            &self.id,
            &self.url,
            &self.site,
            &self.date,
            &self.lang,
            &self.title,
            &self.text,
            &self.file,
        ];
        256 + strings.iter().map(|s| s.len()).sum::<usize>()
    }
}

impl Fields {
    /// The document of `page`, the `seq`-th of the input, and whether its date parsed.
    fn document(&self, page: &IndexedPage, seq: u64) -> (TantivyDocument, bool) {
        let mut document = TantivyDocument::new();
        document.add_text(self.id, &page.id);
        document.add_text(self.url, &page.url);
        document.add_text(self.site, &page.site);
        let date = parse_date(&page.date);
        if let Some(date) = date {
            document.add_date(self.date, date);
        }
        document.add_text(self.warc_date, &page.date);
        document.add_text(self.lang, &page.lang);
        let (title, text) = if dbce_lang::writes_words_apart(&page.lang) {
            (self.title, self.text)
        } else {
            (self.title_cjk, self.text_cjk)
        };
        document.add_text(title, &page.title);
        document.add_text(text, &page.text);
        document.add_text(self.file, &page.file);
        document.add_u64(self.offset, page.offset);
        document.add_u64(self.length, page.length);
        document.add_u64(self.seq, seq);
        (document, date.is_some())
    }
}

/// Total size of the files in `dir` (an index directory is flat).
fn directory_size(dir: &Path) -> Result<u64, IndexError> {
    let mut bytes = 0;
    for entry in fs::read_dir(dir).map_err(IndexError::io(dir))? {
        let entry = entry.map_err(IndexError::io(dir))?;
        let metadata = entry.metadata().map_err(IndexError::io(entry.path()))?;
        if metadata.is_file() {
            bytes += metadata.len();
        }
    }
    Ok(bytes)
}

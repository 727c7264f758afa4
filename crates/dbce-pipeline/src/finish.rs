//! Stage `finish`, stage 3: one partition's annotated pages become output records; stage
//! [`crate::index`] indexes them per partition, and the last step ([`crate::merge`]) merges
//! the parts' CDXJ and writes the report.
//!
//! Output directory layout (`docs/formats.md`):
//! - `text/part-PART.jsonl.gz`: one JSON object per page ([`TextRecord`]), by page id;
//! - `warc/part-PART.warc.gz`: a `warcinfo` record, then a `conversion` record per page, one
//!   gzip member each, and `warc/part-PART.cdxj` indexing the conversion records, sorted;
//!   `warc/index.cdxj` merges them all ([`crate::merge`]);
//!
//! A partition without pages writes no part files, so every file is a valid, non-empty gzip
//! or CDXJ file.
//! - `html/part-PART/PAGE.html`: the annotated HTML, when `annotate.annotated-html` is on;
//! - `index/part-PART/`: the tantivy index of the partition's text ([`crate::index`]);
//! - `report.json`: counts per stage ([`RunReport`]).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use dbce_annotate::PatternClass;
use dbce_classify::PageType;
use dbce_warc::{CdxLine, Headers, NewRecord, RecordType, WarcWriter};
use flate2::Compression;
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};

use crate::annotate::{self, ANNOTATED};
use crate::shard::{PartitionStart, start_partition};
use crate::work::{self, WorkDir, write_atomically};
use crate::{Config, SkipReason, StageError, StageReport};
use dbce_artifact::atomic::AtomicFile;
use dbce_artifact::{ArtifactItems, ArtifactReader};
use dbce_extract::{AnnotatedPage, Method};
use dbce_page::{PageId, PageRef};

/// The stage's name and directory.
pub const STAGE: &str = crate::work::FINISH;

/// One line of `text/part-PART.jsonl.gz`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextRecord {
    /// The source record's `WARC-Record-ID`.
    pub id: String,
    /// The captured URL.
    pub url: String,
    /// The capture time, ISO 8601.
    pub date: String,
    /// The site (registrable domain) the page was grouped in.
    pub site: String,
    /// The page's `<title>`.
    pub title: String,
    /// The main content, one block per line.
    pub text: String,
    /// The main content as Markdown, when `annotate.markdown` is on; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// `cross` or `single`.
    pub method: String,
    /// The route whose verdicts make the text: `cross` (the diff's patterns), `agree` (what
    /// both the cross and the single-page classifier keep), `learned` (the run model), `site`
    /// (a per-site classifier, T003–T006 and `joint`), `single` (the single-page classifier)
    /// `densest` (the densest block, when every other route left the page empty) or
    /// `page-type` (an error page: no content).
    pub decided_by: String,
    /// Why `text` is empty (`no-text`, `every-route-empty`, `method-kept-nothing`,
    /// `error-page`); absent when it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_reason: Option<String>,
    /// The language of `text` (of `title` when `text` is empty), an ISO 639-3 code such as
    /// `eng` or `jpn` ([`dbce_lang::detect`]); `None` (JSON `null`) when neither has letters.
    pub lang: Option<String>,
    /// whatlang's confidence in `lang`, in `[0, 1]`; `None` when `lang` is.
    pub lang_confidence: Option<f32>,
    /// The page's type: `article`, `forum`, `product`, `collection`, `listing`,
    /// `documentation`, `service` or `error`.
    pub page_type: PageType,
    /// The classifier's confidence in `page_type`, in `[0, 1]`.
    pub page_type_confidence: f32,
    /// The cross members: role → record id and estimated template similarity.
    pub cross: BTreeMap<String, CrossMember>,
    /// Runs per label.
    pub runs: RunCounts,
    /// Where the source record lies.
    pub source: SourceCoordinates,
    /// The limits that cut the page before its text was extracted: `bytes` (it was longer than
    /// `sanitize.max-input-bytes`, and only its first bytes were read) and `depth` (block
    /// elements nested deeper than `sanitize.max-block-depth`, and the rest of the page was
    /// left out), in that order. Absent when the whole page was read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub truncated: Vec<String>,
}

/// A cross member in a [`TextRecord`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrossMember {
    /// Its `WARC-Record-ID`.
    pub id: String,
    /// Estimated Jaccard similarity of its template tokens to the page's.
    pub similarity: f32,
}

/// Runs per label in a [`TextRecord`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunCounts {
    /// Content runs.
    pub content: usize,
    /// Boilerplate runs.
    pub boilerplate: usize,
    /// Runs left `invalid`.
    pub invalid: usize,
}

/// Archive coordinates in a [`TextRecord`]: `dbce get FILE OFFSET` prints the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceCoordinates {
    /// The WARC file, as given to the run.
    pub file: String,
    /// Byte offset of the record.
    pub offset: u64,
    /// Length of the record in the file.
    pub length: u64,
}

/// The language of a page: of its text, or of its title when the text is empty.
pub fn page_language(page: &AnnotatedPage) -> Option<dbce_lang::Language> {
    let text = if page.text.trim().is_empty() {
        &page.title
    } else {
        &page.text
    };
    dbce_lang::detect(text)
}

impl TextRecord {
    /// The record of `page`, whose source file is `file`.
    pub fn of(page: &AnnotatedPage, file: &str) -> Self {
        let lang = page_language(page);
        let cross = page
            .cross
            .iter()
            .flat_map(|c| &c.members)
            .map(|(role, id, similarity)| {
                (
                    role.name().to_owned(),
                    CrossMember {
                        id: id.clone(),
                        similarity: *similarity,
                    },
                )
            })
            .collect();
        Self {
            id: page.page.record_id.clone(),
            url: page.page.url.clone(),
            date: page.page.captured.iso8601(),
            site: page.page.site.0.clone(),
            title: page.title.clone(),
            text: page.text.clone(),
            markdown: page.markdown.clone(),
            method: match page.method {
                Method::Cross => "cross",
                Method::Single => "single",
            }
            .to_owned(),
            lang: lang.map(|l| l.code.to_owned()),
            lang_confidence: lang.map(|l| l.confidence),
            page_type: page.page_type,
            page_type_confidence: page.page_type_confidence,
            cross,
            runs: RunCounts {
                content: page.count(PatternClass::Content),
                boilerplate: page.count(PatternClass::Boilerplate),
                invalid: page.count(PatternClass::Invalid),
            },
            decided_by: page.decided_by.name().to_owned(),
            empty_reason: page.empty_reason.map(|r| r.name().to_owned()),
            source: SourceCoordinates {
                file: file.to_owned(),
                offset: page.page.source.offset,
                length: page.page.source.length,
            },
            truncated: page
                .page
                .truncated
                .iter()
                .map(|cut| cut.name().to_owned())
                .collect(),
        }
    }
}

/// Runs stage `finish` on `partition`, writing into `out`, unless it is already done;
/// `annotate` must be complete with the same configuration.
///
/// # Errors
/// Fails when `annotate` is incomplete or was run with other settings, or files cannot be read
/// or written.
pub fn run_finish(
    work: &WorkDir,
    config: &Config,
    partition: u32,
    out: &Path,
) -> Result<StageReport, StageError> {
    let annotated = match start_partition(work, config, STAGE, &[], annotate::STAGE, partition)? {
        PartitionStart::Done(report) => return Ok(report),
        PartitionStart::Run(manifest) => manifest,
    };
    let mut report = StageReport::new(STAGE, partition);
    let mut pages = AnnotatedPages::open(work, partition)?;
    if pages.is_empty() {
        // No empty part files: a partition without pages writes none.
        work.finish_shard(&report)?;
        return Ok(report);
    }
    let files = annotated.input_names();
    let part = format!("part-{partition:05}");
    let warc_name = format!("{part}.warc.gz");
    let output_error = |dir: &str| {
        let path = out.join(dir);
        move |source| StageError::Output { path, source }
    };
    let create = |path: PathBuf| AtomicFile::create(&path, 1 << 16);
    // Text and WARC are written as the pages stream by, so memory holds one page at a time; of
    // the CDXJ only the lines are held, to be sorted at the end.
    let mut text = GzEncoder::new(
        create(out.join("text").join(format!("{part}.jsonl.gz")))?,
        Compression::new(6),
    );
    let mut warc = WarcWriter::new(create(out.join("warc").join(&warc_name))?);
    let mut cdxj = Vec::with_capacity(pages.heads().len());
    let warcinfo = warcinfo_record(&warc_name, &config.fingerprint()?, pages.heads());
    let warcinfo_id = warcinfo
        .fields
        .get("WARC-Record-ID")
        .unwrap_or_default()
        .to_owned();
    warc.write_record(&warcinfo).map_err(output_error("warc"))?;
    for page in &mut pages {
        let page = page?;
        let file = files
            .get(page.page.source.file.0 as usize)
            .map_or("", String::as_str);
        let record = TextRecord::of(&page, file);
        let mut line = serde_json::to_vec(&record)
            .map_err(std::io::Error::other)
            .map_err(output_error("text"))?;
        line.push(b'\n');
        text.write_all(&line).map_err(output_error("text"))?;
        let locator = warc
            .write_record(&conversion_record(&record, &warcinfo_id))
            .map_err(output_error("warc"))?;
        cdxj.push(cdxj_line(&record, locator, &warc_name));
        if let Some(html) = &page.annotated_html {
            let path = out
                .join("html")
                .join(&part)
                .join(format!("{}.html", page.page.page));
            write_atomically(&path, html.as_bytes())?;
        }
        report.emit();
    }
    text.finish().map_err(output_error("text"))?.finish(false)?;
    warc.finish().map_err(output_error("warc"))?.finish(false)?;
    // Sorted (lines bytewise, as `merge` compares them), so the last step merges the parts
    // without sorting them.
    cdxj.sort_unstable();
    let mut cdxj = cdxj.join("\n");
    cdxj.push('\n');
    let mut file = create(out.join("warc").join(format!("{part}.cdxj")))?;
    file.write_all(cdxj.as_bytes())?;
    file.finish(false)?;
    work.finish_shard(&report)?;
    Ok(report)
}

/// What the `warcinfo` record of a part needs to know of each page, before any is written.
#[derive(Debug, Clone)]
struct PageHead {
    page: PageId,
    /// Where the page's item starts in the annotated file.
    offset: u64,
    record_id: String,
    date: String,
}

/// A partition's annotated pages one at a time, by page id: one checking pass over the file
/// notes where each page is (and its `PageHead`), then each is read at its offset. `annotate`
/// writes pages site by site; reading them in id order this way keeps one page in memory
/// instead of the partition's.
pub struct AnnotatedPages {
    items: ArtifactItems<AnnotatedPage>,
    heads: Vec<PageHead>,
    next: usize,
}

impl AnnotatedPages {
    /// Opens `partition`'s annotated pages and notes where each one is.
    ///
    /// # Errors
    /// Fails when the partition's file cannot be read or is damaged.
    pub fn open(work: &WorkDir, partition: u32) -> Result<Self, StageError> {
        let path = work.annotated_pages(partition);
        let mut reader = ArtifactReader::<AnnotatedPage>::open(&path, ANNOTATED)?;
        let mut heads = Vec::new();
        // An annotated page starts with its `PageRef`.
        while let Some((offset, page)) = reader.next_head::<PageRef>()? {
            heads.push(PageHead {
                page: page.page,
                offset,
                record_id: page.record_id,
                date: page.captured.iso8601(),
            });
        }
        heads.sort_by_key(|h| h.page);
        Ok(Self {
            items: ArtifactItems::open(&path)?,
            heads,
            next: 0,
        })
    }

    /// Whether the partition has no annotated page.
    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    fn heads(&self) -> &[PageHead] {
        &self.heads
    }
}

impl Iterator for AnnotatedPages {
    type Item = Result<AnnotatedPage, StageError>;

    fn next(&mut self) -> Option<Self::Item> {
        let head = self.heads.get(self.next)?;
        self.next += 1;
        Some(self.items.read_at(head.offset).map_err(StageError::from))
    }
}

/// The annotated pages of `partition`, by page id. `annotate` wrote each page once (duplicates
/// of a record were counted there), so there is nothing to reconcile.
///
/// # Errors
/// Fails when the partition's file cannot be read or is damaged.
pub fn annotated_pages(work: &WorkDir, partition: u32) -> Result<Vec<AnnotatedPage>, StageError> {
    let path = work.annotated_pages(partition);
    let mut pages =
        ArtifactReader::<AnnotatedPage>::open(&path, ANNOTATED)?.collect::<Result<Vec<_>, _>>()?;
    pages.sort_by_key(|p| p.page.page);
    Ok(pages)
}

/// A `<urn:uuid:…>` record id: the version-5 UUID of `name` in the URL namespace, so reruns
/// write the same id and anyone can recompute it (Python: `uuid.uuid5(uuid.NAMESPACE_URL, name)`).
fn record_id(name: &str) -> String {
    let uuid = uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes());
    format!("<urn:uuid:{uuid}>")
}

/// The `warcinfo` record that heads the output WARC `filename`, whose conversion records are
/// those of `pages`. Its id is the UUID of `dbce-warcinfo`, the file name and the source ids of
/// its records; its date the latest capture among them, so reruns write the same bytes.
fn warcinfo_record(filename: &str, fingerprint: &str, pages: &[PageHead]) -> NewRecord {
    let mut name = format!("dbce-warcinfo {filename}");
    for page in pages {
        name.push(' ');
        name.push_str(&page.record_id);
    }
    let date = pages
        .iter()
        .map(|p| p.date.as_str())
        .max()
        .unwrap_or_default();
    let mut fields = Headers::new();
    fields.push("WARC-Record-ID", record_id(&name));
    fields.push("WARC-Date", date);
    fields.push("WARC-Filename", filename);
    fields.push("Content-Type", "application/warc-fields");
    let block = format!(
        "software: dbce/{}\r\n\
         format: WARC File Format 1.1\r\n\
         conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n\
         description: main content of archived HTML pages, one conversion record per page, by Diff-Based Content Extraction\r\n\
         dbce-config-fingerprint: {fingerprint}\r\n",
        env!("CARGO_PKG_VERSION")
    );
    NewRecord {
        record_type: RecordType::Warcinfo,
        fields,
        block: block.into_bytes(),
    }
}

/// The `conversion` record of a page's text. Its id is the UUID of the source record's id, so
/// reruns write identical bytes.
fn conversion_record(record: &TextRecord, warcinfo_id: &str) -> NewRecord {
    let mut fields = Headers::new();
    fields.push("WARC-Record-ID", record_id(&record.id));
    fields.push("WARC-Date", record.date.clone());
    fields.push("WARC-Target-URI", record.url.clone());
    fields.push("WARC-Refers-To", record.id.clone());
    fields.push("WARC-Warcinfo-ID", warcinfo_id);
    fields.push("Content-Type", "text/plain; charset=utf-8");
    NewRecord {
        record_type: RecordType::Conversion,
        fields,
        block: record.text.as_bytes().to_vec(),
    }
}

/// A CDXJ line for a conversion record (cdxj-indexer's layout; it does not index conversion
/// records itself).
fn cdxj_line(record: &TextRecord, locator: dbce_warc::RecordLocator, filename: &str) -> String {
    let line = CdxLine {
        key: dbce_warc::surt(&record.url),
        timestamp: record.date.chars().filter(char::is_ascii_digit).collect(),
        url: Some(record.url.clone()),
        mime: Some("text/plain".to_owned()),
        status: None,
        digest: None,
        length: locator.length,
        offset: locator.offset,
        filename: filename.to_owned(),
    };
    line.to_string()
}

/// Counts of one stage in `report.json`: records in, out, and skipped by reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageCounts {
    /// What the stage took in.
    pub input: u64,
    /// What it passed on.
    pub output: u64,
    /// What it skipped, by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// Items taken in despite something irregular, by warning; outside the balance (for
    /// `read`: records read as warcio reads them, e.g. `warc:short-block`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub warnings: BTreeMap<String, u64>,
}

/// `report.json`: every stage's counts, where `input = output + Σ skipped` always holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunReport {
    /// The configuration fingerprint of the run.
    pub fingerprint: String,
    /// The input files.
    pub inputs: Vec<String>,
    /// Counts per stage, in pipeline order.
    pub stages: BTreeMap<String, StageCounts>,
    /// Documents in the full-text index.
    pub indexed: u64,
}

/// The stages in pipeline order, the last step (`merge`) last.
const STAGE_ORDER: [&str; 6] = [
    work::READ,
    work::GROUP,
    work::ANNOTATE,
    work::FINISH,
    work::INDEX,
    work::MERGE,
];

/// A stage's name in `report.json` and `timings.json`: its place in the pipeline and its name,
/// `1-read` … `4-finish`, `5-index`, `6-merge`, so that names sort in pipeline order.
pub fn report_stage_name(stage: &str) -> String {
    let order = STAGE_ORDER
        .iter()
        .position(|s| *s == stage)
        .map_or(STAGE_ORDER.len(), |i| i + 1);
    format!("{order}-{stage}")
}

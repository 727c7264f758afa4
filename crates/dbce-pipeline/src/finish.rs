//! Stage `finish`, stage 3: one partition's annotated pages become output records; stage
//! [`crate::index`] indexes them per partition, and the last step ([`crate::merge`]) merges
//! the parts' CDXJ and writes the report.
//!
//! Output directory layout (`docs/formats.md`):
//! - `text/part-PART.jsonl.gz`: one JSON object per page ([`TextRecord`]), by page id;
//!   the records themselves are `dbce-output`'s;
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

use dbce_output::{TextRecord, cdxj_line, conversion_record, warcinfo_record};
use dbce_warc::WarcWriter;
use flate2::Compression;
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};

use crate::annotate::{self, ANNOTATED};
use crate::shard::{PartitionStart, start_partition};
use crate::work::{self, WorkDir, write_atomically};
use crate::{Config, SkipReason, StageError, StageReport};
use dbce_artifact::atomic::AtomicFile;
use dbce_artifact::{ArtifactItems, ArtifactReader};
use dbce_extract::AnnotatedPage;
use dbce_page::{PageId, PageRef};

/// The stage's name and directory.
pub const STAGE: &str = crate::work::FINISH;

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
    let sources: Vec<(&str, &str)> = pages
        .heads()
        .iter()
        .map(|h| (h.record_id.as_str(), h.date.as_str()))
        .collect();
    let warcinfo = warcinfo_record(&warc_name, &config.fingerprint()?, &sources);
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

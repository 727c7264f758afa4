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

use dbce_output::{TextRecord, Warcinfo, cdxj_line, conversion_record};
use dbce_warc::WarcWriter;
use flate2::Compression;
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};

use crate::annotate::{self, ANNOTATED};
use crate::shard::{PartitionStart, start_partition};
use crate::work::{self, WorkDir, write_atomically};
use crate::{Config, SkipReason, StageError, StageReport};
use dbce_artifact::atomic::AtomicFile;
use dbce_artifact::{ArtifactError, ArtifactKind, OrderedItems, SpillSorter};
use dbce_extract::AnnotatedPage;
use dbce_page::{FileId, PageId, PageRef};

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
    finish_with(work, config, partition, out, SortLimits::DEFAULT)
}

/// How many items the stage's sorts hold before they spill runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SortLimits {
    /// Page heads (about 150 bytes each).
    pub(crate) heads: usize,
    /// CDXJ lines (about 300 bytes each).
    pub(crate) lines: usize,
}

impl SortLimits {
    /// About 40 MiB of each.
    pub(crate) const DEFAULT: Self = Self {
        heads: 1 << 18,
        lines: 1 << 17,
    };
}

/// [`run_finish`] with the sorts' limits `limits`.
fn finish_with(
    work: &WorkDir,
    config: &Config,
    partition: u32,
    out: &Path,
    limits: SortLimits,
) -> Result<StageReport, StageError> {
    let annotated = match start_partition(work, config, STAGE, &[], annotate::STAGE, partition)? {
        PartitionStart::Done(report) => return Ok(report),
        PartitionStart::Run(manifest) => manifest,
    };
    let mut report = StageReport::new(STAGE, partition);
    let pages = AnnotatedPages::open(work, STAGE, partition, limits.heads)?;
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
    // Text and WARC are written as the pages stream by, so memory holds one page at a time;
    // the CDXJ lines are sorted with at most `limits.lines` held, the rest spilled as
    // sorted runs (`finish/spill/PART/cdxj-RUN.bin`).
    let mut text = GzEncoder::new(
        create(out.join("text").join(format!("{part}.jsonl.gz")))?,
        Compression::new(6),
    );
    let mut warc = WarcWriter::new(create(out.join("warc").join(&warc_name))?);
    let spill = work.clone();
    let mut cdxj = SpillSorter::new(CDXJ_LINES, limits.lines, move |run| {
        spill.spill(STAGE, partition, "cdxj", run)
    });
    // The warcinfo record heads the part: a first pass over the pages' heads names it.
    let mut warcinfo = Warcinfo::new(&warc_name, &config.fingerprint()?);
    for head in pages.heads()? {
        let head = head?;
        warcinfo.add(&head.record_id, &head.date);
    }
    let warcinfo = warcinfo.record();
    let warcinfo_id = warcinfo
        .fields
        .get("WARC-Record-ID")
        .unwrap_or_default()
        .to_owned();
    warc.write_record(&warcinfo).map_err(output_error("warc"))?;
    for page in pages.pages()? {
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
        cdxj.push(cdxj_line(&record, locator, &warc_name))?;
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
    let mut file = create(out.join("warc").join(format!("{part}.cdxj")))?;
    let sorted = cdxj.sorted()?;
    for line in sorted.iter()? {
        file.write_all(line?.as_bytes())?;
        file.write_all(b"\n")?;
    }
    file.finish(false)?;
    work.finish_shard(&report)?;
    Ok(report)
}

/// Spilled CDXJ lines: `finish/spill/PART/cdxj-RUN.bin`.
const CDXJ_LINES: ArtifactKind = ArtifactKind {
    tag: *b"CDXJ",
    version: 1,
};
/// What the `warcinfo` record of a part needs to know of each page, before any is written;
/// ordered by page id, then by where the page was read (were two records given one id), so the
/// order does not depend on how many tasks annotated the partition.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
struct PageHead {
    page: PageId,
    source: (FileId, u64),
    record_id: String,
    date: String,
}

/// A partition's annotated pages one at a time, by page id, from the files of all the
/// `annotate` tasks that shared it: one checking pass notes each page's head and place
/// (sorted with bounded memory, spilled runs beyond a limit), then each page is read at its
/// place ([`OrderedItems`]). `annotate` writes pages batch by batch and site by site; reading
/// them in id order this way keeps one page in memory instead of the partition's.
pub struct AnnotatedPages {
    pages: OrderedItems<AnnotatedPage, PageHead>,
}

impl AnnotatedPages {
    /// Opens `partition`'s annotated pages and notes where each one is, holding at most
    /// `limit` heads while it sorts them (`SortLimits::DEFAULT`'s for the stages); `stage`
    /// (the stage reading them) owns the spill folder the sort may need.
    ///
    /// # Errors
    /// Fails when the partition's files cannot be read or are damaged, or a spilled run cannot
    /// be written.
    pub fn open(
        work: &WorkDir,
        stage: &'static str,
        partition: u32,
        limit: usize,
    ) -> Result<Self, StageError> {
        let spill = work.clone();
        // An annotated page starts with its `PageRef`.
        let head = |page: PageRef| PageHead {
            page: page.page,
            source: (page.source.file, page.source.offset),
            record_id: page.record_id,
            date: page.captured.iso8601(),
        };
        // The files of the partition's tasks, as many as `annotate` had per partition.
        let annotated = work.manifest(annotate::STAGE)?;
        let tasks = (annotated.shards / annotated.config.lsh.partitions.max(1)).max(1);
        let first = partition.saturating_mul(tasks);
        let files = (first..first.saturating_add(tasks)).map(|k| work.annotated_pages(k));
        let pages = OrderedItems::sort(files.collect(), ANNOTATED, head, limit, move |run| {
            spill.spill(stage, partition, "heads", run)
        })?;
        Ok(Self { pages })
    }

    /// Whether the partition has no annotated page.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// The pages' heads, by page id.
    fn heads(&self) -> Result<impl Iterator<Item = Result<PageHead, ArtifactError>>, StageError> {
        Ok(self.pages.keys()?)
    }

    /// The pages, by page id, read one at a time.
    ///
    /// # Errors
    /// Fails when a spilled run cannot be opened.
    pub fn pages(
        &self,
    ) -> Result<impl Iterator<Item = Result<AnnotatedPage, StageError>> + '_, StageError> {
        Ok(self.pages.items()?.map(|page| Ok(page?)))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file under `dir`, by its path below it.
    fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut found = BTreeMap::new();
        let mut stack = vec![dir.to_owned()];
        while let Some(at) = stack.pop() {
            for entry in std::fs::read_dir(&at).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let bytes = std::fs::read(&path).unwrap();
                    found.insert(path.strip_prefix(dir).unwrap().to_owned(), bytes);
                }
            }
        }
        found
    }

    #[test]
    fn spilled_sorts_write_the_same_part_files() {
        let dir = tempfile::tempdir().unwrap();
        let archive = dir.path().join("synth.warc.gz");
        let synth = dbce_synth::Config {
            seed: 5,
            sites: 2,
            pages: 30,
            ..dbce_synth::Config::default()
        };
        let file = std::fs::File::create(&archive).unwrap();
        dbce_synth::generate(&synth, file, std::io::sink()).unwrap();
        let mut config = Config::default();
        config.lsh.partitions = 1;
        let work = WorkDir::new(dir.path().join("work"));
        let whole = dir.path().join("whole");
        crate::run_local(&work, &config, &[archive], &whole, 1, &|_, _, _| {}).unwrap();
        // The stage again, from its start, with sorts that spill after a few items.
        std::fs::remove_dir_all(work.root().join(STAGE)).unwrap();
        let spilled = dir.path().join("spilled");
        let tiny = SortLimits { heads: 3, lines: 2 };
        let report = finish_with(&work, &config, 0, &spilled, tiny).unwrap();
        assert!(
            report.emitted > 6,
            "{} pages: nothing spilled",
            report.emitted
        );
        let written = files(&spilled);
        let expected: BTreeMap<PathBuf, Vec<u8>> = files(&whole)
            .into_iter()
            .filter(|(path, _)| written.contains_key(path))
            .collect();
        assert_eq!(written.keys().count(), 3, "{:?}", written.keys());
        assert!(written == expected, "spilling changed the part files");
        assert!(!work.path(STAGE, "spill").join("00000").exists());
    }
}

//! Stage `index`: one partition's cleaned pages in a tantivy index of their own,
//! `OUT/index/part-PART/`. `dbce search` searches the partitions' indexes as one
//! ([`dbce_index::search`]: BM25 statistics summed over all of them, so the hits, their scores
//! and their order are those of one index of all pages).

use std::path::{Path, PathBuf};

use crate::annotate;
use crate::finish::{self, AnnotatedPages, SortLimits};
use crate::shard::{PartitionStart, start_partition};
use crate::work::WorkDir;
use crate::{Config, StageError, StageReport};
use dbce_extract::AnnotatedPage;

/// The stage's name and the directory of its done markers.
pub const STAGE: &str = crate::work::INDEX;

/// `OUT/index/part-PART`: the index of `partition`'s pages.
pub fn index_dir(out: &Path, partition: u32) -> PathBuf {
    out.join("index").join(format!("part-{partition:05}"))
}

/// Runs stage `index` on `partition`, unless it is already done: indexes the partition's
/// annotated pages, by page id, into [`index_dir`]. `finish` must be complete with the same
/// configuration. A partition without pages writes no index; a rerun of a shard that did not
/// finish rebuilds its index.
///
/// # Errors
/// Fails when `finish` is incomplete or was run with other settings, or the pages cannot be
/// read or the index written.
pub fn run_index(
    work: &WorkDir,
    config: &Config,
    partition: u32,
    out: &Path,
) -> Result<StageReport, StageError> {
    let finished = match start_partition(
        work,
        config,
        STAGE,
        &[annotate::STAGE],
        finish::STAGE,
        partition,
    )? {
        PartitionStart::Done(report) => return Ok(report),
        PartitionStart::Run(manifest) => manifest,
    };
    let files = finished.input_names();
    let dir = index_dir(out, partition);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|source| StageError::Output {
            path: dir.clone(),
            source,
        })?;
    }
    let mut report = StageReport::new(STAGE, partition);
    let pages = AnnotatedPages::open(work, STAGE, partition, SortLimits::DEFAULT.heads)?;
    if !pages.is_empty() {
        // The pages stream into the index writer one at a time; a page that cannot be read
        // stops the stream and fails the shard (its index is rebuilt on the rerun).
        let mut failure = None;
        let documents = pages.pages()?.map_while(|page| match page {
            Ok(page) => Some(index_document(page, &files)),
            Err(error) => {
                failure = Some(error);
                None
            }
        });
        let summary = dbce_index::build_index(&dir, documents)?;
        if let Some(error) = failure {
            return Err(error);
        }
        (0..summary.documents).for_each(|_| report.emit());
    }
    work.finish_shard(&report)?;
    Ok(report)
}

/// The index document of one annotated page; `files` are the run's input files.
fn index_document(page: AnnotatedPage, files: &[String]) -> dbce_index::IndexedPage {
    dbce_index::IndexedPage {
        lang: page.language.map(|l| l.code.to_owned()).unwrap_or_default(),
        id: page.page.record_id,
        url: page.page.url,
        site: page.page.site.0,
        date: page.page.captured.iso8601(),
        title: page.title,
        text: page.text,
        file: files
            .get(page.page.source.file.0 as usize)
            .cloned()
            .unwrap_or_default(),
        offset: page.page.source.offset,
        length: page.page.source.length,
    }
}

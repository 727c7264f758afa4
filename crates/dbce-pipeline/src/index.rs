//! Stage `index`: one partition's cleaned pages in a tantivy index of their own,
//! `OUT/index/part-PART/`. `dbce search` searches the partitions' indexes as one
//! ([`dbce_index::search`]: BM25 statistics summed over all of them, so the hits, their scores
//! and their order are those of one index of all pages).

use std::path::{Path, PathBuf};

use crate::finish::{self, annotated_pages, page_language};
use crate::shard::{PartitionStart, start_partition};
use crate::work::WorkDir;
use crate::{Config, StageError, StageReport, annotate};

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
    let files: Vec<String> = finished
        .inputs
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let dir = index_dir(out, partition);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|source| StageError::Output {
            path: dir.clone(),
            source,
        })?;
    }
    let mut report = StageReport::new(STAGE, partition);
    let documents = index_documents(work, partition, &files)?;
    if !documents.is_empty() {
        let summary = dbce_index::build_index(&dir, documents)?;
        (0..summary.documents).for_each(|_| report.emit());
    }
    work.finish_shard(&report)?;
    Ok(report)
}

/// The index documents of one partition's pages, by page id.
fn index_documents(
    work: &WorkDir,
    partition: u32,
    files: &[String],
) -> Result<Vec<dbce_index::IndexedPage>, StageError> {
    Ok(annotated_pages(work, partition)?
        .into_iter()
        .map(|page| dbce_index::IndexedPage {
            lang: page_language(&page)
                .map(|l| l.code.to_owned())
                .unwrap_or_default(),
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
        })
        .collect())
}

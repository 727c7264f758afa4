//! A finished run's report: a static HTML site that shows what dbce kept, dropped and why.
//!
//! [`write_report`] reads a run's `report.json` and its work directory (the annotated pages and
//! the LSH buckets of every partition, the stage times in `timings.json`) and writes
//! `OUT/report/`, which opens from the file system with no server and no network:
//! - `index.html`: records in, out and skipped by reason per stage, time per stage, pages per
//!   method, deciding route (`decided_by`) and `page_type`, a histogram of the share of each
//!   page's words kept, pages emptied by reason, and the sites;
//! - `sites/SITE.html`: a site's templates (the distinct page sets of its LSH buckets) with their
//!   sizes, the pages it kept least and most of, its captures per URL;
//! - `pages/PAGE.html`: a page viewer, the page as archived (no scripts, nothing loaded from the
//!   network) with its runs shaded by class, each run's bits and decision on hover, links to its
//!   cross partners' viewers and its JSONL record; `pages/PAGE.page.html` is the framed page;
//! - `pages.html`: the pages with a viewer, filtered by site, type, method, route and share kept.
//!
//! Pages are shown per site up to [`ReportConfig::pages_per_site`]; beyond it a sample is
//! (see [`ReportConfig`]), so the report grows with the number of sites, not of pages, while
//! every count covers every page. A page whose viewer cannot be made (its archive cannot be
//! read back) is counted with the reason on the overview.
//!
//! ```no_run
//! use dbce_pipeline::WorkDir;
//! use dbce_report::{ReportConfig, write_report};
//!
//! let out = std::path::Path::new("dbce-out");
//! let summary = write_report(out, &WorkDir::new(out.join("work")), &ReportConfig::default())?;
//! println!("{} viewers in {}", summary.viewers, out.join("report").display());
//! # Ok::<(), dbce_report::ReportError>(())
//! ```
#![deny(missing_docs)]

mod annotated;
mod error;
mod html;
mod overview;
mod pages_list;
mod sample;
mod site;
mod site_page;
#[cfg(test)]
mod testutil;
mod viewer;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use annotated::page_annotated_html;
use dbce_extract::AnnotatedPage;
use dbce_page::PageFetcher;
use dbce_pipeline::fetch::{FetchError, page_fetcher};
use dbce_pipeline::finish::{self, RunReport};
use dbce_pipeline::group::{self, LshBucket};
use dbce_pipeline::{PageId, SiteKey, StageTimings, WorkDir};
use rayon::prelude::*;

pub use error::ReportError;

use overview::Overview;
use site::{PageRow, Site};

/// The report's folder in the output directory.
pub const REPORT_DIR: &str = "report";

/// The stylesheet and the filter's script, written beside the pages.
const ASSETS: [(&str, &str); 2] = [
    ("report.css", include_str!("../assets/report.css")),
    ("filter.js", include_str!("../assets/filter.js")),
];

/// How much of a run the report shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportConfig {
    /// Pages with a viewer per site. A site with more gets a sample of this many: its 5 least
    /// and 5 most kept pages, its emptied pages, then others in page-id order (ids are hashes
    /// of record ids, so an arbitrary but fixed choice). By default, 12 (on the bundled sample of 6 sites and 233 pages that keeps the report
    /// under 5 MB and under a tenth of the run's CPU time).
    pub pages_per_site: usize,
}

impl Default for ReportConfig {
    fn default() -> Self {
        Self { pages_per_site: 12 }
    }
}

/// What [`write_report`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportSummary {
    /// Sites in the run.
    pub sites: usize,
    /// Pages in the run.
    pub pages: u64,
    /// Pages with a viewer.
    pub viewers: usize,
    /// Pages that should have had a viewer but could not be read back.
    pub viewer_skips: u64,
    /// Bytes written.
    pub bytes: u64,
}

/// Writes the report of the run whose output directory is `out` and work directory `work`
/// into `out/report/`, replacing an earlier report there. The run must be finished
/// (`report.json` written). Same run and configuration, same bytes.
///
/// # Errors
/// Fails when the run is unfinished, its files cannot be read, `report.json` belongs to
/// another run, or the report cannot be written.
pub fn write_report(
    out: &Path,
    work: &WorkDir,
    config: &ReportConfig,
) -> Result<ReportSummary, ReportError> {
    let run = read_run_report(out)?;
    let manifest = work.require_complete(finish::STAGE, &run.fingerprint)?;
    let timings = StageTimings::read(work)?;
    let dir = out.join(REPORT_DIR);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|source| ReportError::Write {
            path: dir.clone(),
            source,
        })?;
    }
    let mut writer = Writer { dir, bytes: 0 };
    let fetcher = page_fetcher(manifest.inputs.clone(), &manifest.config);
    let files = manifest.input_names();
    let mut overview = Overview::default();
    for partition in 0..manifest.config.lsh.partitions {
        // By page id, as `finish` writes them; sorted in `WORK/report/spill/` beyond 2^18.
        let pages = finish::AnnotatedPages::open(work, "report", partition, 1 << 18)?
            .pages()?
            .collect::<Result<Vec<_>, _>>()?;
        let buckets = group::read_buckets(work, partition)?;
        PartitionStep {
            fetcher: &fetcher,
            config: &manifest.config,
            report: config,
        }
        .run(&pages, &buckets, &files, &mut overview, &mut writer)?;
    }
    for (name, text) in ASSETS {
        writer.write(name, text)?;
    }
    writer.write("index.html", &overview.render(&run, timings.as_ref()))?;
    writer.write("pages.html", &pages_list::render(&overview.listed))?;
    Ok(ReportSummary {
        sites: overview.sites_len(),
        pages: overview.pages,
        viewers: overview.listed.len(),
        viewer_skips: overview.viewer_skips.values().sum(),
        bytes: writer.bytes,
    })
}

/// The run's `report.json`.
fn read_run_report(out: &Path) -> Result<RunReport, ReportError> {
    let path = out.join("report.json");
    let bytes = std::fs::read(&path).map_err(|source| ReportError::Read {
        path: path.clone(),
        source,
    })?;
    serde_json::from_slice(&bytes).map_err(|error| ReportError::BadRunReport {
        path,
        source: std::io::Error::other(error),
    })
}

/// Writes the report's files and counts their bytes.
struct Writer {
    dir: PathBuf,
    bytes: u64,
}

impl Writer {
    fn write(&mut self, name: &str, text: &str) -> Result<(), ReportError> {
        let path = self.dir.join(name);
        let failed = |source| ReportError::Write {
            path: path.clone(),
            source,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(failed)?;
        }
        std::fs::write(&path, text).map_err(failed)?;
        self.bytes += text.len() as u64;
        Ok(())
    }
}

/// The report's work on one partition (which holds whole sites).
struct PartitionStep<'a> {
    fetcher: &'a PageFetcher,
    config: &'a dbce_pipeline::Config,
    report: &'a ReportConfig,
}

impl PartitionStep<'_> {
    /// Writes the site pages and viewers of the partition's `pages` and adds its sites to
    /// `overview`.
    fn run(
        &self,
        pages: &[AnnotatedPage],
        buckets: &[LshBucket],
        files: &[String],
        overview: &mut Overview,
        writer: &mut Writer,
    ) -> Result<(), ReportError> {
        let sites = sites(pages, buckets, files);
        let framed = self.framed_pages(pages, &sites);
        let mut viewers: Vec<BTreeSet<PageId>> = vec![BTreeSet::new(); sites.len()];
        for (i, id, html) in &framed {
            match html {
                Ok(_) => {
                    viewers[*i].insert(*id);
                }
                Err(error) => {
                    *overview
                        .viewer_skips
                        .entry(error.reason().to_string())
                        .or_default() += 1;
                }
            }
        }
        for (i, id, html) in framed {
            let (Ok(html), Some(row)) = (html, sites[i].page(id)) else {
                continue;
            };
            writer.write(&format!("pages/{id}.page.html"), &html)?;
            let path = format!("pages/{id}.html");
            let viewer =
                viewer::render(row, &sites[i], &viewers[i]).map_err(|e| ReportError::Write {
                    path: writer.dir.join(&path),
                    source: e.into(),
                })?;
            writer.write(&path, &viewer)?;
        }
        for (site, viewers) in sites.iter().zip(&viewers) {
            writer.write(&site.file(), &site_page::render(site, viewers))?;
            overview.absorb(site, &viewers.iter().copied().collect::<Vec<_>>());
        }
        Ok(())
    }

    /// The framed annotated page of each sampled page of `sites` (by site index and id), or why
    /// it could not be read back. Reading pages back and parsing them is most of the report's
    /// work: done in parallel, collected in order.
    fn framed_pages(
        &self,
        pages: &[AnnotatedPage],
        sites: &[Site],
    ) -> Vec<(usize, PageId, Result<String, FetchError>)> {
        let by_id: BTreeMap<PageId, &AnnotatedPage> =
            pages.iter().map(|page| (page.page.page, page)).collect();
        let sampled: Vec<(usize, PageId)> = sites
            .iter()
            .enumerate()
            .flat_map(|(i, site)| {
                sample::sample(site, self.report.pages_per_site)
                    .into_iter()
                    .map(move |id| (i, id))
            })
            .collect();
        sampled
            .par_iter()
            .map(|&(i, id)| {
                let html = by_id
                    .get(&id)
                    .ok_or(FetchError::NotAPage)
                    .and_then(|page| page_annotated_html(self.fetcher, self.config, page));
                (i, id, html.map(|html| viewer::frame(&html)))
            })
            .collect()
    }
}

/// The sites of a partition's `pages` (sorted by id), in name order, with their buckets.
fn sites(pages: &[AnnotatedPage], buckets: &[LshBucket], files: &[String]) -> Vec<Site> {
    let mut rows: BTreeMap<&str, Vec<PageRow>> = BTreeMap::new();
    for page in pages {
        let file = files
            .get(page.page.source.file.0 as usize)
            .map_or("", String::as_str);
        rows.entry(&page.page.site.0)
            .or_default()
            .push(PageRow::of(page, file));
    }
    let mut by_site: BTreeMap<u64, Vec<&LshBucket>> = BTreeMap::new();
    for bucket in buckets {
        by_site.entry(bucket.key.site).or_default().push(bucket);
    }
    rows.into_iter()
        .map(|(name, rows)| {
            let hash = dbce_pipeline::bands::site_hash(&SiteKey(name.to_owned()));
            let buckets = by_site.get(&hash).map_or(&[][..], Vec::as_slice);
            Site::new(name.to_owned(), rows, buckets)
        })
        .collect()
}

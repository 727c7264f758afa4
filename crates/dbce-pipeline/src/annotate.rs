//! Stage `annotate`, stage 2: one partition's pages get their cross, their diff-based runs and
//! a class for every run.
//!
//! A partition holds whole sites (`bands::site_partition`), so the task sees every LSH bucket
//! of its pages. The crosses are planned by [`dbce_extract::plan_crosses`] and each page
//! annotated by a [`PageAnnotator`]; the stage reads and writes around them. A cross member
//! contributes the words stage `read` saved for it; each page's DOM, as `read` parsed it
//! ([`crate::doms`]), is read back, annotated with its members' words, and its text rendered:
//! no page is parsed again. Sites go one at a time, and their pages a chunk at a time when
//! nothing is learned per site. A page is annotated exactly once; a record seen twice (the
//! same record in two input files, so the same page id) keeps its first copy by file and
//! offset and the others are counted as `duplicate-record`, so the merge stage has nothing to
//! reconcile. Several tasks may share a partition (`annotate.tasks-per-partition`), each taking
//! its share of the partition's batches ([`dbce_extract::Batches::share`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use dbce_annotate::{UrlKey, WordId};
use dbce_dom::Document;
use dbce_extract::{
    AnnotatedPage, Batch, BatchCursor, Batches, BucketsByBatch, Draft, PageAnnotator, PagesByBatch,
    PartnerLoss, SAMPLED_PER_PARTITION, SortLimits, WholeSitePartners, page_types, plan_crosses,
};
use rayon::prelude::*;

use crate::doms::{DomStore, PackedDom};
use crate::fetch::{FetchError, page_fetcher};
use crate::group;
use crate::read::{self, PAGES};
use crate::shard::{PartitionStart, start_partition};
use crate::work::WorkDir;
use crate::{ClassifyMethod, Config, SkipReason, StageError, StageReport};
use dbce_artifact::{ArtifactError, ArtifactKind, ArtifactReader, ArtifactWriter};
use dbce_artifact::{BatchedItems, ItemSlots, SpillSorter};
use dbce_forest::RandomForest;
use dbce_learn::judge::Judge;
use dbce_learn::reclassify::{PageRuns, reclassify};
use dbce_page::PageFetcher;
use dbce_page::{PageId, PageRef, position};

/// The stage's name and directory.
pub const STAGE: &str = crate::work::ANNOTATE;
/// Pages annotated in parallel at a time when nothing is learned per site.
const CHUNK: usize = 512;

/// `annotate/pages/SHARD.bin`: the [`AnnotatedPage`]s one task annotated, batch by batch.
pub const ANNOTATED: ArtifactKind = ArtifactKind {
    tag: *b"ANNO",
    version: 10,
};

/// Runs shard `shard` of stage `annotate`, unless it is already done: task `shard % T` of
/// partition `shard / T` (`T` = `annotate.tasks-per-partition`) plans the partition's batches
/// and annotates its share of them ([`Batches::share`]) into `annotate/pages/SHARD.bin`; a
/// task without a batch writes an empty file. `read` and `group` must be complete with the
/// same configuration.
///
/// # Errors
/// Fails when earlier stages are incomplete or were run with other settings, or intermediate
/// files cannot be read or written. A page that cannot be read back from its archive is a
/// counted skip.
pub fn run_annotate(
    work: &WorkDir,
    config: &Config,
    shard: u32,
) -> Result<StageReport, StageError> {
    let read = match start_partition(work, config, STAGE, &[group::STAGE], read::STAGE, shard)? {
        PartitionStart::Done(report) => return Ok(report),
        PartitionStart::Run(manifest) => manifest,
    };
    let tasks = config.annotate.tasks_per_partition.max(1);
    let (partition, task) = (shard / tasks, shard % tasks);
    let mut report = StageReport::new(STAGE, shard);
    let page_files: Vec<PathBuf> = (0..read.shards)
        .map(|rank| work.read_pages(partition, rank))
        .collect();
    let batches = plan_batches(work, shard, &page_files, config)?.share(task, tasks);
    let whole_site = whole_site_partners(work, partition, &page_files, &batches, config)?;

    let model = (config.annotate.method == ClassifyMethod::Model)
        .then(|| dbce_learn::model::load(config.annotate.model.as_deref()))
        .transpose()?;
    // Training a judge reads what the routes say before any judge chooses among them.
    let judge = (config.annotate.method == ClassifyMethod::Evidence && !config.annotate.training)
        .then(|| Judge::load(config.annotate.judge.as_deref()))
        .transpose()?;
    let block_model = config
        .annotate
        .block_model
        .as_deref()
        .map(dbce_learn::model::load_block_model)
        .transpose()?;
    // Each page's batch, and the pages, their words, DOMs and buckets sorted by batch: none
    // of them is all held, whatever the partition's size, and each pass reads only its own.
    let runs = |what: &'static str| {
        let work = work.clone();
        move |sort: &str, run| work.spill(STAGE, shard, &format!("{what}-{sort}"), run)
    };
    let (page_batches, batch_pages) = PagesByBatch::sort(
        partition_pages(&page_files),
        &batches,
        SORT_LIMITS,
        runs("pages"),
    )?;
    let word_places = WordPlaces::sort(
        (0..read.shards)
            .map(|rank| work.read_words(partition, rank))
            .collect(),
        read::WORDS,
        page_batches.iter()?,
        |&page: &PageId| page,
        SORT_LIMITS.places,
        runs("words"),
    )?;
    let dom_places = DomStore::places(
        (0..read.shards)
            .map(|rank| work.read_doms(partition, rank))
            .collect(),
        page_batches.iter()?,
        SORT_LIMITS.places,
        runs("doms"),
    )?;
    let buckets = group::buckets(work, partition)?.map(|b| b.map(|b| b.pages));
    let buckets =
        BucketsByBatch::sort(buckets, &page_batches, SORT_LIMITS.places, runs("buckets"))?;
    drop(page_batches);
    let (mut word_batches, mut dom_batches) = (word_places.batches()?, dom_places.batches()?);
    let fetcher = page_fetcher(read.inputs, config);
    let path = work.annotated_pages(shard);
    let mut out = ArtifactWriter::create(&path, ANNOTATED)?;
    // A batch of sites at a time: only one batch's pages, buckets and crosses are held.
    let mut cursor = BatchCursor::new(&batch_pages, &buckets)?;
    for batch in batches.taken() {
        let Batch {
            pages,
            duplicates,
            buckets,
        } = cursor.take(batch as u64, &batches)?;
        (0..duplicates).for_each(|_| report.skip(SkipReason::DuplicateRecord));
        let crosses = plan_crosses(
            &pages,
            &buckets.members,
            config.annotate.max_candidates as usize,
            config.annotate.min_partner_similarity,
        );
        let page_types = page_types(&pages, &crosses, config.annotate.page_type_smoothing);
        let words = word_batches.slots(batch as u64, pages.len(), |&page: &PageId| {
            position(&pages, page)
        })?;
        let doms = DomStore::select(&mut dom_batches, batch as u64, &pages)?;
        // Sites one at a time: only one site's words, and one chunk's DOMs, are held at once.
        for site in sites(&pages) {
            let step = SiteStep {
                words: &words,
                model: model.as_ref(),
                annotator: PageAnnotator {
                    pages: &pages,
                    crosses: &crosses,
                    page_types: &page_types,
                    config: &config.annotate,
                    judge: judge.as_ref(),
                    block_model: block_model.as_ref(),
                },
                fetcher: &fetcher,
                doms: &doms,
                renders: config.annotate.annotated_html || config.annotate.markdown,
            };
            step.run(site, &mut |outcome| {
                match outcome {
                    Ok(page) => {
                        if batches.is_split(&page.page.site.0) {
                            report.warn(SITE_SPLIT);
                            let id = page.page.page;
                            let cross = position(&pages, id).map(|i| crosses[i].as_ref());
                            if buckets.cut.contains(&id) {
                                report.warn(SITE_SPLIT_PARTNERS_CUT);
                                if matches!(cross, Some(None)) {
                                    report.warn(SITE_SPLIT_ALONE);
                                }
                            }
                            let in_part = cross
                                .flatten()
                                .map(|planned| planned.similarity[&planned.cross.up]);
                            if let Some(loss) = whole_site.loss(id, in_part) {
                                report.warn(SITE_SPLIT_SAMPLED);
                                if loss == PartnerLoss::Lost {
                                    report.warn(SITE_SPLIT_BEST_PARTNER_LOST);
                                }
                            }
                        }
                        report.emit();
                        out.push(&page)?;
                    }
                    Err(error) => report.skip(error.reason()),
                }
                Ok(())
            })?;
        }
    }
    out.finish()?;
    work.finish_shard(&report)?;
    Ok(report)
}

/// Warning on a page of a site above `annotate.max-site-pages`, annotated in a part of it.
pub const SITE_SPLIT: &str = "site-split";
/// Warning on such a page that shares an LSH bucket with a page of another part, which it
/// could not take as a partner.
pub const SITE_SPLIT_PARTNERS_CUT: &str = "site-split:partners-cut";
/// Warning on such a page that found no partner of another URL in its own part, so it took
/// the route of a page that stands alone although a page of another part shared a bucket
/// with it (whether that page would have passed `annotate.min-partner-similarity` is not
/// known: it is not loaded).
pub const SITE_SPLIT_ALONE: &str = "site-split:alone";
/// Warning on a page of a split site sampled to measure what the split costs crosses: up to
/// [`SAMPLED_PER_PARTITION`] pages of a partition's split sites, those with the smallest ids
/// ([`WholeSitePartners`]).
pub const SITE_SPLIT_SAMPLED: &str = "site-split:sampled";
/// Warning on a sampled page whose `up` partner in its part is less similar than the one it
/// would take with its site whole, or which has none in its part where the whole site offers
/// one: `site-split:best-partner-lost` over `site-split:sampled` estimates the share of the
/// split sites' crosses that lost their best partner.
pub const SITE_SPLIT_BEST_PARTNER_LOST: &str = "site-split:best-partner-lost";

/// Where each page's words from stage `read` lie in its word files.
type WordStore = ItemSlots<read::PageWords>;
/// Where every item of a partition's word files lies (`PageWords` starts with the page's
/// id), sorted by the batch of its page.
type WordPlaces = BatchedItems<read::PageWords, PageId>;

/// Items annotate's sorts hold in memory before they spill a run: pages with their
/// signatures (~1 KB each); places of words, DOMs or pages in buckets (~32–40 bytes each),
/// page batches (~24), URL keys of large sites (~150 with their site).
const SORT_LIMITS: SortLimits = SortLimits {
    pages: 1 << 14,
    places: 1 << 18,
};

/// The batches of a partition whose pages are in `page_files` (one pass to count each site's
/// pages; if a site is above the bound, a second that sorts its pages' URL keys, spilling
/// beyond [`SORT_LIMITS`] in `shard`'s folder, for [`Batches::plan`] to cut into parts).
fn plan_batches(
    work: &WorkDir,
    shard: u32,
    page_files: &[PathBuf],
    config: &Config,
) -> Result<Batches, StageError> {
    let mut pages_per_site: BTreeMap<String, u64> = BTreeMap::new();
    for page in partition_pages(page_files) {
        *pages_per_site.entry(page?.site.0).or_default() += 1;
    }
    let max_pages = config.annotate.max_site_pages;
    let large: BTreeSet<&String> = pages_per_site
        .iter()
        .filter(|&(_, &n)| n > max_pages)
        .map(|(site, _)| site)
        .collect();
    let mut urls = None;
    if !large.is_empty() {
        let spill = work.clone();
        let mut sorter = SpillSorter::new(LARGE_SITE_URLS, SORT_LIMITS.places, move |run| {
            spill.spill(STAGE, shard, "large-site-urls", run)
        });
        for page in partition_pages(page_files) {
            let page = page?;
            if large.contains(&page.site.0) {
                sorter.push((page.site.0, UrlKey::of(&page.url), page.page))?;
            }
        }
        urls = Some(sorter.sorted()?);
    }
    Batches::plan(&pages_per_site, max_pages, || {
        let Some(urls) = &urls else {
            return Ok(None.into_iter().flatten());
        };
        Ok(
            Some(urls.iter()?.map(|page| page.map_err(StageError::from)))
                .into_iter()
                .flatten(),
        )
    })
}

/// For a sample of the pages of `partition`'s split sites that this task annotates, the `up`
/// partner each would take with its site whole (nothing is read when no site is split): two
/// more passes over the page files and one over the buckets.
fn whole_site_partners(
    work: &WorkDir,
    partition: u32,
    page_files: &[PathBuf],
    batches: &Batches,
    config: &Config,
) -> Result<WholeSitePartners, StageError> {
    if !batches.any_split() {
        return Ok(WholeSitePartners::default());
    }
    let buckets = group::buckets(work, partition)?;
    WholeSitePartners::find(
        || partition_pages(page_files),
        buckets.map(|bucket| Ok(bucket?.pages)),
        batches,
        SAMPLED_PER_PARTITION,
        config.annotate.max_candidates as usize,
        config.annotate.min_partner_similarity,
    )
}

/// The pages of a partition whose page files are `page_files`, file after file.
fn partition_pages(page_files: &[PathBuf]) -> impl Iterator<Item = Result<PageRef, StageError>> {
    page_files.iter().flat_map(|path| {
        let pages: Box<dyn Iterator<Item = _>> = match ArtifactReader::<PageRef>::open(path, PAGES)
        {
            Ok(reader) => Box::new(reader.map(|page| page.map_err(StageError::from))),
            Err(error) => Box::new(std::iter::once(Err(error.into()))),
        };
        pages
    })
}

/// Runs of [`plan_batches`]: the site, URL key and id of the pages of sites above the bound.
const LARGE_SITE_URLS: ArtifactKind = ArtifactKind {
    tag: *b"LURL",
    version: 1,
};

/// `words` by reference, as [`PageAnnotator::draft`] takes them.
fn borrowed(words: &BTreeMap<usize, Vec<WordId>>) -> BTreeMap<usize, &[WordId]> {
    words.iter().map(|(&j, w)| (j, w.as_slice())).collect()
}

/// Page `index`'s DOM among a chunk's `doms`, decoded.
fn document(doms: &BTreeMap<usize, PackedDom>, index: usize) -> Result<Document, FetchError> {
    doms.get(&index).ok_or(FetchError::DomMissing)?.document()
}

/// The index ranges of `pages` (sorted by id) grouped by site, sites in name order.
fn sites(pages: &[PageRef]) -> Vec<Vec<usize>> {
    let mut by_site: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (index, page) in pages.iter().enumerate() {
        by_site.entry(&page.site.0).or_default().push(index);
    }
    by_site.into_values().collect()
}

/// The work on one site's pages: the files each page's words and DOM are read from, and the
/// archive for annotated HTML, around the [`PageAnnotator`].
struct SiteStep<'a> {
    /// Where each page's words from stage `read` are.
    words: &'a WordStore,
    /// The trained run model, for method `model`.
    model: Option<&'a RandomForest>,
    annotator: PageAnnotator<'a>,
    /// Reads a page's HTML back from its archive, for annotated HTML.
    fetcher: &'a PageFetcher,
    /// Each page's DOM as stage `read` parsed it: no page is parsed twice.
    doms: &'a DomStore,
    /// Whether anything is rendered from a page's DOM once its runs are final (annotated
    /// HTML, Markdown).
    renders: bool,
}

impl SiteStep<'_> {
    /// Annotates the pages at `site` (indices into the partition's pages), in that order.
    fn run(
        &self,
        site: Vec<usize>,
        emit: &mut dyn FnMut(Result<AnnotatedPage, FetchError>) -> Result<(), StageError>,
    ) -> Result<(), StageError> {
        let config = self.annotator.config;
        let method = config.method;
        // The words of every page some cross of `pages` needs as a member.
        let members_words = |pages: &[usize]| {
            let words = self.words.load(self.annotator.members_needed(pages))?;
            Ok::<_, ArtifactError>(
                words
                    .into_iter()
                    .map(|(j, entry)| (j, entry.words.into_iter().map(WordId).collect()))
                    .collect::<BTreeMap<usize, Vec<WordId>>>(),
            )
        };
        if !method.learns_per_site() {
            // Nothing is learned from the whole site: pages go out a chunk at a time, so
            // memory holds one chunk's words, DOMs and results, not the site's.
            for chunk in site.chunks(CHUNK) {
                let owned = members_words(chunk)?;
                let words = borrowed(&owned);
                let doms = self.doms.load(chunk.iter().copied())?;
                let pages: Vec<Result<AnnotatedPage, FetchError>> = chunk
                    .par_iter()
                    .map(|&i| {
                        let doc = document(&doms, i)?;
                        let mut draft = self.annotator.draft(i, &doc, &words);
                        if let Some(page) = draft.learner() {
                            reclassify(&mut [page], method, config.seed, self.model);
                        }
                        self.finish(draft, Some(&doc))
                    })
                    .collect();
                pages.into_iter().try_for_each(&mut *emit)?;
            }
            return Ok(());
        }
        let owned = members_words(&site)?;
        let words = borrowed(&owned);
        // The site's drafts, a chunk's DOMs at a time.
        let mut drafts: Vec<Result<Draft, FetchError>> = Vec::with_capacity(site.len());
        for chunk in site.chunks(CHUNK) {
            let doms = self.doms.load(chunk.iter().copied())?;
            drafts.par_extend(
                chunk
                    .par_iter()
                    .map(|&i| Ok(self.annotator.draft(i, &document(&doms, i)?, &words))),
            );
        }
        // The learned step, over the site's cross pages.
        let mut learners: Vec<PageRuns<'_>> = drafts
            .iter_mut()
            .filter_map(|d| d.as_mut().ok()?.learner())
            .collect();
        reclassify(&mut learners, method, config.seed, self.model);
        // The DOMs again, a chunk at a time, only for what is rendered from them.
        let renders = self.renders;
        let mut drafts = drafts.into_iter().peekable();
        while drafts.peek().is_some() {
            let chunk: Vec<Result<Draft, FetchError>> = drafts.by_ref().take(CHUNK).collect();
            let indices = chunk
                .iter()
                .filter_map(|d| d.as_ref().ok())
                .map(Draft::index);
            let doms = if renders {
                self.doms.load(indices)?
            } else {
                BTreeMap::new()
            };
            let pages: Vec<Result<AnnotatedPage, FetchError>> = chunk
                .into_par_iter()
                .map(|draft| {
                    let draft = draft?;
                    let doc = renders
                        .then(|| document(&doms, draft.index()))
                        .transpose()?;
                    self.finish(draft, doc.as_ref())
                })
                .collect();
            pages.into_iter().try_for_each(&mut *emit)?;
        }
        Ok(())
    }

    /// The page's record from its final `draft`; `doc`, its DOM, when anything is rendered
    /// from it. Without `doc` then, the page is a `stored-dom-missing` skip; its HTML is read
    /// from the archive once more, for the `<head>` of annotated HTML.
    fn finish(&self, draft: Draft, doc: Option<&Document>) -> Result<AnnotatedPage, FetchError> {
        if self.renders && doc.is_none() {
            return Err(FetchError::DomMissing);
        }
        let html = if self.annotator.config.annotated_html {
            let page = &self.annotator.pages[draft.index()];
            Some(self.fetcher.fetch(page)?.html)
        } else {
            None
        };
        Ok(self.annotator.finish(draft, doc, html.as_deref()))
    }
}

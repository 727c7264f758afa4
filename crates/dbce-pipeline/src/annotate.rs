//! Stage `annotate`, stage 2: one partition's pages get their cross, their diff-based runs and
//! a class for every run.
//!
//! A partition holds whole sites (`bands::site_partition`), so the task sees every LSH bucket
//! of its pages. Per page: the candidates are the other pages of its buckets (at most
//! [`AnnotateConfig::max_candidates`](crate::AnnotateConfig) per bucket) and every other
//! capture of its URL key; [`select_cross`] picks `up`, `down`, `prev` and `next`. A cross
//! member contributes the words stage `read` saved for it; each page's DOM, as `read` parsed it
//! ([`crate::doms`]), is read back, annotated with its members' words, and its text rendered:
//! no page is parsed again. A page is annotated
//! exactly once; a record seen twice (the same record in two input files, so the same page id)
//! keeps its first copy by file and offset and the others are counted as `duplicate-record`,
//! so the merge stage has nothing to reconcile.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use dbce_annotate::{
    Bits, Cross, CrossCandidate, CrossRole, Decision, InvalidMode, LabelledRun, PageTokens,
    PatternClass, RunLayout, UrlFamily, UrlKey, WordId, annotate, annotated_html, classify_runs,
    content_markdown, free_family_runs, keep_teaser_headlines, resolve_invalid_by_parents,
    select_cross, with_outside_witness,
};
use dbce_classify::SinglePageMethod;
use dbce_classify::page_type::smooth_page_types;
use dbce_classify::{PageType, PageTypeGuess};
use dbce_dom::Document;
use dbce_minhash::jaccard_of_values;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::batches::Batches;
use crate::doms::{DomStore, PackedDom};
use crate::fetch::{FetchError, PageFetcher};
use crate::group::{self, LshBucket};
use crate::page::{PageId, PageRef};
use crate::page_items::{ItemIndex, PageItems};
use crate::read::{self, PAGES};
use crate::shard::{PartitionStart, start_partition};
use crate::work::WorkDir;
use crate::{ClassifyMethod, Config, SkipReason, StageError, StageReport};
use dbce_artifact::{ArtifactError, ArtifactKind, ArtifactReader, ArtifactWriter};
use dbce_forest::RandomForest;
use dbce_learn::features::{MODEL_WIDTH, RunFeatures, model_row};
use dbce_learn::judge::{Judge, PageEvidence, Route, fallback_order};
use dbce_learn::reclassify::{PageRuns, reclassify};
use dbce_learn::settle::{route_verdicts, settle};
use dbce_learn::single::{BlockVerdicts, single_page_runs};
use dbce_learn::windows::run_unit;

/// The stage's name and directory.
pub const STAGE: &str = crate::work::ANNOTATE;
/// Pages annotated in parallel at a time when nothing is learned per site.
const CHUNK: usize = 512;

/// `annotate/pages/PART.bin`: the [`AnnotatedPage`]s of a partition, by page id.
pub const ANNOTATED: ArtifactKind = ArtifactKind {
    tag: *b"ANNO",
    version: 8,
};

/// How a page's runs were classified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Method {
    /// Against its cross (diff, bit patterns, then the learned classifier).
    Cross,
    /// Alone, by the single-page classifier: it had no partner.
    Single,
}

/// Why a page's text is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EmptyReason {
    /// The page shows no words at all.
    NoText,
    /// Every route (cross, both, single-page classifier, densest block) leaves it empty: all its
    /// words are boilerplate to each, and its densest block is mostly links (method `evidence`).
    EveryRouteEmpty,
    /// The method keeps none of its words and, unlike `evidence`, tries no other route.
    MethodKeptNothing,
    /// The page is an error page (a soft 404, a login wall, an error template: its
    /// `page_type` is `error`), whose words are no content (method `evidence`).
    ErrorPage,
}

impl EmptyReason {
    /// The reason's name in the JSONL output (`empty_reason`).
    pub fn name(self) -> &'static str {
        match self {
            Self::NoText => "no-text",
            Self::EveryRouteEmpty => "every-route-empty",
            Self::MethodKeptNothing => "method-kept-nothing",
            Self::ErrorPage => "error-page",
        }
    }
}

/// The members of a page's cross by record id, with the estimated template similarity of each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrossMembers {
    /// Which members exist, `(cur, up, down, prev, next)`.
    pub bits: Bits,
    /// Record ids and similarities of the members other than the page, in role order.
    pub members: Vec<(CrossRole, String, f32)>,
}

/// A run as the stage records it: its place among the page's words and its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunLabel {
    /// Index of its first word among the page's tokens.
    pub first_token: u32,
    /// How many words it has.
    pub words: u32,
    /// The cross members it occurs in.
    pub bits: Bits,
    /// Its class.
    pub class: PatternClass,
    /// How the class was decided.
    pub decision: Decision,
}

/// One page after stage 2: what the output needs, without rereading the archive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnnotatedPage {
    /// The page as stage 1 saw it (its signature dropped).
    pub page: PageRef,
    /// The `<title>`, or empty.
    pub title: String,
    /// The content, one block per line.
    pub text: String,
    /// The content as Markdown (headings, lists, tables, code, quotes), when
    /// `annotate.markdown` is on.
    pub markdown: Option<String>,
    /// How it was classified.
    pub method: Method,
    /// The route whose verdicts make its text.
    pub decided_by: Route,
    /// Why its text is empty; `None` when it is not.
    pub empty_reason: Option<EmptyReason>,
    /// Its cross, for [`Method::Cross`].
    pub cross: Option<CrossMembers>,
    /// Its runs in document order.
    pub runs: Vec<RunLabel>,
    /// The annotated HTML, when asked for.
    pub annotated_html: Option<String>,
    /// What `dbce train` needs of a cross page, when `annotate.training` is on.
    pub training: Option<TrainingRuns>,
    /// The page's type: its own guess ([`PageRef::page_type`]), or its cross partners' when
    /// `annotate.page-type-smoothing` lets them outvote it.
    pub page_type: PageType,
    /// The classifier's confidence in `page_type`, in `[0, 1]`.
    pub page_type_confidence: f32,
}

/// A cross page's runs as training data: each run's text and its model features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingRuns {
    /// Each run's text, whitespace collapsed.
    pub texts: Vec<String>,
    /// `texts.len()` rows of [`MODEL_WIDTH`](dbce_learn::features::MODEL_WIDTH) values.
    pub rows: Vec<f32>,
    /// What the judge of method `evidence` reads of the page ([`PageEvidence`]).
    pub evidence: Vec<f32>,
    /// The page's text by each route of [`Route::JUDGED`], in that order.
    pub route_texts: Vec<String>,
}

impl AnnotatedPage {
    /// How many runs have `class`.
    pub fn count(&self, class: PatternClass) -> usize {
        self.runs.iter().filter(|r| r.class == class).count()
    }
}

/// Runs stage `annotate` on `partition`, unless it is already done; `read` and `group` must be
/// complete with the same configuration.
///
/// # Errors
/// Fails when earlier stages are incomplete or were run with other settings, or intermediate
/// files cannot be read or written. A page that cannot be read back from its archive is a
/// counted skip.
pub fn run_annotate(
    work: &WorkDir,
    config: &Config,
    partition: u32,
) -> Result<StageReport, StageError> {
    let read = match start_partition(work, config, STAGE, &[group::STAGE], read::STAGE, partition)?
    {
        PartitionStart::Done(report) => return Ok(report),
        PartitionStart::Run(manifest) => manifest,
    };
    let mut report = StageReport::new(STAGE, partition);
    let page_files: Vec<PathBuf> = (0..read.shards)
        .map(|rank| work.read_pages(partition, rank))
        .collect();
    let batches = plan_batches(&page_files, config)?;

    let model = (config.annotate.method == ClassifyMethod::Model)
        .then(|| dbce_learn::model::load(config.annotate.model.as_deref()))
        .transpose()?;
    // Training a judge reads what the routes say before any judge chooses among them.
    let judge = (config.annotate.method == ClassifyMethod::Evidence && !config.annotate.training)
        .then(|| Judge::load(config.annotate.judge.as_deref()))
        .transpose()?;
    let word_index = WordIndex::open(
        (0..read.shards)
            .map(|rank| work.read_words(partition, rank))
            .collect(),
        read::WORDS,
    )?;
    let dom_index = DomStore::index(
        (0..read.shards)
            .map(|rank| work.read_doms(partition, rank))
            .collect(),
    )?;
    let fetcher = PageFetcher::new(read.inputs, config);
    let path = work.annotated_pages(partition);
    let mut out = ArtifactWriter::create(&path, ANNOTATED)?;
    // A batch of sites at a time: only one batch's pages, buckets and crosses are held.
    for batch in 0..batches.len() {
        let mut pages: Vec<PageRef> = Vec::new();
        for path in &page_files {
            for page in ArtifactReader::<PageRef>::open(path, PAGES)? {
                let page = page?;
                if batches.batch_of(&page) == Some(batch) {
                    pages.push(page);
                }
            }
        }
        // By id (`position` finds pages by binary search), one copy of each.
        pages.sort_by_key(|p| (p.page, p.source.file, p.source.offset));
        let before = pages.len();
        pages.dedup_by_key(|p| p.page);
        (pages.len()..before).for_each(|_| report.skip(SkipReason::DuplicateRecord));
        let buckets = batch_buckets(work, partition, &pages, &batches)?;
        let crosses = plan_crosses(
            &pages,
            &buckets.buckets,
            config.annotate.max_candidates as usize,
            config.annotate.min_partner_similarity,
        );
        let page_types = page_types(&pages, &crosses, config.annotate.page_type_smoothing);
        let words = PageItems::select(&word_index, pages.len(), |page: PageId| {
            position(&pages, page)
        });
        let doms = DomStore::select(&dom_index, &pages);
        // Sites one at a time: only one site's words, and one chunk's DOMs, are held at once.
        for site in sites(&pages) {
            let step = SiteStep {
                words: &words,
                model: model.as_ref(),
                judge: judge.as_ref(),
                pages: &pages,
                crosses: &crosses,
                page_types: &page_types,
                fetcher: &fetcher,
                doms: &doms,
                config,
            };
            step.run(site, &mut |outcome| {
                match outcome {
                    Ok(page) => {
                        if batches.is_split(&page.page.site.0) {
                            report.warn(SITE_SPLIT);
                            if buckets.cut.contains(&page.page.page) {
                                report.warn(SITE_SPLIT_PARTNERS_CUT);
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

/// Where each page's words from stage `read` lie in its word files.
type WordStore = PageItems<read::PageWords>;
/// Every item of a partition's word files (`PageWords` starts with the page's id).
type WordIndex = ItemIndex<read::PageWords, PageId>;

/// The batches of a partition whose pages are in `page_files` (one pass to count each site's
/// pages; a second for the URLs of sites above the bound, if there are any).
fn plan_batches(page_files: &[PathBuf], config: &Config) -> Result<Batches, StageError> {
    let each_page = |f: &mut dyn FnMut(PageRef)| -> Result<(), StageError> {
        for path in page_files {
            for page in ArtifactReader::<PageRef>::open(path, PAGES)? {
                f(page?);
            }
        }
        Ok(())
    };
    let mut pages_per_site: BTreeMap<String, u64> = BTreeMap::new();
    each_page(&mut |page| *pages_per_site.entry(page.site.0).or_default() += 1)?;
    let max_pages = config.annotate.max_site_pages;
    let large: BTreeSet<&String> = pages_per_site
        .iter()
        .filter(|&(_, &n)| n > max_pages)
        .map(|(site, _)| site)
        .collect();
    let mut urls: BTreeMap<String, Vec<(UrlKey, PageId)>> = BTreeMap::new();
    if !large.is_empty() {
        each_page(&mut |page| {
            if large.contains(&page.site.0) {
                urls.entry(page.site.0)
                    .or_default()
                    .push((UrlKey::of(&page.url), page.page));
            }
        })?;
    }
    Batches::plan(&pages_per_site, max_pages, |site| {
        Ok(urls.remove(site).unwrap_or_default())
    })
}

/// A batch's LSH buckets, and its pages that lost a bucket partner to another part of a
/// split site.
struct BatchBuckets {
    /// The partition's buckets with the batch's pages in them, those pages only, each
    /// bucket with at least two.
    buckets: Vec<LshBucket>,
    /// Pages of the batch that share a bucket with a page of another part of their site.
    cut: BTreeSet<PageId>,
}

/// The buckets of the pages of one batch (`pages`, sorted by id), streamed from the
/// partition's bucket file.
fn batch_buckets(
    work: &WorkDir,
    partition: u32,
    pages: &[PageRef],
    batches: &Batches,
) -> Result<BatchBuckets, StageError> {
    let mut kept = BatchBuckets {
        buckets: Vec::new(),
        cut: BTreeSet::new(),
    };
    for bucket in group::buckets(work, partition)? {
        let mut bucket = bucket?;
        let all = bucket.pages.len();
        bucket.pages.retain(|&id| position(pages, id).is_some());
        if bucket.pages.is_empty() {
            continue;
        }
        if bucket.pages.len() < all {
            // Buckets are per site: the others are pages of other parts of a split site.
            kept.cut.extend(bucket.pages.iter().filter(|&&id| {
                position(pages, id).is_some_and(|i| batches.is_split(&pages[i].site.0))
            }));
        }
        if bucket.pages.len() >= 2 {
            kept.buckets.push(bucket);
        }
    }
    Ok(kept)
}

/// `words` by reference, as [`SiteStep::draft`] takes them.
fn borrowed(words: &BTreeMap<usize, Vec<WordId>>) -> BTreeMap<usize, &[WordId]> {
    words.iter().map(|(&j, w)| (j, w.as_slice())).collect()
}

/// Page `index`'s DOM among a chunk's `doms`, decoded.
fn document(doms: &BTreeMap<usize, PackedDom>, index: usize) -> Result<Document, FetchError> {
    doms.get(&index).ok_or(FetchError::DomMissing)?.document()
}

/// Where page `id` is in `pages` (sorted by id).
fn position(pages: &[PageRef], id: PageId) -> Option<usize> {
    pages.binary_search_by_key(&id, |p| p.page).ok()
}

/// The index ranges of `pages` (sorted by id) grouped by site, sites in name order.
fn sites(pages: &[PageRef]) -> Vec<Vec<usize>> {
    let mut by_site: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (index, page) in pages.iter().enumerate() {
        by_site.entry(&page.site.0).or_default().push(index);
    }
    by_site.into_values().collect()
}

/// A cross over indices into the partition's pages, with each member's similarity to the page.
#[derive(Debug, Clone)]
struct PlannedCross {
    cross: Cross<usize>,
    similarity: BTreeMap<usize, f32>,
}

/// Every page's cross, or `None` for pages without a partner of another URL.
fn plan_crosses(
    pages: &[PageRef],
    buckets: &[LshBucket],
    max_candidates: usize,
    min_similarity: f64,
) -> Vec<Option<PlannedCross>> {
    // Each bucket's pages, and per page the buckets it is in with its place there: a page's
    // candidates are gathered when its cross is chosen, so the partition never holds every
    // page's candidate set at once (tens of kilobytes per page when a site fills huge buckets).
    let members: Vec<Vec<usize>> = buckets
        .iter()
        .map(|bucket| {
            bucket
                .pages
                .iter()
                .filter_map(|&id| position(pages, id))
                .collect()
        })
        .collect();
    let mut memberships: Vec<Vec<(usize, usize)>> = vec![Vec::new(); pages.len()];
    for (bucket, pages_in) in members.iter().enumerate() {
        for (place, &page) in pages_in.iter().enumerate() {
            memberships[page].push((bucket, place));
        }
    }
    let urls: Vec<UrlKey> = pages.iter().map(|p| UrlKey::of(&p.url)).collect();
    let families: Vec<UrlFamily> = pages.iter().map(|p| UrlFamily::of(&p.url)).collect();
    let mut by_url: BTreeMap<(&str, &UrlKey), Vec<usize>> = BTreeMap::new();
    for (i, page) in pages.iter().enumerate() {
        by_url.entry((&page.site.0, &urls[i])).or_default().push(i);
    }
    let mut captures_of: Vec<usize> = vec![0; pages.len()];
    let captures: Vec<Vec<usize>> = by_url.into_values().collect();
    for (group, pages_in) in captures.iter().enumerate() {
        pages_in.iter().for_each(|&page| captures_of[page] = group);
    }
    // The pages of every bucket `a` is in (in a huge bucket, its neighbours in page-id order,
    // half on each side) and the other captures of its URL.
    let candidates = |a: usize| {
        let mut candidates = BTreeSet::new();
        for &(bucket, place) in &memberships[a] {
            let members = &members[bucket];
            let n = members.len();
            if n <= max_candidates + 1 {
                candidates.extend(members.iter().copied().filter(|&b| b != a));
            } else {
                let half = (max_candidates / 2).max(1);
                for step in 1..=half {
                    candidates.insert(members[(place + step) % n]);
                    candidates.insert(members[(place + n - step % n) % n]);
                }
            }
        }
        candidates.extend(captures[captures_of[a]].iter().copied().filter(|&b| b != a));
        candidates
    };
    (0..pages.len())
        .into_par_iter()
        .map(|i| {
            let candidate = |j: usize| CrossCandidate {
                page: j,
                url: urls[j].clone(),
                captured: pages[j].captured.0,
                payload: pages[j].payload.0,
                similarity: jaccard_of_values(&pages[i].signature, &pages[j].signature),
            };
            let list: Vec<CrossCandidate<usize>> = candidates(i)
                .into_iter()
                .map(candidate)
                .filter(|c| c.similarity >= min_similarity || c.url == urls[i])
                .collect();
            let cross = select_cross(&candidate(i), &list)?;
            let cross = with_outside_witness(cross, &candidate(i), &list, |c| {
                families[c.page] == families[i]
            });
            let members: Vec<usize> = cross.members().into_iter().map(|(_, j)| j).collect();
            let similarity = list
                .iter()
                .filter(|c| members.contains(&c.page))
                .map(|c| (c.page, c.similarity as f32))
                .collect();
            Some(PlannedCross { cross, similarity })
        })
        .collect()
}

/// Each page's type: its own guess, or, below `smoothing` confidence, its cross partners'
/// vote (`smooth_page_types`); `smoothing` 0 keeps every page's own guess.
fn page_types(
    pages: &[PageRef],
    crosses: &[Option<PlannedCross>],
    smoothing: f32,
) -> Vec<PageTypeGuess> {
    let own: Vec<PageTypeGuess> = pages.iter().map(|p| p.page_type).collect();
    if smoothing <= 0.0 {
        return own;
    }
    let partners: Vec<Vec<usize>> = crosses
        .iter()
        .map(|planned| {
            planned.as_ref().map_or_else(Vec::new, |p| {
                p.cross
                    .members()
                    .into_iter()
                    .skip(1)
                    .map(|(_, j)| j)
                    .collect()
            })
        })
        .collect();
    smooth_page_types(&own, &partners, smoothing)
}

/// The work on one site's pages.
struct SiteStep<'a> {
    /// Where each page's words from stage `read` are.
    words: &'a WordStore,
    /// The trained run model, for method `model`.
    model: Option<&'a RandomForest>,
    /// The page-level judge, for method `evidence`.
    judge: Option<&'a Judge>,
    pages: &'a [PageRef],
    crosses: &'a [Option<PlannedCross>],
    /// Each page's type, after smoothing, by index.
    page_types: &'a [PageTypeGuess],
    /// Reads a page's HTML back from its archive, for annotated HTML.
    fetcher: &'a PageFetcher,
    /// Each page's DOM as stage `read` parsed it: no page is parsed twice.
    doms: &'a DomStore,
    config: &'a Config,
}

/// A page after the diff and the patterns, before the learned step.
struct Draft {
    index: usize,
    /// The page's cross; `None` for a page classified alone.
    cross: Option<CrossMembers>,
    runs: Vec<LabelledRun>,
    layout: RunLayout,
    features: Option<RunFeatures>,
    /// Rows for the trained model, when the method or training needs them.
    model_rows: Option<Vec<f32>>,
    /// What the judge reads and each judged route's text, when training.
    judged: Option<(PageEvidence, Vec<String>)>,
    /// The route whose verdicts the runs' classes are, so far.
    decided_by: Route,
    title: String,
}

impl Draft {
    fn method(&self) -> Method {
        if self.cross.is_some() {
            Method::Cross
        } else {
            Method::Single
        }
    }

    /// Which members the page's cross has (`cur` alone without one).
    fn cross_bits(&self) -> Bits {
        self.cross
            .as_ref()
            .map_or(Bits::of(&[CrossRole::Cur]), |c| c.bits)
    }
}

impl SiteStep<'_> {
    /// Annotates the pages at `site` (indices into the partition's pages), in that order.
    fn run(
        &self,
        site: Vec<usize>,
        emit: &mut dyn FnMut(Result<AnnotatedPage, FetchError>) -> Result<(), StageError>,
    ) -> Result<(), StageError> {
        let method = self.config.annotate.method;
        // The words of every page some cross of `pages` needs as a member.
        let members_words = |pages: &[usize]| {
            let needed: BTreeSet<usize> = pages
                .iter()
                .filter(|_| method != ClassifyMethod::Single)
                .filter_map(|&i| self.crosses[i].as_ref())
                .flat_map(|c| c.cross.members().into_iter().skip(1).map(|(_, j)| j))
                .collect();
            let words = self.words.load(needed)?;
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
                        let mut draft = self.draft(i, &doc, &words)?;
                        if let Some(features) = draft.features.as_ref() {
                            let mut page = [PageRuns {
                                runs: &mut draft.runs,
                                features,
                                model_rows: draft.model_rows.as_deref(),
                            }];
                            reclassify(&mut page, method, self.config.annotate.seed, self.model);
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
                    .map(|&i| self.draft(i, &document(&doms, i)?, &words)),
            );
        }
        // The learned step, over the site's cross pages.
        let mut learners: Vec<PageRuns<'_>> = drafts
            .iter_mut()
            .filter_map(|d| d.as_mut().ok())
            .filter(|d| d.method() == Method::Cross)
            .filter_map(|d| {
                Some(PageRuns {
                    runs: &mut d.runs,
                    features: d.features.as_ref()?,
                    model_rows: d.model_rows.as_deref(),
                })
            })
            .collect();
        reclassify(&mut learners, method, self.config.annotate.seed, self.model);
        // The DOMs again, a chunk at a time, only for what is rendered from them.
        let renders = self.config.annotate.annotated_html || self.config.annotate.markdown;
        let mut drafts = drafts.into_iter().peekable();
        while drafts.peek().is_some() {
            let chunk: Vec<Result<Draft, FetchError>> = drafts.by_ref().take(CHUNK).collect();
            let indices = chunk
                .iter()
                .filter_map(|d| d.as_ref().ok())
                .map(|d| d.index);
            let doms = if renders {
                self.doms.load(indices)?
            } else {
                BTreeMap::new()
            };
            let pages: Vec<Result<AnnotatedPage, FetchError>> = chunk
                .into_par_iter()
                .map(|draft| {
                    let draft = draft?;
                    let doc = renders.then(|| document(&doms, draft.index)).transpose()?;
                    self.finish(draft, doc.as_ref())
                })
                .collect();
            pages.into_iter().try_for_each(&mut *emit)?;
        }
        Ok(())
    }

    /// The partners (`up`, `down`) of page `index`'s cross that are pages of its own URL
    /// family: other pages of the same paginated thread or article.
    fn family_partners(&self, index: usize, cross: &Cross<usize>) -> Bits {
        let family = UrlFamily::of(&self.pages[index].url);
        cross
            .members()
            .into_iter()
            .filter(|&(role, j)| {
                matches!(role, CrossRole::Up | CrossRole::Down)
                    && UrlFamily::of(&self.pages[j].url) == family
            })
            .fold(Bits::default(), |bits, (role, _)| bits.with(role))
    }

    /// Page `index`'s draft from its DOM `doc` and its cross members' `words`.
    fn draft(
        &self,
        index: usize,
        doc: &Document,
        words: &BTreeMap<usize, &[WordId]>,
    ) -> Result<Draft, FetchError> {
        let tokens = PageTokens::read(doc);
        let method = self.config.annotate.method;
        let single_page = match &self.config.annotate.single_page_beyond_articles {
            Some(other) if self.page_types[index].page_type != PageType::Article => other,
            _ => &self.config.annotate.single_page,
        };
        // A cross member that could not be read back is left out of the cross.
        let planned = self.crosses[index]
            .as_ref()
            .filter(|_| method != ClassifyMethod::Single)
            .and_then(|planned| {
                let cross = restrict(planned.cross, |j| words.contains_key(&j))?;
                Some((cross, planned))
            });
        let title = doc.title().unwrap_or_default().to_owned();
        let Some((cross, planned)) = planned else {
            let (runs, layout, decided_by) = single_page_draft(doc, &tokens, single_page, method);
            return Ok(Draft {
                index,
                cross: None,
                layout,
                runs,
                features: None,
                model_rows: None,
                judged: None,
                decided_by,
                title,
            });
        };
        let member_words: Vec<(CrossRole, &[WordId])> = cross
            .members()
            .into_iter()
            .skip(1)
            .filter_map(|(role, j)| Some((role, *words.get(&j)?)))
            .collect();
        let runs = annotate(&tokens, &member_words);
        let mode = match method {
            ClassifyMethod::T002 => InvalidMode::AsBoilerplate,
            _ => InvalidMode::Keep,
        };
        let mut runs = classify_runs(&runs, cross.bits(), mode);
        if matches!(method, ClassifyMethod::T001 | ClassifyMethod::Evidence) {
            free_family_runs(&mut runs, cross.bits(), self.family_partners(index, &cross));
            keep_teaser_headlines(doc, &self.pages[index].url, &mut runs);
            resolve_invalid_by_parents(doc, &mut runs);
        }
        let members = CrossMembers {
            bits: cross.bits(),
            members: cross
                .members()
                .into_iter()
                .skip(1)
                .map(|(role, j)| {
                    let similarity = planned.similarity.get(&j).copied().unwrap_or(0.0);
                    (role, self.pages[j].record_id.clone(), similarity)
                })
                .collect(),
        };
        let similarity = |role| {
            members
                .members
                .iter()
                .find(|(r, _, _)| *r == role)
                .map_or(0.0, |(_, _, s)| *s)
        };
        let similarity = [similarity(CrossRole::Up), similarity(CrossRole::Down)];
        let training = self.config.annotate.training;
        let wants_model = method == ClassifyMethod::Model || training;
        let features = (wants_model || method.learns_per_site())
            .then(|| RunFeatures::of(doc, &runs, single_page, method.window_layers()));
        let model_rows = features.as_ref().filter(|_| wants_model).map(|features| {
            let mut rows = Vec::with_capacity(runs.len() * MODEL_WIDTH);
            for (i, run) in runs.iter().enumerate() {
                model_row(features, i, run, cross.bits(), similarity, &mut rows);
            }
            rows
        });
        let layout = RunLayout::of(doc, &runs);
        let mut decided_by = match method {
            ClassifyMethod::Model => Route::Learned,
            m if m.learns_per_site() => Route::Site,
            _ => Route::Cross,
        };
        let mut judged = None;
        if method == ClassifyMethod::Evidence || training {
            let verdicts = BlockVerdicts::of(doc, single_page);
            let single: Vec<bool> = runs.iter().map(|r| verdicts.keeps(&r.run)).collect();
            let linked: Vec<bool> = runs.iter().map(|r| run_unit(doc, r).1).collect();
            let evidence = PageEvidence::of(
                &runs,
                &single,
                &linked,
                cross.bits(),
                similarity,
                self.page_types[index],
            );
            let routes: Vec<(Route, Vec<bool>)> = Route::JUDGED
                .into_iter()
                .map(|route| (route, route_verdicts(route, &runs, &single)))
                .collect();
            if training {
                let texts = routes
                    .iter()
                    .map(|(_, keep)| layout.text(|i| keep[i]))
                    .collect();
                judged = Some((evidence, texts));
            }
            if let Some(judge) = self.judge.filter(|_| method == ClassifyMethod::Evidence) {
                let chosen = judge.choose(&evidence);
                let densest: Vec<bool> = runs.iter().map(|r| verdicts.in_densest(&r.run)).collect();
                let order: Vec<(Route, &[bool])> = fallback_order(chosen)
                    .into_iter()
                    .map(|route| match routes.iter().find(|(r, _)| *r == route) {
                        Some((_, keep)) => (route, keep.as_slice()),
                        None => (route, densest.as_slice()),
                    })
                    .collect();
                decided_by = settle(&mut runs, &layout, &order);
            }
        }
        Ok(Draft {
            index,
            cross: Some(members),
            layout,
            runs,
            features,
            model_rows,
            judged,
            decided_by,
            title,
        })
    }

    /// The page's record: its text from the final classes, and its annotated HTML and
    /// Markdown if asked for, rendered from its DOM `doc` (the HTML is read from the archive
    /// once more for its `<head>`). Without `doc` when they are asked for, the page is a
    /// `stored-dom-missing` skip.
    fn finish(
        &self,
        mut draft: Draft,
        doc: Option<&Document>,
    ) -> Result<AnnotatedPage, FetchError> {
        let mut page = self.pages[draft.index].clone();
        let guess = self.page_types[draft.index];
        let settled = settle_page(
            &mut draft.runs,
            &draft.layout,
            draft.decided_by,
            guess.page_type,
            self.config.annotate.method,
        );
        let annotate = &self.config.annotate;
        let (annotated, markdown) = if annotate.annotated_html || annotate.markdown {
            let doc = doc.ok_or(FetchError::DomMissing)?;
            let runs = &draft.runs;
            let annotated = if annotate.annotated_html {
                let html = self.fetcher.fetch(&page)?.html;
                Some(annotated_html(
                    doc,
                    &html,
                    &page.url,
                    draft.cross_bits(),
                    runs,
                ))
            } else {
                None
            };
            let markdown = annotate.markdown.then(|| {
                content_markdown(doc, runs, &draft.layout, |i| {
                    runs[i].class == PatternClass::Content
                })
            });
            (annotated, markdown)
        } else {
            (None, None)
        };
        page.signature = Vec::new();
        let training = self.config.annotate.training.then(|| {
            let (evidence, route_texts) = draft
                .judged
                .clone()
                .map(|(e, texts)| (e.0.to_vec(), texts))
                .unwrap_or_default();
            TrainingRuns {
                texts: draft.layout.pieces().map(str::to_owned).collect(),
                rows: draft.model_rows.clone().unwrap_or_default(),
                evidence,
                route_texts,
            }
        });
        let method = draft.method();
        Ok(AnnotatedPage {
            page,
            title: draft.title,
            text: settled.text,
            markdown,
            method,
            decided_by: settled.decided_by,
            empty_reason: settled.empty_reason,
            cross: draft.cross,
            runs: draft.runs.iter().map(RunLabel::of).collect(),
            annotated_html: annotated,
            training: training.filter(|t| !t.rows.is_empty()),
            page_type: guess.page_type,
            page_type_confidence: guess.confidence,
        })
    }
}

/// The runs of a page classified alone (no cross, or method `single`) by `single_page`, their
/// layout and the route that decided them: for method `evidence`, the single-page classifier,
/// or the densest block when the classifier keeps no text. `dbce extract` and stage `annotate`
/// share it, so a page alone gets the same text from both.
pub(crate) fn single_page_draft(
    doc: &Document,
    tokens: &PageTokens,
    single_page: &SinglePageMethod,
    method: ClassifyMethod,
) -> (Vec<LabelledRun>, RunLayout, Route) {
    let verdicts = BlockVerdicts::of(doc, single_page);
    let mut runs = single_page_runs(tokens, &verdicts);
    let layout = RunLayout::of(doc, &runs);
    let mut decided_by = Route::Single;
    if method == ClassifyMethod::Evidence {
        let single: Vec<bool> = runs
            .iter()
            .map(|r| r.class == PatternClass::Content)
            .collect();
        let densest: Vec<bool> = runs.iter().map(|r| verdicts.in_densest(&r.run)).collect();
        decided_by = settle(
            &mut runs,
            &layout,
            &[(Route::Single, &single), (Route::Densest, &densest)],
        );
    }
    (runs, layout, decided_by)
}

/// A page's text once its runs are final, with the route that decided it and why it is empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SettledPage {
    /// The content runs' text, one block per line.
    pub(crate) text: String,
    /// The route whose verdicts make the text.
    pub(crate) decided_by: Route,
    /// Why the text is empty; `None` when it is not.
    pub(crate) empty_reason: Option<EmptyReason>,
}

/// The text of a page's content runs. An error page (`page_type` error, method `evidence`)
/// first loses every run: its words are no content.
pub(crate) fn settle_page(
    runs: &mut [LabelledRun],
    layout: &RunLayout,
    decided_by: Route,
    page_type: PageType,
    method: ClassifyMethod,
) -> SettledPage {
    let error_page = page_type == PageType::Error && method == ClassifyMethod::Evidence;
    let mut decided_by = decided_by;
    if error_page {
        for run in runs.iter_mut() {
            run.class = PatternClass::Boilerplate;
        }
        decided_by = Route::PageType;
    }
    let text = layout.text(|i| runs[i].class == PatternClass::Content);
    let empty_reason = if !text.is_empty() {
        None
    } else if error_page {
        Some(EmptyReason::ErrorPage)
    } else if layout.pieces().all(str::is_empty) {
        Some(EmptyReason::NoText)
    } else if method == ClassifyMethod::Evidence {
        Some(EmptyReason::EveryRouteEmpty)
    } else {
        Some(EmptyReason::MethodKeptNothing)
    };
    SettledPage {
        text,
        decided_by,
        empty_reason,
    }
}

impl RunLabel {
    /// What is stored of `run`.
    pub fn of(run: &LabelledRun) -> Self {
        Self {
            first_token: run.run.first_token,
            words: run.run.words,
            bits: run.run.bits,
            class: run.class,
            decision: run.decision,
        }
    }
}

/// The cross without the members `keep` rejects; `None` if that removes `up` and no `down`
/// can take its place.
fn restrict(cross: Cross<usize>, keep: impl Fn(usize) -> bool) -> Option<Cross<usize>> {
    let down = cross.down.filter(|&j| keep(j));
    let (up, down) = if keep(cross.up) {
        (cross.up, down)
    } else {
        (down?, None)
    };
    Some(Cross {
        cur: cross.cur,
        up,
        down,
        prev: cross.prev.filter(|&j| keep(j)),
        next: cross.next.filter(|&j| keep(j)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::bands::BucketKey;
    use crate::page::{FileId, PayloadDigest, SiteKey, Source, Timestamp};

    /// Page `n` of site `e.com` at `path`, with a MinHash signature of ten values: the first
    /// `shared` common to every page, the others page `n`'s own (page 0 must share all ten).
    fn page_ref(n: u8, path: &str, shared: u32) -> PageRef {
        PageRef {
            page: PageId([n; 16]),
            record_id: format!("<urn:test:{n}>"),
            url: format!("http://e.com{path}"),
            site: SiteKey("e.com".into()),
            captured: Timestamp(20240101000000),
            payload: PayloadDigest([n; 20]),
            source: Source {
                file: FileId(0),
                offset: u64::from(n),
                length: 1,
                stream_offset: None,
            },
            tokens: 10,
            signature: (0..10)
                .map(|v| {
                    if v < shared {
                        v
                    } else {
                        v + 100 * u32::from(n)
                    }
                })
                .collect(),
            page_type: dbce_classify::PageTypeGuess {
                page_type: PageType::Article,
                confidence: 1.0,
            },
            truncated: Vec::new(),
        }
    }

    #[test]
    fn partners_below_the_least_similarity_are_not_taken() {
        let pages = [
            page_ref(0, "/a", 10),
            page_ref(1, "/b", 9),
            page_ref(2, "/c", 2),
        ];
        let buckets = [LshBucket {
            key: BucketKey {
                site: 0,
                band: 0,
                hash: 0,
            },
            pages: pages.iter().map(|p| p.page).collect(),
        }];
        let partners = |least: f64| {
            plan_crosses(&pages, &buckets, 64, least)
                .into_iter()
                .map(|planned| planned.map(|p| (p.cross.up, p.cross.down)))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            partners(0.0),
            [Some((1, Some(2))), Some((0, Some(2))), Some((0, Some(1)))]
        );
        // The third page shares 0.2 of its signature with the others: below 0.3 it is nobody's
        // partner and has none.
        assert_eq!(partners(0.3), [Some((1, None)), Some((0, None)), None]);
    }

    #[test]
    fn restrict_promotes_down_when_up_is_missing() {
        let cross = Cross {
            cur: 0,
            up: 1,
            down: Some(2),
            prev: Some(3),
            next: None,
        };
        let without_up = restrict(cross, |j| j != 1).unwrap();
        assert_eq!((without_up.up, without_up.down), (2, None));
        assert_eq!(without_up.prev, Some(3));
        assert!(restrict(cross, |j| j == 3).is_none());
        assert_eq!(restrict(cross, |_| true), Some(cross));
    }
}

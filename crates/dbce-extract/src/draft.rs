//! One page's runs classified: against its cross (diff, bit patterns, the thesis's family
//! rules, the judge of method `evidence`) or alone (the single-page classifier), then settled
//! into its text and its record.

use std::collections::{BTreeMap, BTreeSet};

use dbce_annotate::{
    Bits, Cross, CrossRole, InvalidMode, LabelledRun, PageTokens, PatternClass, RepeatedPassages,
    RunLayout, UrlFamily, WordId, annotate, annotated_html, classify_runs, content_markdown,
    free_family_runs, keep_teaser_headlines, resolve_invalid_by_parents,
};
use dbce_classify::{BlockModel, PageType, PageTypeGuess, SinglePageMethod};
use dbce_config::{AnnotateConfig, ClassifyMethod};
use dbce_dom::Document;
use dbce_learn::features::{MODEL_WIDTH, RunFeatures, model_row};
use dbce_learn::judge::{Judge, PageEvidence, Route, fallback_order};
use dbce_learn::reclassify::PageRuns;
use dbce_learn::settle::{route_verdicts, settle, whole_lines};
use dbce_learn::single::{BlockVerdicts, single_page_runs};
use dbce_learn::windows::run_unit;
use dbce_page::PageRef;

use crate::plan::{PlannedCross, restrict};
use crate::record::{AnnotatedPage, CrossMembers, EmptyReason, Method, RunLabel, TrainingRuns};

/// What annotating one page needs to know of the others: the pages annotated with it (one
/// batch of a partition's sites, sorted by id, so that indices name them), their planned
/// crosses and page types, the settings and the judge. Stage `annotate` reads each page's DOM and its members' words, then calls
/// [`PageAnnotator::draft`], the per-site learning ([`Draft::learner`]) and
/// [`PageAnnotator::finish`].
#[derive(Clone, Copy)]
pub struct PageAnnotator<'a> {
    /// The pages of the batch, sorted by id.
    pub pages: &'a [PageRef],
    /// Each page's planned cross ([`crate::plan_crosses`]), by index.
    pub crosses: &'a [Option<PlannedCross>],
    /// Each page's type, after smoothing ([`crate::page_types`]), by index.
    pub page_types: &'a [PageTypeGuess],
    /// The settings of stage `annotate`.
    pub config: &'a AnnotateConfig,
    /// The page-level judge, for method `evidence`.
    pub judge: Option<&'a Judge>,
    /// The block model of the `blocks` single-page classifier (`annotate.block-model`);
    /// `None` for the built-in one.
    pub block_model: Option<&'a BlockModel>,
}

/// A page after the diff and the patterns, before the learned step.
pub struct Draft {
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
    /// The page's passages that may repeat, when the method drops repeated ones.
    repeats: Option<RepeatedPassages>,
}

impl Draft {
    /// The page's index among the batch's pages.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The page's runs and features for the learned step of a method that learns per site or
    /// applies the run model ([`reclassify`](dbce_learn::reclassify::reclassify)); `None` for
    /// a page without a cross, or when the method needs no features.
    pub fn learner(&mut self) -> Option<PageRuns<'_>> {
        if self.method() != Method::Cross {
            return None;
        }
        Some(PageRuns {
            runs: &mut self.runs,
            features: self.features.as_ref()?,
            model_rows: self.model_rows.as_deref(),
        })
    }

    /// How the page is classified: against its cross, or alone.
    pub fn method(&self) -> Method {
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

impl PageAnnotator<'_> {
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

    /// The words of which pages the crosses of `pages` need, as members (none for method
    /// `single`).
    pub fn members_needed(&self, pages: &[usize]) -> BTreeSet<usize> {
        pages
            .iter()
            .filter(|_| self.config.method != ClassifyMethod::Single)
            .filter_map(|&i| self.crosses[i].as_ref())
            .flat_map(PlannedCross::partners)
            .collect()
    }

    /// Page `index`'s draft from its DOM `doc` and its cross members' `words`: a member
    /// whose words are missing is left out of the cross, and a page left without partners is
    /// classified alone.
    pub fn draft(&self, index: usize, doc: &Document, words: &BTreeMap<usize, &[WordId]>) -> Draft {
        let tokens = PageTokens::read(doc);
        let method = self.config.method;
        let page_type = self.page_types[index];
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
            let single_page = single_page_method(self.config, page_type, Setting::Alone);
            let (runs, layout, decided_by) = single_page_draft(
                doc,
                &tokens,
                single_page,
                self.block_model,
                page_type,
                method,
            );
            let repeats = repeated_passages(self.config, doc, &runs, &layout);
            return Draft {
                index,
                cross: None,
                layout,
                runs,
                features: None,
                model_rows: None,
                judged: None,
                decided_by,
                title,
                repeats,
            };
        };
        // Beside the diff, the single-page verdicts are evidence the judge and the run model
        // were trained on: without the bar relative to the page's best block.
        let single_page = &single_page_method(self.config, page_type, Setting::Cross).in_cross();
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
        let training = self.config.training;
        let wants_model = method == ClassifyMethod::Model || training;
        let features = (wants_model || method.learns_per_site()).then(|| {
            let layers = method.window_layers();
            RunFeatures::of(doc, &runs, single_page, self.block_model, page_type, layers)
        });
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
            let verdicts = BlockVerdicts::of(doc, single_page, self.block_model, page_type);
            let single: Vec<bool> = runs.iter().map(|r| verdicts.keeps(&r.run)).collect();
            let linked: Vec<bool> = runs.iter().map(|r| run_unit(doc, r).1).collect();
            let evidence =
                PageEvidence::of(&runs, &single, &linked, cross.bits(), similarity, page_type);
            let lines = layout.lines();
            let routes: Vec<(Route, Vec<bool>)> = Route::JUDGED
                .into_iter()
                .map(|route| {
                    let mut keep = route_verdicts(route, &runs, &single);
                    if matches!(route, Route::Cross | Route::Agree) {
                        whole_lines(&mut keep, &runs, &lines);
                    }
                    (route, keep)
                })
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
        let repeats = repeated_passages(self.config, doc, &runs, &layout);
        Draft {
            index,
            cross: Some(members),
            layout,
            runs,
            features,
            model_rows,
            judged,
            decided_by,
            title,
            repeats,
        }
    }

    /// The page's record: its text from the final classes, and its annotated HTML and
    /// Markdown when `annotate.annotated-html` and `annotate.markdown` ask for them, rendered
    /// from its DOM `doc` (the annotated HTML also takes the page's `html` as read from the
    /// archive, for its `<head>`). Without `doc` (or `html`), they are left out.
    pub fn finish(
        &self,
        mut draft: Draft,
        doc: Option<&Document>,
        html: Option<&str>,
    ) -> AnnotatedPage {
        let mut page = self.pages[draft.index].clone();
        let guess = self.page_types[draft.index];
        let settled = settle_page(
            &mut draft.runs,
            &draft.layout,
            draft.decided_by,
            guess.page_type,
            self.config,
            draft.repeats.as_ref(),
        );
        let runs = &draft.runs;
        let annotated = doc
            .zip(html)
            .filter(|_| self.config.annotated_html)
            .map(|(doc, html)| annotated_html(doc, html, &page.url, draft.cross_bits(), runs));
        let markdown = doc.filter(|_| self.config.markdown).map(|doc| {
            content_markdown(doc, runs, &draft.layout, |i| {
                runs[i].class == PatternClass::Content
            })
        });
        page.signature = Vec::new();
        let training = self.config.training.then(|| {
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
        let language = dbce_lang::detect_page(&settled.text, &draft.title);
        AnnotatedPage {
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
            language,
        }
    }
}

/// The runs of a page of type `page_type` classified alone (no cross, or method `single`) by
/// `single_page` (learned blocks by `block_model`, `None` for the built-in one), their layout
/// and the route that decided them: for method `evidence`, the
/// single-page classifier, or the densest block when the classifier keeps no text.
/// `dbce extract` and stage `annotate` share it, so a page alone gets the same text from both.
pub(crate) fn single_page_draft(
    doc: &Document,
    tokens: &PageTokens,
    single_page: &SinglePageMethod,
    block_model: Option<&BlockModel>,
    page_type: PageTypeGuess,
    method: ClassifyMethod,
) -> (Vec<LabelledRun>, RunLayout, Route) {
    let verdicts = BlockVerdicts::of(doc, single_page, block_model, page_type);
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

/// What [`settle_page`] needs to drop a page's repeated passages, when `config` asks for it
/// (`annotate.repeated-passage-words` above 0, a method other than the thesis's) and some text
/// of the page occurs twice.
pub(crate) fn repeated_passages(
    config: &AnnotateConfig,
    doc: &Document,
    runs: &[LabelledRun],
    layout: &RunLayout,
) -> Option<RepeatedPassages> {
    if config.repeated_passage_words == 0 || config.method.is_thesis_case() {
        return None;
    }
    RepeatedPassages::find(doc, runs, layout)
}

/// The text of a page's content runs, once the second copies of its `repeats` are dropped
/// ([`repeated_passages`]). An error page (`page_type` error, method `evidence`) first loses
/// every run: its words are no content.
pub(crate) fn settle_page(
    runs: &mut [LabelledRun],
    layout: &RunLayout,
    decided_by: Route,
    page_type: PageType,
    config: &AnnotateConfig,
    repeats: Option<&RepeatedPassages>,
) -> SettledPage {
    let method = config.method;
    if let Some(repeats) = repeats {
        repeats.drop_from(runs, layout, config.repeated_passage_words);
    }
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

/// Where a page's single-page verdicts are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Setting {
    /// The page is classified alone: the verdicts are its text.
    Alone,
    /// The verdicts are evidence beside the diff of the page's cross.
    Cross,
}

/// The single-page classifier for a page typed `guess`: `annotate.single-page` for an
/// article, `annotate.single-page-beyond-articles` (when set) for a page of another type and,
/// for a page classified alone, an article typed with less confidence than
/// `annotate.article-confidence`. In a cross the type alone decides: there the gate cost the
/// generated crawls up to 0.005 and l3s-gn1's cross pages 0.002 (`docs/single-page.md`).
pub(crate) fn single_page_method(
    config: &AnnotateConfig,
    guess: PageTypeGuess,
    setting: Setting,
) -> &SinglePageMethod {
    let article = guess.page_type == PageType::Article
        && (setting == Setting::Cross || guess.confidence >= config.article_confidence);
    match &config.single_page_beyond_articles {
        Some(other) if !article => other,
        _ => &config.single_page,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_articles_typed_with_confidence_take_the_article_route() {
        let guess = |page_type, confidence| PageTypeGuess {
            page_type,
            confidence,
        };
        let config = AnnotateConfig::default();
        let article = &config.single_page;
        let beyond = config.single_page_beyond_articles.as_ref().unwrap();
        assert_ne!(article, beyond);
        let sure = config.article_confidence;
        let alone = |g| single_page_method(&config, g, Setting::Alone);
        let cross = |g| single_page_method(&config, g, Setting::Cross);
        assert_eq!(alone(guess(PageType::Article, sure)), article);
        assert_eq!(alone(guess(PageType::Article, 0.99)), article);
        assert_eq!(alone(guess(PageType::Article, sure - 0.01)), beyond);
        assert_eq!(alone(guess(PageType::Forum, 0.99)), beyond);
        // In a cross the type alone decides.
        assert_eq!(cross(guess(PageType::Article, sure - 0.01)), article);
        assert_eq!(cross(guess(PageType::Forum, 0.99)), beyond);
        // Without a route beyond articles every page takes the article route.
        let one_route = AnnotateConfig {
            single_page_beyond_articles: None,
            ..AnnotateConfig::default()
        };
        for g in [guess(PageType::Article, 0.1), guess(PageType::Listing, 0.9)] {
            for setting in [Setting::Alone, Setting::Cross] {
                assert_eq!(
                    single_page_method(&one_route, g, setting),
                    &one_route.single_page
                );
            }
        }
    }
}

//! The record of an annotated page: what stage `annotate` writes of each page and the output
//! needs without rereading the archive.

use dbce_annotate::{Bits, CrossRole, Decision, LabelledRun, PatternClass};
use dbce_classify::PageType;
use dbce_learn::judge::Route;
use dbce_page::PageRef;
use serde::{Deserialize, Serialize};

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
    /// The language of `text`, or of `title` when `text` is blank
    /// ([`dbce_lang::detect_page`]); detected once here for the JSONL and the index.
    pub language: Option<dbce_lang::Language>,
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

//! The JSONL record of a page: `text/part-PART.jsonl.gz`, one [`TextRecord`] per line.

use std::collections::BTreeMap;

use dbce_annotate::PatternClass;
use dbce_classify::PageType;
use dbce_extract::{AnnotatedPage, Method};
use serde::{Deserialize, Serialize};

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

impl TextRecord {
    /// The record of `page`, whose source file is `file`.
    pub fn of(page: &AnnotatedPage, file: &str) -> Self {
        let lang = page.language;
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

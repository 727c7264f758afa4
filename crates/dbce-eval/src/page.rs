//! One page with its ground truth, and its scores for one extractor (a line of
//! `dbce eval --per-page`).

use serde::{Deserialize, Serialize};

use crate::report::Split;
use crate::{RougeScorer, Scores, tokenize};

/// The F1 from which an extractor counts as having found a page's content
/// ([`PageScore::found_content`]).
pub const FOUND_CONTENT_MIN_F1: f64 = 0.5;

/// A page with ground truth, as scoring needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TruthPage {
    /// The dataset's or archive's name.
    pub dataset: String,
    /// The page id in the dataset (for a generated archive, the record id).
    pub page_id: String,
    /// The page's `WARC-Record-ID`, which the pipeline's output carries as `id`.
    pub record_id: String,
    /// Whether its site has other pages in the dataset.
    pub split: Split,
    /// The page's type where the dataset labels one.
    pub page_type: Option<String>,
    /// The true main content.
    pub text: String,
}

/// What a dbce run's JSONL says of a page besides its text, copied as it stands: fields the
/// pipeline may or may not write, so each is `null` when absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunNotes {
    /// Which route decided the page's text (`decided_by`).
    #[serde(default)]
    pub decided_by: Option<serde_json::Value>,
    /// Why the page came out empty (`empty_reason`).
    #[serde(default)]
    pub empty_reason: Option<serde_json::Value>,
    /// The page type the run assigned (its `page_type`), not the dataset's label.
    #[serde(default)]
    pub predicted_page_type: Option<serde_json::Value>,
    /// The run's confidence in that type (its `page_type_confidence`).
    #[serde(default)]
    pub predicted_page_type_confidence: Option<serde_json::Value>,
}

/// One page scored for one extractor: a line of `dbce eval --per-page`
/// (documented in `docs/formats.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageScore {
    /// The dataset's or archive's name.
    pub dataset: String,
    /// The page id in the dataset.
    pub page_id: String,
    /// The page's `WARC-Record-ID`.
    pub record_id: String,
    /// Whether its site has other pages in the dataset.
    pub split: Split,
    /// The dataset's label of the page's type, if any.
    pub page_type: Option<String>,
    /// The extractor: a dbce method (`annotate.method`) or a peer's name.
    pub method: String,
    /// Whether the extractor is a peer (another tool's output), not a dbce method.
    pub peer: bool,
    /// ROUGE-LSum of the extracted text against the truth.
    #[serde(flatten)]
    pub scores: Scores,
    /// The extracted text has no words.
    pub empty: bool,
    /// The ground truth has no words.
    pub truth_empty: bool,
    /// Words (whitespace tokens, as the metric counts them) in the extracted text.
    pub words: u64,
    /// What the run said of the page (always `null` for peers).
    #[serde(flatten)]
    pub run: RunNotes,
}

impl TruthPage {
    /// Scores `extracted`, the text `method` gave for this page.
    pub fn score(
        &self,
        scorer: &mut RougeScorer,
        method: &str,
        peer: bool,
        extracted: &str,
        run: RunNotes,
    ) -> PageScore {
        let words = tokenize(extracted).len() as u64;
        PageScore {
            dataset: self.dataset.clone(),
            page_id: self.page_id.clone(),
            record_id: self.record_id.clone(),
            split: self.split,
            page_type: self.page_type.clone(),
            method: method.to_owned(),
            peer,
            scores: scorer.score(&self.text, extracted),
            empty: words == 0,
            truth_empty: tokenize(&self.text).is_empty(),
            words,
            run,
        }
    }
}

impl PageScore {
    /// The page has main content but the extractor gave no text.
    pub fn emptied(&self) -> bool {
        self.empty && !self.truth_empty
    }

    /// The extractor found the page's main content: its text scores at least
    /// [`FOUND_CONTENT_MIN_F1`] against a non-empty truth (a few stray true words in a menu
    /// do not count).
    pub fn found_content(&self) -> bool {
        !self.empty && !self.truth_empty && self.scores.f1 >= FOUND_CONTENT_MIN_F1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn truth(text: &str) -> TruthPage {
        TruthPage {
            dataset: "set".into(),
            page_id: "p".into(),
            record_id: "<urn:x>".into(),
            split: Split::Alone,
            page_type: Some("forum".into()),
            text: text.into(),
        }
    }

    #[test]
    fn scores_count_words_and_emptiness() {
        let mut scorer = RougeScorer::new();
        let page = truth("Alpha beta gamma.");
        let full = page.score(
            &mut scorer,
            "t001",
            false,
            " Alpha beta\n",
            RunNotes::default(),
        );
        assert_eq!(
            (full.words, full.empty, full.truth_empty),
            (2, false, false)
        );
        assert!(full.found_content() && !full.emptied());
        let blank = page.score(&mut scorer, "t001", false, " \n\t", RunNotes::default());
        assert_eq!((blank.words, blank.empty), (0, true));
        assert!(blank.emptied() && !blank.found_content());
        let wrong = page.score(&mut scorer, "t001", false, "Menu", RunNotes::default());
        assert!(!wrong.emptied() && !wrong.found_content());
        let stray = page.score(
            &mut scorer,
            "t001",
            false,
            "Home About Alpha",
            RunNotes::default(),
        );
        assert!(stray.scores.recall > 0.0 && !stray.found_content());
        let nothing_to_find = truth("").score(&mut scorer, "x", true, "", RunNotes::default());
        assert!(nothing_to_find.empty && !nothing_to_find.emptied());
    }

    #[test]
    fn per_page_json_has_every_field_flat() {
        let mut scorer = RougeScorer::new();
        let notes = RunNotes {
            decided_by: Some("cross".into()),
            ..RunNotes::default()
        };
        let row = truth("a b").score(&mut scorer, "model", false, "a b", notes);
        let json = serde_json::to_value(&row).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "dataset",
                "decided_by",
                "empty",
                "empty_reason",
                "f1",
                "method",
                "page_id",
                "page_type",
                "peer",
                "precision",
                "predicted_page_type",
                "predicted_page_type_confidence",
                "recall",
                "record_id",
                "split",
                "truth_empty",
                "words"
            ]
        );
        assert_eq!(json["split"], "alone");
        assert_eq!(json["decided_by"], "cross");
        assert_eq!(json["empty_reason"], serde_json::Value::Null);
        let back: PageScore = serde_json::from_value(json).unwrap();
        assert_eq!(back, row);
    }
}

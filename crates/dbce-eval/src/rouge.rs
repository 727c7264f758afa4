//! ROUGE-LSum per page, a faithful port of the reference scorer `score.py` (the metric of
//! Bevendorff et al., SIGIR 2023, as computed on the development datasets).
//!
//! Texts are split into lines, lines into "sentences" after `.`, `!` or `?` followed by white
//! space, sentences into whitespace-separated tokens (case-sensitive, no stemming), and
//! sentences longer than [`MAX_SENT_TOKENS`] into chunks of that size. For every reference
//! sentence the union of its LCS with every candidate sentence is taken; each token counts at
//! most as often as it occurs in both texts (see [`crate::lcs`]).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::lcs::UnionLcs;

/// Sentences longer than this many tokens are cut into chunks (`score.py`'s
/// `MAX_SENT_TOKENS`, which bounds the LCS table).
pub const MAX_SENT_TOKENS: usize = 4000;

/// ROUGE-LSum precision, recall and F1 of one page.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    /// Hits over candidate tokens.
    pub precision: f64,
    /// Hits over reference tokens.
    pub recall: f64,
    /// Harmonic mean of precision and recall.
    pub f1: f64,
}

/// ROUGE-LSum of `candidate` (the extracted text) against `reference` (the ground truth).
///
/// Edge cases as in `score.py`: an empty reference gives recall 1, and if the candidate is
/// empty too, precision and F1 are 1 as well; an empty candidate against a non-empty reference
/// scores 0. "Empty" means no tokens: white space alone is empty.
///
/// To score many pages, reuse a [`RougeScorer`], which keeps its buffers.
pub fn rouge_lsum(reference: &str, candidate: &str) -> Scores {
    RougeScorer::new().score(reference, candidate)
}

/// Scores pages one after another, reusing its tables.
#[derive(Debug, Default)]
pub struct RougeScorer {
    lcs: UnionLcs,
    r_ids: Vec<u32>,
    r_off: Vec<usize>,
    c_ids: Vec<u32>,
    c_off: Vec<usize>,
}

impl RougeScorer {
    /// A scorer with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Same as [`rouge_lsum`].
    pub fn score(&mut self, reference: &str, candidate: &str) -> Scores {
        let mut vocab: HashMap<&str, u32> = HashMap::new();
        encode(reference, &mut vocab, &mut self.r_ids, &mut self.r_off);
        encode(candidate, &mut vocab, &mut self.c_ids, &mut self.c_off);
        let m = self.r_ids.len();
        let n = self.c_ids.len();
        let (mut p, mut r, mut f) = (0.0, 0.0, 0.0);
        if m > 0 && n > 0 {
            let hits = self.lcs.hits(
                (&self.r_ids, &self.r_off),
                (&self.c_ids, &self.c_off),
                vocab.len(),
            );
            (p, r, f) = prf(hits, n, m);
        }
        if m == 0 {
            r = 1.0;
            if n == 0 {
                p = 1.0;
                f = 1.0;
            }
        }
        Scores {
            precision: p,
            recall: r,
            f1: f,
        }
    }
}

/// `score.py`'s `_prf`, with the same floating-point operations in the same order.
#[allow(clippy::cast_precision_loss)] // token counts stay far below 2^52
fn prf(hits: usize, n_pred: usize, n_true: usize) -> (f64, f64, f64) {
    let p = hits as f64 / n_pred as f64;
    let r = hits as f64 / n_true as f64;
    let f = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    (p, r, f)
}

/// Python's `str.isspace()`, which is also what `\s` matches in a `str` regex: Unicode
/// `White_Space` plus the separators U+001C–U+001F.
pub fn is_python_whitespace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `score.py`'s `tokenize`: the whitespace-separated tokens of `text`.
pub fn tokenize(text: &str) -> Vec<&str> {
    text.split(is_python_whitespace)
        .filter(|t| !t.is_empty())
        .collect()
}

/// `score.py`'s `split_sentences`: the non-empty sentences of `text` as token lists.
pub fn split_sentences(text: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    let mut sentence = Vec::new();
    walk_sentences(text, |token, ends| {
        sentence.push(token);
        if ends {
            out.push(std::mem::take(&mut sentence));
        }
    });
    out
}

/// Calls `visit(token, ends_sentence)` for every token of `text` in order.
///
/// `score.py` splits each line (at `\n` only) with the regex `(?<=[.!?])\s+` and cuts every
/// piece into chunks of [`MAX_SENT_TOKENS`] tokens. Since the pieces are separated by white
/// space, this is the same as: a sentence ends after the last token of a line, after a token
/// ending in `.`, `!` or `?`, and after every [`MAX_SENT_TOKENS`]th token of a sentence.
fn walk_sentences<'a>(text: &'a str, mut visit: impl FnMut(&'a str, bool)) {
    for line in text.split('\n') {
        let mut tokens = line.split(is_python_whitespace).filter(|t| !t.is_empty());
        let mut next = tokens.next();
        let mut len = 0;
        while let Some(token) = next {
            next = tokens.next();
            len += 1;
            let ends = next.is_none() || token.ends_with(['.', '!', '?']) || len == MAX_SENT_TOKENS;
            if ends {
                len = 0;
            }
            visit(token, ends);
        }
    }
}

/// Token ids of `text` (shared vocabulary) and sentence offsets (`off[k]..off[k + 1]`).
fn encode<'a>(
    text: &'a str,
    vocab: &mut HashMap<&'a str, u32>,
    ids: &mut Vec<u32>,
    off: &mut Vec<usize>,
) {
    ids.clear();
    off.clear();
    off.push(0);
    walk_sentences(text, |token, ends| {
        let next = u32::try_from(vocab.len()).unwrap_or(u32::MAX);
        ids.push(*vocab.entry(token).or_insert(next));
        if ends {
            off.push(ids.len());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Vec<String> {
        split_sentences(text).iter().map(|s| s.join(" ")).collect()
    }

    #[test]
    fn sentences_end_at_lines_and_punctuation_before_white_space() {
        assert_eq!(
            s("One two. Three?  Four!\nFive.Six ...  seven\n\n  \n"),
            ["One two.", "Three?", "Four!", "Five.Six ...", "seven"]
        );
        assert_eq!(s("a.\u{1c}b\u{a0}c. d"), ["a.", "b c.", "d"]);
        assert_eq!(s("a\u{200b}b"), ["a\u{200b}b"]);
        assert!(split_sentences(" \t\r\n \u{3000}").is_empty());
    }

    #[test]
    fn long_sentences_are_chunked() {
        let text = vec!["w"; 2 * MAX_SENT_TOKENS + 1].join(" ");
        let lens: Vec<usize> = split_sentences(&text).iter().map(Vec::len).collect();
        assert_eq!(lens, [MAX_SENT_TOKENS, MAX_SENT_TOKENS, 1]);
        let exact = vec!["w"; MAX_SENT_TOKENS].join(" ") + ". x";
        let lens: Vec<usize> = split_sentences(&exact).iter().map(Vec::len).collect();
        assert_eq!(lens, [MAX_SENT_TOKENS, 1]);
    }

    #[test]
    fn python_whitespace_adds_the_information_separators() {
        for c in [
            '\u{1c}', '\u{1f}', '\u{85}', '\u{a0}', '\u{3000}', '\u{2028}',
        ] {
            assert!(is_python_whitespace(c), "{c:?}");
        }
        for c in ['\u{200b}', '\u{180e}', '\u{feff}', 'a', '\u{1b}'] {
            assert!(!is_python_whitespace(c), "{c:?}");
        }
    }

    #[test]
    fn empty_texts_follow_the_conventions() {
        let one = Scores {
            precision: 1.0,
            recall: 1.0,
            f1: 1.0,
        };
        assert_eq!(rouge_lsum("", " \n "), one);
        assert_eq!(
            rouge_lsum("", "extra words"),
            Scores {
                precision: 0.0,
                recall: 1.0,
                f1: 0.0
            }
        );
        assert_eq!(
            rouge_lsum("some truth", ""),
            Scores {
                precision: 0.0,
                recall: 0.0,
                f1: 0.0
            }
        );
    }

    #[test]
    fn hits_are_clipped_by_counts_and_scores_follow() {
        // Candidate holds the reference twice: every reference token hits once.
        let r = rouge_lsum("a b c. d e", "a b c. d e\na b c. d e");
        assert_eq!((r.precision, r.recall), (0.5, 1.0));
        assert!((r.f1 - 2.0 / 3.0).abs() < 1e-15);
        // Reversed order: each candidate sentence is one token, so every token still hits.
        let r = rouge_lsum("a b c d", "d\nc\nb\na");
        assert_eq!((r.precision, r.recall), (1.0, 1.0));
        // One sentence reversed: the LCS is one token.
        let r = rouge_lsum("a b c d", "d c b a");
        assert_eq!((r.precision, r.recall), (0.25, 0.25));
    }

    #[test]
    fn a_scorer_gives_the_same_result_when_reused() {
        let mut scorer = RougeScorer::new();
        let first = scorer.score("x y z. w", "y z w");
        scorer.score("completely different text here", "other words");
        assert_eq!(scorer.score("x y z. w", "y z w"), first);
        assert_eq!(first, rouge_lsum("x y z. w", "y z w"));
    }
}

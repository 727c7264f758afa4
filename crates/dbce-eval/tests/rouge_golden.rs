//! ROUGE-LSum parity with the reference scorer `score.py`: `testdata/rouge/golden.json`,
//! written by `scripts/rouge-golden.py`.

use dbce_eval::{MAX_SENT_TOKENS, RougeScorer, is_python_whitespace, rouge_lsum, split_sentences};
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    whitespace: Vec<u32>,
    max_sent_tokens: usize,
    texts: Vec<String>,
    cases: Vec<Case>,
    sentences: Vec<Sentences>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    reference: usize,
    candidate: usize,
    /// Python `repr` of the floats: parsed exactly by `str::parse` (JSON float parsing may not
    /// be correctly rounded).
    precision: String,
    recall: String,
    f1: String,
}

#[derive(Deserialize)]
struct Sentences {
    text: usize,
    sentences: Vec<Vec<String>>,
}

fn golden() -> Golden {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/rouge/golden.json"
    );
    let text = std::fs::read_to_string(path).expect("golden file");
    serde_json::from_str(&text).expect("golden JSON")
}

#[test]
fn scores_equal_score_py() {
    let golden = golden();
    assert!(golden.cases.len() >= 40);
    let mut scorer = RougeScorer::new();
    for case in &golden.cases {
        let (reference, candidate) = (&golden.texts[case.reference], &golden.texts[case.candidate]);
        let got = scorer.score(reference, candidate);
        for (what, got, want) in [
            ("precision", got.precision, &case.precision),
            ("recall", got.recall, &case.recall),
            ("f1", got.f1, &case.f1),
        ] {
            let want: f64 = want.parse().expect("float repr");
            // Same integer hits and the same floating-point operations: equal, not just close.
            assert!(
                got == want,
                "{}: {what} {got} != {want} (score.py)",
                case.name
            );
        }
        assert_eq!(rouge_lsum(reference, candidate), got, "{}", case.name);
    }
}

#[test]
fn sentences_equal_score_py() {
    let golden = golden();
    assert_eq!(golden.max_sent_tokens, MAX_SENT_TOKENS);
    for case in &golden.sentences {
        let text = &golden.texts[case.text];
        assert_eq!(split_sentences(text), case.sentences, "{text:?}");
    }
}

#[test]
fn whitespace_equals_python_isspace() {
    let golden = golden();
    let ours: Vec<u32> = (0..=char::MAX as u32)
        .filter_map(char::from_u32)
        .filter(|&c| is_python_whitespace(c))
        .map(u32::from)
        .collect();
    assert_eq!(ours, golden.whitespace);
}

//! ROUGE-LSum throughput on the golden pairs (`testdata/rouge/golden.json`: real ground truths
//! of development pages against truncated, shuffled, noisy and padded versions, plus edge
//! cases), in tokens (of both texts) per second. `tokenize` alone is the baseline the full
//! score is compared with in the same run.
//!
//! The whole-dataset comparison with `score.py` is `examples/rouge_dataset.rs`.

#![allow(
    missing_docs,
    reason = "criterion_group! defines an undocumented pub fn"
)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dbce_eval::{RougeScorer, tokenize};
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    texts: Vec<String>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    reference: usize,
    candidate: usize,
}

fn pairs() -> Vec<(String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/rouge/golden.json"
    );
    let text = std::fs::read_to_string(path).expect("golden file");
    let golden: Golden = serde_json::from_str(&text).expect("golden JSON");
    golden
        .cases
        .iter()
        .map(|c| {
            (
                golden.texts[c.reference].clone(),
                golden.texts[c.candidate].clone(),
            )
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let pairs = pairs();
    let tokens: usize = pairs
        .iter()
        .map(|(r, c)| tokenize(r).len() + tokenize(c).len())
        .sum();
    let mut group = c.benchmark_group("rouge_lsum");
    group.throughput(Throughput::Elements(tokens as u64));
    group.bench_function("tokenize_only", |b| {
        b.iter(|| {
            pairs
                .iter()
                .map(|(r, c)| tokenize(black_box(r)).len() + tokenize(black_box(c)).len())
                .sum::<usize>()
        });
    });
    group.bench_function("score", |b| {
        let mut scorer = RougeScorer::new();
        b.iter(|| {
            pairs
                .iter()
                .map(|(r, c)| scorer.score(black_box(r), black_box(c)).f1)
                .sum::<f64>()
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Prediction speed of a forest of the built-in models' shape (48 trees, depth up to 14) on
//! rows of 60 features: `predict_proba` row by row, as stage `annotate` calls it, and
//! `predict_proba_batch`. Run with `cargo bench -p dbce-forest --bench predict`.
#![allow(missing_docs, clippy::unwrap_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dbce_forest::{ForestParams, RandomForest};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const N_FEATURES: usize = 60;

/// Rows whose label depends on a few features with 5% noise, so trees grow deep.
fn rows(n: usize, seed: u64) -> (Vec<f32>, Vec<bool>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let features: Vec<f32> = (0..n * N_FEATURES).map(|_| rng.random::<f32>()).collect();
    let labels = features
        .chunks(N_FEATURES)
        .map(|r| {
            let clean = (r[3] > 0.6) || (r[10] * r[20] > 0.3) ^ (r[40] > 0.5);
            clean ^ (rng.random::<f32>() < 0.05)
        })
        .collect();
    (features, labels)
}

fn predict(c: &mut Criterion) {
    let (train, labels) = rows(20_000, 1);
    let params = ForestParams {
        seed: 1,
        ..ForestParams::default()
    };
    let forest = RandomForest::fit(&train, N_FEATURES, &labels, &params).unwrap();
    let (test, _) = rows(10_000, 2);
    let mut group = c.benchmark_group("forest");
    group.throughput(Throughput::Elements(10_000));
    group.bench_function("predict_proba_row_by_row", |b| {
        b.iter(|| {
            test.chunks_exact(N_FEATURES)
                .map(|row| forest.predict_proba(black_box(row)))
                .sum::<f32>()
        });
    });
    group.bench_function("predict_proba_batch", |b| {
        b.iter(|| forest.predict_proba_batch(black_box(&test)));
    });
    group.finish();
}

criterion_group!(benches, predict);
criterion_main!(benches);

//! Signatures per second for page-sized token sets, against SHA-1 alone as the baseline
//! (every token is hashed once, so SHA-1 bounds what the permutations can gain), and band
//! keys per signature.
//!
//! `cargo bench -p dbce-minhash --bench signature`
#![allow(
    missing_docs,
    reason = "criterion_group! defines an undocumented pub fn"
)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dbce_minhash::{LshParams, MinHasher, MinhashConfig, Scheme, sha1_hash32};

/// A page's template tokens: 300 DOM paths of about 40 bytes.
fn page_tokens() -> Vec<String> {
    (0..300)
        .map(|i| format!("html>body>div.c{}>ul.nav>li:nth-child({i})>a", i % 7))
        .collect()
}

fn signatures(c: &mut Criterion) {
    let tokens = page_tokens();
    let mut group = c.benchmark_group("signature/300 tokens");
    group.throughput(Throughput::Elements(1));
    group.bench_function("sha1_hash32 only (baseline)", |b| {
        b.iter(|| {
            tokens
                .iter()
                .fold(0u32, |acc, t| acc ^ sha1_hash32(black_box(t.as_bytes())))
        });
    });
    for scheme in [Scheme::Legacy, Scheme::Affine32] {
        for num_perm in [128, 256] {
            let hasher = MinHasher::new(MinhashConfig {
                num_perm,
                seed: 1,
                scheme,
            })
            .expect("valid config");
            let id = BenchmarkId::new(format!("{scheme:?}"), num_perm);
            group.bench_with_input(id, &tokens, |b, tokens| {
                b.iter(|| hasher.signature(black_box(tokens)));
            });
        }
    }
    group.finish();
}

fn band_keys(c: &mut Criterion) {
    let hasher = MinHasher::new(MinhashConfig::default()).expect("default config");
    let signature = hasher.signature(page_tokens());
    let mut group = c.benchmark_group("band_keys");
    group.throughput(Throughput::Elements(1));
    for threshold in [0.3, 0.6] {
        let params = LshParams::optimal(threshold, 128).expect("valid threshold");
        let id = BenchmarkId::new(format!("{}x{}", params.bands, params.rows), threshold);
        group.bench_function(id, |b| b.iter(|| params.band_keys(black_box(&signature))));
    }
    group.bench_function("LshParams::optimal(0.6, 128)", |b| {
        b.iter(|| LshParams::optimal(black_box(0.6), 128));
    });
    group.finish();
}

criterion_group!(benches, signatures, band_keys);
criterion_main!(benches);

//! Matcher throughput on two ~2,000-token documents sharing 70% of their tokens, in tokens
//! (of both sequences) per second. `index_only` (building `b2j`) is the baseline the full
//! diff is compared with in the same run.

#![allow(
    missing_docs,
    reason = "criterion_group! defines an undocumented pub fn"
)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dbce_annotate::SequenceMatcher;
use std::hint::black_box;

const LEN: usize = 2_000;

/// A deterministic linear congruential generator: the bench needs no `rand` dependency.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }

    /// A word with a skewed frequency, like text: small ids are common.
    fn word(&mut self) -> String {
        let bucket = self.below(4);
        let id = self.below(10_u64.pow(u32::try_from(bucket).unwrap_or(0) + 1));
        format!("w{id}")
    }
}

/// `a`, and `b` made from `a` by replacing three 200-token stretches in ten (30%).
fn documents() -> (Vec<String>, Vec<String>) {
    let mut rng = Lcg(2017);
    let a: Vec<String> = (0..LEN).map(|_| rng.word()).collect();
    let b = a
        .chunks(200)
        .enumerate()
        .flat_map(|(i, chunk)| {
            if i % 10 < 3 {
                chunk.iter().map(|_| rng.word()).collect::<Vec<_>>()
            } else {
                chunk.to_vec()
            }
        })
        .collect();
    (a, b)
}

fn bench_matcher(c: &mut Criterion) {
    let (a, b) = documents();
    let mut group = c.benchmark_group("matcher");
    group.throughput(Throughput::Elements((a.len() + b.len()) as u64));
    group.bench_function("index_only", |bench| {
        bench.iter(|| SequenceMatcher::new(black_box(&a), black_box(&b), true));
    });
    for autojunk in [true, false] {
        group.bench_function(format!("opcodes_autojunk_{autojunk}"), |bench| {
            bench.iter(|| {
                SequenceMatcher::new(black_box(&a), black_box(&b), autojunk).get_opcodes()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_matcher);
criterion_main!(benches);

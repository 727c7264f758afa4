//! The built-in block model's decisions on real pages, the model alone (rows and thresholds
//! made once beforehand), block by block as the route asks them (`reaches` at the threshold
//! of the page's type and Readability's verdict, which stops at the tree that settles it),
//! every block's probability one by one (`predict_proba`, every tree), and a page's blocks
//! together (`probabilities`, walking the trees in lockstep, as the route does).
//!
//! ```sh
//! DBCE_BENCH_PAGES=/tmp/wcxb cargo bench -p dbce-classify --bench block_model
//! ```
//!
//! `DBCE_BENCH_PAGES` is a folder of the development sets' layout (`html/<id>.html`, unpacked;
//! its first 300 pages by name); without it, the page-type fixtures of `testdata/page-types`.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dbce_classify::{
    BlockModel, LearnedBlocks, PageType, PageTypeModel, block_feature_names, block_rows,
    readability_keeps, text_blocks,
};
use dbce_dom::{Document, SanitizeConfig};

const MOST_PAGES: usize = 300;

/// The pages: every `.html` file of `DBCE_BENCH_PAGES/html`, or of the fixtures.
fn pages() -> Vec<PathBuf> {
    let dir = std::env::var_os("DBCE_BENCH_PAGES").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/page-types"),
        |d| Path::new(&d).join("html"),
    );
    let mut pages: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("a folder of pages")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    pages.truncate(MOST_PAGES);
    pages
}

/// Each page's block rows and the thresholds the route asks them at.
fn rows_and_thresholds() -> Vec<(Vec<f32>, Vec<f32>)> {
    let width = block_feature_names().len();
    pages()
        .iter()
        .map(|page| {
            let html = fs::read_to_string(page).unwrap();
            let doc = Document::parse(&html, &SanitizeConfig::default()).unwrap();
            let blocks = text_blocks(&doc);
            let page_type = PageTypeModel::built_in().classify(&doc, "", &html);
            let settings = if page_type.page_type == PageType::Article {
                LearnedBlocks::ARTICLES
            } else {
                LearnedBlocks::default()
            };
            let rows = block_rows(&doc, &blocks, page_type);
            let thresholds = rows
                .chunks_exact(width)
                .map(|row| settings.threshold_for(readability_keeps(row)))
                .collect();
            (rows, thresholds)
        })
        .collect()
}

fn decisions(c: &mut Criterion) {
    let model = BlockModel::built_in().unwrap().classifier();
    let pages = rows_and_thresholds();
    let blocks: usize = pages.iter().map(|(_, t)| t.len()).sum();
    let width = model.n_features();
    let mut group = c.benchmark_group("block_model");
    group.throughput(Throughput::Elements(blocks as u64));
    group.bench_function("reaches", |b| {
        b.iter(|| {
            let mut kept = 0;
            for (rows, thresholds) in &pages {
                for (row, &t) in rows.chunks_exact(width).zip(thresholds) {
                    kept += usize::from(model.reaches(black_box(row), t));
                }
            }
            kept
        });
    });
    group.bench_function("predict_proba", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for (rows, _) in &pages {
                for row in rows.chunks_exact(width) {
                    sum += model.predict_proba(black_box(row));
                }
            }
            sum
        });
    });
    group.bench_function("probabilities", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for (rows, _) in &pages {
                sum += model.probabilities(black_box(rows)).iter().sum::<f32>();
            }
            sum
        });
    });
    group.finish();
}

criterion_group!(benches, decisions);
criterion_main!(benches);

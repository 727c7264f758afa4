//! Training and prediction speed on 200,000 random rows × 60 features.
//!
//! The label depends on a few features (a threshold, an interaction and an XOR) with 5% label
//! noise, so trees grow to their full depth. Run with
//! `cargo run --release -p dbce-forest --example forest_speed [rows] [threads]`.

use std::time::Instant;

use dbce_forest::{ForestParams, RandomForest};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N_FEATURES: usize = 60;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let rows: usize = args
        .next()
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(200_000);
    let threads: usize = args.next().map(|a| a.parse()).transpose()?.unwrap_or(0);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()?;

    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let features: Vec<f32> = (0..rows * N_FEATURES)
        .map(|_| rng.random::<f32>())
        .collect();
    let labels: Vec<bool> = features
        .chunks(N_FEATURES)
        .map(|r| {
            let clean = (r[3] > 0.6) || (r[10] * r[20] > 0.3) ^ (r[40] > 0.5);
            clean ^ (rng.random::<f32>() < 0.05)
        })
        .collect();
    let params = ForestParams {
        seed: 1,
        ..ForestParams::default()
    };
    println!(
        "{rows} rows x {N_FEATURES} features, {} trees, depth {}, {} threads",
        params.trees,
        params.max_depth,
        rayon::current_num_threads()
    );

    let start = Instant::now();
    let forest = RandomForest::fit(&features, N_FEATURES, &labels, &params)?;
    let fit = start.elapsed().as_secs_f64();
    println!(
        "fit:     {fit:7.2} s  {:>10.0} rows/s  ({} nodes)",
        rows as f64 / fit,
        forest.n_nodes()
    );

    let start = Instant::now();
    let correct = features
        .chunks(N_FEATURES)
        .zip(&labels)
        .filter(|(row, label)| forest.predict(row) == **label)
        .count();
    let predict = start.elapsed().as_secs_f64();
    println!(
        "predict: {predict:7.2} s  {:>10.0} rows/s  (one thread)",
        rows as f64 / predict
    );
    println!("training accuracy {:.4}", correct as f64 / rows as f64);

    let start = Instant::now();
    let probas = forest.predict_proba_batch(&features);
    let batch = start.elapsed().as_secs_f64();
    println!(
        "batch:   {batch:7.2} s  {:>10.0} rows/s  (predict_proba_batch, all threads)",
        rows as f64 / batch
    );
    let same = features
        .chunks(N_FEATURES)
        .zip(&probas)
        .all(|(row, p)| forest.predict_proba(row).to_bits() == p.to_bits());
    assert!(same, "batch and row-by-row probabilities differ");
    Ok(())
}

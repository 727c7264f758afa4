//! Scores predictions of a dataset against its ground truth and times the scoring.
//!
//! ```sh
//! cargo run --release -p dbce-eval --example rouge_dataset -- DATASET_DIR [PRED_DIR] [ROUNDS]
//! ```
//!
//! `PRED_DIR/<id>.txt` holds the prediction of page `<id>`; without `PRED_DIR` each page's
//! ground truth is scored against itself (every F1 is 1, and the time is the worst case of
//! the LCS: every sentence shares tokens with many others). Prints the mean scores per split
//! and the scoring time per round (loading excluded), best of `ROUNDS` (default 5).

use std::path::PathBuf;
use std::time::Instant;

use dbce_eval::{Dataset, MethodScores, RougeScorer, RunNotes};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(
        args.next()
            .ok_or("usage: rouge_dataset DIR [PRED_DIR] [ROUNDS]")?,
    );
    let pred_dir = args.next().filter(|a| !a.is_empty()).map(PathBuf::from);
    let rounds: u32 = args.next().map_or(Ok(5), |r| r.parse())?;
    let set = Dataset::load(&dir)?;
    for missing in &set.missing {
        eprintln!("missing {:?}: {}", missing.kind, missing.path.display());
    }
    let preds: Vec<String> = match &pred_dir {
        Some(p) => set
            .pages
            .iter()
            .map(|page| std::fs::read_to_string(p.join(format!("{}.txt", page.id))))
            .collect::<Result<_, _>>()?,
        None => set.pages.iter().map(|p| p.ground_truth.clone()).collect(),
    };
    let truth = set.truth_pages();
    let mut best = f64::INFINITY;
    let mut table = MethodScores::new();
    for _ in 0..rounds.max(1) {
        let mut scorer = RougeScorer::new();
        table = MethodScores::new();
        let start = Instant::now();
        for (page, pred) in truth.iter().zip(&preds) {
            table.add(page.score(&mut scorer, "prediction", false, pred, RunNotes::default()));
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    print!("{}", table.markdown_table());
    println!(
        "{} pages scored in {:.2} ms (best of {rounds})",
        set.pages.len(),
        best * 1e3
    );
    Ok(())
}

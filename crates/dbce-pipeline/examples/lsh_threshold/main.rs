//! Measures what the LSH threshold of stage 1 (thesis §2.2) costs and buys: how many pages get
//! a partner, how good the best one is, whether it shares the page's template, and what an
//! exhaustive search among the site's pages (a fallback query) would add.
//! `docs/lsh-threshold.md` reports a run.
//!
//! ```text
//! cargo run --release -p dbce-pipeline --example lsh_threshold -- \
//!     /work/shared/data/cleanportaleval /work/shared/data/l3s-gn1 testdata/sample/sample.warc.gz
//! ```
//!
//! Each argument is a folder with `meta.jsonl` (`id`, `url`, `site`, optional
//! `template_group`) and `html/ID.html`, or a WARC file with its ground truth beside it
//! (`X.warc.gz` → `X.truth.jsonl`, lines with `id` = `WARC-Record-ID` and `template`), as
//! `dbce-synth` writes. Signatures use the default configuration (128 permutations, legacy
//! scheme); bands and rows are datasketch's optimum for each threshold. A page's partners are
//! the pages of its site that share a bucket with it and have another URL (other captures of
//! the same URL are the cross's `prev`/`next`, not its `up`/`down`). Only pages of sites with
//! two pages or more are counted. Quantiles are nearest-rank. `--seed` draws other
//! permutations, to see how much the figures owe to chance.

mod load;
mod measure;

use std::error::Error;
use std::path::PathBuf;

use dbce_minhash::LshParams;
use dbce_pipeline::Config;

use crate::measure::{Found, Outcome, Partner};

/// The thresholds compared.
const THRESHOLDS: [f64; 5] = [0.2, 0.3, 0.4, 0.5, 0.6];
/// Least similarity a fallback partner must have.
const FLOORS: [f64; 3] = [0.2, 0.3, 0.4];
/// Lower edges of the similarity bins of the template check.
const BINS: [f64; 7] = [0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8];

const USAGE: &str = "usage: lsh_threshold [--seed SEED] (DATASET-DIR | ARCHIVE.warc.gz)...";

fn main() -> Result<(), Box<dyn Error>> {
    let mut config = Config::default();
    let mut args = std::env::args_os().skip(1).peekable();
    if args.next_if(|arg| arg == "--seed").is_some() {
        let seed = args
            .next()
            .and_then(|s| s.to_str()?.parse().ok())
            .ok_or(USAGE)?;
        config.minhash.seed = seed;
    }
    let paths: Vec<PathBuf> = args.map(PathBuf::from).collect();
    if paths.is_empty() {
        return Err(USAGE.into());
    }
    for path in paths {
        let pages = load::load(&path, &config)?;
        let sites = measure::sites(&pages);
        let exhaustive = measure::exhaustive(&pages, &sites)?;
        let mut by_threshold = Vec::new();
        for threshold in THRESHOLDS {
            let params = LshParams::optimal(threshold, config.minhash.num_perm)?;
            by_threshold.push((threshold, params, measure::by_lsh(&pages, &sites, params)?));
        }
        println!(
            "## {}\n\n{} pages, {} in {} sites with two pages or more.\n",
            path.display(),
            pages.len(),
            exhaustive.found.len(),
            sites.len()
        );
        print_thresholds(&by_threshold, &exhaustive);
        print_fallback(&by_threshold, &exhaustive);
        if exhaustive.pairs_known > 0 {
            print_bins(&exhaustive);
        }
    }
    Ok(())
}

/// Coverage, cost and partner quality at each threshold, and without LSH.
fn print_thresholds(by_threshold: &[(f64, LshParams, Outcome)], exhaustive: &Outcome) {
    println!(
        "| threshold | bands × rows | pages with a partner | with two | candidates / page \
         | partners / page | best = exhaustive best |\n| --- | --- | --- | --- | --- | --- | --- |"
    );
    for (threshold, params, outcome) in by_threshold {
        let first = format!("{threshold:.1} | {} × {}", params.bands, params.rows);
        print_coverage(&first, outcome, Some(exhaustive));
    }
    print_coverage("exhaustive | —", exhaustive, None);
    println!(
        "\n| threshold | best partner's J: p10 / p25 / median | pair precision \
         | best partner same template | second partner same template |\n| --- | --- | --- | --- | --- |"
    );
    for (threshold, _, outcome) in by_threshold {
        print_quality(&format!("{threshold:.1}"), outcome);
    }
    print_quality("exhaustive", exhaustive);
    println!();
}

fn print_coverage(first: &str, outcome: &Outcome, exhaustive: Option<&Outcome>) {
    let pages = outcome.found.len();
    let count = |has: fn(&Found) -> bool| outcome.found.values().filter(|f| has(f)).count();
    let mean = |count: fn(&Found) -> usize| {
        outcome.found.values().map(count).sum::<usize>() as f64 / pages as f64
    };
    let with_best = count(|f| f.best.is_some());
    let finds_best = exhaustive.map_or_else(
        || "—".to_owned(),
        |e| share(best_found(outcome, e), with_best),
    );
    println!(
        "| {first} | {} | {} | {:.1} | {:.1} | {finds_best} |",
        share(with_best, pages),
        share(count(|f| f.second.is_some()), pages),
        mean(|f| f.candidates),
        mean(|f| f.partners),
    );
}

fn print_quality(first: &str, outcome: &Outcome) {
    let best: Vec<Partner> = outcome.found.values().filter_map(|f| f.best).collect();
    let second: Vec<Partner> = outcome.found.values().filter_map(|f| f.second).collect();
    let mut jaccards: Vec<f64> = best.iter().map(|p| p.jaccard).collect();
    jaccards.sort_by(f64::total_cmp);
    println!(
        "| {first} | {} / {} / {} | {} | {} | {} |",
        quantile(&jaccards, 0.1),
        quantile(&jaccards, 0.25),
        quantile(&jaccards, 0.5),
        share(outcome.pairs_same, outcome.pairs_known),
        same_template(&best),
        same_template(&second),
    );
}

/// Pages whose best LSH partner is as similar as their best partner in the whole site.
fn best_found(outcome: &Outcome, exhaustive: &Outcome) -> usize {
    outcome
        .found
        .iter()
        .filter_map(|(id, found)| Some((found.best?, exhaustive.found.get(id)?.best?)))
        .filter(|(lsh, all)| lsh.jaccard >= all.jaccard)
        .count()
}

/// What an exhaustive query adds for the pages LSH leaves without a partner.
fn print_fallback(by_threshold: &[(f64, LshParams, Outcome)], exhaustive: &Outcome) {
    let floors: String = FLOORS
        .iter()
        .map(|f| format!(" with fallback ≥ {f:.1} |"))
        .collect();
    println!(
        "| threshold | pages without a partner | their best in site: p10 / median / p90 \
         | same template |{floors}\n|{}",
        " --- |".repeat(4 + FLOORS.len())
    );
    for (threshold, _, outcome) in by_threshold {
        let orphans: Vec<Partner> = outcome
            .found
            .iter()
            .filter(|(_, found)| found.best.is_none())
            .filter_map(|(id, _)| exhaustive.found.get(id)?.best)
            .collect();
        let mut jaccards: Vec<f64> = orphans.iter().map(|p| p.jaccard).collect();
        jaccards.sort_by(f64::total_cmp);
        let pages = outcome.found.len();
        let covered = pages - orphans.len();
        let with_floor: String = FLOORS
            .iter()
            .map(|&floor| {
                let rescued = orphans.iter().filter(|p| p.jaccard >= floor).count();
                format!(" {} |", share(covered + rescued, pages))
            })
            .collect();
        println!(
            "| {threshold:.1} | {} | {} / {} / {} | {} |{with_floor}",
            orphans.len(),
            quantile(&jaccards, 0.1),
            quantile(&jaccards, 0.5),
            quantile(&jaccards, 0.9),
            same_template(&orphans),
        );
    }
    println!();
}

/// How often the best partner in the site shares the page's template, by its similarity.
fn print_bins(exhaustive: &Outcome) {
    println!("| best partner's J | pages | same template |\n| --- | --- | --- |");
    let best: Vec<Partner> = exhaustive.found.values().filter_map(|f| f.best).collect();
    for (i, &low) in BINS.iter().enumerate() {
        let high = BINS.get(i + 1).copied().unwrap_or(f64::INFINITY);
        let bin: Vec<Partner> = best
            .iter()
            .copied()
            .filter(|p| (low..high).contains(&p.jaccard))
            .collect();
        let label = if high.is_finite() {
            format!("{low:.1}–{high:.1}")
        } else {
            format!("≥ {low:.1}")
        };
        println!("| {label} | {} | {} |", bin.len(), same_template(&bin));
    }
    println!();
}

/// Share of `partners` with the page's template, among those where it is known.
fn same_template(partners: &[Partner]) -> String {
    let known: Vec<bool> = partners.iter().filter_map(|p| p.same_template).collect();
    share(known.iter().filter(|&&same| same).count(), known.len())
}

/// `part / whole` as a percentage with the counts, or a dash for an empty whole.
fn share(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "—".to_owned();
    }
    format!(
        "{:.0}% ({part}/{whole})",
        100.0 * part as f64 / whole as f64
    )
}

/// The nearest-rank `q`-quantile of sorted `values`, or a dash if there are none.
fn quantile(sorted: &[f64], q: f64) -> String {
    if sorted.is_empty() {
        return "—".to_owned();
    }
    let rank = (q * sorted.len() as f64).ceil().max(1.0) as usize;
    format!("{:.2}", sorted[rank.min(sorted.len()) - 1])
}

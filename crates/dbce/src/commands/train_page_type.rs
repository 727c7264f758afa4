//! `dbce train-page-type`: the page-type model, from datasets with `page_type` labels, with
//! its cross-validation grouped by site (`dbce_learn::train::page_type`).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use dbce_learn::train::page_type::{
    DEPTH, PageTypeOptions, TREES, forest_params, train_page_types,
};
use dbce_minhash::MinHasher;

use super::config::ConfigArgs;

/// Arguments of `dbce train-page-type`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Dataset folders whose `meta.jsonl` gives every page a `page_type`.
    datasets: Vec<PathBuf>,
    /// A dataset folder whose pages are all articles (news sets without labels); may be
    /// given several times.
    #[arg(long, value_name = "DATASET")]
    articles: Vec<PathBuf>,
    /// A dataset folder of articles that is not trained on, only classified by the final
    /// model: a leave-dataset-out check; may be given several times.
    #[arg(long, value_name = "DATASET")]
    test_articles: Vec<PathBuf>,
    /// Where to write the model.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Folds of the cross-validation grouped by site; 0 or 1 skips it.
    #[arg(long, default_value_t = 5)]
    folds: usize,
    /// Trees per type.
    #[arg(long, default_value_t = TREES)]
    trees: u32,
    /// Depth limit of each tree.
    #[arg(long, default_value_t = DEPTH)]
    depth: u32,
    #[command(flatten)]
    config: ConfigArgs,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        !args.datasets.is_empty() || !args.articles.is_empty(),
        "give dataset folders with page_type labels, or --articles DATASET"
    );
    let config = args.config.resolve()?;
    let hasher = MinHasher::new(config.minhash).context("invalid MinHash settings")?;
    let trained = train_page_types(&PageTypeOptions {
        labelled: &args.datasets,
        articles: &args.articles,
        test_articles: &args.test_articles,
        folds: args.folds,
        params: forest_params(args.trees, args.depth, config.annotate.seed),
        sanitize: &config.sanitize,
        hasher: &hasher,
        peer_threshold: config.lsh.threshold,
    })?;
    let bytes = trained.model.encode()?;
    std::fs::write(&args.out, &bytes)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "dbce: page-type model trained on {} pages, {} bytes, written to {}",
        trained.pages,
        bytes.len(),
        args.out.display()
    );
    std::io::stdout().write_all(trained.report.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

//! `dbce train-page-type`: the page-type model, from datasets with `page_type` labels, with
//! its cross-validation grouped by site.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use dbce_classify::page_type::{
    Confusion, PAGE_TYPE_FEATURE_NAMES, SMOOTHING_CONFIDENCE, error_page, page_type_features,
    smooth_page_types, validate_page_types,
};
use dbce_classify::{PageType, PageTypeGuess, PageTypeModel};
use dbce_dom::{Document, TemplateTokens};
use dbce_eval::Dataset;
use dbce_forest::ForestParams;
use dbce_minhash::{MinHasher, jaccard_of_values};
use rayon::prelude::*;

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
    #[arg(long, default_value_t = 48)]
    trees: u32,
    /// Depth limit of each tree.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    #[command(flatten)]
    config: ConfigArgs,
}

/// One page's training row.
struct Example {
    dataset: String,
    /// The page's site, or its own id when it has none: the unit of the folds.
    group: String,
    label: PageType,
    row: Vec<f32>,
    /// Whether an error rule fires on it.
    error_rule: bool,
    signature: Vec<u32>,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        !args.datasets.is_empty() || !args.articles.is_empty(),
        "give dataset folders with page_type labels, or --articles DATASET"
    );
    let config = args.config.resolve()?;
    let hasher = MinHasher::new(config.minhash).context("invalid MinHash settings")?;
    let mut examples = Vec::new();
    for (dir, labelled) in args
        .datasets
        .iter()
        .map(|d| (d, true))
        .chain(args.articles.iter().map(|d| (d, false)))
    {
        examples.extend(read_examples(dir, labelled, &config.sanitize, &hasher)?);
    }
    let rows: Vec<f32> = examples
        .iter()
        .flat_map(|e| e.row.iter().copied())
        .collect();
    let labels: Vec<PageType> = examples.iter().map(|e| e.label).collect();
    let params = ForestParams {
        trees: args.trees,
        max_depth: args.depth,
        min_samples_leaf: 2,
        class_weight_balanced: true,
        seed: config.annotate.seed,
        ..ForestParams::default()
    };
    let mut report = String::new();
    report_counts(&examples, &mut report);
    if args.folds > 1 {
        let groups: Vec<String> = examples.iter().map(|e| e.group.clone()).collect();
        let validation = validate_page_types(&rows, &labels, &groups, args.folds, &params)?;
        report_held_out(&examples, &validation.held_out, args.folds, &mut report);
        report_smoothing(
            &examples,
            &validation.held_out,
            config.lsh.threshold,
            &mut report,
        );
    }
    let model = PageTypeModel::fit(&rows, &labels, &params)?;
    let width = PAGE_TYPE_FEATURE_NAMES.len();
    let in_sample: Vec<PageType> = (0..labels.len())
        .map(|i| model.predict(&rows[i * width..(i + 1) * width]).page_type)
        .collect();
    report.push_str("\n### In sample (the model trained on every page)\n\n");
    report.push_str(&Confusion::of(&labels, &in_sample).to_markdown());
    for dir in &args.test_articles {
        let tests = read_examples(dir, false, &config.sanitize, &hasher)?;
        let (truth, predicted): (Vec<PageType>, Vec<PageType>) = tests
            .iter()
            .map(|e| (e.label, model.predict(&e.row).page_type))
            .unzip();
        report.push_str(&format!(
            "\n### Not trained on: {} (every page an article)\n\n",
            dir.display()
        ));
        report.push_str(&Confusion::of(&truth, &predicted).to_markdown());
    }
    report_importances(&model, &mut report);
    let bytes = model.encode()?;
    std::fs::write(&args.out, &bytes)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "dbce: page-type model trained on {} pages, {} bytes, written to {}",
        labels.len(),
        bytes.len(),
        args.out.display()
    );
    std::io::stdout().write_all(report.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The examples of the dataset in `dir`: its labels, or `article` for every page when it is
/// not `labelled`.
fn read_examples(
    dir: &Path,
    labelled: bool,
    sanitize: &dbce_dom::SanitizeConfig,
    hasher: &MinHasher,
) -> anyhow::Result<Vec<Example>> {
    let dataset = Dataset::load(dir).with_context(|| format!("cannot load {}", dir.display()))?;
    let name = dataset.name.clone();
    dataset
        .pages
        .par_iter()
        .map(|page| {
            let label = if labelled {
                let label = page
                    .page_type
                    .as_deref()
                    .with_context(|| format!("{name}/{}: no page_type in meta.jsonl", page.id))?;
                label.parse()?
            } else {
                PageType::Article
            };
            let bytes = std::fs::read(&page.html_path)
                .with_context(|| format!("cannot read {}", page.html_path.display()))?;
            let html = dbce_http::decode_html(&bytes, None).text;
            let doc = Document::parse(&html, sanitize)
                .with_context(|| format!("cannot parse {}", page.html_path.display()))?;
            let url = page.url.as_deref().unwrap_or_default();
            let mut tokens = Vec::new();
            TemplateTokens::new().for_each(&doc, |t| tokens.push(t.to_owned()));
            Ok(Example {
                dataset: name.clone(),
                group: format!("{name}:{}", page.site.as_deref().unwrap_or(&page.id)),
                label,
                row: page_type_features(&doc, url, &html),
                error_rule: error_page(&doc, url).is_some(),
                signature: hasher.signature(&tokens).values().to_vec(),
            })
        })
        .collect()
}

fn report_counts(examples: &[Example], report: &mut String) {
    let mut per: BTreeMap<(&str, PageType), (u32, u32)> = BTreeMap::new();
    for e in examples {
        let entry = per.entry((&e.dataset, e.label)).or_default();
        entry.0 += 1;
        entry.1 += u32::from(e.error_rule);
    }
    report.push_str("### Training pages, and how many of them the error rules call errors\n\n");
    report.push_str("| dataset | type | pages | error rules fire |\n| --- | --- | ---: | ---: |\n");
    for ((dataset, label), (pages, errors)) in per {
        report.push_str(&format!("| {dataset} | {label} | {pages} | {errors} |\n"));
    }
}

fn report_held_out(
    examples: &[Example],
    held_out: &[PageTypeGuess],
    folds: usize,
    report: &mut String,
) {
    for dataset in dataset_names(examples) {
        let (truth, predicted): (Vec<PageType>, Vec<PageType>) = examples
            .iter()
            .zip(held_out)
            .filter(|(e, _)| e.dataset == dataset)
            .map(|(e, g)| (e.label, g.page_type))
            .unzip();
        report.push_str(&format!(
            "\n### Held out: {dataset} ({folds} folds grouped by site)\n\n"
        ));
        report.push_str(&Confusion::of(&truth, &predicted).to_markdown());
    }
}

/// Held-out accuracy on pages that have template peers (same dataset and site, estimated
/// Jaccard of template tokens at least `threshold`, as an LSH bucket would hold them),
/// before and after [`smooth_page_types`].
fn report_smoothing(
    examples: &[Example],
    held_out: &[PageTypeGuess],
    threshold: f64,
    report: &mut String,
) {
    let mut by_group: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, e) in examples.iter().enumerate() {
        by_group.entry(&e.group).or_default().push(i);
    }
    let mut peers = vec![Vec::new(); examples.len()];
    for members in by_group.values() {
        for &a in members {
            peers[a] = members
                .iter()
                .copied()
                .filter(|&b| {
                    b != a
                        && jaccard_of_values(&examples[a].signature, &examples[b].signature)
                            >= threshold
                })
                .collect();
        }
    }
    report.push_str(&format!(
        "\n### Smoothing over template peers (held out)\n\n\
         Pages with peers: same dataset and site, estimated Jaccard of template tokens >= \
         {threshold}. Accuracy of their held-out types alone and smoothed with each confidence \
         bound (the pipeline's is {SMOOTHING_CONFIDENCE}).\n\n\
         | dataset | pages with peers | alone | < 0.4 | < 0.5 | < 0.6 | < 0.7 |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
    ));
    let smoothed: Vec<Vec<PageTypeGuess>> = [0.4, 0.5, 0.6, 0.7]
        .iter()
        .map(|&bound| smooth_page_types(held_out, &peers, bound))
        .collect();
    for dataset in dataset_names(examples) {
        let with_peers: Vec<usize> = (0..examples.len())
            .filter(|&i| examples[i].dataset == dataset && !peers[i].is_empty())
            .collect();
        let accuracy = |guesses: &[PageTypeGuess]| {
            let right = with_peers
                .iter()
                .filter(|&&i| guesses[i].page_type == examples[i].label)
                .count();
            right as f64 / with_peers.len().max(1) as f64
        };
        report.push_str(&format!(
            "| {dataset} | {} | {:.3} |",
            with_peers.len(),
            accuracy(held_out)
        ));
        for guesses in &smoothed {
            report.push_str(&format!(" {:.3} |", accuracy(guesses)));
        }
        report.push('\n');
    }
}

/// The datasets of `examples`, in their order.
fn dataset_names(examples: &[Example]) -> Vec<&str> {
    let mut names: Vec<&str> = examples.iter().map(|e| e.dataset.as_str()).collect();
    names.dedup();
    names
}

fn report_importances(model: &PageTypeModel, report: &mut String) {
    let mut importances = model.feature_importances();
    importances.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    report.push_str("\n### Most important features (mean over the forests)\n\n");
    for (name, value) in importances.iter().take(15) {
        report.push_str(&format!("- `{name}` {value:.3}\n"));
    }
}

//! The page-type model, from datasets with `page_type` labels, with its cross-validation
//! grouped by site (`dbce train-page-type`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dbce_classify::page_type::{
    Confusion, PAGE_TYPE_FEATURE_NAMES, SMOOTHING_CONFIDENCE, error_page, page_type_features,
    smooth_page_types, validate_page_types,
};
use dbce_classify::{PageType, PageTypeGuess, PageTypeModel};
use dbce_dom::{Document, SanitizeConfig, TemplateTokens};
use dbce_eval::Dataset;
use dbce_forest::ForestParams;
use dbce_minhash::{MinHasher, jaccard_of_values};
use rayon::prelude::*;

use super::TrainError;

/// Trees per type of the built-in model.
pub const TREES: u32 = 48;

/// Depth limit of each tree of the built-in model.
pub const DEPTH: u32 = 12;

/// The forests of a page-type model of `trees` trees per type, each of depth at most `depth`,
/// as the built-in one is trained (classes weighted to balance, leaves of at least two pages).
pub fn forest_params(trees: u32, depth: u32, seed: u64) -> ForestParams {
    ForestParams {
        trees,
        max_depth: depth,
        min_samples_leaf: 2,
        class_weight_balanced: true,
        seed,
        ..ForestParams::default()
    }
}

/// What [`train_page_types`] trains on and how.
#[derive(Debug, Clone)]
pub struct PageTypeOptions<'a> {
    /// Dataset folders whose `meta.jsonl` gives every page a `page_type`.
    pub labelled: &'a [PathBuf],
    /// Dataset folders whose pages are all articles (news sets without labels).
    pub articles: &'a [PathBuf],
    /// Dataset folders of articles not trained on, only classified by the final model: a
    /// leave-dataset-out check.
    pub test_articles: &'a [PathBuf],
    /// Folds of the cross-validation grouped by site; 0 or 1 skips it.
    pub folds: usize,
    /// The forests' parameters ([`forest_params`]).
    pub params: ForestParams,
    /// How pages are parsed.
    pub sanitize: &'a SanitizeConfig,
    /// The MinHash of template tokens, to find a page's template peers.
    pub hasher: &'a MinHasher,
    /// Least estimated Jaccard of two pages of a site that are template peers (the LSH
    /// threshold).
    pub peer_threshold: f64,
}

/// A page-type model trained by [`train_page_types`], with its report.
#[derive(Debug, Clone)]
pub struct TrainedPageTypes {
    /// The model trained on every page.
    pub model: PageTypeModel,
    /// The pages trained on.
    pub pages: usize,
    /// Training pages per dataset and type, held-out confusion matrices, smoothing over
    /// template peers, the in-sample and not-trained-on matrices and the most important
    /// features, in Markdown.
    pub report: String,
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

/// Trains the page-type model on the pages of `options`, after validating it in folds
/// grouped by site, and reports on both.
///
/// # Errors
/// [`TrainError::Dataset`], [`TrainError::Read`] or [`TrainError::Parse`] when a dataset
/// cannot be read, [`TrainError::MissingPageType`] or [`TrainError::PageType`] when a page of
/// a labelled dataset has no type or an unknown one, [`TrainError::PageTypeModel`] when the
/// forests refuse the pages.
pub fn train_page_types(options: &PageTypeOptions<'_>) -> Result<TrainedPageTypes, TrainError> {
    let mut examples = Vec::new();
    for (dir, labelled) in options
        .labelled
        .iter()
        .map(|d| (d, true))
        .chain(options.articles.iter().map(|d| (d, false)))
    {
        examples.extend(read_examples(dir, labelled, options)?);
    }
    let rows: Vec<f32> = examples
        .iter()
        .flat_map(|e| e.row.iter().copied())
        .collect();
    let labels: Vec<PageType> = examples.iter().map(|e| e.label).collect();
    let params = &options.params;
    let mut report = String::new();
    report_counts(&examples, &mut report);
    if options.folds > 1 {
        let groups: Vec<String> = examples.iter().map(|e| e.group.clone()).collect();
        let validation = validate_page_types(&rows, &labels, &groups, options.folds, params)?;
        report_held_out(&examples, &validation.held_out, options.folds, &mut report);
        report_smoothing(
            &examples,
            &validation.held_out,
            options.peer_threshold,
            &mut report,
        );
    }
    let model = PageTypeModel::fit(&rows, &labels, params)?;
    let width = PAGE_TYPE_FEATURE_NAMES.len();
    let in_sample: Vec<PageType> = (0..labels.len())
        .map(|i| model.predict(&rows[i * width..(i + 1) * width]).page_type)
        .collect();
    report.push_str("\n### In sample (the model trained on every page)\n\n");
    report.push_str(&Confusion::of(&labels, &in_sample).to_markdown());
    for dir in options.test_articles {
        let tests = read_examples(dir, false, options)?;
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
    Ok(TrainedPageTypes {
        model,
        pages: labels.len(),
        report,
    })
}

/// The examples of the dataset in `dir`: its labels, or `article` for every page when it is
/// not `labelled`.
fn read_examples(
    dir: &Path,
    labelled: bool,
    options: &PageTypeOptions<'_>,
) -> Result<Vec<Example>, TrainError> {
    let dataset = Dataset::load(dir).map_err(|source| TrainError::Dataset {
        path: dir.to_owned(),
        source: Box::new(source),
    })?;
    let name = dataset.name.clone();
    dataset
        .pages
        .par_iter()
        .map(|page| {
            let label = if labelled {
                let label =
                    page.page_type
                        .as_deref()
                        .ok_or_else(|| TrainError::MissingPageType {
                            dataset: name.clone(),
                            id: page.id.clone(),
                        })?;
                label.parse().map_err(|source| TrainError::PageType {
                    page: format!("{name}/{}", page.id),
                    source,
                })?
            } else {
                PageType::Article
            };
            let bytes = page.read_html().map_err(|source| TrainError::Read {
                dataset: name.clone(),
                id: page.id.clone(),
                source: Box::new(source),
            })?;
            let html = dbce_http::decode_html(&bytes, None).text;
            let doc =
                Document::parse(&html, options.sanitize).map_err(|source| TrainError::Parse {
                    dataset: name.clone(),
                    id: page.id.clone(),
                    source,
                })?;
            let url = page.url.as_deref().unwrap_or_default();
            let mut tokens = Vec::new();
            TemplateTokens::new().for_each(&doc, |t| tokens.push(t.to_owned()));
            Ok(Example {
                dataset: name.clone(),
                group: format!("{name}:{}", page.site.as_deref().unwrap_or(&page.id)),
                label,
                row: page_type_features(&doc, url, &html),
                error_rule: error_page(&doc, url).is_some(),
                signature: options.hasher.signature(&tokens).values().to_vec(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn example(dataset: &str, label: PageType, error_rule: bool) -> Example {
        Example {
            dataset: dataset.into(),
            group: format!("{dataset}:site"),
            label,
            row: Vec::new(),
            error_rule,
            signature: Vec::new(),
        }
    }

    #[test]
    fn training_pages_are_counted_per_dataset_and_type() {
        let examples = [
            example("wcxb", PageType::Listing, false),
            example("wcxb", PageType::Article, true),
            example("wcxb", PageType::Listing, true),
            example("news", PageType::Article, false),
        ];
        let mut report = String::new();
        report_counts(&examples, &mut report);
        let rows: Vec<&str> = report.lines().skip(4).collect();
        assert_eq!(
            rows,
            [
                "| news | article | 1 | 0 |",
                "| wcxb | article | 1 | 1 |",
                "| wcxb | listing | 2 | 1 |",
            ]
        );
        assert_eq!(dataset_names(&examples), ["wcxb", "news"]);
    }
}

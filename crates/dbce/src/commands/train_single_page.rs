//! `dbce train-single-page`: the learned block model of `annotate.single-page = "blocks"`,
//! trained on dataset folders, and its held-out validation.
//!
//! Every text block is labelled content when at least `--min-aligned` of its words align with
//! the ground truth (`SequenceMatcher` over the page's and the truth's words, as `dbce train`
//! labels runs). Extracted text is the content blocks, one per line, scored with ROUGE-LSum
//! against the truth, beside Readability's blocks on the same pages.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use dbce_classify::page_type::{error_page, page_type_features};
use dbce_classify::{
    BlockModel, LearnedBlocks, PageType, PageTypeGuess, PageTypeModel, block_feature_names,
    block_rows, readability_keeps, text_blocks,
};
use dbce_dom::{Document, SanitizeConfig};
use dbce_eval::{Dataset, RougeScorer};
use dbce_forest::ForestParams;
use rayon::prelude::*;

use super::train::label_runs;

mod nested;

/// Arguments of `dbce train-single-page`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Dataset folders laid out as `html/ID.html`, `gt/ID.txt`, `meta.jsonl` (with an optional
    /// `page_type` per line).
    #[arg(required = true)]
    datasets: Vec<PathBuf>,
    /// Where to write the model trained on every page.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also validate held out: `--folds` folds grouped by site over all pages.
    #[arg(long)]
    cross_validate: bool,
    /// Also validate the route's thresholds nested: chosen for each fold of the grouped
    /// cross-validation on the other folds, by models trained on neither, with page types
    /// held out as well (implies `--cross-validate`).
    #[arg(long)]
    nested: bool,
    /// Datasets (by name) whose pages the page-type models of `--nested` train on as
    /// articles, as `scripts/train-page-type` trains the built-in one; pages with a
    /// `page_type` in `meta.jsonl` are always trained on (comma-separated).
    #[arg(long, value_delimiter = ',')]
    page_type_articles: Vec<String>,
    /// Also validate held out: each dataset left out in turn, with every page of its sites.
    #[arg(long)]
    leave_dataset_out: bool,
    /// Folds of the grouped cross-validation.
    #[arg(long, default_value_t = 5)]
    folds: u64,
    /// Trees in the forest. 32 trees of depth 16 with leaves of 16 draws score 0.008 higher
    /// held out on wcxb-dev than 24 of depth 12 with leaves of 8, and as high or higher on
    /// every older set; 48 trees score no higher (docs/single-page.md).
    #[arg(long, default_value_t = 32)]
    trees: u32,
    /// Depth limit of each tree.
    #[arg(long, default_value_t = 16)]
    depth: u32,
    /// Fewest bootstrap draws in a leaf.
    #[arg(long, default_value_t = 16)]
    min_leaf: u32,
    /// Bootstrap draws per tree as a share of the blocks.
    #[arg(long, default_value_t = 0.5)]
    sample_fraction: f32,
    /// A block is content when at least this share of its words align with the ground truth.
    #[arg(long, default_value_t = 0.5)]
    min_aligned: f64,
    /// Lowest forest probabilities at which a block is content, in the validation
    /// (comma-separated: one column each).
    #[arg(long, value_delimiter = ',', default_value = "0.5")]
    threshold: Vec<f32>,
    /// Word counts at which a block is trained on once more (`8,30`: blocks of 8 words count
    /// twice, of 30 thrice), so that the forest minds long blocks as ROUGE does.
    #[arg(long, value_delimiter = ',')]
    word_weight: Vec<usize>,
    /// Times each dataset's blocks are trained on, in the order of the datasets (default 1
    /// each): the older news sets are small beside wcxb-dev.
    #[arg(long, value_delimiter = ',')]
    dataset_weight: Vec<usize>,
    /// Times the pages of a labelled page type are trained on, as `TYPE=TIMES`
    /// (comma-separated; other types once), on top of `--dataset-weight`.
    #[arg(long, value_delimiter = ',', value_parser = parse_type_weight)]
    type_weight: Vec<(String, usize)>,
    /// Also score the pipeline's route by page type (the built-in page-type model's guess):
    /// pages typed `article` by Readability and, for each of these thresholds U, by the
    /// forest with Readability's blocks at 0.35 and the others at U; the other pages by the
    /// forest at each `--threshold` (comma-separated).
    #[arg(long, value_delimiter = ',')]
    article_outside: Vec<f32>,
    /// Write each page's F1 per column to this JSONL file.
    #[arg(long, value_name = "FILE")]
    scores: Option<PathBuf>,
    /// Write each page to this JSONL file for analyses of routes: its truth, the type the
    /// built-in page-type model gives it, and per block the text, its element's and ancestors'
    /// ids, label, Readability's verdict and the forest's probabilities (in sample, and held
    /// out where validated).
    #[arg(long, value_name = "FILE")]
    pages_out: Option<PathBuf>,
    /// Seed of the forest.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// How models are trained.
struct Training {
    params: ForestParams,
    word_steps: Vec<usize>,
    dataset_weight: Vec<usize>,
    type_weight: Vec<(String, usize)>,
}

/// A `TYPE=TIMES` of `--type-weight`.
fn parse_type_weight(text: &str) -> Result<(String, usize), String> {
    let (name, times) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: expected TYPE=TIMES"))?;
    let page_type = name.parse::<PageType>().map_err(|e| e.to_string())?;
    let times = times
        .parse()
        .map_err(|_| format!("{times:?}: expected a whole number of times"))?;
    Ok((page_type.name().to_owned(), times))
}

/// One page's blocks, ready to train on and to score.
struct Page {
    dataset: usize,
    id: String,
    /// Site (registrable domain) or, without one, the dataset and page id.
    group: String,
    page_type: String,
    /// Whether `page_type` comes from `meta.jsonl` (else it is `article` by default).
    labelled_type: bool,
    truth: String,
    texts: Vec<String>,
    /// Per block, the ids of its element and of that element's ancestors, innermost first
    /// (for page-level analyses of `--pages-out`).
    elements: Vec<Vec<u32>>,
    rows: Vec<f32>,
    labels: Vec<bool>,
    readability: Vec<bool>,
    /// The built-in page-type model's guess, as the pipeline routes the page.
    guess: PageTypeGuess,
    /// The page's row of page-type features, for page-type models trained in folds.
    type_row: Vec<f32>,
    /// The error rule's verdict, when one fires (it overrides any page-type model).
    error_rule: Option<PageTypeGuess>,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let mut names = Vec::new();
    let mut pages = Vec::new();
    for (index, dir) in args.datasets.iter().enumerate() {
        let (name, loaded) = load_pages(dir, index, args.min_aligned)?;
        eprintln!(
            "dbce: {name}: {} pages, {} blocks, {} content ({:.1} s)",
            loaded.len(),
            loaded.iter().map(|p| p.labels.len()).sum::<usize>(),
            loaded
                .iter()
                .flat_map(|p| &p.labels)
                .filter(|&&l| l)
                .count(),
            started.elapsed().as_secs_f64()
        );
        names.push(name);
        pages.extend(loaded);
    }
    let training = Training {
        params: ForestParams {
            trees: args.trees,
            max_depth: args.depth,
            min_samples_leaf: args.min_leaf,
            sample_fraction: args.sample_fraction,
            seed: args.seed,
            ..ForestParams::default()
        },
        word_steps: args.word_weight.clone(),
        dataset_weight: args.dataset_weight.clone(),
        type_weight: args.type_weight.clone(),
    };
    let all: Vec<usize> = (0..pages.len()).collect();
    let model = fit(&pages, &all, &training)?;
    let mut columns: Vec<(String, Vec<Option<Vec<bool>>>)> = vec![
        (
            "labels".into(),
            pages.iter().map(|p| Some(p.labels.clone())).collect(),
        ),
        (
            "readability".into(),
            pages.iter().map(|p| Some(p.readability.clone())).collect(),
        ),
    ];
    let mut probabilities = vec![("in-sample", predict_all(&model, &pages, &all))];
    if let Some(out) = &args.out {
        std::fs::write(out, model.encode()?)
            .with_context(|| format!("cannot write {}", out.display()))?;
        eprintln!(
            "dbce: model of {} trees, {} nodes written to {}",
            model.forest().n_trees(),
            model.forest().n_nodes(),
            out.display()
        );
        print_importances(&model);
    }
    let mut nested_report = None;
    let mut held_out_types = None;
    if args.cross_validate || args.nested {
        let folds = fold_of(&pages, args.folds);
        let outer = site_folds(&pages, &folds, args.folds, &training)?;
        if args.nested {
            let type_articles: Vec<bool> = names
                .iter()
                .map(|n| args.page_type_articles.contains(n))
                .collect();
            let nested = nested::validate(
                &pages,
                &folds,
                args.folds,
                &training,
                &type_articles,
                &outer,
            )?;
            columns.extend(nested.columns);
            nested_report = Some(nested.report);
            held_out_types = Some(nested.types);
        }
        probabilities.push(("site folds", outer));
    }
    if args.leave_dataset_out {
        probabilities.push((
            "dataset out",
            leave_dataset_out(&pages, names.len(), &training)?,
        ));
    }
    for (name, p) in &probabilities {
        add_columns(&mut columns, name, p, &args.threshold);
    }
    if !args.article_outside.is_empty() {
        for (name, p) in &probabilities {
            add_route_columns(&mut columns, &pages, name, p, args);
        }
    }
    if let Some(path) = &args.pages_out {
        write_pages(
            path,
            &names,
            &pages,
            &probabilities,
            held_out_types.as_deref(),
        )?;
    }
    let scores: Vec<Vec<Option<f64>>> = columns.iter().map(|(_, v)| page_f1(&pages, v)).collect();
    print_tables(&names, &pages, &columns, &scores);
    if let Some(report) = nested_report {
        println!("\nThresholds chosen in each fold (`--nested`):\n\n{report}");
    }
    if let Some(path) = &args.scores {
        write_scores(path, &names, &pages, &columns, &scores)?;
    }
    eprintln!("dbce: done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// Reads, segments, labels and describes every page of the dataset in `dir`.
fn load_pages(dir: &Path, index: usize, min_aligned: f64) -> anyhow::Result<(String, Vec<Page>)> {
    let dataset = Dataset::load(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let types = page_types(&dir.join("meta.jsonl"))?;
    let width = block_feature_names().len();
    let pages = dataset
        .pages
        .par_iter()
        .map(|page| -> anyhow::Result<Page> {
            let html = std::fs::read(&page.html_path)
                .with_context(|| format!("cannot read {}", page.html_path.display()))?;
            let doc = Document::parse(&String::from_utf8_lossy(&html), &SanitizeConfig::default())?;
            let blocks = text_blocks(&doc);
            let rows = block_rows(&doc, &blocks);
            let elements = blocks
                .iter()
                .map(|b| {
                    doc.get(b.element).map_or_else(Vec::new, |n| {
                        std::iter::once(n)
                            .chain(n.ancestors())
                            .map(|a| a.id().get())
                            .collect()
                    })
                })
                .collect();
            let texts: Vec<String> = blocks.into_iter().map(|b| b.text).collect();
            let url = page.url.as_deref().unwrap_or_default();
            let html = String::from_utf8_lossy(&html);
            let error_rule = error_page(&doc, url).map(|rule| PageTypeGuess {
                page_type: PageType::Error,
                confidence: rule.confidence(),
            });
            let type_row = page_type_features(&doc, url, &html);
            Ok(Page {
                guess: error_rule.unwrap_or_else(|| PageTypeModel::built_in().predict(&type_row)),
                error_rule,
                type_row,
                labelled_type: types.contains_key(&page.id),
                dataset: index,
                id: page.id.clone(),
                group: page
                    .site
                    .clone()
                    .unwrap_or_else(|| format!("{}/{}", dataset.name, page.id)),
                page_type: types
                    .get(&page.id)
                    .cloned()
                    .unwrap_or_else(|| "article".into()),
                labels: label_blocks(&texts, &page.ground_truth, min_aligned),
                readability: rows.chunks_exact(width).map(readability_keeps).collect(),
                truth: page.ground_truth.clone(),
                texts,
                elements,
                rows,
            })
        })
        .collect::<anyhow::Result<Vec<Page>>>()?;
    Ok((dataset.name, pages))
}

/// Labels each block: content when most of its words align with the truth in order
/// ([`label_runs`]), or when it has at least [`MIN_CONTAINED_WORDS`] words and the truth
/// contains its whole text (white space collapsed) anywhere: the truth of forum threads and
/// listings does not always keep the page's order, which the alignment alone misses.
fn label_blocks(texts: &[String], truth: &str, min_aligned: f64) -> Vec<bool> {
    let flat = truth.split_whitespace().collect::<Vec<_>>().join(" ");
    label_runs(texts, truth, min_aligned)
        .into_iter()
        .zip(texts)
        .map(|(aligned, text)| {
            aligned
                || (text.split_whitespace().count() >= MIN_CONTAINED_WORDS
                    && flat.contains(text.as_str()))
        })
        .collect()
}

/// Fewest words of a block whose text found anywhere in the truth makes it content.
const MIN_CONTAINED_WORDS: usize = 10;

/// `page_type` of each id in a `meta.jsonl`, where given.
fn page_types(meta: &Path) -> anyhow::Result<BTreeMap<String, String>> {
    let text =
        std::fs::read_to_string(meta).with_context(|| format!("cannot read {}", meta.display()))?;
    let mut types = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let value: serde_json::Value = serde_json::from_str(line)?;
        if let (Some(id), Some(kind)) = (value["id"].as_str(), value["page_type"].as_str()) {
            types.insert(id.to_owned(), kind.to_owned());
        }
    }
    Ok(types)
}

/// A model trained on the pages at `train`.
fn fit(pages: &[Page], train: &[usize], training: &Training) -> anyhow::Result<BlockModel> {
    let mut rows = Vec::new();
    let mut labels = Vec::new();
    let width = block_feature_names().len();
    for &i in train {
        let page = &pages[i];
        let page_times = training
            .dataset_weight
            .get(page.dataset)
            .copied()
            .unwrap_or(1)
            * training
                .type_weight
                .iter()
                .find(|(t, _)| page.labelled_type && *t == page.page_type)
                .map_or(1, |&(_, times)| times);
        for ((row, &label), text) in page
            .rows
            .chunks_exact(width)
            .zip(&page.labels)
            .zip(&page.texts)
        {
            let words = text.split_whitespace().count();
            let copies = page_times
                * (1 + training
                    .word_steps
                    .iter()
                    .filter(|&&step| words >= step)
                    .count());
            for _ in 0..copies {
                rows.extend_from_slice(row);
                labels.push(label);
            }
        }
    }
    let params = &training.params;
    Ok(BlockModel::fit(&rows, &labels, params)?)
}

/// One column of verdicts per threshold from per-block probabilities.
fn add_columns(
    columns: &mut Vec<(String, Vec<Option<Vec<bool>>>)>,
    name: &str,
    probabilities: &[Option<Vec<f32>>],
    thresholds: &[f32],
) {
    for &t in thresholds {
        let verdicts = probabilities
            .iter()
            .map(|p| p.as_ref().map(|p| p.iter().map(|&p| p >= t).collect()))
            .collect();
        columns.push((format!("blocks {name} ≥{t}"), verdicts));
    }
}

/// Columns of the route by page type: pages the built-in page-type model calls `article`
/// by Readability, then by the forest anchored on Readability ([`LearnedBlocks::ARTICLES`]'
/// threshold for Readability's blocks, each of `--article-outside` for the others); the other
/// pages by the forest at each `--threshold`.
fn add_route_columns(
    columns: &mut Vec<(String, Vec<Option<Vec<bool>>>)>,
    pages: &[Page],
    name: &str,
    probabilities: &[Option<Vec<f32>>],
    args: &Args,
) {
    let kept = LearnedBlocks::ARTICLES.threshold;
    let articles = std::iter::once(None).chain(args.article_outside.iter().map(|&u| {
        Some(LearnedBlocks {
            threshold: kept,
            threshold_outside_readability: u,
        })
    }));
    for article in articles {
        for &t in &args.threshold {
            let verdicts = pages
                .iter()
                .zip(probabilities)
                .map(|(page, p)| {
                    let p = p.as_ref()?;
                    let settings = match article {
                        _ if page.guess.page_type != PageType::Article => LearnedBlocks::uniform(t),
                        None => return Some(page.readability.clone()),
                        Some(settings) => settings,
                    };
                    Some(
                        p.iter()
                            .zip(&page.readability)
                            .map(|(&p, &kept)| settings.is_content(p, kept))
                            .collect(),
                    )
                })
                .collect();
            let route = match article {
                None => "Readability".to_owned(),
                Some(a) => format!("≥{}/{}", a.threshold, a.threshold_outside_readability),
            };
            columns.push((
                format!("typed {name}: articles {route}, others ≥{t}"),
                verdicts,
            ));
        }
    }
}

/// The content probabilities of `model` for the blocks of the pages at `test`; `None` for the
/// others.
fn predict_all(model: &BlockModel, pages: &[Page], test: &[usize]) -> Vec<Option<Vec<f32>>> {
    let mut out: Vec<Option<Vec<f32>>> = vec![None; pages.len()];
    let verdicts: Vec<Vec<f32>> = test
        .par_iter()
        .map(|&i| model.probabilities(&pages[i].rows))
        .collect();
    for (&i, v) in test.iter().zip(verdicts) {
        out[i] = Some(v);
    }
    out
}

/// The fold of each page among `folds` folds grouped by site: a site's pages (in every
/// dataset) share one fold.
fn fold_of(pages: &[Page], folds: u64) -> Vec<u64> {
    pages.iter().map(|p| fnv(&p.group) % folds).collect()
}

/// Held-out probabilities of every page, each fold of `fold_of` by a model trained on the
/// others.
fn site_folds(
    pages: &[Page],
    fold_of: &[u64],
    folds: u64,
    training: &Training,
) -> anyhow::Result<Vec<Option<Vec<f32>>>> {
    let mut out = vec![None; pages.len()];
    for fold in 0..folds {
        let (test, train): (Vec<usize>, Vec<usize>) =
            (0..pages.len()).partition(|&i| fold_of[i] == fold);
        if test.is_empty() || train.is_empty() {
            eprintln!("dbce: fold {fold}: nothing to train on or to test, skipped");
            continue;
        }
        let model = fit(pages, &train, training)?;
        merge(&mut out, predict_all(&model, pages, &test));
        eprintln!("dbce: fold {fold}: {} test pages", test.len());
    }
    Ok(out)
}

/// Held-out verdicts of each dataset from a model trained without it and without any page
/// of its sites.
fn leave_dataset_out(
    pages: &[Page],
    datasets: usize,
    training: &Training,
) -> anyhow::Result<Vec<Option<Vec<f32>>>> {
    let mut out = vec![None; pages.len()];
    for dataset in 0..datasets {
        let sites: std::collections::BTreeSet<&str> = pages
            .iter()
            .filter(|p| p.dataset == dataset)
            .map(|p| p.group.as_str())
            .collect();
        let (test, train): (Vec<usize>, Vec<usize>) = (0..pages.len())
            .filter(|&i| pages[i].dataset == dataset || !sites.contains(pages[i].group.as_str()))
            .partition(|&i| pages[i].dataset == dataset);
        if train.is_empty() {
            eprintln!("dbce: dataset {dataset}: nothing else to train on, skipped");
            continue;
        }
        let model = fit(pages, &train, training)?;
        merge(&mut out, predict_all(&model, pages, &test));
        eprintln!(
            "dbce: dataset {dataset} left out: trained on {} pages",
            train.len()
        );
    }
    Ok(out)
}

fn merge(into: &mut [Option<Vec<f32>>], from: Vec<Option<Vec<f32>>>) {
    for (slot, v) in into.iter_mut().zip(from) {
        if v.is_some() {
            *slot = v;
        }
    }
}

/// FNV-1a of `text`: a fold assignment that does not depend on the order of pages.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The F1 of each page under `verdicts` (content blocks one per line).
fn page_f1(pages: &[Page], verdicts: &[Option<Vec<bool>>]) -> Vec<Option<f64>> {
    pages
        .par_iter()
        .zip(verdicts)
        .map_init(RougeScorer::new, |scorer, (page, verdict)| {
            Some(page.score(scorer, verdict.as_ref()?))
        })
        .collect()
}

impl Page {
    /// The F1 of the page's content blocks under `verdicts`, one per line, against its truth.
    fn score(&self, scorer: &mut RougeScorer, verdicts: &[bool]) -> f64 {
        let mut text = String::new();
        for (t, &keep) in self.texts.iter().zip(verdicts) {
            if keep {
                text.push_str(t);
                text.push('\n');
            }
        }
        scorer.score(&self.truth, &text).f1
    }
}

/// Prints, per dataset and page type, the mean F1 of each column.
fn print_tables(
    names: &[String],
    pages: &[Page],
    columns: &[(String, Vec<Option<Vec<bool>>>)],
    scores: &[Vec<Option<f64>>],
) {
    let mut header = String::from("| dataset | page type | pages |");
    for (name, _) in columns {
        header.push_str(&format!(" {name} |"));
    }
    println!("{header}");
    println!("|{}", " --- |".repeat(3 + columns.len()));
    for (d, name) in names.iter().enumerate() {
        let mut types: Vec<&str> = pages
            .iter()
            .filter(|p| p.dataset == d)
            .map(|p| p.page_type.as_str())
            .collect();
        types.sort_unstable();
        types.dedup();
        let mut rows: Vec<(String, Vec<usize>)> = vec![(
            "all".into(),
            (0..pages.len())
                .filter(|&i| pages[i].dataset == d)
                .collect(),
        )];
        if types.len() > 1 {
            for t in types {
                rows.push((
                    t.into(),
                    (0..pages.len())
                        .filter(|&i| pages[i].dataset == d && pages[i].page_type == t)
                        .collect(),
                ));
            }
        }
        for (kind, members) in rows {
            let mut line = format!("| {name} | {kind} | {} |", members.len());
            for column in scores {
                let values: Vec<f64> = members.iter().filter_map(|&i| column[i]).collect();
                if values.is_empty() {
                    line.push_str(" – |");
                } else {
                    line.push_str(&format!(
                        " {:.3} |",
                        values.iter().sum::<f64>() / values.len() as f64
                    ));
                }
            }
            println!("{line}");
        }
    }
}

/// Writes one JSON line per page: dataset, id, page type and the F1 of each column.
fn write_scores(
    path: &Path,
    names: &[String],
    pages: &[Page],
    columns: &[(String, Vec<Option<Vec<bool>>>)],
    scores: &[Vec<Option<f64>>],
) -> anyhow::Result<()> {
    let mut out = String::new();
    for (i, page) in pages.iter().enumerate() {
        let f1: serde_json::Map<String, serde_json::Value> = columns
            .iter()
            .zip(scores)
            .filter_map(|((name, _), column)| Some((name.clone(), column[i]?.into())))
            .collect();
        let line = serde_json::json!({
            "dataset": names[page.dataset],
            "id": page.id,
            "page_type": page.page_type,
            "f1": f1,
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    std::fs::write(path, out).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes one JSON line per page: dataset, id, site group, labelled and guessed page type
/// (by the built-in model and, with `--nested`, `held_out_type`/`held_out_confidence` by the
/// model of the page's fold), truth, and per block its text, its element's and ancestors' ids,
/// label, Readability's verdict and each model's probability.
fn write_pages(
    path: &Path,
    names: &[String],
    pages: &[Page],
    probabilities: &[(&str, Vec<Option<Vec<f32>>>)],
    held_out_types: Option<&[Option<PageTypeGuess>]>,
) -> anyhow::Result<()> {
    let mut out = String::new();
    for (i, page) in pages.iter().enumerate() {
        let models: serde_json::Map<String, serde_json::Value> = probabilities
            .iter()
            .filter_map(|(name, p)| Some(((*name).to_owned(), p[i].clone()?.into())))
            .collect();
        let held_out = held_out_types.and_then(|t| t[i]);
        let line = serde_json::json!({
            "dataset": names[page.dataset],
            "id": page.id,
            "group": page.group,
            "held_out_type": held_out.map(|g| g.page_type.name()),
            "held_out_confidence": held_out.map(|g| g.confidence),
            "page_type": page.page_type,
            "guessed_type": page.guess.page_type.name(),
            "guessed_confidence": page.guess.confidence,
            "truth": page.truth,
            "texts": page.texts,
            "elements": page.elements,
            "labels": page.labels,
            "readability": page.readability,
            "probabilities": models,
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    std::fs::write(path, out).with_context(|| format!("cannot write {}", path.display()))
}

/// Prints the twenty most important features of `model` to standard error.
fn print_importances(model: &BlockModel) {
    let names = block_feature_names();
    let mut ranked: Vec<(f32, &String)> = model
        .forest()
        .feature_importances()
        .into_iter()
        .zip(&names)
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (importance, name) in ranked.iter().take(20) {
        eprintln!("dbce:   {name:<24} {importance:.3}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_the_truth_holds_out_of_order_are_content() {
        let texts = [
            "Home News".to_owned(),
            "the second post says this much and then a few more words".to_owned(),
            "the first post opens the thread with a long question about it".to_owned(),
            "Share".to_owned(),
        ];
        let truth = "the first post opens the thread with a long question about it\n\
                     the second post says this much and then a few more words";
        // In order, only one of the two posts can align.
        let aligned = label_runs(&texts, truth, 0.5);
        assert!(aligned[1] != aligned[2], "{aligned:?}");
        assert_eq!(label_blocks(&texts, truth, 0.5), [false, true, true, false]);
    }
}

//! The learned block model of `annotate.single-page = "blocks"`, trained on dataset folders,
//! and its held-out validation (`dbce train-single-page`).
//!
//! Every text block is labelled content when at least `min_aligned` of its words align with
//! the ground truth ([`label_blocks`]). Extracted text is the content blocks, one per line,
//! scored with ROUGE-LSum against the truth, beside Readability's blocks on the same pages.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};
use std::path::Path;

use dbce_classify::page_type::{error_page, page_type_features};
use dbce_classify::{
    BlockClassifier, BlockModel, LearnedBlocks, PageType, PageTypeGuess, PageTypeModel,
    block_feature_names, block_rows, readability_keeps, set_page_type, text_blocks,
};
use dbce_dom::{Document, SanitizeConfig};
use dbce_eval::{Dataset, RougeScorer};
use dbce_forest::{BoostParams, BoostedTrees, ForestParams, WeightedRows};
use rayon::prelude::*;

use super::TrainError;
use super::label::label_blocks;
use super::page_type;

mod nested;
mod rows;

/// Which learner a block model is, with its parameters.
#[derive(Debug, Clone)]
pub enum Learner {
    /// A random forest; each block is trained on as many times as its weight.
    Forest(ForestParams),
    /// Gradient-boosted trees; each block weighs its weight in the loss. The number of rounds
    /// is chosen on the training pages, never on pages held out ([`boosting_rounds`]), and the
    /// model is then trained on all of them.
    Boosted {
        /// The boosting's parameters.
        params: BoostParams,
        /// Spread each dataset's weight evenly over its sites (each dataset's total kept), so
        /// that a site with many pages or long ones does not outweigh the others.
        equal_sites: bool,
    },
}

/// How block models are trained.
#[derive(Debug, Clone)]
pub struct Training {
    /// The learner and its parameters.
    pub learner: Learner,
    /// Word counts at which a block is trained on once more (`[8, 30]`: blocks of 8 words
    /// count twice, of 30 thrice), so that the forest minds long blocks as ROUGE does.
    pub word_steps: Vec<usize>,
    /// Times each dataset's blocks are trained on, in the order of the datasets (1 for a
    /// dataset without one).
    pub dataset_weight: Vec<usize>,
    /// Times the pages of a labelled page type are trained on, on top of `dataset_weight`
    /// (other types once).
    pub type_weight: Vec<(PageType, usize)>,
}

/// What [`TrainingSet::validate`] measures besides the in-sample scores.
#[derive(Debug, Clone)]
pub struct Validation {
    /// Validate held out in `folds` folds grouped by site over all pages.
    pub cross_validate: bool,
    /// Also validate the route's thresholds nested in the folds (implies `cross_validate`).
    pub nested: bool,
    /// Validate each dataset left out in turn, with every page of its sites.
    pub leave_dataset_out: bool,
    /// Lowest forest probabilities at which a block is content: one column each.
    pub thresholds: Vec<f32>,
    /// Also score the pipeline's route by page type: pages the built-in page-type model
    /// types `article` by Readability and, for each of these thresholds U, by the forest with
    /// Readability's blocks at [`LearnedBlocks::ARTICLES`]' threshold and the others at U;
    /// the other pages by the forest at each of `thresholds`.
    pub article_outside: Vec<f32>,
}

/// How the page-type models that type the training pages (and those of the nested
/// validation) are trained: as `scripts/train-page-type` trains the built-in one, on the pages
/// of the other site folds.
#[derive(Debug, Clone)]
pub struct PageTypeTraining {
    /// Folds grouped by site: of the held-out page types, and of every validation.
    pub folds: u64,
    /// Datasets (by name) whose pages the page-type models train on as articles; pages with
    /// a `page_type` in `meta.jsonl` are always trained on.
    pub articles: Vec<String>,
    /// The page-type forests' seed.
    pub seed: u64,
}

/// Per-page verdicts of one column: content or not per block, `None` for a page the column
/// does not cover.
type Column = (String, Vec<Option<Vec<bool>>>);

/// Per-block content probabilities of some pages, `None` for the others.
type Probabilities = Vec<Option<Vec<f32>>>;

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
    /// The page's type by a page-type model trained without its site fold
    /// ([`TrainingSet::load`]; `None` when no model could be trained): the type its rows
    /// carry, as wrong as an unseen page's.
    held_out_type: Option<PageTypeGuess>,
    /// The page's row of page-type features, for page-type models trained in folds.
    type_row: Vec<f32>,
    /// The error rule's verdict, when one fires (it overrides any page-type model).
    error_rule: Option<PageTypeGuess>,
}

/// The pages of some dataset folders, segmented into blocks, labelled and described.
pub struct TrainingSet {
    /// Dataset names, in the order given.
    names: Vec<String>,
    pages: Vec<Page>,
    /// Folds grouped by site ([`PageTypeTraining::folds`]).
    folds: u64,
    /// How the page-type models of the folds are trained.
    type_models: TypeModels,
}

impl TrainingSet {
    /// Reads, segments, labels and describes every page of the dataset folders (laid out as
    /// `html/ID.html`, `gt/ID.txt`, `meta.jsonl` with an optional `page_type` per line): a
    /// block is content when at least `min_aligned` of its words align with the truth
    /// ([`label_blocks`]). Each page's rows carry the type a page-type model trained as
    /// `types` says, without the page's site fold, gives it: the block models learn from
    /// types as wrong as those of pages they have not seen. `progress` hears one line per
    /// dataset.
    ///
    /// # Errors
    /// [`TrainError::Dataset`] when a folder is not a dataset, [`TrainError::Read`] or
    /// [`TrainError::Parse`] when a page cannot be read or parsed,
    /// [`TrainError::PageTypeModel`] or [`TrainError::PageType`] when a fold's page-type model
    /// cannot be trained.
    pub fn load(
        datasets: &[impl AsRef<Path>],
        min_aligned: f64,
        types: PageTypeTraining,
        progress: &dyn Fn(&str),
    ) -> Result<Self, TrainError> {
        let mut names = Vec::new();
        let mut pages = Vec::new();
        for (index, dir) in datasets.iter().enumerate() {
            let (name, loaded) = load_pages(dir.as_ref(), index, min_aligned)?;
            progress(&format!(
                "{name}: {} pages, {} blocks, {} content",
                loaded.len(),
                loaded.iter().map(|p| p.labels.len()).sum::<usize>(),
                loaded
                    .iter()
                    .flat_map(|p| &p.labels)
                    .filter(|&&l| l)
                    .count(),
            ));
            names.push(name);
            pages.extend(loaded);
        }
        let type_models = TypeModels {
            articles: names.iter().map(|n| types.articles.contains(n)).collect(),
            seed: types.seed,
        };
        let folds = fold_of(&pages, types.folds);
        for f in 0..types.folds {
            let (test, train) = fold_split(&folds, f);
            let Some(model) = type_models.fit(&pages, &train)? else {
                continue;
            };
            for i in test {
                let guess = guess(&model, &pages[i]);
                pages[i].held_out_type = Some(guess);
                set_page_type(&mut pages[i].rows, guess);
            }
        }
        progress(&format!(
            "page types held out by {} site folds: {}",
            types.folds,
            type_accuracy(
                &pages,
                &pages.iter().map(|p| p.held_out_type).collect::<Vec<_>>()
            )
        ));
        Ok(Self {
            names,
            pages,
            folds: types.folds,
            type_models,
        })
    }

    /// The model trained on every page.
    ///
    /// # Errors
    /// [`TrainError::BlockModel`] when the forest refuses the blocks (none, or bad
    /// parameters).
    pub fn fit(&self, training: &Training) -> Result<BlockModel, TrainError> {
        let all: Vec<usize> = (0..self.pages.len()).collect();
        fit(&self.pages, &all, training)
    }

    /// Scores `model` (trained on every page by [`TrainingSet::fit`]) in sample, beside the
    /// labels and Readability, and validates models trained as `training` says held out as
    /// `validation` says. `progress` hears one line per model trained.
    ///
    /// # Errors
    /// [`TrainError::BlockModel`] or [`TrainError::PageTypeModel`] when a model of a fold
    /// cannot be trained, [`TrainError::PageType`] when a page's `page_type` is none.
    pub fn validate(
        &self,
        model: &BlockModel,
        training: &Training,
        validation: &Validation,
        progress: &dyn Fn(&str),
    ) -> Result<Evaluation<'_>, TrainError> {
        let pages = &self.pages;
        let all: Vec<usize> = (0..pages.len()).collect();
        let mut columns: Vec<Column> = vec![
            (
                "labels".into(),
                pages.iter().map(|p| Some(p.labels.clone())).collect(),
            ),
            (
                "readability".into(),
                pages.iter().map(|p| Some(p.readability.clone())).collect(),
            ),
        ];
        let mut probabilities = vec![("in-sample", predict_all(model, pages, &all))];
        let mut nested_report = None;
        if validation.cross_validate || validation.nested {
            let folds = fold_of(pages, self.folds);
            let outer = site_folds(pages, &folds, self.folds, training, progress)?;
            if validation.nested {
                let nested = nested::validate(
                    pages,
                    &folds,
                    self.folds,
                    training,
                    &self.type_models,
                    &outer,
                    progress,
                )?;
                columns.extend(nested.columns);
                nested_report = Some(nested.report);
            }
            probabilities.push(("site folds", outer));
        }
        if validation.leave_dataset_out {
            probabilities.push((
                "dataset out",
                leave_dataset_out(pages, self.names.len(), training, progress)?,
            ));
        }
        for (name, p) in &probabilities {
            add_columns(&mut columns, name, p, &validation.thresholds);
        }
        if !validation.article_outside.is_empty() {
            for (name, p) in &probabilities {
                add_route_columns(&mut columns, pages, name, p, validation);
            }
        }
        let scores = columns.iter().map(|(_, v)| page_f1(pages, v)).collect();
        Ok(Evaluation {
            set: self,
            columns,
            scores,
            probabilities,
            nested_report,
        })
    }
}

/// The scores of [`TrainingSet::validate`]: columns of verdicts, each page's F1 under each.
pub struct Evaluation<'a> {
    set: &'a TrainingSet,
    columns: Vec<Column>,
    /// Per column, each page's F1 (`None` where the column does not cover the page).
    scores: Vec<Vec<Option<f64>>>,
    /// Per model (in sample, site folds, dataset out), each page's block probabilities.
    probabilities: Vec<(&'static str, Probabilities)>,
    /// The thresholds chosen in each fold by the nested validation, in Markdown.
    nested_report: Option<String>,
}

impl Evaluation<'_> {
    /// Writes, per dataset and page type, the mean F1 of each column as a Markdown table,
    /// then the nested validation's choices when it ran.
    ///
    /// # Errors
    /// When `out` fails.
    pub fn write_tables(&self, out: &mut impl Write) -> io::Result<()> {
        let TrainingSet { names, pages, .. } = self.set;
        let mut header = String::from("| dataset | page type | pages |");
        for (name, _) in &self.columns {
            header.push_str(&format!(" {name} |"));
        }
        writeln!(out, "{header}")?;
        writeln!(out, "|{}", " --- |".repeat(3 + self.columns.len()))?;
        for (d, name) in names.iter().enumerate() {
            for (kind, members) in table_rows(pages, d) {
                let mut line = format!("| {name} | {kind} | {} |", members.len());
                for column in &self.scores {
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
                writeln!(out, "{line}")?;
            }
        }
        if let Some(report) = &self.nested_report {
            writeln!(
                out,
                "\nThresholds chosen in each fold (`--nested`):\n\n{report}"
            )?;
        }
        Ok(())
    }

    /// Writes one JSON line per page: dataset, id, page type and the F1 of each column.
    ///
    /// # Errors
    /// When `out` fails.
    pub fn write_scores(&self, out: &mut impl Write) -> io::Result<()> {
        let TrainingSet { names, pages, .. } = self.set;
        for (i, page) in pages.iter().enumerate() {
            let f1: serde_json::Map<String, serde_json::Value> = self
                .columns
                .iter()
                .zip(&self.scores)
                .filter_map(|((name, _), column)| Some((name.clone(), column[i]?.into())))
                .collect();
            let line = serde_json::json!({
                "dataset": names[page.dataset],
                "id": page.id,
                "page_type": page.page_type,
                "f1": f1,
            });
            writeln!(out, "{line}")?;
        }
        Ok(())
    }

    /// Writes one JSON line per page for analyses of routes: dataset, id, site group,
    /// labelled and guessed page type (by the built-in model, and `held_out_type` /
    /// `held_out_confidence` by the model trained without the page's fold),
    /// truth, and per block its text, its element's and ancestors' ids, label,
    /// Readability's verdict and each model's probability.
    ///
    /// # Errors
    /// When `out` fails.
    pub fn write_pages(&self, out: &mut impl Write) -> io::Result<()> {
        let TrainingSet { names, pages, .. } = self.set;
        for (i, page) in pages.iter().enumerate() {
            let models: serde_json::Map<String, serde_json::Value> = self
                .probabilities
                .iter()
                .filter_map(|(name, p)| Some(((*name).to_owned(), p[i].clone()?.into())))
                .collect();
            let held_out = page.held_out_type;
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
            writeln!(out, "{line}")?;
        }
        Ok(())
    }
}

/// The rows of dataset `d` in the tables: all its pages, then (when it has more than one
/// page type) its pages of each type, types in name order.
fn table_rows(pages: &[Page], d: usize) -> Vec<(String, Vec<usize>)> {
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
    rows
}

/// The `count` most important features of `model`, by name, most important first (none for a
/// model that is not a forest).
pub fn ranked_importances(model: &BlockModel, count: usize) -> Vec<(String, f32)> {
    let BlockClassifier::Forest(forest) = model.classifier() else {
        return Vec::new();
    };
    let mut ranked: Vec<(String, f32)> = block_feature_names()
        .into_iter()
        .zip(forest.feature_importances())
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked.truncate(count);
    ranked
}

/// Reads, segments, labels and describes every page of the dataset in `dir`.
fn load_pages(
    dir: &Path,
    index: usize,
    min_aligned: f64,
) -> Result<(String, Vec<Page>), TrainError> {
    let dataset = Dataset::load(dir).map_err(|source| TrainError::Dataset {
        path: dir.to_owned(),
        source: Box::new(source),
    })?;
    let width = block_feature_names().len();
    let pages = dataset
        .pages
        .par_iter()
        .map(|page| -> Result<Page, TrainError> {
            let html = page.read_html().map_err(|source| TrainError::Read {
                dataset: dataset.name.clone(),
                id: page.id.clone(),
                source: Box::new(source),
            })?;
            let doc = Document::parse(&String::from_utf8_lossy(&html), &SanitizeConfig::default())
                .map_err(|source| TrainError::Parse {
                    dataset: dataset.name.clone(),
                    id: page.id.clone(),
                    source,
                })?;
            let blocks = text_blocks(&doc);
            let url = page.url.as_deref().unwrap_or_default();
            let html = String::from_utf8_lossy(&html);
            let error_rule = error_page(&doc, url).map(|rule| PageTypeGuess {
                page_type: PageType::Error,
                confidence: rule.confidence(),
            });
            let type_row = page_type_features(&doc, url, &html);
            let guess = error_rule.unwrap_or_else(|| PageTypeModel::built_in().predict(&type_row));
            let rows = block_rows(&doc, &blocks, guess);
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
            Ok(Page {
                guess,
                held_out_type: None,
                error_rule,
                type_row,
                labelled_type: page.page_type.is_some(),
                dataset: index,
                id: page.id.clone(),
                group: page
                    .site
                    .clone()
                    .unwrap_or_else(|| format!("{}/{}", dataset.name, page.id)),
                page_type: page.page_type.clone().unwrap_or_else(|| "article".into()),
                labels: label_blocks(&texts, &page.ground_truth, min_aligned),
                readability: rows.chunks_exact(width).map(readability_keeps).collect(),
                truth: page.ground_truth.clone(),
                texts,
                elements,
                rows,
            })
        })
        .collect::<Result<Vec<Page>, TrainError>>()?;
    Ok((dataset.name, pages))
}

/// How the page-type models of the folds are trained.
struct TypeModels {
    /// Per dataset, whether its pages are trained on as articles (labelled pages always are).
    articles: Vec<bool>,
    /// The forests' seed.
    seed: u64,
}

impl TypeModels {
    /// The page-type model trained on the pages at `train` that have a type: labelled in
    /// their `meta.jsonl`, or articles of a dataset flagged in `articles`; `None` when there
    /// are none.
    fn fit(&self, pages: &[Page], train: &[usize]) -> Result<Option<PageTypeModel>, TrainError> {
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for &i in train {
            let page = &pages[i];
            if page.labelled_type || self.articles.get(page.dataset).copied().unwrap_or(false) {
                rows.extend_from_slice(&page.type_row);
                let label =
                    page.page_type
                        .parse::<PageType>()
                        .map_err(|source| TrainError::PageType {
                            page: page.id.clone(),
                            source,
                        })?;
                labels.push(label);
            }
        }
        if labels.is_empty() {
            return Ok(None);
        }
        let params = page_type::forest_params(page_type::TREES, page_type::DEPTH, self.seed);
        Ok(Some(PageTypeModel::fit(&rows, &labels, &params)?))
    }
}

/// The page's type as [`PageTypeModel::classify`] gives it with `model`: an error rule's
/// verdict if one fired, else the model's.
fn guess(model: &PageTypeModel, page: &Page) -> PageTypeGuess {
    page.error_rule
        .unwrap_or_else(|| model.predict(&page.type_row))
}

/// Share of the labelled pages whose guess is their label.
fn type_accuracy(pages: &[Page], types: &[Option<PageTypeGuess>]) -> String {
    let (mut right, mut all) = (0usize, 0usize);
    for (page, guess) in pages.iter().zip(types) {
        if let (true, Some(guess)) = (page.labelled_type, guess) {
            all += 1;
            right += usize::from(guess.page_type.name() == page.page_type);
        }
    }
    format!(
        "{right} of {all} labelled pages right ({:.1}%)",
        100.0 * right as f64 / all.max(1) as f64
    )
}

/// The times `page`'s blocks are trained on before their word weight: its dataset's weight
/// times its labelled type's.
fn page_times(page: &Page, training: &Training) -> usize {
    training
        .dataset_weight
        .get(page.dataset)
        .copied()
        .unwrap_or(1)
        * training
            .type_weight
            .iter()
            .find(|(t, _)| page.labelled_type && t.name() == page.page_type)
            .map_or(1, |&(_, times)| times)
}

/// The times a block of `text` on a page trained on `page_times` times is trained on: once
/// more for each of the word steps its words reach.
fn block_copies(page_times: usize, text: &str, training: &Training) -> usize {
    let words = text.split_whitespace().count();
    page_times
        * (1 + training
            .word_steps
            .iter()
            .filter(|&&step| words >= step)
            .count())
}

/// A model trained on the pages at `train`.
fn fit(pages: &[Page], train: &[usize], training: &Training) -> Result<BlockModel, TrainError> {
    let width = block_feature_names().len();
    match &training.learner {
        Learner::Forest(params) => {
            let mut rows = Vec::new();
            let mut labels = Vec::new();
            for &i in train {
                let page = &pages[i];
                let page_times = page_times(page, training);
                for ((row, &label), text) in page
                    .rows
                    .chunks_exact(width)
                    .zip(&page.labels)
                    .zip(&page.texts)
                {
                    for _ in 0..block_copies(page_times, text, training) {
                        rows.extend_from_slice(row);
                        labels.push(label);
                    }
                }
            }
            Ok(BlockModel::fit(&rows, &labels, params)?)
        }
        Learner::Boosted {
            params,
            equal_sites,
        } => {
            let weights = block_weights(pages, train, training, *equal_sites);
            let gather = |at: &[usize]| {
                let mut set = (Vec::new(), Vec::new(), Vec::new());
                for &i in at {
                    set.0.extend_from_slice(&pages[i].rows);
                    set.1.extend_from_slice(&pages[i].labels);
                    set.2.extend_from_slice(&weights[&i]);
                }
                set
            };
            let rounds = boosting_rounds(pages, train, &gather, width, params)?;
            let params = BoostParams {
                max_rounds: rounds,
                ..*params
            };
            let boosted = BoostedTrees::fit(weighted(&gather(train)), width, None, &params)
                .map_err(dbce_classify::ModelError::from)?;
            Ok(BlockModel::new(BlockClassifier::Boosted(boosted))?)
        }
    }
}

/// Rows, labels and weights of some pages, as the boosting takes them.
type Gathered = (Vec<f32>, Vec<bool>, Vec<f32>);

/// How many rounds the boosting of the pages at `train` runs: the median, over the
/// [`STOP_DRAWS`] draws of a sixth of their sites ([`stop_draw`]), of the round with the lowest
/// validation loss on that sixth when trained on the rest, each draw with its own seed. One
/// draw's best round moves with the seed and the sites drawn (153 to 309 trees on the same
/// pages); their median moves far less. Without pages of two draws, every round is kept.
fn boosting_rounds(
    pages: &[Page],
    train: &[usize],
    gather: &(dyn Fn(&[usize]) -> Gathered + Sync),
    width: usize,
    params: &BoostParams,
) -> Result<u32, TrainError> {
    let mut rounds = (0..STOP_DRAWS)
        .into_par_iter()
        .filter_map(|draw| {
            let (stop, grow): (Vec<usize>, Vec<usize>) = train
                .iter()
                .partition(|&&i| stop_draw(&pages[i].group) == draw);
            if stop.is_empty() || grow.is_empty() {
                return None;
            }
            let params = BoostParams {
                seed: params.seed.wrapping_add(draw + 1),
                ..*params
            };
            let (grow, stop) = (gather(&grow), gather(&stop));
            Some(
                BoostedTrees::fit(weighted(&grow), width, Some(weighted(&stop)), &params)
                    .map(|model| model.n_trees()),
            )
        })
        .collect::<Result<Vec<usize>, _>>()
        .map_err(dbce_classify::ModelError::from)?;
    if rounds.is_empty() {
        return Ok(params.max_rounds);
    }
    rounds.sort_unstable();
    let middle = rounds.len() / 2;
    let median = if rounds.len() % 2 == 0 {
        (rounds[middle - 1] + rounds[middle]).div_ceil(2)
    } else {
        rounds[middle]
    };
    Ok(u32::try_from(median).unwrap_or(params.max_rounds))
}

/// Draws of a sixth of the sites that [`boosting_rounds`] stops the boosting on.
const STOP_DRAWS: u64 = 6;

/// Rows, labels and weights gathered for the boosting, as it takes them.
fn weighted((features, labels, weights): &Gathered) -> WeightedRows<'_> {
    WeightedRows {
        features,
        labels,
        weights,
    }
}

/// Which of the [`STOP_DRAWS`] sixths of the sites `group` is in, by the high half of the
/// site's hash (folds take its remainder, so each draw spreads over the folds).
fn stop_draw(group: &str) -> u64 {
    (fnv(group) >> 32) % STOP_DRAWS
}

/// Each block's weight on the pages at `train` (its copies, [`block_copies`]), by page;
/// with `equal_sites`, spread so that each site of a dataset weighs alike and each dataset
/// keeps its total.
fn block_weights(
    pages: &[Page],
    train: &[usize],
    training: &Training,
    equal_sites: bool,
) -> BTreeMap<usize, Vec<f32>> {
    let mut weights: BTreeMap<usize, Vec<f32>> = train
        .iter()
        .map(|&i| {
            let page_times = page_times(&pages[i], training);
            let copies = pages[i]
                .texts
                .iter()
                .map(|text| block_copies(page_times, text, training) as f32)
                .collect();
            (i, copies)
        })
        .collect();
    if equal_sites {
        let mut site_total: BTreeMap<(usize, &str), f64> = BTreeMap::new();
        for (&i, w) in &weights {
            *site_total
                .entry((pages[i].dataset, pages[i].group.as_str()))
                .or_default() += w.iter().map(|&v| f64::from(v)).sum::<f64>();
        }
        let mut dataset_total: BTreeMap<usize, (f64, usize)> = BTreeMap::new();
        for (&(dataset, _), &total) in &site_total {
            let entry = dataset_total.entry(dataset).or_default();
            entry.0 += total;
            entry.1 += 1;
        }
        for (&i, w) in weights.iter_mut() {
            let page = &pages[i];
            let site = site_total[&(page.dataset, page.group.as_str())];
            let (total, sites) = dataset_total[&page.dataset];
            let scale = total / sites as f64 / site;
            w.iter_mut()
                .for_each(|v| *v = (f64::from(*v) * scale) as f32);
        }
    }
    weights
}

/// One column of verdicts per threshold from per-block probabilities.
fn add_columns(
    columns: &mut Vec<Column>,
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
/// threshold for Readability's blocks, each of `article_outside` for the others); the other
/// pages by the forest at each threshold.
fn add_route_columns(
    columns: &mut Vec<Column>,
    pages: &[Page],
    name: &str,
    probabilities: &[Option<Vec<f32>>],
    validation: &Validation,
) {
    let kept = LearnedBlocks::ARTICLES.threshold;
    let articles = std::iter::once(None).chain(validation.article_outside.iter().map(|&u| {
        Some(LearnedBlocks {
            threshold: kept,
            threshold_outside_readability: u,
            relative_to_best: 0.0,
        })
    }));
    for article in articles {
        for &t in &validation.thresholds {
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
                    Some(settings.verdicts(p, &page.readability))
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
fn predict_all(model: &BlockModel, pages: &[Page], test: &[usize]) -> Probabilities {
    let mut out: Probabilities = vec![None; pages.len()];
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
    pages.iter().map(|p| site_fold(&p.group, folds)).collect()
}

/// The fold of the site `group` among `folds` folds: FNV-1a of its name, so that it does not
/// depend on the order of pages.
pub(crate) fn site_fold(group: &str, folds: u64) -> u64 {
    fnv(group) % folds
}

/// Held-out probabilities of every page, each fold of `fold_of` by a model trained on the
/// others.
fn site_folds(
    pages: &[Page],
    fold_of: &[u64],
    folds: u64,
    training: &Training,
    progress: &dyn Fn(&str),
) -> Result<Probabilities, TrainError> {
    let mut out = vec![None; pages.len()];
    for fold in 0..folds {
        let (test, train) = fold_split(fold_of, fold);
        if test.is_empty() || train.is_empty() {
            progress(&format!(
                "fold {fold}: nothing to train on or to test, skipped"
            ));
            continue;
        }
        let model = fit(pages, &train, training)?;
        merge(&mut out, predict_all(&model, pages, &test));
        progress(&format!("fold {fold}: {} test pages", test.len()));
    }
    Ok(out)
}

/// The pages of `fold` (to test) and of the other folds (to train on).
fn fold_split(fold_of: &[u64], fold: u64) -> (Vec<usize>, Vec<usize>) {
    (0..fold_of.len()).partition(|&i| fold_of[i] == fold)
}

/// Held-out verdicts of each dataset from a model trained without it and without any page
/// of its sites.
fn leave_dataset_out(
    pages: &[Page],
    datasets: usize,
    training: &Training,
    progress: &dyn Fn(&str),
) -> Result<Probabilities, TrainError> {
    let mut out = vec![None; pages.len()];
    for dataset in 0..datasets {
        let (test, train) = dataset_split(pages, dataset);
        if train.is_empty() {
            progress(&format!(
                "dataset {dataset}: nothing else to train on, skipped"
            ));
            continue;
        }
        let model = fit(pages, &train, training)?;
        merge(&mut out, predict_all(&model, pages, &test));
        progress(&format!(
            "dataset {dataset} left out: trained on {} pages",
            train.len()
        ));
    }
    Ok(out)
}

/// The pages of `dataset` (to test) and the pages of other datasets on none of its sites (to
/// train on).
fn dataset_split(pages: &[Page], dataset: usize) -> (Vec<usize>, Vec<usize>) {
    let sites: BTreeSet<&str> = pages
        .iter()
        .filter(|p| p.dataset == dataset)
        .map(|p| p.group.as_str())
        .collect();
    (0..pages.len())
        .filter(|&i| pages[i].dataset == dataset || !sites.contains(pages[i].group.as_str()))
        .partition(|&i| pages[i].dataset == dataset)
}

/// Fills the slots of `into` that `from` has.
fn merge(into: &mut [Option<Vec<f32>>], from: Probabilities) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A page of `dataset` on site `group` with `blocks` blocks, none of them described.
    pub(super) fn page(dataset: usize, group: &str, blocks: usize) -> Page {
        Page {
            dataset,
            id: format!("{group}-{blocks}"),
            group: group.into(),
            page_type: "article".into(),
            labelled_type: false,
            truth: String::new(),
            texts: vec!["a block".into(); blocks],
            elements: vec![Vec::new(); blocks],
            rows: Vec::new(),
            labels: vec![false; blocks],
            readability: vec![false; blocks],
            guess: PageTypeGuess::default(),
            held_out_type: None,
            type_row: Vec::new(),
            error_rule: None,
        }
    }

    #[test]
    fn a_site_keeps_one_fold_whatever_its_pages_order() {
        let pages = [
            page(0, "a.example", 1),
            page(1, "b.example", 1),
            page(1, "a.example", 2),
            page(0, "c.example", 1),
            page(0, "b.example", 3),
        ];
        let folds = fold_of(&pages, 3);
        assert_eq!(folds[0], folds[2]);
        assert_eq!(folds[1], folds[4]);
        let reversed: Vec<Page> = pages
            .iter()
            .rev()
            .map(|p| page(p.dataset, &p.group, 1))
            .collect();
        let again = fold_of(&reversed, 3);
        for (i, fold) in again.iter().enumerate() {
            assert_eq!(*fold, folds[pages.len() - 1 - i]);
        }
        assert!(folds.iter().all(|&f| f < 3));
        for fold in 0..3 {
            let (test, train) = fold_split(&folds, fold);
            assert_eq!(test.len() + train.len(), pages.len());
            for &t in &test {
                assert!(train.iter().all(|&r| pages[r].group != pages[t].group));
            }
        }
    }

    #[test]
    fn a_dataset_left_out_takes_its_sites_with_it() {
        let pages = [
            page(0, "a.example", 1),
            page(0, "b.example", 1),
            page(1, "a.example", 1),
            page(1, "c.example", 1),
            page(2, "d.example", 1),
        ];
        // Dataset 0 out: the page of dataset 1 on a.example trains neither.
        assert_eq!(dataset_split(&pages, 0), (vec![0, 1], vec![3, 4]));
        assert_eq!(dataset_split(&pages, 1), (vec![2, 3], vec![1, 4]));
        assert_eq!(dataset_split(&pages, 2), (vec![4], vec![0, 1, 2, 3]));
    }

    #[test]
    fn blocks_are_trained_on_as_often_as_their_weights_say() {
        let training = Training {
            learner: Learner::Forest(ForestParams::default()),
            word_steps: vec![2, 4],
            dataset_weight: vec![1, 3],
            type_weight: vec![(PageType::Forum, 2)],
        };
        let mut forum = page(1, "a.example", 1);
        forum.page_type = "forum".into();
        assert_eq!(page_times(&forum, &training), 3);
        forum.labelled_type = true;
        assert_eq!(page_times(&forum, &training), 6);
        // A dataset without a weight counts once.
        assert_eq!(page_times(&page(2, "b.example", 1), &training), 1);
    }

    #[test]
    fn boosting_weighs_blocks_and_can_even_out_sites() {
        let training = Training {
            learner: Learner::Forest(ForestParams::default()),
            word_steps: vec![2],
            dataset_weight: vec![1, 3],
            type_weight: Vec::new(),
        };
        // Dataset 0: site a with two pages of 2 blocks (each block of 2 words: weight 2), site
        // b with one page of 1 block; dataset 1: one page of 1 block (weight 3 × 2).
        let pages = vec![
            page(0, "a", 2),
            page(0, "a", 2),
            page(0, "b", 1),
            page(1, "c", 1),
        ];
        let all = [0, 1, 2, 3];
        let plain = block_weights(&pages, &all, &training, false);
        assert_eq!(plain[&0], [2.0, 2.0]);
        assert_eq!(plain[&2], [2.0]);
        assert_eq!(plain[&3], [6.0]);
        // Dataset 0 weighs 10 in all, 5 per site: site a's 8 become 5, site b's 2 become 5.
        let even = block_weights(&pages, &all, &training, true);
        assert_eq!(even[&0], [1.25, 1.25]);
        assert_eq!(even[&2], [5.0]);
        assert_eq!(even[&3], [6.0]);
        // Only the pages trained on are weighed.
        assert_eq!(block_weights(&pages, &[2], &training, true).len(), 1);
    }

    #[test]
    fn each_draw_stops_the_boosting_on_a_sixth_of_the_sites_whatever_their_fold() {
        let sites: Vec<String> = (0..3000).map(|i| format!("site{i}.example")).collect();
        for draw in 0..STOP_DRAWS {
            let stopping: Vec<&String> = sites.iter().filter(|s| stop_draw(s) == draw).collect();
            assert!((400..600).contains(&stopping.len()), "{}", stopping.len());
            for fold in 0..5 {
                let in_fold = stopping.iter().filter(|s| site_fold(s, 5) == fold).count();
                assert!(
                    (60..140).contains(&in_fold),
                    "draw {draw}, fold {fold}: {in_fold}"
                );
            }
        }
    }

    #[test]
    fn the_rounds_are_the_median_of_the_draws_and_all_of_them_without_two_draws() {
        // One block per page, one feature: content above 0.5, with one label in four flipped.
        let mut pages: Vec<Page> = (0..240)
            .map(|i| {
                let mut page = page(0, &format!("site{i}.example"), 1);
                let x = (i * 37 % 240) as f32 / 240.0;
                page.rows = vec![x];
                page.labels = vec![(x > 0.5) != (i % 4 == 0)];
                page
            })
            .collect();
        let gather = |pages: &[Page], at: &[usize]| -> Gathered {
            let mut set = (Vec::new(), Vec::new(), Vec::new());
            for &i in at {
                set.0.extend_from_slice(&pages[i].rows);
                set.1.extend_from_slice(&pages[i].labels);
                set.2.push(1.0);
            }
            set
        };
        let params = BoostParams {
            max_rounds: 300,
            min_rows_leaf: 5,
            patience: 10,
            feature_fraction: 1.0,
            ..BoostParams::default()
        };
        let all: Vec<usize> = (0..pages.len()).collect();
        let rounds = |pages: &[Page]| {
            boosting_rounds(pages, &all, &|at| gather(pages, at), 1, &params).unwrap()
        };
        let chosen = rounds(&pages);
        // Noisy labels stop every draw long before 300 rounds.
        assert!((1..100).contains(&chosen), "{chosen}");
        let mut each: Vec<usize> = (0..STOP_DRAWS)
            .map(|draw| {
                let (stop, grow): (Vec<usize>, Vec<usize>) = all
                    .iter()
                    .partition(|&&i| stop_draw(&pages[i].group) == draw);
                let (grow, stop) = (gather(&pages, &grow), gather(&pages, &stop));
                let params = BoostParams {
                    seed: draw + 1,
                    ..params
                };
                BoostedTrees::fit(weighted(&grow), 1, Some(weighted(&stop)), &params)
                    .unwrap()
                    .n_trees()
            })
            .collect();
        each.sort_unstable();
        assert!(
            each[2] as u32 <= chosen && chosen <= each[3] as u32,
            "{each:?} {chosen}"
        );
        // Every page on one site: no draw has pages to stop on and pages to grow on.
        for page in &mut pages {
            page.group = "one.example".into();
        }
        assert_eq!(rounds(&pages), 300);
    }

    #[test]
    fn table_rows_split_a_dataset_by_type_only_when_it_has_several() {
        let mut pages = vec![page(0, "a", 1), page(0, "b", 1), page(1, "c", 1)];
        assert_eq!(table_rows(&pages, 1), [("all".to_owned(), vec![2])]);
        assert_eq!(table_rows(&pages, 0), [("all".to_owned(), vec![0, 1])]);
        pages[0].page_type = "listing".into();
        assert_eq!(
            table_rows(&pages, 0),
            [
                ("all".to_owned(), vec![0, 1]),
                ("article".to_owned(), vec![1]),
                ("listing".to_owned(), vec![0]),
            ]
        );
    }

    #[test]
    fn threshold_columns_keep_pages_without_probabilities_empty() {
        let mut columns = Vec::new();
        add_columns(
            &mut columns,
            "m",
            &[Some(vec![0.2, 0.6]), None],
            &[0.5, 0.1],
        );
        assert_eq!(columns[0].0, "blocks m ≥0.5");
        assert_eq!(columns[0].1, [Some(vec![false, true]), None]);
        assert_eq!(columns[1].1, [Some(vec![true, true]), None]);
    }
}

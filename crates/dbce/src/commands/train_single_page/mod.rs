//! `dbce train-single-page`: the learned block model of `annotate.single-page = "blocks"`,
//! trained on dataset folders, and its held-out validation (`dbce_learn::train::single_page`).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use dbce_classify::PageType;
use dbce_forest::{BoostParams, ForestParams};
use dbce_learn::train::single_page::{
    Learner, PageTypeTraining, Training, TrainingSet, Validation, ranked_importances,
};
use flate2::Compression;
use flate2::write::GzEncoder;

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
    /// Datasets (by name) whose pages the page-type models train on as articles, as
    /// `scripts/train-page-type` trains the built-in one; pages with a `page_type` in
    /// `meta.jsonl` are always trained on (comma-separated). Every page's blocks carry the
    /// type a model trained without its site fold (of `--folds`) gives it, and `--nested`
    /// routes by such types.
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
    type_weight: Vec<(PageType, usize)>,
    /// Also score the pipeline's route by page type (the built-in page-type model's guess):
    /// pages typed `article` by Readability and, for each of these thresholds U, by the
    /// model with Readability's blocks at 0.5 and the others at U; the other pages by the
    /// model at each `--threshold` (comma-separated).
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
    /// Write every block the forest trains on to this CSV file (gzipped when it ends in
    /// `.gz`), for trying other learners on the same rows: a header, then per block its
    /// page's dataset, id and site group, its place in the page, the page's site fold (of
    /// `--folds`), its label, its weight (the times the forest trains on it) and its
    /// features.
    #[arg(long, value_name = "FILE")]
    rows_out: Option<PathBuf>,
    /// Seed of the forest (or of the boosting).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The learner: `forest` or `boosted` (the built-in model's: gradient-boosted trees of at
    /// most `--leaves` leaves and depth `--boost-depth`, leaves of at least `--boost-min-leaf`
    /// blocks, L2 `--l2`, learning rate `--learning-rate`, half the blocks per round and half
    /// the features per tree; each block weighs its word and dataset weight instead of being
    /// repeated; as many rounds as the median of six draws of a sixth of the training sites
    /// has its lowest log loss at, trained on the rest and stopped after `--patience` rounds
    /// without a lower one, and then trained on all training sites).
    #[arg(long, value_enum, default_value_t = LearnerKind::Forest)]
    learner: LearnerKind,
    /// With `--learner boosted`: spread each dataset's weight evenly over its sites (each
    /// dataset's total kept).
    #[arg(long)]
    equal_sites: bool,
    /// With `--learner boosted`: most leaves of a tree.
    #[arg(long, default_value_t = BoostParams::default().max_leaves)]
    leaves: u32,
    /// With `--learner boosted`: largest depth of a leaf.
    #[arg(long, default_value_t = BoostParams::default().max_depth)]
    boost_depth: u32,
    /// With `--learner boosted`: fewest sampled blocks in a leaf.
    #[arg(long, default_value_t = BoostParams::default().min_rows_leaf)]
    boost_min_leaf: u32,
    /// With `--learner boosted`: L2 penalty on leaf values.
    #[arg(long, default_value_t = BoostParams::default().l2)]
    l2: f32,
    /// With `--learner boosted`: each tree's leaf values are multiplied by it.
    #[arg(long, default_value_t = BoostParams::default().learning_rate)]
    learning_rate: f32,
    /// With `--learner boosted`: rounds without a lower log loss on a draw's sixth of the
    /// sites after which its boosting stops.
    #[arg(long, default_value_t = BoostParams::default().patience)]
    patience: u32,
}

/// The learners of `--learner`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LearnerKind {
    /// A random forest.
    Forest,
    /// Gradient-boosted trees.
    Boosted,
}

/// A `TYPE=TIMES` of `--type-weight`.
fn parse_type_weight(text: &str) -> Result<(PageType, usize), String> {
    let (name, times) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: expected TYPE=TIMES"))?;
    let page_type = name.parse::<PageType>().map_err(|e| e.to_string())?;
    let times = times
        .parse()
        .map_err(|_| format!("{times:?}: expected a whole number of times"))?;
    Ok((page_type, times))
}

impl Args {
    /// How the models are trained.
    fn training(&self) -> Training {
        let learner = match self.learner {
            LearnerKind::Forest => Learner::Forest(ForestParams {
                trees: self.trees,
                max_depth: self.depth,
                min_samples_leaf: self.min_leaf,
                sample_fraction: self.sample_fraction,
                seed: self.seed,
                ..ForestParams::default()
            }),
            LearnerKind::Boosted => Learner::Boosted {
                params: BoostParams {
                    max_leaves: self.leaves,
                    max_depth: self.boost_depth,
                    min_rows_leaf: self.boost_min_leaf,
                    l2: self.l2,
                    learning_rate: self.learning_rate,
                    patience: self.patience,
                    seed: self.seed,
                    ..BoostParams::default()
                },
                equal_sites: self.equal_sites,
            },
        };
        Training {
            learner,
            word_steps: self.word_weight.clone(),
            dataset_weight: self.dataset_weight.clone(),
            type_weight: self.type_weight.clone(),
        }
    }

    /// What is validated.
    fn validation(&self) -> Validation {
        Validation {
            cross_validate: self.cross_validate,
            nested: self.nested,
            leave_dataset_out: self.leave_dataset_out,
            thresholds: self.threshold.clone(),
            article_outside: self.article_outside.clone(),
        }
    }
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let progress = |line: &str| {
        eprintln!("dbce: {line} ({:.1} s)", started.elapsed().as_secs_f64());
    };
    let types = PageTypeTraining {
        folds: args.folds,
        articles: args.page_type_articles.clone(),
        seed: dbce_pipeline::Config::default().annotate.seed,
    };
    let set = TrainingSet::load(&args.datasets, args.min_aligned, types, &progress)?;
    let training = args.training();
    if let Some(path) = &args.rows_out {
        write_file(path, |mut out| set.write_rows(&training, &mut out))?;
    }
    let model = set.fit(&training)?;
    if let Some(out) = &args.out {
        std::fs::write(out, model.encode()?)
            .with_context(|| format!("cannot write {}", out.display()))?;
        eprintln!(
            "dbce: model of {} trees written to {}",
            model.classifier().n_trees(),
            out.display()
        );
        for (name, importance) in ranked_importances(&model, 20) {
            eprintln!("dbce:   {name:<24} {importance:.3}");
        }
    }
    let evaluation = set.validate(&model, &training, &args.validation(), &progress)?;
    if let Some(path) = &args.pages_out {
        write_file(path, |mut out| evaluation.write_pages(&mut out))?;
    }
    evaluation.write_tables(&mut std::io::stdout().lock())?;
    if let Some(path) = &args.scores {
        write_file(path, |mut out| evaluation.write_scores(&mut out))?;
    }
    eprintln!("dbce: done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// Writes `path` with `write`, through gzip when its name ends in `.gz`.
fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let context = || format!("cannot write {}", path.display());
    let mut out = BufWriter::new(File::create(path).with_context(context)?);
    if path.extension().is_some_and(|e| e == "gz") {
        let mut gz = GzEncoder::new(out, Compression::default());
        write(&mut gz).with_context(context)?;
        gz.finish()
            .with_context(context)?
            .flush()
            .with_context(context)
    } else {
        write(&mut out).with_context(context)?;
        out.flush().with_context(context)
    }
}

//! `dbce train`: a run model for method `model`, or (`--judge`) the page-level judge of method
//! `evidence`, from archives and datasets with ground truth.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use dbce_artifact::ArtifactReader;
use dbce_eval::RougeScorer;
use dbce_extract::AnnotatedPage;
use dbce_learn::judge::{
    JudgeSample, PageEvidence, fit_judge, read_samples, scores_table, site_fold_groups,
    validate_judge, write_samples,
};
use dbce_learn::model;
use dbce_learn::train::label::label_runs;
use dbce_learn::train::runs::{fit_run_model, forest_params};
use dbce_pipeline::ClassifyMethod;
use dbce_pipeline::annotate::ANNOTATED;

use super::config::ConfigArgs;
use super::eval::{run_target, targets};

/// How the judge's groups of generated pages are named: one per site profile.
const GENERATED: &str = "generated site ";

/// Arguments of `dbce train`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Dataset folders laid out as `html/ID.html`, `gt/ID.txt`, `meta.jsonl`.
    datasets: Vec<PathBuf>,
    /// A generated archive and its ground truth JSONL; may be given several times.
    #[arg(long, num_args = 2, value_names = ["ARCHIVE", "TRUTH"])]
    archive: Vec<PathBuf>,
    /// Where to write the model.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Train the page-level judge of method `evidence` instead of the run model, and print
    /// its leave-one-group-out validation (groups: each dataset, and each site of the
    /// generated archives, i.e. each site profile).
    #[arg(long)]
    judge: bool,
    /// With `--judge`: also write every training page's group, evidence and route F1s to this
    /// JSONL file, for analysis.
    #[arg(long, value_name = "FILE", requires = "judge")]
    samples: Option<PathBuf>,
    /// With `--judge`: also train on the samples of a file `--samples` wrote (their groups as
    /// written), e.g. pages annotated with another `annotate.block-model`; may be given
    /// several times.
    #[arg(long, value_name = "FILE", requires = "judge")]
    samples_from: Vec<PathBuf>,
    /// With `--judge`: also validate with each dataset's pages cut into this many folds by
    /// site (generated site profiles stay whole), a second table: new sites of a known kind
    /// of page held out, beside whole datasets held out. 0: not.
    #[arg(long, default_value_t = 0, value_name = "N", requires = "judge")]
    site_folds: u64,
    /// Trees in the forest.
    #[arg(long, default_value_t = 32)]
    trees: u32,
    /// Depth limit of each tree. Held out (docs/RESULTS.md), depth 9 scores as well as or
    /// better than 12 on every development set, and still fits generated archives (depth 6
    /// does not: 0.93 on the sample).
    #[arg(long, default_value_t = 9)]
    depth: u32,
    /// A run is content when at least this share of its words align with the ground truth.
    #[arg(long, default_value_t = 0.5)]
    min_aligned: f64,
    #[command(flatten)]
    config: ConfigArgs,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        !args.datasets.is_empty() || !args.archive.is_empty() || !args.samples_from.is_empty(),
        "give dataset folders, --archive ARCHIVE TRUTH or --samples-from FILE"
    );
    let mut config = args.config.resolve()?;
    // Runs are prepared as the method that reads them prepares them (`evidence` resolves
    // `invalid` runs by their parents first; `model` does not).
    config.annotate.method = if args.judge {
        ClassifyMethod::Evidence
    } else {
        ClassifyMethod::Model
    };
    config.annotate.training = true;
    let scratch = tempfile::tempdir().context("cannot create a temporary folder")?;
    let mut rows: Vec<f32> = Vec::new();
    let mut labels: Vec<bool> = Vec::new();
    let mut judged: Vec<JudgeSample> = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    let mut scorer = RougeScorer::new();
    let all = targets(&args.datasets, &args.archive, scratch.path())?;
    for (t, target) in all.iter().enumerate() {
        let generated = t >= args.datasets.len();
        let (work, _) = run_target(
            target,
            &config,
            &scratch.path().join(&target.name).join("train"),
        )?;
        let before = labels.len();
        let pages_before = judged.len();
        for shard in 0..config.annotate_shards() {
            let path = work.annotated_pages(shard);
            for page in ArtifactReader::<AnnotatedPage>::open(&path, ANNOTATED)? {
                let page = page?;
                let (Some(training), Some(truth)) =
                    (page.training, target.truth.get(&page.page.record_id))
                else {
                    continue;
                };
                anyhow::ensure!(
                    training.rows.len() == training.texts.len() * model::WIDTH,
                    "{}: {} runs but {} feature values ({} {:?})",
                    page.page.url,
                    training.texts.len(),
                    training.rows.len(),
                    page.runs.len(),
                    page.method
                );
                if args.judge {
                    let evidence = PageEvidence(training.evidence.as_slice().try_into()?);
                    let f1 =
                        [0, 1, 2].map(|r| scorer.score(&truth.text, &training.route_texts[r]).f1);
                    judged.push(JudgeSample {
                        evidence,
                        f1,
                        site: page.page.site.0.clone(),
                    });
                    groups.push(if generated {
                        format!("{GENERATED}{}", page.page.site.0)
                    } else {
                        target.name.clone()
                    });
                    continue;
                }
                labels.extend(label_runs(&training.texts, &truth.text, args.min_aligned));
                rows.extend(training.rows);
            }
        }
        let added = &labels[before..];
        if args.judge {
            eprintln!(
                "dbce: {}: {} cross pages",
                target.name,
                judged.len() - pages_before
            );
        } else {
            eprintln!(
                "dbce: {}: {} runs, {} content",
                target.name,
                added.len(),
                added.iter().filter(|&&l| l).count()
            );
        }
    }
    for path in &args.samples_from {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let (samples, names) = read_samples(std::io::BufReader::new(file))
            .with_context(|| format!("cannot read the judge samples of {}", path.display()))?;
        eprintln!("dbce: {}: {} cross pages", path.display(), samples.len());
        judged.extend(samples);
        groups.extend(names);
    }
    if args.judge {
        return train_judge(args, &judged, &groups, config.annotate.seed);
    }
    anyhow::ensure!(
        !labels.is_empty(),
        "no cross page with ground truth to learn from"
    );
    let params = forest_params(args.trees, args.depth, config.annotate.seed);
    let fitted = fit_run_model(&rows, &labels, &params)?;
    let forest = &fitted.forest;
    std::fs::write(&args.out, model::encode(forest)?)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "dbce: model of {} trees, {} nodes, trained on {} runs ({:.3} training accuracy), written to {}",
        forest.n_trees(),
        forest.n_nodes(),
        labels.len(),
        fitted.training_accuracy,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Validates the judge leave-one-group-out, prints the table, and writes the judge trained on
/// every sample.
fn train_judge(
    args: &Args,
    samples: &[JudgeSample],
    groups: &[String],
    seed: u64,
) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        !samples.is_empty(),
        "no cross page with ground truth to learn from"
    );
    let params = forest_params(args.trees, args.depth, seed);
    if let Some(path) = &args.samples {
        let mut lines = Vec::new();
        write_samples(samples, groups, &mut lines)?;
        std::fs::write(path, lines).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let all: Vec<&JudgeSample> = samples.iter().collect();
    let judge = fit_judge(&all, &params)?;
    let scores = validate_judge(samples, groups, &judge, &params, |_| true)?;
    print!("{}", scores_table(&scores));
    if args.site_folds > 0 {
        // The generated profiles stay whole: they train, and their rows are the table above.
        let is_dataset = |group: &str| !group.starts_with(GENERATED);
        let folded = site_fold_groups(samples, groups, is_dataset, args.site_folds);
        let datasets = validate_judge(samples, &folded, &judge, &params, is_dataset)?;
        println!(
            "\nEach dataset cut into {} folds by site, one fold held out at a time:\n",
            args.site_folds
        );
        print!("{}", scores_table(&datasets));
    }
    let bytes = judge.encode()?;
    std::fs::write(&args.out, bytes)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "dbce: judge trained on {} cross pages, written to {}",
        samples.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

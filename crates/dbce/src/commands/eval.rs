//! `dbce eval`: the whole pipeline on evaluation datasets, scored against their ground truth.

use std::collections::BTreeMap;
use std::io::BufRead as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use dbce_eval::{Dataset, MethodScores, RougeScorer, Split, load_truth};
use dbce_pipeline::finish::TextRecord;
use dbce_pipeline::{ClassifyMethod, WorkDir, run_local};

use super::config::ConfigArgs;

/// Arguments of `dbce eval`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Dataset folders laid out as `html/ID.html`, `gt/ID.txt`, `meta.jsonl`.
    datasets: Vec<PathBuf>,
    /// A generated archive and its ground truth JSONL (`dbce-synth`), scored as one more
    /// dataset; may be given several times.
    #[arg(long, num_args = 2, value_names = ["ARCHIVE", "TRUTH"])]
    archive: Vec<PathBuf>,
    /// Methods to compare, comma-separated (default: all).
    #[arg(long, value_delimiter = ',')]
    methods: Vec<String>,
    /// Where the runs' work and output go (default: a temporary folder, removed afterwards).
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Print JSON instead of a Markdown table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    config: ConfigArgs,
}

/// One set of pages with ground truth: an archive and, per record id, the truth and the split.
pub(crate) struct Target {
    /// The dataset's or archive's name.
    pub(crate) name: String,
    /// The archive.
    pub(crate) archive: PathBuf,
    /// Per source record id: the true main content and the page's split.
    pub(crate) truth: BTreeMap<String, (String, Split)>,
}

/// The targets of dataset folders (written as WARCs under `root`) and of generated archives
/// with their truth files (pairs in `archives`).
pub(crate) fn targets(
    datasets: &[PathBuf],
    archives: &[PathBuf],
    root: &Path,
) -> anyhow::Result<Vec<Target>> {
    let mut targets = Vec::new();
    for dir in datasets {
        targets.push(dataset_target(dir, root)?);
    }
    for pair in archives.chunks(2) {
        let [archive, truth] = pair else { continue };
        targets.push(archive_target(archive, truth)?);
    }
    Ok(targets)
}

/// Runs every stage on `target` with `config` in a fresh `dir`; returns the work directory and
/// the output directory.
pub(crate) fn run_target(
    target: &Target,
    config: &dbce_pipeline::Config,
    dir: &Path,
) -> anyhow::Result<(WorkDir, PathBuf)> {
    let out = dir.join("out");
    for stale in [dir.join("work"), out.clone()] {
        if stale.exists() {
            std::fs::remove_dir_all(&stale)?;
        }
    }
    let work = WorkDir::new(dir.join("work"));
    run_local(
        &work,
        config,
        std::slice::from_ref(&target.archive),
        &out,
        4,
        &|_, _, _| {},
    )
    .with_context(|| format!("{} with {}", target.name, config.annotate.method.name()))?;
    Ok((work, out))
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        !args.datasets.is_empty() || !args.archive.is_empty(),
        "give dataset folders or --archive ARCHIVE TRUTH"
    );
    let base = args.config.resolve()?;
    let methods = methods(&args.methods)?;
    let scratch = tempfile::tempdir().context("cannot create a temporary folder")?;
    let root = args
        .keep
        .clone()
        .unwrap_or_else(|| scratch.path().to_owned());
    let targets = targets(&args.datasets, &args.archive, &root)?;
    let mut scores = MethodScores::new();
    let mut scorer = RougeScorer::new();
    for target in &targets {
        for &method in &methods {
            let mut config = base.clone();
            config.annotate.method = method;
            let dir = root.join(&target.name).join(method.name());
            let out = dir.join("out");
            if out.exists() {
                std::fs::remove_dir_all(&out)?;
            }
            let work = WorkDir::new(dir.join("work"));
            if dir.join("work").exists() {
                std::fs::remove_dir_all(dir.join("work"))?;
            }
            run_local(
                &work,
                &config,
                std::slice::from_ref(&target.archive),
                &out,
                4,
                &|_, _, _| {},
            )
            .with_context(|| format!("{} with {}", target.name, method.name()))?;
            let texts = read_texts(&out)?;
            for (id, (truth, split)) in &target.truth {
                // A page the pipeline did not write scores as an empty extraction.
                let text = texts.get(id).map_or("", String::as_str);
                scores.add(
                    &target.name,
                    method.name(),
                    *split,
                    scorer.score(truth, text),
                );
            }
            eprintln!(
                "dbce: {} / {}: {} of {} pages written",
                target.name,
                method.name(),
                target
                    .truth
                    .keys()
                    .filter(|id| texts.contains_key(*id))
                    .count(),
                target.truth.len()
            );
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&scores.to_json())?);
    } else {
        print!("{}", scores.markdown_table());
    }
    Ok(ExitCode::SUCCESS)
}

fn methods(names: &[String]) -> anyhow::Result<Vec<ClassifyMethod>> {
    if names.is_empty() {
        return Ok(ClassifyMethod::ALL.to_vec());
    }
    names
        .iter()
        .map(|name| {
            ClassifyMethod::ALL
                .into_iter()
                .find(|m| m.name() == name)
                .with_context(|| {
                    let known: Vec<&str> = ClassifyMethod::ALL.iter().map(|m| m.name()).collect();
                    format!("unknown method {name:?} ({})", known.join(", "))
                })
        })
        .collect()
}

/// A dataset folder written as one WARC under `root`.
fn dataset_target(dir: &Path, root: &Path) -> anyhow::Result<Target> {
    let dataset = Dataset::load(dir).with_context(|| format!("cannot load {}", dir.display()))?;
    for missing in &dataset.missing {
        eprintln!(
            "dbce: {}: page {} has no {:?} file",
            dataset.name, missing.id, missing.kind
        );
    }
    let folder = root.join(&dataset.name);
    std::fs::create_dir_all(&folder)?;
    let archive = folder.join("pages.warc.gz");
    dataset.write_warc(&archive)?;
    let splits = dataset.splits();
    let truth = dataset
        .pages
        .iter()
        .zip(splits)
        .map(|(page, split)| (dataset.record_id(page), (page.ground_truth.clone(), split)))
        .collect();
    Ok(Target {
        name: dataset.name.clone(),
        archive,
        truth,
    })
}

/// A generated archive: every HTML page of the truth file; all sites have many pages.
fn archive_target(archive: &Path, truth: &Path) -> anyhow::Result<Target> {
    let truth = load_truth(truth)?;
    let name = archive.file_name().map_or_else(
        || "archive".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(Target {
        name,
        archive: archive.to_owned(),
        truth: truth
            .into_iter()
            .map(|(id, text)| (id, (text, Split::Multi)))
            .collect(),
    })
}

/// The text of every page in a run's JSONL output, by source record id.
fn read_texts(out: &Path) -> anyhow::Result<BTreeMap<String, String>> {
    let mut texts = BTreeMap::new();
    let dir = out.join("text");
    let mut parts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    parts.sort();
    for part in parts {
        let file = std::fs::File::open(&part)?;
        let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(file));
        for line in reader.lines() {
            let record: TextRecord = serde_json::from_str(&line?)?;
            texts.insert(record.id, record.text);
        }
    }
    Ok(texts)
}

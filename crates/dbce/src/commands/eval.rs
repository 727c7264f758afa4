//! `dbce eval`: the whole pipeline on evaluation datasets, scored against their ground truth.

use std::collections::BTreeMap;
use std::io::{BufRead as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use dbce_eval::{
    Dataset, MethodScores, ORACLE, Peer, RougeScorer, RunNotes, Split, TruthPage, load_truth,
};
use dbce_pipeline::{ClassifyMethod, WorkDir, run_local};

use super::config::ConfigArgs;

/// Arguments of `dbce eval`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Dataset folders laid out as `html/ID.html` (or `html/ID.html.gz`), `gt/ID.txt`,
    /// `meta.jsonl` (with an optional `page_type` per page).
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
    /// Only write each dataset folder as `DIR/NAME/pages.warc.gz` (DIR given by `--keep`) and
    /// stop: no run, no scores (the archives `scripts/bench --dev-sets` reads).
    #[arg(long, requires = "keep")]
    archives_only: bool,
    /// Print JSON instead of a Markdown table.
    #[arg(long)]
    json: bool,
    /// Write every page's scores per method and peer to FILE, one JSON object a line
    /// (`docs/formats.md`).
    #[arg(long, value_name = "FILE")]
    per_page: Option<PathBuf>,
    /// Score another extractor's outputs beside the methods: DIR holds `<page id>.txt` per
    /// page, or a folder per dataset of them (`scripts/peers` writes them); may be given
    /// several times.
    #[arg(long, value_name = "NAME=DIR")]
    peer: Vec<Peer>,
    #[command(flatten)]
    config: ConfigArgs,
}

/// One set of pages with ground truth: an archive and its pages by record id.
pub(crate) struct Target {
    /// The dataset's or archive's name.
    pub(crate) name: String,
    /// The archive.
    pub(crate) archive: PathBuf,
    /// Per source record id: the page with its true main content, split and type.
    pub(crate) truth: BTreeMap<String, TruthPage>,
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
    check_peer_names(&args.peer)?;
    let scratch = tempfile::tempdir().context("cannot create a temporary folder")?;
    let root = args
        .keep
        .clone()
        .unwrap_or_else(|| scratch.path().to_owned());
    let targets = targets(&args.datasets, &args.archive, &root)?;
    if args.archives_only {
        for target in &targets {
            println!("{}", target.archive.display());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut scores = MethodScores::new();
    let mut scorer = RougeScorer::new();
    for target in &targets {
        for &method in &methods {
            let mut config = base.clone();
            config.annotate.method = method;
            let dir = root.join(&target.name).join(method.name());
            let (_, out) = run_target(target, &config, &dir)?;
            let mut pages = read_run_pages(&out)?;
            let written = target.truth.keys().filter(|id| pages.contains_key(*id));
            eprintln!(
                "dbce: {} / {}: {} of {} pages written",
                target.name,
                method.name(),
                written.count(),
                target.truth.len()
            );
            for (id, truth) in &target.truth {
                // A page the pipeline did not write scores as an empty extraction.
                let (text, notes) = pages.remove(id).unwrap_or_default();
                scores.add(truth.score(&mut scorer, method.name(), false, &text, notes));
            }
        }
        score_peers(&args.peer, target, &mut scorer, &mut scores)?;
    }
    if let Some(path) = &args.per_page {
        write_per_page(path, &scores)?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&scores.to_json()?)?);
    } else {
        print!("{}", scores.markdown_table());
    }
    Ok(ExitCode::SUCCESS)
}

/// Peer names must not stand for a method or the oracle, nor repeat.
fn check_peer_names(peers: &[Peer]) -> anyhow::Result<()> {
    let mut seen = std::collections::BTreeSet::new();
    for peer in peers {
        let taken =
            peer.name == ORACLE || ClassifyMethod::ALL.iter().any(|m| m.name() == peer.name);
        anyhow::ensure!(
            !taken,
            "peer name {:?} is taken by a dbce method or the oracle",
            peer.name
        );
        anyhow::ensure!(
            seen.insert(&peer.name),
            "peer {:?} is given twice",
            peer.name
        );
    }
    Ok(())
}

/// Scores every peer that has outputs for the target's pages.
fn score_peers(
    peers: &[Peer],
    target: &Target,
    scorer: &mut RougeScorer,
    scores: &mut MethodScores,
) -> anyhow::Result<()> {
    let pages: Vec<TruthPage> = target.truth.values().cloned().collect();
    for peer in peers {
        let Some(mut texts) = peer.texts(&pages)? else {
            eprintln!(
                "dbce: {} / {}: no outputs in {}, not scored",
                target.name,
                peer.name,
                peer.folder(&target.name).display()
            );
            continue;
        };
        if !texts.missing.is_empty() {
            eprintln!(
                "dbce: {} / {}: {} of {} pages have no file (scored as empty)",
                target.name,
                peer.name,
                texts.missing.len(),
                pages.len()
            );
        }
        for page in &pages {
            let text = texts.texts.remove(&page.page_id).unwrap_or_default();
            scores.add(page.score(scorer, &peer.name, true, &text, RunNotes::default()));
        }
    }
    Ok(())
}

/// Writes every page score as one JSON line.
fn write_per_page(path: &Path, scores: &MethodScores) -> anyhow::Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    for page in scores.pages() {
        serde_json::to_writer(&mut out, page)?;
        out.write_all(b"\n")?;
    }
    out.flush()
        .with_context(|| format!("cannot write {}", path.display()))
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
    let truth = dataset
        .truth_pages()
        .into_iter()
        .map(|page| (page.record_id.clone(), page))
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
        name: name.clone(),
        archive: archive.to_owned(),
        truth: truth
            .into_iter()
            .map(|(id, text)| {
                let page = TruthPage {
                    dataset: name.clone(),
                    page_id: id.clone(),
                    record_id: id.clone(),
                    split: Split::Multi,
                    page_type: None,
                    text,
                };
                (id, page)
            })
            .collect(),
    })
}

/// What the eval reads of a line of a run's JSONL output: the text, and the fields that say
/// how it was decided where the pipeline writes them.
#[derive(serde::Deserialize)]
struct RunPage {
    id: String,
    text: String,
    #[serde(default)]
    decided_by: Option<serde_json::Value>,
    #[serde(default)]
    empty_reason: Option<serde_json::Value>,
    #[serde(default)]
    page_type: Option<serde_json::Value>,
    #[serde(default)]
    page_type_confidence: Option<serde_json::Value>,
}

impl RunPage {
    /// The record id, the text, and the notes under the names of a per-page line.
    fn into_parts(self) -> (String, String, RunNotes) {
        let notes = RunNotes {
            decided_by: self.decided_by,
            empty_reason: self.empty_reason,
            predicted_page_type: self.page_type,
            predicted_page_type_confidence: self.page_type_confidence,
        };
        (self.id, self.text, notes)
    }
}

/// The text and notes of every page in a run's JSONL output, by source record id.
fn read_run_pages(out: &Path) -> anyhow::Result<BTreeMap<String, (String, RunNotes)>> {
    let mut pages = BTreeMap::new();
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
            let page: RunPage = serde_json::from_str(&line?)
                .with_context(|| format!("{}: not a text record", part.display()))?;
            let (id, text, notes) = page.into_parts();
            pages.insert(id, (text, notes));
        }
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_lines_give_their_notes_when_they_have_them() {
        let bare = r#"{"id":"<urn:a>","text":"Hello","method":"cross"}"#;
        let (id, text, notes) = serde_json::from_str::<RunPage>(bare).unwrap().into_parts();
        assert_eq!((id.as_str(), text.as_str()), ("<urn:a>", "Hello"));
        assert_eq!(notes, RunNotes::default());
        let noted = r#"{"id":"<urn:b>","text":"","decided_by":"readability",
            "empty_reason":"error-page","page_type":"error","page_type_confidence":0.9}"#;
        let (_, _, notes) = serde_json::from_str::<RunPage>(noted).unwrap().into_parts();
        assert_eq!(notes.decided_by, Some("readability".into()));
        assert_eq!(notes.empty_reason, Some("error-page".into()));
        assert_eq!(notes.predicted_page_type, Some("error".into()));
        assert_eq!(notes.predicted_page_type_confidence, Some(0.9.into()));
    }
}

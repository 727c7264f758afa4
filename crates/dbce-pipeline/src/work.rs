//! The work directory of a run: each stage's manifest, outputs, reports and done markers.
//!
//! A stage writes `STAGE/manifest.json` (the configuration and its fingerprint, the inputs and
//! the shard count) before any shard, and `STAGE/_done/SHARD` after a shard's outputs and report
//! are in place; reruns skip shards that are done, and a later stage refuses to start until
//! every shard of the one before is done with the same fingerprint.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Config, StageReport};
use dbce_artifact::ArtifactError;

/// The version of the work directory layout and of `manifest.json`.
pub const LAYOUT_VERSION: u32 = 3;

/// What a stage was run with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`LAYOUT_VERSION`] of the writer.
    pub layout: u32,
    /// The stage.
    pub stage: String,
    /// [`Config::fingerprint`] of `config`.
    pub fingerprint: String,
    /// The resolved configuration.
    pub config: Config,
    /// The stage's inputs (for `read`: the archive files, sorted; their index is the `FileId`).
    pub inputs: Vec<PathBuf>,
    /// How many shards the stage has.
    pub shards: u32,
}

impl Manifest {
    /// The inputs as the outputs name them (JSONL `source.file`, the index's `file`,
    /// `report.json`'s `inputs`), by [`dbce_page::FileId`].
    pub fn input_names(&self) -> Vec<String> {
        self.inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect()
    }
}

/// A problem with the work directory.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorkError {
    /// A manifest or report cannot be serialised.
    #[error("cannot encode {path}")]
    Encode {
        /// The file it was for.
        path: PathBuf,
        /// What the encoder said.
        #[source]
        source: serde_json::Error,
    },
    /// Reading or writing a file of the work directory failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A manifest could not be parsed.
    #[error("{path}: not a valid manifest: {source}")]
    BadManifest {
        /// The file.
        path: PathBuf,
        /// The parse error.
        #[source]
        source: serde_json::Error,
    },
    /// The stage was already started with another configuration, inputs or shard count.
    #[error(
        "{stage} in {dir} was started with other settings (fingerprint {found}, {found_shards} shards); use a new work directory or the same settings"
    )]
    ManifestMismatch {
        /// The stage.
        stage: String,
        /// The work directory.
        dir: PathBuf,
        /// The fingerprint found.
        found: String,
        /// The shard count found.
        found_shards: u32,
    },
    /// The previous stage has not finished.
    #[error("stage {stage} is not complete in {dir}: shards {missing:?} are not done")]
    Incomplete {
        /// The previous stage.
        stage: String,
        /// The work directory.
        dir: PathBuf,
        /// The shards without a done marker (at most the first 20).
        missing: Vec<u32>,
    },
    /// An intermediate file is damaged or of the wrong kind.
    #[error(transparent)]
    Artifact(#[from] ArtifactError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> WorkError + '_ {
    move |source| WorkError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Stage `read`'s name, and its folder in the work directory.
pub const READ: &str = "read";
/// Stage `group`'s name and folder.
pub const GROUP: &str = "group";
/// Stage `annotate`'s name and folder.
pub const ANNOTATE: &str = "annotate";
/// Stage `finish`'s name and folder.
pub const FINISH: &str = "finish";
/// Stage `index`'s name and the folder of its done markers (the indexes are in the output).
pub const INDEX: &str = "index";
/// The last step's name and the folder of its done marker.
pub const MERGE: &str = "merge";

/// A run's work directory.
#[derive(Debug, Clone)]
pub struct WorkDir {
    root: PathBuf,
}

impl WorkDir {
    /// The work directory at `root` (created when first written to).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// The root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A path inside `stage`'s directory.
    pub fn path(&self, stage: &str, relative: impl AsRef<Path>) -> PathBuf {
        self.root.join(stage).join(relative)
    }

    /// `read/pages/PART/RANK.bin`: the page references shard `rank` read for `partition`.
    pub fn read_pages(&self, partition: u32, rank: u32) -> PathBuf {
        self.path(READ, format!("pages/{partition:05}/{rank:05}.bin"))
    }

    /// `read/words/PART/RANK.bin`: the hashed words of those pages.
    pub fn read_words(&self, partition: u32, rank: u32) -> PathBuf {
        self.path(READ, format!("words/{partition:05}/{rank:05}.bin"))
    }

    /// `read/doms/PART/RANK.bin`: the parsed DOMs of those pages ([`crate::doms`]).
    pub fn read_doms(&self, partition: u32, rank: u32) -> PathBuf {
        self.path(READ, format!("doms/{partition:05}/{rank:05}.bin"))
    }

    /// `read/bands/PART/RANK.bin`: the band rows of those pages.
    pub fn read_band_rows(&self, partition: u32, rank: u32) -> PathBuf {
        self.path(READ, format!("bands/{partition:05}/{rank:05}.bin"))
    }

    /// `read/skips/RANK.jsonl`: the entries shard `rank` skipped, with their reasons.
    pub fn read_skips(&self, rank: u32) -> PathBuf {
        self.path(READ, format!("skips/{rank:05}.jsonl"))
    }

    /// `STAGE/spill/PART/WHAT-RUN.bin`: a sorted run of `what` (`group`'s band `rows`, the
    /// `heads` of `finish`'s and `index`'s pages, `finish`'s `cdxj` lines) while stage `stage`
    /// sorts more of `partition`'s items (`annotate`: its shard's) than it holds in memory;
    /// removed once read.
    pub fn spill(&self, stage: &str, partition: u32, what: &str, run: usize) -> PathBuf {
        self.path(stage, format!("spill/{partition:05}/{what}-{run:05}.bin"))
    }

    /// `group/buckets/PART.bin`: the LSH buckets of `partition`.
    pub fn buckets(&self, partition: u32) -> PathBuf {
        self.path(GROUP, format!("buckets/{partition:05}.bin"))
    }

    /// `annotate/pages/SHARD.bin`: the pages annotate shard `shard` annotated (with one task
    /// per partition, the shard is the partition).
    pub fn annotated_pages(&self, shard: u32) -> PathBuf {
        self.path(ANNOTATE, format!("pages/{shard:05}.bin"))
    }

    /// Writes `stage`'s manifest, or checks that the one there has the same settings.
    ///
    /// # Errors
    /// Fails when the manifest cannot be written or read, or differs.
    pub fn begin(&self, manifest: &Manifest) -> Result<(), WorkError> {
        let path = self.path(&manifest.stage, "manifest.json");
        if path.exists() {
            let found = self.manifest(&manifest.stage)?;
            if found.fingerprint != manifest.fingerprint
                || found.shards != manifest.shards
                || found.inputs != manifest.inputs
            {
                return Err(WorkError::ManifestMismatch {
                    stage: manifest.stage.clone(),
                    dir: self.root.clone(),
                    found: found.fingerprint,
                    found_shards: found.shards,
                });
            }
            return Ok(());
        }
        let json = serde_json::to_vec_pretty(manifest).map_err(|source| WorkError::Encode {
            path: path.clone(),
            source,
        })?;
        write_atomically(&path, &json)
    }

    /// Reads `stage`'s manifest.
    ///
    /// # Errors
    /// Fails when it is missing or invalid.
    pub fn manifest(&self, stage: &str) -> Result<Manifest, WorkError> {
        let path = self.path(stage, "manifest.json");
        let bytes = std::fs::read(&path).map_err(io(&path))?;
        serde_json::from_slice(&bytes).map_err(|source| WorkError::BadManifest { path, source })
    }

    /// Whether `shard` of `stage` is done.
    pub fn is_done(&self, stage: &str, shard: u32) -> bool {
        self.path(stage, done_name(shard)).exists()
    }

    /// Writes `shard`'s report, then its done marker.
    ///
    /// # Errors
    /// Fails when either cannot be written.
    pub fn finish_shard(&self, report: &StageReport) -> Result<(), WorkError> {
        let report_path = self.path(&report.stage, format!("reports/{:05}.json", report.shard));
        let json = serde_json::to_vec_pretty(report).map_err(|source| WorkError::Encode {
            path: report_path.clone(),
            source,
        })?;
        write_atomically(&report_path, &json)?;
        write_atomically(&self.path(&report.stage, done_name(report.shard)), b"")
    }

    /// Reads the report of `shard` of `stage`.
    ///
    /// # Errors
    /// Fails when it is missing or invalid.
    pub fn report(&self, stage: &str, shard: u32) -> Result<StageReport, WorkError> {
        let path = self.path(stage, format!("reports/{shard:05}.json"));
        let bytes = std::fs::read(&path).map_err(io(&path))?;
        serde_json::from_slice(&bytes).map_err(|source| WorkError::BadManifest { path, source })
    }

    /// The manifest of `stage` if every shard of it is done and it has `fingerprint`.
    ///
    /// # Errors
    /// Fails when the stage is missing, incomplete or was run with other settings.
    pub fn require_complete(&self, stage: &str, fingerprint: &str) -> Result<Manifest, WorkError> {
        let manifest = self.manifest(stage)?;
        if manifest.fingerprint != fingerprint {
            return Err(WorkError::ManifestMismatch {
                stage: stage.to_owned(),
                dir: self.root.clone(),
                found: manifest.fingerprint,
                found_shards: manifest.shards,
            });
        }
        let missing: Vec<u32> = (0..manifest.shards)
            .filter(|&s| !self.is_done(stage, s))
            .take(20)
            .collect();
        if !missing.is_empty() {
            return Err(WorkError::Incomplete {
                stage: stage.to_owned(),
                dir: self.root.clone(),
                missing,
            });
        }
        Ok(manifest)
    }
}

fn done_name(shard: u32) -> String {
    format!("_done/{shard:05}")
}

/// Writes `bytes` to `path` atomically ([`dbce_artifact::atomic::AtomicFile`]).
///
/// # Errors
/// Fails when writing or renaming fails.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WorkError> {
    dbce_artifact::atomic::write_atomically(path, bytes).map_err(|e| WorkError::Io {
        path: e.path,
        source: e.source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(shards: u32) -> Manifest {
        let config = Config::default();
        Manifest {
            layout: LAYOUT_VERSION,
            stage: "read".into(),
            fingerprint: config.fingerprint().unwrap(),
            config,
            inputs: vec!["a.warc.gz".into()],
            shards,
        }
    }

    #[test]
    fn stages_must_be_complete_and_consistent() {
        let dir = tempfile::tempdir().unwrap();
        let work = WorkDir::new(dir.path());
        work.begin(&manifest(2)).unwrap();
        work.begin(&manifest(2)).unwrap();
        assert!(matches!(
            work.begin(&manifest(3)),
            Err(WorkError::ManifestMismatch { .. })
        ));
        let fingerprint = Config::default().fingerprint().unwrap();
        let error = work.require_complete("read", &fingerprint).unwrap_err();
        assert!(matches!(error, WorkError::Incomplete { ref missing, .. } if missing == &[0, 1]));
        for shard in 0..2 {
            work.finish_shard(&StageReport::new("read", shard)).unwrap();
        }
        assert!(work.require_complete("read", &fingerprint).is_ok());
        assert!(work.require_complete("read", "other").is_err());
        assert_eq!(work.report("read", 1).unwrap().shard, 1);
    }
}

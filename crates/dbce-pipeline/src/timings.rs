//! How long each stage of a local run took: `WORK/timings.json`, the one file of a run that
//! differs between runs (it is not an output, and reports read it only to show it).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::StageError;
use crate::work::{WorkDir, write_atomically};

/// The file's name in the work directory.
pub const TIMINGS: &str = "timings.json";

/// Wall-clock seconds per stage of the last `run_local` on a work directory, by the stage's
/// name in `report.json` (`1-read` … `4-finish`), `5-index`, and `6-merge` for the last step. A rerun that
/// finds shards done records the time it took, not the first run's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StageTimings {
    /// Seconds by stage.
    pub seconds: BTreeMap<String, f64>,
}

impl StageTimings {
    /// The timings recorded in `work`; `None` when there are none (a run of `dbce stage`
    /// tasks, as a cluster runs them, records none).
    ///
    /// # Errors
    /// Fails when the file is there but cannot be read or parsed.
    pub fn read(work: &WorkDir) -> Result<Option<Self>, StageError> {
        let path = Self::path(work);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(StageError::Input { path, source }),
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|error| StageError::Input {
                path,
                source: std::io::Error::other(error),
            })
    }

    /// Writes the timings into `work`.
    ///
    /// # Errors
    /// Fails when the file cannot be written.
    pub fn write(&self, work: &WorkDir) -> Result<(), StageError> {
        let path = Self::path(work);
        let json = serde_json::to_vec_pretty(self).map_err(|e| StageError::Output {
            path: path.clone(),
            source: e.into(),
        })?;
        Ok(write_atomically(&path, &json)?)
    }

    fn path(work: &WorkDir) -> PathBuf {
        work.root().join(TIMINGS)
    }
}

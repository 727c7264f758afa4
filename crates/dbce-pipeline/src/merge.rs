//! The last step, `merge` (one task): the partitions' sorted CDXJ files merged into
//! `OUT/warc/index.cdxj` by a streaming k-way merge, and `OUT/report.json`.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::finish::{RunReport, StageCounts, report_stage_name};
use crate::work::{WorkDir, write_atomically};
use crate::{Config, StageError, StageReport, annotate, finish, group, index, read};
use dbce_artifact::atomic::{AtomicFile, WriteError};

/// The step's name and the directory of its done marker.
pub const STAGE: &str = crate::work::MERGE;

/// Read buffer per merged file: memory is this times the number of parts, plus one line each.
const READ_BUFFER: usize = 64 << 10;

/// Runs the last step: merges the parts' CDXJ into `warc/index.cdxj` and writes
/// `out/report.json`, then the step's done marker. `index` (and so every earlier stage) must be
/// complete with the same configuration. A rerun redoes both files: they are small beside the
/// parts, and the merge reads each part once.
///
/// # Errors
/// Fails when a stage is incomplete, a part is missing or not sorted, or files cannot be read
/// or written.
pub fn run_merge(work: &WorkDir, config: &Config, out: &Path) -> Result<RunReport, StageError> {
    let fingerprint = config.fingerprint()?;
    work.require_complete(index::STAGE, &fingerprint)?;
    let finished = work.require_complete(finish::STAGE, &fingerprint)?;
    let files = finished.input_names();
    let mut parts = Vec::new();
    for partition in 0..config.lsh.partitions {
        // A partition without pages wrote no part files.
        if work.report(finish::STAGE, partition)?.emitted > 0 {
            parts.push(out.join("warc").join(format!("part-{partition:05}.cdxj")));
        }
    }
    merge_sorted_lines(&parts, &out.join("warc").join("index.cdxj"))?;

    let mut stages = BTreeMap::new();
    for stage in [read::STAGE, group::STAGE, annotate::STAGE, finish::STAGE] {
        let total = stage_total(work, stage)?;
        stages.insert(
            report_stage_name(stage),
            StageCounts {
                input: total.input,
                output: total.emitted,
                skipped: total.skipped,
                warnings: total.warnings,
            },
        );
    }
    let report = RunReport {
        fingerprint,
        inputs: files,
        stages,
        indexed: stage_total(work, index::STAGE)?.emitted,
    };
    let path = out.join("report.json");
    let json = serde_json::to_vec_pretty(&report).map_err(|e| StageError::Output {
        path: path.clone(),
        source: e.into(),
    })?;
    write_atomically(&path, &json)?;
    // The step's own done marker, written last: engines check `report.json` and it.
    let mut done = StageReport::new(STAGE, 0);
    (0..report.indexed).for_each(|_| done.emit());
    work.finish_shard(&done)?;
    Ok(report)
}

/// The summed reports of every shard of `stage`.
fn stage_total(work: &WorkDir, stage: &str) -> Result<StageReport, StageError> {
    let manifest = work.manifest(stage)?;
    let mut total = StageReport::new(stage, 0);
    for shard in 0..manifest.shards {
        total.absorb(&work.report(stage, shard)?);
    }
    Ok(total)
}

/// One input of [`merge_sorted_lines`]: a file, its last line read, and that line's number.
struct SortedLines {
    path: PathBuf,
    reader: BufReader<File>,
    number: u64,
}

impl SortedLines {
    /// The next line after `previous` (without its `\n`), or `None` at the end.
    ///
    /// # Errors
    /// Fails when reading fails or the line sorts before `previous`.
    fn next_after(&mut self, previous: &[u8]) -> Result<Option<Vec<u8>>, StageError> {
        let mut line = Vec::new();
        let read =
            self.reader
                .read_until(b'\n', &mut line)
                .map_err(|source| StageError::Input {
                    path: self.path.clone(),
                    source,
                })?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if self.number > 1 && line.as_slice() < previous {
            let message = format!(
                "line {} sorts before the line above it; the merge needs every part sorted \
                 (a part from an older dbce: rerun stage finish)",
                self.number
            );
            return Err(StageError::Input {
                path: self.path.clone(),
                source: std::io::Error::new(std::io::ErrorKind::InvalidData, message),
            });
        }
        Ok(Some(line))
    }
}

/// Merges files whose lines are each sorted (bytewise) into `output`, written atomically:
/// the lines of all of them, sorted, each ending in `\n`, as sorting them all together would
/// give. Streaming: memory holds one line and one read buffer per input, whatever their size.
/// Returns the number of lines written.
///
/// # Errors
/// Fails when an input cannot be opened or read, is not sorted (naming the file and line), or
/// the output cannot be written.
pub fn merge_sorted_lines(inputs: &[PathBuf], output: &Path) -> Result<u64, StageError> {
    let mut sources = Vec::with_capacity(inputs.len());
    // The smallest line first; equal lines by input, so the output is the same every time.
    let mut heap: BinaryHeap<Reverse<(Vec<u8>, usize)>> = BinaryHeap::new();
    for (number, path) in inputs.iter().enumerate() {
        let file = File::open(path).map_err(|source| StageError::Input {
            path: path.clone(),
            source,
        })?;
        let mut source = SortedLines {
            path: path.clone(),
            reader: BufReader::with_capacity(READ_BUFFER, file),
            number: 0,
        };
        if let Some(line) = source.next_after(&[])? {
            heap.push(Reverse((line, number)));
        }
        sources.push(source);
    }
    let write_error = |error: WriteError| StageError::Output {
        path: error.path,
        source: error.source,
    };
    let mut file = AtomicFile::create(output, READ_BUFFER).map_err(write_error)?;
    let mut lines = 0;
    while let Some(Reverse((line, number))) = heap.pop() {
        file.write_all(&line).map_err(write_error)?;
        file.write_all(b"\n").map_err(write_error)?;
        lines += 1;
        if let Some(next) = sources[number].next_after(&line)? {
            heap.push(Reverse((next, number)));
        }
    }
    file.finish(false).map_err(write_error)?;
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `text` to `name` in `dir` and returns its path.
    fn part(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn the_merge_equals_sorting_all_lines() {
        let dir = tempfile::tempdir().unwrap();
        let texts = [
            "com,a)/ 2024 {\"x\":1}\ncom,c)/ 2024 {}\norg,z)/ 1999 {}\n",
            "",
            "com,a)/ 2024 {\"x\":1}\ncom,b)/ 2023 {}\n",
            "net,m)/ 2020 {}", // no final line break
        ];
        let inputs: Vec<PathBuf> = texts
            .iter()
            .enumerate()
            .map(|(i, text)| part(dir.path(), &format!("part-{i}.cdxj"), text))
            .collect();
        let output = dir.path().join("out/index.cdxj");
        let lines = merge_sorted_lines(&inputs, &output).unwrap();
        let mut expected: Vec<&str> = texts.iter().flat_map(|t| t.lines()).collect();
        expected.sort_unstable();
        assert_eq!(lines, expected.len() as u64);
        let merged = std::fs::read_to_string(&output).unwrap();
        assert_eq!(merged, expected.join("\n") + "\n");
    }

    #[test]
    fn no_parts_make_an_empty_file() {
        let dir = tempfile::tempdir().unwrap();
        let output = dir.path().join("index.cdxj");
        assert_eq!(merge_sorted_lines(&[], &output).unwrap(), 0);
        assert_eq!(std::fs::read(&output).unwrap(), b"");
    }

    #[test]
    fn an_unsorted_part_is_an_error_naming_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let good = part(dir.path(), "good.cdxj", "a\nb\n");
        let bad = part(dir.path(), "bad.cdxj", "a\nc\nb\n");
        let output = dir.path().join("index.cdxj");
        let error = merge_sorted_lines(&[good, bad], &output).unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("bad.cdxj") && message.contains("line 3"),
            "{message}"
        );
        assert!(!output.exists(), "no half-merged file");
    }

    #[test]
    fn a_missing_part_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let error = merge_sorted_lines(&[dir.path().join("absent.cdxj")], &dir.path().join("o"))
            .unwrap_err();
        assert!(matches!(error, StageError::Input { .. }), "{error:?}");
    }
}

//! `warc/index.cdxj`: the parts' sorted CDXJ files merged by a streaming k-way merge.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use dbce_artifact::atomic::{AtomicFile, WriteError};

/// Read buffer per merged file: memory is this times the number of parts, plus one line each.
const READ_BUFFER: usize = 64 << 10;

/// A merge of sorted files failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// An input could not be opened or read, or is not sorted.
    #[error("cannot read {path}: {source}")]
    Input {
        /// The input file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The output could not be written.
    #[error("cannot write {path}: {source}")]
    Output {
        /// The output file, or its temporary name.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
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
    fn next_after(&mut self, previous: &[u8]) -> Result<Option<Vec<u8>>, MergeError> {
        let mut line = Vec::new();
        let read =
            self.reader
                .read_until(b'\n', &mut line)
                .map_err(|source| MergeError::Input {
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
            return Err(MergeError::Input {
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
pub fn merge_sorted_lines(inputs: &[PathBuf], output: &Path) -> Result<u64, MergeError> {
    let mut sources = Vec::with_capacity(inputs.len());
    // The smallest line first; equal lines by input, so the output is the same every time.
    let mut heap: BinaryHeap<Reverse<(Vec<u8>, usize)>> = BinaryHeap::new();
    for (number, path) in inputs.iter().enumerate() {
        let file = File::open(path).map_err(|source| MergeError::Input {
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
    let write_error = |error: WriteError| MergeError::Output {
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
        assert!(matches!(error, MergeError::Input { .. }), "{error:?}");
    }
}

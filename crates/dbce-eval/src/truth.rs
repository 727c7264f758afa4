//! Ground truth of generated archives (`dbce-synth`'s truth JSONL).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use serde::Deserialize;

use crate::EvalError;

/// The fields of `dbce_synth::TruthRecord` that scoring needs; the others are skipped.
#[derive(Deserialize)]
struct TruthLine {
    id: String,
    html: bool,
    content: String,
}

/// Reads a truth file written by `dbce-synth`: for every HTML page with ground truth
/// (`"html": true`), its `WARC-Record-ID` mapped to its `content` — the main content, one
/// block per line, as in the datasets' `gt/<id>.txt`. Redirects and other non-HTML responses
/// are left out. The file is read line by line, so its size does not matter.
///
/// # Errors
/// Fails when the file cannot be read, a line is not a truth record (missing `id`, `html` or
/// `content`, or not JSON), or a record id occurs twice.
pub fn load_truth(path: impl AsRef<Path>) -> Result<BTreeMap<String, String>, EvalError> {
    let path = path.as_ref();
    let file = File::open(path).map_err(EvalError::io(path))?;
    let mut truth = BTreeMap::new();
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let line_no = index as u64 + 1;
        let line = line.map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => EvalError::NotUtf8 {
                path: path.to_owned(),
            },
            _ => EvalError::io(path)(e),
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let record: TruthLine =
            serde_json::from_str(&line).map_err(|e| EvalError::MalformedLine {
                path: path.to_owned(),
                line: line_no,
                reason: e.to_string(),
            })?;
        if !record.html {
            continue;
        }
        if truth.contains_key(&record.id) {
            return Err(EvalError::DuplicateId {
                path: path.to_owned(),
                line: line_no,
                id: record.id,
            });
        }
        truth.insert(record.id, record.content);
    }
    Ok(truth)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, html: bool, content: &str) -> String {
        format!(
            r#"{{"id":"{id}","url":"https://a.example/","html":{html},"content":"{content}","boilerplate":["Menu"],"comments":[]}}"#
        )
    }

    #[test]
    fn html_records_map_ids_to_content() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("t.jsonl");
        let text = [
            line("<urn:uuid:2>", true, "Head\\nBody text."),
            line("<urn:uuid:1>", false, ""),
            String::new(),
            line("<urn:uuid:0>", true, ""),
        ]
        .join("\n");
        std::fs::write(&path, text).unwrap();
        let truth = load_truth(&path).unwrap();
        let pairs: Vec<(&str, &str)> = truth
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [("<urn:uuid:0>", ""), ("<urn:uuid:2>", "Head\nBody text.")]
        );
    }

    #[test]
    fn bad_lines_and_duplicates_are_errors() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("t.jsonl");
        std::fs::write(
            &path,
            line("a", true, "x") + "\n{\"id\":\"b\",\"html\":true}\n",
        )
        .unwrap();
        match load_truth(&path) {
            Err(EvalError::MalformedLine {
                line: 2, reason, ..
            }) => {
                assert!(reason.contains("content"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        std::fs::write(
            &path,
            [line("a", true, "x"), line("a", true, "y")].join("\n"),
        )
        .unwrap();
        assert!(matches!(
            load_truth(&path),
            Err(EvalError::DuplicateId { line: 2, .. })
        ));
        assert!(matches!(
            load_truth(tmp.path().join("none")),
            Err(EvalError::Io { .. })
        ));
    }
}

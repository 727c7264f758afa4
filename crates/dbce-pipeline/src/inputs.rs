//! The input list of a run: files as given, and the archives inside given folders.

use std::path::PathBuf;

use crate::StageError;

/// Files as given, and the archives inside given folders (by name: `.warc`, `.arc`, optionally
/// followed by `.gz` or `.zst`; hidden entries left out), sorted and deduplicated: the order that
/// gives each file its `FileId`.
///
/// # Errors
/// [`StageError::Input`] when a path or a folder's entry cannot be read.
pub fn expand_inputs(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, StageError> {
    let mut files = Vec::new();
    let mut pending: Vec<PathBuf> = inputs.to_vec();
    while let Some(path) = pending.pop() {
        let unreadable = |source| StageError::Input {
            path: path.clone(),
            source,
        };
        let meta = std::fs::metadata(&path).map_err(unreadable)?;
        if !meta.is_dir() {
            files.push(path);
            continue;
        }
        for entry in std::fs::read_dir(&path).map_err(unreadable)? {
            let entry = entry.map_err(unreadable)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_dir = entry.file_type().map_err(unreadable)?.is_dir();
            if !name.starts_with('.') && (is_dir || is_archive_name(&name)) {
                pending.push(entry.path());
            }
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

fn is_archive_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let name = name
        .strip_suffix(".gz")
        .or_else(|| name.strip_suffix(".zst"))
        .unwrap_or(&name);
    name.ends_with(".warc") || name.ends_with(".arc")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_give_their_archives_sorted_and_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        for name in [
            "b.warc.gz",
            "a.arc",
            "c.warc.zst",
            "notes.txt",
            ".hidden.warc",
        ] {
            std::fs::write(dir.path().join(name), b"").expect("write");
        }
        let file = dir.path().join("a.arc");
        let files = expand_inputs(&[dir.path().to_owned(), file.clone()]).expect("lists");
        let names: Vec<_> = files
            .iter()
            .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.arc", "b.warc.gz", "c.warc.zst"]);
        assert!(matches!(
            expand_inputs(&[dir.path().join("missing")]),
            Err(StageError::Input { .. })
        ));
    }
}

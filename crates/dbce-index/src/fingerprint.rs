//! A content fingerprint of an index, for comparing two builds.

use std::fs::{self, File};
use std::io::Read as _;
use std::path::Path;

use serde_json::Value;
use sha1::{Digest as _, Sha1};

use crate::IndexError;
use crate::search::index_dirs;

/// A SHA-1 over the index at `dir`, `sha1:` and 40 hex digits, equal for two builds of the
/// same pages with the same settings. `dir` is one index or a directory of shards, as
/// [`crate::search`] takes it; shards are hashed in order with their directory names.
///
/// Two builds never have byte-identical files: tantivy names each segment after a random UUID,
/// in its file names and in `meta.json`. The fingerprint therefore hashes `meta.json` (settings,
/// schema, segment sizes) with the UUIDs taken out and, for each live segment, the names' suffixes
/// and contents of its files; segments are taken in order of their hashes. It reads the whole
/// index once.
///
/// # Errors
/// [`IndexError::Missing`] if `dir` holds no index, [`IndexError::Io`] if a file cannot be
/// read or a `meta.json` is not tantivy's.
pub fn fingerprint(dir: &Path) -> Result<String, IndexError> {
    let shards = index_dirs(dir)?;
    if shards.len() == 1 && shards[0] == dir {
        return index_fingerprint(dir);
    }
    let mut hasher = Sha1::new();
    for shard in shards {
        let name = shard.file_name().unwrap_or_default();
        hasher.update(name.as_encoded_bytes());
        hasher.update([0]);
        hasher.update(index_fingerprint(&shard)?.as_bytes());
        hasher.update([0]);
    }
    Ok(format!("sha1:{}", hex(&hasher.finalize())))
}

/// The fingerprint of the one index at `dir`.
fn index_fingerprint(dir: &Path) -> Result<String, IndexError> {
    let meta_path = dir.join("meta.json");
    let text = match fs::read_to_string(&meta_path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(IndexError::Missing { dir: dir.into() });
        }
        result => result.map_err(IndexError::io(&meta_path))?,
    };
    let invalid = |message: &str| {
        let error = std::io::Error::new(std::io::ErrorKind::InvalidData, message.to_owned());
        IndexError::io(&meta_path)(error)
    };
    let mut meta: Value = serde_json::from_str(&text).map_err(|e| invalid(&e.to_string()))?;
    let segments = meta
        .get_mut("segments")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| invalid("no segment list"))?;
    let mut keyed = Vec::with_capacity(segments.len());
    for segment in segments.drain(..) {
        let Value::Object(mut fields) = segment else {
            return Err(invalid("a segment is not an object"));
        };
        let id = fields
            .remove("segment_id")
            .and_then(|id| id.as_str().map(|id| id.replace('-', "")))
            .ok_or_else(|| invalid("a segment has no id"))?;
        fields.insert(
            "files".to_owned(),
            Value::String(hash_segment_files(dir, &id)?),
        );
        let segment = Value::Object(fields);
        keyed.push((segment.to_string(), segment));
    }
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    segments.extend(keyed.into_iter().map(|(_, segment)| segment));
    Ok(format!(
        "sha1:{}",
        hex(&Sha1::digest(meta.to_string().as_bytes()))
    ))
}

/// The hex SHA-1 of the files named `{stem}.*` in `dir`: each file's suffix, length and
/// contents, in order of name.
fn hash_segment_files(dir: &Path, stem: &str) -> Result<String, IndexError> {
    let prefix = format!("{stem}.");
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).map_err(IndexError::io(dir))? {
        let entry = entry.map_err(IndexError::io(dir))?;
        if let Some(name) = entry.file_name().to_str()
            && let Some(suffix) = name.strip_prefix(&prefix)
        {
            names.push((suffix.to_owned(), entry.path()));
        }
    }
    names.sort();
    let mut hasher = Sha1::new();
    let mut buffer = vec![0; 1 << 16];
    for (suffix, path) in names {
        let mut file = File::open(&path).map_err(IndexError::io(&path))?;
        let length = file.metadata().map_err(IndexError::io(&path))?.len();
        hasher.update(suffix.as_bytes());
        hasher.update([0]);
        hasher.update(length.to_le_bytes());
        loop {
            let n = file.read(&mut buffer).map_err(IndexError::io(&path))?;
            if n == 0 {
                break;
            }
            hasher.update(&buffer[..n]);
        }
    }
    Ok(hex(&hasher.finalize()))
}

/// Lowercase hex digits of `bytes`.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(2 * bytes.len()), |mut out, byte| {
            let _ = write!(out, "{byte:02x}");
            out
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_lowercase_two_digits_per_byte() {
        assert_eq!(hex(&[0x00, 0x0f, 0xab, 0xff]), "000fabff");
        assert_eq!(
            hex(&Sha1::digest(b"abc")),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
    }

    #[test]
    fn a_missing_directory_is_a_missing_index() {
        let dir = tempfile::tempdir().unwrap();
        let error = fingerprint(&dir.path().join("index")).err();
        assert!(
            matches!(error, Some(IndexError::Missing { .. })),
            "{error:?}"
        );
    }
}

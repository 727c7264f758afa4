//! The one way dbce writes a file into a work or output directory: under a fresh temporary
//! name next to it, renamed into place when complete, so that a reader (or a rerun after a
//! crash) sees either the whole file or none.

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};

/// A file write or rename that failed, with the file's path.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}")]
pub struct WriteError {
    /// The file (its temporary name while it is written).
    pub path: PathBuf,
    /// What the system said.
    #[source]
    pub source: std::io::Error,
}

fn failed(path: &Path) -> impl FnOnce(std::io::Error) -> WriteError + '_ {
    move |source| WriteError {
        path: path.to_owned(),
        source,
    }
}

/// A file being written under a temporary name; [`AtomicFile::finish`] renames it into place.
/// Dropped unfinished, it leaves only the temporary file, which no reader takes for the real
/// one.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    temporary: PathBuf,
    out: BufWriter<File>,
}

impl AtomicFile {
    /// Starts writing `path` (its parent directories are created), buffering `capacity` bytes.
    ///
    /// # Errors
    /// When the folder or the temporary file cannot be created.
    pub fn create(path: &Path, capacity: usize) -> Result<Self, WriteError> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(failed(parent))?;
        }
        let temporary = temporary_path(path);
        let file = File::create(&temporary).map_err(failed(&temporary))?;
        Ok(Self {
            path: path.to_owned(),
            temporary,
            out: BufWriter::with_capacity(capacity, file),
        })
    }

    /// Appends `bytes`.
    ///
    /// # Errors
    /// When writing fails.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        self.out.write_all(bytes).map_err(failed(&self.temporary))
    }

    /// The temporary name the file has until it is finished.
    pub fn temporary(&self) -> &Path {
        &self.temporary
    }

    /// Flushes, syncs to disk when `sync` is set, and renames the file into place.
    ///
    /// # Errors
    /// When flushing, syncing or renaming fails.
    pub fn finish(self, sync: bool) -> Result<(), WriteError> {
        let file = self
            .out
            .into_inner()
            .map_err(|e| failed(&self.temporary)(e.into_error()))?;
        if sync {
            file.sync_all().map_err(failed(&self.temporary))?;
        }
        std::fs::rename(&self.temporary, &self.path).map_err(failed(&self.path))
    }
}

/// For writers that take any `Write` (gzip, WARC): errors come without the path, which the
/// caller adds.
impl std::io::Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.out.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Writes `bytes` to `path` atomically ([`AtomicFile`]).
///
/// # Errors
/// When writing or renaming fails.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let mut file = AtomicFile::create(path, 0)?;
    file.write_all(bytes)?;
    file.finish(false)
}

/// A fresh temporary name next to `path`: `.NAME.tmp-PID-N`, unique across the threads and
/// processes writing into one work directory.
fn temporary_path(path: &Path) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}-{n}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_appears_only_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/out.txt");
        let mut file = AtomicFile::create(&path, 16).unwrap();
        file.write_all(b"hello ").unwrap();
        file.write_all(b"world").unwrap();
        assert!(!path.exists());
        assert!(file.temporary().starts_with(dir.path().join("a/b")));
        file.finish(true).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello world");
        write_atomically(&path, b"again").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"again");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("a/b"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["out.txt"], "no temporary file is left");
    }

    #[test]
    fn temporary_names_never_repeat() {
        let path = Path::new("/x/y.bin");
        assert_ne!(temporary_path(path), temporary_path(path));
    }
}

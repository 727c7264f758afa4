//! `dbce cdx` writes the lines cdxj-indexer (PyPI, 1.5.0) writes for the same archives.
//!
//! The samples both tools read in full are listed in `testdata/cdx/samples.txt`; their
//! expected output, written by cdxj-indexer (`scripts/cdx-fixtures.py`), is kept in
//! `testdata/cdx/samples.{cdxj,cdx11}` so that a run without Python still checks it. The
//! comparison with cdxj-indexer itself runs it through `$DBCE_PYTHON` (default `python3`;
//! `scripts/test` points it at a venv that has it) and fails, saying how to install it, when
//! the package is missing.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::{dbce, testdata};

/// Runs cdxj-indexer's command line, or says that its import failed.
const CDXJ_INDEXER: &str = "
import sys
try:
    from cdxj_indexer.main import main
except ImportError as error:
    sys.exit(f'dbce-test: cannot import cdxj_indexer: {error}')
main(sys.argv[1:])
";

/// A file of `testdata/cdx/`.
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/cdx")
        .join(name)
}

/// The archives listed in `testdata/cdx/samples.txt`.
fn samples() -> Vec<PathBuf> {
    let listing = std::fs::read_to_string(fixture("samples.txt")).unwrap();
    let samples: Vec<PathBuf> = listing
        .lines()
        .filter(|line| !line.is_empty())
        .map(testdata)
        .collect();
    assert!(samples.len() >= 5, "too few samples: {samples:?}");
    samples
}

/// `dbce cdx` with `flags` on `files`: exit code, stdout, stderr.
fn dbce_cdx(flags: &[&str], files: &[PathBuf]) -> (Option<i32>, String, String) {
    let output = dbce().arg("cdx").args(flags).args(files).output().unwrap();
    split(&output)
}

fn cdxj_indexer(flags: &[&str], files: &[PathBuf]) -> (Option<i32>, String, String) {
    let python = std::env::var_os("DBCE_PYTHON").unwrap_or_else(|| OsString::from("python3"));
    let output = Command::new(&python)
        .arg("-c")
        .arg(CDXJ_INDEXER)
        .args(flags)
        .args(files)
        .output()
        .unwrap_or_else(|error| {
            panic!("cannot run {} (set DBCE_PYTHON): {error}", python.display())
        });
    let result = split(&output);
    assert!(
        !result.2.contains("dbce-test: cannot import cdxj_indexer"),
        "cdxj-indexer is not installed for {python}: run scripts/test, which installs it into \
         .venv, or `{python} -m pip install cdxj-indexer==1.5.0`, or set DBCE_PYTHON to an \
         interpreter that has it.\n{}",
        result.2,
        python = python.display()
    );
    result
}

fn split(output: &Output) -> (Option<i32>, String, String) {
    (
        output.status.code(),
        String::from_utf8(output.stdout.clone()).unwrap(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn samples_give_the_committed_cdxj_and_cdx11() {
    for (flags, expected) in [
        (&[][..], "samples.cdxj"),
        (&["--cdx11"][..], "samples.cdx11"),
    ] {
        let expected = std::fs::read_to_string(fixture(expected)).unwrap();
        let (code, stdout, stderr) = dbce_cdx(flags, &samples());
        assert_eq!(code, Some(0), "{stderr}");
        assert!(stdout.lines().count() > 10, "{stdout}");
        assert_eq!(stdout, expected, "dbce cdx {flags:?}");
    }
}

#[test]
fn samples_give_what_cdxj_indexer_gives() {
    for flags in [&[][..], &["--cdx11"][..]] {
        let (py_code, expected, py_stderr) = cdxj_indexer(flags, &samples());
        assert_eq!(py_code, Some(0), "cdxj-indexer failed:\n{py_stderr}");
        let (code, stdout, stderr) = dbce_cdx(flags, &samples());
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(stdout, expected, "dbce cdx {flags:?}");
    }
}

/// On damaged archives dbce may skip records that warcio reads in some way, but every line
/// it writes is one cdxj-indexer writes too, and it writes them all when it skips nothing.
#[test]
fn damaged_archives_give_a_subset_of_cdxj_indexer_lines() {
    let samples = samples();
    let mut compared = 0;
    for entry in std::fs::read_dir(testdata("")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let archive = [".warc", ".warc.gz", ".arc", ".arc.gz"]
            .iter()
            .any(|e| name.ends_with(e));
        if !archive || samples.contains(&path) {
            continue;
        }
        let files = [path];
        let (py_code, expected, _) = cdxj_indexer(&[], &files);
        let (code, stdout, stderr) = dbce_cdx(&[], &files);
        assert!(matches!(code, Some(0 | 1)), "{name}: {stderr}");
        if py_code != Some(0) {
            continue;
        }
        compared += 1;
        let expected: Vec<&str> = expected.lines().collect();
        for line in stdout.lines() {
            assert!(
                expected.contains(&line),
                "{name}: cdxj-indexer has no line {line}"
            );
        }
        if code == Some(0) {
            assert_eq!(stdout.lines().count(), expected.len(), "{name}");
        } else {
            assert!(stderr.contains("dbce: warning: "), "{name}: {stderr}");
        }
    }
    assert!(compared >= 2, "only {compared} damaged archives compared");
}

#[test]
fn skipped_bytes_are_warned_about_and_give_exit_code_1() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("garbage.warc");
    let archive = std::fs::read(testdata("example.warc")).unwrap();
    // Before the response, which starts at 1197.
    let (head, tail) = archive.split_at(1197);
    std::fs::write(&path, [head, b"garbage\n", tail].concat()).unwrap();
    let (code, stdout, stderr) = dbce_cdx(&[], &[path]);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("garbage.warc: offset 1197: 8 bytes of garbage"),
        "{stderr}"
    );
    let offsets: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.split("\"offset\": \"").nth(1)?.split('"').next())
        .collect();
    assert_eq!(offsets, ["1205", "3378"], "{stdout}");
}

#[test]
fn a_missing_file_is_an_error() {
    let (code, _, stderr) = dbce_cdx(&[], &[testdata("no-such.warc")]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("cannot open"), "{stderr}");
}

//! Byte-identity of `dbce run`'s output: the digest of every output file on the bundled sample
//! and on a generated archive (`dbce-synth`, fixed seed) against the digests committed in
//! `testdata/identity/`. A refactor must leave them all unchanged.
//!
//! When an output change is intended, refresh the committed digests with
//! `DBCE_BLESS=1 cargo test -p dbce --test identity` and commit them with the change.
//!
//! Every file under the output folder counts except the work directory (intermediate files)
//! and the search index (tantivy names its segments at random). Inputs and output are named
//! relative to the run's folder, as outputs record input paths as given; the dbce version is in
//! the outputs too (the configuration fingerprint, `warcinfo`), so a version bump needs a bless.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use sha1::{Digest as _, Sha1};

/// The committed digests for `name`.
fn committed(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/identity")
        .join(format!("{name}.sha1"))
}

/// Runs `dbce run` in `dir` with `inputs` (relative to `dir`; none: the bundled sample) into
/// `dir/out`, which it returns.
fn run(dir: &Path, inputs: &[&str]) -> std::path::PathBuf {
    let output = Command::new(env!("CARGO_BIN_EXE_dbce"))
        .current_dir(dir)
        .args(["run", "--quiet", "--out", "out"])
        .args(inputs)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    dir.join("out")
}

/// `sha1  path` for every compared output file under `out`, sorted by path.
fn digests(out: &Path) -> String {
    let mut found = BTreeMap::new();
    let mut pending = vec![out.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path
                .strip_prefix(out)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if name == "work" || name == "index" {
                continue;
            }
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            found.insert(name, hex(&Sha1::digest(&bytes)));
        }
    }
    found
        .iter()
        .fold(String::new(), |mut text, (name, digest)| {
            writeln!(text, "{digest}  {name}").unwrap();
            text
        })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut text, b| {
        write!(text, "{b:02x}").unwrap();
        text
    })
}

/// Compares the digests of `out` with the committed ones, or writes them under `DBCE_BLESS=1`.
fn check(name: &str, out: &Path) {
    let actual = digests(out);
    assert!(actual.contains("report.json"), "{actual}");
    assert!(actual.contains(".jsonl.gz"), "{actual}");
    assert!(actual.contains(".warc.gz"), "{actual}");
    assert!(actual.contains(".cdxj"), "{actual}");
    let path = committed(name);
    if std::env::var_os("DBCE_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "the output of `dbce run` on {name} changed; if that is intended, refresh \
         {} with `DBCE_BLESS=1 cargo test -p dbce --test identity`\n\
         expected:\n{expected}\nactual:\n{actual}",
        path.display()
    );
}

#[test]
fn the_sample_gives_the_committed_output() {
    let dir = tempfile::tempdir().unwrap();
    check("sample", &run(dir.path(), &[]));
}

#[test]
fn a_generated_archive_gives_the_committed_output() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("synth.warc.gz");
    let config = dbce_synth::Config {
        seed: 18,
        sites: 3,
        pages: 45,
        captures_max: 3,
        ..dbce_synth::Config::default()
    };
    let file = std::fs::File::create(&archive).unwrap();
    dbce_synth::generate(&config, file, std::io::sink()).unwrap();
    check("synth", &run(dir.path(), &["synth.warc.gz"]));
}

//! Byte-identity of the parser's output: [`Document::encode`] of every `*.html` page under
//! `testdata/` against the digests committed in `testdata/identity/dom.fnv`. A change to the
//! parser, the sink or the compaction that is meant to be faster, not different, must leave
//! them all unchanged (`examples/parse_pages.rs` checks the same on the development sets).
//!
//! When a change of the parsed tree is intended, refresh the committed digests with
//! `DBCE_BLESS=1 cargo test -p dbce-dom --test encode_identity` and commit them with the change.

#![allow(clippy::unwrap_used)]

mod support;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use dbce_dom::{Document, SanitizeConfig};

/// Every `*.html` file under `dir`, sorted by path.
fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// `path len:digest` (or `path error: …`) of every page, as `examples/parse_pages.rs` prints.
fn digests(testdata: &Path) -> String {
    let mut text = String::new();
    let mut bytes = Vec::new();
    for path in html_files(testdata) {
        let html = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let name = path.strip_prefix(testdata).unwrap().display().to_string();
        match Document::parse(&html, &SanitizeConfig::default()) {
            Ok(doc) => {
                bytes.clear();
                doc.encode(&mut bytes);
                let digest = support::fnv::fnv1a(&bytes);
                writeln!(text, "{name} {}:{digest:016x}", bytes.len()).unwrap();
            }
            Err(e) => writeln!(text, "{name} error: {e}").unwrap(),
        }
    }
    text
}

#[test]
fn every_testdata_page_encodes_to_the_committed_bytes() {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let actual = digests(&testdata);
    assert!(actual.lines().count() >= 10, "{actual}");
    let path = testdata.join("identity/dom.fnv");
    if std::env::var_os("DBCE_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "the parsed documents of testdata/ changed; if that is intended, refresh {} with \
         `DBCE_BLESS=1 cargo test -p dbce-dom --test encode_identity`\n\
         expected:\n{expected}\nactual:\n{actual}",
        path.display()
    );
}

//! The parse with `dbce_tokenize` against the parse with html5ever's own tokenizer (the
//! driver `Document::parse` used before): identical documents, byte for byte in their
//! encoding (parse errors and input bytes included), and identical token streams.
//!
//! `DBCE_PARITY_HTML=DIR cargo test --release -p dbce-dom parity -- --ignored` runs the same
//! on every `*.html` file under `DIR`.

use std::path::{Path, PathBuf};

use dbce_tokenize::parity::{Feed, MARKUP_PIECES, compare};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{ParseOpts, Parser};
use proptest::prelude::*;

use crate::parse::{Driver, parse_document};
use crate::raw::RawTree;
use crate::sink::{Sink, SinkCounts};
use crate::{Document, SanitizeConfig};

/// html5ever's tokenizer and tree builder, as `Document::parse` drove them before.
impl Driver for Parser<Sink> {
    fn new(sink: Sink, opts: TreeBuilderOpts, _input: &str) -> Self {
        let opts = ParseOpts {
            tree_builder: opts,
            ..ParseOpts::default()
        };
        html5ever::parse_document(sink, opts)
    }

    fn feed(&mut self, input: &str, from: usize, to: usize) {
        self.process(StrTendril::from_slice(&input[from..to]));
    }

    fn sink(&self) -> &Sink {
        &self.tokenizer.sink.sink
    }

    fn finish(self) -> (RawTree, SinkCounts) {
        TendrilSink::finish(self)
    }
}

/// The encoding of the document (or the error) `html` parses to with html5ever's tokenizer.
fn reference(html: &str, config: &SanitizeConfig) -> Result<Vec<u8>, crate::DomError> {
    parse_document::<Parser<Sink>>(html, config).map(|doc| encoded(&doc))
}

/// The same with `Document::parse`.
fn ours(html: &str, config: &SanitizeConfig) -> Result<Vec<u8>, crate::DomError> {
    Document::parse(html, config).map(|doc| encoded(&doc))
}

fn encoded(doc: &Document) -> Vec<u8> {
    let mut bytes = Vec::new();
    doc.encode(&mut bytes);
    bytes
}

/// Limits small enough for real pages to reach them: the parse stops early.
fn tight() -> SanitizeConfig {
    SanitizeConfig {
        max_nodes: 3_000,
        max_block_depth: 24,
        max_input_bytes: 100_000,
        ..SanitizeConfig::default()
    }
}

/// Where the two parses of `html` differ, if they do: under the default limits and tight
/// ones, and in the token streams with scripting on and off.
fn difference(html: &str) -> Option<String> {
    for (name, config) in [("default", SanitizeConfig::default()), ("tight", tight())] {
        let (theirs, ours) = (reference(html, &config), ours(html, &config));
        if theirs != ours {
            let show = |r: &Result<Vec<u8>, crate::DomError>| match r {
                Ok(bytes) => format!("{} bytes", bytes.len()),
                Err(e) => e.to_string(),
            };
            return Some(format!(
                "{name} limits: html5ever {}, dbce-tokenize {}",
                show(&theirs),
                show(&ours)
            ));
        }
    }
    for scripting in [true, false] {
        let feed = Feed {
            scripting,
            ..Feed::default()
        };
        if let Err(e) = compare(html, &feed) {
            return Some(format!("scripting {scripting}: {e}"));
        }
    }
    None
}

/// Every `*.html` file under `dir`, sorted.
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

/// Parses every page under `dir` both ways; panics listing the pages that differ.
fn check_dir(dir: &Path) -> usize {
    let files = html_files(dir);
    let mut differing = Vec::new();
    for path in &files {
        let html = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        if let Some(diff) = difference(&html) {
            differing.push(format!("{}: {diff}", path.display()));
        }
    }
    eprintln!(
        "parity: {} pages under {}, {} differ",
        files.len(),
        dir.display(),
        differing.len()
    );
    assert!(differing.is_empty(), "{}", differing.join("\n"));
    files.len()
}

#[test]
fn testdata_pages_parse_the_same() {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    assert!(check_dir(&testdata) >= 10);
}

#[test]
#[ignore = "needs DBCE_PARITY_HTML, a directory of pages"]
fn pages_in_dbce_parity_html_parse_the_same() {
    let dir = std::env::var_os("DBCE_PARITY_HTML").expect("DBCE_PARITY_HTML names a directory");
    assert!(check_dir(Path::new(&dir)) > 0);
}

#[test]
fn limits_stop_both_parses_at_the_same_byte() {
    let config = SanitizeConfig {
        max_nodes: 1_000,
        ..SanitizeConfig::default()
    };
    for html in [
        "<b>x</b>".repeat(100_000),
        format!("<p>{}", "<div>".repeat(5_000)),
        format!("<p>{}</p>", "a &amp; b\r\n".repeat(20_000)),
        format!("{}\u{feff}<p>x", "y".repeat(16 * 1024)),
    ] {
        assert_eq!(reference(&html, &config), ours(&html, &config));
        assert_eq!(
            reference(&html, &SanitizeConfig::default()),
            ours(&html, &SanitizeConfig::default())
        );
    }
}

fn page() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => proptest::sample::select(MARKUP_PIECES).prop_map(str::to_owned),
        1 => any::<char>().prop_map(String::from),
    ];
    proptest::collection::vec(piece, 0..64).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn random_pages_parse_the_same(html in page(), max_nodes in 8u32..200) {
        let small = SanitizeConfig { max_nodes, max_block_depth: 6, ..SanitizeConfig::default() };
        prop_assert_eq!(reference(&html, &small), ours(&html, &small));
        prop_assert_eq!(
            reference(&html, &SanitizeConfig::default()),
            ours(&html, &SanitizeConfig::default())
        );
    }
}

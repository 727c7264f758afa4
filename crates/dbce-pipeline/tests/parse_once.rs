//! Every page is parsed by html5ever once in a whole run: stage `read` parses it and saves the
//! DOM, and `annotate` (its own runs, the annotated HTML and the Markdown included) reads that
//! back instead of parsing the page again. Counted with `dbce_dom::parse_count`, so this file
//! holds one test: nothing else in its process parses.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use dbce_pipeline::{Config, WorkDir, run_local};

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/sample/sample.warc.gz")
}

/// Runs the pipeline on the bundled sample with `config`; returns the pages read and the
/// parses made.
fn pages_and_parses(config: &Config) -> (u64, u64) {
    let dir = tempfile::tempdir().unwrap();
    let work = WorkDir::new(dir.path().join("work"));
    let before = dbce_dom::parse_count();
    let report = run_local(
        &work,
        config,
        &[sample()],
        &dir.path().join("out"),
        2,
        &|_, _, _| {},
    )
    .unwrap();
    let parses = dbce_dom::parse_count() - before;
    let pages = report.stages["1-read"].output;
    assert_eq!(report.stages["4-finish"].output, pages);
    (pages, parses)
}

#[test]
fn each_page_is_parsed_once_per_run() {
    let (pages, parses) = pages_and_parses(&Config::default());
    assert!(pages > 200, "the sample has {pages} pages");
    assert_eq!(parses, pages);

    let mut config = Config::default();
    config.annotate.annotated_html = true;
    config.annotate.markdown = true;
    let (pages, parses) = pages_and_parses(&config);
    assert_eq!(parses, pages);
}

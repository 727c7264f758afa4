//! `dbce run` on a generated archive with forums (`dbce-synth --forums`): every page of a
//! thread repeats the first post, which the cross must keep although the thread's other pages,
//! its most similar partners, carry it too.

use std::collections::BTreeMap;

use dbce_synth::{Config, PageKind, TruthRecord};

use crate::run::{jsonl, run};

#[test]
fn every_page_of_a_thread_keeps_its_first_post() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("forums.warc.gz");
    let config = Config {
        seed: 5,
        sites: 2,
        pages: 24,
        captures_max: 2,
        forums: true,
        ..Config::default()
    };
    let mut truth = Vec::new();
    let file = std::fs::File::create(&archive).unwrap();
    dbce_synth::generate(&config, file, &mut truth).unwrap();
    let threads: Vec<TruthRecord> = truth
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_slice::<TruthRecord>(line).unwrap())
        .filter(|record| record.kind == PageKind::Forum)
        .collect();
    assert!(threads.len() >= 10, "{} thread pages", threads.len());
    assert!(threads.iter().any(|r| r.url.contains("/page-3/")));
    let out = dir.path().join("out");
    run(&out, &[archive.to_str().unwrap()]);
    let texts: BTreeMap<String, serde_json::Value> = jsonl(&out)
        .into_iter()
        .map(|page| (page["id"].as_str().unwrap().to_owned(), page))
        .collect();
    for record in &threads {
        let page = &texts[&record.id];
        let text = page["text"].as_str().unwrap();
        // The title, the first post's author line, then its paragraphs.
        let lines: Vec<&str> = record.content_lines().collect();
        let first_post = &lines[2..lines.len().min(4)];
        for line in first_post {
            assert!(
                text.contains(line),
                "{}: first post missing ({}):\n{line}\n--- text:\n{text}",
                record.url,
                page["decided_by"]
            );
        }
        assert!(page["cross"].is_object(), "{} has no cross", record.url);
    }
}

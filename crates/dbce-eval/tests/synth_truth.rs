//! `load_truth` on a truth file written by `dbce-synth`, checked against the generator's own
//! record type and against the archive it describes.

use std::collections::BTreeSet;
use std::io::Cursor;

use dbce_eval::load_truth;
use dbce_synth::{Config, TruthRecord, generate};
use dbce_warc::{Entry, ReaderConfig, RecordType, WarcReader};

#[test]
fn html_pages_of_a_generated_archive_map_to_their_content() {
    let config = Config {
        seed: 11,
        sites: 2,
        pages: 12,
        captures_max: 2,
        level: 0,
        threads: 1,
        forums: false,
    };
    let (mut archive, mut truth_bytes) = (Vec::new(), Vec::new());
    let summary = generate(&config, &mut archive, &mut truth_bytes).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("truth.jsonl");
    std::fs::write(&path, &truth_bytes).unwrap();

    let truth = load_truth(&path).unwrap();
    let records: Vec<TruthRecord> = String::from_utf8(truth_bytes)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let html: Vec<&TruthRecord> = records.iter().filter(|r| r.html).collect();
    assert!(
        html.len() < records.len(),
        "the archive has non-HTML responses"
    );
    assert_eq!(truth.len() as u64, summary.pages);
    assert_eq!(truth.len(), html.len());
    for record in html {
        assert_eq!(truth.get(&record.id), Some(&record.content));
        assert!(!record.content.is_empty());
    }

    // Every id is a response record of the archive.
    let reader = WarcReader::new(Cursor::new(archive), ReaderConfig::default()).unwrap();
    let responses: BTreeSet<String> = reader
        .filter_map(|entry| match entry.unwrap() {
            Entry::Record(r) if r.header.record_type == RecordType::Response => {
                r.header.record_id().map(str::to_owned)
            }
            _ => None,
        })
        .collect();
    assert!(truth.keys().all(|id| responses.contains(id)));
}

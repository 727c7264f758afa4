//! Issue #17: a partition's batches annotated by several tasks (`annotate.tasks-per-partition`)
//! give the outputs of one task, byte for byte, however many tasks share it.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dbce_artifact::ArtifactReader;
use dbce_extract::AnnotatedPage;
use dbce_pipeline::annotate::ANNOTATED;
use dbce_pipeline::{Config, WorkDir, run_local};

/// Every file under `dir` but the search indexes (tantivy names segments at random), by path.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            let name = path.strip_prefix(dir).unwrap().to_owned();
            if name == Path::new("index") {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                found.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    found
}

/// The hits of a few searches over the run's indexes, as text.
fn hits(out: &Path) -> Vec<String> {
    ["the", "news OR council", "site:example.com"]
        .iter()
        .map(|query| {
            let hits = dbce_index::search(&out.join("index"), query, 50).unwrap();
            format!("{query}: {hits:?}")
        })
        .collect()
}

#[test]
fn issue_17_outputs_do_not_depend_on_the_tasks_per_partition() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("synth.warc.gz");
    let synth = dbce_synth::Config {
        seed: 18,
        sites: 3,
        pages: 60,
        captures_max: 3,
        ..dbce_synth::Config::default()
    };
    let file = std::fs::File::create(&archive).unwrap();
    dbce_synth::generate(&synth, file, std::io::sink()).unwrap();
    let mut config = Config::default();
    config.lsh.partitions = 2;
    // Sites of ~40 pages in parts and batches of at most 15.
    config.annotate.max_site_pages = 15;

    let inputs = [archive];
    let mut reference = None;
    for tasks in [1, 2, 3, 7] {
        config.annotate.tasks_per_partition = tasks;
        let work = WorkDir::new(dir.path().join(format!("work-{tasks}")));
        let out = dir.path().join(format!("out-{tasks}"));
        let report = run_local(&work, &config, &inputs, &out, 2, &|_, _, _| {}).unwrap();
        let annotate = &report.stages["3-annotate"];
        assert!(annotate.warnings["site-split"] > 0, "no site was split");
        assert_eq!(
            annotate.input,
            annotate.output + annotate.skipped.values().sum::<u64>()
        );
        // Each task's share, as its report and file say.
        let shards: Vec<(u64, usize)> = (0..2 * tasks)
            .map(|shard| {
                let emitted = work.report("annotate", shard).unwrap().emitted;
                let path = work.annotated_pages(shard);
                let pages = ArtifactReader::<AnnotatedPage>::open(&path, ANNOTATED)
                    .unwrap()
                    .count();
                (emitted, pages)
            })
            .collect();
        assert!(
            shards
                .iter()
                .all(|&(emitted, pages)| emitted == pages as u64)
        );
        assert_eq!(shards.iter().map(|s| s.0).sum::<u64>(), annotate.output);
        if tasks > 1 {
            // The pages were really shared out: in some partition, two tasks annotated some.
            let busy = |p: u32| {
                (0..tasks)
                    .filter(|t| shards[(p * tasks + t) as usize].0 > 0)
                    .count()
            };
            assert!((0..2).any(|p| busy(p) >= 2), "{shards:?}");
        }
        if tasks == 7 {
            // More tasks than batches: a task without a batch is done with an empty file.
            assert!(shards.iter().any(|&(_, pages)| pages == 0), "{shards:?}");
        }
        let outputs = (
            files(&out),
            hits(&out),
            dbce_index::fingerprint(&out.join("index")),
        );
        let outputs = (outputs.0, outputs.1, outputs.2.unwrap());
        match &reference {
            None => reference = Some(outputs),
            Some(expected) => {
                assert!(outputs.0 == expected.0, "{tasks} tasks: other output files");
                assert_eq!(outputs.1, expected.1, "{tasks} tasks: other hits");
                assert_eq!(outputs.2, expected.2, "{tasks} tasks: another index");
            }
        }
    }
    let (outputs, hits, _) = reference.unwrap();
    assert!(outputs.keys().any(|p| p.ends_with("report.json")));
    assert!(
        outputs
            .keys()
            .any(|p| p.to_string_lossy().ends_with(".cdxj"))
    );
    assert!(hits.iter().any(|h| h.contains("Hit")), "{hits:?}");
}

//! `dbce stage`: stage 1 on the bundled sample, as separate tasks.

use crate::dbce;

fn sample() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/sample")
}

#[test]
fn read_then_group_on_the_sample() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    for rank in ["0", "1"] {
        let output = dbce()
            .args(["stage", "read", "--world", "2", "--rank", rank, "--work"])
            .arg(&work)
            .arg(sample())
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(work.join("read/reports/00000.json")).unwrap())
            .unwrap();
    // The folder holds one archive (the truth file is not an archive), so rank 0 reads it all.
    assert_eq!(report["emitted"], 233);
    assert_eq!(report["skipped"]["not-html"], 40);

    let output = dbce()
        .args(["stage", "group", "--partition", "3", "--work"])
        .arg(&work)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("dbce: group shard 3: "), "{stderr}");
    assert!(work.join("group/_done/00003").exists());
}

#[test]
fn group_before_read_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = dbce()
        .args(["stage", "group", "--work"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("manifest.json"), "{stderr}");
}

#[test]
fn rank_outside_world_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let output = dbce()
        .args(["stage", "read", "--world", "2", "--rank", "2", "--work"])
        .arg(dir.path())
        .arg(sample())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8(output.stderr)
            .unwrap()
            .contains("--rank must be below --world")
    );
}

#[test]
fn read_exits_1_when_records_could_not_be_read_and_2_for_a_file_without_records() {
    let dir = tempfile::tempdir().unwrap();
    let read = |input: &std::path::Path, work: &str| {
        dbce()
            .args(["stage", "read", "--work"])
            .arg(dir.path().join(work))
            .arg(input)
            .output()
            .unwrap()
    };
    // A WARC whose last record is cut short: finished, with a skip the reader reports.
    let output = read(&crate::testdata("example-trunc.warc"), "trunc");
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(dir.path().join("trunc/read/_done/00000").exists());
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "not an archive\n").unwrap();
    let output = read(&notes, "notes");
    assert_eq!(output.status.code(), Some(2));
    assert!(!dir.path().join("notes/read/_done/00000").exists());
}

/// Issue #17 too: the stages run with three annotate tasks per partition (batches of at most
/// 20 pages, so the larger sites are split) give the output of `dbce run` with one.
#[test]
fn every_stage_as_separate_tasks_gives_the_output_of_dbce_run() {
    let dir = tempfile::tempdir().unwrap();
    let archive = sample().join("sample.warc.gz");
    let config = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let settings = "[lsh]\npartitions = 4\n[annotate]\nmax-site-pages = 20\n";
    let one = config("one.toml", settings);
    let fanned = config(
        "fanned.toml",
        &format!("{settings}tasks-per-partition = 3\n"),
    );
    let reference = dir.path().join("reference");
    crate::run::run(
        &reference,
        &[
            archive.to_str().unwrap(),
            "--shards",
            "1",
            "--threads",
            "1",
            "--config",
            one.to_str().unwrap(),
        ],
    );
    let work = dir.path().join("work");
    let out = dir.path().join("out");
    let task = |args: &[&str]| {
        dbce()
            .arg("stage")
            .args(args)
            .arg("--work")
            .arg(&work)
            .arg("--config")
            .arg(&fanned)
            .output()
            .unwrap()
    };
    let stage = |args: &[&str]| {
        let output = task(args);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        stderr
    };
    let out_arg = out.to_str().unwrap();
    stage(&["read", archive.to_str().unwrap()]);
    stage(&["group"]);
    // 4 partitions of 3 tasks: partition 0's all at once, then one shard per task, out of
    // order, as an engine may run them.
    let stderr = stage(&["annotate", "--partition", "0"]);
    assert_eq!(
        stderr.matches("dbce: annotate shard ").count(),
        3,
        "{stderr}"
    );
    for shard in (3..12).rev() {
        let stderr = stage(&["annotate", "--shard", &shard.to_string()]);
        assert!(
            stderr.starts_with(&format!("dbce: annotate shard {shard}: ")),
            "{stderr}"
        );
    }
    assert_eq!(task(&["annotate", "--shard", "12"]).status.code(), Some(2));
    stage(&["finish", "--out", out_arg]);
    // The merge refuses to start before every partition is indexed.
    let early = dbce()
        .args(["stage", "merge", "--out", out_arg, "--work"])
        .arg(&work)
        .arg("--config")
        .arg(&fanned)
        .output()
        .unwrap();
    assert_eq!(early.status.code(), Some(2));
    assert!(!out.join("report.json").exists());
    // Partitions one task each, out of order, as an engine may run them.
    for partition in (0..4).rev() {
        let stderr = stage(&[
            "index",
            "--partition",
            &partition.to_string(),
            "--out",
            out_arg,
        ]);
        assert!(
            stderr.starts_with(&format!("dbce: index shard {partition}: ")),
            "{stderr}"
        );
    }
    let stderr = stage(&["merge", "--out", out_arg]);
    assert!(stderr.contains("233 pages indexed"), "{stderr}");
    for part in ["text", "warc"] {
        assert_eq!(
            crate::run::files(&out.join(part)),
            crate::run::files(&reference.join(part)),
            "{part}"
        );
    }
    assert_eq!(
        std::fs::read(out.join("report.json")).unwrap(),
        std::fs::read(reference.join("report.json")).unwrap()
    );
    assert_eq!(
        dbce_index::fingerprint(&out.join("index")).unwrap(),
        dbce_index::fingerprint(&reference.join("index")).unwrap()
    );
}

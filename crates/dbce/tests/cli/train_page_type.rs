//! `dbce train-page-type` on the bundled mini dataset.

use std::path::Path;

use super::dbce;

/// `dbce train-page-type --trees 2 --folds 2 MINI --out OUT`, which must succeed; its model
/// bytes and standard output.
fn train_on_mini(out: &Path) -> (Vec<u8>, String) {
    let mini = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/eval/mini");
    let output = dbce()
        .args(["train-page-type", "--trees", "2", "--folds", "2"])
        .arg(&mini)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    (
        std::fs::read(out).unwrap(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn train_page_type_writes_the_same_model_every_time_and_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let (first, report) = train_on_mini(&dir.path().join("a.bin"));
    let (second, again) = train_on_mini(&dir.path().join("b.bin"));
    assert_eq!(first, second);
    assert_eq!(report, again);
    dbce_classify::PageTypeModel::decode(&first).unwrap();
    for line in [
        "| mini | article | 2 | 0 |",
        "| mini | forum | 1 | 0 |",
        "### Held out: mini (2 folds grouped by site)",
        "### In sample (the model trained on every page)",
        "### Most important features (mean over the forests)",
    ] {
        assert!(report.contains(line), "{line}: {report}");
    }
}

#[test]
fn a_labelled_page_without_a_type_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("untyped");
    for sub in ["html", "gt"] {
        std::fs::create_dir_all(set.join(sub)).unwrap();
    }
    std::fs::write(set.join("meta.jsonl"), "{\"id\": \"p1\", \"url\": null}\n").unwrap();
    std::fs::write(set.join("html/p1.html"), "<p>Hello there</p>").unwrap();
    std::fs::write(set.join("gt/p1.txt"), "Hello there").unwrap();
    let output = dbce()
        .arg("train-page-type")
        .arg(&set)
        .arg("--out")
        .arg(dir.path().join("m.bin"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("untyped/p1: no page_type in meta.jsonl"),
        "{stderr}"
    );
    assert!(!dir.path().join("m.bin").exists());
}

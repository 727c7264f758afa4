//! `dbce train-single-page` on the bundled mini dataset.

use std::path::Path;

use super::dbce;

#[test]
fn train_single_page_writes_a_model_and_scores_every_page() {
    let mini = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/eval/mini");
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("blocks.bin");
    let output = dbce()
        .args([
            "train-single-page",
            "--trees",
            "2",
            "--cross-validate",
            "--folds",
            "2",
        ])
        .arg(&mini)
        .arg("--out")
        .arg(&model)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("| dataset | page type | pages | labels | readability |"),
        "{stdout}"
    );
    let row = stdout
        .lines()
        .find(|l| l.starts_with("| mini | all | 3 |"))
        .unwrap_or_else(|| panic!("{stdout}"));
    // labels, readability and in-sample columns are scores in 0..=1 for every page.
    let scores: Vec<f64> = row
        .split('|')
        .skip(4)
        .filter_map(|c| c.trim().parse().ok())
        .collect();
    assert!(
        scores.len() >= 3 && scores.iter().all(|s| (0.0..=1.0).contains(s)),
        "{row}"
    );
    assert!(std::fs::metadata(&model).unwrap().len() > 0);
}

#[test]
fn train_single_page_needs_a_dataset() {
    let output = dbce().arg("train-single-page").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

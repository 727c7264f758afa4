//! `dbce config`: the committed default configuration is what the code says.

use crate::dbce;

fn repo_file(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(name)
}

#[test]
fn configs_default_toml_is_current() {
    let output = dbce().args(["config", "default"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let committed = std::fs::read_to_string(repo_file("configs/default.toml")).unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        committed,
        "configs/default.toml is stale: run `dbce config default > configs/default.toml`"
    );
}

#[test]
fn a_partial_file_keeps_defaults_and_bad_settings_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let partial = dir.path().join("partial.toml");
    std::fs::write(&partial, "[lsh]\nthreshold = 0.3\n").unwrap();
    let output = dbce()
        .args(["config", "show"])
        .arg(&partial)
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("threshold = 0.3") && text.contains("num-perm = 128"),
        "{text}"
    );

    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[lsh]\nthreshhold = 0.3\n").unwrap();
    let output = dbce().args(["config", "show"]).arg(&bad).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("unknown field `threshhold`"), "{stderr}");
}

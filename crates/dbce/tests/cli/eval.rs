//! `dbce eval`: methods and peers scored on a generated archive and on the tiny dataset
//! `testdata/eval/mini` (one page gzipped, every page typed).

use std::path::{Path, PathBuf};

use crate::dbce;

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// The JSON row of one dataset and extractor.
fn row<'a>(rows: &'a [serde_json::Value], dataset: &str, method: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["dataset"] == dataset && r["method"] == method)
        .unwrap_or_else(|| panic!("no row {dataset} / {method}"))
}

#[test]
fn eval_scores_a_generated_archive_and_a_dataset() {
    let root = testdata();
    let output = dbce()
        .args(["eval", "--json", "--methods", "t001,model", "--archive"])
        .arg(root.join("sample/sample.warc.gz"))
        .arg(root.join("sample/sample.truth.jsonl"))
        .arg(root.join("eval/mini"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let text = json.to_string();
    assert!(
        text.contains("sample.warc.gz") && text.contains("mini"),
        "{text}"
    );
    // Regression floor on the generated sample: T001 scored 0.77 F1 when this was written.
    let rows = json.as_array().unwrap();
    let t001 = rows
        .iter()
        .find(|r| r["dataset"] == "sample.warc.gz" && r["method"] == "t001")
        .unwrap();
    let f1 = t001["all"]["f1"].as_f64().unwrap();
    assert!(f1 > 0.7, "T001 F1 on the sample fell to {f1}");
    // The built-in model never saw the sample's seed; it scored 0.99 when this was written.
    let model = rows
        .iter()
        .find(|r| r["dataset"] == "sample.warc.gz" && r["method"] == "model")
        .unwrap();
    let f1 = model["all"]["f1"].as_f64().unwrap();
    assert!(
        f1 > 0.9,
        "the built-in model's F1 on the sample fell to {f1}"
    );
}

#[test]
fn eval_reports_page_types_emptied_pages_the_oracle_peers_and_every_page() {
    let tmp = tempfile::tempdir().unwrap();
    // A peer that got one page right, returned nothing on another and has no file for the third.
    let peer = tmp.path().join("echo/mini");
    std::fs::create_dir_all(&peer).unwrap();
    let mini = testdata().join("eval/mini");
    std::fs::copy(mini.join("gt/harbor-2.txt"), peer.join("harbor-2.txt")).unwrap();
    std::fs::write(peer.join("lone page.txt"), "").unwrap();
    let per_page = tmp.path().join("pages.jsonl");
    let output = dbce()
        .args(["eval", "--json", "--methods", "t001,single", "--peer"])
        .arg(format!("echo={}", tmp.path().join("echo").display()))
        .arg("--per-page")
        .arg(&per_page)
        .arg(&mini)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("mini / echo: 1 of 3 pages have no file"),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = json.as_array().unwrap();
    let kinds: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["method"].as_str().unwrap(), r["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("single", "method"),
            ("t001", "method"),
            ("oracle", "oracle"),
            ("echo", "peer")
        ]
    );

    // Every method read the gzipped page: T001 keeps its whole text.
    let t001 = row(rows, "mini", "t001");
    assert_eq!(t001["page_types"]["article"]["pages"], 2);
    assert_eq!(t001["page_types"]["forum"]["pages"], 1);
    assert!(t001["page_types"]["article"]["f1"].as_f64().unwrap() > 0.9);
    assert_eq!(t001["all"]["emptied"], 0);

    // The peer emptied two pages that the methods filled; the oracle is the best of both.
    let echo = row(rows, "mini", "echo");
    assert_eq!(echo["all"]["emptied"], 2);
    assert_eq!(echo["all"]["filled_elsewhere"], 2);
    assert_eq!(echo["page_types"]["forum"]["emptied"], 1);
    let oracle = row(rows, "mini", "oracle")["all"]["f1"].as_f64().unwrap();
    for method in ["t001", "single"] {
        assert!(oracle >= row(rows, "mini", method)["all"]["f1"].as_f64().unwrap());
    }

    // One line per page and extractor, the peer's included.
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&per_page)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3 * 3);
    let echo_pages: Vec<(&str, bool, f64)> = lines
        .iter()
        .filter(|l| l["method"] == "echo")
        .map(|l| {
            assert_eq!(l["peer"], true);
            let id = l["page_id"].as_str().unwrap();
            (id, l["empty"].as_bool().unwrap(), l["f1"].as_f64().unwrap())
        })
        .collect();
    assert_eq!(
        echo_pages,
        [
            ("harbor-1", true, 0.0),
            ("harbor-2", false, 1.0),
            ("lone page", true, 0.0)
        ]
    );
    let lone = lines
        .iter()
        .find(|l| l["method"] == "t001" && l["page_id"] == "lone page")
        .unwrap();
    assert_eq!(lone["split"], "alone");
    assert_eq!(lone["page_type"], "forum");
    assert_eq!(lone["record_id"], "<urn:dbce:eval:mini:lone%20page>");
    assert!(lone["words"].as_u64().unwrap() > 5);
}

#[test]
fn eval_refuses_a_peer_named_like_a_method() {
    let output = dbce()
        .args(["eval", "--methods", "t001", "--peer", "oracle=/nonexistent"])
        .arg(testdata().join("eval/mini"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("peer name \"oracle\""), "{stderr}");
}

#[test]
fn a_dataset_without_meta_jsonl_is_named_once_with_its_cause_once() {
    let tmp = tempfile::tempdir().unwrap();
    let output = dbce()
        .args(["eval", "--methods", "t001"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("meta.jsonl"), "{stderr}");
    assert_eq!(stderr.matches("meta.jsonl").count(), 1, "{stderr}");
    assert_eq!(stderr.matches("No such file").count(), 1, "{stderr}");
}

#[test]
fn eval_archives_only_writes_the_dataset_warc_and_runs_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let output = dbce()
        .args(["eval", "--archives-only", "--keep"])
        .arg(tmp.path())
        .arg(testdata().join("eval/mini"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let archive = tmp.path().join("mini/pages.warc.gz");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        archive.display().to_string()
    );
    // One response record per page of the dataset, and no run folder beside the archive.
    let inspect = dbce()
        .args(["inspect", "--json"])
        .arg(&archive)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&inspect.stdout).unwrap();
    let pages = std::fs::read_dir(testdata().join("eval/mini/html"))
        .unwrap()
        .count();
    assert_eq!(json["types"]["response"].as_u64(), Some(pages as u64));
    let entries: Vec<_> = std::fs::read_dir(tmp.path().join("mini"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries, ["pages.warc.gz"]);
}

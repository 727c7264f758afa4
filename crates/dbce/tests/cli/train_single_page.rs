//! `dbce train-single-page` on the bundled mini dataset.

use std::ffi::OsStr;
use std::path::Path;

use dbce_classify::PageType;

use super::dbce;

/// `dbce train-single-page --trees 2 MINI ARGS...` on the bundled mini dataset, which must
/// succeed; its standard output.
fn train_on_mini(args: &[&OsStr]) -> String {
    let mini = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/eval/mini");
    let output = dbce()
        .args(["train-single-page", "--trees", "2"])
        .arg(&mini)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn train_single_page_writes_a_model_and_scores_every_page() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("blocks.bin");
    let stdout = train_on_mini(&[
        "--cross-validate".as_ref(),
        "--folds".as_ref(),
        "2".as_ref(),
        "--out".as_ref(),
        model.as_os_str(),
    ]);
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
fn train_single_page_scores_the_typed_route_and_writes_every_page() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages.jsonl");
    let stdout = train_on_mini(&[
        "--threshold".as_ref(),
        "0.3,0.5".as_ref(),
        "--article-outside".as_ref(),
        "0.6".as_ref(),
        "--pages-out".as_ref(),
        pages.as_os_str(),
    ]);
    for column in [
        "typed in-sample: articles Readability, others ≥0.3",
        "typed in-sample: articles Readability, others ≥0.5",
        "typed in-sample: articles ≥0.5/0.6, others ≥0.3",
        "typed in-sample: articles ≥0.5/0.6, others ≥0.5",
    ] {
        assert!(stdout.contains(column), "{column}: {stdout}");
    }
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&pages)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for page in &lines {
        let blocks = page["texts"].as_array().unwrap().len();
        assert_eq!(page["labels"].as_array().unwrap().len(), blocks);
        assert_eq!(page["readability"].as_array().unwrap().len(), blocks);
        let p = page["probabilities"]["in-sample"].as_array().unwrap();
        assert_eq!(p.len(), blocks);
        assert!(p.iter().all(|v| (0.0..=1.0).contains(&v.as_f64().unwrap())));
        assert!(page["guessed_type"].is_string() && page["truth"].is_string());
    }
}

#[test]
fn train_single_page_needs_a_dataset() {
    let output = dbce().arg("train-single-page").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn train_single_page_chooses_the_route_inside_the_folds() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages.jsonl");
    let stdout = train_on_mini(&[
        "--nested".as_ref(),
        "--folds".as_ref(),
        "2".as_ref(),
        "--pages-out".as_ref(),
        pages.as_os_str(),
    ]);
    for column in [
        "held-out types: default ≥",
        "nested: one threshold for other types",
        "nested: a threshold per type",
        "nested, unsure articles as other types: one threshold",
        "blocks site folds ≥0.5",
    ] {
        assert!(stdout.contains(column), "{column}: {stdout}");
    }
    assert!(
        stdout.contains("Thresholds chosen in each fold") && stdout.contains("| 0 |"),
        "{stdout}"
    );
    assert!(stdout.contains("labelled pages right"), "{stdout}");
    // Every page carries the type its fold's page-type model gives it (null where the other
    // fold labels no type to train on).
    let lines = std::fs::read_to_string(&pages).unwrap();
    let types: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["held_out_type"].clone())
        .collect();
    assert_eq!(types.len(), 3);
    assert!(
        types.iter().all(|t| t.is_null() || t.is_string()),
        "{lines}"
    );
    assert!(types.iter().any(serde_json::Value::is_string), "{lines}");
}

#[test]
fn train_single_page_writes_the_rows_it_trains_on_gzipped() {
    let dir = tempfile::tempdir().unwrap();
    let rows = dir.path().join("rows.csv.gz");
    let pages = dir.path().join("pages.jsonl");
    train_on_mini(&[
        "--rows-out".as_ref(),
        rows.as_os_str(),
        "--pages-out".as_ref(),
        pages.as_os_str(),
        "--word-weight".as_ref(),
        "8".as_ref(),
    ]);
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(&rows).unwrap()),
        &mut text,
    )
    .unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        header[..7],
        ["dataset", "id", "group", "block", "fold", "label", "weight"]
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // One row per block of every page, in the pages' order, with the pages' labels.
    let mut expected = Vec::new();
    for line in std::fs::read_to_string(&pages).unwrap().lines() {
        let page: serde_json::Value = serde_json::from_str(line).unwrap();
        for (block, (text, label)) in page["texts"]
            .as_array()
            .unwrap()
            .iter()
            .zip(page["labels"].as_array().unwrap())
            .enumerate()
        {
            let words = text.as_str().unwrap().split_whitespace().count();
            expected.push((
                page["id"].as_str().unwrap().to_owned(),
                block.to_string(),
                if label.as_bool().unwrap() { "1" } else { "0" },
                if words >= 8 { "2" } else { "1" },
            ));
        }
    }
    assert!(!expected.is_empty());
    let found: Vec<_> = rows
        .iter()
        .map(|r| (r[1].to_owned(), r[3].to_owned(), r[5], r[6]))
        .collect();
    assert_eq!(found, expected);
    for row in &rows {
        assert_eq!(row.len(), header.len());
        assert_eq!(row[0], "mini");
        assert!(row[4].parse::<u64>().unwrap() < 5, "five folds by default");
        assert!(row[7..].iter().all(|v| v.parse::<f32>().is_ok()));
    }
}

/// The rows a block model trains on carry the type a page-type model trained without the
/// page's site fold gives the page, not the built-in model's guess (which has seen it).
#[test]
fn train_single_page_rows_carry_the_held_out_page_type() {
    let dir = tempfile::tempdir().unwrap();
    let rows = dir.path().join("rows.csv");
    let pages = dir.path().join("pages.jsonl");
    train_on_mini(&[
        "--folds".as_ref(),
        "2".as_ref(),
        "--rows-out".as_ref(),
        rows.as_os_str(),
        "--pages-out".as_ref(),
        pages.as_os_str(),
    ]);
    let mut held_out = std::collections::BTreeMap::new();
    let mut differ = false;
    for line in std::fs::read_to_string(&pages).unwrap().lines() {
        let page: serde_json::Value = serde_json::from_str(line).unwrap();
        let page_type = page["held_out_type"].as_str().unwrap().to_owned();
        differ |= page_type != page["guessed_type"].as_str().unwrap();
        let confidence = page["held_out_confidence"].as_f64().unwrap();
        held_out.insert(
            page["id"].as_str().unwrap().to_owned(),
            (page_type, confidence),
        );
    }
    assert!(
        differ,
        "on the mini set a held-out type differs from the built-in guess"
    );
    let text = std::fs::read_to_string(&rows).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|&h| h == name).unwrap();
    let confidence_column = column("page_type_confidence");
    let mut checked = 0;
    for line in lines {
        let row: Vec<&str> = line.split(',').collect();
        let (page_type, confidence) = &held_out[row[1]];
        for t in PageType::ALL.map(PageType::name) {
            let expected = if t == page_type { "1" } else { "0" };
            assert_eq!(row[column(&format!("page_type_{t}"))], expected, "{line}");
        }
        let value: f64 = row[confidence_column].parse().unwrap();
        assert!((value - confidence).abs() < 1e-6, "{line}");
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn train_single_page_boosts_trees_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("boosted.bin");
    let pages = dir.path().join("pages.jsonl");
    let stdout = train_on_mini(&[
        "--learner".as_ref(),
        "boosted".as_ref(),
        "--equal-sites".as_ref(),
        "--cross-validate".as_ref(),
        "--folds".as_ref(),
        "2".as_ref(),
        "--out".as_ref(),
        model.as_os_str(),
        "--pages-out".as_ref(),
        pages.as_os_str(),
    ]);
    assert!(stdout.contains("blocks site folds ≥0.5"), "{stdout}");
    let bytes = std::fs::read(&model).unwrap();
    let decoded = dbce_classify::BlockModel::decode(&bytes).unwrap();
    assert!(matches!(
        decoded.classifier(),
        dbce_classify::BlockClassifier::Boosted(_)
    ));
    // Every block has a probability in sample and held out.
    for line in std::fs::read_to_string(&pages).unwrap().lines() {
        let page: serde_json::Value = serde_json::from_str(line).unwrap();
        let blocks = page["texts"].as_array().unwrap().len();
        for column in ["in-sample", "site folds"] {
            let p = page["probabilities"][column].as_array().unwrap();
            assert_eq!(p.len(), blocks, "{column}");
            assert!(p.iter().all(|v| (0.0..=1.0).contains(&v.as_f64().unwrap())));
        }
    }
}

#[test]
fn train_single_page_shapes_the_boosted_trees_as_asked() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("boosted.bin");
    train_on_mini(&[
        "--learner".as_ref(),
        "boosted".as_ref(),
        "--leaves".as_ref(),
        "3".as_ref(),
        "--boost-depth".as_ref(),
        "2".as_ref(),
        "--boost-min-leaf".as_ref(),
        "5".as_ref(),
        "--l2".as_ref(),
        "2.5".as_ref(),
        "--learning-rate".as_ref(),
        "0.3".as_ref(),
        "--out".as_ref(),
        model.as_os_str(),
    ]);
    let decoded = dbce_classify::BlockModel::decode(&std::fs::read(&model).unwrap()).unwrap();
    let dbce_classify::BlockClassifier::Boosted(trees) = decoded.classifier() else {
        panic!("a boosted model");
    };
    let params = trees.params();
    assert_eq!(
        (params.max_leaves, params.max_depth, params.min_rows_leaf),
        (3, 2, 5)
    );
    assert_eq!((params.l2, params.learning_rate), (2.5, 0.3));
}

#[test]
fn a_trained_block_model_is_used_when_the_settings_name_it() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("blocks.bin");
    train_on_mini(&["--out".as_ref(), model.as_os_str()]);
    let page =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/eval/mini/html/harbor-1.html");
    let extract = |config: Option<&Path>| {
        let mut command = dbce();
        command.arg("extract").arg(&page).args(["--format", "json"]);
        if let Some(config) = config {
            command.arg("--config").arg(config);
        }
        command.output().unwrap()
    };
    let settings = dir.path().join("settings.toml");
    let write_settings = |model: &Path| {
        let line = format!(
            "[annotate]\nblock-model = {:?}\n",
            model.display().to_string()
        );
        std::fs::write(&settings, line).unwrap();
    };
    write_settings(&model);
    let output = extract(Some(&settings));
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let page_json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(page_json["decided_by"], "single", "{page_json}");
    // A file that is not a block model stops the command, naming the file.
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, b"junk").unwrap();
    write_settings(&junk);
    let output = extract(Some(&settings));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_ne!(output.status.code(), Some(0));
    assert!(
        stderr.contains("junk.bin") && stderr.contains("block model"),
        "{stderr}"
    );
}

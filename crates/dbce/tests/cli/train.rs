//! `dbce train --judge` from samples another run wrote.

use dbce_learn::judge::{EVIDENCE_NAMES, JudgeSample, PageEvidence, read_samples, write_samples};

use super::dbce;

#[test]
fn the_judge_trains_from_written_samples_and_validates_by_their_groups() {
    let dir = tempfile::tempdir().unwrap();
    // Two groups of pages, each with every value: the cross is best below 0.5, the
    // single-page route above.
    let mut samples = Vec::new();
    let mut groups = Vec::new();
    for i in 0..40 {
        let unique = f32::from(u8::try_from(i % 10).unwrap()) / 10.0;
        // Every value says the same, so that whichever a split tries tells the groups apart.
        let evidence = [unique; EVIDENCE_NAMES.len()];
        let f1 = if unique < 0.5 {
            [0.9, 0.5, 0.2]
        } else {
            [0.2, 0.5, 0.9]
        };
        samples.push(JudgeSample {
            evidence: PageEvidence(evidence),
            f1,
            site: format!("site{}.example", i % 3),
        });
        groups.push(if i < 20 { "one" } else { "two" }.to_owned());
    }
    let path = dir.path().join("samples.jsonl");
    let mut bytes = Vec::new();
    write_samples(&samples, &groups, &mut bytes).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let judge = dir.path().join("judge.bin");
    let written = dir.path().join("again.jsonl");
    let output = dbce()
        .args([
            "train",
            "--judge",
            "--trees",
            "4",
            "--site-folds",
            "2",
            "--samples-from",
        ])
        .arg(&path)
        .arg("--out")
        .arg(&judge)
        .arg("--samples")
        .arg(&written)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Each group held out scores the best route of every page: the other group taught it.
    for group in ["one", "two"] {
        let row = format!("| {group} | 20 | 0.550 | 0.500 | 0.550 | **0.900** |");
        assert!(stdout.contains(&row), "{row}: {stdout}");
    }
    // Then each group cut into two folds by site: a site's pages (three sites) in one fold.
    let (_, by_site) = stdout
        .split_once("Each dataset cut into 2 folds by site")
        .unwrap();
    let folded: usize = by_site
        .lines()
        .filter(|l| l.starts_with("| one site fold ") || l.starts_with("| two site fold "))
        .map(|l| {
            l.split('|')
                .nth(2)
                .unwrap()
                .trim()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert_eq!(folded, 40, "{by_site}");
    assert!(std::fs::metadata(&judge).unwrap().len() > 0);
    let (again, again_groups) = read_samples(std::io::BufReader::new(
        std::fs::File::open(&written).unwrap(),
    ))
    .unwrap();
    assert_eq!((again, again_groups), (samples, groups));
    // A file of other evidence is refused, naming it.
    std::fs::write(&path, "{\"group\":\"x\",\"evidence\":{},\"f1\":[0,0,0]}\n").unwrap();
    let output = dbce()
        .args(["train", "--judge", "--samples-from"])
        .arg(&path)
        .arg("--out")
        .arg(&judge)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_ne!(output.status.code(), Some(0));
    assert!(
        stderr.contains("samples.jsonl") && stderr.contains("line 1"),
        "{stderr}"
    );
}

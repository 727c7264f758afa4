//! The committed sample is what `scripts/make-testdata` produces: regenerate it with the
//! script's arguments and compare. The archive is compared decompressed, because deflate
//! output may differ between compressor builds and CPUs while the records may not.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

/// The sample arguments, read from the script that produced the committed files.
fn sample_args(root: &Path) -> Vec<String> {
    let script = std::fs::read_to_string(root.join("scripts/make-testdata")).expect("the script");
    let line = script
        .lines()
        .find(|l| l.starts_with("SAMPLE_ARGS=("))
        .expect("SAMPLE_ARGS line");
    let inner = line
        .trim_start_matches("SAMPLE_ARGS=(")
        .trim_end_matches(')');
    inner.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn committed_sample_matches_the_generator() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    let (out, truth) = (
        dir.path().join("sample.warc.gz"),
        dir.path().join("sample.truth.jsonl"),
    );
    let status = Command::new(env!("CARGO_BIN_EXE_dbce-synth"))
        .args(sample_args(&root))
        .arg("--out")
        .arg(&out)
        .arg("--truth")
        .arg(&truth)
        .status()
        .unwrap();
    assert!(status.success());
    for (generated, committed) in [(&out, "sample.warc.gz"), (&truth, "sample.truth.jsonl")] {
        let committed = root.join("testdata/sample").join(committed);
        let same = decompressed(generated) == decompressed(&committed);
        assert!(
            same,
            "{} is stale: run scripts/make-testdata",
            committed.display()
        );
    }
}

/// The file's bytes, gunzipped if it is gzip.
fn decompressed(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return bytes;
    }
    let mut plain = Vec::new();
    let mut decoder = flate2::read::MultiGzDecoder::new(&bytes[..]);
    std::io::Read::read_to_end(&mut decoder, &mut plain).unwrap();
    plain
}

#[test]
fn bad_arguments_fail_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_dbce-synth"))
        .args(["--sites", "4", "--pages", "5", "--out"])
        .arg(dir.path().join("x.warc.gz"))
        .arg("--truth")
        .arg(dir.path().join("x.jsonl"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("invalid parameter pages"), "{stderr}");
}

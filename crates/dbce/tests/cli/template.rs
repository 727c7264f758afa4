//! `dbce template`: template tokens and signatures equal to datasketch's.
//!
//! The expected signatures were computed by the real datasketch 2.0.0 from the printed tokens
//! (`dbce template … | python3 scripts/template-datasketch.py`).

use std::path::PathBuf;

use serde_json::Value;

use crate::dbce;

/// `testdata/html/cli/tiny-utf16le.html`: a small page in UTF-16LE with a byte order mark, so
/// that the tokens are only right if the bytes were decoded.
fn tiny_page() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/html/cli/tiny-utf16le.html")
}

/// Runs `dbce template` on the tiny page with `args`; the parsed JSON it printed.
fn template(args: &[&str]) -> Value {
    let output = dbce()
        .arg("template")
        .arg(tiny_page())
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    serde_json::from_slice(&output.stdout).unwrap()
}

fn signature(printed: &Value) -> Vec<u64> {
    let values = printed["signature"].as_array().unwrap();
    values.iter().map(|v| v.as_u64().unwrap()).collect()
}

#[test]
fn prints_tokens_in_minhash_order() {
    let printed = template(&[]);
    let tokens: Vec<&str> = printed["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(tokens.len(), 13, "{tokens:?}");
    assert_eq!(tokens[0], "0_0_0_html/0_0_0_[document]");
    assert_eq!(
        tokens[5],
        "2_0_2_nav/2_0_2_body/2_0_2_html/2_0_2_[document]"
    );
    assert_eq!(
        tokens[12],
        "0_1_4_b/0_1_4_p/0_1_4_article/0_1_4_body/0_1_4_html/0_1_4_[document]"
    );
}

#[test]
fn default_signature_is_datasketch_legacy_128() {
    let printed = template(&[]);
    assert_eq!(
        printed["minhash"],
        serde_json::json!({"num-perm": 128, "seed": 1, "scheme": "legacy"})
    );
    let values = signature(&printed);
    assert_eq!(values.len(), 128);
    assert_eq!(
        values[..8],
        [
            135_077_623,
            117_203_698,
            105_582_297,
            458_356_775,
            20_485_382,
            307_006_071,
            316_137_518,
            22_394_916
        ]
    );
    assert_eq!(values[127], 443_291_150);
}

#[test]
fn settings_from_flags_match_datasketch() {
    let printed = template(&["--num-perm", "8", "--seed", "42", "--scheme", "affine32"]);
    assert_eq!(
        signature(&printed),
        [
            50_978_232,
            51_906_778,
            832_757_329,
            442_709_713,
            241_937_342,
            52_657_905,
            463_920_929,
            625_141_328
        ]
    );
}

#[test]
fn invalid_settings_are_an_error() {
    let output = dbce()
        .arg("template")
        .arg(tiny_page())
        .args(["--num-perm", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("invalid MinHash settings"), "{stderr}");
    assert!(output.stdout.is_empty());
}

//! Parity with the real datasketch: signatures, Jaccard estimates, permutation parameters,
//! `(bands, rows)` choices and LSH candidate sets, against the values
//! `scripts/minhash-vectors.py` recorded in `testdata/minhash/datasketch-vectors.json`.

use std::collections::BTreeSet;
use std::path::Path;

use dbce_minhash::{Error, LshIndex, LshParams, MinHasher, MinhashConfig, Scheme, Signature};
use serde::Deserialize;

#[derive(Deserialize)]
struct Vectors {
    versions: serde_json::Value,
    token_sets: Vec<TokenSet>,
    signatures: Vec<Signatures>,
    optimal_params: Vec<Optimal>,
    lsh_queries: Vec<LshQueries>,
}

#[derive(Deserialize)]
struct TokenSet {
    name: String,
    tokens_hex: Vec<String>,
}

#[derive(Deserialize)]
struct Signatures {
    scheme: String,
    seed: u32,
    num_perm: u32,
    signatures: Vec<Vec<u32>>,
    /// `[i, j, datasketch's jaccard(i, j)]`.
    jaccard: Vec<(usize, usize, f64)>,
}

#[derive(Deserialize)]
struct Optimal {
    threshold: f64,
    num_perm: u32,
    bands: Option<u32>,
    rows: Option<u32>,
    error: Option<String>,
}

#[derive(Deserialize)]
struct LshQueries {
    scheme: String,
    seed: u32,
    num_perm: u32,
    threshold: f64,
    bands: u32,
    rows: u32,
    /// datasketch's `query` of each token set's MinHash, sorted; includes the set itself.
    candidates: Vec<Vec<u32>>,
}

fn vectors() -> Vectors {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/minhash/datasketch-vectors.json");
    let text = std::fs::read_to_string(&path).expect("read datasketch vectors");
    serde_json::from_str(&text).expect("parse datasketch vectors")
}

fn config(scheme: &str, seed: u32, num_perm: u32) -> MinhashConfig {
    let scheme = match scheme {
        "legacy" => Scheme::Legacy,
        "affine32" => Scheme::Affine32,
        other => panic!("unknown scheme {other}"),
    };
    MinhashConfig {
        num_perm,
        seed,
        scheme,
    }
}

fn tokens(set: &TokenSet) -> Vec<Vec<u8>> {
    set.tokens_hex.iter().map(|hex| decode_hex(hex)).collect()
}

fn decode_hex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex token"))
        .collect()
}

#[test]
fn signatures_match_datasketch() {
    let vectors = vectors();
    let sets: Vec<Vec<Vec<u8>>> = vectors.token_sets.iter().map(tokens).collect();
    let mut compared = 0;
    for case in &vectors.signatures {
        let hasher = MinHasher::new(config(&case.scheme, case.seed, case.num_perm)).unwrap();
        assert_eq!(case.signatures.len(), sets.len());
        for ((set, expected), meta) in sets.iter().zip(&case.signatures).zip(&vectors.token_sets) {
            let got = hasher.signature(set);
            let what = format!(
                "{} seed {} num_perm {}: {}",
                case.scheme, case.seed, case.num_perm, meta.name
            );
            assert_eq!(
                got.values(),
                expected.as_slice(),
                "{what} ({:?})",
                vectors.versions
            );
            compared += 1;
        }
    }
    assert!(compared >= 300, "only {compared} signatures compared");
}

#[test]
fn jaccard_estimates_match_datasketch() {
    let vectors = vectors();
    let mut compared = 0;
    for case in &vectors.signatures {
        let config = config(&case.scheme, case.seed, case.num_perm);
        let signatures: Vec<Signature> = case
            .signatures
            .iter()
            .map(|values| Signature::from_values(config, values.clone()).unwrap())
            .collect();
        for &(i, j, expected) in &case.jaccard {
            let got = signatures[i].jaccard(&signatures[j]).unwrap();
            assert_eq!(
                got.to_bits(),
                expected.to_bits(),
                "{config:?} pair ({i}, {j})"
            );
            compared += 1;
        }
    }
    assert!(compared >= 1000, "only {compared} estimates compared");
}

#[test]
fn optimal_params_match_datasketch() {
    let vectors = vectors();
    for case in &vectors.optimal_params {
        let got = LshParams::optimal(case.threshold, case.num_perm);
        let what = format!("threshold {} num_perm {}", case.threshold, case.num_perm);
        match (&case.error, case.bands, case.rows) {
            (None, Some(bands), Some(rows)) => {
                assert_eq!(got, Ok(LshParams { bands, rows }), "{what}")
            }
            // datasketch refuses an optimum of a single band; so must we.
            (Some(_), ..) => assert!(
                matches!(got, Err(Error::LshParams { bands: 1, .. })),
                "{what}: {got:?}"
            ),
            _ => panic!("malformed case: {what}"),
        }
    }
    let checked = |n| {
        vectors
            .optimal_params
            .iter()
            .filter(|c| c.num_perm == n)
            .count()
    };
    assert!([64, 128, 256].iter().all(|&n| checked(n) >= 99));
}

#[test]
fn lsh_candidates_match_datasketch() {
    let vectors = vectors();
    let sets: Vec<Vec<Vec<u8>>> = vectors.token_sets.iter().map(tokens).collect();
    for case in &vectors.lsh_queries {
        let config = config(&case.scheme, case.seed, case.num_perm);
        let params = LshParams::optimal(case.threshold, case.num_perm).unwrap();
        assert_eq!(
            params,
            LshParams {
                bands: case.bands,
                rows: case.rows
            }
        );
        let hasher = MinHasher::new(config).unwrap();
        let signatures: Vec<Signature> = sets.iter().map(|set| hasher.signature(set)).collect();
        let mut index = LshIndex::new(config, params).unwrap();
        for (id, signature) in (0u32..).zip(&signatures) {
            index.insert(id, signature.clone()).unwrap();
        }
        for (id, expected) in (0u32..).zip(&case.candidates) {
            let queried: BTreeSet<u32> = index
                .query(&signatures[id as usize])
                .unwrap()
                .iter()
                .map(|c| c.id)
                .collect();
            let expected: BTreeSet<u32> = expected.iter().copied().collect();
            assert_eq!(
                queried, expected,
                "{config:?} threshold {}: query of set {id}",
                case.threshold
            );
            let mut others = expected;
            others.remove(&id);
            let candidates: BTreeSet<u32> =
                index.candidates(id).unwrap().iter().map(|c| c.id).collect();
            assert_eq!(
                candidates, others,
                "{config:?} threshold {}: candidates of {id}",
                case.threshold
            );
        }
    }
}

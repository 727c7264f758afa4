//! Parity with CPython 3.11 `difflib`: every case of `testdata/difflib/golden.json`
//! (written by `scripts/difflib-golden.py`) must match exactly, blocks, opcodes and ratio bits.

use dbce_annotate::{Match, Opcode, SequenceMatcher, Tag};
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    a: Vec<u32>,
    b: Vec<u32>,
    autojunk: Expected,
    plain: Expected,
}

#[derive(Deserialize)]
struct Expected {
    blocks: Vec<[usize; 3]>,
    opcodes: Vec<(String, usize, usize, usize, usize)>,
    ratio: String,
    insensitive_blocks: Vec<[usize; 3]>,
    insensitive_opcodes: Vec<(String, usize, usize, usize, usize)>,
}

fn load() -> Golden {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/difflib/golden.json"
    );
    let text = std::fs::read_to_string(path).expect("golden file");
    serde_json::from_str(&text).expect("golden JSON")
}

fn blocks(found: &[Match]) -> Vec<[usize; 3]> {
    found.iter().map(|m| [m.a, m.b, m.size]).collect()
}

fn opcodes(found: &[Opcode]) -> Vec<(String, usize, usize, usize, usize)> {
    let letter = |t: Tag| t.as_str()[..1].to_owned();
    found
        .iter()
        .map(|o| (letter(o.tag), o.a.start, o.a.end, o.b.start, o.b.end))
        .collect()
}

/// Tokens as words, the way `html_annotate` keys them.
fn as_words(seq: &[u32]) -> Vec<String> {
    seq.iter().map(|n| format!("w{n}")).collect()
}

fn check(case: usize, a: &[String], b: &[String], autojunk: bool, want: &Expected) {
    let m = SequenceMatcher::new(a, b, autojunk);
    let ctx = format!("case {case}, autojunk {autojunk}");
    assert_eq!(
        blocks(&m.get_matching_blocks()),
        want.blocks,
        "{ctx}: blocks"
    );
    assert_eq!(opcodes(&m.get_opcodes()), want.opcodes, "{ctx}: opcodes");
    let ratio: f64 = want.ratio.parse().expect("ratio repr");
    assert_eq!(m.ratio().to_bits(), ratio.to_bits(), "{ctx}: ratio");
    let insensitive = m.insensitive_matching_blocks();
    assert_eq!(
        blocks(&insensitive),
        want.insensitive_blocks,
        "{ctx}: insensitive blocks"
    );
    assert_eq!(
        opcodes(&m.insensitive_opcodes()),
        want.insensitive_opcodes,
        "{ctx}: ins. ops"
    );
}

#[test]
fn every_golden_case_matches_python() {
    let golden = load();
    assert!(golden.cases.len() >= 60);
    for (i, case) in golden.cases.iter().enumerate() {
        let (a, b) = (as_words(&case.a), as_words(&case.b));
        check(i, &a, &b, true, &case.autojunk);
        check(i, &a, &b, false, &case.plain);
    }
}

#[test]
fn golden_set_exercises_autojunk_and_the_filter() {
    let golden = load();
    let by_autojunk = golden
        .cases
        .iter()
        .filter(|c| c.autojunk.blocks != c.plain.blocks);
    assert!(by_autojunk.count() >= 10);
    let by_filter = golden
        .cases
        .iter()
        .filter(|c| c.autojunk.blocks != c.autojunk.insensitive_blocks);
    assert!(by_filter.count() >= 10);
}

#[test]
fn find_longest_match_sub_ranges_match_python() {
    // difflib docs: SequenceMatcher(None, " abcd", "abcd abcd").find_longest_match(0, 5, 0, 9)
    let a: Vec<char> = " abcd".chars().collect();
    let b: Vec<char> = "abcd abcd".chars().collect();
    let m = SequenceMatcher::new(&a, &b, true);
    assert_eq!(
        m.find_longest_match(0..5, 0..9),
        Ok(Match {
            a: 0,
            b: 4,
            size: 5
        })
    );
    assert_eq!(
        m.find_longest_match(1..5, 0..3),
        Ok(Match {
            a: 1,
            b: 0,
            size: 3
        })
    );
    assert_eq!(
        m.find_longest_match(2..2, 5..9),
        Ok(Match {
            a: 2,
            b: 5,
            size: 0
        })
    );
}

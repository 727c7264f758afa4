//! The built-in page-type model on small self-made pages of each type (`testdata/page-types`).
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use dbce_classify::page_type::{error_page, page_type_features};
use dbce_classify::{PageType, PageTypeModel};
use dbce_dom::{Document, SanitizeConfig};

/// A fixture: its HTML, URL, type, and the rank its type must reach among the model's.
struct Fixture {
    html: String,
    url: String,
    expected: PageType,
    rank: usize,
}

fn fixtures() -> Vec<Fixture> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/page-types");
    let list = std::fs::read_to_string(dir.join("pages.tsv")).unwrap();
    list.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            Fixture {
                html: std::fs::read_to_string(dir.join(fields[0])).unwrap(),
                url: fields[1].to_owned(),
                expected: fields[2].parse().unwrap(),
                rank: fields[3].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
fn each_fixture_gets_its_type() {
    let model = PageTypeModel::built_in();
    let mut wrong = Vec::new();
    for f in fixtures() {
        let doc = Document::parse(&f.html, &SanitizeConfig::default()).unwrap();
        let guess = model.classify(&doc, &f.url, &f.html);
        assert!((0.0..=1.0).contains(&guess.confidence));
        assert_eq!(
            guess,
            model.classify(&doc, &f.url, &f.html),
            "deterministic"
        );
        let rank = if f.expected == PageType::Error {
            usize::from(guess.page_type != PageType::Error) * PageType::ALL.len() + 1
        } else {
            let p = model.probabilities(&page_type_features(&doc, &f.url, &f.html));
            let own = p[PageType::LEARNED
                .iter()
                .position(|&t| t == f.expected)
                .unwrap()];
            1 + p.iter().filter(|&&q| q > own).count()
        };
        if rank > f.rank {
            wrong.push(format!("{}: {guess:?}, {} ranks {rank}", f.url, f.expected));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn only_the_error_page_trips_the_error_rules() {
    for f in fixtures() {
        let doc = Document::parse(&f.html, &SanitizeConfig::default()).unwrap();
        let fired = error_page(&doc, &f.url).is_some();
        assert_eq!(fired, f.expected == PageType::Error, "{}", f.url);
    }
}

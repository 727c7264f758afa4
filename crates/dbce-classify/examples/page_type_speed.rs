//! What classifying a page's type costs next to parsing it: reads every `.html` file of a
//! folder, parses each (what stage `read` does anyway), then classifies it with the built-in
//! model, and prints pages per second of both and their ratio, measured in the same run.
//!
//! ```sh
//! cargo run --release -p dbce-classify --example page_type_speed -- DIR
//! ```
#![allow(clippy::print_stdout, clippy::unwrap_used)]

use std::time::{Duration, Instant};

use dbce_classify::PageTypeModel;
use dbce_dom::{Document, SanitizeConfig};

fn main() {
    let dir = std::env::args().nth(1).expect("usage: page_type_speed DIR");
    let mut pages: Vec<(String, String)> = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let html = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            pages.push((format!("https://example.org/{}", path.display()), html));
        }
    }
    pages.sort();
    let model = PageTypeModel::built_in();
    let (mut parse, mut classify) = (Duration::ZERO, Duration::ZERO);
    let mut types = std::collections::BTreeMap::new();
    for (url, html) in &pages {
        let start = Instant::now();
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        let parsed = Instant::now();
        let guess = model.classify(&doc, url, html);
        classify += parsed.elapsed();
        parse += parsed - start;
        *types.entry(guess.page_type).or_insert(0u32) += 1;
    }
    let rate = |d: Duration| pages.len() as f64 / d.as_secs_f64();
    println!(
        "{} pages: parse {:.0} pages/s, classify {:.0} pages/s; classifying adds {:.1}% to parsing",
        pages.len(),
        rate(parse),
        rate(classify),
        100.0 * classify.as_secs_f64() / parse.as_secs_f64()
    );
    println!("{types:?}");
}

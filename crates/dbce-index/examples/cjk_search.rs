//! What the n-gram analyser costs and finds, against tantivy's word analyser, on text in a
//! language written without spaces.
//!
//! ```sh
//! cargo run --release -p dbce-index --example cjk_search -- DOCS.txt LANG [QUERIES]
//! ```
//!
//! `DOCS.txt` holds one document per line (the text of one page or sentence), `LANG` its ISO
//! 639-3 code (`jpn`, `cmn`, …). The documents are indexed twice: as if they were English
//! (tantivy's `default` analyser: words between spaces and punctuation, what dbce did before)
//! and as `LANG` (the n-gram fields). Each build reports its time and size. Then `QUERIES`
//! (default 500) substrings of one to four characters of the n-gram scripts, drawn at random
//! positions of random documents, are searched in both; a document is relevant when its text
//! contains the substring. It prints recall and precision over all queries (micro-averaged, all
//! hits) and the mean time of a search for the top 10 hits with their snippets, as `dbce
//! search` runs it (the index opened each time).
#![allow(clippy::print_stdout, clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::time::Instant;

use dbce_index::{IndexedPage, build_index, search};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(lang)) = (args.next(), args.next()) else {
        return Err("usage: cjk_search DOCS.txt LANG [QUERIES]".into());
    };
    let queries: usize = args.next().map_or(Ok(500), |a| a.parse())?;
    let docs: Vec<String> = std::fs::read_to_string(&path)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let bytes: usize = docs.iter().map(String::len).sum();
    println!(
        "{} documents, {:.2} MB of text",
        docs.len(),
        bytes as f64 / 1e6
    );
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    let queries: Vec<String> = (0..queries)
        .filter_map(|_| substring(&docs, &mut rng))
        .collect();
    let tmp = tempfile::tempdir()?;
    for (name, as_lang) in [("words (as eng)", "eng"), ("n-grams", lang.as_str())] {
        let dir = tmp.path().join(as_lang);
        let pages = docs.iter().enumerate().map(|(n, text)| IndexedPage {
            id: format!("<urn:doc:{n}>"),
            url: format!("https://example.com/{n}"),
            site: "example.com".to_owned(),
            date: "2024-01-01T00:00:00Z".to_owned(),
            lang: as_lang.to_owned(),
            title: String::new(),
            text: text.clone(),
            file: "docs".to_owned(),
            offset: n as u64,
            length: 0,
        });
        let started = Instant::now();
        let summary = build_index(&dir, pages)?;
        let build = started.elapsed().as_secs_f64();
        let (mut relevant, mut found, mut returned) = (0_usize, 0_usize, 0_usize);
        let mut searching = 0.0;
        for query in &queries {
            let started = Instant::now();
            search(&dir, &format!("\"{query}\""), 10)?;
            searching += started.elapsed().as_secs_f64();
            let truth: BTreeSet<u64> = docs
                .iter()
                .enumerate()
                .filter(|(_, d)| d.contains(query.as_str()))
                .map(|(n, _)| n as u64)
                .collect();
            let hits: BTreeSet<u64> = search(&dir, &format!("\"{query}\""), docs.len())?
                .iter()
                .map(|h| h.offset)
                .collect();
            relevant += truth.len();
            returned += hits.len();
            found += hits.intersection(&truth).count();
        }
        let per_query = searching / queries.len().max(1) as f64;
        println!(
            "{name:<15} build {build:.2} s ({:.2} MB/s), index {:.2} MB; {} queries: recall {:.3}, precision {:.3}, {:.2} ms per query (top 10, snippets, index opened each time)",
            bytes as f64 / 1e6 / build,
            summary.bytes as f64 / 1e6,
            queries.len(),
            found as f64 / relevant.max(1) as f64,
            if returned == 0 {
                1.0
            } else {
                found as f64 / returned as f64
            },
            per_query * 1e3,
        );
    }
    Ok(())
}

/// One to four consecutive characters of the n-gram scripts (Han, kana, Hangul, Thai) at a
/// random position of a random document, if the position holds one.
fn substring(docs: &[String], rng: &mut XorShift) -> Option<String> {
    let doc: Vec<char> = docs[rng.below(docs.len())].chars().collect();
    let len = 1 + rng.below(4);
    let start = rng.below(doc.len().saturating_sub(len).max(1));
    let piece = doc.get(start..start + len)?;
    piece
        .iter()
        .all(|&c| matches!(c, '\u{0E00}'..='\u{0E7F}' | '\u{3040}'..='\u{30FF}' | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}'))
        .then(|| piece.iter().collect())
}

/// A small deterministic generator (xorshift64*).
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

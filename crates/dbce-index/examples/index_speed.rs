//! How fast `build_index` indexes pages: 10,000 synthetic pages of about 3 KB of text each.
//!
//! ```sh
//! cargo run --release -p dbce-index --example index_speed [PAGES]
//! ```
//!
//! The text is drawn from a Zipf-like vocabulary of 20,000 made-up words, in lines of 8 to 30
//! words, so the term dictionary and postings look more like prose than repeated filler. It
//! prints pages/s and MB/s of text for the whole build (indexing, flushing segments, rename), then
//! runs one search to show the index is usable.
#![allow(clippy::print_stdout)]

use std::time::Instant;

use dbce_index::{IndexedPage, build_index, search};

/// Vocabulary size.
const WORDS: u64 = 20_000;
/// Text bytes per page, roughly.
const TEXT_BYTES: usize = 3_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pages: u64 = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 10_000,
    };
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let corpus: Vec<IndexedPage> = (0..pages).map(|n| page(n, &mut rng)).collect();
    let text_bytes: usize = corpus.iter().map(|p| p.text.len()).sum();

    let dir = tempfile::tempdir()?;
    let index = dir.path().join("index");
    let start = Instant::now();
    let summary = build_index(&index, corpus)?;
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{} pages, {:.1} MB of text in {seconds:.2} s: {:.0} pages/s, {:.1} MB/s \
         ({} segments, index {:.1} MB)",
        summary.documents,
        text_bytes as f64 / 1e6,
        summary.documents as f64 / seconds,
        text_bytes as f64 / 1e6 / seconds,
        summary.segments,
        summary.bytes as f64 / 1e6,
    );
    let start = Instant::now();
    let hits = search(&index, "w17 w42", 10)?;
    println!(
        "search \"w17 w42\": {} hits in {:.1} ms",
        hits.len(),
        start.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}

/// The `n`-th synthetic page.
fn page(n: u64, rng: &mut XorShift) -> IndexedPage {
    let mut text = String::with_capacity(TEXT_BYTES + 200);
    while text.len() < TEXT_BYTES {
        for _ in 0..8 + rng.below(23) {
            text.push_str(&word(rng));
            text.push(' ');
        }
        text.pop();
        text.push('\n');
    }
    let site = format!("site{}.example", n % 50);
    IndexedPage {
        id: format!("<urn:uuid:00000000-0000-0000-0000-{n:012}>"),
        url: format!("https://{site}/page/{n}"),
        date: format!("2024-{:02}-{:02}T12:00:00Z", 1 + n % 12, 1 + n % 28),
        site,
        lang: "eng".to_owned(),
        title: (0..6).map(|_| word(rng)).collect::<Vec<_>>().join(" "),
        text,
        file: format!("crawl-{:03}.warc.gz", n / 1000),
        offset: n * 4096,
        length: 4000,
    }
}

/// A word with a Zipf-like frequency: `w0` is the most common.
fn word(rng: &mut XorShift) -> String {
    let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
    let rank = ((WORDS as f64).powf(u) - 1.0) as u64;
    format!("w{rank}")
}

/// xorshift64*, enough for synthetic text.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

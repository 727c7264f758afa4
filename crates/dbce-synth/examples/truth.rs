//! Generates a small archive in memory and shows what the truth file says about one article:
//! its content lines, how many boilerplate strings surround them, and its comments.
//!
//! `cargo run -p dbce-synth --example truth`

use dbce_synth::{Config, PageKind, TruthRecord, generate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = Config {
        sites: 1,
        pages: 12,
        captures_max: 3,
        ..Config::default()
    };
    let (mut archive, mut truth) = (Vec::new(), Vec::new());
    let summary = generate(&config, &mut archive, &mut truth)?;
    println!(
        "{} records, {} bytes of WARC",
        summary.records,
        archive.len()
    );
    for line in truth.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let record: TruthRecord = serde_json::from_slice(line)?;
        if record.kind == PageKind::Article && !record.comments.is_empty() {
            println!(
                "{} ({}, capture {} of {})",
                record.url,
                record.date,
                record.capture + 1,
                record.captures
            );
            for content in record.content_lines() {
                println!("  | {content}");
            }
            println!(
                "  {} boilerplate strings, {} comment lines",
                record.boilerplate.len(),
                record.comments.len()
            );
            break;
        }
    }
    Ok(())
}

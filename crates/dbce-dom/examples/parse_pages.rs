//! Parses every page of some folders and prints, per page, a digest of the encoded
//! [`Document`], so that two builds of the parser can be compared byte for byte, and the time
//! the parses took.
//!
//! ```sh
//! cargo run --release -p dbce-dom --example parse_pages -- [--rounds N] DIR… > digests.txt
//! ```
//!
//! Reads every `*.html` file in each `DIR` and in `DIR/html` (the layout of the development
//! sets), sorted by path, as UTF-8 with invalid bytes replaced. Prints one line per page:
//! the path, then `len:digest` of [`Document::encode`]'s bytes (FNV-1a, 64 bits) or the parse
//! error, as `tests/encode_identity.rs` writes them. The parse time of all pages (`--rounds N`: parsed N times, the first round printed)
//! goes to stderr.

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dbce_dom::{Document, SanitizeConfig};

#[path = "../tests/support/fnv.rs"]
mod fnv;

/// The `*.html` files directly in `dir`.
fn html_files(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "html"))
                .collect()
        })
        .unwrap_or_default()
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1).peekable();
    let mut rounds = 1u32;
    if args.peek().is_some_and(|a| a == "--rounds") {
        args.next();
        rounds = args.next().ok_or("--rounds N")?.parse()?;
    }
    let mut paths: Vec<PathBuf> = args
        .flat_map(|dir| {
            let dir = PathBuf::from(dir);
            let mut files = html_files(&dir);
            files.extend(html_files(&dir.join("html")));
            files
        })
        .collect();
    paths.sort();
    let pages: Vec<String> = paths
        .iter()
        .map(|p| fs::read(p).map(|b| String::from_utf8_lossy(&b).into_owned()))
        .collect::<Result<_, _>>()?;
    let config = SanitizeConfig::default();
    let mut spent = Duration::ZERO;
    let mut bytes = Vec::new();
    for round in 0..rounds {
        for (path, page) in paths.iter().zip(&pages) {
            let started = Instant::now();
            let doc = Document::parse(page, &config);
            spent += started.elapsed();
            if round > 0 {
                continue;
            }
            match doc {
                Ok(doc) => {
                    bytes.clear();
                    doc.encode(&mut bytes);
                    println!(
                        "{} {}:{:016x}",
                        path.display(),
                        bytes.len(),
                        fnv::fnv1a(&bytes)
                    );
                }
                Err(e) => println!("{} error: {e}", path.display()),
            }
        }
    }
    let mb: usize = pages.iter().map(String::len).sum();
    eprintln!(
        "{} pages ({:.1} MB) x {rounds}: parse {:.2} s, {:.0} pages/s",
        pages.len(),
        mb as f64 / 1e6,
        spent.as_secs_f64(),
        f64::from(rounds) * pages.len() as f64 / spent.as_secs_f64()
    );
    Ok(())
}

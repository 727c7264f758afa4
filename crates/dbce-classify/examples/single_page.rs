//! Runs single-page classifiers over a directory of pages and writes their content.
//!
//! ```sh
//! cargo run --release -p dbce-classify --example single_page -- DIR OUTDIR [METHOD…] [--phrasing-tags]
//! ```
//!
//! Reads every `DIR/html/<id>.html` (the layout of the development sets), cuts it into text
//! blocks and writes the blocks a method keeps as content, one per line, to `OUTDIR/<id>.txt`.
//! With several methods (names as `SinglePageMethod::from_str` reads them, e.g. `num-words`,
//! `bf-rule-based:0.6`, `readability`), each writes to `OUTDIR/<method>/<id>.txt`. Without one, the default
//! method runs. `--phrasing-tags` keeps all phrasing elements inside blocks (`InlineTags::Phrasing`).
//! Score the output with `crates/dbce-classify/scripts/score.py`.

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dbce_classify::{BlockConfig, InlineTags, PageTypeModel, SinglePageMethod, text_blocks_with};
use dbce_dom::{Document, SanitizeConfig};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut config = BlockConfig::default();
    let mut positional = Vec::new();
    for arg in args {
        if arg == "--phrasing-tags" {
            config.inline_tags = InlineTags::Phrasing;
        } else {
            positional.push(arg);
        }
    }
    let [dir, out, names @ ..] = positional.as_slice() else {
        return Err("usage: single_page DIR OUTDIR [METHOD…] [--phrasing-tags]".into());
    };
    let methods: Vec<SinglePageMethod> = if names.is_empty() {
        vec![SinglePageMethod::default()]
    } else {
        names.iter().map(|n| n.parse()).collect::<Result<_, _>>()?
    };
    let outs: Vec<PathBuf> = methods
        .iter()
        .map(|m| {
            if methods.len() == 1 {
                PathBuf::from(out)
            } else {
                Path::new(out).join(m.to_string())
            }
        })
        .collect();
    for o in &outs {
        fs::create_dir_all(o)?;
    }
    let mut pages: Vec<PathBuf> = fs::read_dir(Path::new(dir).join("html"))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    pages.retain(|p| p.extension().is_some_and(|e| e == "html"));
    pages.sort();
    let started = Instant::now();
    let (mut parse, mut segment, mut typing) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut classify = vec![Duration::ZERO; methods.len()];
    for page in &pages {
        let id = page
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or("page name")?;
        let html = fs::read_to_string(page)?;
        let t0 = Instant::now();
        let doc = Document::parse(&html, &SanitizeConfig::default())?;
        let t1 = Instant::now();
        let blocks = text_blocks_with(&doc, &config);
        let t2 = Instant::now();
        // The page's type, as the pipeline gives it to the learned block classifier (no URL
        // here: the page-type model's URL features see none).
        let page_type = PageTypeModel::built_in().classify(&doc, "", &html);
        let t3 = Instant::now();
        parse += t1 - t0;
        segment += t2 - t1;
        typing += t3 - t2;
        for ((method, o), spent) in methods.iter().zip(&outs).zip(&mut classify) {
            let t = Instant::now();
            let content = method.classify_page(&doc, &blocks, page_type);
            *spent += t.elapsed();
            let mut text = String::new();
            for (block, keep) in blocks.iter().zip(content) {
                if keep {
                    text.push_str(&block.text);
                    text.push('\n');
                }
            }
            fs::write(o.join(format!("{id}.txt")), text)?;
        }
    }
    eprintln!(
        "{} pages, {} methods in {:.2} s: parsing {:.3} s, text blocks {:.3} s, page types {:.3} s",
        pages.len(),
        methods.len(),
        started.elapsed().as_secs_f64(),
        parse.as_secs_f64(),
        segment.as_secs_f64(),
        typing.as_secs_f64(),
    );
    // Pages per second of each method alone: parsing, text blocks, page type and its own
    // classification.
    let shared = parse + segment + typing;
    for (method, spent) in methods.iter().zip(&classify) {
        #[allow(clippy::cast_precision_loss)]
        let rate = pages.len() as f64 / (shared + *spent).as_secs_f64();
        eprintln!(
            "{method}: classifying {:.3} s, {rate:.0} pages/s with parsing and text blocks",
            spent.as_secs_f64()
        );
    }
    Ok(())
}

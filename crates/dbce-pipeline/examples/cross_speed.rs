//! Crosses per second and where the time goes: select, parse, tokenise, match, classify.
//!
//! ```sh
//! cargo run --release -p dbce-pipeline --example cross_speed -- ARCHIVE.warc.gz [MAX_PAGES]
//! ```
//!
//! Reads the HTML pages of an archive (a generated one: `dbce-synth`), computes their MinHash
//! signatures, and for every page selects its cross among the other pages of its site (at most
//! 64 candidates, nearest in archive order), then times each step of stage 2 on one thread:
//! parsing and sanitising, reading `html_annotate` tokens, matching against the cross members,
//! classifying runs by Appendix B and laying out the text.

use std::error::Error;
use std::fs::File;
use std::io::BufReader;
use std::time::{Duration, Instant};

use dbce_annotate::{
    CrossCandidate, InvalidMode, PageTokens, RunLayout, UrlKey, annotate, classify_runs,
    select_cross,
};
use dbce_dom::{Document, SanitizeConfig, TemplateTokens};
use dbce_http::HttpLimits;
use dbce_minhash::{MinHasher, MinhashConfig, jaccard_of_values};
use dbce_page::captured_html;
use dbce_pipeline::PayloadDigest;
use dbce_warc::{Entry, ReaderConfig, WarcReader};

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: cross_speed ARCHIVE [MAX_PAGES]")?;
    let max: usize = args.next().map_or(Ok(usize::MAX), |n| n.parse())?;
    let reader = WarcReader::new(BufReader::new(File::open(&path)?), ReaderConfig::default())?;
    let limits = HttpLimits::default();
    let mut pages_and_digests = Vec::new();
    for entry in reader {
        let Entry::Record(record) = entry? else {
            continue;
        };
        if let Ok(page) = captured_html(&record, &limits) {
            pages_and_digests.push((page, PayloadDigest::of_record(&record)));
        }
        if pages_and_digests.len() >= max {
            break;
        }
    }
    let (pages, digests): (Vec<_>, Vec<_>) = pages_and_digests.into_iter().unzip();
    let sanitize = SanitizeConfig::default();
    let hasher = MinHasher::new(MinhashConfig::default())?;
    let mut time = [Duration::ZERO; 5];
    let clock = |slot: &mut Duration, started: Instant| *slot += started.elapsed();

    let started = Instant::now();
    let docs: Vec<Document> = pages
        .iter()
        .map(|p| Document::parse(&p.html, &sanitize))
        .collect::<Result<_, _>>()?;
    clock(&mut time[1], started);
    let started = Instant::now();
    let tokens: Vec<PageTokens> = docs.iter().map(PageTokens::read).collect();
    clock(&mut time[2], started);
    let signatures: Vec<Vec<u32>> = docs
        .iter()
        .map(|doc| {
            let mut template = Vec::new();
            TemplateTokens::new().for_each(doc, |t| template.push(t.to_owned()));
            hasher
                .signature(template.iter().map(String::as_str))
                .values()
                .to_vec()
        })
        .collect();

    let mut crosses = 0;
    let mut runs = 0;
    for (i, page) in pages.iter().enumerate() {
        let started = Instant::now();
        let candidate = |j: usize| CrossCandidate {
            page: j,
            url: UrlKey::of(&pages[j].url),
            captured: pages[j].captured.0,
            payload: digests[j].0,
            similarity: jaccard_of_values(&signatures[i], &signatures[j]),
        };
        let list: Vec<_> = (0..pages.len())
            .filter(|&j| j != i && pages[j].site == page.site)
            .take(64)
            .map(candidate)
            .collect();
        let cross = select_cross(&candidate(i), &list);
        clock(&mut time[0], started);
        let Some(cross) = cross else { continue };
        let started = Instant::now();
        let members: Vec<_> = cross
            .members()
            .into_iter()
            .skip(1)
            .map(|(role, j)| (role, tokens[j].words.as_slice()))
            .collect();
        let found = annotate(&tokens[i], &members);
        clock(&mut time[3], started);
        let started = Instant::now();
        let labelled = classify_runs(&found, cross.bits(), InvalidMode::Keep);
        let text = RunLayout::of(&docs[i], &labelled).text(|_| true);
        clock(&mut time[4], started);
        crosses += 1;
        runs += labelled.len();
        std::hint::black_box(text);
    }
    let total: Duration = time.iter().sum();
    println!(
        "{} pages, {crosses} crosses, {runs} runs: {:.0} crosses/s on one thread",
        pages.len(),
        crosses as f64 / total.as_secs_f64()
    );
    for (name, t) in ["select", "parse", "tokenise", "match", "classify+layout"]
        .iter()
        .zip(time)
    {
        println!(
            "  {name:<16} {:>8.1} ms  {:>5.1}%  {:>7.3} ms/cross",
            t.as_secs_f64() * 1e3,
            100.0 * t.as_secs_f64() / total.as_secs_f64(),
            t.as_secs_f64() * 1e3 / crosses.max(1) as f64
        );
    }
    Ok(())
}

//! Parse + sanitise + template tokens, in pages/s and MB/s, against html5ever's tokenizer alone
//! and the tokenizer `Document::parse` uses (`dbce_tokenize`) alone, on the same input in the
//! same run.
//!
//! The input is a generated news-like page (no external data needed) and, when
//! `DBCE_BENCH_HTML` names one or more directories (separated like `PATH`), every `*.html` file
//! in them, e.g. `DBCE_BENCH_HTML=/work/shared/data/cleanportaleval/html`.
#![allow(
    missing_docs,
    reason = "criterion_group! defines an undocumented pub fn"
)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use dbce_dom::{Document, SanitizeConfig, TemplateTokens};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};

/// A page of about 100 KB with the usual mix: head, menus, scripts, comments, an article,
/// teaser lists and a footer.
fn generated_page() -> String {
    let mut html = String::from(
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>News</title>\
         <link rel=stylesheet href=/s.css><style>body{margin:0}</style>\
         <script>var tracker = {id: 1};</script></head><body>",
    );
    html.push_str("<header><nav><ul class=menu>");
    for i in 0..40 {
        html.push_str(&format!(
            "<li><a href=\"/section/{i}\">Section {i}</a></li>"
        ));
    }
    html.push_str("</ul></nav></header><main><article><h1>Headline of the day</h1>");
    for i in 0..120 {
        html.push_str(&format!(
            "<!-- para {i} --><p class=\"body-text\">Paragraph {i} of the article, with \
             <a href=\"/link/{i}\">a link</a>, <b>bold words</b> and plain text that goes on \
             for a while to make the page as long as a real one &amp; then some.</p>"
        ));
        if i % 20 == 0 {
            html.push_str("<script>ads.push({slot: 'x'});</script><div class=ad><iframe src=/ad></iframe></div>");
        }
    }
    html.push_str("</article><aside><ol>");
    for i in 0..30 {
        html.push_str(&format!(
            "<li><div class=teaser><img src=/i/{i}.jpg alt=\"\"><span>Teaser {i}</span></div></li>"
        ));
    }
    html.push_str("</ol></aside></main><footer><p>&copy; Example Inc.</p></footer></body></html>");
    html
}

/// Pages from the directories named in `DBCE_BENCH_HTML`, sorted by path.
fn pages_from_env() -> Vec<String> {
    let Some(dirs) = std::env::var_os("DBCE_BENCH_HTML") else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = std::env::split_paths(&dirs)
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .collect()
}

/// Parse, sanitise and write every template token; returns the token bytes.
fn parse_and_tokenise(
    pages: &[String],
    config: &SanitizeConfig,
    tokens: &mut TemplateTokens,
) -> usize {
    let mut bytes = 0;
    for page in pages {
        if let Ok(doc) = Document::parse(page, config) {
            tokens.for_each(&doc, |t| bytes += t.len());
        }
    }
    bytes
}

/// Parse and sanitise only; returns the node count.
fn parse_only(pages: &[String], config: &SanitizeConfig) -> u64 {
    pages
        .iter()
        .filter_map(|page| Document::parse(page, config).ok())
        .map(|doc| u64::from(doc.len()))
        .sum()
}

/// A token sink that only counts tags.
struct CountTags(std::cell::Cell<usize>);

impl TokenSink for CountTags {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        if matches!(token, Token::TagToken(_)) {
            self.0.set(self.0.get() + 1);
        }
        TokenSinkResult::Continue
    }
}

fn tokenize_only(pages: &[String]) -> usize {
    let mut tags = 0;
    for page in pages {
        let tokenizer =
            Tokenizer::new(CountTags(std::cell::Cell::new(0)), TokenizerOpts::default());
        let input = BufferQueue::default();
        input.push_back(StrTendril::from_slice(page));
        let _ = tokenizer.feed(&input);
        tokenizer.end();
        tags += tokenizer.sink.0.get();
    }
    tags
}

fn tokenize_only_dbce(pages: &[String]) -> usize {
    let mut tags = 0;
    for page in pages {
        let sink = CountTags(std::cell::Cell::new(0));
        let mut tokenizer = dbce_tokenize::Tokenizer::new(sink, StrTendril::from_slice(page));
        tokenizer.feed_to(page.len());
        tokenizer.end();
        tags += tokenizer.sink().0.get();
    }
    tags
}

fn run_group(c: &mut Criterion, name: &str, pages: &[String]) {
    let config = SanitizeConfig::default();
    let bytes: usize = pages.iter().map(String::len).sum();
    let throughputs = [
        ("pages", Throughput::Elements(pages.len() as u64)),
        ("bytes", Throughput::Bytes(bytes as u64)),
    ];
    for (unit, throughput) in throughputs {
        let mut group: BenchmarkGroup<'_, _> = c.benchmark_group(format!("{name}/{unit}"));
        group.throughput(throughput);
        group.sample_size(10);
        let mut tokens = TemplateTokens::new();
        group.bench_function("parse+sanitise+tokens", |b| {
            b.iter(|| parse_and_tokenise(black_box(pages), &config, &mut tokens));
        });
        group.bench_function("parse+sanitise", |b| {
            b.iter(|| parse_only(black_box(pages), &config));
        });
        group.bench_function("html5ever tokenizer only", |b| {
            b.iter(|| tokenize_only(black_box(pages)));
        });
        group.bench_function("dbce-tokenize tokenizer only", |b| {
            b.iter(|| tokenize_only_dbce(black_box(pages)));
        });
        group.finish();
    }
}

fn bench(c: &mut Criterion) {
    run_group(c, "generated", &[generated_page()]);
    let pages = pages_from_env();
    if !pages.is_empty() {
        run_group(c, "dir", &pages);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Tokenizes every `*.html` page of some folders with html5ever's tokenizer and with
//! [`dbce_tokenize::Tokenizer`] (a sink that counts tokens), and prints the time each took.
//!
//! ```sh
//! cargo run --release -p dbce-tokenize --example tokenize_pages -- [--rounds N] [--only NAME] DIR…
//! ```
//!
//! `--only html5ever` or `--only dbce-tokenize` runs one of them (for a profile).

use std::cell::Cell;
use std::error::Error;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Token, TokenSink, TokenSinkResult, TokenizerOpts};

/// Counts tokens.
struct Count(Cell<usize>);

impl TokenSink for Count {
    type Handle = ();

    fn process_token(&self, _token: Token, _line: u64) -> TokenSinkResult<()> {
        self.0.set(self.0.get() + 1);
        TokenSinkResult::Continue
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1).peekable();
    let mut rounds = 1u32;
    if args.peek().is_some_and(|a| a == "--rounds") {
        args.next();
        rounds = args.next().ok_or("--rounds N")?.parse()?;
    }
    let mut only = None;
    if args.peek().is_some_and(|a| a == "--only") {
        args.next();
        only = Some(args.next().ok_or("--only NAME")?);
    }
    let runs = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut paths: Vec<PathBuf> = Vec::new();
    for dir in args {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "html") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let pages: Vec<String> = paths
        .iter()
        .map(|p| std::fs::read(p).map(|b| String::from_utf8_lossy(&b).into_owned()))
        .collect::<Result<_, _>>()?;
    let (mut theirs, mut ours) = (Duration::ZERO, Duration::ZERO);
    let (mut their_tokens, mut our_tokens) = (0, 0);
    for _ in 0..rounds {
        let started = Instant::now();
        for page in pages.iter().filter(|_| runs("html5ever")) {
            let tokenizer =
                html5ever::tokenizer::Tokenizer::new(Count(Cell::new(0)), TokenizerOpts::default());
            let queue = BufferQueue::default();
            queue.push_back(StrTendril::from_slice(page));
            let _ = tokenizer.feed(&queue);
            tokenizer.end();
            their_tokens += tokenizer.sink.0.get();
        }
        theirs += started.elapsed();
        let started = Instant::now();
        for page in pages.iter().filter(|_| runs("dbce-tokenize")) {
            let sink = Count(Cell::new(0));
            let mut tokenizer = dbce_tokenize::Tokenizer::new(sink, StrTendril::from_slice(page));
            tokenizer.feed_to(page.len());
            tokenizer.end();
            our_tokens += tokenizer.sink().0.get();
        }
        ours += started.elapsed();
    }
    let mb = pages.iter().map(String::len).sum::<usize>() as f64 * f64::from(rounds) / 1e6;
    for (name, time, tokens) in [
        ("html5ever", theirs, their_tokens),
        ("dbce-tokenize", ours, our_tokens),
    ] {
        if !runs(name) {
            continue;
        }
        eprintln!(
            "{name:>14}: {:.2} s, {:.0} MB/s, {tokens} tokens",
            time.as_secs_f64(),
            mb / time.as_secs_f64()
        );
    }
    Ok(())
}

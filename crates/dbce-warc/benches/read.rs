//! Reading a gzip WARC with [`WarcReader`] against plain gzip decompression of the same bytes.
//!
//! The archive is built in memory from synthetic pages (no external data is needed), with the
//! record mix of a crawl: one `warcinfo`, then a `request` and a `response` record per page, one
//! gzip member each. Two groups measure the same ways of reading, one in MB/s of gzip input and
//! one in records/s. `scripts/bench-warc` runs the whole-file comparison on real pages, with
//! warcio and FastWARC.
#![allow(
    missing_docs,
    reason = "criterion_group! defines an undocumented pub fn"
)]

#[path = "../examples/capture/mod.rs"]
mod capture;

use std::hint::black_box;
use std::io::{self, Cursor};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dbce_warc::{Entry, ReaderConfig, WarcReader, WarcWriter};
use flate2::read::MultiGzDecoder;

/// Pages in the archive: a few MB decompressed, so one pass takes milliseconds.
const PAGES: u64 = 200;

const WORDS: [&str; 48] = [
    "the",
    "of",
    "and",
    "archive",
    "news",
    "said",
    "report",
    "city",
    "council",
    "minister",
    "market",
    "price",
    "season",
    "team",
    "game",
    "police",
    "court",
    "weather",
    "school",
    "year",
    "people",
    "government",
    "company",
    "week",
    "new",
    "first",
    "local",
    "state",
    "health",
    "water",
    "road",
    "election",
    "budget",
    "music",
    "film",
    "world",
    "in",
    "to",
    "a",
    "was",
    "for",
    "on",
    "with",
    "by",
    "at",
    "from",
    "after",
    "before",
];

/// A gzip WARC of `PAGES` synthetic captures, and its record count.
fn archive() -> (Vec<u8>, u64) {
    let mut writer = WarcWriter::new(Vec::new());
    let warcinfo = capture::write_warcinfo(&mut writer, "bench.warc.gz").expect("in memory");
    let mut seed = 0x2545_f491_4f6c_dd1d;
    for index in 1..=PAGES {
        let url = format!("https://site{}.example/news/{index}.html", index % 17);
        let html = page(&mut seed, index);
        let capture = capture::Capture {
            url: &url,
            html: &html,
            index,
        };
        capture::write_capture(&mut writer, &warcinfo, &capture).expect("in memory");
    }
    (writer.finish().expect("in memory"), 1 + 2 * PAGES)
}

/// A page of 10–100 KB: shared template around paragraphs of pseudo-random words, which
/// compresses about as well as real HTML (4–5×).
fn page(seed: &mut u64, index: u64) -> Vec<u8> {
    let mut html = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Story {index}</title>\
         <link rel=\"stylesheet\" href=\"/static/site.css\"></head><body>\
         <nav><ul><li><a href=\"/\">Home</a></li><li><a href=\"/news\">News</a></li>\
         <li><a href=\"/sport\">Sport</a></li></ul></nav><main><article>"
    );
    let paragraphs = 20 + next(seed) % 200;
    for _ in 0..paragraphs {
        html.push_str("<p>");
        for _ in 0..40 + next(seed) % 40 {
            html.push_str(WORDS[usize::try_from(next(seed) % 48).unwrap_or(0)]);
            html.push(' ');
        }
        html.push_str("</p>\n");
    }
    html.push_str("</article></main><footer>&copy; Example News</footer></body></html>");
    html.into_bytes()
}

/// xorshift64: deterministic and dependency-free.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn read_flate2(archive: &[u8]) -> u64 {
    io::copy(&mut MultiGzDecoder::new(archive), &mut io::sink()).expect("valid gzip")
}

fn read_dbce(archive: &[u8], config: &ReaderConfig) -> u64 {
    let reader = WarcReader::new(Cursor::new(archive), config.clone()).expect("in memory");
    let mut records = 0;
    for entry in reader {
        match entry.expect("in memory") {
            Entry::Record(record) => {
                black_box(record.body.bytes());
                records += 1;
            }
            Entry::Skip(skip) => panic!("unexpected skip: {skip}"),
        }
    }
    records
}

fn bench_read(c: &mut Criterion) {
    let (archive, records) = archive();
    let all = ReaderConfig::default();
    let headers = ReaderConfig {
        keep_bodies: Some(Vec::new()),
        ..ReaderConfig::default()
    };
    assert_eq!(read_dbce(&archive, &all), records);
    for (name, throughput) in [
        ("read-bytes", Throughput::Bytes(archive.len() as u64)),
        ("read-records", Throughput::Elements(records)),
    ] {
        let mut group = c.benchmark_group(name);
        group.throughput(throughput);
        group.bench_function("flate2", |b| b.iter(|| read_flate2(black_box(&archive))));
        group.bench_function("dbce-all", |b| {
            b.iter(|| read_dbce(black_box(&archive), &all));
        });
        group.bench_function("dbce-headers", |b| {
            b.iter(|| read_dbce(black_box(&archive), &headers));
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench_read
}
criterion_main!(benches);

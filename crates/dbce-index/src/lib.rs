//! A tantivy index of cleaned pages and the search over it.
//!
//! The last stage of dbce writes each page's main content; this crate indexes those pages so
//! `dbce search` can find them and point back to the archive record each came from.
//!
//! The principal items are:
//! - [`IndexedPage`], one cleaned page with its source record's file, offset and length;
//! - [`build_index`] (and [`build_index_with`] an [`IndexConfig`]), which writes an index into
//!   a new directory and returns an [`IndexSummary`];
//! - [`search`], which parses a query in tantivy's language and returns ranked [`Hit`]s with
//!   highlighted snippets, from one index or from a directory of shard indexes searched as one
//!   (BM25 statistics summed over the shards: the hits and order one index would give);
//! - [`IndexError`], the one error type.
//!
//! **Schema.** A page's title and text are indexed by the analyser its language calls for
//! (`lang`, [`dbce_lang::writes_words_apart`]): in `title` and `text` with tantivy's `default`
//! analyzer (Unicode words, lowercased, tokens over 40 bytes dropped; no stemming or stop
//! words, so no language is favoured), or, for Chinese, Japanese, Korean, Thai, Khmer and
//! Burmese, in `title_cjk` and `text_cjk` with character n-grams ([`analyser`]); all four are
//! the default query fields; `lang` is untokenised (`lang:jpn`); `url`, `site` and `id` are untokenised, so
//! `site:example.com` filters exactly; `date` is a date field (seconds, indexed and fast) for
//! `date:[… TO …]`; the WARC-Date as written, `file`, `offset` and `length` are stored.
//!
//! **Determinism.** One indexing thread adds the pages in the given order and flushes a
//! segment whenever its memory budget fills; the segments are not merged (a build holds no
//! more than the budget, and at most [`IndexConfig::queue_bytes`] of pages waiting for the
//! thread, and never maps its own index back). Scores use statistics over all
//! segments, and equal scores rank in input order (each page's position, `seq`), so hits do
//! not depend on the memory budget's segment boundaries. The files are not byte-identical
//! between two builds of the same input: tantivy names segment files after a random UUID, which
//! `meta.json` lists too. The segment files' contents are identical; [`fingerprint`] hashes them
//! with `meta.json`'s settings and schema, leaving out the UUIDs, so two builds can be compared.
//!
//! **Replacement.** [`build_index`] writes into `DIR.tmp` and renames it to `DIR` at the end, so
//! `DIR` never holds half an index; it refuses a `DIR` that holds anything.
//!
//! ```
//! use dbce_index::{IndexedPage, build_index, search};
//!
//! let dir = tempfile::tempdir()?;
//! let index = dir.path().join("index");
//! let page = |n: u64, site: &str, title: &str, text: &str| IndexedPage {
//!     id: format!("<urn:uuid:{n}>"),
//!     url: format!("https://{site}/{n}"),
//!     site: site.to_owned(),
//!     date: "2024-05-01T12:00:00Z".to_owned(),
//!     lang: "eng".to_owned(),
//!     title: title.to_owned(),
//!     text: text.to_owned(),
//!     file: "crawl.warc.gz".to_owned(),
//!     offset: 1000 * n,
//!     length: 900,
//! };
//! let summary = build_index(&index, [
//!     page(1, "example.com", "Lighthouses", "The keeper climbed the lighthouse at dusk."),
//!     page(2, "example.org", "Harbours", "Ships wait in the harbour for the tide."),
//!     page(3, "example.org", "Lighthouse lenses", "A Fresnel lens focuses the lighthouse beam."),
//! ])?;
//! assert_eq!(summary.documents, 3);
//!
//! let hits = search(&index, "lighthouse", 10)?;
//! assert_eq!(hits.len(), 2);
//! assert_eq!(hits[0].url, "https://example.org/3"); // the title matches too
//! assert!(hits[0].snippet.contains("**lighthouse**"));
//! assert_eq!((hits[0].file.as_str(), hits[0].offset), ("crawl.warc.gz", 3000));
//!
//! let hits = search(&index, "lighthouse site:example.com", 10)?;
//! assert_eq!(hits.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod analyser;
mod error;
mod fingerprint;
mod queue;
mod schema;
mod search;
mod writer;

pub use error::IndexError;
pub use fingerprint::fingerprint;
pub use search::{HIGHLIGHT, Hit, SNIPPET_CHARS, search};
pub use writer::{IndexConfig, IndexSummary, IndexedPage, build_index, build_index_with};

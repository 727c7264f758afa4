//! Searching an index, or several shards of one as one: tantivy's query parser over `title`
//! and `text`, BM25 ranking with statistics over all shards, and a highlighted snippet of
//! `text` per hit.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use tantivy::collector::TopDocs;
use tantivy::collector::sort_key::{SortBySimilarityScore, SortByStaticFastValue};
use tantivy::query::{Bm25StatisticsProvider, Query, QueryParser};
use tantivy::schema::{Field, Schema, Value as _};
use tantivy::snippet::{Snippet, SnippetGenerator};
use tantivy::{
    DocAddress, Index, IndexReader, Order, ReloadPolicy, Score, Searcher, TantivyDocument, Term,
};

use crate::IndexError;
use crate::analyser::{CjkMode, tokenizers};
use crate::schema::{Fields, SEQ};

/// Longest snippet in characters, highlight marks not counted.
pub const SNIPPET_CHARS: usize = 200;

/// What marks a matched term in [`Hit::snippet`], before and after it: `**term**`.
pub const HIGHLIGHT: &str = "**";

/// Weight of a match in the title against one in the text.
const TITLE_BOOST: f32 = 2.0;

/// One page found by [`search`].
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// BM25 score (title matches count twice); hits come in decreasing score.
    pub score: f32,
    /// The source record's `WARC-Record-ID`.
    pub id: String,
    /// The page's URL.
    pub url: String,
    /// The page's site.
    pub site: String,
    /// The `WARC-Date` as written.
    pub date: String,
    /// The page's language (ISO 639-3; empty when unknown).
    pub lang: String,
    /// The page's title.
    pub title: String,
    /// Up to [`SNIPPET_CHARS`] characters of the text around the best-matching terms, with
    /// each match between [`HIGHLIGHT`] marks and all whitespace (line breaks between blocks
    /// too) as single spaces. When only the title or a filter matched, the text's beginning,
    /// unmarked.
    pub snippet: String,
    /// The source archive as it was given at build time.
    pub file: String,
    /// The source record's offset in `file`.
    pub offset: u64,
    /// The source record's length in `file`.
    pub length: u64,
}

/// Searches the index at `dir` and returns up to `limit` hits, best first.
///
/// `dir` is one index, or a directory of indexes, one per shard (each a subdirectory with its
/// own `meta.json`, as `dbce run` writes one per partition: `index/part-00000/`, …), searched
/// as one: see [`open_shards`] for which subdirectories count and [`ShardStatistics`] for why
/// the hits, their scores and their order are those one index of all the pages would give.
///
/// `query` is in tantivy's query language over the fields `title` and `text`: every term must
/// match unless `OR` says otherwise; `"…"` for phrases, `-term` to exclude, `site:example.com`
/// (exact, lowercase) to filter by site, `date:[2024-01-01T00:00:00Z TO 2024-07-01T00:00:00Z}`
/// for a date range, `lang:jpn` to filter by language, `url:"https://…"` and
/// `id:"<urn:uuid:…>"` for one page. Matching is on lowercased Unicode words, without stemming;
/// in pages of Chinese, Japanese, Korean, Thai, Khmer and Burmese on any sequence of
/// characters (`crate::analyser`). Equal scores keep the input order: the shards in order of
/// their names, and the pages of a shard in the order it was built from.
///
/// # Errors
/// [`IndexError::Missing`] if `dir` holds no index, [`IndexError::Query`] if `query` does not
/// parse, [`IndexError::Schema`] if an index was not written by this crate,
/// [`IndexError::ShardSchema`] if two shards' schemas differ, [`IndexError::Tantivy`] if an
/// index cannot be read.
pub fn search(dir: &Path, query: &str, limit: usize) -> Result<Vec<Hit>, IndexError> {
    let shards = open_shards(dir)?;
    let Some(first) = shards.first() else {
        return Err(IndexError::Missing { dir: dir.into() });
    };
    let fields = first.fields;
    let parsed = parse(first.index.schema(), &fields, query)?;
    if limit == 0 {
        return Ok(Vec::new());
    }
    let statistics = ShardStatistics(&shards);
    // Best score first; equal scores in input order: the shards in order, a shard's pages by
    // their position in its build input (`seq`), whichever segments they are in.
    let by_score_then_input = (
        SortBySimilarityScore,
        (SortByStaticFastValue::<u64>::for_field(SEQ), Order::Asc),
    );
    let mut top: Vec<(Score, usize, u64, DocAddress)> = Vec::new();
    for (number, shard) in shards.iter().enumerate() {
        let hits = shard
            .searcher
            .search_with_statistics_provider(
                &*parsed,
                &TopDocs::with_limit(limit).order_by(by_score_then_input.clone()),
                &statistics,
            )
            .map_err(IndexError::tantivy(&shard.dir))?;
        top.extend(
            hits.into_iter()
                .map(|((score, seq), address)| (score, number, seq.unwrap_or(u64::MAX), address)),
        );
    }
    top.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    top.truncate(limit);
    let snippets = [
        snippet_generator(first, &statistics, &*parsed, fields.text)?,
        snippet_generator(first, &statistics, &*parsed, fields.text_cjk)?,
    ];
    top.into_iter()
        .map(|(score, number, _, address)| {
            let shard = &shards[number];
            let document: TantivyDocument = shard
                .searcher
                .doc(address)
                .map_err(IndexError::tantivy(&shard.dir))?;
            Ok(hit(&fields, &document, score, &snippets))
        })
        .collect()
}

/// One open index of a sharded search.
struct Shard {
    /// Its directory.
    dir: PathBuf,
    /// The index.
    index: Index,
    /// Its fields.
    fields: Fields,
    /// A searcher over its segments.
    searcher: Searcher,
}

/// The shards of a search over `dir`, opened; their schemas must be the same.
///
/// # Errors
/// As [`index_dirs`]; [`IndexError::ShardSchema`] if two shards' schemas differ,
/// [`IndexError::Schema`] if one lacks a field, [`IndexError::Tantivy`] if one cannot be read.
fn open_shards(dir: &Path) -> Result<Vec<Shard>, IndexError> {
    let shards = index_dirs(dir)?
        .iter()
        .map(|dir| open(dir))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(first) = shards.first()
        && let Some(other) = shards
            .iter()
            .find(|shard| shard.index.schema() != first.index.schema())
    {
        return Err(IndexError::ShardSchema {
            dir: other.dir.clone(),
            first: first.dir.clone(),
        });
    }
    Ok(shards)
}

/// The indexes under `dir`: `dir` itself when it holds an index (`meta.json`); otherwise every
/// subdirectory that holds one, in order of name, except those named `*.tmp` (a build in
/// progress, [`crate::build_index`]).
///
/// # Errors
/// [`IndexError::Missing`] if `dir` does not exist or holds no index, [`IndexError::Io`] if it
/// cannot be listed.
pub(crate) fn index_dirs(dir: &Path) -> Result<Vec<PathBuf>, IndexError> {
    if dir.join(META).is_file() {
        return Ok(vec![dir.to_owned()]);
    }
    let entries = match fs::read_dir(dir) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(IndexError::Missing { dir: dir.into() });
        }
        entries => entries.map_err(IndexError::io(dir))?,
    };
    let mut dirs = Vec::new();
    for entry in entries {
        let path = entry.map_err(IndexError::io(dir))?.path();
        let in_progress = path.extension().is_some_and(|e| e == "tmp");
        if !in_progress && path.join(META).is_file() {
            dirs.push(path);
        }
    }
    dirs.sort();
    if dirs.is_empty() {
        return Err(IndexError::Missing { dir: dir.into() });
    }
    Ok(dirs)
}

/// The name of an index's metadata file, which marks a directory as an index.
pub(crate) const META: &str = "meta.json";

/// Opens the index at `dir` and resolves its fields.
fn open(dir: &Path) -> Result<Shard, IndexError> {
    let mut index = Index::open_in_dir(dir).map_err(IndexError::tantivy(dir))?;
    index.set_tokenizers(tokenizers(CjkMode::Index));
    let fields = Fields::resolve(&index.schema(), dir)?;
    let reader: IndexReader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()
        .map_err(IndexError::tantivy(dir))?;
    Ok(Shard {
        dir: dir.to_owned(),
        index,
        fields,
        searcher: reader.searcher(),
    })
}

/// BM25's statistics summed over all shards: documents, tokens per field, documents per term.
///
/// tantivy scores a document with the statistics of the searcher it is in; per shard, a term
/// rare in one shard and common in another would score differently in each, and the merged
/// order would depend on how pages fall into shards. Summed, every document gets the score it
/// would get in one index of all shards' pages (the sums are exact integers, and a document's
/// own field lengths are stored with it), so the merged top-k is that index's top-k. The cost
/// is one term-dictionary lookup per query term and shard, before the search.
struct ShardStatistics<'a>(&'a [Shard]);

impl Bm25StatisticsProvider for ShardStatistics<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        self.0
            .iter()
            .map(|shard| shard.searcher.total_num_tokens(field))
            .sum()
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        self.0
            .iter()
            .map(|shard| Bm25StatisticsProvider::total_num_docs(&shard.searcher))
            .sum()
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        self.0
            .iter()
            .map(|shard| shard.searcher.doc_freq(term))
            .sum()
    }
}

/// The snippet generator of `field` for `query`, with its terms weighted by their document
/// frequency over all shards (as tantivy's `SnippetGenerator::create` weighs them over one
/// index), so a hit's snippet does not depend on the shard it is in.
fn snippet_generator(
    shard: &Shard,
    statistics: &ShardStatistics<'_>,
    query: &dyn Query,
    field: Field,
) -> Result<SnippetGenerator, IndexError> {
    let mut terms: BTreeSet<&Term> = BTreeSet::new();
    query.query_terms(&mut |term, _| {
        if term.field() == field {
            terms.insert(term);
        }
    });
    let mut weights: BTreeMap<String, Score> = BTreeMap::new();
    for term in terms {
        let value = term.value();
        let Some(text) = value.as_str() else {
            continue;
        };
        let documents = statistics
            .doc_freq(term)
            .map_err(IndexError::tantivy(&shard.dir))?;
        if documents > 0 {
            weights.insert(text.to_owned(), 1.0 / (1.0 + documents as Score));
        }
    }
    let tokenizer = shard
        .index
        .tokenizer_for_field(field)
        .map_err(IndexError::tantivy(&shard.dir))?;
    Ok(SnippetGenerator::new(
        weights,
        tokenizer,
        field,
        SNIPPET_CHARS,
    ))
}

/// Parses `query` with the title and text fields of both analysers as default fields, all
/// terms required; n-gram fields read the query in [`CjkMode::Query`].
fn parse(schema: Schema, fields: &Fields, query: &str) -> Result<Box<dyn Query>, IndexError> {
    let mut parser = QueryParser::new(
        schema,
        vec![fields.title, fields.text, fields.title_cjk, fields.text_cjk],
        tokenizers(CjkMode::Query),
    );
    parser.set_conjunction_by_default();
    parser.set_field_boost(fields.title, TITLE_BOOST);
    parser.set_field_boost(fields.title_cjk, TITLE_BOOST);
    parser
        .parse_query(query)
        .map_err(|error| IndexError::Query {
            query: query.to_owned(),
            message: error.to_string(),
        })
}

/// The hit of a stored document.
fn hit(
    fields: &Fields,
    document: &TantivyDocument,
    score: f32,
    snippets: &[SnippetGenerator; 2],
) -> Hit {
    // A page's title and text are in the word fields or in the n-gram fields, never both.
    let cjk = document.get_first(fields.text_cjk).is_some();
    let (title, text, snippets) = if cjk {
        (fields.title_cjk, fields.text_cjk, &snippets[1])
    } else {
        (fields.title, fields.text, &snippets[0])
    };
    let text = stored_str(document, text);
    let snippet = snippets.snippet(text);
    Hit {
        score,
        id: stored_str(document, fields.id).to_owned(),
        url: stored_str(document, fields.url).to_owned(),
        site: stored_str(document, fields.site).to_owned(),
        date: stored_str(document, fields.warc_date).to_owned(),
        title: stored_str(document, title).to_owned(),
        lang: stored_str(document, fields.lang).to_owned(),
        snippet: if snippet.is_empty() {
            leading_text(text, SNIPPET_CHARS)
        } else {
            highlight(&snippet)
        },
        file: stored_str(document, fields.file).to_owned(),
        offset: stored_u64(document, fields.offset),
        length: stored_u64(document, fields.length),
    }
}

/// The stored text of `field`, empty if absent.
fn stored_str(document: &TantivyDocument, field: Field) -> &str {
    document
        .get_first(field)
        .and_then(|value| value.as_str())
        .unwrap_or_default()
}

/// The stored number of `field`, 0 if absent.
fn stored_u64(document: &TantivyDocument, field: Field) -> u64 {
    document
        .get_first(field)
        .and_then(|value| value.as_u64())
        .unwrap_or_default()
}

/// The snippet's fragment with its matches marked and whitespace collapsed.
fn highlight(snippet: &Snippet) -> String {
    let fragment = snippet.fragment();
    let mut marked = String::with_capacity(fragment.len() + 16);
    let mut from = 0;
    for range in tantivy::snippet::collapse_overlapped_ranges(snippet.highlighted()) {
        marked.push_str(&fragment[from..range.start]);
        marked.push_str(HIGHLIGHT);
        marked.push_str(&fragment[range.clone()]);
        marked.push_str(HIGHLIGHT);
        from = range.end;
    }
    marked.push_str(&fragment[from..]);
    collapse_whitespace(&marked)
}

/// The beginning of `text`, at most `max_chars` characters, ending at a word boundary.
fn leading_text(text: &str, max_chars: usize) -> String {
    let text = collapse_whitespace(text);
    match text.char_indices().nth(max_chars) {
        None => text,
        Some((cut, next)) => {
            let head = &text[..cut];
            let end = if next.is_whitespace() {
                cut
            } else {
                head.rfind(' ').unwrap_or(cut)
            };
            text[..end].to_owned()
        }
    }
}

/// `text` with every run of whitespace as one space, trimmed.
fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_whose_schemas_differ_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let page = crate::IndexedPage {
            title: "Lighthouse".to_owned(),
            ..Default::default()
        };
        crate::build_index(&tmp.path().join("part-00000"), [page]).unwrap();
        // Every field of this crate and one more, as another version might write.
        let (schema, _) = Fields::schema();
        let mut builder = Schema::builder();
        for (_, entry) in schema.fields() {
            builder.add_field(entry.clone());
        }
        builder.add_text_field("extra", tantivy::schema::TEXT);
        let other = tmp.path().join("part-00001");
        fs::create_dir(&other).unwrap();
        Index::create_in_dir(&other, builder.build()).unwrap();
        let error = search(tmp.path(), "lighthouse", 10).err();
        assert!(
            matches!(&error, Some(IndexError::ShardSchema { dir, .. }) if *dir == other),
            "{error:?}"
        );
    }

    #[test]
    fn leading_text_cuts_at_a_word_boundary() {
        assert_eq!(leading_text("alpha beta\ngamma", 100), "alpha beta gamma");
        assert_eq!(leading_text("alpha beta gamma", 12), "alpha beta");
        assert_eq!(leading_text("alpha beta gamma", 10), "alpha beta");
        assert_eq!(leading_text("alphabetagamma", 5), "alpha");
        assert_eq!(leading_text("ééééé ééé", 7), "ééééé");
        assert_eq!(leading_text("", 5), "");
    }

    #[test]
    fn collapse_whitespace_joins_lines() {
        assert_eq!(collapse_whitespace("  a\n\n b\tc  "), "a b c");
    }
}

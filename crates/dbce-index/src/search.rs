//! Searching an index: tantivy's query parser over `title` and `text`, BM25 ranking, and a
//! highlighted snippet of `text` per hit.

use std::path::Path;

use tantivy::collector::TopDocs;
use tantivy::query::{Query, QueryParser};
use tantivy::schema::{Field, Value as _};
use tantivy::snippet::{Snippet, SnippetGenerator};
use tantivy::{Index, IndexReader, ReloadPolicy, TantivyDocument};

use crate::IndexError;
use crate::analyser::{CjkMode, tokenizers};
use crate::schema::Fields;

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
/// `query` is in tantivy's query language over the fields `title` and `text`: every term must
/// match unless `OR` says otherwise; `"…"` for phrases, `-term` to exclude, `site:example.com`
/// (exact, lowercase) to filter by site, `date:[2024-01-01T00:00:00Z TO 2024-07-01T00:00:00Z}`
/// for a date range, `lang:jpn` to filter by language, `url:"https://…"` and
/// `id:"<urn:uuid:…>"` for one page. Matching is on lowercased Unicode words, without stemming;
/// in pages of Chinese, Japanese, Korean, Thai, Khmer and Burmese on any sequence of
/// characters (`crate::analyser`). Equal scores keep the index's (input) order.
///
/// # Errors
/// [`IndexError::Missing`] if `dir` holds no index, [`IndexError::Query`] if `query` does not
/// parse, [`IndexError::Tantivy`] if the index cannot be read.
pub fn search(dir: &Path, query: &str, limit: usize) -> Result<Vec<Hit>, IndexError> {
    let (index, fields) = open(dir)?;
    let reader: IndexReader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()
        .map_err(IndexError::tantivy(dir))?;
    let searcher = reader.searcher();
    let parsed = parse(&index, &fields, query)?;
    if limit == 0 {
        return Ok(Vec::new());
    }
    let top = searcher
        .search(&parsed, &TopDocs::with_limit(limit).order_by_score())
        .map_err(IndexError::tantivy(dir))?;
    let snippets = |field| {
        let mut snippets = SnippetGenerator::create(&searcher, &*parsed, field)
            .map_err(IndexError::tantivy(dir))?;
        snippets.set_max_num_chars(SNIPPET_CHARS);
        Ok::<_, IndexError>(snippets)
    };
    let snippets = [snippets(fields.text)?, snippets(fields.text_cjk)?];
    top.into_iter()
        .map(|(score, address)| {
            let document: TantivyDocument =
                searcher.doc(address).map_err(IndexError::tantivy(dir))?;
            Ok(hit(&fields, &document, score, &snippets))
        })
        .collect()
}

/// Opens the index at `dir` and resolves its fields.
fn open(dir: &Path) -> Result<(Index, Fields), IndexError> {
    if !dir.join("meta.json").is_file() {
        return Err(IndexError::Missing { dir: dir.into() });
    }
    let mut index = Index::open_in_dir(dir).map_err(IndexError::tantivy(dir))?;
    index.set_tokenizers(tokenizers(CjkMode::Index));
    let fields = Fields::resolve(&index.schema(), dir)?;
    Ok((index, fields))
}

/// Parses `query` with the title and text fields of both analysers as default fields, all
/// terms required; n-gram fields read the query in [`CjkMode::Query`].
fn parse(index: &Index, fields: &Fields, query: &str) -> Result<Box<dyn Query>, IndexError> {
    let mut parser = QueryParser::new(
        index.schema(),
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

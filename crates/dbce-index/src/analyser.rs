//! The analysers of the index: words for languages written with spaces, and character
//! n-grams for scripts whose words are not separated ([`CjkTokenizer`]).
//!
//! tantivy's `default` analyser splits text at every character that is not a letter or digit,
//! so a line of Japanese (`港の近くで新しい図書館が開館しました`) is one token, dropped for
//! its length: nothing in it could be found. Pages in Chinese, Japanese, Korean, Thai, Khmer
//! and Burmese ([`dbce_lang::writes_words_apart`] is false) are therefore indexed in fields of
//! their own with [`CJK`]: every character of those scripts is a unigram and, with its
//! successor, a bigram at the same position (Lucene's CJK bigrams with unigrams); letters and
//! digits of other scripts stay whole words. At query time the same field is read with
//! [`CjkMode::Query`]: a run of two or more such characters becomes its bigrams, which the query
//! parser joins into a phrase, so `図書館` matches exactly the pages that contain `図書館`; a
//! single character stays a unigram, so one-character words are found too.

use tantivy::tokenizer::{
    LowerCaser, RemoveLongFilter, TextAnalyzer, Token, TokenStream, Tokenizer, TokenizerManager,
};

/// The name under which the n-gram analyser is registered.
pub const CJK: &str = "dbce_cjk";

/// Tokens longer than this many bytes are dropped (tantivy's `default` analyser does the same).
const MAX_TOKEN_BYTES: usize = 40;

/// Whether a tokenizer analyses a document or a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CjkMode {
    /// Unigrams and bigrams of n-gram scripts: every substring of one or more characters can be
    /// matched.
    Index,
    /// Bigrams of n-gram runs (a unigram for a run of one character): the fewest terms that
    /// match a substring of the indexed text as a phrase.
    Query,
}

/// Words of space-separated scripts and character n-grams of Han, kana, Hangul, Thai, Lao,
/// Khmer and Myanmar text, in the given [`CjkMode`].
#[derive(Debug, Clone, Copy)]
pub struct CjkTokenizer {
    mode: CjkMode,
}

impl CjkTokenizer {
    /// A tokenizer in `mode`.
    pub fn new(mode: CjkMode) -> Self {
        Self { mode }
    }
}

/// The tokens of one text, computed when the stream is made.
#[derive(Debug)]
pub struct CjkTokenStream {
    tokens: Vec<Token>,
    next: usize,
}

impl Tokenizer for CjkTokenizer {
    type TokenStream<'a> = CjkTokenStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> CjkTokenStream {
        CjkTokenStream {
            tokens: tokens(text, self.mode),
            next: 0,
        }
    }
}

impl TokenStream for CjkTokenStream {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

/// The analyser of n-gram fields in `mode`: [`CjkTokenizer`], long tokens removed, lowercase.
pub fn cjk_analyser(mode: CjkMode) -> TextAnalyzer {
    TextAnalyzer::builder(CjkTokenizer::new(mode))
        .filter(RemoveLongFilter::limit(MAX_TOKEN_BYTES))
        .filter(LowerCaser)
        .build()
}

/// tantivy's analysers with [`CJK`] registered in `mode`: the index's own in
/// [`CjkMode::Index`], the query parser's in [`CjkMode::Query`].
pub(crate) fn tokenizers(mode: CjkMode) -> TokenizerManager {
    let manager = TokenizerManager::default();
    manager.register(CJK, cjk_analyser(mode));
    manager
}

/// Whether `c` belongs to a script written without spaces between words (or, for Hangul, with
/// particles attached to words), which the index splits into characters.
fn is_ngram_char(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}'      // Thai, Lao
        | '\u{1000}'..='\u{109F}'    // Myanmar
        | '\u{1100}'..='\u{11FF}'    // Hangul Jamo
        | '\u{1780}'..='\u{17FF}'    // Khmer
        | '\u{3005}'..='\u{3007}'    // 々 〆 〇
        | '\u{3040}'..='\u{30FF}'    // Hiragana, Katakana
        | '\u{3130}'..='\u{318F}'    // Hangul compatibility Jamo
        | '\u{31F0}'..='\u{31FF}'    // Katakana phonetic extensions
        | '\u{3400}'..='\u{4DBF}'    // CJK extension A
        | '\u{4E00}'..='\u{9FFF}'    // CJK unified ideographs
        | '\u{AC00}'..='\u{D7AF}'    // Hangul syllables
        | '\u{F900}'..='\u{FAFF}'    // CJK compatibility ideographs
        | '\u{FF66}'..='\u{FF9F}'    // halfwidth Katakana
        | '\u{20000}'..='\u{3FFFF}' // CJK extensions B and later
    ) && c != '\u{30FB}' // ・, a separator
}

/// The tokens of `text`: runs of letters and digits are words, except that runs of n-gram
/// characters within them become n-grams (one position per character).
fn tokens(text: &str, mode: CjkMode) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut position = 0;
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if is_ngram_char(c) {
            let mut run = Vec::new();
            while let Some(&(offset, c)) = chars.peek().filter(|(_, c)| is_ngram_char(*c)) {
                run.push((offset, offset + c.len_utf8()));
                chars.next();
            }
            ngrams(text, &run, mode, &mut position, &mut tokens);
        } else if c.is_alphanumeric() {
            let mut end = start;
            while let Some(&(offset, c)) = chars
                .peek()
                .filter(|(_, c)| c.is_alphanumeric() && !is_ngram_char(*c))
            {
                end = offset + c.len_utf8();
                chars.next();
            }
            tokens.push(token(text, start, end, position));
            position += 1;
        } else {
            chars.next();
        }
    }
    tokens
}

/// The n-grams of one run of n-gram characters (their byte ranges in `text`).
fn ngrams(
    text: &str,
    run: &[(usize, usize)],
    mode: CjkMode,
    position: &mut usize,
    tokens: &mut Vec<Token>,
) {
    for (i, &(start, end)) in run.iter().enumerate() {
        let next = run.get(i + 1);
        let unigram = match mode {
            CjkMode::Index => true,
            CjkMode::Query => run.len() == 1,
        };
        if unigram {
            tokens.push(token(text, start, end, *position));
        }
        if let Some(&(_, next_end)) = next {
            tokens.push(token(text, start, next_end, *position));
        }
        *position += 1;
    }
}

fn token(text: &str, from: usize, to: usize, position: usize) -> Token {
    Token {
        offset_from: from,
        offset_to: to,
        position,
        text: text[from..to].to_owned(),
        position_length: 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str, mode: CjkMode) -> Vec<(String, usize)> {
        let mut analyser = cjk_analyser(mode);
        let mut stream = analyser.token_stream(text);
        let mut out = Vec::new();
        while let Some(token) = stream.next() {
            out.push((token.text.clone(), token.position));
        }
        out
    }

    #[test]
    fn japanese_is_indexed_as_unigrams_and_bigrams_and_queried_as_bigrams() {
        let index = texts("図書館が", CjkMode::Index);
        let expected = [
            ("図", 0),
            ("図書", 0),
            ("書", 1),
            ("書館", 1),
            ("館", 2),
            ("館が", 2),
            ("が", 3),
        ];
        let expected: Vec<(String, usize)> = expected
            .iter()
            .map(|(t, p)| ((*t).to_owned(), *p))
            .collect();
        assert_eq!(index, expected);
        let query = texts("図書館", CjkMode::Query);
        assert_eq!(query, [("図書".to_owned(), 0), ("書館".to_owned(), 1)]);
        assert_eq!(texts("港", CjkMode::Query), [("港".to_owned(), 0)]);
    }

    #[test]
    fn other_scripts_stay_words_lowercased_with_offsets() {
        let mut analyser = cjk_analyser(CjkMode::Index);
        let mut stream = analyser.token_stream("Tokyo 2024年、東京");
        let mut tokens = Vec::new();
        while let Some(token) = stream.next() {
            tokens.push((token.text.clone(), token.offset_from, token.offset_to));
        }
        assert_eq!(
            tokens,
            [
                ("tokyo".to_owned(), 0, 5),
                ("2024".to_owned(), 6, 10),
                ("年".to_owned(), 10, 13),
                ("東".to_owned(), 16, 19),
                ("東京".to_owned(), 16, 22),
                ("京".to_owned(), 19, 22),
            ]
        );
    }

    #[test]
    fn thai_vowel_marks_stay_inside_the_run() {
        // สวัสดี has two combining vowel marks, which are not alphanumeric.
        let query = texts("สวัสดี", CjkMode::Query);
        assert_eq!(query.len(), 5);
        assert_eq!(query[1].0, "วั");
    }

    #[test]
    fn punctuation_and_empty_text_give_no_tokens() {
        assert!(texts("", CjkMode::Index).is_empty());
        assert!(texts("、。・!?", CjkMode::Index).is_empty());
    }
}

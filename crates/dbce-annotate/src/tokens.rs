//! The word tokens of lxml's `html_annotate`, read off a sanitised DOM.
//!
//! lxml splits the body's text with `\S+(?:\s+|$)` and attaches the surrounding tags to the
//! words; matching compares the words only (project note `notes/html-annotate.md`). Two
//! consecutive words have no tag between them exactly when they lie in the same text node,
//! because the parser merges adjacent character data. So a token here is a word and its place:
//! the text node and the byte range within it. Words are interned, so a matcher compares
//! integers, and tokens of different pages read with one [`Interner`] compare equal when their
//! words do.

use std::collections::HashMap;

use dbce_dom::{Document, NodeId, NodeKind};

/// Numbers words: the same word gets the same [`WordId`] for every page read with this
/// interner.
#[derive(Debug, Default)]
pub struct Interner {
    ids: HashMap<Box<str>, WordId>,
}

/// A word, as numbered by an [`Interner`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WordId(pub u32);

impl Interner {
    /// An empty interner.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `word`, numbering it if it is new.
    pub fn intern(&mut self, word: &str) -> WordId {
        if let Some(&id) = self.ids.get(word) {
            return id;
        }
        let id = WordId(u32::try_from(self.ids.len()).unwrap_or(u32::MAX));
        self.ids.insert(word.into(), id);
        id
    }

    /// How many distinct words it has numbered.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether it has numbered no word yet.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// Where a token lies: a byte range of one text node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenPlace {
    /// The text node.
    pub node: NodeId,
    /// First byte of the word in the node's text.
    pub start: u32,
    /// One past its last byte (trailing whitespace excluded).
    pub end: u32,
}

/// A page's body as `html_annotate` tokens: the words in document order and where each lies.
#[derive(Debug, Clone, Default)]
pub struct PageTokens {
    /// The words, as numbered by the interner the page was read with.
    pub words: Vec<WordId>,
    /// Where each word lies, index for index.
    pub places: Vec<TokenPlace>,
}

impl PageTokens {
    /// The tokens of `doc`'s body (of the whole document if it has no `<body>`), with words
    /// numbered by `interner`. Text in `<head>` and `<title>` is not part of the body and is
    /// left out, as lxml's `cleanup_html` does.
    pub fn read(doc: &Document, interner: &mut Interner) -> Self {
        let mut tokens = Self::default();
        let scope = doc.body().unwrap_or_else(|| doc.root());
        for node in scope.descendants() {
            if node.kind() != NodeKind::Text || is_in_head(node) {
                continue;
            }
            let text = node.text().unwrap_or_default();
            for (start, word) in words(text) {
                tokens.words.push(interner.intern(word));
                tokens.places.push(TokenPlace {
                    node: node.id(),
                    start: to_u32(start),
                    end: to_u32(start + word.len()),
                });
            }
        }
        tokens
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the page has no words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// Whether a node lies in `<head>` (a body-less document keeps its head in scope).
fn is_in_head(node: dbce_dom::NodeRef<'_>) -> bool {
    node.ancestors()
        .any(|a| matches!(a.name(), Some("head" | "title")))
}

/// The words of `text` (maximal runs of non-whitespace) with their byte offsets: Python's
/// `\S+` over a `str`, where whitespace is Unicode whitespace.
pub fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = text;
    let mut offset = 0;
    std::iter::from_fn(move || {
        let skip = rest.find(|c: char| !c.is_whitespace())?;
        let start = offset + skip;
        let word_rest = &rest[skip..];
        let len = word_rest
            .find(char::is_whitespace)
            .unwrap_or(word_rest.len());
        let word = &word_rest[..len];
        rest = &word_rest[len..];
        offset = start + len;
        Some((start, word))
    })
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbce_dom::SanitizeConfig;

    #[test]
    fn words_carry_offsets_and_split_on_unicode_whitespace() {
        let found: Vec<_> = words("  Goodbye\u{a0}big\n World ").collect();
        assert_eq!(found, [(2, "Goodbye"), (11, "big"), (16, "World")]);
        assert_eq!(words(" \t ").count(), 0);
    }

    #[test]
    fn tokens_are_body_words_in_document_order() {
        let doc = Document::parse(
            "<html><head><title>T x</title></head><body><p>Goodbye <b>big</b> World</p>\
             <div>menu home</div></body></html>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let mut interner = Interner::new();
        let tokens = PageTokens::read(&doc, &mut interner);
        assert_eq!(tokens.len(), 5);
        let text: Vec<&str> = tokens
            .places
            .iter()
            .map(|p| {
                let node = doc.get(p.node).unwrap().text().unwrap();
                &node[p.start as usize..p.end as usize]
            })
            .collect();
        assert_eq!(text, ["Goodbye", "big", "World", "menu", "home"]);
        // "Goodbye" and "World" are in different text nodes: a tag lies between.
        assert_ne!(tokens.places[0].node, tokens.places[2].node);
        assert_eq!(tokens.places[3].node, tokens.places[4].node);
    }

    #[test]
    fn one_interner_makes_pages_comparable() {
        let mut interner = Interner::new();
        let parse = |html| Document::parse(html, &SanitizeConfig::default()).unwrap();
        let a = PageTokens::read(&parse("<p>x y z</p>"), &mut interner);
        let b = PageTokens::read(&parse("<div>z <i>y</i></div>"), &mut interner);
        assert_eq!(a.words[2], b.words[0]);
        assert_eq!(a.words[1], b.words[1]);
        assert_eq!(interner.len(), 3);
    }
}

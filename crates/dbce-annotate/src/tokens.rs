//! The word tokens of lxml's `html_annotate`, read off a sanitised DOM.
//!
//! lxml splits the body's text with `\S+(?:\s+|$)` and attaches the surrounding tags to the
//! words; matching compares the words only (project note `notes/html-annotate.md`). Two
//! consecutive words have no tag between them exactly when they lie in the same text node,
//! because the parser merges adjacent character data. So a token here is a word and its place:
//! the text node and the byte range within it. Words are hashed ([`WordId`]), so a matcher
//! compares integers.

use dbce_dom::{Document, NodeId, NodeKind, words};

/// A word as a 64-bit FNV-1a hash of its text: equal words get equal ids on every page, with
/// no table to share between threads or tasks. Two different words of a page pair collide with
/// probability about 2⁻⁶⁴ per pair of distinct words, far below anything that could change a
/// diff in practice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WordId(pub u64);

impl WordId {
    /// The id of `word`.
    pub fn of(word: &str) -> Self {
        Self(word.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
            (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        }))
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
    /// The words.
    pub words: Vec<WordId>,
    /// Where each word lies, index for index.
    pub places: Vec<TokenPlace>,
}

impl PageTokens {
    /// The tokens of `doc`'s body (of the whole document if it has no `<body>`). Text in `<head>` and `<title>` is not part of the body and is
    /// left out, as lxml's `cleanup_html` does.
    pub fn read(doc: &Document) -> Self {
        let mut tokens = Self::default();
        let scope = doc.body().unwrap_or_else(|| doc.root());
        // Ids follow document order: a `<head>` or `<title>` (the parser puts a stray
        // `<title>` in the body) is skipped with everything inside it by going on at its end.
        let mut skip_to = 0;
        for node in scope.descendants() {
            if node.id().get() < skip_to {
                continue;
            }
            match node.kind() {
                NodeKind::Element if matches!(node.name(), Some("head" | "title")) => {
                    skip_to = node.end();
                }
                NodeKind::Text => tokens.push_words(node),
                _ => {}
            }
        }
        tokens
    }

    /// The words of the text node `node`, each with its place.
    fn push_words(&mut self, node: dbce_dom::NodeRef<'_>) {
        let text = node.text().unwrap_or_default();
        for (start, word) in words(text) {
            self.words.push(WordId::of(word));
            self.places.push(TokenPlace {
                node: node.id(),
                start: to_u32(start),
                end: to_u32(start + word.len()),
            });
        }
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

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbce_dom::SanitizeConfig;

    #[test]
    fn tokens_are_body_words_in_document_order() {
        let doc = Document::parse(
            "<html><head><title>T x</title></head><body><p>Goodbye <b>big</b> World</p>\
             <div>menu home</div></body></html>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let tokens = PageTokens::read(&doc);
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

    /// The words `read` finds, as text.
    fn word_texts(doc: &Document) -> Vec<&str> {
        let tokens = PageTokens::read(doc);
        tokens
            .places
            .iter()
            .map(|p| &doc.get(p.node).unwrap().text().unwrap()[p.start as usize..p.end as usize])
            .collect()
    }

    #[test]
    fn titles_anywhere_and_the_head_are_left_out() {
        let parse = |html| Document::parse(html, &SanitizeConfig::default()).unwrap();
        // A `<title>` in the body stays there (HTML5 puts it where it stands); the text after
        // it is read again.
        let doc = parse("<p>a <title>b c</title> d</p><div><title>e</title></div><p>g</p>");
        assert_eq!(word_texts(&doc), ["a", "d", "g"]);
        // The same words as asking each text node whether an ancestor is `<head>`/`<title>`.
        let by_ancestors: Vec<&str> = doc
            .body()
            .unwrap()
            .descendants()
            .filter(|n| {
                !n.ancestors()
                    .any(|a| matches!(a.name(), Some("head" | "title")))
            })
            .filter_map(|n| n.text())
            .flat_map(|t| words(t).map(|(_, w)| w))
            .collect();
        assert_eq!(word_texts(&doc), by_ancestors);
    }

    #[test]
    fn equal_words_have_equal_ids_across_pages() {
        let parse = |html| Document::parse(html, &SanitizeConfig::default()).unwrap();
        let a = PageTokens::read(&parse("<p>x y z</p>"));
        let b = PageTokens::read(&parse("<div>z <i>y</i></div>"));
        assert_eq!(a.words[2], b.words[0]);
        assert_eq!(a.words[1], b.words[1]);
        assert_ne!(a.words[0], a.words[1]);
        // FNV-1a 64 test vector.
        assert_eq!(WordId::of("a").0, 0xaf63_dc4c_8601_ec8c);
    }
}

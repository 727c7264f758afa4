//! Visible text: text runs for the later stages and a plain-text rendering.
//!
//! Visible means outside `<head>` and `<title>`, after sanitising; no CSS is evaluated, so text
//! hidden by a style is still visible here.

use std::fmt;

use crate::document::{Document, NodeRef};
use crate::node::{NodeId, NodeKind};

/// Position of a [`TextRun`] among the runs of its document, counted from 0 in document order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TextRunId(u32);

impl TextRunId {
    /// The id with this position.
    pub const fn new(index: u32) -> Self {
        Self(index)
    }

    /// The position in document order.
    pub const fn get(self) -> u32 {
        self.0
    }
}

impl fmt::Display for TextRunId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "run {}", self.0)
    }
}

/// A visible text node that is not only whitespace. Adjacent text is merged while parsing, so a
/// run is all the character data between two element boundaries.
#[derive(Debug, Clone, Copy)]
pub struct TextRun<'a> {
    /// Position among the document's runs.
    pub id: TextRunId,
    /// The text node; its ancestors are `doc.get(node)?.ancestors()`.
    pub node: NodeId,
    /// The text as in the page, whitespace included.
    pub text: &'a str,
}

/// Iterator over the text runs of a document, from [`Document::text_runs`].
#[derive(Debug, Clone)]
pub struct TextRuns<'a> {
    doc: &'a Document,
    next: u32,
    count: u32,
}

impl<'a> Iterator for TextRuns<'a> {
    type Item = TextRun<'a>;

    fn next(&mut self) -> Option<TextRun<'a>> {
        loop {
            let node = self.doc.get(NodeId::new(self.next))?;
            self.next += 1;
            if is_hidden(node) {
                self.next = node.end();
                continue;
            }
            let Some(text) = node.text() else { continue };
            if text.chars().all(char::is_whitespace) {
                continue;
            }
            let id = TextRunId(self.count);
            self.count += 1;
            return Some(TextRun {
                id,
                node: node.id(),
                text,
            });
        }
    }
}

/// Elements whose text a browser does not show in the page.
fn is_hidden(node: NodeRef<'_>) -> bool {
    matches!(node.name(), Some("head" | "title"))
}

/// Whether an element of this (lowercase) name starts and ends a line of text, as block-level
/// elements do in a browser: the line breaks of [`Document::visible_text`] and of every text
/// rendering built with [`Document::visible_text_with`].
pub fn is_block_element(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "body"
            | "caption"
            | "center"
            | "dd"
            | "details"
            | "dialog"
            | "dir"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "frameset"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "html"
            | "legend"
            | "li"
            | "listing"
            | "main"
            | "menu"
            | "nav"
            | "ol"
            | "optgroup"
            | "option"
            | "p"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "ul"
    )
}

impl Document {
    /// The visible text nodes with something other than whitespace, in document order.
    pub fn text_runs(&self) -> TextRuns<'_> {
        TextRuns {
            doc: self,
            next: 0,
            count: 0,
        }
    }

    /// All visible text, one line per block element (and per `<br>`), with whitespace
    /// collapsed: the "keep all visible text" baseline, and a view for debugging.
    pub fn visible_text(&self) -> String {
        self.visible_text_with(|_, text, out| out.push_text(text))
    }

    /// Visible text with the line structure of [`visible_text`](Self::visible_text), where
    /// `emit` decides what of each text node goes out: it is called with the node and its text
    /// and pushes what it keeps (all of it, parts, or nothing) to the [`TextLines`]. It is not
    /// called for text no reader sees as words: `<head>`, `<title>`, and a heading's permalink
    /// (an `<a href="#…">` whose only text is a mark such as `¶`).
    pub fn visible_text_with(&self, mut emit: impl FnMut(NodeId, &str, &mut TextLines)) -> String {
        let mut out = TextLines::default();
        // Ends of the open block elements, innermost last.
        let mut block_ends: Vec<u32> = Vec::new();
        // The end of the outermost open preformatted element, and of the outermost `<code>`.
        let mut preformatted_end: Option<u32> = None;
        let mut code_end: Option<u32> = None;
        // The element holding the last text node that had a word, and whether that text has
        // two characters or more (`TextLines::side_by_side`).
        let mut last_text: Option<(NodeRef<'_>, bool)> = None;
        let mut next = 0;
        while let Some(node) = self.get(NodeId::new(next)) {
            while block_ends.last().is_some_and(|&end| next >= end) {
                block_ends.pop();
                out.line_break();
            }
            if preformatted_end.is_some_and(|end| next >= end) {
                preformatted_end = None;
            }
            if code_end.is_some_and(|end| next >= end) {
                code_end = None;
            }
            out.preformatted = preformatted_end.is_some();
            next += 1;
            let name = node.name();
            if code_end.is_none() && name == Some("code") {
                code_end = Some(node.end());
            }
            match (node.kind(), name) {
                (NodeKind::Text, _) => {
                    let text = node.text().unwrap_or_default();
                    let trimmed = text.trim();
                    let long = trimmed.chars().nth(1).is_some();
                    let parent = node.parent();
                    out.side_by_side = preformatted_end.is_none()
                        && code_end.is_none()
                        && long
                        && last_text
                            .zip(parent)
                            .is_some_and(|((before, was_long), parent)| {
                                was_long && !contains(before, parent) && !contains(parent, before)
                            });
                    emit(node.id(), text, &mut out);
                    out.side_by_side = false;
                    if let Some(parent) = parent.filter(|_| !trimmed.is_empty()) {
                        last_text = Some((parent, long));
                    }
                }
                (_, Some("br")) => out.line_break(),
                (_, Some(name)) if is_block_element(name) || is_preformatted(name) => {
                    out.line_break();
                    block_ends.push(node.end());
                    if is_preformatted(name) && preformatted_end.is_none() {
                        preformatted_end = Some(node.end());
                    }
                }
                _ if is_hidden(node) => next = node.end(),
                (_, Some("a")) if is_permalink(node) => next = node.end(),
                _ if preformatted_end.is_some() && is_code_line(node) => {
                    out.line_break();
                    block_ends.push(node.end());
                }
                _ => {}
            }
        }
        out.finish()
    }

    /// The words of the body's (or frameset's) text nodes ([`word_count`] of
    /// each), counted up to `most`: the answer is `most` for a body with at least that many.
    pub(crate) fn shown_words(&self, most: usize) -> usize {
        let Some(body) = self.body() else {
            return 0;
        };
        let mut words = 0;
        for id in body.id().get() + 1..body.end() {
            if let Some(text) = self.get(NodeId::new(id)).and_then(NodeRef::text) {
                words += word_count(text);
                if words >= most {
                    return most;
                }
            }
        }
        words
    }
}

/// Whether `outer` is `inner` or one of its ancestors (ids are in document order, and an
/// element's descendants follow it up to its end).
fn contains(outer: NodeRef<'_>, inner: NodeRef<'_>) -> bool {
    (outer.id()..NodeId::new(outer.end())).contains(&inner.id())
}

/// The marks a heading's or a definition's permalink shows: the pilcrow (Sphinx, MkDocs), the
/// section sign (rustdoc), the hash (Hugo, VuePress, Zola) and link symbols.
const PERMALINK_MARKS: [&str; 5] = ["¶", "§", "#", "🔗", "⚓"];

/// Whether the `<a>` element `node` is a permalink: a link to an anchor of the page itself
/// (`href="#…"`) whose only text is one of [`PERMALINK_MARKS`]. Documentation generators put one
/// after each heading and signature (`Usage<a class="headerlink" href="#usage">¶</a>`); it is
/// not part of the heading's words, and in the text it glued to the last one (`Usage¶`).
fn is_permalink(node: NodeRef<'_>) -> bool {
    if !node.attr("href").is_some_and(|href| href.starts_with('#')) {
        return false;
    }
    let mut words = node
        .descendants()
        .filter_map(NodeRef::text)
        .map(str::trim)
        .filter(|text| !text.is_empty());
    words
        .next()
        .is_some_and(|mark| PERMALINK_MARKS.contains(&mark))
        && words.next().is_none()
}

/// Whether `node`, inside a `<pre>`, is one line of highlighted code: an element with a class
/// `line` or ending in `-line` or `_line` (`token-line`, `gatsby-highlight-code-line`,
/// `cm-line`). Highlighters write each line of code as such an element, and some write no line
/// break between two of them: the style sheet shows each as a block. Without it, a line's
/// `// comment` would run into the next line's code, and `my-project` into `cd`. Other classes
/// naming lines (`line-numbers`, `line-through`, `highlight-line-content`) are not lines.
fn is_code_line(node: NodeRef<'_>) -> bool {
    node.attr("class").is_some_and(|class| {
        class.split_ascii_whitespace().any(|token| {
            let token = token.as_bytes();
            let tail = &token[token.len().saturating_sub(5)..];
            token.eq_ignore_ascii_case(b"line")
                || token.len() > 5
                    && (tail.eq_ignore_ascii_case(b"-line") || tail.eq_ignore_ascii_case(b"_line"))
        })
    })
}

/// Whether elements of this name show their text's line breaks (`<pre>` and its obsolete
/// kin, which browsers show as blocks too).
pub fn is_preformatted(name: &str) -> bool {
    matches!(name, "pre" | "listing" | "xmp" | "plaintext")
}

/// Text with collapsed whitespace, built line by line: the output of
/// [`Document::visible_text_with`].
#[derive(Debug, Default)]
pub struct TextLines {
    out: String,
    /// Whitespace was seen since the last word of the current line.
    space: bool,
    /// The text pushed now is inside a `<pre>`: its line breaks end lines (other whitespace
    /// still collapses).
    preformatted: bool,
    /// The text pushed now and the text before it lie in two elements side by side, neither
    /// inside the other (`<a>Earth Ball</a><em>Outside Over There</em>`,
    /// `<span>Vanessa Williamson</span><span>STUDENT</span>`), each with two characters or
    /// more, outside `<pre>` and `<code>`. A page written so, with no whitespace between the
    /// two, relies on its style sheet (blocks, flex items, margins) to set them apart, which
    /// dbce does not read. Where a capital follows a lower-case letter or a digit there, or a
    /// capitalised word follows a capital ([`two_words`]), a browser shows two words (`Smith`
    /// and `Network`, `YETI` and `Rambler`: a product grid's brand and name), so a space
    /// separates them. Other meetings still join: a word cut by markup
    /// (`Le<span>arn</span>`, `child</span><span>ren`), scripts without case, and text
    /// beside an element inside the same parent (`one<b>Two</b>`). Single letters in their
    /// own elements (a heading animated letter by letter) join too.
    side_by_side: bool,
}

impl TextLines {
    fn at_line_start(&self) -> bool {
        self.out.is_empty() || self.out.ends_with('\n')
    }

    /// Appends text: words are separated by one space where `text` or what came before has
    /// whitespace between them, and joined where it has none. Inside a `<pre>`, a line break
    /// in `text` also ends the line (an empty line is not written).
    pub fn push_text(&mut self, text: &str) {
        if self.preformatted && text.contains('\n') {
            for (n, line) in text.split('\n').enumerate() {
                if n > 0 {
                    self.line_break();
                }
                self.push_words(line);
            }
        } else {
            self.push_words(text);
        }
    }

    fn push_words(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if text.starts_with(char::is_whitespace) {
            self.space = true;
        }
        for word in text.split_whitespace() {
            let apart = self.side_by_side
                && self
                    .out
                    .chars()
                    .next_back()
                    .is_some_and(|last| two_words(last, word));
            if (self.space || apart) && !self.at_line_start() {
                self.out.push(' ');
            }
            self.out.push_str(word);
            self.space = true;
            self.side_by_side = false;
        }
        self.space = text.ends_with(char::is_whitespace);
    }

    /// The text so far.
    pub fn as_str(&self) -> &str {
        &self.out
    }

    /// Ends the current line, unless it is empty.
    pub fn line_break(&mut self) {
        if !self.at_line_start() {
            self.out.push('\n');
        }
        self.space = false;
    }

    fn finish(mut self) -> String {
        if self.out.ends_with('\n') {
            self.out.pop();
        }
        self.out
    }
}

/// Whether text ending in `last` and text starting with `word`, in two elements side by side,
/// read as two words ([`TextLines`]): a capital after a lower-case letter or a digit
/// (`SmithNetwork`, `2.0This`), or a capitalised word after an upper-case letter
/// (`YETIRambler`). A full stop before a capital is not enough: an API's signature writes
/// `json.` and `JSONDecoder` side by side.
fn two_words(last: char, word: &str) -> bool {
    let mut chars = word.chars();
    let (Some(first), second) = (chars.next(), chars.next()) else {
        return false;
    };
    first.is_uppercase()
        && (last.is_lowercase()
            || last.is_numeric()
            || (last.is_uppercase() && second.is_some_and(char::is_lowercase)))
}

/// The number of whitespace-separated words in `text`: `text.split_whitespace().count()`,
/// counted over bytes when the text is ASCII (a loop the compiler vectorises; most text
/// nodes are ASCII), a character at a time otherwise.
pub fn word_count(text: &str) -> usize {
    if !text.is_ascii() {
        return text.split_whitespace().count();
    }
    let bytes = text.as_bytes();
    // A word starts at each byte that is not whitespace after one that is (or at the start).
    let starts: u32 = bytes
        .iter()
        .zip(bytes.iter().skip(1))
        .map(|(&before, &b)| u32::from(is_whitespace_byte(before) & !is_whitespace_byte(b)))
        .sum();
    starts as usize + usize::from(bytes.first().is_some_and(|&b| !is_whitespace_byte(b)))
}

/// The words of `text` (maximal runs of non-whitespace) with their byte offsets: Python's
/// `\S+` over a `str`, where whitespace is Unicode whitespace (`char::is_whitespace`).
pub fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let start = next_where(text, at, false);
        if start == text.len() {
            return None;
        }
        at = next_where(text, start, true);
        Some((start, &text[start..at]))
    })
}

/// The byte offset of the first character of `text` at or after `from` (a character boundary)
/// whose `is_whitespace()` is `whitespace`, or `text.len()`. ASCII bytes are decided by
/// themselves; only the other characters are decoded.
fn next_where(text: &str, from: usize, whitespace: bool) -> usize {
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(&byte) = bytes.get(at) {
        if byte.is_ascii() {
            if is_whitespace_byte(byte) == whitespace {
                return at;
            }
            at += 1;
        } else {
            let c = text[at..].chars().next().unwrap_or_default();
            if c.is_whitespace() == whitespace {
                return at;
            }
            at += c.len_utf8();
        }
    }
    bytes.len()
}

/// Whether an ASCII byte is a character `char::is_whitespace` accepts: tab, line feed,
/// vertical tab, form feed, carriage return or space (`u8::is_ascii_whitespace` leaves out
/// vertical tab).
fn is_whitespace_byte(b: u8) -> bool {
    b == b' ' || (b'\t'..=b'\r').contains(&b)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{word_count, words};
    use crate::{Document, SanitizeConfig};

    proptest! {
        /// Byte-counted ASCII text and character-counted other text agree with
        /// `split_whitespace`, on strings mostly of whitespace of every kind.
        #[test]
        fn word_count_is_split_whitespace_count(text in "[ \t\n\u{b}\u{c}\r\u{1c}\u{85}\u{a0}a-c.]{0,40}") {
            prop_assert_eq!(word_count(&text), text.split_whitespace().count());
        }
    }

    #[test]
    fn words_carry_offsets_and_split_on_unicode_whitespace() {
        let found: Vec<_> = words("  Goodbye\u{a0}big\n World ").collect();
        assert_eq!(found, [(2, "Goodbye"), (11, "big"), (16, "World")]);
        assert_eq!(words(" \t ").count(), 0);
    }

    proptest! {
        /// The byte scanner finds the words `char::is_whitespace` delimits, at their offsets.
        #[test]
        fn words_are_the_runs_char_is_whitespace_delimits(
            text in "[ a\t\n\u{b}\u{c}\r\u{1c}\u{85}\u{a0}\u{2003}\u{3000}é€😀.]{0,40}",
        ) {
            let mut expected = Vec::new();
            let mut start = None;
            for (at, c) in text.char_indices().chain([(text.len(), ' ')]) {
                match (c.is_whitespace(), start) {
                    (true, Some(s)) => {
                        expected.push((s, &text[s..at]));
                        start = None;
                    }
                    (false, None) => start = Some(at),
                    _ => {}
                }
            }
            prop_assert_eq!(words(&text).collect::<Vec<_>>(), expected);
        }
    }

    #[test]
    fn word_count_counts_words() {
        assert_eq!(word_count(""), 0);
        assert_eq!(word_count("  \t\n"), 0);
        assert_eq!(word_count("a"), 1);
        assert_eq!(word_count(" two  words\u{b}three "), 3);
        assert_eq!(
            word_count("x\u{1c}y"),
            1,
            "U+001C is no whitespace to Rust (to Python it is)"
        );
        assert_eq!(word_count("caf\u{e9}\u{a0}au\u{a0}lait"), 3);
    }

    fn parse(html: &str) -> Document {
        Document::parse(html, &SanitizeConfig::default()).unwrap()
    }

    #[test]
    fn one_line_per_block_and_inline_text_joined() {
        let doc = parse(
            "<title>T</title><h1>Head <i>line</i></h1><p>one<b>two</b> three<br>four</p>\
             <ul><li>a</li><li> b </li></ul>",
        );
        assert_eq!(doc.visible_text(), "Head line\nonetwo three\nfour\na\nb");
    }

    #[test]
    fn words_in_elements_side_by_side_are_set_apart_where_case_says_so() {
        let text = |html: &str| parse(html).visible_text();
        // Two elements side by side, lower case meeting upper case: two words.
        assert_eq!(
            text("<h2><a href=x>Earth Ball</a><em>Outside Over There</em></h2>"),
            "Earth Ball Outside Over There"
        );
        assert_eq!(
            text("<cite><span><span>Vanessa Williamson</span></span><span>STUDENT</span></cite>"),
            "Vanessa Williamson STUDENT"
        );
        assert_eq!(
            text("<p><b>Model 3</b><i>Performance</i></p>"),
            "Model 3 Performance"
        );
        assert_eq!(text("<p><b>YETI</b><i>Rambler</i></p>"), "YETI Rambler");
        // Capitals on both sides, or a full stop before a capital (an API's signature): joined.
        assert_eq!(text("<p><b>PHP</b><i>SDK</i></p>"), "PHPSDK");
        assert_eq!(
            text("<dt><span>json.</span><span>JSONDecoder</span></dt>"),
            "json.JSONDecoder"
        );
        // Whitespace between them, or none needed: as before.
        assert_eq!(text("<p><b>Earth</b> <i>Ball</i></p>"), "Earth Ball");
        // A word cut by markup, lower case on both sides, stays one word.
        assert_eq!(text("<p><span>Le</span><span>arn</span></p>"), "Learn");
        // Text and an element in the same parent join, whatever the case.
        assert_eq!(
            text("<p>one<b>Two</b> three<i>Four</i></p>"),
            "oneTwo threeFour"
        );
        assert_eq!(text("<p><b>one</b>Two</p>"), "oneTwo");
        // Letters animated one by one, code, and scripts without case join.
        assert_eq!(
            text("<h1><span>a</span><span>B</span><span>c</span></h1>"),
            "aBc"
        );
        assert_eq!(
            text("<p><code><span>fooBar</span><span>Baz</span></code></p>"),
            "fooBarBaz"
        );
        assert_eq!(
            text("<pre><span>value</span><span>Error</span></pre>"),
            "valueError"
        );
        assert_eq!(
            text("<p><span>\u{4e2d}\u{6587}</span><span>\u{5b57}\u{5e55}</span></p>"),
            "\u{4e2d}\u{6587}\u{5b57}\u{5e55}"
        );
    }

    #[test]
    fn permalinks_are_not_text() {
        let text = |html: &str| parse(html).visible_text();
        // Sphinx and MkDocs, rustdoc, Hugo: the mark after a heading or a signature goes.
        assert_eq!(
            text(
                "<h2>Usage<a class=headerlink href=\"#usage\" title=\"Link to this heading\">¶</a></h2>\
                 <dl><dt>decode(s)<a class=headerlink href=#decode>¶</a></dt><dd>Decodes.</dd></dl>"
            ),
            "Usage\ndecode(s)\nDecodes."
        );
        assert_eq!(
            text(
                "<h3 id=v>Variants<a href=#v class=anchor>§</a></h3><h2>Plans <a hidden class=anchor href=#p> # </a></h2>"
            ),
            "Variants\nPlans"
        );
        // A mark inside the link's own element counts; other links to anchors stay.
        assert_eq!(
            text("<h2>Setup<a href=#s><span>🔗</span></a></h2>"),
            "Setup"
        );
        assert_eq!(
            text(
                "<p>See <a href=#notes>the notes</a>, <a href=#fn1>1</a>, <a href=#top>#top</a>, \
                 <a href=/x>¶</a> and <a href=#y>¶ 2</a>.</p>"
            ),
            "See the notes, 1, #top, ¶ and ¶ 2."
        );
    }

    #[test]
    fn highlighted_lines_of_code_are_lines() {
        let text = |html: &str| parse(html).visible_text();
        // Lines as elements with no line break between them (Prism in Gatsby, Shiki).
        assert_eq!(
            text(
                "<pre><code><span class=\"gatsby-highlight-code-line\">  <span class=c>// count</span></span>\
                 <span class=\"gatsby-highlight-code-line\">  <span>const</span> n = <span>0</span>;</span>\
                 <span>return</span> n;</code></pre>"
            ),
            "// count\nconst n = 0;\nreturn n;"
        );
        assert_eq!(
            text(
                "<pre><code><span class=line><span>npm</span><span> create vite</span></span><span class=\"line \"><span>cd</span> app</span></code></pre>"
            ),
            "npm create vite\ncd app"
        );
        // Lines that end in a line break give no empty line.
        assert_eq!(
            text("<pre><span class=token-line>a\n</span><span class=token-line>b</span>\n</pre>"),
            "a\nb"
        );
        // Other classes that name lines are not lines, and outside a `<pre>` nothing changes.
        assert_eq!(
            text(
                "<pre><span class=line-numbers>1</span><span class=\"highlight-line-content x\">a</span><s class=line-through>b</s></pre>"
            ),
            "1ab"
        );
        assert_eq!(
            text("<p><span class=line>one</span><span class=line>two</span></p>"),
            "onetwo"
        );
    }

    #[test]
    fn preformatted_text_keeps_its_lines() {
        let doc = parse(
            "<p>a\nb</p><pre><code><span>fn</span> main() {\n    <b>x</b>\n\n}\n</code></pre>\
             <p>c\nd</p>",
        );
        assert_eq!(doc.visible_text(), "a b\nfn main() {\nx\n}\nc d");
        let doc = parse("<p>a<xmp>x\ny</xmp>b</p>");
        assert_eq!(doc.visible_text(), "a\nx\ny\nb");
    }

    #[test]
    fn runs_skip_head_title_and_blank_text() {
        let doc = parse("<html><head><title>T</title></head><body>\n <p>x</p> <p>y z</p></body>");
        let runs: Vec<_> = doc.text_runs().map(|r| (r.id.get(), r.text)).collect();
        assert_eq!(runs, [(0, "x"), (1, "y z")]);
        let run = doc.text_runs().next().unwrap();
        let parent = doc.get(run.node).unwrap().parent().unwrap();
        assert_eq!(parent.name(), Some("p"));
    }

    #[test]
    fn text_around_dropped_nodes_is_one_run() {
        let doc = parse("<p>foo<!-- c -->bar<script>x()</script>baz</p>");
        let runs: Vec<_> = doc.text_runs().map(|r| r.text).collect();
        assert_eq!(runs, ["foobarbaz"]);
    }
}

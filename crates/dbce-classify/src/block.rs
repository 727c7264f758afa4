//! Boilerpipe's text blocks (Kohlschütter et al. 2010, §3.3 and §4.1): the text between two
//! block-level tags, with its shallow features.

use std::collections::HashMap;

use dbce_dom::{Document, NodeId, NodeKind, NodeRef};

use crate::tags::{Gap, InlineTags, TagClass, tag_class};
use crate::wrap::{Wrap, wrap_words};

/// Position of a [`TextBlock`] among the blocks of its page, counted from 0 in document order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockOffset(u32);

impl BlockOffset {
    /// The offset with this position.
    pub const fn new(index: u32) -> Self {
        Self(index)
    }

    /// The position in document order.
    pub const fn get(self) -> u32 {
        self.0
    }
}

/// How [`text_blocks_with`] segments a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockConfig {
    /// Column at which a block's words are wrapped for its text density. By default, 80, the
    /// width of the Boilerpipe paper (§3.4) and of the dissertation (§4.2.1).
    pub wrap_width: u32,
    /// Which tags do not split a block. By default, [`InlineTags::Boilerpipe`].
    pub inline_tags: InlineTags,
}

impl Default for BlockConfig {
    fn default() -> Self {
        Self {
            wrap_width: 80,
            inline_tags: InlineTags::default(),
        }
    }
}

/// Boilerpipe's text block: the text between two block-level boundaries, and its shallow
/// features (Kohlschütter et al. 2010, §3).
///
/// Inline tags and `<a>` do not split a block (so link density can be computed, §3.3); every
/// other tag does ([`InlineTags`]). Words are whitespace-delimited tokens with at least one
/// letter or digit (§3.3).
#[derive(Debug, Clone, PartialEq)]
pub struct TextBlock {
    /// Position among the page's blocks.
    pub offset: BlockOffset,
    /// The text, whitespace collapsed to single spaces and trimmed; inline tags join text as a
    /// browser does (`foo<b>bar</b>` is `foobar`).
    pub text: String,
    /// Number of words.
    pub words: u32,
    /// Words that start inside an `<a>` element.
    pub linked_words: u32,
    /// Lines the words take when wrapped at [`BlockConfig::wrap_width`] columns (at least 1).
    pub wrapped_lines: u32,
    /// Words on all lines but the last, or all words when there is one line: the numerator of
    /// the text density (Boilerpipe's `numWordsInWrappedLines`).
    pub words_in_wrapped_lines: u32,
    /// Text density ϱ(b) of Eq. 1 (paper) / Eq. 4.6 (dissertation): words in the wrapped lines
    /// but the last, per such line; for a single line, its number of words.
    pub text_density: f32,
    /// Linked words per word; 0 for a block without words.
    pub link_density: f32,
    /// Depth of [`element`](Self::element) in the DOM (`<html>` is 1).
    pub tag_depth: u32,
    /// Whether the block lies inside `<h1>`–`<h6>`.
    pub heading: bool,
    /// The innermost block-level element (or `<body>`) that holds the whole block.
    pub element: NodeId,
    /// Number of inline elements (`<a>` included) opened inside the block.
    pub tag_count: u32,
    /// The tags between the previous block and this one, for rule-based Block Fusion.
    pub gap_before: Gap,
    /// The text nodes with non-whitespace text that make up the block, in document order.
    pub nodes: Vec<NodeId>,
}

impl TextBlock {
    /// Denominator of the text density: wrapped lines but the last, at least 1. Fused blocks
    /// add numerators and denominators, as Boilerpipe's `TextBlock.mergeNext` does.
    pub fn density_lines(&self) -> u32 {
        self.wrapped_lines.saturating_sub(1).max(1)
    }
}

/// The text blocks of a page's `<body>`, segmented as [`BlockConfig::default`] says.
pub fn text_blocks(doc: &Document) -> Vec<TextBlock> {
    text_blocks_with(doc, &BlockConfig::default())
}

/// The text blocks of a page's `<body>` (or `<frameset>`), in document order.
///
/// The walk is iterative over the document's arena: any nesting depth runs on a small stack.
pub fn text_blocks_with(doc: &Document, config: &BlockConfig) -> Vec<TextBlock> {
    let Some(body) = doc.body() else {
        return Vec::new();
    };
    let mut walk = Walk::new(doc, *config, body.id());
    // Elements whose subtree is still open: one past their last descendant, and their class.
    let mut open: Vec<(u32, NodeRef<'_>, TagClass)> = Vec::new();
    let end = body.end();
    let mut id = body.id().get() + 1;
    while id < end {
        while let Some(&(top_end, node, class)) = open.last()
            && id >= top_end
        {
            open.pop();
            walk.end_tag(node, class);
        }
        let Some(node) = doc.get(NodeId::new(id)) else {
            break;
        };
        id += 1;
        match node.kind() {
            NodeKind::Text => walk.text(node),
            NodeKind::Element => {
                let name = node.name().unwrap_or_default();
                let class = tag_class(name, config.inline_tags);
                let node_end = node.end();
                walk.start_tag(node, class);
                if class == TagClass::Ignored {
                    id = node_end;
                    walk.end_tag(node, class);
                } else if node_end > id {
                    open.push((node_end, node, class));
                } else {
                    walk.end_tag(node, class);
                }
            }
            NodeKind::Document => {}
        }
    }
    while let Some((_, node, class)) = open.pop() {
        walk.end_tag(node, class);
    }
    walk.finish()
}

/// One whitespace-delimited token of a block being built.
#[derive(Debug, Clone, Copy)]
struct Token {
    chars: u32,
    linked: bool,
    word: bool,
}

/// The block being built: text seen since the last block boundary.
#[derive(Debug)]
struct Pending {
    text: String,
    /// Whitespace was seen since the last character pushed.
    space: bool,
    /// The last character pushed belongs to the last token.
    in_token: bool,
    tokens: Vec<Token>,
    nodes: Vec<NodeId>,
    element: NodeId,
    tag_depth: u32,
    heading: bool,
    tag_count: u32,
    gap_before: Gap,
}

/// State of the walk over a body: open anchors and headings, the block being built and the
/// finished blocks.
struct Walk<'a> {
    doc: &'a Document,
    config: BlockConfig,
    anchors: u32,
    headings: u32,
    /// Open block-level elements, innermost last; `<body>` first.
    containers: Vec<NodeId>,
    /// Tags seen since the last text of a block.
    gap: Gap,
    pending: Option<Pending>,
    blocks: Vec<TextBlock>,
}

impl<'a> Walk<'a> {
    fn new(doc: &'a Document, config: BlockConfig, body: NodeId) -> Self {
        Self {
            doc,
            config,
            anchors: 0,
            headings: 0,
            containers: vec![body],
            gap: Gap::EMPTY,
            pending: None,
            blocks: Vec::new(),
        }
    }

    fn start_tag(&mut self, node: NodeRef<'_>, class: TagClass) {
        let name = node.name().unwrap_or_default();
        self.gap.add(name);
        match class {
            TagClass::Anchor | TagClass::Inline => {
                self.anchors += u32::from(class == TagClass::Anchor);
                if let Some(p) = &mut self.pending {
                    p.tag_count += 1;
                }
            }
            TagClass::Block => {
                self.flush();
                self.containers.push(node.id());
            }
            TagClass::Ignored => self.flush(),
        }
        self.headings += u32::from(is_heading(name));
    }

    fn end_tag(&mut self, node: NodeRef<'_>, class: TagClass) {
        let name = node.name().unwrap_or_default();
        self.gap.add(name);
        match class {
            TagClass::Anchor => self.anchors = self.anchors.saturating_sub(1),
            TagClass::Inline => {}
            TagClass::Block => {
                self.flush();
                self.containers.pop();
            }
            TagClass::Ignored => self.flush(),
        }
        self.headings = self.headings.saturating_sub(u32::from(is_heading(name)));
    }

    fn text(&mut self, node: NodeRef<'_>) {
        let text = node.text().unwrap_or_default();
        let blank = text.chars().all(char::is_whitespace);
        if blank && self.pending.is_none() {
            return;
        }
        let linked = self.anchors > 0;
        if self.pending.is_some() {
            self.gap = Gap::EMPTY;
        } else {
            self.pending = Some(self.start_block());
        }
        let Some(pending) = &mut self.pending else {
            return;
        };
        if !blank {
            pending.nodes.push(node.id());
        }
        pending.push(text, linked);
    }

    fn start_block(&mut self) -> Pending {
        let element = self.containers.last().copied().unwrap_or(NodeId::ROOT);
        let tag_depth = self.doc.get(element).map_or(0, NodeRef::depth);
        Pending {
            text: String::new(),
            space: false,
            in_token: false,
            tokens: Vec::new(),
            nodes: Vec::new(),
            element,
            tag_depth,
            heading: self.headings > 0,
            tag_count: 0,
            gap_before: std::mem::replace(&mut self.gap, Gap::EMPTY),
        }
    }

    fn flush(&mut self) {
        let Some(p) = self.pending.take() else {
            return;
        };
        if p.tokens.is_empty() {
            return;
        }
        let offset = BlockOffset::new(u32::try_from(self.blocks.len()).unwrap_or(u32::MAX));
        self.blocks
            .push(p.into_block(offset, self.config.wrap_width));
    }

    fn finish(mut self) -> Vec<TextBlock> {
        self.flush();
        self.blocks
    }
}

impl Pending {
    /// Appends text, collapsing whitespace and splitting it into tokens.
    fn push(&mut self, text: &str, linked: bool) {
        for c in text.chars() {
            if c.is_whitespace() {
                self.space = true;
                self.in_token = false;
                continue;
            }
            if self.space && !self.text.is_empty() {
                self.text.push(' ');
            }
            self.space = false;
            self.text.push(c);
            let word = c.is_alphanumeric();
            match self.tokens.last_mut() {
                Some(t) if self.in_token => {
                    t.chars += 1;
                    t.word |= word;
                }
                _ => self.tokens.push(Token {
                    chars: 1,
                    linked,
                    word,
                }),
            }
            self.in_token = true;
        }
    }

    fn into_block(self, offset: BlockOffset, width: u32) -> TextBlock {
        let words = self.tokens.iter().filter(|t| t.word);
        let Wrap {
            lines,
            words_in_wrapped_lines,
        } = wrap_words(words.clone().map(|t| t.chars), width);
        let n_words = count(words.clone());
        let linked_words = count(words.filter(|t| t.linked));
        let density_lines = lines.saturating_sub(1).max(1);
        TextBlock {
            offset,
            text: self.text,
            words: n_words,
            linked_words,
            wrapped_lines: lines,
            words_in_wrapped_lines,
            text_density: ratio(words_in_wrapped_lines, density_lines),
            link_density: ratio(linked_words, n_words),
            tag_depth: self.tag_depth,
            heading: self.heading,
            element: self.element,
            tag_count: self.tag_count,
            gap_before: self.gap_before,
            nodes: self.nodes,
        }
    }
}

fn count<'t>(tokens: impl Iterator<Item = &'t Token>) -> u32 {
    u32::try_from(tokens.count()).unwrap_or(u32::MAX)
}

/// `num / den` as `f32`, 0 when `den` is 0.
#[allow(clippy::cast_precision_loss)]
pub(crate) fn ratio(num: u32, den: u32) -> f32 {
    if den == 0 {
        0.0
    } else {
        (f64::from(num) / f64::from(den)) as f32
    }
}

fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// The most words [`whole_paragraphs`] adds between two kept blocks of one paragraph.
const PARAGRAPH_GAP_WORDS: u32 = 10;

/// Keeps paragraphs whole: the blocks of a `<p>` between two of its kept blocks (a paragraph is
/// split by `<br>`, `<img>`, inline formulas and the other tags that end a Boilerpipe block,
/// [`InlineTags`]) are content too when together they have at most ten words and none is
/// mostly links, so a kept sentence does not lose the words between two inline images (`Given
/// a set of [img] high-dimensional objects [img], t-SNE computes …`). Other gaps keep their
/// verdicts (a `<p>` left open can hold a whole footer; "Comments | Print | Email" between two
/// kept lines is not the sentence's), and so do the blocks before a paragraph's first kept
/// block, after its last, and those of elements inside it that end a block (a formula's `<mi>`,
/// a `<small>`).
///
/// # Panics
/// If `kept` and `blocks` differ in length.
pub fn whole_paragraphs(doc: &Document, blocks: &[TextBlock], kept: &mut [bool]) {
    assert_eq!(blocks.len(), kept.len(), "one verdict per block");
    // Per paragraph: its last kept block, and the words of its dropped blocks since (more than
    // the bound once one of them is mostly links).
    let mut open: HashMap<NodeId, (Option<usize>, u32)> = HashMap::new();
    for (i, block) in blocks.iter().enumerate() {
        let in_paragraph = doc
            .get(block.element)
            .is_some_and(|element| element.name() == Some("p"));
        if !in_paragraph {
            continue;
        }
        let (last_kept, words) = open.entry(block.element).or_default();
        if !kept[i] {
            *words += if block.link_density < 0.5 {
                block.words
            } else {
                PARAGRAPH_GAP_WORDS + 1
            };
            continue;
        }
        if let Some(last) = *last_kept
            && *words <= PARAGRAPH_GAP_WORDS
        {
            for between in last + 1..i {
                kept[between] |= blocks[between].element == block.element;
            }
        }
        *last_kept = Some(i);
        *words = 0;
    }
}

#[cfg(test)]
mod tests {
    use dbce_dom::SanitizeConfig;

    use super::*;

    fn blocks(html: &str) -> Vec<TextBlock> {
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        text_blocks(&doc)
    }

    fn phrasing_blocks(html: &str) -> Vec<TextBlock> {
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        let config = BlockConfig {
            inline_tags: InlineTags::Phrasing,
            ..BlockConfig::default()
        };
        text_blocks_with(&doc, &config)
    }

    fn texts(blocks: &[TextBlock]) -> Vec<&str> {
        blocks.iter().map(|b| b.text.as_str()).collect()
    }

    /// The verdicts [`whole_paragraphs`] makes of `kept` for the blocks of `html`.
    fn whole(html: &str, kept: &[bool]) -> Vec<bool> {
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        let blocks = text_blocks(&doc);
        assert_eq!(blocks.len(), kept.len(), "{:?}", texts(&blocks));
        let mut kept = kept.to_vec();
        whole_paragraphs(&doc, &blocks, &mut kept);
        kept
    }

    #[test]
    fn a_paragraph_keeps_the_words_between_its_kept_blocks() {
        // Images end Boilerpipe's blocks: the sentence is five blocks, the middle dropped.
        let html = "<p>Given a set of <img src=n.svg> high-dimensional objects <img src=x.svg>, \
                    t-SNE computes probabilities<br>as follows:</p>";
        let kept = whole(html, &[true, false, true, false]);
        assert_eq!(
            kept,
            [true, true, true, false],
            "the last block lies after the last kept"
        );
        // Nothing kept, or one block kept: nothing between.
        assert_eq!(
            whole(html, &[false, false, false, false]),
            [false, false, false, false]
        );
        assert_eq!(
            whole(html, &[false, true, false, false]),
            [false, true, false, false]
        );
    }

    #[test]
    fn long_or_linked_gaps_and_other_elements_keep_their_verdicts() {
        let long = "<p>kept text<br>one two three four five six seven eight nine ten eleven<br>\
                    kept again</p>";
        assert_eq!(whole(long, &[true, false, true]), [true, false, true]);
        let ten = "<p>kept text<br>one two three four five six seven eight nine ten<br>\
                   kept again</p>";
        assert_eq!(whole(ten, &[true, false, true]), [true, true, true]);
        let linked = "<p>kept text<br><a href=/c>Comments</a> | <a href=/p>Print</a><br>\
                      kept again</p>";
        assert_eq!(whole(linked, &[true, false, true]), [true, false, true]);
        // Not a paragraph; and two paragraphs, each with one kept block.
        let div = "<div>kept text<br>between<br>kept again</div>";
        assert_eq!(whole(div, &[true, false, true]), [true, false, true]);
        let two = "<p>kept text</p><p>between<br>kept again</p>";
        assert_eq!(whole(two, &[true, false, true]), [true, false, true]);
    }

    #[test]
    fn inline_tags_join_and_block_tags_split() {
        let html = "<div>Intro <b>bold</b><i>italic</i> <span>span</span><p>Para <em>one</em></p>\
                    tail<ul><li>item <a href=x>link</a></li><li>two</li></ul></div>";
        let b = blocks(html);
        assert_eq!(
            texts(&b),
            [
                "Intro bolditalic span",
                "Para one",
                "tail",
                "item link",
                "two"
            ]
        );
        let offsets: Vec<u32> = b.iter().map(|b| b.offset.get()).collect();
        assert_eq!(offsets, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn br_splits_always_img_and_small_only_with_boilerpipe_tags() {
        let html = "<p>one <small>small</small> two<br>three <img src=x> four</p>";
        assert_eq!(
            texts(&phrasing_blocks(html)),
            ["one small two", "three four"]
        );
        assert_eq!(
            texts(&blocks(html)),
            ["one", "small", "two", "three", "four"]
        );
    }

    #[test]
    fn link_words_and_density() {
        let b = blocks("<p>Read <a href=a>the full story</a> here, now.</p>");
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].words, 6);
        assert_eq!(b[0].linked_words, 3);
        assert!((b[0].link_density - 0.5).abs() < 1e-6);
        assert_eq!(b[0].tag_count, 1);
    }

    #[test]
    fn punctuation_tokens_are_not_words() {
        let b = blocks("<p>Home | News | © 2008 – all</p>");
        assert_eq!(b[0].words, 4);
        assert_eq!(b[0].text, "Home | News | © 2008 – all");
        let only_marks = blocks("<div>|</div><div>x</div>");
        assert_eq!(only_marks[0].words, 0);
        assert_eq!(only_marks[0].text_density, 0.0);
        assert_eq!(only_marks[0].link_density, 0.0);
    }

    #[test]
    fn single_line_density_is_its_word_count() {
        let b = blocks("<p>Contact us today</p>");
        assert_eq!(b[0].wrapped_lines, 1);
        assert_eq!(b[0].words_in_wrapped_lines, 3);
        assert_eq!(b[0].text_density, 3.0);
    }

    #[test]
    fn wrapped_density_leaves_out_the_last_line() {
        // 25 words of 5 letters: 13 fit a line of 80 columns (13 * 6 - 1 = 77), so 2 lines,
        // and the density is the first line's 13 words.
        let words = vec!["abcde"; 25].join(" ");
        let b = blocks(&format!("<p>{words}</p>"));
        assert_eq!(b[0].words, 25);
        assert_eq!(b[0].wrapped_lines, 2);
        assert_eq!(b[0].words_in_wrapped_lines, 13);
        assert_eq!(b[0].text_density, 13.0);
        // 40 words: lines of 13, 13, 13, 1; density (13 * 3) / 3.
        let words = vec!["abcde"; 40].join(" ");
        let b = blocks(&format!("<p>{words}</p>"));
        assert_eq!(b[0].wrapped_lines, 4);
        assert_eq!(b[0].text_density, 13.0);
    }

    #[test]
    fn heading_depth_element_and_nodes() {
        let html = "<body><h2>Big <i>news</i></h2><div><p>text</p></div></body>";
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        let b = text_blocks(&doc);
        assert!(b[0].heading);
        assert!(!b[1].heading);
        let h2 = doc.get(b[0].element).unwrap();
        assert_eq!(h2.name(), Some("h2"));
        assert_eq!(b[0].tag_depth, h2.depth());
        assert_eq!(b[1].tag_depth, b[0].tag_depth + 1);
        let nodes: Vec<_> = b[0]
            .nodes
            .iter()
            .map(|&n| doc.get(n).unwrap().text().unwrap())
            .collect();
        assert_eq!(nodes, ["Big ", "news"]);
    }

    #[test]
    fn gaps_record_forcing_and_avoiding_tags() {
        let b = blocks("<p>a</p><p>b</p>c<br>d<h1>e</h1>");
        let gaps: Vec<(bool, bool)> = b
            .iter()
            .map(|b| (b.gap_before.forced, b.gap_before.avoided))
            .collect();
        // a: after <body><p>; b: </p><p>; c: </p>; d: <br>; e: <h1>.
        assert_eq!(
            gaps[1..],
            [(false, false), (false, false), (false, true), (true, false)]
        );
    }

    #[test]
    fn options_are_ignored_and_whitespace_only_text_makes_no_block() {
        let b = blocks("<div> </div><select><option>Choose one</option></select><p> x </p>");
        assert_eq!(texts(&b), ["x"]);
    }

    #[test]
    fn a_page_without_body_text_has_no_blocks() {
        assert!(blocks("<title>only a title</title>").is_empty());
    }
}

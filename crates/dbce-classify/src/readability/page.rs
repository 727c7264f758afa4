//! What readability-lxml reads off each node, computed once per page: tag, class/id weight,
//! unlikely-candidate test, parent and subtree end, and the length of each text node.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use dbce_dom::{Document, NodeId, NodeKind, NodeRef, style_hides};

/// Marks "no node" in parent links.
pub(super) const NONE: u32 = u32::MAX;

/// Class or id words that mark an element an unlikely candidate (`unlikelyCandidatesRe`).
const UNLIKELY: &[&str] = &[
    "combx",
    "comment",
    "community",
    "disqus",
    "extra",
    "foot",
    "header",
    "menu",
    "remark",
    "rss",
    "shoutbox",
    "sidebar",
    "sponsor",
    "ad-break",
    "agegate",
    "pagination",
    "pager",
    "popup",
    "tweet",
    "twitter",
];

/// Words that save an unlikely candidate (`okMaybeItsACandidateRe`).
const MAYBE: &[&str] = &[
    "and", "article", "body", "column", "content", "main", "shadow",
];

/// Words that add 25 to an element's weight (`positiveRe`).
const POSITIVE: &[&str] = &[
    "article",
    "body",
    "content",
    "entry",
    "hentry",
    "main",
    "page",
    "pagination",
    "post",
    "text",
    "blog",
    "story",
];

/// Words that take 25 from an element's weight (`negativeRe`).
const NEGATIVE: &[&str] = &[
    "combx", "comment", "com-", "contact", "foot", "footer", "footnote", "masthead", "media",
    "meta", "outbrain", "promo", "related", "scroll", "shoutbox", "sidebar", "sponsor", "shopping",
    "tags", "tool", "widget",
];

/// Inline elements that join the text around them into one paragraph inside a `<div>`.
const INLINE: &[&str] = &[
    "a", "b", "cite", "code", "em", "font", "i", "small", "span", "strong", "sub", "sup", "u",
];

/// Starts of tag names whose presence anywhere inside a `<div>` keeps it a `<div>`
/// (`divToPElementsRe` searched over the serialised children, so `p` also matches `pre`,
/// `picture`, `param`).
const BLOCKISH: &[&str] = &["blockquote", "dl", "div", "img", "ol", "p", "table", "ul"];

/// The tags the algorithm treats specially; everything else is [`Tag::Other`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tag {
    Document,
    Text,
    Html,
    Body,
    A,
    P,
    Div,
    Pre,
    Td,
    Blockquote,
    Br,
    Article,
    Main,
    Img,
    Li,
    Input,
    /// `<input type="hidden">`, which the input count leaves out.
    HiddenInput,
    /// `<form>` and `<textarea>`, dropped from the article.
    Form,
    /// `<h1>`–`<h6>`, with the level.
    Heading(u8),
    /// An element cleaned conditionally, other than `<div>`: its rank in the cleaning order.
    Conditional(u8),
    Other,
}

/// Rank of `<div>` among the conditionally cleaned tags (`table`, `ul`, `div`, `aside`,
/// `header`, `footer`, `section`).
pub(super) const DIV_RANK: u8 = 2;

impl Tag {
    /// The tag of an element named `name` whose `type` attribute is `input_type`.
    fn of(name: &str, input_type: Option<&str>) -> Tag {
        match name {
            "html" => Tag::Html,
            "body" => Tag::Body,
            "a" => Tag::A,
            "p" => Tag::P,
            "div" => Tag::Div,
            "pre" => Tag::Pre,
            "td" => Tag::Td,
            "blockquote" => Tag::Blockquote,
            "br" => Tag::Br,
            "article" => Tag::Article,
            "main" => Tag::Main,
            "img" => Tag::Img,
            "li" => Tag::Li,
            "input" if input_type == Some("hidden") => Tag::HiddenInput,
            "input" => Tag::Input,
            "form" | "textarea" => Tag::Form,
            "h1" => Tag::Heading(1),
            "h2" => Tag::Heading(2),
            "h3" => Tag::Heading(3),
            "h4" => Tag::Heading(4),
            "h5" => Tag::Heading(5),
            "h6" => Tag::Heading(6),
            "table" => Tag::Conditional(0),
            "ul" => Tag::Conditional(1),
            "aside" => Tag::Conditional(3),
            "header" => Tag::Conditional(4),
            "footer" => Tag::Conditional(5),
            "section" => Tag::Conditional(6),
            _ => Tag::Other,
        }
    }
}

/// Initial score of a candidate by its tag (readability-lxml's `score_node` without the class
/// weight).
fn tag_weight(name: &str) -> i32 {
    match name {
        "div" | "article" => 5,
        "pre" | "td" | "blockquote" => 3,
        "address" | "ol" | "ul" | "dl" | "dd" | "dt" | "li" | "form" | "aside" => -3,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th" | "header" | "footer" | "nav" => -5,
        _ => 0,
    }
}

/// Length of text with every whitespace run counted as one character (readability-lxml's
/// `clean`), and whether it starts or ends in whitespace, so that lengths of adjacent texts
/// can be joined without the texts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Seg {
    len: u32,
    lead: bool,
    trail: bool,
}

impl Seg {
    pub(super) fn of(text: &str) -> Seg {
        let len = if text.is_ascii() {
            collapsed_ascii_len(text.as_bytes())
        } else {
            collapsed_len(text)
        };
        Seg {
            len: u32::try_from(len).unwrap_or(u32::MAX),
            lead: text.starts_with(char::is_whitespace),
            trail: text.ends_with(char::is_whitespace),
        }
    }

    /// This text followed by `next`.
    pub(super) fn then(self, next: Seg) -> Seg {
        if self.len == 0 {
            return next;
        }
        if next.len == 0 {
            return self;
        }
        Seg {
            len: self.len + next.len - u32::from(self.trail && next.lead),
            lead: self.lead,
            trail: next.trail,
        }
    }

    /// Length without leading and trailing whitespace.
    pub(super) fn trimmed(self) -> u32 {
        self.len
            .saturating_sub(u32::from(self.lead) + u32::from(self.trail))
    }
}

/// Characters of `text` with every whitespace run counted as one.
fn collapsed_len(text: &str) -> usize {
    let mut len = 0;
    let mut in_space = false;
    for c in text.chars() {
        let space = c.is_whitespace();
        if !(space && in_space) {
            len += 1;
        }
        in_space = space;
    }
    len
}

/// [`collapsed_len`] of ASCII text, every byte a character: the bytes less each whitespace byte
/// that follows one, counted over adjacent pairs so that the loop vectorises (text nodes are
/// most of what Readability's page facts read).
fn collapsed_ascii_len(bytes: &[u8]) -> usize {
    // `char::is_whitespace` on ASCII: space, and tab through carriage return.
    let space = |b: u8| (b == b' ') | (b.wrapping_sub(b'\t') < 5);
    let repeated: usize = bytes
        .iter()
        .zip(bytes.iter().skip(1))
        .map(|(&a, &b)| usize::from(space(a) & space(b)))
        .sum();
    bytes.len() - repeated
}

/// The facts of one node.
#[derive(Debug, Clone, Copy)]
pub(super) struct NodeInfo {
    /// Parent id, [`NONE`] for the document node.
    pub(super) parent: u32,
    /// One past the id of the last node inside.
    pub(super) end: u32,
    pub(super) tag: Tag,
    /// readability-lxml's `class_weight`: ±25 per class or id matching the positive or
    /// negative words.
    pub(super) class_weight: i32,
    /// The candidate score a `<div>`, list, heading… starts from.
    pub(super) tag_weight: i32,
    /// The name starts like a [`BLOCKISH`] tag.
    pub(super) blockish: bool,
    /// Joins the text around it into a paragraph ([`INLINE`]).
    pub(super) inline: bool,
    /// Class or id says unlikely candidate, and nothing saves it: no `<pre>` or `<code>`
    /// around it, no `<main>`, `<article>` or `<math>` in it.
    pub(super) unlikely: bool,
    /// Hidden (`hidden` attribute, `display: none`, `visibility: hidden`), or inside a hidden
    /// element: readability-lxml drops these before anything else.
    pub(super) hidden: bool,
    /// Is or lies inside a `<form>`, `<aside>` or `<nav>`.
    pub(super) in_form_aside_nav: bool,
    /// Is or lies inside an `<aside>` or `<nav>`.
    pub(super) in_aside_nav: bool,
    /// `itemprop` names `articleBody`.
    pub(super) article_body: bool,
    /// Is or holds an `<h2>`.
    pub(super) has_h2: bool,
    /// For text: whitespace-collapsed length; empty for elements.
    pub(super) seg: Seg,
    /// For text: commas in it.
    pub(super) commas: u32,
}

/// A document with the facts of each node, indexed by node id.
pub(super) struct Page<'a> {
    pub(super) doc: &'a Document,
    pub(super) nodes: Vec<NodeInfo>,
    pub(super) body: Option<u32>,
}

impl<'a> Page<'a> {
    pub(super) fn new(doc: &'a Document) -> Self {
        let body = doc.body().map(|b| b.id().get());
        let n = doc.len() as usize;
        let mut nodes: Vec<NodeInfo> = Vec::with_capacity(n);
        // Whether `<main>`, `<article>` or `<math>` is the element (then: or inside it), and
        // whether it is a `<pre>` or `<code>` (then: or inside one).
        let mut semantic_inside = Vec::with_capacity(n);
        let mut in_code = Vec::with_capacity(n);
        let mut lists = ListsOf::default();
        for node in doc.nodes() {
            let name = node.name();
            semantic_inside.push(matches!(name, Some("main" | "article" | "math")));
            in_code.push(matches!(name, Some("pre" | "code")));
            nodes.push(info(node, name, body == Some(node.id().get()), &mut lists));
        }
        // Subtree ends, `<h2>`s and `<main>`, `<article>` or `<math>` inside, bottom-up.
        for i in (1..n).rev() {
            let (end, parent, h2) = (nodes[i].end, nodes[i].parent as usize, nodes[i].has_h2);
            if parent < n {
                nodes[parent].end = nodes[parent].end.max(end);
                nodes[parent].has_h2 |= h2;
                semantic_inside[parent] |= semantic_inside[i];
            }
        }
        // `<pre>`/`<code>` around, hidden and semantic ancestors, top-down.
        for i in 1..n {
            let parent = nodes[i].parent as usize;
            if parent < n {
                in_code[i] |= in_code[parent];
                nodes[i].hidden |= nodes[parent].hidden;
                nodes[i].in_form_aside_nav |= nodes[parent].in_form_aside_nav;
                nodes[i].in_aside_nav |= nodes[parent].in_aside_nav;
            }
            nodes[i].unlikely &= !in_code[i] && !semantic_inside[i];
        }
        Page { doc, nodes, body }
    }

    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(super) fn node(&self, i: u32) -> Option<NodeRef<'a>> {
        self.doc.get(NodeId::new(i))
    }

    /// The node's text, for text nodes.
    pub(super) fn text(&self, i: u32) -> &'a str {
        self.node(i).and_then(NodeRef::text).unwrap_or_default()
    }

    /// The parent if it is an element (readability-lxml's `getparent`, which ends at `<html>`).
    pub(super) fn element_parent(&self, i: u32) -> Option<u32> {
        let parent = self.nodes.get(i as usize)?.parent;
        let tag = self.nodes.get(parent as usize)?.tag;
        (tag != Tag::Document).then_some(parent)
    }
}

/// The word lists ([`lists_in`]) of each `class` and `id` value met so far on a page: a page
/// repeats a few values on many elements.
type ListsOf<'a> = HashMap<&'a str, u8, foldhash::fast::FixedState>;

/// The facts of `node`, an element named `name` or another node (`None`); `lists` keeps the
/// word lists of the page's `class` and `id` values.
fn info<'a>(
    node: NodeRef<'a>,
    name: Option<&str>,
    is_body: bool,
    lists: &mut ListsOf<'a>,
) -> NodeInfo {
    let id = node.id().get();
    let mut info = NodeInfo {
        parent: node.parent().map_or(NONE, |p| p.id().get()),
        end: id + 1,
        tag: Tag::Other,
        class_weight: 0,
        tag_weight: 0,
        blockish: false,
        inline: false,
        unlikely: false,
        hidden: false,
        in_form_aside_nav: false,
        in_aside_nav: false,
        article_body: false,
        has_h2: false,
        seg: Seg::default(),
        commas: 0,
    };
    match node.kind() {
        NodeKind::Document => info.tag = Tag::Document,
        NodeKind::Text => {
            let text = node.text().unwrap_or_default();
            info.tag = Tag::Text;
            info.seg = Seg::of(text);
            info.commas = u32::try_from(text.matches(',').count()).unwrap_or(u32::MAX);
        }
        NodeKind::Element => {
            let name = name.unwrap_or_default();
            let attrs = Attrs::of(node);
            let mut lists_of = |value: &'a str| {
                *lists
                    .entry(value)
                    .or_insert_with(|| lists_in(&lowercase(value)))
            };
            let class = attrs.class.map_or(0, &mut lists_of);
            // readability-lxml gives `<body>` the id `readabilityBody` before scoring.
            let id_attr = if is_body {
                lists_in("readabilitybody")
            } else {
                attrs.id.map_or(0, lists_of)
            };
            info.tag = Tag::of(name, attrs.input_type);
            info.class_weight = weight_of(class) + weight_of(id_attr);
            info.tag_weight = tag_weight(name);
            info.blockish = BLOCKISH.iter().any(|b| name.starts_with(b));
            info.inline = INLINE.contains(&name);
            info.hidden = attrs.hidden || attrs.style.is_some_and(style_hides);
            info.article_body = attrs
                .itemprop
                .is_some_and(|v| v.split_whitespace().any(|t| t == "articleBody"));
            info.has_h2 = name == "h2";
            info.in_aside_nav = matches!(name, "aside" | "nav");
            info.in_form_aside_nav = info.in_aside_nav || name == "form";
            // readability-lxml tests `"{class} {id}"`; no word has a space, so none spans the
            // two and the joined value has the words of either.
            info.unlikely =
                !matches!(info.tag, Tag::Html | Tag::Body) && is_unlikely(class | id_attr);
        }
    }
    info
}

/// The attributes [`info`] reads, from one pass over an element's attributes (each name
/// comes once, [`NodeRef::attrs`]).
#[derive(Default)]
struct Attrs<'a> {
    class: Option<&'a str>,
    id: Option<&'a str>,
    hidden: bool,
    style: Option<&'a str>,
    itemprop: Option<&'a str>,
    input_type: Option<&'a str>,
}

impl<'a> Attrs<'a> {
    fn of(node: NodeRef<'a>) -> Self {
        let mut attrs = Attrs::default();
        for (name, value) in node.attrs() {
            match name {
                "class" => attrs.class = Some(value),
                "id" => attrs.id = Some(value),
                "style" => attrs.style = Some(value),
                "itemprop" => attrs.itemprop = Some(value),
                "type" => attrs.input_type = Some(value),
                "hidden" => attrs.hidden = true,
                _ => {}
            }
        }
        attrs
    }
}

/// `value` in ASCII lowercase, copied only when it has an uppercase letter.
fn lowercase(value: &str) -> Cow<'_, str> {
    if value.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(value.to_ascii_lowercase())
    } else {
        Cow::Borrowed(value)
    }
}

/// One of the word lists; its bit in [`lists_in`]'s answer is `1 << list`.
#[derive(Clone, Copy)]
enum WordList {
    Unlikely,
    Maybe,
    Positive,
    Negative,
}

impl WordList {
    const ALL: [(WordList, &'static [&'static str]); 4] = [
        (WordList::Unlikely, UNLIKELY),
        (WordList::Maybe, MAYBE),
        (WordList::Positive, POSITIVE),
        (WordList::Negative, NEGATIVE),
    ];

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The word lists `text` has a word of (`words.iter().any(|w| text.contains(w))` for each),
/// one bit per [`WordList`], from one pass of one automaton over all their words: every
/// element's class and id is tested against these lists.
fn lists_in(text: &str) -> u8 {
    static AUTOMATON: OnceLock<(AhoCorasick, Vec<u8>)> = OnceLock::new();
    const EVERY_LIST: u8 = 0b1111;
    if text.is_empty() {
        return 0;
    }
    let (automaton, lists_of) = AUTOMATON.get_or_init(|| {
        // Each word once, with the bits of every list it is in.
        let mut words: Vec<(&str, u8)> = Vec::new();
        for (list, list_words) in WordList::ALL {
            for &word in list_words {
                match words.iter_mut().find(|(w, _)| *w == word) {
                    Some((_, bits)) => *bits |= list.bit(),
                    None => words.push((word, list.bit())),
                }
            }
        }
        #[expect(clippy::expect_used, reason = "fixed words, checked by every test")]
        let automaton = AhoCorasick::new(words.iter().map(|(w, _)| w))
            .expect("the word lists build an automaton");
        (automaton, words.iter().map(|(_, bits)| *bits).collect())
    });
    let mut lists = 0;
    for found in automaton.find_overlapping_iter(text) {
        lists |= lists_of[found.pattern().as_usize()];
        if lists == EVERY_LIST {
            break;
        }
    }
    lists
}

/// Whether `text` contains any word of `list`.
fn contains_any(text: &str, list: WordList) -> bool {
    lists_in(text) & list.bit() != 0
}

/// readability-lxml's weight of a class or id value whose words are in the lists `lists`
/// ([`lists_in`]): −25 for a negative word, +25 for a positive one (both can apply).
fn weight_of(lists: u8) -> i32 {
    let mut weight = 0;
    if lists & WordList::Negative.bit() != 0 {
        weight -= 25;
    }
    if lists & WordList::Positive.bit() != 0 {
        weight += 25;
    }
    weight
}

/// Whether a class name or a `"{class} {id}"` string has a positive word (`positiveRe`).
pub(super) fn is_positive(value: &str) -> bool {
    contains_any(&value.to_ascii_lowercase(), WordList::Positive)
}

/// Whether class and id values with words of the lists `lists` ([`lists_in`]) make an unlikely
/// candidate: an unlikely word and no word that saves it.
fn is_unlikely(lists: u8) -> bool {
    lists & WordList::Unlikely.bit() != 0 && lists & WordList::Maybe.bit() == 0
}

/// Whether `text` has a full stop followed by a space or at its end (`\.( |$)`; Python's `$`
/// also matches before a final newline).
pub(super) fn ends_a_sentence(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        b == b'.'
            && match bytes.get(i + 1) {
                None | Some(b' ') => true,
                Some(b'\n') => i + 2 == bytes.len(),
                Some(_) => false,
            }
    })
}

#[cfg(test)]
mod tests {
    use dbce_dom::SanitizeConfig;
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The automata answer as testing every word in turn does, on class and id values
        /// made of the lists' words, their pieces and other letters.
        #[test]
        fn word_lists_match_like_testing_each_word(
            parts in prop::collection::vec(
                prop_oneof![
                    prop::sample::select(
                        [UNLIKELY, MAYBE, POSITIVE, NEGATIVE].concat()
                    ).prop_map(str::to_owned),
                    prop::sample::select(
                        [UNLIKELY, MAYBE, POSITIVE, NEGATIVE].concat()
                    ).prop_map(|w| w[..w.len() / 2].to_owned()),
                    "[a-z -]{0,6}",
                ],
                0..5,
            ),
        ) {
            let value = parts.concat();
            for (list, words) in WordList::ALL {
                prop_assert_eq!(
                    contains_any(&value, list),
                    words.iter().any(|w| value.contains(w)),
                    "{}", value
                );
            }
        }
    }

    proptest! {
        #[test]
        fn ascii_text_collapses_as_characters_do(text in "[ \t\n\x0b\x0c\ra-z,.\x00-\x1f]{0,40}") {
            prop_assert_eq!(collapsed_ascii_len(text.as_bytes()), collapsed_len(&text));
            prop_assert_eq!(Seg::of(&text).len as usize, collapsed_len(&text));
        }

        #[test]
        fn any_text_collapses_as_characters_do(text in "[ a\u{a0}\u{3000}\u{85}é\n]{0,20}") {
            prop_assert_eq!(Seg::of(&text).len as usize, collapsed_len(&text));
            let expected = text.split_whitespace().collect::<Vec<_>>().join(" ");
            prop_assert_eq!(Seg::of(&text).trimmed() as usize, expected.chars().count());
        }
    }

    #[test]
    fn segments_join_like_collapsed_text() {
        for (a, b) in [
            ("  Hello ", " world  "),
            ("a", " b"),
            ("", "x y"),
            ("  ", "\n\t "),
            ("a\n\n b", "c"),
        ] {
            let joined = format!("{a}{b}");
            let expected = joined.split_whitespace().collect::<Vec<_>>().join(" ");
            let seg = Seg::of(a).then(Seg::of(b));
            assert_eq!(seg, Seg::of(&joined), "{a:?} + {b:?}");
            assert_eq!(
                seg.trimmed() as usize,
                expected.chars().count(),
                "{joined:?}"
            );
        }
    }

    #[test]
    fn weights_and_unlikely_candidates() {
        let class_weight = |value: &str| weight_of(lists_in(value));
        assert_eq!(class_weight("post-body"), 25);
        assert_eq!(class_weight("sidebar"), -25);
        assert_eq!(class_weight("comment-content"), 0);
        assert_eq!(class_weight(""), 0);
        let unlikely = |class: &str, id: &str| is_unlikely(lists_in(class) | lists_in(id));
        assert!(unlikely("sidebar", ""));
        assert!(unlikely("", "footer"));
        // "and" saves it, even inside "brand", and in the other value.
        assert!(!unlikely("menu brand", ""));
        assert!(!unlikely("menu", "brand"));
        assert!(!unlikely("comments main", ""));
        assert!(!unlikely("", ""));
        assert!(!unlikely("contentwithsidebar", ""));
    }

    #[test]
    fn unlikely_candidates_spare_code_and_articles() {
        let doc = Document::parse(
            "<div class=menu id=a><article>x</article></div><div class=menu id=b>y</div>\
             <pre><span class=comment id=c>z</span></pre><div hidden id=d><p id=e>w</p></div>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let page = Page::new(&doc);
        let by_id = |id: &str| {
            let i = doc.nodes().find(|n| n.attr("id") == Some(id)).unwrap().id();
            page.nodes[i.get() as usize]
        };
        assert!(!by_id("a").unlikely);
        assert!(by_id("b").unlikely);
        assert!(!by_id("c").unlikely);
        assert!(by_id("e").hidden && !by_id("b").hidden);
    }

    #[test]
    fn body_and_html_are_never_unlikely_and_body_counts_as_positive() {
        let doc = Document::parse(
            "<body class=sidebar><div class=sidebar>x</div></body>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let page = Page::new(&doc);
        let body = page.body.unwrap() as usize;
        assert!(!page.nodes[body].unlikely);
        // -25 for the class, +25 for the id readability-lxml sets.
        assert_eq!(page.nodes[body].class_weight, 0);
        assert!(page.nodes[body + 1].unlikely);
        assert_eq!(page.nodes[body].end as usize, page.len());
    }

    #[test]
    fn sentence_ends() {
        assert!(ends_a_sentence("It rained."));
        assert!(ends_a_sentence("It rained. Then"));
        assert!(ends_a_sentence("It rained.\n"));
        assert!(!ends_a_sentence("version 2.0 out"));
        assert!(!ends_a_sentence("It rained.\n more"));
        assert!(!ends_a_sentence(""));
    }
}

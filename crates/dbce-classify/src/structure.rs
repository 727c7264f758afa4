//! Where a [`TextBlock`] sits in its page: the tags and class/id keywords above it, the group
//! of like siblings it belongs to, and what kind of page holds it. These are the structural
//! features of the learned block classifier ([`crate::BlockModel`]).
//!
//! Class and id attributes are read only through generic keywords ([`KEYWORDS`]: `comment`,
//! `price`, `nav`, …), never hashed whole, so that a model learns what posts, prices and
//! menus look like rather than the templates of the sites it was trained on.

use std::collections::HashMap;
use std::sync::OnceLock;

use dbce_dom::{Document, NodeKind, NodeRef};

use crate::block::{TextBlock, ratio};

/// Tags whose nearest enclosing instance is a feature, one bit each; `h1`–`h6` share a bit,
/// so do `td`/`th`, `ul`/`ol` and `dl`/`dt`/`dd`.
pub(crate) const TAGS: &[(&str, &[&str])] = &[
    ("li", &["li"]),
    ("list", &["ul", "ol"]),
    ("td", &["td", "th"]),
    ("table", &["table"]),
    ("pre", &["pre"]),
    ("code", &["code", "kbd", "samp"]),
    ("heading", &["h1", "h2", "h3", "h4", "h5", "h6"]),
    ("article", &["article"]),
    ("main", &["main"]),
    ("aside", &["aside"]),
    ("nav", &["nav"]),
    ("footer", &["footer"]),
    ("header", &["header"]),
    ("form", &["form", "button", "label", "select"]),
    ("dl", &["dl", "dt", "dd"]),
    ("blockquote", &["blockquote"]),
    ("section", &["section"]),
    ("a", &["a"]),
    ("p", &["p"]),
];

/// Generic keyword groups of the `class`, `id`, `role`, `itemprop` and `itemtype` attributes
/// (so schema.org's `Product`, `Question` or `Comment` count too), one bit each. A keyword of at most four letters must be
/// a whole token of the attribute (tokens split at anything but letters and digits, so
/// `ad` matches `top-ad` and not `header`); a longer one may start a token (`comment`
/// matches `commentlist`).
pub(crate) const KEYWORDS: &[(&str, &[&str])] = &[
    ("comment", &["comment", "comments", "disqus"]),
    (
        "post",
        &["post", "posts", "message", "thread", "topic", "discussion"],
    ),
    (
        "reply",
        &["reply", "replies", "answer", "response", "question"],
    ),
    ("review", &["review", "rating", "testimonial", "stars"]),
    (
        "product",
        &["product", "sku", "cart", "shop", "buy", "basket"],
    ),
    ("price", &["price", "cost", "offer", "pricing"]),
    (
        "spec",
        &[
            "spec",
            "specs",
            "specification",
            "attribute",
            "feature",
            "detail",
            "param",
        ],
    ),
    (
        "item",
        &[
            "item", "card", "tile", "grid", "teaser", "listing", "result", "entry",
        ],
    ),
    (
        "nav",
        &["nav", "navbar", "navigation", "menu", "breadcrumb", "toc"],
    ),
    (
        "footer",
        &["footer", "foot", "copyright", "legal", "contentinfo"],
    ),
    (
        "sidebar",
        &[
            "sidebar",
            "side",
            "aside",
            "widget",
            "rail",
            "complementary",
        ],
    ),
    ("share", &["share", "social", "follow", "sharing"]),
    ("cookie", &["cookie", "consent", "gdpr", "privacy"]),
    (
        "related",
        &[
            "related",
            "recommend",
            "more",
            "similar",
            "popular",
            "trending",
        ],
    ),
    (
        "ad",
        &[
            "ad",
            "ads",
            "advert",
            "sponsor",
            "promo",
            "dfp",
            "banner-ad",
        ],
    ),
    (
        "author",
        &[
            "author", "user", "byline", "avatar", "profile", "username", "member",
        ],
    ),
    (
        "meta",
        &[
            "meta",
            "date",
            "time",
            "tag",
            "tags",
            "category",
            "categories",
        ],
    ),
    (
        "content",
        &[
            "content", "article", "main", "body", "text", "story", "prose", "markdown", "doc",
            "docs",
        ],
    ),
    (
        "header",
        &["header", "masthead", "hero", "banner", "top", "topbar"],
    ),
    (
        "hidden",
        &[
            "hidden", "hide", "modal", "popup", "overlay", "dialog", "sr", "visually",
        ],
    ),
    (
        "signup",
        &[
            "newsletter",
            "subscribe",
            "signup",
            "login",
            "register",
            "account",
        ],
    ),
    ("pagination", &["pagination", "pager", "paging", "page-nav"]),
    ("title", &["title", "heading", "headline", "name"]),
    (
        "code",
        &["code", "highlight", "syntax", "example", "api", "snippet"],
    ),
    (
        "summary",
        &[
            "summary",
            "excerpt",
            "description",
            "desc",
            "intro",
            "lead",
            "abstract",
        ],
    ),
];

/// Distance given for a tag or keyword that no ancestor carries.
const ABSENT: f32 = 64.0;

/// Names of the values [`BlockStructure::push_block`] appends, in order.
pub(crate) fn block_structure_names() -> Vec<String> {
    let mut names: Vec<String> = TAGS.iter().map(|(t, _)| format!("up_tag_{t}")).collect();
    names.extend(KEYWORDS.iter().map(|(k, _)| format!("up_kw_{k}")));
    names.extend(
        [
            "group_size",
            "group_levels_up",
            "group_word_share",
            "position",
            "words_before_share",
            "word_share",
            "ends_sentence",
            "digit_share",
            "title_overlap",
        ]
        .map(String::from),
    );
    names
}

/// Names of the values [`BlockStructure::push_page`] appends, in order.
pub(crate) const PAGE_NAMES: &[&str] = &[
    "page_blocks",
    "page_words",
    "page_link_share",
    "page_h1",
    "page_headings",
    "page_pre",
    "page_code",
    "page_tables",
    "page_li",
    "page_forms",
    "page_articles",
    "page_grouped_share",
    "page_largest_group_share",
    "page_og_article",
    "page_og_product",
    "page_og_other",
    "page_kw_post",
    "page_kw_comment",
    "page_kw_reply",
    "page_kw_review",
    "page_kw_product",
    "page_kw_price",
    "page_kw_item",
    "page_kw_author",
    "page_kw_content",
    "page_tag_li",
    "page_tag_td",
];

/// The keyword groups and tags whose share of the page's words is a page feature
/// (`page_kw_…`, `page_tag_…` in [`PAGE_NAMES`]).
const PAGE_SHARES: &[&str] = &[
    "post", "comment", "reply", "review", "product", "price", "item", "author", "content", "li",
    "td",
];

/// Number of values in [`PAGE_NAMES`].
const PAGE_VALUES: usize = 27;

/// The structural context of a page's blocks, computed once per page.
pub(crate) struct BlockStructure<'a> {
    doc: &'a Document,
    blocks: &'a [TextBlock],
    /// Tag bits (low) and keyword bits (above [`TAGS`]) of each node, computed on demand;
    /// `u64::MAX` where not yet known.
    own: Vec<u64>,
    /// Words of the blocks whose element lies inside each node.
    subtree_words: Vec<u32>,
    /// Words of the blocks before each block.
    words_before: Vec<u32>,
    /// Per node: how many of its parent's element children share its tag and class, and
    /// their words; `u32::MAX` where not yet known.
    group: Vec<(u32, u32)>,
    /// Each block's group ([`BlockStructure::group_of`] of its start): worked out once, for
    /// the page's values, and read again for the block's row.
    block_groups: Vec<(f32, f32, u32)>,
    /// The keyword bits of each `class`, `id`, `role`, `itemprop` or `itemtype` value met so
    /// far: a page repeats a few values on many elements.
    keyword_bits: HashMap<&'a str, u64, foldhash::fast::FixedState>,
    page_words: u32,
    title: Vec<&'a str>,
    page: [f32; PAGE_VALUES],
}

impl<'a> BlockStructure<'a> {
    /// The context of `blocks`, the text blocks of `doc`.
    pub(crate) fn new(doc: &'a Document, blocks: &'a [TextBlock]) -> Self {
        let n = doc.len() as usize;
        let mut subtree_words = vec![0u32; n];
        for block in blocks {
            let mut node = doc.get(block.element);
            while let Some(e) = node {
                subtree_words[e.id().get() as usize] += block.words;
                node = e.parent();
            }
        }
        let mut page_words = 0u32;
        let words_before = blocks
            .iter()
            .map(|b| {
                let before = page_words;
                page_words = page_words.saturating_add(b.words);
                before
            })
            .collect();
        let mut structure = Self {
            doc,
            blocks,
            own: vec![u64::MAX; n],
            subtree_words,
            words_before,
            group: vec![(u32::MAX, 0); n],
            block_groups: Vec::with_capacity(blocks.len()),
            keyword_bits: HashMap::default(),
            page_words,
            title: doc
                .title()
                .map_or_else(Vec::new, |t| t.split_whitespace().collect()),
            page: [0.0; PAGE_VALUES],
        };
        structure.page = structure.page_context();
        structure
    }

    /// Appends block `i`'s structural values, named by [`block_structure_names`].
    pub(crate) fn push_block(&mut self, i: usize, out: &mut Vec<f32>) {
        let block = &self.blocks[i];
        let start = self.start(block);
        let mut distance = [ABSENT; 64];
        let mut level = 0.0_f32;
        let mut node = Some(start);
        while let Some(e) = node {
            let mut bits = self.own_bits(e);
            while bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if distance[bit] == ABSENT {
                    distance[bit] = level;
                }
            }
            level += 1.0;
            node = e.parent();
        }
        out.extend_from_slice(&distance[..TAGS.len() + KEYWORDS.len()]);
        let (size, levels_up, group_words) = self.block_groups[i];
        out.extend([
            size,
            levels_up,
            ratio(group_words, self.page_words),
            ratio(
                u32::try_from(i).unwrap_or(u32::MAX),
                count(self.blocks.len()),
            ),
            ratio(self.words_before[i], self.page_words),
            ratio(block.words, self.page_words),
            f32::from(u8::from(block.text.ends_with(['.', '!', '?', ':']))),
            digit_share(&block.text),
            self.title_overlap(&block.text),
        ]);
    }

    /// Appends the page's context values, named by [`PAGE_NAMES`].
    pub(crate) fn push_page(&self, out: &mut Vec<f32>) {
        out.extend_from_slice(&self.page);
    }

    /// The element of the block's first text node, which also sees inline ancestors such as
    /// `<code>` or `<a>`.
    fn start(&self, block: &TextBlock) -> NodeRef<'a> {
        let first = block.nodes.first().copied().unwrap_or(block.element);
        self.doc
            .get(first)
            .and_then(NodeRef::parent)
            .or_else(|| self.doc.get(block.element))
            .unwrap_or_else(|| self.doc.root())
    }

    /// Tag bits (low) and keyword bits (above [`TAGS`]) of `node`; 0 for nodes that are not
    /// elements.
    fn own_bits(&mut self, node: NodeRef<'a>) -> u64 {
        let i = node.id().get() as usize;
        if self.own[i] == u64::MAX {
            let Some(name) = node.name() else {
                self.own[i] = 0;
                return 0;
            };
            let mut bits = tag_bits(name);
            for (attr, value) in node.attrs() {
                if matches!(attr, "class" | "id" | "role" | "itemprop" | "itemtype") {
                    bits |= *self
                        .keyword_bits
                        .entry(value)
                        .or_insert_with(|| keyword_bits(value));
                }
            }
            self.own[i] = bits;
        }
        self.own[i]
    }

    /// The nearest ancestor (from `start` up, below `<body>`) that has at least two element
    /// siblings of its tag and class: the group's size, how many levels up it is, and its
    /// words. `(1, ABSENT, 0)` when there is none.
    fn group_of(&mut self, start: NodeRef<'_>) -> (f32, f32, u32) {
        let mut level = 0.0_f32;
        let mut node = Some(start);
        while let Some(e) = node {
            let Some(parent) = e.parent() else { break };
            if e.is_element("body") || e.is_element("html") {
                break;
            }
            let (size, words) = self.siblings_like(e, parent);
            if size >= 3 {
                #[allow(clippy::cast_precision_loss)]
                return (size as f32, level, words);
            }
            level += 1.0;
            node = Some(parent);
        }
        (1.0, ABSENT, 0)
    }

    /// How many element children of `parent` share `node`'s tag and class, and their words
    /// (none for a node that is not an element). The first call for any child of `parent`
    /// settles every child's group at once.
    fn siblings_like(&mut self, node: NodeRef<'_>, parent: NodeRef<'_>) -> (u32, u32) {
        let i = node.id().get() as usize;
        if node.kind() != NodeKind::Element {
            return (0, 0);
        }
        if self.group[i].0 != u32::MAX {
            return self.group[i];
        }
        let mut children: Vec<(Option<&str>, Option<&str>, usize)> = parent
            .children()
            .filter(|c| c.kind() == NodeKind::Element)
            .map(|c| (c.name(), c.attr("class"), c.id().get() as usize))
            .collect();
        // Children of one tag and class next to each other.
        children.sort_unstable();
        for like in children.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
            let size = u32::try_from(like.len()).unwrap_or(u32::MAX);
            let words = like.iter().map(|c| self.subtree_words[c.2]).sum();
            for c in like {
                self.group[c.2] = (size, words);
            }
        }
        self.group[i]
    }

    /// Share of the block's words (ASCII case ignored) that are in the page title; 0 for
    /// blocks of more than 40 words, which are no titles.
    fn title_overlap(&self, text: &str) -> f32 {
        if self.title.is_empty() {
            return 0.0;
        }
        let (mut words, mut hits) = (0u32, 0u32);
        for word in text.split_whitespace() {
            words += 1;
            if words > 40 {
                return 0.0;
            }
            hits += u32::from(self.title.iter().any(|t| t.eq_ignore_ascii_case(word)));
        }
        ratio(hits, words)
    }

    /// The page-level values of [`PAGE_NAMES`].
    fn page_context(&mut self) -> [f32; PAGE_VALUES] {
        let mut tags = [0u32; 8];
        let mut og = [0.0_f32; 3];
        for node in self.doc.nodes() {
            let slot = match node.name() {
                Some("h1") => 0,
                Some("h2" | "h3" | "h4" | "h5" | "h6") => 1,
                Some("pre") => 2,
                Some("code") => 3,
                Some("table") => 4,
                Some("li") => 5,
                Some("form") => 6,
                Some("article") => 7,
                Some("meta") if node.attr("property") == Some("og:type") => {
                    let kind = node.attr("content").unwrap_or_default();
                    og[match kind {
                        "article" => 0,
                        "product" | "og:product" | "product.item" => 1,
                        _ => 2,
                    }] = 1.0;
                    continue;
                }
                _ => continue,
            };
            tags[slot] += 1;
        }
        let share_bits: Vec<u32> = PAGE_SHARES.iter().map(|&name| share_bit(name)).collect();
        let mut shares = [0u32; PAGE_SHARES.len()];
        let linked: u32 = self.blocks.iter().map(|b| b.linked_words).sum();
        let (mut grouped, mut largest) = (0u32, 0u32);
        for i in 0..self.blocks.len() {
            let start = self.start(&self.blocks[i]);
            let words = self.blocks[i].words;
            let group = self.group_of(start);
            self.block_groups.push(group);
            let (_, levels_up, group_words) = group;
            if levels_up < ABSENT {
                grouped += words;
                largest = largest.max(group_words);
            }
            let mut bits = 0u64;
            let mut node = Some(start);
            while let Some(e) = node {
                bits |= self.own_bits(e);
                node = e.parent();
            }
            for (share, &bit) in shares.iter_mut().zip(&share_bits) {
                if bits & (1 << bit) != 0 {
                    *share += words;
                }
            }
        }
        let mut page = [0.0; PAGE_VALUES];
        page[0] = log_count(count(self.blocks.len()));
        page[1] = log_count(self.page_words);
        page[2] = ratio(linked, self.page_words);
        for (slot, n) in page[3..11].iter_mut().zip(tags) {
            *slot = log_count(n);
        }
        page[11] = ratio(grouped, self.page_words);
        page[12] = ratio(largest, self.page_words);
        page[13..16].copy_from_slice(&og);
        for (slot, n) in page[16..].iter_mut().zip(shares) {
            *slot = ratio(n, self.page_words);
        }
        page
    }
}

/// The bit of a keyword group, or else of a tag, named `name`.
fn share_bit(name: &str) -> u32 {
    let keyword = KEYWORDS
        .iter()
        .position(|(k, _)| *k == name)
        .map(|k| TAGS.len() + k);
    let tag = || TAGS.iter().position(|(t, _)| *t == name);
    u32::try_from(keyword.or_else(tag).unwrap_or(63)).unwrap_or(63)
}

/// The bits of the [`TAGS`] groups an element of this name is in.
fn tag_bits(name: &str) -> u64 {
    let mut bits = 0u64;
    for (bit, (_, names)) in TAGS.iter().enumerate() {
        if names.contains(&name) {
            bits |= 1 << bit;
        }
    }
    bits
}

/// The bits (above [`TAGS`]) of the [`KEYWORDS`] groups an attribute value carries, read
/// token by token (runs of letters and digits).
fn keyword_bits(value: &str) -> u64 {
    let by_first_byte = keywords_by_first_byte();
    let mut bits = 0u64;
    for token in value
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
    {
        let first = token.as_bytes()[0].to_ascii_lowercase();
        for &(k, keyword) in by_first_byte.get(usize::from(first)).into_iter().flatten() {
            if keyword_matches(keyword, token) {
                bits |= 1 << (TAGS.len() + k);
            }
        }
    }
    bits
}

/// The keywords of [`KEYWORDS`] with their group, by their first (ASCII) byte: a token is
/// only compared with the keywords that start like it.
fn keywords_by_first_byte() -> &'static [Vec<(usize, &'static str)>] {
    static INDEX: OnceLock<Vec<Vec<(usize, &'static str)>>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = vec![Vec::new(); 128];
        for (k, (_, words)) in KEYWORDS.iter().enumerate() {
            for &word in *words {
                if let Some(slot) = index.get_mut(usize::from(word.as_bytes()[0])) {
                    slot.push((k, word));
                }
            }
        }
        index
    })
}

/// Whether class/id `token` carries `keyword` (see [`KEYWORDS`]).
fn keyword_matches(keyword: &str, token: &str) -> bool {
    if keyword.len() <= 4 {
        token.eq_ignore_ascii_case(keyword)
    } else {
        token.len() >= keyword.len()
            && token.is_char_boundary(keyword.len())
            && token[..keyword.len()].eq_ignore_ascii_case(keyword)
    }
}

fn digit_share(text: &str) -> f32 {
    let (mut chars, mut digits) = (0u32, 0u32);
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        chars += 1;
        digits += u32::from(c.is_ascii_digit());
    }
    ratio(digits, chars)
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[allow(clippy::cast_precision_loss)]
fn log_count(n: u32) -> f32 {
    (n as f32).ln_1p()
}

#[cfg(test)]
mod tests {
    use dbce_dom::SanitizeConfig;

    use super::*;
    use crate::text_blocks;

    fn rows(html: &str) -> (Vec<Vec<f32>>, Vec<f32>) {
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        let blocks = text_blocks(&doc);
        let mut s = BlockStructure::new(&doc, &blocks);
        let rows = (0..blocks.len())
            .map(|i| {
                let mut out = Vec::new();
                s.push_block(i, &mut out);
                out
            })
            .collect();
        let mut page = Vec::new();
        s.push_page(&mut page);
        (rows, page)
    }

    fn column(name: &str) -> usize {
        block_structure_names()
            .iter()
            .position(|n| n == name)
            .unwrap()
    }

    #[test]
    fn keywords_match_whole_short_tokens_and_prefixes_of_long_ones() {
        assert!(keyword_matches("ad", "ad"));
        assert!(!keyword_matches("ad", "header"));
        assert!(keyword_matches("comment", "commentlist"));
        assert!(!keyword_matches("comment", "comm"));
    }

    #[test]
    fn nearest_tags_and_keywords_are_counted_in_levels() {
        let (rows, _) = rows(
            "<body><nav class=menu><ul><li><a href=/>Home</a></li></ul></nav>\
             <div class=post-body><p>Some text here.</p><pre><code>let x = 1;</code></pre></div></body>",
        );
        assert_eq!(rows.len(), 3);
        // "Home": parent a (0), li (1), ul (2), nav (3).
        assert_eq!(rows[0][column("up_tag_a")], 0.0);
        assert_eq!(rows[0][column("up_tag_li")], 1.0);
        assert_eq!(rows[0][column("up_tag_nav")], 3.0);
        assert_eq!(rows[0][column("up_kw_nav")], 3.0);
        assert_eq!(rows[0][column("up_kw_post")], ABSENT);
        assert_eq!(rows[1][column("up_kw_post")], 1.0);
        assert_eq!(rows[1][column("up_kw_content")], 1.0);
        assert_eq!(rows[1][column("ends_sentence")], 1.0);
        assert_eq!(rows[2][column("up_tag_code")], 0.0);
        assert_eq!(rows[2][column("up_tag_pre")], 1.0);
    }

    #[test]
    fn repeated_siblings_make_a_group() {
        let (rows, page) = rows(
            "<body><h1>Thread</h1><div class=msg><p>first post</p></div><div class=msg><p>second post</p></div>\
             <div class=msg><p>third post</p></div><div class=other><p>alone</p></div></body>",
        );
        let (size, up, share) = (
            column("group_size"),
            column("group_levels_up"),
            column("group_word_share"),
        );
        assert_eq!(rows[1][size], 3.0);
        assert_eq!(rows[1][up], 1.0);
        assert!((rows[1][share] - 6.0 / 8.0).abs() < 1e-6);
        assert_eq!(rows[4][size], 1.0);
        assert_eq!(rows[0][up], ABSENT);
        assert!((page[11] - 6.0 / 8.0).abs() < 1e-6);
        assert!((page[3] - 2f32.ln()).abs() < 1e-6, "one h1");
    }

    #[test]
    fn names_match_the_values() {
        let (rows, page) = rows("<body><p>a b c</p></body>");
        assert_eq!(rows[0].len(), block_structure_names().len());
        assert_eq!(page.len(), PAGE_NAMES.len());
        assert_eq!(PAGE_VALUES, PAGE_NAMES.len());
        for name in PAGE_SHARES {
            assert!(share_bit(name) < 63, "{name}");
            assert!(
                PAGE_NAMES.iter().any(|p| p.ends_with(&format!("_{name}"))),
                "{name}"
            );
        }
    }
}

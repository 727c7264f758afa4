//! The features of a page that tell its type: words of the URL path, the shape of the DOM,
//! structured-data types, and phrases of the text.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use dbce_dom::{Document, NodeKind, NodeRef, word_count};
use memchr::memmem;

/// Names of the values [`page_type_features`] returns, in order. A [`super::PageTypeModel`]
/// stores them and is refused by a build whose layout differs.
pub const PAGE_TYPE_FEATURE_NAMES: [&str; WIDTH] = [
    // URL
    "url_depth",
    "url_root",
    "url_last_segment_words",
    "url_last_segment_len",
    "url_has_query",
    "url_page_number",
    "url_year",
    "url_numeric_segment",
    "url_file_extension",
    "url_words_article",
    "url_words_forum",
    "url_words_product",
    "url_words_collection",
    "url_words_listing",
    "url_words_documentation",
    "url_words_service",
    "url_words_error",
    // DOM: how many of each element, per 100 elements
    "elements_log",
    "share_li",
    "share_article",
    "share_table_cells",
    "share_pre",
    "share_code",
    "share_form",
    "share_input",
    "share_button",
    "share_h1",
    "share_h2",
    "share_h3",
    "share_h4_h6",
    "share_p",
    "share_a",
    "share_img",
    "share_section",
    "share_time",
    "share_dl",
    "share_blockquote",
    "count_h1",
    "count_article",
    "count_pre",
    "count_form",
    "count_time",
    "longest_sibling_run",
    "sibling_runs_of_5",
    "share_in_sibling_runs",
    // DOM: where the words are, as shares of the body's words
    "words_log",
    "share_words_linked",
    "share_words_li",
    "share_words_p",
    "share_words_code",
    "share_words_heading",
    "share_words_table",
    "share_words_form",
    "words_per_p",
    "words_per_li",
    // structured data
    "og_article",
    "og_product",
    "og_website",
    "schema_article",
    "schema_forum",
    "schema_product",
    "schema_collection",
    "schema_documentation",
    "schema_service",
    "schema_breadcrumb",
    "json_ld_article",
    "json_ld_forum",
    "json_ld_product",
    "json_ld_collection",
    "json_ld_documentation",
    "json_ld_service",
    "json_ld_breadcrumb",
    // text
    "prices_per_1000_words",
    "prices",
    "dates",
    "code_like_lines",
    "phrases_shop",
    "phrases_forum",
    "phrases_article",
    "phrases_listing",
    "phrases_documentation",
    "phrases_service",
    "phrases_error",
    "phrases_login",
    "title_error",
    "title_words",
];

const WIDTH: usize = 86;

/// The page-type features of the page `doc` parsed from `html`, captured at `url`, laid out
/// as [`PAGE_TYPE_FEATURE_NAMES`].
///
/// One pass over the DOM, one over its body text and one search of the raw HTML for JSON-LD
/// `@type` values (the sanitiser drops `<script>`, so structured data in JSON-LD survives only
/// there).
pub fn page_type_features(doc: &Document, url: &str, html: &str) -> Vec<f32> {
    let mut row = Vec::with_capacity(WIDTH);
    let path = url_path(url);
    push_url(&path, &mut row);
    let shape = DomShape::of(doc);
    shape.push(&mut row);
    push_structured_data(&shape, html, &mut row);
    push_text(&shape, doc.title().unwrap_or_default(), &mut row);
    debug_assert_eq!(row.len(), WIDTH);
    row
}

/// The lowercase path and query of `url`, without scheme and host.
fn url_path(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = rest.find('/').map_or("", |i| &rest[i..]);
    let path = path.split('#').next().unwrap_or_default();
    path.to_ascii_lowercase()
}

/// Path words that point to each learned type, in [`super::PageType::LEARNED`] order, then
/// those of error pages.
const URL_WORDS: [&[&str]; 8] = [
    &[
        "article", "articles", "blog", "news", "post", "posts", "story", "stories", "opinion",
    ],
    &[
        "forum",
        "forums",
        "thread",
        "threads",
        "topic",
        "t",
        "questions",
        "question",
        "q",
        "community",
        "discussion",
        "discussions",
        "discuss",
        "comments",
        "r",
        "answers",
        "board",
        "viewtopic",
        "showthread",
    ],
    &[
        "product", "products", "p", "item", "items", "dp", "buy", "sku", "pd", "prod",
    ],
    &[
        "category",
        "categories",
        "collection",
        "collections",
        "c",
        "catalog",
        "catalogue",
        "department",
        "shop",
        "store",
        "browse",
        "cat",
    ],
    &[
        "tag", "tags", "page", "archive", "archives", "author", "search", "latest", "feed",
        "index", "list", "all",
    ],
    &[
        "docs",
        "doc",
        "documentation",
        "api",
        "reference",
        "manual",
        "guide",
        "guides",
        "wiki",
        "developer",
        "developers",
        "sdk",
        "tutorial",
        "tutorials",
        "help",
        "kb",
        "learn",
        "v1",
        "v2",
        "latest",
    ],
    &[
        "services",
        "service",
        "solutions",
        "solution",
        "pricing",
        "features",
        "platform",
        "enterprise",
        "use-cases",
        "integrations",
        "about",
        "company",
    ],
    &[
        "404", "error", "login", "signin", "sign-in", "log-in", "register", "auth",
    ],
];

fn push_url(path: &str, row: &mut Vec<f32>) {
    let (path_only, query) = path.split_once('?').unwrap_or((path, ""));
    let segments: Vec<&str> = path_only.split('/').filter(|s| !s.is_empty()).collect();
    let last = segments.last().copied().unwrap_or_default();
    let stem = last.rsplit_once('.').map_or(last, |(stem, _)| stem);
    let is_number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let page_number = segments
        .windows(2)
        .any(|w| w[0] == "page" && is_number(w[1]))
        || query.split('&').any(|kv| {
            kv.split_once('=')
                .is_some_and(|(k, v)| matches!(k, "page" | "p" | "pg") && is_number(v))
        });
    let year = segments
        .iter()
        .any(|s| s.len() == 4 && is_number(s) && (s.starts_with("19") || s.starts_with("20")));
    row.extend([
        segments.len() as f32,
        f32::from(segments.is_empty()),
        stem.split(['-', '_']).filter(|w| !w.is_empty()).count() as f32,
        stem.len() as f32,
        f32::from(!query.is_empty()),
        f32::from(page_number),
        f32::from(year),
        f32::from(segments.iter().any(|s| is_number(s))),
        f32::from(last.contains('.')),
    ]);
    let words: Vec<&str> = path
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    for list in URL_WORDS {
        row.push(words.iter().filter(|w| list.contains(w)).count() as f32);
    }
}

/// Elements counted by [`DomShape`], in the order of their features.
const COUNTED: [&[&str]; 19] = [
    &["li"],
    &["article"],
    &["td", "th"],
    &["pre"],
    &["code"],
    &["form"],
    &["input", "select", "textarea"],
    &["button"],
    &["h1"],
    &["h2"],
    &["h3"],
    &["h4", "h5", "h6"],
    &["p"],
    &["a"],
    &["img"],
    &["section"],
    &["time"],
    &["dl"],
    &["blockquote"],
];

/// Where a text node sits, as bits over its ancestors.
mod within {
    pub(super) const LINK: u8 = 1;
    pub(super) const LI: u8 = 2;
    pub(super) const P: u8 = 4;
    pub(super) const CODE: u8 = 8;
    pub(super) const HEADING: u8 = 16;
    pub(super) const TABLE: u8 = 32;
    pub(super) const FORM: u8 = 64;
    pub(super) const BODY: u8 = 128;
}

fn context_bit(name: &str) -> u8 {
    match name {
        "a" => within::LINK,
        "li" => within::LI,
        "p" => within::P,
        "pre" | "code" => within::CODE,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => within::HEADING,
        "table" => within::TABLE,
        "form" => within::FORM,
        "body" => within::BODY,
        _ => 0,
    }
}

/// Counts over one pass of the DOM.
#[derive(Default)]
struct DomShape {
    elements: u32,
    counted: [u32; COUNTED.len()],
    longest_sibling_run: u32,
    sibling_runs_of_5: u32,
    in_sibling_runs: u32,
    /// Body words in each context of [`within`], by bit position.
    words_within: [u32; 8],
    words: u32,
    og_type: String,
    /// `itemtype` values, lowercase, space separated.
    item_types: String,
    /// The body's text, lowercase, one text node per line, at most [`MAX_TEXT`] bytes.
    text: String,
}

/// How much body text the phrase counts read.
const MAX_TEXT: usize = 200_000;

impl DomShape {
    fn of(doc: &Document) -> Self {
        let mut shape = DomShape::default();
        let mut context = vec![0u8; doc.len() as usize];
        for node in doc.nodes() {
            let parent_context = node.parent().map_or(0, |p| context[p.id().get() as usize]);
            match node.kind() {
                NodeKind::Element => {
                    let name = node.name().unwrap_or_default();
                    context[node.id().get() as usize] = parent_context | context_bit(name);
                    shape.count_element(node, name);
                }
                NodeKind::Text => shape.count_text(node.text().unwrap_or_default(), parent_context),
                NodeKind::Document => {}
            }
        }
        shape.text.make_ascii_lowercase();
        shape
    }

    fn count_element(&mut self, node: NodeRef<'_>, name: &str) {
        self.elements += 1;
        if let Some(i) = COUNTED.iter().position(|names| names.contains(&name)) {
            self.counted[i] += 1;
        }
        if let Some(item_type) = node.attr("itemtype") {
            self.item_types.push_str(&item_type.to_ascii_lowercase());
            self.item_types.push(' ');
        }
        if name == "meta" && node.attr("property") == Some("og:type") {
            self.og_type = node
                .attr("content")
                .unwrap_or_default()
                .to_ascii_lowercase();
        }
        self.count_sibling_runs(node);
    }

    /// Runs of consecutive element children with the same name and class: the repeated
    /// structures of posts, items and teasers.
    fn count_sibling_runs(&mut self, node: NodeRef<'_>) {
        let mut run = 0u32;
        let mut previous: Option<(&str, &str)> = None;
        let close = |run: u32, shape: &mut DomShape| {
            shape.longest_sibling_run = shape.longest_sibling_run.max(run);
            if run >= 5 {
                shape.sibling_runs_of_5 += 1;
                shape.in_sibling_runs += run;
            }
        };
        for child in node.children().filter(|c| c.kind() == NodeKind::Element) {
            let key = (
                child.name().unwrap_or_default(),
                child.attr("class").unwrap_or_default(),
            );
            if previous == Some(key) {
                run += 1;
            } else {
                close(run, self);
                run = 1;
                previous = Some(key);
            }
        }
        close(run, self);
    }

    fn count_text(&mut self, text: &str, context: u8) {
        if context & within::BODY == 0 {
            return;
        }
        let words = word_count(text) as u32;
        self.words += words;
        for bit in 0..8 {
            if context & (1 << bit) != 0 {
                self.words_within[bit] += words;
            }
        }
        if self.text.len() < MAX_TEXT && words > 0 {
            self.text.push_str(text.trim());
            self.text.push('\n');
        }
    }

    fn push(&self, row: &mut Vec<f32>) {
        let elements = self.elements.max(1) as f32;
        row.push((self.elements as f32).ln_1p());
        row.extend(self.counted.iter().map(|&n| 100.0 * n as f32 / elements));
        // `h1`, `article`, `pre`, `form`, `time` as plain counts.
        row.extend([8, 1, 3, 5, 16].map(|i| self.counted[i] as f32));
        row.extend([
            self.longest_sibling_run as f32,
            self.sibling_runs_of_5 as f32,
            self.in_sibling_runs as f32 / elements,
        ]);
        let words = self.words.max(1) as f32;
        row.push((self.words as f32).ln_1p());
        let share = |bit: u8| self.words_within[bit.trailing_zeros() as usize] as f32 / words;
        row.extend([
            share(within::LINK),
            share(within::LI),
            share(within::P),
            share(within::CODE),
            share(within::HEADING),
            share(within::TABLE),
            share(within::FORM),
        ]);
        let per = |bit: u8, count: usize| {
            self.words_within[bit.trailing_zeros() as usize] as f32
                / self.counted[count].max(1) as f32
        };
        row.extend([per(within::P, 12), per(within::LI, 0)]);
    }
}

/// schema.org types that point to each type (lowercase), then breadcrumbs.
const SCHEMA_TYPES: [&[&str]; 7] = [
    &[
        "article",
        "newsarticle",
        "blogposting",
        "report",
        "scholarlyarticle",
        "reportagenewsarticle",
    ],
    &[
        "discussionforumposting",
        "qapage",
        "question",
        "answer",
        "comment",
        "socialmediaposting",
    ],
    &[
        "product",
        "offer",
        "aggregateoffer",
        "productgroup",
        "individualproduct",
        "productmodel",
    ],
    &[
        "collectionpage",
        "itemlist",
        "offercatalog",
        "searchresultspage",
    ],
    &["techarticle", "apireference", "softwaresourcecode", "howto"],
    &[
        "service",
        "softwareapplication",
        "webapplication",
        "professionalservice",
        "faqpage",
        "localbusiness",
    ],
    &["breadcrumblist"],
];

fn push_structured_data(shape: &DomShape, html: &str, row: &mut Vec<f32>) {
    let og = shape.og_type.as_str();
    row.extend([
        f32::from(og == "article" || og.starts_with("article")),
        f32::from(og.starts_with("product") || og == "og:product"),
        f32::from(og == "website"),
    ]);
    let item_types: Vec<&str> = shape
        .item_types
        .split_whitespace()
        .map(|t| t.rsplit('/').next().unwrap_or(t))
        .collect();
    push_schema_counts(&item_types, row);
    let json_ld = json_ld_types(html);
    let json_ld: Vec<&str> = json_ld.iter().map(String::as_str).collect();
    push_schema_counts(&json_ld, row);
}

fn push_schema_counts(types: &[&str], row: &mut Vec<f32>) {
    for list in SCHEMA_TYPES {
        row.push(types.iter().filter(|t| list.contains(t)).count() as f32);
    }
}

/// The values of JSON-LD `"@type"` keys in the raw HTML, lowercase, schema.org prefix removed:
/// a string or the strings of an array.
fn json_ld_types(html: &str) -> Vec<String> {
    let bytes = html.as_bytes();
    let mut types = Vec::new();
    for at in memmem::find_iter(bytes, b"\"@type\"") {
        let rest = html[at + 7..].trim_start();
        let Some(rest) = rest.strip_prefix(':') else {
            continue;
        };
        let rest = rest.trim_start();
        let list = if let Some(array) = rest.strip_prefix('[') {
            array.split(']').next().unwrap_or_default()
        } else {
            rest
        };
        for value in list.split(',').take(8) {
            let Some(value) = value.trim().strip_prefix('"') else {
                break;
            };
            let Some((value, _)) = value.split_once('"') else {
                break;
            };
            let value = value.rsplit('/').next().unwrap_or(value);
            types.push(value.to_ascii_lowercase());
            if !rest.starts_with('[') {
                break;
            }
        }
    }
    types
}

/// Phrases of the text that point to each type: shop, forum, article, listing,
/// documentation, service, error, login (lowercase).
const PHRASES: [&[&str]; 8] = [
    &[
        "add to cart",
        "add to basket",
        "add to bag",
        "buy now",
        "in stock",
        "out of stock",
        "sku",
        "free shipping",
        "quantity",
        "customer reviews",
        "write a review",
    ],
    &[
        "reply",
        "replies",
        "posted by",
        "joined",
        "quote",
        "upvote",
        "answered",
        "asked",
        "posts:",
        "thread",
        "report post",
        "permalink",
    ],
    &[
        "min read",
        "published",
        "updated",
        "share this",
        "related articles",
        "written by",
        "comments",
    ],
    &[
        "read more",
        "continue reading",
        "next page",
        "older posts",
        "load more",
        "previous",
        "view all",
    ],
    &[
        "parameters",
        "returns",
        "example",
        "install",
        "syntax",
        "usage",
        "on this page",
        "edit this page",
        "api",
        "table of contents",
    ],
    &[
        "get started",
        "contact us",
        "book a demo",
        "request a demo",
        "free trial",
        "our services",
        "pricing",
        "learn more",
        "our team",
        "testimonials",
    ],
    &[
        "404",
        "not found",
        "page you are looking for",
        "page you requested",
        "doesn't exist",
        "does not exist",
        "no longer available",
        "has been removed",
    ],
    &[
        "sign in",
        "log in",
        "login",
        "password",
        "forgot",
        "create an account",
        "sign up",
    ],
];

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may ",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

fn push_text(shape: &DomShape, title: &str, row: &mut Vec<f32>) {
    let text = shape.text.as_str();
    let counts = count_text_patterns(text);
    let prices = counts.prices as f32;
    row.extend([
        1000.0 * prices / shape.words.max(1) as f32,
        prices,
        (counts.named_dates + count_iso_dates(text)) as f32,
        text.lines().filter(|l| is_code_like(l)).count() as f32,
    ]);
    row.extend(counts.phrases.map(|n| n as f32));
    let title = title.to_ascii_lowercase();
    row.extend([
        f32::from(PHRASES[6].iter().any(|p| title.contains(p)) || title.contains("error")),
        title.split_whitespace().count() as f32,
    ]);
}

/// Currency symbols and codes that make a price next to a number: `$12.99`, `€ 5`, `12,00 €`,
/// `USD 40` (lowercase).
const CURRENCIES: [&str; 8] = ["$", "€", "£", "¥", "₹", "usd", "eur", "gbp"];

/// What one scan of the text finds.
struct TextCounts {
    /// Occurrences of each list of [`PHRASES`].
    phrases: [usize; PHRASES.len()],
    /// Currencies next to a number.
    prices: usize,
    /// Month names followed by a number.
    named_dates: usize,
}

/// Every phrase, month and currency, in one automaton: a single pass over the text instead of
/// one per pattern. Pattern ids run through [`PHRASES`] list by list, then [`MONTHS`], then
/// [`CURRENCIES`].
fn text_patterns() -> &'static (AhoCorasick, Vec<PatternKind>) {
    static PATTERNS: OnceLock<(AhoCorasick, Vec<PatternKind>)> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let mut patterns: Vec<&str> = Vec::new();
        let mut kinds = Vec::new();
        for (list, phrases) in PHRASES.iter().enumerate() {
            patterns.extend_from_slice(phrases);
            kinds.extend(phrases.iter().map(|_| PatternKind::Phrase(list)));
        }
        patterns.extend_from_slice(&MONTHS);
        kinds.extend(MONTHS.iter().map(|_| PatternKind::Month));
        patterns.extend_from_slice(&CURRENCIES);
        kinds.extend(CURRENCIES.iter().map(|_| PatternKind::Currency));
        #[expect(clippy::expect_used, reason = "fixed patterns, checked by every test")]
        let automaton = AhoCorasick::new(&patterns).expect("the text patterns build");
        (automaton, kinds)
    })
}

/// What a pattern of [`text_patterns`] counts.
#[derive(Clone, Copy)]
enum PatternKind {
    Phrase(usize),
    Month,
    Currency,
}

fn count_text_patterns(text: &str) -> TextCounts {
    let (automaton, kinds) = text_patterns();
    let mut counts = TextCounts {
        phrases: [0; PHRASES.len()],
        prices: 0,
        named_dates: 0,
    };
    let digit_after = |end: usize| {
        text[end..]
            .trim_start()
            .starts_with(|c: char| c.is_ascii_digit())
    };
    for found in automaton.find_overlapping_iter(text) {
        match kinds[found.pattern().as_usize()] {
            PatternKind::Phrase(list) => counts.phrases[list] += 1,
            PatternKind::Month => counts.named_dates += usize::from(digit_after(found.end())),
            PatternKind::Currency => {
                let before = text[..found.start()].trim_end();
                let price =
                    digit_after(found.end()) || before.ends_with(|c: char| c.is_ascii_digit());
                counts.prices += usize::from(price);
            }
        }
    }
    counts
}

/// Dates written `2024-05-01`.
fn count_iso_dates(text: &str) -> usize {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'-', bytes)
        .filter(|&dash| {
            dash >= 4
                && dash + 6 <= bytes.len()
                && bytes[dash + 3] == b'-'
                && [
                    dash - 4,
                    dash - 3,
                    dash - 2,
                    dash - 1,
                    dash + 1,
                    dash + 2,
                    dash + 4,
                    dash + 5,
                ]
                .iter()
                .all(|&i| bytes[i].is_ascii_digit())
        })
        .count()
}

/// A line that looks like program code: brackets and an operator or a statement end.
fn is_code_like(line: &str) -> bool {
    let line = line.trim();
    let brackets = line.contains('(') && line.contains(')') || line.contains('{');
    let operator = line.ends_with(';')
        || line.ends_with('{')
        || line.contains(" = ")
        || line.contains("=>")
        || line.contains("::")
        || line.starts_with("$ ");
    brackets && operator
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbce_dom::SanitizeConfig;

    fn row(html: &str, url: &str) -> Vec<f32> {
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        page_type_features(&doc, url, html)
    }

    fn value(row: &[f32], name: &str) -> f32 {
        let i = PAGE_TYPE_FEATURE_NAMES
            .iter()
            .position(|n| *n == name)
            .unwrap();
        row[i]
    }

    #[test]
    fn url_words_count_per_type() {
        let r = row(
            "<p>x</p>",
            "https://shop.example/products/blue-shoe-42?page=2",
        );
        assert_eq!(value(&r, "url_words_product"), 1.0);
        assert_eq!(value(&r, "url_page_number"), 1.0);
        assert_eq!(value(&r, "url_depth"), 2.0);
        assert_eq!(value(&r, "url_last_segment_words"), 3.0);
        let r = row("<p>x</p>", "https://example.org/");
        assert_eq!(value(&r, "url_root"), 1.0);
    }

    #[test]
    fn json_ld_types_survive_the_sanitiser_through_the_raw_html() {
        let html = r#"<script type="application/ld+json">{"@context":"https://schema.org",
            "@graph":[{"@type": ["Product","Thing"]},{"@type":"BreadcrumbList"}]}</script><p>Shoe</p>"#;
        assert_eq!(json_ld_types(html), ["product", "thing", "breadcrumblist"]);
        let r = row(html, "https://example.org/x");
        assert_eq!(value(&r, "json_ld_product"), 1.0);
        assert_eq!(value(&r, "json_ld_breadcrumb"), 1.0);
        assert_eq!(value(&r, "schema_product"), 0.0);
    }

    #[test]
    fn repeated_siblings_and_word_contexts_are_counted() {
        let items = "<li class=i><a href=/a>One item title</a></li>".repeat(6);
        let html = format!(
            "<head><meta property=og:type content=website></head>\
             <body><ul>{items}</ul><p>Price $12.99 in stock, add to cart.</p></body>"
        );
        let r = row(&html, "https://example.org/c/shoes");
        assert_eq!(value(&r, "longest_sibling_run"), 6.0);
        assert_eq!(value(&r, "sibling_runs_of_5"), 1.0);
        assert_eq!(value(&r, "og_website"), 1.0);
        assert_eq!(value(&r, "prices"), 1.0);
        assert_eq!(value(&r, "phrases_shop"), 2.0);
        assert!((value(&r, "share_words_linked") - 18.0 / 25.0).abs() < 1e-6);
    }

    #[test]
    fn code_lines_and_dates_are_found() {
        assert!(is_code_like("let x = foo(1);"));
        assert!(!is_code_like("Posted on May 3 (a Monday)."));
        let text = "posted march 3, 2024 and 2024-05-01; may 2024-05-02x";
        assert_eq!(count_text_patterns(text).named_dates, 2);
        assert_eq!(count_iso_dates(text), 2);
        assert_eq!(count_text_patterns("from $ 5 or 12,00 € — usd").prices, 2);
    }
}

//! Arc90 Readability's content scoring, as readability-lxml 0.9 implements it, over dbce-dom's
//! tree, with a verdict per [`TextBlock`].
//!
//! The steps follow readability-lxml's `Document.summary`:
//! 1. *unlikely candidates*: elements whose class or id names a comment, footer, sidebar, menu…
//!    (and not an article, body, column, main…) are removed with their subtree;
//! 2. a `<div>` with no `<a…`, `<p…`, `<div>`, `<img>`, `<table>`, lists or `<blockquote>`
//!    anywhere inside is read as a paragraph; text directly inside other `<div>`s makes
//!    paragraphs of its own;
//! 3. every paragraph (`<p>`, such a `<div>` or text, `<pre>`, `<td>`) of at least
//!    [`Readability::min_text_length`] characters scores 1 + (commas + 1) + min(length / 100,
//!    3), added to its parent and half of it to its grandparent. A candidate starts from its
//!    tag's weight (`<div>`/`<article>` +5, `<pre>`/`<td>`/`<blockquote>` +3, lists, forms and
//!    `<aside>` −3, headings, `<th>`, `<header>`, `<footer>`, `<nav>` −5) plus its class and id
//!    weight (±25 for positive and negative words), and its total is scaled by
//!    1 − link density;
//! 4. the best candidate and those of its siblings that score at least
//!    max(10, 0.2 × best), or are paragraphs with long text and few links or a short sentence
//!    without links, make the article; an `<article>` scored by its list items replaces a
//!    best candidate inside a form, aside or nav, and the article's other segments and its
//!    editorial leads move into the best candidate (`segments`);
//! 5. headings with a negative weight or many links, forms, and tables, lists, `<div>`s,
//!    `<aside>`s, `<header>`s, `<footer>`s and `<section>`s with a negative weight, many
//!    links, images or inputs, or little text are dropped from it, innermost first;
//! 6. when no candidate was found, or the cleaned article's HTML would be shorter than
//!    [`Readability::retry_length`], all of it runs again without step 1 (a second failure
//!    falls back to the whole body).
//!
//! Every count is computed once per pass, bottom-up over the arena, and the cleaning step
//! updates the counts of a container after drops inside it through prefix sums, so a page
//! costs O(n log n) and no walk recurses.

mod clean;
mod page;
mod segments;
mod stats;
mod tree;

use dbce_dom::{Document, NodeKind, word_count};

use crate::block::TextBlock;
use clean::{Cleaner, Layout, Limits, Output};
use page::{NONE, Page, Tag, ends_a_sentence};
use segments::Moved;
use tree::{Tree, Unit};

/// Lowest score a sibling of the best candidate needs to join the article, whatever the best
/// score (readability-lxml: 10).
const MIN_SIBLING_SCORE: f64 = 10.0;

/// Share of the best candidate's score a sibling needs to join the article (0.2).
const SIBLING_SCORE_RATIO: f64 = 0.2;

/// Readability's content extraction (Arc90, as readability-lxml 0.9 does it), as a
/// single-page classifier of [`TextBlock`]s: a block is content when most of its words lie in
/// the extracted, cleaned article. See the module documentation for the steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readability {
    /// Characters (whitespace runs counted once) a paragraph needs to be scored, and below
    /// which a cleaned container without images is dropped. By default, 25 (readability-lxml's
    /// `min_text_length`).
    pub min_text_length: u32,
    /// Estimated length of the cleaned article as HTML below which the extraction is run
    /// again without removing unlikely candidates. By default, 250 (readability-lxml's
    /// `retry_length`, which measures the serialised HTML; here it is estimated from the text,
    /// tag names and attributes kept).
    pub retry_length: u32,
}

impl Default for Readability {
    fn default() -> Self {
        Self {
            min_text_length: 25,
            retry_length: 250,
        }
    }
}

/// What Readability says about one [`TextBlock`], as features for a downstream classifier.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadabilityBlock {
    /// Most of the block's words are in the cleaned article: the block is content.
    pub kept: bool,
    /// Most of the block's words lie inside the best candidate (before cleaning).
    pub in_top_candidate: bool,
    /// Sum of the class/id weights (±25 each) of the block's element and its ancestors,
    /// clamped to −100..=100. `<body>` counts +25, for the id readability-lxml gives it.
    pub class_weight: f32,
    /// Highest candidate score among the block's element and its ancestors, relative to the
    /// best candidate's, clamped to 0..=1; 0 where no ancestor is a candidate.
    pub score: f32,
}

/// The outcome of one page: per node whether it is kept, the candidate scores and the best.
struct Extraction {
    kept: Vec<bool>,
    /// Candidate scores, NaN where a node is no candidate.
    scores: Vec<f64>,
    top: Option<u32>,
}

impl Readability {
    /// One flag per block, in order: `true` for content.
    pub fn classify(&self, doc: &Document, blocks: &[TextBlock]) -> Vec<bool> {
        self.blocks(doc, blocks).iter().map(|b| b.kept).collect()
    }

    /// Readability's verdict and scores for each block, in order.
    pub fn blocks(&self, doc: &Document, blocks: &[TextBlock]) -> Vec<ReadabilityBlock> {
        let page = Page::new(doc);
        let ex = self.extract(&page);
        let n = page.len();
        // Ancestor sums top-down: parents come before children in the arena.
        let mut weights = vec![0i32; n];
        let mut best = vec![f64::NEG_INFINITY; n];
        for i in 0..n {
            let parent = page.nodes[i].parent as usize;
            let (w, s) = if parent < n {
                (weights[parent], best[parent])
            } else {
                (0, f64::NEG_INFINITY)
            };
            weights[i] = w + page.nodes[i].class_weight;
            best[i] = if ex.scores[i].is_nan() {
                s
            } else {
                s.max(ex.scores[i])
            };
        }
        let top_score = ex.top.map_or(0.0, |t| ex.scores[t as usize]);
        let top_range = ex
            .top
            .map_or(0..0, |t| t as usize..page.nodes[t as usize].end as usize);
        blocks
            .iter()
            .map(|block| {
                let (mut words, mut kept, mut in_top) = (0usize, 0usize, 0usize);
                for node in &block.nodes {
                    let i = node.get() as usize;
                    let w = word_count(page.text(node.get()));
                    words += w;
                    if ex.kept.get(i).copied().unwrap_or(false) {
                        kept += w;
                    }
                    if top_range.contains(&i) {
                        in_top += w;
                    }
                }
                let element = block.element.get() as usize;
                let weight = weights.get(element).copied().unwrap_or(0).clamp(-100, 100);
                let score = best.get(element).copied().unwrap_or(f64::NEG_INFINITY);
                let relative = if top_score > 0.0 && score.is_finite() {
                    (score / top_score).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
                ReadabilityBlock {
                    kept: kept * 2 > words,
                    in_top_candidate: in_top * 2 > words,
                    class_weight: weight as f32,
                    score: relative as f32,
                }
            })
            .collect()
    }

    /// readability-lxml's `summary` loop: a ruthless pass, and a lenient one if that finds
    /// nothing or too little.
    fn extract(&self, page: &Page<'_>) -> Extraction {
        if let Some(ex) = self.pass(page, true)
            && html_len(page, &ex.kept) >= self.retry_length as usize
        {
            return ex;
        }
        match self.pass(page, false) {
            Some(ex) => ex,
            None => Extraction {
                kept: vec![false; page.len()],
                scores: vec![f64::NAN; page.len()],
                top: None,
            },
        }
    }

    /// One pass; `None` when a ruthless pass finds no candidate.
    fn pass(&self, page: &Page<'_>, ruthless: bool) -> Option<Extraction> {
        let tree = Tree::build(page, ruthless);
        let (mut scores, ordered) = self.score(page, &tree);
        let top = select_best(page, &tree, &scores, &ordered).map(|best| {
            let best =
                segments::semantic_article(page, &tree, &mut scores, best, self.min_text_length);
            semantic_main(page, &tree, &mut scores, best)
        });
        let (roots, moved) = match top {
            Some(best) => self.article(page, &tree, &mut scores, best),
            None if ruthless => return None,
            None => (vec![page.body?], Moved::default()),
        };
        let layout = Layout {
            roots: &roots,
            wrapper: top.is_some(),
            best: top,
            front: &moved.front,
            back: &moved.back,
        };
        let out = Output::build(page, &tree, &layout);
        let limits = Limits {
            min_text_length: self.min_text_length,
        };
        let dropped = Cleaner::new(page, &tree, &out, &scores).run(limits);
        let kept = (0..page.len()).map(|i| out.kept(i, &dropped)).collect();
        Some(Extraction { kept, scores, top })
    }

    /// Candidate scores (NaN for non-candidates) and the candidates in the order they were
    /// found: paragraphs in document order, then `<pre>`s, `<td>`s and `<blockquote>`s, as
    /// readability-lxml finds them.
    fn score(&self, page: &Page<'_>, tree: &Tree) -> (Vec<f64>, Vec<u32>) {
        let n = page.len();
        let mut lists: [Vec<Unit>; 4] = Default::default();
        for i in 0..n {
            if tree.removed[i] {
                continue;
            }
            let id = u32::try_from(i).unwrap_or(NONE);
            let group = tree.group_of[i];
            if group != NONE && tree.groups[group as usize].first == id {
                lists[0].push(Unit::Group(group));
                continue;
            }
            match page.nodes[i].tag {
                Tag::P => lists[0].push(Unit::Node(id)),
                Tag::Div if tree.converted[i] => lists[0].push(Unit::Node(id)),
                Tag::Pre => lists[1].push(Unit::Node(id)),
                Tag::Td => lists[2].push(Unit::Node(id)),
                Tag::Blockquote => lists[3].push(Unit::Node(id)),
                _ => {}
            }
        }
        let mut scores = vec![f64::NAN; n];
        let mut ordered = Vec::new();
        for &unit in lists.iter().flatten() {
            let s = tree.unit_stats(unit);
            if s.len < self.min_text_length {
                continue;
            }
            let Some(parent) = page.element_parent(tree.unit_node(unit)) else {
                continue;
            };
            let grand = page.element_parent(parent);
            for c in std::iter::once(parent).chain(grand) {
                if scores[c as usize].is_nan() {
                    scores[c as usize] = initial_score(page, tree, c);
                    ordered.push(c);
                }
            }
            let points = 2.0 + f64::from(s.commas) + (f64::from(s.len) / 100.0).min(3.0);
            scores[parent as usize] += points;
            if let Some(g) = grand {
                scores[g as usize] += points / 2.0;
            }
        }
        for &c in &ordered {
            scores[c as usize] *= 1.0 - tree.stats[c as usize].link_density();
        }
        (scores, ordered)
    }

    /// The best candidate and the siblings that join it (`get_article`), as the roots of the
    /// article's subtrees, and what moves into the best candidate. A heading just before the
    /// best candidate joins as a candidate (`add_heading_preamble`); the article's other
    /// segments and its editorial leads move into the best candidate; a text node among the
    /// siblings is the tail text that moves with the element before it.
    fn article(
        &self,
        page: &Page<'_>,
        tree: &Tree,
        scores: &mut [f64],
        best: u32,
    ) -> (Vec<u32>, Moved) {
        let threshold = MIN_SIBLING_SCORE.max(scores[best as usize] * SIBLING_SCORE_RATIO);
        self.add_heading_preamble(page, tree, scores, best, threshold);
        let mut moved =
            segments::merge_segments(page, tree, scores, best, threshold, self.min_text_length);
        let leads = segments::editorial_leads(page, tree, best, &moved);
        let Some(parent) = page.element_parent(best).and_then(|p| page.node(p)) else {
            return (vec![best], moved);
        };
        let mut ranges = Vec::new();
        let mut last_appended = false;
        for child in parent.children() {
            let c = child.id().get();
            let ci = c as usize;
            if tree.removed[ci] {
                continue;
            }
            let group = tree.group_of[ci];
            if group != NONE {
                let g = &tree.groups[group as usize];
                if g.first == c {
                    let lead = g.lead.map_or("", |t| page.text(t));
                    if paragraph_joins(lead, g.stats.link_density()) {
                        let mut k = g.first;
                        while k < g.end {
                            ranges.push(k);
                            k = page.nodes[k as usize].end;
                        }
                    }
                }
                continue;
            }
            if child.kind() == NodeKind::Text {
                if last_appended {
                    ranges.push(c);
                }
                continue;
            }
            if leads.contains(&c) {
                continue;
            }
            let mut append = c == best || scores[ci] >= threshold;
            if page.nodes[ci].tag == Tag::P || tree.converted[ci] {
                let lead = child
                    .children()
                    .next()
                    .and_then(|first| first.text())
                    .unwrap_or_default();
                append |= paragraph_joins(lead, tree.stats[ci].link_density());
            }
            if append {
                ranges.push(c);
            }
            last_appended = append;
        }
        moved.front.splice(0..0, leads);
        (ranges, moved)
    }

    /// A heading (or block holding an `<h2>`) right before the best candidate, with some text
    /// and few links, becomes a candidate that joins it.
    fn add_heading_preamble(
        &self,
        page: &Page<'_>,
        tree: &Tree,
        scores: &mut [f64],
        best: u32,
        threshold: f64,
    ) {
        let Some(previous) = page
            .node(best)
            .and_then(|b| b.parent())
            .into_iter()
            .flat_map(|p| p.children())
            .take_while(|c| c.id().get() != best)
            .filter(|c| c.kind() == NodeKind::Element && !tree.removed[c.id().get() as usize])
            .last()
        else {
            return;
        };
        let p = previous.id().get() as usize;
        let stats = tree.stats[p];
        if scores[p].is_nan()
            && page.nodes[p].has_h2
            && stats.len >= self.min_text_length
            && stats.link_density() <= 0.2
        {
            scores[p] = threshold;
        }
    }
}

/// A candidate's score before its paragraphs: class/id weight and tag weight.
fn initial_score(page: &Page<'_>, tree: &Tree, c: u32) -> f64 {
    let info = &page.nodes[c as usize];
    let tag_weight = if tree.converted[c as usize] {
        0
    } else {
        info.tag_weight
    };
    f64::from(info.class_weight + tag_weight)
}

/// readability-lxml's `select_best_candidate`: the highest score, the first found among equals
/// (Python's stable sort); but the first candidate with `itemprop="articleBody"` and few links
/// if there is one, then an `<article>` inside it with enough text and score.
fn select_best(page: &Page<'_>, tree: &Tree, scores: &[f64], ordered: &[u32]) -> Option<u32> {
    let mut sorted = ordered.to_vec();
    sorted.sort_by(|&a, &b| scores[b as usize].total_cmp(&scores[a as usize]));
    let mut best = *sorted.first()?;
    if let Some(&c) = sorted.iter().find(|&&c| {
        page.nodes[c as usize].article_body && tree.stats[c as usize].link_density() <= 0.1
    }) {
        best = c;
    }
    let best_score = scores[best as usize];
    let inside = best..page.nodes[best as usize].end;
    if let Some(&c) = sorted.iter().find(|&&c| {
        page.nodes[c as usize].tag == Tag::Article
            && c != best
            && inside.contains(&c)
            && tree.stats[c as usize].len >= 250
            && scores[c as usize] >= best_score * 0.25
    }) {
        best = c;
    }
    Some(best)
}

/// readability-lxml's `get_semantic_main_candidate`: unless the best candidate is or lies in
/// an `<article>`, the `<main>` around it when that holds much more text with few links.
fn semantic_main(page: &Page<'_>, tree: &Tree, scores: &mut [f64], best: u32) -> u32 {
    let in_article = page.nodes[best as usize].tag == Tag::Article
        || page
            .node(best)
            .is_some_and(|b| b.ancestors().any(|a| a.is_element("article")));
    if in_article {
        return best;
    }
    let main = page
        .node(best)
        .into_iter()
        .flat_map(|b| b.ancestors())
        .map(|a| a.id().get())
        .find(|&a| page.nodes[a as usize].tag == Tag::Main);
    if let Some(main) = main {
        let (m, b) = (tree.stats[main as usize], tree.stats[best as usize]);
        if m.len >= 500.max(b.len.saturating_mul(2)) && m.link_density() <= 0.15 {
            scores[main as usize] = initial_score(page, tree, main);
            return main;
        }
    }
    best
}

/// readability-lxml's rule for a `<p>` sibling of the best candidate, on its leading text (the
/// text before its first child element) and its link density: long with few links, or a short
/// sentence without links.
fn paragraph_joins(lead: &str, link_density: f64) -> bool {
    let len = lead.chars().count();
    (len > 80 && link_density < 0.25) || (len <= 80 && link_density == 0.0 && ends_a_sentence(lead))
}

/// Estimated length of the article readability-lxml would serialise: the kept text, each kept
/// element's tags and the attributes its `clean_attributes` leaves, and the wrapping
/// `<html><body><div>`.
fn html_len(page: &Page<'_>, kept: &[bool]) -> usize {
    const WRAPPER: usize = "<html><body><div></div></body></html>".len();
    let mut len = WRAPPER;
    for node in page.doc.nodes().filter(|n| kept[n.id().get() as usize]) {
        if let Some(text) = node.text() {
            len += text.chars().count();
        } else if let Some(name) = node.name() {
            len += 2 * name.len() + 5;
            len += node
                .attrs()
                .filter(|(a, _)| !is_presentational(a))
                .map(|(a, v)| a.len() + v.len() + 4)
                .sum::<usize>();
        }
    }
    len
}

/// Attributes readability-lxml's `clean_attributes` removes.
fn is_presentational(attr: &str) -> bool {
    matches!(attr, "style" | "width" | "height")
        || attr.starts_with("on")
        || attr.starts_with("background")
        || attr.ends_with("color")
}

#[cfg(test)]
mod tests {
    use dbce_dom::SanitizeConfig;

    use super::*;
    use crate::text_blocks;

    const SENTENCE: &str = "The council met on Tuesday to discuss the new budget for the coming \
                            year, and members agreed on most of the points raised. ";

    fn parse(html: &str) -> Document {
        Document::parse(html, &SanitizeConfig::default()).unwrap()
    }

    /// The texts of the blocks `readability` keeps.
    fn kept(readability: &Readability, html: &str) -> Vec<String> {
        let doc = parse(html);
        let blocks = text_blocks(&doc);
        let classes = readability.classify(&doc, &blocks);
        assert_eq!(classes.len(), blocks.len());
        blocks
            .iter()
            .zip(classes)
            .filter(|(_, k)| *k)
            .map(|(b, _)| b.text.clone())
            .collect()
    }

    fn news_page() -> String {
        let s = SENTENCE;
        format!(
            "<body><div id=nav><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li>\
             <li><a href=/s>Sport</a></li></ul></div>\
             <div class=sidebar><p>Most read: a long list of other stories, one, two, three.</p>\
             <p>Sign up for our newsletter, it is free, weekly, and good.</p></div>\
             <div class=story><h1>Budget agreed</h1><p>{s}{s}</p><p>{s}{s}{s}</p>\
             <p>{s}</p></div>\
             <div id=comments><p>I disagree with this, strongly, very strongly, yes.</p>\
             <p>Great article, thanks, really, I mean it, truly.</p></div>\
             <div class=footer><a href=/about>About us</a> <a href=/c>Contact</a></div></body>"
        )
    }

    #[test]
    fn keeps_only_the_article() {
        let kept = kept(&Readability::default(), &news_page());
        assert_eq!(kept.len(), 4, "{kept:?}");
        assert_eq!(kept[0], "Budget agreed");
        assert!(kept[1..].iter().all(|t| t.starts_with("The council met")));
    }

    #[test]
    fn block_features_point_at_the_article() {
        let doc = parse(&news_page());
        let blocks = text_blocks(&doc);
        let features = Readability::default().blocks(&doc, &blocks);
        let story = blocks
            .iter()
            .position(|b| b.text.starts_with("The council"))
            .unwrap();
        let home = blocks.iter().position(|b| b.text == "Home").unwrap();
        let comment = blocks
            .iter()
            .position(|b| b.text.starts_with("I disagree"))
            .unwrap();
        assert!(features[story].kept && features[story].in_top_candidate);
        assert_eq!(features[story].score, 1.0);
        // <body> +25, class "story" +25.
        assert_eq!(features[story].class_weight, 50.0);
        assert!(!features[home].kept && !features[home].in_top_candidate);
        // Its best ancestor is <body>, the story's grandparent.
        assert!(features[home].score > 0.0 && features[home].score < 1.0);
        // <body> +25, id "comments" −25: its paragraphs were not scored (removed).
        assert_eq!(features[comment].class_weight, 0.0);
        assert!(!features[comment].kept);
    }

    /// The article sits in a container an unlikely class names: the ruthless pass removes it
    /// and finds only the short note, so the lenient pass runs.
    fn retry_page() -> String {
        let s = SENTENCE;
        format!(
            "<body><div id=wrap><div class=note><p>Published on Monday, by the editors.</p></div>\
             <div class=extra-wide><p>{s}{s}</p><p>{s}{s}</p><p>{s}</p></div></div></body>"
        )
    }

    #[test]
    fn too_short_a_result_retries_without_removing_unlikely_candidates() {
        let kept_default = kept(&Readability::default(), &retry_page());
        assert_eq!(kept_default.len(), 3, "{kept_default:?}");
        assert!(kept_default.iter().all(|t| t.starts_with("The council")));
        let no_retry = Readability {
            retry_length: 0,
            ..Readability::default()
        };
        assert_eq!(
            kept(&no_retry, &retry_page()),
            ["Published on Monday, by the editors."]
        );
    }

    #[test]
    fn no_candidate_at_all_falls_back_to_the_body() {
        // Nothing reaches 25 characters: no candidate in either pass; the body is cleaned.
        let kept = kept(
            &Readability::default(),
            "<body><p>Short one.</p><p>Short two.</p><ul><li><a href=/>x</a></li></ul></body>",
        );
        assert_eq!(kept, ["Short one.", "Short two."]);
    }

    #[test]
    fn divs_without_blocks_are_paragraphs_and_div_text_too() {
        let s = SENTENCE;
        let doc = parse(&format!(
            "<body><div id=a><div id=b>{s}</div>{s}<br>{s}<p>x</p></div></body>"
        ));
        let page = Page::new(&doc);
        let tree = Tree::build(&page, true);
        let find = |id: &str| {
            doc.nodes()
                .find(|n| n.attr("id") == Some(id))
                .unwrap()
                .id()
                .get() as usize
        };
        let (a, b) = (find("a"), find("b"));
        assert!(tree.converted[b] && !tree.converted[a]);
        // b, the two texts, and the <p>.
        assert_eq!(tree.stats[a].p, 4);
        let (scores, ordered) = Readability::default().score(&page, &tree);
        // a is the parent of b and the texts; body their grandparent.
        assert_eq!(ordered[0] as usize, a);
        let points = 2.0 + 1.0 + (f64::from(tree.stats[b].len) / 100.0).min(3.0);
        assert!(
            (scores[a] - (5.0 + 3.0 * points)).abs() < 1e-9,
            "{}",
            scores[a]
        );
    }

    #[test]
    fn link_heavy_lists_and_negative_blocks_are_cleaned_from_the_article() {
        let s = SENTENCE;
        let kept = kept(
            &Readability::default(),
            &format!(
                "<body><article><p>{s}{s}</p><p>{s}{s}</p>\
                 <ul><li><a href=/1>Related one</a></li><li><a href=/2>Related two</a></li></ul>\
                 <div class=share-tools><p>Share this story with your friends today</p></div>\
                 <h2 class=meta-title>Posted in news</h2><p>{s}</p></article></body>"
            ),
        );
        assert_eq!(kept.len(), 3, "{kept:?}");
        assert!(kept.iter().all(|t| t.starts_with("The council")));
    }

    #[test]
    fn siblings_join_by_score_and_by_paragraph_rules() {
        let s = SENTENCE;
        let kept = kept(
            &Readability::default(),
            &format!(
                "<body><main><section><div><p>{s}{s}</p><p>{s}{s}</p></div>\
                 <p>A short closing sentence.</p><p>No full stop here at all</p>\
                 <p>{s}</p><div><p>{s}</p><p>{s}</p></div></section></main></body>"
            ),
        );
        // The best <div> (17.9), the sentence, the long paragraph and the second <div>
        // (14 ≥ 10); not the short line without a full stop. (Without <main>, <body> would
        // be the best candidate: it is the grandparent of the <section>'s paragraphs and
        // readability-lxml's id for it, `readabilityBody`, weighs +25.)
        assert_eq!(kept.len(), 6, "{kept:?}");
        assert!(kept.contains(&"A short closing sentence.".to_owned()));
        assert!(!kept.contains(&"No full stop here at all".to_owned()));
    }

    #[test]
    fn an_article_scored_by_its_items_replaces_a_best_candidate_in_a_form() {
        let s = SENTENCE;
        let html = format!(
            "<body><form><div><p>{s}</p><p>{s}</p></div></form>\
             <article><ul><li>{s}</li><li>{s}</li><li>{s}</li><li>{s}</li></ul></article></body>"
        );
        let doc = parse(&html);
        let blocks = text_blocks(&doc);
        let features = Readability::default().blocks(&doc, &blocks);
        let in_list = |b: &TextBlock| {
            doc.get(b.element)
                .is_some_and(|e| e.ancestors().any(|a| a.is_element("article")))
        };
        assert_eq!(blocks.len(), 6);
        for (block, f) in blocks.iter().zip(&features) {
            assert_eq!(f.kept, in_list(block), "{}", block.text);
        }
    }

    #[test]
    fn segments_of_a_split_article_join_the_best_candidate() {
        let s = SENTENCE;
        let kept = kept(
            &Readability::default(),
            &format!(
                "<body><div class=wrap><div class=post-body><p>{s}{s}</p><p>{s}</p></div>\
                 <div class=ad><p>Advertisement from our partners today</p></div></div>\
                 <div class=wrap2><div class=post-body><p>{s}</p><p>{s}</p></div></div></body>"
            ),
        );
        // Both post bodies (the second is a segment of the first), not the advertisement.
        assert_eq!(kept.len(), 4, "{kept:?}");
        assert!(kept.iter().all(|t| t.starts_with("The council")));
    }

    #[test]
    fn an_editorial_lead_joins_the_best_candidate() {
        let s = SENTENCE;
        let kept = kept(
            &Readability::default(),
            &format!(
                "<body><article><div class=standfirst><span>In short: the budget passed \
                 without much debate</span></div><div class=body-text><p>{s}{s}</p><p>{s}</p>\
                 </div></article></body>"
            ),
        );
        assert_eq!(kept.len(), 3, "{kept:?}");
        assert!(kept[0].starts_with("In short"));
    }

    #[test]
    fn tables_of_contents_and_quote_leads_survive_the_cleaning() {
        let s = SENTENCE;
        let kept = kept(
            &Readability::default(),
            &format!(
                "<body><div class=post><h2>Table of contents</h2>\
                 <ul><li><a href=#a>Part one</a></li><li><a href=#b>Part two</a></li></ul>\
                 <p>{s}{s}</p><p>{s}</p>\
                 <section class=meta>The mayor said to the council, and to the press:</section>\
                 <div><blockquote>{s}</blockquote></div>\
                 <h2>Related</h2><ul><li><a href=/1>Other one</a></li><li><a href=/2>Other two\
                 </a></li></ul></div></body>"
            ),
        );
        for text in ["Part one", "Part two", "The mayor said"] {
            assert!(kept.iter().any(|k| k.starts_with(text)), "{text}: {kept:?}");
        }
        assert!(!kept.iter().any(|k| k.starts_with("Other")), "{kept:?}");
    }

    #[test]
    fn empty_and_bodiless_pages() {
        let doc = parse("");
        assert!(Readability::default().classify(&doc, &[]).is_empty());
        let doc = parse("<title>t</title>");
        let blocks = text_blocks(&doc);
        assert!(Readability::default().classify(&doc, &blocks).is_empty());
    }
}

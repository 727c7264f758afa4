//! Passages a page's markup holds twice but a reader sees once.
//!
//! Two kinds are common on today's web, and every route keeps both copies, since each looks
//! like the page's main text:
//! - **a responsive copy**: site builders write a section once per screen width and let the
//!   style sheet hide all but one (Framer's `hidden-1rq27kw` classes, Webflow's
//!   `w-condition-invisible`, Bootstrap's `d-none`, Elementor's `elementor-hidden-mobile`, a
//!   `mobile` and a `desktop` copy of a slide);
//! - **a quotation**: a forum reply that quotes an earlier post of the thread (`<blockquote>`,
//!   XenForo's `bbCodeBlock--quote`, Discourse's `<aside class="quote">`).
//!
//! dbce evaluates no CSS, so it cannot tell which copy a browser shows; it can tell that the
//! text is the same. A passage of the page's content that repeats an earlier one, line for
//! line, is dropped when it is long enough and one of the two copies lies wholly in such
//! markup. A passage the page shows twice in plain markup (a news page that prints its story
//! twice, lines a list repeats per item) stays: there the reader does see it twice.

use std::borrow::Cow;
use std::collections::HashMap;

use dbce_dom::{Document, NodeId, NodeRef, style_hides};
use foldhash::fast::FixedState;

use crate::PatternClass;
use crate::annotation::{Decision, LabelledRun};
use crate::render::RunLayout;

/// The runs of a page that could take part in a repeated passage (their text occurs twice in
/// the page), and which of them lie in markup that hides or quotes them
/// ([`RepeatedPassages::find`]); [`RepeatedPassages::drop_from`] drops the repeats once the
/// runs' classes are final.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepeatedPassages {
    /// Per run: whether it lies inside hidden markup or a quotation (only worked out for runs
    /// whose text occurs twice in the page; `false` for the others).
    marked: Vec<bool>,
}

/// How many of a line's earlier occurrences (the latest) are looked at, so a line repeated on
/// every item of a long list costs a bounded amount of work.
const CANDIDATES: usize = 32;

impl RepeatedPassages {
    /// What [`RepeatedPassages::drop_from`] needs of `doc` for its `runs` (in document order)
    /// laid out as `layout`; `None` when no run's text occurs twice in the page, so that no
    /// passage can repeat whatever the classes become.
    pub fn find(doc: &Document, runs: &[LabelledRun], layout: &RunLayout) -> Option<Self> {
        let mut seen: HashMap<&str, usize, FixedState> =
            HashMap::with_capacity_and_hasher(runs.len(), FixedState::default());
        for piece in layout.pieces().filter(|p| !p.is_empty()) {
            *seen.entry(piece).or_default() += 1;
        }
        if seen.values().all(|&count| count < 2) {
            return None;
        }
        let mut markup = MarkupMemo::new(doc);
        let marked = runs
            .iter()
            .zip(layout.pieces())
            .map(|(run, piece)| {
                seen.get(piece).is_some_and(|&count| count >= 2)
                    && doc
                        .get(run.run.node)
                        .is_some_and(|node| markup.inside(node.parent()))
            })
            .collect();
        Some(Self { marked })
    }

    /// Makes boilerplate ([`Decision::Repeated`]) each passage of the content runs that
    /// repeats an earlier one: consecutive lines of the text (as `layout` cuts it, kept runs
    /// only) equal, line for line, to as many lines before them, of at least `min_words`
    /// words, where one of the two copies lies wholly in hidden markup or a quotation. The
    /// later copy goes; the text reads the same whichever does. Returns the words dropped.
    pub fn drop_from(&self, runs: &mut [LabelledRun], layout: &RunLayout, min_words: u32) -> u32 {
        let lines = kept_lines(runs, layout);
        let mut at: HashMap<&str, Vec<usize>, FixedState> = HashMap::default();
        let mut dropped = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let length = self.repeat_at(&lines, i, &at, min_words);
            for (k, line) in lines[i..i + length.max(1)].iter().enumerate() {
                at.entry(line.text.as_str()).or_default().push(i + k);
            }
            if length > 0 {
                dropped.extend(
                    lines[i..i + length]
                        .iter()
                        .flat_map(|l| l.runs.iter().copied()),
                );
                i += length;
            } else {
                i += 1;
            }
        }
        let mut words = 0;
        for r in dropped {
            let run = &mut runs[r];
            if run.class == PatternClass::Content {
                run.class = PatternClass::Boilerplate;
                run.decision = Decision::Repeated;
                words += run.run.words;
            }
        }
        words
    }

    /// How many lines long the longest passage from line `i` is that repeats one before it
    /// (`at`: where each line's text occurred) and may go; 0 when none may.
    fn repeat_at(
        &self,
        lines: &[KeptLine],
        i: usize,
        at: &HashMap<&str, Vec<usize>, FixedState>,
        min_words: u32,
    ) -> usize {
        let Some(earlier) = at.get(lines[i].text.as_str()) else {
            return 0;
        };
        let mut best = 0;
        for &j in earlier.iter().rev().take(CANDIDATES) {
            let length = (0..)
                .take_while(|&k| i + k < lines.len() && j + k < i)
                .take_while(|&k| lines[j + k].text == lines[i + k].text)
                .count();
            let passage = &lines[i..i + length];
            let words: u32 = passage.iter().map(|l| l.words).sum();
            // One copy wholly inside such markup: a quotation inside a story does not make
            // the story a quotation.
            let marked =
                |lines: &[KeptLine]| lines.iter().all(|l| l.runs.iter().all(|&r| self.marked[r]));
            if length > best
                && words >= min_words
                && (marked(passage) || marked(&lines[j..j + length]))
            {
                best = length;
            }
        }
        best
    }
}

/// One line of a page's text: the kept runs of a layout line (their indices), their text and
/// words.
struct KeptLine {
    runs: Vec<usize>,
    text: String,
    words: u32,
}

/// The lines the text of `runs`' content has, each with its runs and words.
fn kept_lines(runs: &[LabelledRun], layout: &RunLayout) -> Vec<KeptLine> {
    let pieces: Vec<&str> = layout.pieces().collect();
    layout
        .lines()
        .into_iter()
        .filter_map(|line| {
            let kept: Vec<usize> = line
                .filter(|&r| runs[r].class == PatternClass::Content && !pieces[r].is_empty())
                .collect();
            if kept.is_empty() {
                return None;
            }
            let text = kept
                .iter()
                .map(|&r| pieces[r])
                .collect::<Vec<_>>()
                .join(" ");
            let words = kept.iter().map(|&r| runs[r].run.words).sum();
            Some(KeptLine {
                runs: kept,
                text,
                words,
            })
        })
        .collect()
}

/// Per node of a page, whether it or an ancestor hides or quotes what it holds
/// ([`hides_or_quotes`]), worked out when first asked and remembered: the runs of a page
/// share most of their ancestors, and a page's repeated lines are often many (a "Reply" under
/// every post).
struct MarkupMemo {
    /// Per node id: `None` not yet known, else the answer.
    known: Vec<Option<bool>>,
    /// The nodes walked by the current question (kept to reuse its allocation).
    path: Vec<NodeId>,
}

impl MarkupMemo {
    fn new(doc: &Document) -> Self {
        Self {
            known: vec![None; doc.len() as usize],
            path: Vec::new(),
        }
    }

    /// Whether `node` (`None`: above the document) or one of its ancestors hides or quotes.
    fn inside(&mut self, node: Option<NodeRef<'_>>) -> bool {
        let mut answer = false;
        let mut at = node;
        while let Some(n) = at {
            if let Some(known) = self.known[n.id().get() as usize] {
                answer = known;
                break;
            }
            self.path.push(n.id());
            if hides_or_quotes(n) {
                answer = true;
                break;
            }
            at = n.parent();
        }
        for id in self.path.drain(..) {
            self.known[id.get() as usize] = Some(answer);
        }
        answer
    }
}

/// Whether `node` is an element that hides what it holds from a reader at some screen width
/// or quotes it: the `hidden` attribute, `aria-hidden="true"`, an inline `display: none` or
/// `visibility: hidden`, a class that hides ([`is_hiding_class`]), `<blockquote>`, `<q>`, or
/// a class that names a quote.
fn hides_or_quotes(node: NodeRef<'_>) -> bool {
    if matches!(node.name(), Some("blockquote" | "q")) {
        return true;
    }
    node.attrs().any(|(name, value)| match name {
        "hidden" => true,
        "aria-hidden" => value.trim().eq_ignore_ascii_case("true"),
        "style" => style_hides(value),
        "class" => value.split_ascii_whitespace().any(|class| {
            let class = if class.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(class.to_ascii_lowercase())
            } else {
                Cow::Borrowed(class)
            };
            is_hiding_class(&class) || class.contains("quote")
        }),
        _ => false,
    })
}

/// Whether a class (lowercase) hides its element at some or every screen width in the
/// common frameworks: `hidden`, `hide`, `d-none`, `is-hidden`, `invisible`,
/// `w-condition-invisible`, screen-reader-only classes, `hidden-…` and `visible-…`
/// (Bootstrap 3, Framer's breakpoint hashes), Tailwind's `md:hidden`, `elementor-hidden-…`,
/// Foundation's `hide-for-…` and `show-for-…`, and the copies named for one kind of screen
/// (`mobile`, `desktop`, `tablet`, `mobile-only`, …).
fn is_hiding_class(class: &str) -> bool {
    const EXACT: [&str; 14] = [
        "hidden",
        "hide",
        "d-none",
        "is-hidden",
        "invisible",
        "w-condition-invisible",
        "sr-only",
        "visually-hidden",
        "visuallyhidden",
        "screen-reader-text",
        "mobile",
        "desktop",
        "tablet",
        "print-only",
    ];
    const PREFIXES: [&str; 6] = [
        "hidden-",
        "visible-",
        "elementor-hidden-",
        "hide-for-",
        "show-for-",
        "d-none-",
    ];
    const SCREENS: [&str; 4] = ["mobile", "desktop", "tablet", "phone"];
    EXACT.contains(&class)
        || PREFIXES.iter().any(|p| class.starts_with(p))
        || class.ends_with(":hidden")
        || SCREENS
            .iter()
            .any(|screen| class.strip_suffix("-only") == Some(screen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PageTokens, PatternClass, annotate};
    use dbce_dom::SanitizeConfig;

    /// The page of `html` and its runs, every one content.
    fn page(html: &str) -> (Document, Vec<LabelledRun>) {
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        let content = |run| LabelledRun {
            run,
            class: PatternClass::Content,
            decision: Decision::Pattern,
        };
        let runs = annotate(&PageTokens::read(&doc), &[]);
        (doc, runs.into_iter().map(content).collect())
    }

    fn text_after_dropping(html: &str, min_words: u32) -> (String, u32) {
        let (doc, mut runs) = page(html);
        let layout = RunLayout::of(&doc, &runs);
        let dropped = RepeatedPassages::find(&doc, &runs, &layout)
            .map_or(0, |r| r.drop_from(&mut runs, &layout, min_words));
        (
            layout.text(|i| runs[i].class == PatternClass::Content),
            dropped,
        )
    }

    const STORY: &str = "<h2>How much does a remodel cost</h2>\
        <p>It depends on the region and on how much of the house changes, and on the \
        materials chosen for the kitchen and the bath.</p>";

    #[test]
    fn a_responsive_copy_hidden_by_class_is_dropped() {
        let html = format!(
            "<body><div class='hidden-1rq27kw'>{STORY}</div>\
             <div class='hidden-bnz77l'>{STORY}</div><p>Contact us</p></body>"
        );
        let (text, dropped) = text_after_dropping(&html, 20);
        assert_eq!(
            text,
            "How much does a remodel cost\nIt depends on the region and on how much of the \
             house changes, and on the materials chosen for the kitchen and the bath.\n\
             Contact us"
        );
        assert_eq!(dropped, 30);
    }

    #[test]
    fn a_copy_in_plain_markup_stays() {
        // A page that prints its story twice shows it twice.
        let html = format!("<body><div>{STORY}</div><div>{STORY}</div></body>");
        let (text, dropped) = text_after_dropping(&html, 20);
        assert_eq!(dropped, 0);
        assert_eq!(text.matches("It depends").count(), 2);
    }

    #[test]
    fn a_quoted_post_is_dropped_and_the_reply_stays() {
        let post = "<p>Has anybody tried the beta of the new release yet, and does anyone \
                    know which version of the toolkit we will actually get next week?</p>";
        let html = format!(
            "<body><article>{post}</article><article>\
             <blockquote class='bbCodeBlock--quote'>{post}</blockquote>\
             <p>Not yet.</p></article></body>"
        );
        let (text, _) = text_after_dropping(&html, 20);
        assert_eq!(text.matches("Has anybody").count(), 1);
        assert!(text.ends_with("\nNot yet."));
    }

    #[test]
    fn a_short_repeat_stays() {
        let html = "<body><p class='mobile'>Starting at $646 for two monitors</p>\
                    <p>Starting at $646 for two monitors</p></body>";
        assert_eq!(text_after_dropping(html, 20).1, 0);
        assert_eq!(text_after_dropping(html, 6).1, 6);
    }

    #[test]
    fn a_page_without_repeated_text_needs_nothing() {
        let (doc, runs) = page("<body><p class='hidden'>one two</p><p>three four</p></body>");
        let layout = RunLayout::of(&doc, &runs);
        assert_eq!(RepeatedPassages::find(&doc, &runs, &layout), None);
    }

    #[test]
    fn boilerplate_is_not_part_of_a_passage() {
        // The hidden copy is boilerplate already: the visible one is the only copy kept.
        let html = format!("<body><div class='d-none'>{STORY}</div><div>{STORY}</div></body>");
        let (doc, mut runs) = page(&html);
        let half = runs.len() / 2;
        for run in &mut runs[..half] {
            run.class = PatternClass::Boilerplate;
        }
        let layout = RunLayout::of(&doc, &runs);
        let repeated = RepeatedPassages::find(&doc, &runs, &layout).unwrap();
        assert_eq!(repeated.drop_from(&mut runs, &layout, 20), 0);
        assert!(
            runs[half..]
                .iter()
                .all(|r| r.class == PatternClass::Content)
        );
    }

    #[test]
    fn hiding_markup_is_recognised() {
        for class in [
            "hidden-xs",
            "md:hidden",
            "elementor-hidden-mobile",
            "w-condition-invisible",
            "desktop-only",
            "mobile",
        ] {
            assert!(is_hiding_class(class), "{class}");
        }
        for class in ["hiddenness", "mobile-menu", "desktop-nav", "quote-author"] {
            assert!(!is_hiding_class(class), "{class}");
        }
    }

    #[test]
    fn the_memo_answers_as_a_walk_to_the_root_does() {
        let html = r#"<html><body><div class="Hidden-MD"><p>a <b>b</b></p><div><i>c</i></div></div>
            <main><blockquote><p>d <span>e</span></p></blockquote><p>f <span style="display: none">g</span></p>
            <aside class="QuoteBox"><p>h</p></aside><p aria-hidden="true">i</p><p>j</p></main></body></html>"#;
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        let walked = |node: NodeRef<'_>| node.ancestors().any(hides_or_quotes);
        // Asked last node first, then first node first: the memo's answers must not depend on
        // which nodes it has already seen.
        for order in [false, true] {
            let mut memo = MarkupMemo::new(&doc);
            let mut nodes: Vec<NodeRef<'_>> = doc.nodes().collect();
            if !order {
                nodes.reverse();
            }
            for node in nodes {
                assert_eq!(memo.inside(node.parent()), walked(node), "{}", node.id());
            }
        }
        let marked: Vec<bool> = doc.nodes().map(walked).collect();
        assert!(marked.iter().filter(|&&m| m).count() >= 8, "{marked:?}");
        assert!(marked.iter().filter(|&&m| !m).count() >= 8, "{marked:?}");
    }
}

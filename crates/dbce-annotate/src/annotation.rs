//! Annotating a page against its cross: which members each word occurs in, runs of words with
//! one occurrence set, and their classes (thesis §2.3, "Annotation Process" to "Bit-Pattern
//! Based Pre-classification").

use dbce_dom::{Document, NodeId, NodeKind};
use serde::{Deserialize, Serialize};

use crate::tokens::{PageTokens, WordId};
use crate::{
    BitPattern, Bits, CrossRole, InvalidMode, PatternClass, classify_with, matched_ranges,
};

/// A run of the page's words with one occurrence set and no tag between them: the thesis's
/// `<dbce>` element. It lies inside one text node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// The text node.
    pub node: NodeId,
    /// First byte of the run's first word in the node's text.
    pub start: u32,
    /// One past the last byte of its last word.
    pub end: u32,
    /// Index of its first token in the page's [`PageTokens`].
    pub first_token: u32,
    /// How many words it has.
    pub words: u32,
    /// The members of the cross it occurs in (`cur` always).
    pub bits: Bits,
}

impl Run {
    /// The run's text: a slice of its text node in `doc`.
    pub fn text<'d>(&self, doc: &'d Document) -> &'d str {
        doc.get(self.node)
            .and_then(|n| n.text())
            .and_then(|t| t.get(self.start as usize..self.end as usize))
            .unwrap_or_default()
    }
}

/// Compares the page `cur` with each other member of its cross, as thesis Listing 2.9 does,
/// and returns its runs. For each member, lxml's `InsensitiveSequenceMatcher` (member as `a`,
/// the page as `b`, autojunk on, matches of two tokens or fewer dropped in pages of 12 words or
/// more) says which of the page's words it contains; a word's bits are `cur` plus every member
/// that contains it. Consecutive words in one text node with equal bits form a run.
pub fn annotate(cur: &PageTokens, members: &[(CrossRole, &[WordId])]) -> Vec<Run> {
    let mut bits = vec![Bits::of(&[CrossRole::Cur]); cur.len()];
    for &(role, member) in members {
        if role == CrossRole::Cur {
            continue;
        }
        for block in matched_ranges(member, &cur.words) {
            for b in &mut bits[block.b..block.b + block.size] {
                *b = b.with(role);
            }
        }
    }
    runs(cur, &bits)
}

/// Groups tokens into runs: a new run starts at a new text node or a change of bits.
fn runs(cur: &PageTokens, bits: &[Bits]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (index, (place, &bits)) in cur.places.iter().zip(bits).enumerate() {
        match runs.last_mut() {
            Some(run) if run.node == place.node && run.bits == bits => {
                run.end = place.end;
                run.words += 1;
            }
            _ => runs.push(Run {
                node: place.node,
                start: place.start,
                end: place.end,
                first_token: u32::try_from(index).unwrap_or(u32::MAX),
                words: 1,
                bits,
            }),
        }
    }
    runs
}

/// How a run's class was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Decision {
    /// By the bit-pattern tables of Appendix B.
    Pattern,
    /// `invalid` under the tables, made boilerplate by test case T002.
    InvalidAsBoilerplate,
    /// By a learned classifier over the run's features (nearest neighbours or a forest).
    Learned,
    /// By a single-page classifier (the page had no cross, or its partners were poor).
    SinglePage,
    /// `invalid` under the tables, given the class its decided neighbours lift to an ancestor
    /// (thesis §2.3.5, [`resolve_invalid_by_parents`]).
    Propagated,
    /// By the patterns once the partners of the page's own URL family are set aside: the run
    /// occurs only in other pages of the same paginated document ([`crate::free_family_runs`]).
    Family,
    /// Boilerplate by the patterns, made content as the linked headline of a teaser whose
    /// summary the patterns keep ([`crate::keep_teaser_headlines`]).
    Teaser,
    /// Content by its route, made boilerplate as the second copy of a passage a reader sees
    /// once: a responsive copy hidden by its markup, or a quoted post
    /// ([`crate::RepeatedPassages`]).
    Repeated,
}

/// A run with its class and how it was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelledRun {
    /// The run.
    pub run: Run,
    /// Its class: content, boilerplate, or `invalid` (left for a later classifier).
    pub class: PatternClass,
    /// What decided it.
    pub decision: Decision,
}

/// Classifies each run of a page whose cross has the members `cross` by Appendix B, with
/// `invalid` patterns resolved as `mode` says.
pub fn classify_runs(runs: &[Run], cross: Bits, mode: InvalidMode) -> Vec<LabelledRun> {
    runs.iter()
        .map(|&run| {
            let pattern = BitPattern {
                cross,
                run: run.bits,
            };
            let keep = classify_with(pattern, InvalidMode::Keep);
            let class = classify_with(pattern, mode);
            let decision = if keep == class {
                Decision::Pattern
            } else {
                Decision::InvalidAsBoilerplate
            };
            LabelledRun {
                run,
                class,
                decision,
            }
        })
        .collect()
}

/// The thesis's bottom-up pass over the layer groups: an element takes the class of its
/// children (runs and child elements with a class) when they all share one class or when it has
/// exactly one such child. Returns each node's class, indexed by node id (`None` for elements
/// whose children disagree, or that hold no run, and for text nodes).
pub fn propagate(doc: &Document, runs: &[LabelledRun]) -> Vec<Option<PatternClass>> {
    let len = doc.len() as usize;
    let mut classes: Vec<Option<PatternClass>> = vec![None; len];
    // What the children of each node have said so far: (first class, agree, count).
    let mut seen: Vec<(Option<PatternClass>, bool, u32)> = vec![(None, true, 0); len];
    let note = |seen: &mut Vec<(Option<PatternClass>, bool, u32)>, parent: usize, class| {
        let entry = &mut seen[parent];
        match entry.0 {
            None => entry.0 = Some(class),
            Some(first) if first != class => entry.1 = false,
            Some(_) => {}
        }
        entry.2 += 1;
    };
    for run in runs {
        if let Some(parent) = doc.get(run.run.node).and_then(|n| n.parent()) {
            note(&mut seen, parent.id().get() as usize, run.class);
        }
    }
    // Children come after their parent in document order, so a reverse walk finishes every
    // child before its parent.
    for index in (0..len).rev() {
        let Some(node) = doc.get(NodeId::new(u32::try_from(index).unwrap_or(u32::MAX))) else {
            continue;
        };
        if node.kind() != NodeKind::Element {
            continue;
        }
        let (first, agree, count) = seen[index];
        let class = first.filter(|_| agree || count == 1);
        classes[index] = class;
        if let (Some(class), Some(parent)) = (class, node.parent()) {
            note(&mut seen, parent.id().get() as usize, class);
        }
    }
    classes
}

/// Gives each `invalid` run the class of its nearest ancestor element that [`propagate`]
/// classifies from the page's decided runs (the thesis's bottom-up pass, §2.3.5): a run the
/// tables cannot decide takes the class its siblings and their subtrees agree on. A run
/// without such an ancestor stays `invalid`.
pub fn resolve_invalid_by_parents(doc: &Document, runs: &mut [LabelledRun]) {
    let decided: Vec<LabelledRun> = runs
        .iter()
        .filter(|r| r.class != PatternClass::Invalid)
        .copied()
        .collect();
    let classes = propagate(doc, &decided);
    for run in runs.iter_mut().filter(|r| r.class == PatternClass::Invalid) {
        let ancestors =
            std::iter::successors(doc.get(run.run.node).and_then(|n| n.parent()), |n| {
                n.parent()
            });
        if let Some(class) = ancestors
            .filter_map(|n| classes[n.id().get() as usize])
            .next()
        {
            run.class = class;
            run.decision = Decision::Propagated;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbce_dom::SanitizeConfig;

    fn parse(html: &str) -> Document {
        Document::parse(html, &SanitizeConfig::default()).unwrap()
    }

    #[test]
    fn runs_split_at_tags_and_at_changes_of_occurrence() {
        let cur = parse("<p>one two three four five six seven</p><p>eight nine</p>");
        let up = parse("<div>one two three</div><div>xx five six seven eight nine</div>");
        let (cur_t, up_t) = (PageTokens::read(&cur), PageTokens::read(&up));
        let runs = annotate(&cur_t, &[(CrossRole::Up, &up_t.words)]);
        let shown: Vec<(&str, Bits)> = runs.iter().map(|r| (r.text(&cur), r.bits)).collect();
        let both = Bits::of(&[CrossRole::Cur, CrossRole::Up]);
        let alone = Bits::of(&[CrossRole::Cur]);
        assert_eq!(
            shown,
            [
                ("one two three", both),
                ("four", alone),
                ("five six seven", both),
                ("eight nine", both),
            ]
        );
        assert_eq!(runs[2].first_token, 4);
        assert_eq!(runs[2].words, 3);
    }

    #[test]
    fn propagation_lifts_agreeing_and_single_children() {
        let doc = parse("<div><p>a <b>b</b></p><p>c</p></div>");
        let tokens = PageTokens::read(&doc);
        let runs: Vec<LabelledRun> = annotate(&tokens, &[])
            .into_iter()
            .zip([
                PatternClass::Content,
                PatternClass::Content,
                PatternClass::Boilerplate,
            ])
            .map(|(run, class)| LabelledRun {
                run,
                class,
                decision: Decision::Pattern,
            })
            .collect();
        let classes = propagate(&doc, &runs);
        let class_of = |name: &str| {
            let node = doc.nodes().find(|n| n.is_element(name)).unwrap();
            classes[node.id().get() as usize]
        };
        assert_eq!(class_of("b"), Some(PatternClass::Content));
        // The first <p> holds "a" and <b>, both content.
        assert_eq!(class_of("p"), Some(PatternClass::Content));
        // <div> has a content <p> and a boilerplate <p>: no class.
        assert_eq!(class_of("div"), None);
        // <body> has one child with... none: the div said nothing.
        assert_eq!(class_of("body"), None);
    }

    #[test]
    fn invalid_runs_take_the_class_their_neighbours_lift() {
        let doc = parse(
            "<div><p>a</p><p>b</p></div><section><p>c</p><p>d</p><p>e</p></section>\
             <footer><p>f</p></footer>",
        );
        let tokens = PageTokens::read(&doc);
        let mut runs: Vec<LabelledRun> = annotate(&tokens, &[])
            .into_iter()
            .zip([
                PatternClass::Content,
                PatternClass::Invalid,
                PatternClass::Invalid,
                PatternClass::Content,
                PatternClass::Boilerplate,
                PatternClass::Boilerplate,
            ])
            .map(|(run, class)| LabelledRun {
                run,
                class,
                decision: Decision::Pattern,
            })
            .collect();
        resolve_invalid_by_parents(&doc, &mut runs);
        let classes: Vec<(PatternClass, Decision)> =
            runs.iter().map(|r| (r.class, r.decision)).collect();
        assert_eq!(
            classes,
            [
                (PatternClass::Content, Decision::Pattern),
                // "b": its <div> holds one decided run, content.
                (PatternClass::Content, Decision::Propagated),
                // "c": its <section> holds content and boilerplate, and <body> a content <div>
                // and a boilerplate <footer>.
                (PatternClass::Invalid, Decision::Pattern),
                (PatternClass::Content, Decision::Pattern),
                (PatternClass::Boilerplate, Decision::Pattern),
                (PatternClass::Boilerplate, Decision::Pattern),
            ]
        );
    }
}

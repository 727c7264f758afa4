//! The neighbourhood windows of thesis test cases T003–T006 (§4.2): Table 2.1's vector of a run
//! with the previous and next run of its layer group (T003), widened by the vector of its parent
//! element among the parent's siblings (T004, 2 layers) and of its grandparent among its
//! siblings (T005 and T006, 3 layers).

use std::collections::BTreeMap;

use dbce_annotate::LabelledRun;
use dbce_classify::{
    BlockConfig, FEATURE_NAMES, UnitFeatures, class_hash, push_features, tag_name_id,
};
use dbce_dom::{Document, NodeId, NodeKind, NodeRef};

/// The window rows of a page's runs: `runs.len()` rows of `layers × FEATURE_NAMES.len()`
/// values (`layers` from 1 to 3).
pub fn window_rows(doc: &Document, runs: &[LabelledRun], layers: usize) -> Vec<f32> {
    if layers == 0 {
        return Vec::new();
    }
    let width = layers * FEATURE_NAMES.len();
    let mut rows = Vec::with_capacity(runs.len() * width);
    // Layer 0: the runs whose text nodes share a parent element, in page order.
    let parent_of = |run: &LabelledRun| doc.get(run.run.node).and_then(NodeRef::parent);
    let mut groups: BTreeMap<Option<NodeId>, Vec<usize>> = BTreeMap::new();
    for (i, run) in runs.iter().enumerate() {
        groups
            .entry(parent_of(run).map(NodeRef::id))
            .or_default()
            .push(i);
    }
    let mut group_units: BTreeMap<Option<NodeId>, Vec<UnitFeatures>> = BTreeMap::new();
    let mut position = vec![0; runs.len()];
    for (parent, members) in &groups {
        for (p, &i) in members.iter().enumerate() {
            position[i] = p;
        }
        let units = members.iter().map(|&i| run_unit(doc, &runs[i]).0).collect();
        group_units.insert(*parent, units);
    }
    let stats = (layers > 1).then(|| ElementStats::of(doc));
    // Higher layers: an element among its parent's element children, cached by that parent.
    let mut sibling_units: BTreeMap<NodeId, Vec<UnitFeatures>> = BTreeMap::new();
    for (i, run) in runs.iter().enumerate() {
        let parent = parent_of(run);
        push_features(
            &group_units[&parent.map(NodeRef::id)],
            Some(position[i]),
            &mut rows,
        );
        let mut element = parent;
        for _ in 1..layers {
            let above = element.and_then(NodeRef::parent);
            match (element, above, stats.as_ref()) {
                (Some(element), Some(above), Some(stats)) => {
                    let units = sibling_units
                        .entry(above.id())
                        .or_insert_with(|| stats.children_units(above));
                    let at = element_children(above).position(|c| c.id() == element.id());
                    push_features(units, at, &mut rows);
                }
                _ => push_features(&[], None, &mut rows),
            }
            element = above;
        }
    }
    rows
}

/// Element children of `node`, in order.
fn element_children(node: NodeRef<'_>) -> impl Iterator<Item = NodeRef<'_>> {
    node.children().filter(|c| c.kind() == NodeKind::Element)
}

/// Word and tag counts of every node's subtree, summed bottom-up in one pass (ids follow
/// document order, so every descendant of a node has a larger id).
struct ElementStats {
    words: Vec<u32>,
    linked_words: Vec<u32>,
    text_len: Vec<u32>,
    tags: Vec<u32>,
    heading: Vec<bool>,
}

impl ElementStats {
    fn of(doc: &Document) -> Self {
        let n = doc.len() as usize;
        let mut stats = Self {
            words: vec![0; n],
            linked_words: vec![0; n],
            text_len: vec![0; n],
            tags: vec![0; n],
            heading: vec![false; n],
        };
        for node in doc.nodes().collect::<Vec<_>>().into_iter().rev() {
            let i = node.id().get() as usize;
            if let Some(text) = node.text() {
                // Words, and the text's length with whitespace collapsed.
                let (words, chars) = text
                    .split_whitespace()
                    .fold((0, 0), |(w, c), word| (w + 1, c + word.chars().count()));
                stats.words[i] = count(words);
                stats.text_len[i] = count((chars + words).saturating_sub(1));
            }
            match node.name() {
                Some("a") => stats.linked_words[i] = stats.words[i],
                Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6") => stats.heading[i] = true,
                _ => {}
            }
            if let Some(parent) = node.parent() {
                let p = parent.id().get() as usize;
                stats.words[p] += stats.words[i];
                stats.linked_words[p] += stats.linked_words[i];
                stats.text_len[p] += stats.text_len[i];
                stats.tags[p] += stats.tags[i] + u32::from(node.kind() == NodeKind::Element);
                stats.heading[p] |= stats.heading[i];
            }
        }
        stats
    }

    /// The units of `parent`'s element children.
    fn children_units(&self, parent: NodeRef<'_>) -> Vec<UnitFeatures> {
        element_children(parent)
            .map(|child| self.unit(child))
            .collect()
    }

    /// An element as a text unit. Text density is Boilerpipe's words per wrapped line without
    /// the last line, estimated from the text length (lines of 80 characters, words spread
    /// evenly): the element's words for one line, else `words × 80 / text length`.
    fn unit(&self, element: NodeRef<'_>) -> UnitFeatures {
        let i = element.id().get() as usize;
        let (words, linked, len) = (
            self.words[i],
            self.linked_words[i].min(self.words[i]),
            self.text_len[i],
        );
        let width = BlockConfig::default().wrap_width;
        let text_density = if len <= width {
            words as f32
        } else {
            words as f32 * width as f32 / len as f32
        };
        UnitFeatures {
            name_id: element.name().map_or(1, tag_name_id),
            class_hash: element.attr("class").map_or(0, class_hash),
            words,
            linked_words: linked,
            text_density,
            link_density: if words == 0 {
                0.0
            } else {
                linked as f32 / words as f32
            },
            text_len: len,
            tag_count: self.tags[i],
            depth: element.depth(),
            heading: self.heading[i],
        }
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A run as a text unit: its parent element's name, class, depth and heading flag, its words
/// (all linked if it lies in an `<a>`), and whether it lies in a link.
pub fn run_unit(doc: &Document, run: &LabelledRun) -> (UnitFeatures, bool) {
    let node = doc.get(run.run.node);
    let parent = node.and_then(|n| n.parent());
    let mut linked = false;
    let mut heading = false;
    for ancestor in node.into_iter().flat_map(|n| n.ancestors()) {
        match ancestor.name() {
            Some("a") => linked = true,
            Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6") => heading = true,
            _ => {}
        }
    }
    let text_len = run.run.end.saturating_sub(run.run.start);
    let words = run.run.words;
    let unit = UnitFeatures {
        name_id: parent.and_then(|p| p.name()).map_or(1, tag_name_id),
        class_hash: parent.and_then(|p| p.attr("class")).map_or(0, class_hash),
        words,
        linked_words: if linked { words } else { 0 },
        text_density: words as f32,
        link_density: if linked { 1.0 } else { 0.0 },
        text_len,
        tag_count: 0,
        depth: parent.map_or(0, |p| p.depth()),
        heading,
    };
    (unit, linked)
}

#[cfg(test)]
mod tests {
    use dbce_annotate::{Decision, PageTokens, PatternClass, annotate};
    use dbce_dom::SanitizeConfig;

    use super::*;

    /// Index of a feature in a layer's vector.
    fn at(name: &str) -> usize {
        FEATURE_NAMES.iter().position(|n| *n == name).unwrap()
    }

    #[test]
    fn layers_are_the_run_its_parent_and_its_grandparent_among_their_siblings() {
        let html = "<body><div class=a><p>one two</p><p>three <a href=/>four five</a></p></div>\
                    <div>six seven eight</div></body>";
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        let runs: Vec<LabelledRun> = annotate(&PageTokens::read(&doc), &[])
            .into_iter()
            .map(|run| LabelledRun {
                run,
                class: PatternClass::Content,
                decision: Decision::Pattern,
            })
            .collect();
        let text: Vec<&str> = runs.iter().map(|r| r.run.text(&doc)).collect();
        assert_eq!(text, ["one two", "three", "four five", "six seven eight"]);
        let width = FEATURE_NAMES.len();
        let rows = window_rows(&doc, &runs, 3);
        assert_eq!(rows.len(), 4 * 3 * width);
        let row = |run: usize, layer: usize| &rows[(run * 3 + layer) * width..][..width];
        // "three": alone in its <p> (the link's words are the <a>'s runs).
        assert_eq!(row(1, 0)[at("C_wc")], 1.0);
        assert_eq!(row(1, 0)[at("P_wc")], 0.0);
        assert_eq!(row(1, 0)[at("N_wc")], 0.0);
        // Its <p> among the <div>'s children: after the first <p>, 3 words, 2 of them linked.
        assert_eq!(row(1, 1)[at("P_wc")], 2.0);
        assert_eq!(row(1, 1)[at("C_wc")], 3.0);
        assert_eq!(row(1, 1)[at("C_lw")], 2.0);
        assert_eq!(row(1, 1)[at("N_wc")], 0.0);
        // Its <div class=a> among <body>'s children: before the second <div>.
        assert_eq!(row(1, 2)[at("C_wc")], 5.0);
        assert_eq!(row(1, 2)[at("N_wc")], 3.0);
        assert_eq!(row(1, 2)[at("C_class")], class_hash("a") as f32);
        // The last run's grandparent is <html>: one element among the document's children.
        assert_eq!(row(3, 2)[at("C_wc")], 8.0);
        // Fewer layers are a prefix of each row.
        let two = window_rows(&doc, &runs, 2);
        assert_eq!(&two[2 * width..4 * width], &rows[3 * width..5 * width]);
        assert!(window_rows(&doc, &runs, 0).is_empty());
    }
}

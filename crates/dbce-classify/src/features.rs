//! The shallow features of thesis Table 2.1, for a random forest over text units.
//!
//! A text unit is a [`TextBlock`] here, and a DBCE text run in `dbce-annotate`; both reduce
//! to a [`UnitFeatures`]. [`features`] gives one unit's vector together with its previous and
//! next unit's ([`FEATURE_NAMES`]); [`window_features`] joins such vectors over several
//! layers, the 2- and 3-layer neighbourhood windows of test cases T004 and T005 (§4.2).

use dbce_dom::{Document, NodeRef};

use crate::block::{TextBlock, ratio};

/// The shallow features of one text unit.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct UnitFeatures {
    /// Id of the unit's element name ([`tag_name_id`]); 0 for the missing neighbour.
    pub name_id: u32,
    /// The unit's class attribute, sorted and hashed ([`class_hash`]); 0 for none.
    pub class_hash: u32,
    /// Number of words.
    pub words: u32,
    /// Words inside links.
    pub linked_words: u32,
    /// Text density (Boilerpipe's ϱ).
    pub text_density: f32,
    /// Linked words per word.
    pub link_density: f32,
    /// Length of the text in characters, whitespace collapsed.
    pub text_len: u32,
    /// Number of tags inside the unit.
    pub tag_count: u32,
    /// Depth of the unit's element in the DOM.
    pub depth: u32,
    /// Whether the unit is inside a heading.
    pub heading: bool,
}

impl UnitFeatures {
    /// The dummy node of Table 2.1 that stands in for a missing neighbour: all zero.
    pub const MISSING: UnitFeatures = UnitFeatures {
        name_id: 0,
        class_hash: 0,
        words: 0,
        linked_words: 0,
        text_density: 0.0,
        link_density: 0.0,
        text_len: 0,
        tag_count: 0,
        depth: 0,
        heading: false,
    };

    /// The features of a text block of `doc`; its element is [`TextBlock::element`].
    pub fn of_block(block: &TextBlock, doc: &Document) -> Self {
        let element = doc.get(block.element);
        Self {
            name_id: element.and_then(NodeRef::name).map_or(1, tag_name_id),
            class_hash: element.and_then(|e| e.attr("class")).map_or(0, class_hash),
            words: block.words,
            linked_words: block.linked_words,
            text_density: block.text_density,
            link_density: block.link_density,
            text_len: u32::try_from(block.text.chars().count()).unwrap_or(u32::MAX),
            tag_count: block.tag_count,
            depth: block.tag_depth,
            heading: block.heading,
        }
    }
}

/// Names of the values [`features`] returns, in order: Table 2.1 (`P_`, `C_`, `N_` for the
/// previous, current and next unit; `R1` the ratio of text length to tag count), then the
/// current unit's depth, heading flag and linked words.
pub const FEATURE_NAMES: &[&str] = &[
    "P_nid",
    "C_nid",
    "N_nid",
    "C_class",
    "P_ld",
    "P_td",
    "C_ld",
    "C_td",
    "N_ld",
    "N_td",
    "P_wc",
    "C_wc",
    "N_wc",
    "P_tl",
    "C_tl",
    "N_tl",
    "P_tc",
    "C_tc",
    "N_tc",
    "R1",
    "C_depth",
    "C_heading",
    "C_lw",
];

/// The feature vector of `units[i]` with its neighbours `units[i - 1]` and `units[i + 1]`
/// ([`UnitFeatures::MISSING`] where there is none; also for the unit itself if `i` is out of
/// range), named by [`FEATURE_NAMES`].
pub fn features(units: &[UnitFeatures], i: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(FEATURE_NAMES.len());
    push_features(units, Some(i), &mut out);
    out
}

/// Appends the vector of [`features`] to `out`; `None` stands for a missing unit (all its
/// and its neighbours' features are those of [`UnitFeatures::MISSING`]).
pub fn push_features(units: &[UnitFeatures], i: Option<usize>, out: &mut Vec<f32>) {
    let at = |j: Option<usize>| {
        j.and_then(|j| units.get(j))
            .unwrap_or(&UnitFeatures::MISSING)
    };
    let c = at(i);
    let (p, n) = match i {
        Some(i) => (at(i.checked_sub(1)), at(i.checked_add(1))),
        None => (&UnitFeatures::MISSING, &UnitFeatures::MISSING),
    };
    out.extend([
        id(p.name_id),
        id(c.name_id),
        id(n.name_id),
        id(c.class_hash),
        p.link_density,
        p.text_density,
        c.link_density,
        c.text_density,
        n.link_density,
        n.text_density,
        count(p.words),
        count(c.words),
        count(n.words),
        count(p.text_len),
        count(c.text_len),
        count(n.text_len),
        count(p.tag_count),
        count(c.tag_count),
        count(n.tag_count),
        ratio(c.text_len, c.tag_count.max(1)),
        count(c.depth),
        f32::from(u8::from(c.heading)),
        count(c.linked_words),
    ]);
}

/// Features over a neighbourhood window of several layers (thesis T004: the unit's layer and
/// its parent's, T005: and the grandparent's): for each layer in order, the units of that
/// layer and the position of the unit, parent or grandparent in it (`None` if there is none).
/// Named by [`window_feature_names`].
pub fn window_features(layers: &[(&[UnitFeatures], Option<usize>)]) -> Vec<f32> {
    let mut out = Vec::with_capacity(FEATURE_NAMES.len() * layers.len());
    for &(units, i) in layers {
        push_features(units, i, &mut out);
    }
    out
}

/// Names of [`window_features`] over `layers` layers: [`FEATURE_NAMES`] prefixed by `L0_`
/// (the unit's layer), `L1_` (its parent's) and so on.
pub fn window_feature_names(layers: usize) -> Vec<String> {
    (0..layers)
        .flat_map(|l| FEATURE_NAMES.iter().map(move |name| format!("L{l}_{name}")))
        .collect()
}

/// A stable id for an element name: 2 and up for the names of the HTML standard (and a few
/// obsolete ones still common on the Web) in alphabetical order, 1 for any other name. 0 is
/// left for the missing neighbour.
pub fn tag_name_id(name: &str) -> u32 {
    HTML_ELEMENTS
        .binary_search(&name)
        .map_or(1, |i| u32::try_from(i).map_or(1, |i| i + 2))
}

/// The class attribute as Table 2.1 has it, "sorted and hashed": class names split at
/// whitespace, sorted, joined by one space and hashed with 32-bit FNV-1a, kept to 24 bits so
/// that the value is exact as an `f32` feature. 0 for no class names.
pub fn class_hash(class: &str) -> u32 {
    let mut names: Vec<&str> = class.split_whitespace().collect();
    if names.is_empty() {
        return 0;
    }
    names.sort_unstable();
    let mut hash: u32 = 0x811c_9dc5;
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            hash = fnv_step(hash, b' ');
        }
        for &b in name.as_bytes() {
            hash = fnv_step(hash, b);
        }
    }
    (hash & 0x00ff_ffff).max(1)
}

fn fnv_step(hash: u32, byte: u8) -> u32 {
    (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
}

/// A count or id as a feature value; exact up to 2^24.
#[allow(clippy::cast_precision_loss)]
fn count(n: u32) -> f32 {
    n as f32
}

fn id(n: u32) -> f32 {
    count(n)
}

/// Element names with a [`tag_name_id`] of their own, sorted.
const HTML_ELEMENTS: &[&str] = &[
    "a",
    "abbr",
    "acronym",
    "address",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "bdi",
    "bdo",
    "big",
    "blockquote",
    "body",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "data",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "form",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "i",
    "img",
    "input",
    "ins",
    "kbd",
    "label",
    "legend",
    "li",
    "link",
    "main",
    "map",
    "mark",
    "menu",
    "meta",
    "meter",
    "nav",
    "nobr",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "picture",
    "pre",
    "progress",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "search",
    "section",
    "select",
    "slot",
    "small",
    "source",
    "span",
    "strike",
    "strong",
    "sub",
    "summary",
    "sup",
    "svg",
    "table",
    "tbody",
    "td",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "track",
    "tt",
    "u",
    "ul",
    "var",
    "video",
    "wbr",
];

#[cfg(test)]
mod tests {
    use dbce_dom::SanitizeConfig;

    use super::*;
    use crate::text_blocks;

    fn unit(words: u32, name_id: u32) -> UnitFeatures {
        UnitFeatures {
            name_id,
            words,
            text_len: words * 5,
            tag_count: 2,
            ..UnitFeatures::MISSING
        }
    }

    fn value(v: &[f32], name: &str) -> f32 {
        v[FEATURE_NAMES.iter().position(|n| *n == name).unwrap()]
    }

    #[test]
    fn vector_has_one_value_per_name_and_reads_neighbours() {
        let units = [unit(1, 10), unit(2, 20), unit(3, 30)];
        let v = features(&units, 1);
        assert_eq!(v.len(), FEATURE_NAMES.len());
        assert_eq!(value(&v, "P_nid"), 10.0);
        assert_eq!(value(&v, "C_nid"), 20.0);
        assert_eq!(value(&v, "N_wc"), 3.0);
        assert_eq!(value(&v, "C_tl"), 10.0);
        assert_eq!(value(&v, "R1"), 5.0);
        let first = features(&units, 0);
        assert_eq!(value(&first, "P_nid"), 0.0);
        assert_eq!(value(&first, "N_nid"), 20.0);
        let last = features(&units, 2);
        assert_eq!(value(&last, "N_wc"), 0.0);
        assert!(features(&units, 7).iter().all(|&x| x == 0.0));
    }

    #[test]
    fn windows_join_layers() {
        let units = [unit(1, 10), unit(2, 20)];
        let parents = [unit(9, 40)];
        let v = window_features(&[(&units, Some(1)), (&parents, Some(0)), (&[], None)]);
        let names = window_feature_names(3);
        assert_eq!(v.len(), names.len());
        let get = |name: &str| v[names.iter().position(|n| n == name).unwrap()];
        assert_eq!(get("L0_C_wc"), 2.0);
        assert_eq!(get("L0_P_wc"), 1.0);
        assert_eq!(get("L1_C_nid"), 40.0);
        assert_eq!(get("L2_C_nid"), 0.0);
    }

    #[test]
    fn names_and_classes_hash_stably() {
        assert!(HTML_ELEMENTS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(tag_name_id("a"), 2);
        assert_eq!(tag_name_id("my-widget"), 1);
        assert_ne!(tag_name_id("p"), tag_name_id("div"));
        assert_eq!(class_hash(""), 0);
        assert_eq!(class_hash("  "), 0);
        assert_eq!(class_hash("b a"), class_hash(" a  b "));
        assert_ne!(class_hash("a b"), class_hash("ab"));
        assert!(class_hash("nav main") < 1 << 24);
        // FNV-1a of "a" is 0xe40c292c.
        assert_eq!(class_hash("a"), 0xe40c_292c & 0x00ff_ffff);
    }

    #[test]
    fn block_features_come_from_the_block_and_its_element() {
        let doc = Document::parse(
            "<div class='story main'><p>Read <a href=x>more</a></p></div><h2 class=t>Title</h2>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let blocks = text_blocks(&doc);
        let units: Vec<_> = blocks
            .iter()
            .map(|b| UnitFeatures::of_block(b, &doc))
            .collect();
        assert_eq!(units[0].name_id, tag_name_id("p"));
        assert_eq!(units[0].class_hash, 0);
        assert_eq!(units[0].words, 2);
        assert_eq!(units[0].linked_words, 1);
        assert_eq!(units[0].text_len, 9);
        assert_eq!(units[0].tag_count, 1);
        assert_eq!(units[1].class_hash, class_hash("t"));
        assert!(units[1].heading);
        assert_eq!(value(&features(&units, 1), "C_heading"), 1.0);
    }
}

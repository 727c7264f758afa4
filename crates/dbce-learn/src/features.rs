//! Shallow features of a page's runs (thesis Table 2.1, with the Boilerpipe block around each
//! run as a second layer, as T004 widens the window): what the learned classifier sees.

use std::collections::BTreeMap;

use dbce_annotate::{Bits, CrossRole, LabelledRun, PatternClass};
use dbce_classify::{
    BlockModel, FEATURE_NAMES, PageTypeGuess, Readability, ReadabilityBlock, SinglePageMethod,
    TextBlock, UnitFeatures, push_features, text_blocks,
};
use dbce_dom::{Document, NodeId};

use crate::windows::{run_unit, window_rows};

/// Values per run: the run with its neighbours, its block with its neighbours, and the
/// extras of [`RunFeatures::of`].
pub const WIDTH: usize = 2 * FEATURE_NAMES.len() + EXTRAS;
const EXTRAS: usize = 8;

/// The feature rows of one page's runs, row-major, and the single-page verdict of each run's
/// block.
pub struct RunFeatures {
    /// `runs.len() × WIDTH` values.
    pub rows: Vec<f32>,
    /// Whether the single-page classifier keeps each run's block.
    pub single: Vec<bool>,
    /// The runs' neighbourhood windows ([`window_rows`]), when asked for: `runs.len()` rows
    /// of [`RunFeatures::window_width`] values.
    pub windows: Vec<f32>,
    /// Values per window row; 0 when none were asked for.
    pub window_width: usize,
}

impl RunFeatures {
    /// Features of `runs` (a page's, in document order). The extras are the verdict of
    /// `single_page` on the run's block (learned blocks by `block_model`, `None` for the
    /// built-in one), the run's relative position in the page, whether it
    /// lies in a link, the share of the page's words in runs the patterns call content, and
    /// what Readability says of the run's block ([`ReadabilityBlock`]: kept, in the best
    /// candidate, class/id weight, relative candidate score). With `layers` > 0, also the
    /// runs' neighbourhood windows over that many layers.
    pub fn of(
        doc: &Document,
        runs: &[LabelledRun],
        single_page: &SinglePageMethod,
        block_model: Option<&BlockModel>,
        page_type: PageTypeGuess,
        layers: usize,
    ) -> Self {
        let blocks = text_blocks(doc);
        let readability = Readability::default().blocks(doc, &blocks);
        let keep = match single_page {
            SinglePageMethod::Readability(r) if *r == Readability::default() => {
                readability.iter().map(|b| b.kept).collect()
            }
            _ => single_page.classify_page_with(block_model, doc, &blocks, page_type),
        };
        let block_of: BTreeMap<NodeId, usize> = blocks
            .iter()
            .enumerate()
            .flat_map(|(b, block)| block.nodes.iter().map(move |&node| (node, b)))
            .collect();
        let block_units: Vec<UnitFeatures> = blocks
            .iter()
            .map(|b: &TextBlock| UnitFeatures::of_block(b, doc))
            .collect();
        let units: Vec<(UnitFeatures, bool)> = runs.iter().map(|r| run_unit(doc, r)).collect();
        let run_units: Vec<UnitFeatures> = units.iter().map(|(u, _)| *u).collect();
        let total_words: u32 = runs.iter().map(|r| r.run.words).sum();
        let content_words: u32 = runs
            .iter()
            .filter(|r| r.class == PatternClass::Content)
            .map(|r| r.run.words)
            .sum();
        let content_share = ratio(content_words, total_words);
        let mut rows = Vec::with_capacity(runs.len() * WIDTH);
        let mut single = Vec::with_capacity(runs.len());
        for (i, run) in runs.iter().enumerate() {
            push_features(&run_units, Some(i), &mut rows);
            let block = block_of.get(&run.run.node).copied();
            push_features(&block_units, block, &mut rows);
            let kept = block.is_some_and(|b| keep[b]);
            single.push(kept);
            rows.extend([
                f32::from(u8::from(kept)),
                ratio(
                    u32::try_from(i).unwrap_or(u32::MAX),
                    u32::try_from(runs.len()).unwrap_or(1),
                ),
                f32::from(u8::from(units[i].1)),
                content_share,
            ]);
            let said = block.map_or(NO_BLOCK, |b| readability[b]);
            rows.extend([
                f32::from(u8::from(said.kept)),
                f32::from(u8::from(said.in_top_candidate)),
                said.class_weight,
                said.score,
            ]);
        }
        Self {
            rows,
            single,
            windows: window_rows(doc, runs, layers),
            window_width: layers * FEATURE_NAMES.len(),
        }
    }
}

/// What a run outside every text block gets for Readability's verdict.
const NO_BLOCK: ReadabilityBlock = ReadabilityBlock {
    kept: false,
    in_top_candidate: false,
    class_weight: 0.0,
    score: 0.0,
};

/// Values per run for the model trained on ground truth ([`model_row`]).
pub const MODEL_WIDTH: usize = WIDTH + CROSS_NAMES.len();

/// Names of [`RunFeatures::of`]'s extras, in order.
const EXTRA_NAMES: [&str; EXTRAS] = [
    "single_kept",
    "position",
    "in_link",
    "page_content_share",
    "rd_kept",
    "rd_in_top",
    "rd_class_weight",
    "rd_score",
];

/// Names of what [`model_row`] adds to a run's features, in order.
const CROSS_NAMES: [&str; 12] = [
    "in_up",
    "in_down",
    "in_prev",
    "in_next",
    "has_down",
    "has_prev",
    "has_next",
    "class_content",
    "class_boilerplate",
    "class_invalid",
    "similarity_up",
    "similarity_down",
];

/// Names of the values of a [`model_row`], in order: the run's shallow features (`run_…`),
/// its block's (`block_…`), the extras and what the cross says.
pub fn model_feature_names() -> Vec<String> {
    let shallow = |prefix: &'static str| FEATURE_NAMES.iter().map(move |n| format!("{prefix}{n}"));
    shallow("run_")
        .chain(shallow("block_"))
        .chain(EXTRA_NAMES.iter().map(|&n| n.to_owned()))
        .chain(CROSS_NAMES.iter().map(|&n| n.to_owned()))
        .collect()
}

/// The row the trained model reads for run `i`: its shallow features, then what the cross says
/// of it — in which members it occurs (`up`, `down`, `prev`, `next`), which members the cross
/// has (`down`, `prev`, `next`), its pattern class (content, boilerplate, invalid, one-hot) and
/// the template similarity of `up` and `down`.
pub fn model_row(
    features: &RunFeatures,
    i: usize,
    run: &LabelledRun,
    cross: Bits,
    similarity: [f32; 2],
    out: &mut Vec<f32>,
) {
    out.extend_from_slice(&features.rows[i * WIDTH..(i + 1) * WIDTH]);
    let flag = |b: bool| f32::from(u8::from(b));
    for role in [
        CrossRole::Up,
        CrossRole::Down,
        CrossRole::Prev,
        CrossRole::Next,
    ] {
        out.push(flag(run.run.bits.contains(role)));
    }
    for role in [CrossRole::Down, CrossRole::Prev, CrossRole::Next] {
        out.push(flag(cross.contains(role)));
    }
    for class in [
        PatternClass::Content,
        PatternClass::Boilerplate,
        PatternClass::Invalid,
    ] {
        out.push(flag(run.class == class));
    }
    out.extend(similarity);
}

fn ratio(a: u32, b: u32) -> f32 {
    if b == 0 { 0.0 } else { a as f32 / b as f32 }
}

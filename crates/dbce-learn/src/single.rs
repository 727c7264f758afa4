//! The single-page classifier's verdict on runs: for pages without a cross, and as one of the
//! routes a cross page's judge weighs ([`crate::judge`]).

use std::collections::BTreeMap;

use dbce_annotate::{Decision, LabelledRun, PageTokens, PatternClass, Run, annotate};
use dbce_classify::{BlockModel, PageTypeGuess, SinglePageMethod, text_blocks};
use dbce_dom::{Document, NodeId};

/// The runs of a page that has no partner (one per text node's words), each labelled as its
/// Boilerpipe text block is by the single-page classifier's `verdicts`.
pub fn single_page_runs(tokens: &PageTokens, verdicts: &BlockVerdicts) -> Vec<LabelledRun> {
    annotate(tokens, &[])
        .into_iter()
        .map(|run| LabelledRun {
            class: if verdicts.keeps(&run) {
                PatternClass::Content
            } else {
                PatternClass::Boilerplate
            },
            run,
            decision: Decision::SinglePage,
        })
        .collect()
}

/// What the single-page classifier says of each text block of a page, by the text nodes the
/// blocks hold.
pub struct BlockVerdicts {
    /// Per text node: its block's index.
    block_of: BTreeMap<NodeId, usize>,
    /// Per block: kept by the classifier.
    kept: Vec<bool>,
    /// Of the blocks with less than half their words in links, the one with the most words
    /// (the first of equals).
    densest: Option<usize>,
}

impl BlockVerdicts {
    /// The verdicts of `method` on the blocks of `doc`, a page of type `page_type`; the
    /// learned blocks by `block_model` (`None`: the built-in one).
    pub fn of(
        doc: &Document,
        method: &SinglePageMethod,
        block_model: Option<&BlockModel>,
        page_type: PageTypeGuess,
    ) -> Self {
        let blocks = text_blocks(doc);
        let kept = method.classify_page_with(block_model, doc, &blocks, page_type);
        let block_of = blocks
            .iter()
            .enumerate()
            .flat_map(|(b, block)| block.nodes.iter().map(move |&node| (node, b)))
            .collect();
        let densest = blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.link_density < 0.5)
            .max_by(|(i, a), (j, b)| a.words.cmp(&b.words).then(j.cmp(i)))
            .map(|(i, _)| i);
        Self {
            block_of,
            kept,
            densest,
        }
    }

    /// Whether the run's block is kept (a run outside every block is not).
    pub fn keeps(&self, run: &Run) -> bool {
        self.block_of.get(&run.node).is_some_and(|&b| self.kept[b])
    }

    /// Whether the run lies in the page's densest block (of the blocks with less than half
    /// their words in links, the one with the most words): the last resort of a page every
    /// other route leaves empty.
    pub fn in_densest(&self, run: &Run) -> bool {
        self.densest
            .is_some_and(|d| self.block_of.get(&run.node) == Some(&d))
    }
}

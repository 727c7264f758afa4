//! Pages without a cross: runs labelled by the single-page classifier of their text blocks.

use std::collections::BTreeMap;

use dbce_annotate::{Decision, LabelledRun, PageTokens, PatternClass, annotate};
use dbce_classify::{SinglePageMethod, text_blocks};
use dbce_dom::{Document, NodeId};

/// The runs of a page that has no partner (one per text node's words), each labelled as its
/// Boilerpipe text block is by `method`.
pub(crate) fn single_page_runs(
    doc: &Document,
    tokens: &PageTokens,
    method: &SinglePageMethod,
) -> Vec<LabelledRun> {
    let blocks = text_blocks(doc);
    let content = method.classify_page(doc, &blocks);
    let block_of: BTreeMap<NodeId, bool> = blocks
        .iter()
        .zip(&content)
        .flat_map(|(block, &keep)| block.nodes.iter().map(move |&node| (node, keep)))
        .collect();
    annotate(tokens, &[])
        .into_iter()
        .map(|run| LabelledRun {
            run,
            class: if block_of.get(&run.node).copied().unwrap_or(false) {
                PatternClass::Content
            } else {
                PatternClass::Boilerplate
            },
            decision: Decision::SinglePage,
        })
        .collect()
}

//! The learned block classifier: gradient-boosted trees (or a random forest) decide each
//! [`TextBlock`] from its shallow
//! features and its neighbours', Readability's verdict and scores, its place in the page's
//! structure and the page's kind ([`block_feature_names`]).
//!
//! Readability keeps one article column; forum threads, product pages, documentation and
//! listings are made of repeated posts, specification tables, code and item cards, which the
//! structural features (nearest `li`/`td`/`pre`/`code`/`nav`… above the block, generic
//! class/id keywords, groups of like siblings), the page context and the page's type
//! ([`PageTypeGuess`]: a teaser under an article is boilerplate, an item of a listing is
//! content) let the model keep.
//! The built-in model is trained by `dbce train-single-page` (`scripts/train-single-page`).

use std::sync::OnceLock;

use dbce_dom::Document;
use dbce_forest::{BoostedTrees, ForestError, ForestParams, RandomForest};
use serde::{Deserialize, Serialize};

use crate::block::{TextBlock, whole_paragraphs};
use crate::features::{FEATURE_NAMES, UnitFeatures, push_features};
use crate::page_type::{PageType, PageTypeGuess};
use crate::readability::{Readability, ReadabilityBlock};
use crate::structure::{BlockStructure, PAGE_NAMES, block_structure_names};

/// The model built into dbce, trained by `scripts/train-single-page`.
const BUILT_IN: &[u8] = include_bytes!("../models/blocks.bin");

/// The shallow feature left out of the rows: a hash of the whole class attribute, which
/// memorises templates instead of learning what a block is.
const LEFT_OUT: &str = "C_class";

/// [`LearnedBlocks::ARTICLES`]' threshold for blocks Readability drops.
const ARTICLE_OUTSIDE: f32 = 0.55;

/// Names of Readability's values in a row.
const READABILITY_NAMES: &[&str] = &[
    "rd_kept",
    "rd_in_top",
    "rd_class_weight",
    "rd_score",
    "rd_prev_kept",
    "rd_next_kept",
];

/// Name of the page type's confidence in a row, after one value per [`PageType`].
const TYPE_CONFIDENCE: &str = "page_type_confidence";

/// Values of the page's type at the end of every row: one per [`PageType`] (1 for the page's),
/// then its confidence.
const TYPE_WIDTH: usize = PageType::ALL.len() + 1;

/// The learned single-page method's settings: the lowest content probability at which a block
/// is content, one for the blocks Readability keeps and one for the others, and a share of the
/// page's highest probability at which a block is content as well.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LearnedBlocks {
    /// Lowest content probability at which a block Readability keeps is content. By default,
    /// 0.3: for the built-in boosted trees, the median of the 15 choices made inside the
    /// training folds for the pages not typed `article` (five site folds, three seeds: 0.25,
    /// 0.3 and 0.35 five times each; `docs/single-page.md`).
    pub threshold: f32,
    /// Lowest content probability at which a block Readability drops is content. By default
    /// the same as `threshold`; higher keeps the page closer to Readability's article
    /// ([`LearnedBlocks::ARTICLES`]).
    pub threshold_outside_readability: f32,
    /// A block whose probability is at least this share of the highest on its page is content
    /// too, below the thresholds: where the model is unsure of a whole page (an unseen site's
    /// listing whose items all score 0.2), the blocks it ranks near the top are kept rather
    /// than none. 0 turns it off. By default 0.3, chosen inside the training folds for the
    /// pages not typed `article` (in 14 of 15 folds of three seeds; `docs/single-page.md`,
    /// "Relative to the page's best block").
    pub relative_to_best: f32,
}

impl Default for LearnedBlocks {
    fn default() -> Self {
        Self {
            relative_to_best: 0.3,
            ..Self::uniform(0.3)
        }
    }
}

impl LearnedBlocks {
    /// The settings for pages typed `article`: Readability's blocks are content at 0.5, other
    /// blocks only at 0.55, what the choices made inside the training folds pick for the
    /// built-in boosted trees (anchor 0.5 in 14 of 15, outside 0.55 in 11 of 15). Held out
    /// (site folds, page types held out), wcxb-dev's articles score 0.939 (Readability
    /// 0.883), the older news sets 0.941 / 0.936 / 0.954 / 0.961 (cleanportaleval, l3s-gn1,
    /// readability, scrapinghub; `docs/single-page.md`).
    pub const ARTICLES: Self = Self {
        threshold: 0.5,
        threshold_outside_readability: ARTICLE_OUTSIDE,
        relative_to_best: 0.0,
    };

    /// Which blocks of a page are content, given each one's content probability and whether
    /// Readability keeps it: those at their threshold ([`LearnedBlocks::threshold_for`]), and
    /// those at [`LearnedBlocks::relative_to_best`] times the page's highest probability.
    ///
    /// # Panics
    /// If `probabilities` and `kept_by_readability` differ in length.
    pub fn verdicts(&self, probabilities: &[f32], kept_by_readability: &[bool]) -> Vec<bool> {
        assert_eq!(probabilities.len(), kept_by_readability.len());
        let best = probabilities.iter().copied().fold(0.0_f32, f32::max);
        let relative = if self.relative_to_best > 0.0 {
            self.relative_to_best * best
        } else {
            f32::INFINITY
        };
        probabilities
            .iter()
            .zip(kept_by_readability)
            .map(|(&p, &kept)| p >= self.threshold_for(kept) || p >= relative)
            .collect()
    }

    /// The least probability at which a block is content, Readability keeping it
    /// (`kept_by_readability`) or not.
    pub fn threshold_for(&self, kept_by_readability: bool) -> f32 {
        if kept_by_readability {
            self.threshold
        } else {
            self.threshold_outside_readability
        }
    }

    /// One threshold for every block, none relative to the page's best.
    pub fn uniform(threshold: f32) -> Self {
        Self {
            threshold,
            threshold_outside_readability: threshold,
            relative_to_best: 0.0,
        }
    }

    /// One flag per block of `doc`, in order: `true` for content, by `model` (the built-in
    /// [`BlockModel`] when `None`), the page being of type `page_type`, paragraphs kept whole
    /// ([`whole_paragraphs`]). A built-in model of another feature layout (a unit test keeps
    /// this from shipping) leaves Readability's verdicts.
    pub fn classify(
        &self,
        model: Option<&BlockModel>,
        doc: &Document,
        blocks: &[TextBlock],
        page_type: PageTypeGuess,
    ) -> Vec<bool> {
        let model = match model {
            Some(model) => Ok(model),
            None => BlockModel::built_in(),
        };
        match model {
            Ok(model) => {
                let mut kept = model.classify(doc, blocks, page_type, self);
                whole_paragraphs(doc, blocks, &mut kept);
                kept
            }
            Err(_) => Readability::default().classify(doc, blocks),
        }
    }
}

/// Names of the values [`block_rows`] gives each block, in order.
pub fn block_feature_names() -> Vec<String> {
    let mut names: Vec<String> = FEATURE_NAMES
        .iter()
        .filter(|&&n| n != LEFT_OUT)
        .map(|&n| n.to_owned())
        .collect();
    names.extend(READABILITY_NAMES.iter().map(|&n| n.to_owned()));
    names.extend(block_structure_names());
    names.extend(PAGE_NAMES.iter().map(|&n| n.to_owned()));
    names.push("page_rd_kept_share".to_owned());
    names.extend(
        PageType::ALL
            .iter()
            .map(|t| format!("page_type_{}", t.name())),
    );
    names.push(TYPE_CONFIDENCE.to_owned());
    names
}

/// The feature rows of `blocks`, the text blocks of `doc`, a page of type `page_type`:
/// row-major, one row of [`block_feature_names`]`().len()` values per block.
pub fn block_rows(doc: &Document, blocks: &[TextBlock], page_type: PageTypeGuess) -> Vec<f32> {
    let readability = Readability::default().blocks(doc, blocks);
    let units: Vec<UnitFeatures> = blocks
        .iter()
        .map(|b| UnitFeatures::of_block(b, doc))
        .collect();
    let mut structure = BlockStructure::new(doc, blocks);
    let mut page = Vec::with_capacity(PAGE_NAMES.len() + 1 + TYPE_WIDTH);
    structure.push_page(&mut page);
    page.push(kept_share(blocks, &readability));
    push_page_type(page_type, &mut page);
    let left_out = FEATURE_NAMES.iter().position(|&n| n == LEFT_OUT);
    let width = block_width();
    let mut rows = Vec::with_capacity(width * blocks.len());
    let mut shallow = Vec::with_capacity(FEATURE_NAMES.len());
    for i in 0..blocks.len() {
        shallow.clear();
        push_features(&units, Some(i), &mut shallow);
        rows.extend(
            shallow
                .iter()
                .enumerate()
                .filter(|&(j, _)| Some(j) != left_out)
                .map(|(_, &v)| v),
        );
        push_readability(&readability, i, &mut rows);
        structure.push_block(i, &mut rows);
        rows.extend_from_slice(&page);
    }
    rows
}

/// Gives every row of `rows` ([`block_rows`] of one page) the page type `page_type` instead
/// of the one it was made with: a training page takes the type a page-type model that never
/// saw it gives it, as unseen pages will.
pub fn set_page_type(rows: &mut [f32], page_type: PageTypeGuess) {
    let mut values = Vec::with_capacity(TYPE_WIDTH);
    push_page_type(page_type, &mut values);
    let width = block_width();
    for row in rows.chunks_exact_mut(width) {
        row[width - TYPE_WIDTH..].copy_from_slice(&values);
    }
}

/// The page type's values of a row: one per [`PageType`], 1 for `page_type`'s, then its
/// confidence.
fn push_page_type(page_type: PageTypeGuess, out: &mut Vec<f32>) {
    out.extend(
        PageType::ALL
            .iter()
            .map(|&t| f32::from(u8::from(t == page_type.page_type))),
    );
    out.push(page_type.confidence);
}

/// Share of the page's words in blocks Readability keeps.
fn kept_share(blocks: &[TextBlock], readability: &[ReadabilityBlock]) -> f32 {
    let (mut kept, mut all) = (0u32, 0u32);
    for (block, verdict) in blocks.iter().zip(readability) {
        all = all.saturating_add(block.words);
        if verdict.kept {
            kept = kept.saturating_add(block.words);
        }
    }
    crate::block::ratio(kept, all)
}

fn push_readability(blocks: &[ReadabilityBlock], i: usize, out: &mut Vec<f32>) {
    let kept = |j: Option<usize>| {
        f32::from(u8::from(
            j.and_then(|j| blocks.get(j)).is_some_and(|b| b.kept),
        ))
    };
    let b = blocks[i];
    out.extend([
        f32::from(u8::from(b.kept)),
        f32::from(u8::from(b.in_top_candidate)),
        b.class_weight,
        b.score,
        kept(i.checked_sub(1)),
        kept(i.checked_add(1)),
    ]);
}

/// Whether Readability keeps the block of `row` (its `rd_kept` value).
pub fn readability_keeps(row: &[f32]) -> bool {
    row[readability_column()] > 0.5
}

/// The column of `rd_kept`, the first of Readability's values, after the shallow features.
fn readability_column() -> usize {
    FEATURE_NAMES.iter().filter(|&&n| n != LEFT_OUT).count()
}

fn block_width() -> usize {
    static WIDTH: OnceLock<usize> = OnceLock::new();
    *WIDTH.get_or_init(|| block_feature_names().len())
}

/// A hash of the feature names in order: a model trained on another layout is refused.
fn layout_hash() -> u64 {
    static HASH: OnceLock<u64> = OnceLock::new();
    *HASH.get_or_init(|| {
        // FNV-1a: stable across builds and platforms.
        let mut hash = 0xcbf2_9ce4_8422_2325_u64;
        for name in block_feature_names() {
            for byte in name.bytes().chain([b'\n']) {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    })
}

/// Why a block model was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The bytes are not a block model.
    #[error("not a dbce block model")]
    NotAModel,
    /// The model was trained on rows of another feature layout.
    #[error(
        "block model trained on another feature layout ({width} values, layout {layout:016x}); \
         this dbce makes rows of {expected_width} values, layout {expected:016x}: retrain it \
         with scripts/train-single-page"
    )]
    StaleLayout {
        /// Values per row the model was trained on.
        width: usize,
        /// The layout hash stored with the model.
        layout: u64,
        /// Values per row this build makes.
        expected_width: usize,
        /// This build's layout hash.
        expected: u64,
    },
    /// Training refused its input.
    #[error("cannot train a block model: {0}")]
    Training(#[from] ForestError),
    /// The model cannot be serialised.
    #[error("cannot encode the block model: {0}")]
    Encode(String),
}

/// A classifier over [`block_rows`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum BlockClassifier {
    /// A random forest.
    Forest(RandomForest),
    /// Gradient-boosted trees (the built-in model's).
    Boosted(BoostedTrees),
}

impl BlockClassifier {
    /// Values per row it reads.
    pub fn n_features(&self) -> usize {
        match self {
            Self::Forest(forest) => forest.n_features(),
            Self::Boosted(boosted) => boosted.n_features(),
        }
    }

    /// The probability that `row` is content.
    pub fn predict_proba(&self, row: &[f32]) -> f32 {
        match self {
            Self::Forest(forest) => forest.predict_proba(row),
            Self::Boosted(boosted) => boosted.predict_proba(row),
        }
    }

    /// [`BlockClassifier::predict_proba`] of every row of `rows` (row-major, [`block_width`]
    /// values each), bit-identical to asking row by row and faster: the rows walk the trees
    /// together.
    pub fn probabilities(&self, rows: &[f32]) -> Vec<f32> {
        match self {
            Self::Forest(forest) => forest.predict_proba_batch(rows),
            Self::Boosted(boosted) => boosted.predict_proba_batch(rows),
        }
    }

    /// Whether [`BlockClassifier::predict_proba`] of `row` reaches `threshold`, from only the
    /// trees it takes to know.
    pub fn reaches(&self, row: &[f32], threshold: f32) -> bool {
        match self {
            Self::Forest(forest) => forest.reaches(row, threshold),
            Self::Boosted(boosted) => boosted.reaches(row, threshold),
        }
    }

    /// Number of trees.
    pub fn n_trees(&self) -> usize {
        match self {
            Self::Forest(forest) => forest.n_trees(),
            Self::Boosted(boosted) => boosted.n_trees(),
        }
    }
}

/// A classifier over [`block_rows`], stored with the hash of its feature layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockModel {
    layout: u64,
    classifier: BlockClassifier,
}

impl BlockModel {
    /// The bytes of the model built into this crate.
    pub const BUILT_IN_BYTES: &'static [u8] = BUILT_IN;

    /// Trains a model on `rows` ([`block_rows`] of many pages) and one label per row.
    ///
    /// # Errors
    /// [`ModelError::Training`] when the forest refuses the input (see
    /// [`RandomForest::fit`]).
    pub fn fit(rows: &[f32], labels: &[bool], params: &ForestParams) -> Result<Self, ModelError> {
        Self::new(BlockClassifier::Forest(RandomForest::fit(
            rows,
            block_width(),
            labels,
            params,
        )?))
    }

    /// A model of `classifier`, trained on [`block_rows`] of this build.
    ///
    /// # Errors
    /// [`ModelError::StaleLayout`] when it reads rows of another width.
    pub fn new(classifier: BlockClassifier) -> Result<Self, ModelError> {
        Self {
            layout: layout_hash(),
            classifier,
        }
        .checked()
    }

    /// The model built into this crate.
    ///
    /// # Errors
    /// When it does not decode or was trained on another layout (see [`BlockModel::decode`]).
    pub fn built_in() -> Result<&'static Self, ModelError> {
        static MODEL: OnceLock<Result<BlockModel, ModelError>> = OnceLock::new();
        MODEL
            .get_or_init(|| Self::decode(BUILT_IN))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The model in `bytes`, as [`BlockModel::encode`] wrote it.
    ///
    /// # Errors
    /// [`ModelError::NotAModel`] for other bytes, [`ModelError::StaleLayout`] for a model of
    /// another feature layout.
    pub fn decode(bytes: &[u8]) -> Result<Self, ModelError> {
        let model: Self = postcard::from_bytes(bytes).map_err(|_| ModelError::NotAModel)?;
        model.checked()
    }

    /// The model, if it reads the rows of this build.
    fn checked(self) -> Result<Self, ModelError> {
        if self.layout != layout_hash() || self.classifier.n_features() != block_width() {
            return Err(ModelError::StaleLayout {
                width: self.classifier.n_features(),
                layout: self.layout,
                expected_width: block_width(),
                expected: layout_hash(),
            });
        }
        Ok(self)
    }

    /// The model as bytes.
    ///
    /// # Errors
    /// [`ModelError::Encode`] when it cannot be serialised.
    pub fn encode(&self) -> Result<Vec<u8>, ModelError> {
        postcard::to_allocvec(self).map_err(|e| ModelError::Encode(e.to_string()))
    }

    /// The classifier.
    pub fn classifier(&self) -> &BlockClassifier {
        &self.classifier
    }

    /// The probability that each row of `rows` ([`block_rows`]) is content.
    pub fn probabilities(&self, rows: &[f32]) -> Vec<f32> {
        self.classifier.probabilities(rows)
    }

    /// One flag per block of `doc`, a page of type `page_type`: content when the
    /// classifier's probability reaches the threshold of `settings` for a block Readability
    /// keeps or drops, or its share of the page's highest ([`LearnedBlocks::verdicts`]). Every
    /// block's probability is computed, the page's blocks walking the trees together
    /// ([`BlockClassifier::probabilities`]): about half of what deciding each block at its
    /// threshold tree by tree ([`BlockClassifier::reaches`]) costs
    /// (`docs/bench/2026-11-29-lockstep`).
    pub fn classify(
        &self,
        doc: &Document,
        blocks: &[TextBlock],
        page_type: PageTypeGuess,
        settings: &LearnedBlocks,
    ) -> Vec<bool> {
        let rows = block_rows(doc, blocks, page_type);
        let kept: Vec<bool> = rows
            .chunks_exact(block_width())
            .map(readability_keeps)
            .collect();
        settings.verdicts(&self.probabilities(&rows), &kept)
    }
}

#[cfg(test)]
mod tests {
    use dbce_dom::SanitizeConfig;

    use super::*;
    use crate::text_blocks;

    const ARTICLE: PageTypeGuess = PageTypeGuess {
        page_type: PageType::Article,
        confidence: 0.9,
    };

    fn page() -> (Document, Vec<TextBlock>) {
        let s = "The council met on Tuesday to discuss the new budget for the coming year. ";
        let html = format!(
            "<title>Budget</title><ul class=menu><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>\
             <h1>Budget</h1><p>{s}{s}{s}</p><div class=comment><p>{s}</p></div><footer>© 2024</footer>"
        );
        let doc = Document::parse(&html, &SanitizeConfig::default()).unwrap();
        let blocks = text_blocks(&doc);
        (doc, blocks)
    }

    #[test]
    fn rows_have_one_named_value_per_feature() {
        let (doc, blocks) = page();
        let rows = block_rows(&doc, &blocks, ARTICLE);
        let names = block_feature_names();
        assert_eq!(rows.len(), names.len() * blocks.len());
        assert!(!names.iter().any(|n| n == LEFT_OUT));
        assert!(rows.iter().all(|v| v.is_finite()));
        assert_eq!(names[readability_column()], "rd_kept");
        let readability = Readability::default().classify(&doc, &blocks);
        let kept: Vec<bool> = rows
            .chunks_exact(names.len())
            .map(readability_keeps)
            .collect();
        assert_eq!(kept, readability);
    }

    #[test]
    fn rows_end_with_the_page_type() {
        let (doc, blocks) = page();
        let names = block_feature_names();
        let width = names.len();
        assert_eq!(names[width - TYPE_WIDTH], "page_type_article");
        assert_eq!(names[width - 1], TYPE_CONFIDENCE);
        let listing = PageTypeGuess {
            page_type: PageType::Listing,
            confidence: 0.4,
        };
        let mut rows = block_rows(&doc, &blocks, ARTICLE);
        for row in rows.chunks_exact(width) {
            assert_eq!(
                &row[width - TYPE_WIDTH..],
                &[1., 0., 0., 0., 0., 0., 0., 0., 0.9]
            );
        }
        set_page_type(&mut rows, listing);
        assert_eq!(rows, block_rows(&doc, &blocks, listing));
        for row in rows.chunks_exact(width) {
            assert_eq!(
                &row[width - TYPE_WIDTH..],
                &[0., 0., 0., 0., 1., 0., 0., 0., 0.4]
            );
        }
    }

    #[test]
    fn blocks_readability_drops_need_their_own_threshold() {
        let (doc, blocks) = page();
        let model = BlockModel::built_in().unwrap();
        let rows = block_rows(&doc, &blocks, ARTICLE);
        let probabilities = model.probabilities(&rows);
        let kept: Vec<bool> = rows
            .chunks_exact(block_width())
            .map(readability_keeps)
            .collect();
        let strict = LearnedBlocks {
            threshold: 0.0,
            threshold_outside_readability: 1.1,
            relative_to_best: 0.0,
        };
        // Every block Readability keeps is content at 0, none of the others above 1.
        assert_eq!(model.classify(&doc, &blocks, ARTICLE, &strict), kept);
        let uniform = model.classify(&doc, &blocks, ARTICLE, &LearnedBlocks::uniform(0.5));
        let expected: Vec<bool> = probabilities.iter().map(|&p| p >= 0.5).collect();
        assert_eq!(uniform, expected);
    }

    #[test]
    fn blocks_near_the_pages_best_are_content_below_the_threshold() {
        let p = [0.1, 0.2, 0.05, 0.25];
        let kept = [false, true, false, false];
        let relative = LearnedBlocks {
            relative_to_best: 0.3,
            ..LearnedBlocks::uniform(0.3)
        };
        // 0.3 × 0.25 = 0.075: every block but the one at 0.05.
        assert_eq!(relative.verdicts(&p, &kept), [true, true, false, true]);
        assert_eq!(LearnedBlocks::uniform(0.3).verdicts(&p, &kept), [false; 4]);
        assert_eq!(LearnedBlocks::default(), relative);
        // The thresholds still count on their own, and an empty page has no verdicts.
        assert_eq!(
            LearnedBlocks::ARTICLES.verdicts(&[0.52, 0.52], &[true, false]),
            [true, false]
        );
        assert!(relative.verdicts(&[], &[]).is_empty());
        // On a real page: above every threshold, only the best block and its near equals.
        let (doc, blocks) = page();
        let model = BlockModel::built_in().unwrap();
        let probabilities = model.probabilities(&block_rows(&doc, &blocks, ARTICLE));
        let best = probabilities.iter().copied().fold(0.0, f32::max);
        let only_best = LearnedBlocks {
            relative_to_best: 1.0,
            ..LearnedBlocks::uniform(1.1)
        };
        let expected: Vec<bool> = probabilities.iter().map(|&p| p >= best).collect();
        assert!(expected.contains(&true));
        assert_eq!(model.classify(&doc, &blocks, ARTICLE, &only_best), expected);
    }

    #[test]
    fn the_built_in_model_reads_the_rows_this_build_makes() {
        let model = BlockModel::built_in().unwrap();
        assert_eq!(model.classifier().n_features(), block_width());
        assert_eq!(
            &BlockModel::decode(&model.encode().unwrap()).unwrap(),
            model
        );
        let (doc, blocks) = page();
        let content = LearnedBlocks::default().classify(None, &doc, &blocks, ARTICLE);
        assert_eq!(content.len(), blocks.len());
        assert!(content[3], "the article paragraph is content");
        assert!(!content[0] && !content[1], "the menu is not");
    }

    #[test]
    fn a_model_of_another_layout_is_refused() {
        let (doc, blocks) = page();
        let rows = block_rows(&doc, &blocks, ARTICLE);
        let labels: Vec<bool> = (0..blocks.len()).map(|i| i == 3).collect();
        let params = ForestParams {
            trees: 2,
            ..ForestParams::default()
        };
        let mut model = BlockModel::fit(&rows, &labels, &params).unwrap();
        assert_eq!(BlockModel::decode(&model.encode().unwrap()).unwrap(), model);
        model.layout ^= 1;
        assert!(matches!(
            BlockModel::decode(&model.encode().unwrap()),
            Err(ModelError::StaleLayout { .. })
        ));
        assert_eq!(BlockModel::decode(b"junk"), Err(ModelError::NotAModel));
    }
}

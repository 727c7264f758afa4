//! Shallow text features and single-page content classifiers (Boilerpipe, Block Fusion).
//!
//! A page's `<body>` is cut into [`TextBlock`]s, Boilerpipe's unit (Kohlschütter et al.,
//! *Boilerplate Detection using Shallow Text Features*, WSDM 2010): the text between two
//! block-level tags, with its words, linked words, wrapped lines, text density and link
//! density ([`text_blocks`], [`text_blocks_with`] and [`BlockConfig`]; the tag lists are in
//! [`tags`]). A [`SinglePageMethod`] marks each block content or boilerplate from these
//! features alone:
//! - the paper's two decision trees, Algorithm 1 ([`SinglePageMethod::Densitometric`]) and
//!   Algorithm 2 ([`SinglePageMethod::NumWords`], the default);
//! - Boilerpipe's `DefaultExtractor` ([`SinglePageMethod::BoilerpipeDefault`]) and a
//!   language-independent subset of its `ArticleExtractor` ([`SinglePageMethod::Article`],
//!   [`Article`]);
//! - Block Fusion from Kohlschütter's dissertation (2011, §4.2.2), plain, smoothed and
//!   rule-based ([`FusionVariant`], [`BlockFusion`], [`SegmentRule`]);
//! - Arc90 Readability's content scoring as readability-lxml 0.9 does it, over the page's tree
//!   ([`SinglePageMethod::Readability`], [`Readability`], with per-block features in
//!   [`ReadabilityBlock`]); it needs the document, so it runs through
//!   [`SinglePageMethod::classify_page`];
//! - a learned block classifier ([`SinglePageMethod::Blocks`], [`LearnedBlocks`],
//!   [`BlockModel`]): gradient-boosted trees over each block's shallow features, Readability's
//!   verdict, its place in the page's structure, the page's kind and its type ([`block_rows`],
//!   [`block_feature_names`]), which keeps what forums, products, documentation and listings
//!   are made of.
//!
//! [`UnitFeatures`], [`features`] and [`FEATURE_NAMES`] give the shallow features of the DBCE
//! thesis's Table 2.1 for any sequence of text units, for the random forest of later stages.
//! `docs/single-page.md` has the methods' scores on the development sets.
//!
//! ```
//! use dbce_classify::{SinglePageMethod, text_blocks};
//! use dbce_dom::{Document, SanitizeConfig};
//!
//! let story = "The minister said on Monday that the new rules would take effect next \
//!              spring, after a consultation with industry and unions. ";
//! let html = format!(
//!     "<body><ul><li><a href=/>Home</a></li><li><a href=/world>World</a></li></ul>\
//!      <p>{story}{story}{story}</p><p>{story}{story}</p><p><a href=/about>About us</a></p>"
//! );
//! let doc = Document::parse(&html, &SanitizeConfig::default())?;
//! let blocks = text_blocks(&doc);
//! assert_eq!(blocks[0].text, "Home");
//! assert_eq!(blocks[0].link_density, 1.0);
//! assert!(blocks[2].text_density > 10.0);
//!
//! let content = SinglePageMethod::default().classify(&blocks);
//! let kept: Vec<&str> = blocks
//!     .iter()
//!     .zip(&content)
//!     .filter(|&(_, &keep)| keep)
//!     .map(|(b, _)| b.text.as_str())
//!     .collect();
//! assert_eq!(kept.len(), 2);
//! assert!(kept[0].starts_with("The minister said"));
//! # Ok::<(), dbce_dom::DomError>(())
//! ```
#![deny(missing_docs)]

mod article;
mod block;
mod features;
mod fusion;
mod learned;
mod method;
pub mod page_type;
mod readability;
mod rules;
mod structure;
pub mod tags;
mod wrap;

pub use article::Article;
pub use block::{
    BlockConfig, BlockOffset, TextBlock, text_blocks, text_blocks_with, whole_paragraphs,
};
pub use features::{
    FEATURE_NAMES, UnitFeatures, class_hash, features, push_features, tag_name_id,
    window_feature_names, window_features,
};
pub use fusion::FusionVariant;
pub use learned::{
    BlockClassifier, BlockModel, LearnedBlocks, ModelError, block_feature_names, block_rows,
    readability_keeps, set_page_type,
};
pub use method::{
    BF_RULE_BASED_THRESHOLD, BF_THRESHOLD, BlockFusion, ParseMethodError, SegmentRule,
    SinglePageMethod,
};
pub use page_type::{PageType, PageTypeGuess, PageTypeModel};
pub use readability::{Readability, ReadabilityBlock};
pub use tags::Gap;
pub use tags::InlineTags;

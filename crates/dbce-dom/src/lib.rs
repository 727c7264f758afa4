//! HTML text to a sanitised DOM arena, with the layer view, template tokens and text runs of
//! Diff-Based Content Extraction (Leśniak 2017, thesis §2.2).
//!
//! [`Document::parse`] runs the HTML5 parsing algorithm (html5ever's tree builder, fed by the
//! byte-oriented tokenizer of `dbce_tokenize`) on decoded text straight into a flat arena of
//! [`NodeId`]-indexed nodes in document order, dropping scripts, styles,
//! comments, iframes and the other elements listed under [`DropReason`] on the way; limits come
//! from [`SanitizeConfig`] and what was dropped is counted in the document's [`ParseReport`].
//! Nodes are read through [`NodeRef`].
//!
//! On top of the arena:
//! - [`Layers`]: each element's [`Layer`] and the groups of siblings of thesis Listing 2.6, in
//!   its order;
//! - [`TemplateTokens`] and [`Document::template_tokens`]: the MinHash tokens of Listing 2.7,
//!   `{node_nr}_{node_group_nr}_{level}_{name}` for the element and each ancestor up to
//!   `[document]`, joined by `/`;
//! - [`Document::text_runs`] ([`TextRun`], [`TextRunId`]) and [`Document::visible_text`].
//!
//! No walk recurses, so a page nested 100,000 levels deep parses on a small stack, and
//! [`SanitizeConfig::max_depth`] keeps token length bounded. `docs/dom.md` records how the
//! thesis listings were read and every sanitising decision.
//!
//! ```
//! use dbce_dom::{Document, DropReason, SanitizeConfig};
//!
//! let html = "<html><head><script>track()</script></head><body>\
//!             <span class=def><ul class=adv><li>Buy More</li><li>New Cars</li></ul>\
//!             Definition of Boilerplate</span></body></html>";
//! let doc = Document::parse(html, &SanitizeConfig::default())?;
//!
//! assert_eq!(doc.report().dropped(DropReason::Script), 1);
//! assert_eq!(doc.visible_text(), "Buy More\nNew Cars\nDefinition of Boilerplate");
//!
//! let tokens = doc.template_tokens();
//! assert_eq!(tokens[0], "0_0_0_html/0_0_0_[document]");
//! assert!(tokens.contains(&"0_0_3_ul/0_0_3_span/0_0_3_body/0_0_3_html/0_0_3_[document]".into()));
//!
//! let runs: Vec<&str> = doc.text_runs().map(|run| run.text).collect();
//! assert_eq!(runs, ["Buy More", "New Cars", "Definition of Boilerplate"]);
//! # Ok::<(), dbce_dom::DomError>(())
//! ```
#![deny(missing_docs)]

mod compact;
mod config;
mod document;
mod encode;
mod error;
mod layers;
mod node;
#[cfg(test)]
mod parity;
mod parse;
mod raw;
mod report;
mod rules;
mod serialize;
mod sink;
mod streamed;
mod text;
mod tokens;

pub use config::SanitizeConfig;
pub use document::{Ancestors, Children, Document, NodeRef, style_hides};
pub use encode::DecodeError;
pub use error::DomError;
pub use layers::{Groups, Layers, NodeGroup};
pub use node::{Layer, NodeId, NodeKind};
pub use parse::parse_count;
pub use report::{ParseReport, Truncation};
pub use rules::{CONSENT_DIALOGS, DropReason};
pub use serialize::{escape_attr, escape_text};
pub use text::{
    TextLines, TextRun, TextRunId, TextRuns, is_block_element, is_preformatted, word_count, words,
};
pub use tokens::{DOCUMENT_NAME, TemplateTokens};

//! Limits of parsing and sanitising.

/// Limits of [`crate::Document::parse`]. Each is enforced before the work it guards and shows
/// up either as a [`crate::DomError`] or as a count in the [`crate::ParseReport`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields, rename_all = "kebab-case")
)]
pub struct SanitizeConfig {
    /// Inputs longer than this many bytes are cut to their first bytes (at a character
    /// boundary, before a tag cut in two) and parsed, the document flagged with
    /// [`crate::Truncation::Bytes`]. Values above 4 GiB act as 4 GiB. By default, 32 MiB.
    pub max_input_bytes: u64,
    /// Parsing stops with [`crate::DomError::TooManyNodes`] once the parser has created this many
    /// elements and text nodes. Dropped elements and comments are not stored and not counted.
    /// By default, 1,000,000 (a large real page has about 50,000).
    pub max_nodes: u32,
    /// Deepest [`crate::Layer`] an element may have. A deeper element is unwrapped: it is left
    /// out and its content (text and elements, themselves unwrapped) goes to the nearest kept
    /// ancestor, in document order, and [`crate::ParseReport::unwrapped_elements`] counts it. No
    /// text is lost, and template tokens, whose length grows with depth, stay bounded.
    /// By default, 512.
    pub max_depth: u32,
    /// Parsing stops once a block element (`<div>`, `<p>`, `<ul>`, `<li>`, `<table>`, a
    /// heading, …) is nested deeper than this: the tree built so far (through the 16 KiB piece
    /// of input being parsed) is kept, the rest of the input is left out, and the document is
    /// flagged with [`crate::Truncation::Depth`]. The HTML5 parser looks
    /// through the whole stack of open elements at each such start tag, so their nesting costs
    /// time quadratic in depth (100,000 nested `<div>`s: 30 s); inline elements nest to any
    /// depth in linear time. By default, 4096.
    pub max_block_depth: u32,
    /// Bytes of attribute names and values kept per document. Attributes past the budget are
    /// left out and counted in [`crate::ParseReport::dropped_attributes`]; the parser clones the
    /// attributes of formatting elements, so without a budget a small input could make very
    /// many. By default, 16 MiB.
    pub max_attribute_bytes: u64,
}

impl Default for SanitizeConfig {
    fn default() -> Self {
        Self {
            max_input_bytes: 32 * 1024 * 1024,
            max_nodes: 1_000_000,
            max_depth: 512,
            max_block_depth: 4096,
            max_attribute_bytes: 16 * 1024 * 1024,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_documented_values() {
        let c = SanitizeConfig::default();
        assert_eq!(c.max_input_bytes, 32 << 20);
        assert_eq!(c.max_nodes, 1_000_000);
        assert_eq!(c.max_depth, 512);
        assert_eq!(c.max_block_depth, 4096);
        assert_eq!(c.max_attribute_bytes, 16 << 20);
    }
}

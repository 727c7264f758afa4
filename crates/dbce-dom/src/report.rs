//! What sanitising changed, counted per document.

use crate::rules::DropReason;

/// Why a page was parsed only in part: which limit of [`crate::SanitizeConfig`] cut it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum Truncation {
    /// The input was longer than [`crate::SanitizeConfig::max_input_bytes`]: only its first
    /// bytes, up to a character boundary before any tag cut in two, were parsed.
    Bytes,
    /// A block element was nested deeper than [`crate::SanitizeConfig::max_block_depth`]: the
    /// parse stopped a few kilobytes later, and the rest of the input was left out.
    Depth,
}

impl Truncation {
    /// The name in reports and output (`bytes`, `depth`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Bytes => "bytes",
            Self::Depth => "depth",
        }
    }
}

/// Counts of what [`crate::Document::parse`] repaired, dropped or unwrapped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParseReport {
    /// Bytes of HTML text parsed (less than the input's length when it was truncated).
    pub input_bytes: u64,
    /// The limits that cut the input, in the order they did (the byte limit first); empty when
    /// the whole input was parsed.
    pub truncated: Vec<Truncation>,
    /// Parse errors the HTML5 parser met and repaired (unclosed or stray tags and the like).
    pub parse_errors: u64,
    /// Elements deeper than [`crate::SanitizeConfig::max_depth`], left out with their content
    /// moved up.
    pub unwrapped_elements: u64,
    /// Attributes left out past [`crate::SanitizeConfig::max_attribute_bytes`].
    pub dropped_attributes: u64,
    pub(crate) dropped: [u64; DropReason::ALL.len()],
}

impl ParseReport {
    /// How many nodes were dropped for `reason`, nested ones included (a `<script>` inside a
    /// dropped `<noscript>` counts only when the parser saw it as an element).
    pub fn dropped(&self, reason: DropReason) -> u64 {
        self.dropped[reason.index()]
    }

    /// How many nodes were dropped for any reason.
    pub fn dropped_total(&self) -> u64 {
        self.dropped.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_add_up_the_reasons() {
        let mut report = ParseReport::default();
        report.dropped[DropReason::Script.index()] = 2;
        report.dropped[DropReason::Comment.index()] = 3;
        assert_eq!(report.dropped(DropReason::Script), 2);
        assert_eq!(report.dropped(DropReason::Style), 0);
        assert_eq!(report.dropped_total(), 5);
    }
}

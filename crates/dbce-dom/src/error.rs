//! The one error type of this crate.

/// Why a page could not be turned into a [`crate::Document`].
///
/// Both are limits of [`crate::SanitizeConfig`], checked before the work they guard; the caller
/// knows which record the input came from and reports the skip with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DomError {
    /// The input is longer than [`crate::SanitizeConfig::max_input_bytes`]; nothing was parsed.
    #[error("HTML input of {len} bytes is larger than the limit of {max} bytes")]
    InputTooLarge {
        /// Length of the input in bytes.
        len: u64,
        /// The limit.
        max: u64,
    },
    /// The tree grew past [`crate::SanitizeConfig::max_nodes`]; parsing stopped.
    #[error("HTML input makes more than {max} nodes (limit reached before byte {at_byte})")]
    TooManyNodes {
        /// The limit.
        max: u32,
        /// Input offset up to which the parser had read when the limit was noticed.
        at_byte: u64,
    },
    /// A block element (`<div>`, `<ul>`, `<p>`, …) was nested deeper than
    /// [`crate::SanitizeConfig::max_block_depth`]; parsing stopped.
    #[error("HTML input nests block elements more than {max} deep (at byte {at_byte})")]
    TooDeep {
        /// The limit.
        max: u32,
        /// Input offset up to which the parser had read when the limit was noticed.
        at_byte: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_numbers() {
        let e = DomError::InputTooLarge { len: 10, max: 5 };
        assert_eq!(
            e.to_string(),
            "HTML input of 10 bytes is larger than the limit of 5 bytes"
        );
        let e = DomError::TooManyNodes {
            max: 3,
            at_byte: 64,
        };
        assert!(e.to_string().contains("more than 3 nodes"));
    }
}

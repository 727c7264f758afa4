//! The one error type of this crate.

/// Why a page could not be turned into a [`crate::Document`].
///
/// The node limit of [`crate::SanitizeConfig`], checked as the tree grows; the caller knows
/// which record the input came from and reports the skip with it. The byte and depth limits
/// truncate the page instead ([`crate::Truncation`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DomError {
    /// The tree grew past [`crate::SanitizeConfig::max_nodes`]; parsing stopped.
    #[error("HTML input makes more than {max} nodes (limit reached before byte {at_byte})")]
    TooManyNodes {
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
        let e = DomError::TooManyNodes {
            max: 3,
            at_byte: 64,
        };
        assert!(e.to_string().contains("more than 3 nodes"));
    }
}

//! Word wrapping at a fixed column, for the text density.

/// Lines taken by a block's words and the numerator of its text density.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Wrap {
    /// Number of lines, at least 1.
    pub(crate) lines: u32,
    /// Words on every line but the last, or all words for a single line.
    pub(crate) words_in_wrapped_lines: u32,
}

/// Greedy word wrap: a word starts a new line when it does not fit after the words already
/// on the current one (one space between words); a word longer than `width` gets a line of
/// its own. The lengths are in characters.
///
/// Boilerpipe's wrapper counts the first word one column short and so gives a first word of
/// more than 80 characters an empty line of its own; this one follows the paper's definition.
pub(crate) fn wrap_words(word_lengths: impl Iterator<Item = u32>, width: u32) -> Wrap {
    let mut lines = 1u32;
    let mut line_len = 0u32;
    let mut on_line = 0u32;
    let mut before_last_line = 0u32;
    for len in word_lengths {
        if on_line > 0 && line_len.saturating_add(1).saturating_add(len) > width {
            lines += 1;
            before_last_line += on_line;
            on_line = 0;
            line_len = 0;
        }
        line_len = line_len
            .saturating_add(u32::from(on_line > 0))
            .saturating_add(len);
        on_line += 1;
    }
    Wrap {
        lines,
        words_in_wrapped_lines: if lines == 1 {
            on_line
        } else {
            before_last_line
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrap(lengths: &[u32]) -> Wrap {
        wrap_words(lengths.iter().copied(), 80)
    }

    #[test]
    fn empty_and_single_line() {
        assert_eq!(
            wrap(&[]),
            Wrap {
                lines: 1,
                words_in_wrapped_lines: 0
            }
        );
        assert_eq!(
            wrap(&[7, 2]),
            Wrap {
                lines: 1,
                words_in_wrapped_lines: 2
            }
        );
    }

    #[test]
    fn exact_fit_stays_on_the_line() {
        // 40 + 1 + 39 = 80 columns: one line; one more character wraps.
        assert_eq!(wrap(&[40, 39]).lines, 1);
        assert_eq!(
            wrap(&[40, 40]),
            Wrap {
                lines: 2,
                words_in_wrapped_lines: 1
            }
        );
    }

    #[test]
    fn long_words_take_their_own_line() {
        assert_eq!(
            wrap(&[100]),
            Wrap {
                lines: 1,
                words_in_wrapped_lines: 1
            }
        );
        assert_eq!(
            wrap(&[3, 100, 3]),
            Wrap {
                lines: 3,
                words_in_wrapped_lines: 2
            }
        );
    }
}

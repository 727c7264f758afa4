//! The two decision trees of Kohlschütter et al. 2010 (Algorithms 1 and 2), over a block and
//! its neighbours.

use crate::block::{TextBlock, ratio};

/// What the decision trees and Block Fusion look at: the counts behind a block's (or a fused
/// segment's) word count, text density and link density.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Counts {
    pub(crate) words: u32,
    pub(crate) linked_words: u32,
    /// Numerator of the text density ([`TextBlock::words_in_wrapped_lines`]).
    pub(crate) density_words: u32,
    /// Denominator of the text density ([`TextBlock::density_lines`]).
    pub(crate) density_lines: u32,
}

impl Counts {
    /// The missing neighbour before the first or after the last block: Boilerpipe's
    /// `TextBlock.EMPTY_START`/`EMPTY_END`, all zero.
    pub(crate) const EMPTY: Counts = Counts {
        words: 0,
        linked_words: 0,
        density_words: 0,
        density_lines: 0,
    };

    pub(crate) fn of(block: &TextBlock) -> Counts {
        Counts {
            words: block.words,
            linked_words: block.linked_words,
            density_words: block.words_in_wrapped_lines,
            density_lines: block.density_lines(),
        }
    }

    pub(crate) fn text_density(&self) -> f32 {
        ratio(self.density_words, self.density_lines)
    }

    pub(crate) fn link_density(&self) -> f32 {
        ratio(self.linked_words, self.words)
    }

    /// Fuses `other` into `self`, as Boilerpipe's `TextBlock.mergeNext`: lines stay as they
    /// were wrapped, so numerators and denominators add up.
    pub(crate) fn absorb(&mut self, other: &Counts) {
        self.words += other.words;
        self.linked_words += other.linked_words;
        self.density_words += other.density_words;
        self.density_lines += other.density_lines;
    }
}

/// A decision over the previous, current and next block.
pub(crate) type Rule = fn(&Counts, &Counts, &Counts) -> bool;

/// Algorithm 1, the densitometric classifier (Boilerpipe's `DensityRulesClassifier`): C4.8 on
/// text and link density of the previous, current and next block. `true` is content.
pub(crate) fn densitometric(prev: &Counts, cur: &Counts, next: &Counts) -> bool {
    if cur.link_density() > 0.333_333 {
        return false;
    }
    if prev.link_density() <= 0.555_556 {
        if cur.text_density() <= 9.0 {
            if next.text_density() <= 10.0 {
                prev.text_density() > 4.0
            } else {
                true
            }
        } else {
            next.text_density() != 0.0
        }
    } else {
        next.text_density() > 11.0
    }
}

/// Algorithm 2, the classifier based on the number of words (Boilerpipe's
/// `NumWordsRulesClassifier`). `true` is content.
pub(crate) fn num_words(prev: &Counts, cur: &Counts, next: &Counts) -> bool {
    if cur.link_density() > 0.333_333 {
        return false;
    }
    if prev.link_density() <= 0.555_556 {
        if cur.words <= 16 {
            if next.words <= 15 {
                prev.words > 4
            } else {
                true
            }
        } else {
            true
        }
    } else if cur.words <= 40 {
        next.words > 17
    } else {
        true
    }
}

/// Applies `rule` to every item with its neighbours; the first and last see [`Counts::EMPTY`].
pub(crate) fn apply(items: &[Counts], rule: Rule) -> Vec<bool> {
    (0..items.len())
        .map(|i| {
            let prev = i.checked_sub(1).map_or(&Counts::EMPTY, |p| &items[p]);
            let next = items.get(i + 1).unwrap_or(&Counts::EMPTY);
            rule(prev, &items[i], next)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block of `words` words on one line (density = words), `linked` of them linked.
    fn line(words: u32, linked: u32) -> Counts {
        Counts {
            words,
            linked_words: linked,
            density_words: words,
            density_lines: 1,
        }
    }

    /// A wrapped block whose text density is `density`.
    fn dense(density: u32) -> Counts {
        Counts {
            words: density * 3 + 2,
            linked_words: 0,
            density_words: density * 3,
            density_lines: 3,
        }
    }

    const E: Counts = Counts::EMPTY;

    #[test]
    fn densitometric_every_leaf() {
        // Linked current block: boilerplate whatever surrounds it.
        assert!(!densitometric(&dense(12), &line(3, 2), &dense(12)));
        // prev ld <= 0.56, cur td <= 9, next td <= 10: prev td decides (4 / above 4).
        assert!(!densitometric(&line(4, 0), &line(5, 0), &line(10, 0)));
        assert!(densitometric(&line(5, 0), &line(5, 0), &line(10, 0)));
        // ... next td > 10: content.
        assert!(densitometric(&E, &line(5, 0), &dense(11)));
        // cur td > 9: content unless next td = 0.
        assert!(densitometric(&E, &dense(10), &line(1, 0)));
        assert!(!densitometric(&E, &dense(10), &E));
        // prev ld > 0.56: next td > 11 decides.
        assert!(!densitometric(&line(9, 6), &dense(20), &dense(11)));
        assert!(densitometric(&line(9, 6), &line(2, 0), &dense(12)));
    }

    #[test]
    fn num_words_every_leaf() {
        assert!(!num_words(&line(50, 0), &line(30, 11), &line(50, 0)));
        assert!(!num_words(&line(4, 0), &line(16, 0), &line(15, 0)));
        assert!(num_words(&line(5, 0), &line(16, 0), &line(15, 0)));
        assert!(num_words(&E, &line(3, 0), &line(16, 0)));
        assert!(num_words(&E, &line(17, 0), &E));
        // prev ld > 0.56: up to 40 words, next > 17 words decides; above 40 content.
        assert!(!num_words(&line(9, 6), &line(40, 0), &line(17, 0)));
        assert!(num_words(&line(9, 6), &line(40, 0), &line(18, 0)));
        assert!(num_words(&line(9, 6), &line(41, 0), &E));
    }

    #[test]
    fn apply_uses_empty_neighbours_at_the_ends() {
        // A lone dense block: next td = 0, so boilerplate by Algorithm 1, content by 2.
        assert_eq!(apply(&[dense(12)], densitometric), [false]);
        assert_eq!(apply(&[line(20, 0)], num_words), [true]);
        let page = [line(2, 2), line(30, 0), dense(12), line(3, 0)];
        assert_eq!(apply(&page, num_words), [false, true, true, true]);
    }

    #[test]
    fn absorb_adds_lines_not_densities() {
        let mut a = dense(12);
        a.absorb(&line(2, 2));
        assert_eq!(a.words, 40);
        assert_eq!(a.linked_words, 2);
        assert!((a.text_density() - 38.0 / 4.0).abs() < 1e-6);
        assert!((a.link_density() - 0.05).abs() < 1e-6);
    }
}

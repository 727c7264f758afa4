//! Block Fusion (dissertation §4.2.2, Algorithm 4.1): adjacent blocks of similar text density
//! are fused into segments until no neighbours are similar enough.

use std::ops::Range;

use crate::block::TextBlock;
use crate::rules::Counts;
use crate::tags::Gap;

/// The three Block Fusion strategies of the dissertation (§4.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FusionVariant {
    /// BF-PLAIN: fuse neighbours whose slope delta Δϱ (Eq. 4.7) is at most the threshold.
    Plain,
    /// BF-SMOOTHED: BF-PLAIN, and a block between two blocks of equal, higher density is fused
    /// with both.
    Smoothed,
    /// BF-RULEBASED: BF-SMOOTHED with Δϱ' (Eq. 4.8): never fuse across a gap-enforcing tag,
    /// always fuse across gap-avoiding tags only.
    RuleBased,
}

/// A run of adjacent blocks fused into one, with the counts of all of them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Segment {
    pub(crate) blocks: Range<usize>,
    pub(crate) counts: Counts,
    /// Gap before the first block.
    gap_before: Gap,
}

impl Segment {
    fn of(index: usize, block: &TextBlock) -> Segment {
        Segment {
            blocks: index..index + 1,
            counts: Counts::of(block),
            gap_before: block.gap_before,
        }
    }

    fn absorb(&mut self, next: &Segment) {
        self.blocks.end = next.blocks.end;
        self.counts.absorb(&next.counts);
    }
}

/// Slope delta Δϱ(x, y) = |ϱ(x) − ϱ(y)| / max(ϱ(x), ϱ(y)) (Eq. 4.7); 0 for two empty
/// densities.
pub(crate) fn slope_delta(x: &Counts, y: &Counts) -> f32 {
    let (a, b) = (x.text_density(), y.text_density());
    let max = a.max(b);
    if max <= 0.0 { 0.0 } else { (a - b).abs() / max }
}

/// Every block as a segment of its own.
pub(crate) fn atomic(blocks: &[TextBlock]) -> Vec<Segment> {
    blocks
        .iter()
        .enumerate()
        .map(|(i, b)| Segment::of(i, b))
        .collect()
}

/// Boilerpipe's `SimpleBlockFusionProcessor`: one pass that fuses each block into the segment
/// before it when their text densities are equal (Block Fusion with threshold 0, one
/// iteration).
pub(crate) fn fuse_equal(blocks: &[TextBlock]) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::with_capacity(blocks.len());
    for (i, block) in blocks.iter().enumerate() {
        let seg = Segment::of(i, block);
        match out.last_mut() {
            Some(prev) if prev.counts.text_density() == seg.counts.text_density() => {
                prev.absorb(&seg);
            }
            _ => out.push(seg),
        }
    }
    out
}

/// Algorithm 4.1: repeated passes over the segments until one pass fuses nothing.
///
/// Each pass compares every segment with the (possibly just fused) one before it. Passes
/// only shrink the list, so the loop ends after at most as many passes as there are blocks.
pub(crate) fn fuse(blocks: &[TextBlock], variant: FusionVariant, threshold: f32) -> Vec<Segment> {
    let mut segs = atomic(blocks);
    loop {
        let before = segs.len();
        segs = fusion_pass(segs, variant, threshold);
        if segs.len() == before {
            return segs;
        }
    }
}

fn fusion_pass(segs: Vec<Segment>, variant: FusionVariant, threshold: f32) -> Vec<Segment> {
    let rules = variant == FusionVariant::RuleBased;
    let mut out: Vec<Segment> = Vec::with_capacity(segs.len());
    let mut iter = segs.into_iter().peekable();
    while let Some(cur) = iter.next() {
        let Some(prev) = out.last_mut() else {
            out.push(cur);
            continue;
        };
        if variant != FusionVariant::Plain
            && let Some(next) = iter.peek()
            && smooths(prev, &cur, next, rules)
        {
            prev.absorb(&cur);
            prev.absorb(next);
            iter.next();
            continue;
        }
        if fuses(prev, &cur, rules, threshold) {
            prev.absorb(&cur);
        } else {
            out.push(cur);
        }
    }
    out
}

/// The smoothing condition of BF-SMOOTHED: the neighbours have equal densities, higher than
/// the block between them. The rule-based variant does not smooth across a forced gap.
fn smooths(prev: &Segment, cur: &Segment, next: &Segment, rules: bool) -> bool {
    let p = prev.counts.text_density();
    p == next.counts.text_density()
        && cur.counts.text_density() < p
        && !(rules && (cur.gap_before.forced || next.gap_before.forced))
}

/// Whether Δϱ (or Δϱ' of Eq. 4.8 for the rule-based variant) is at most the threshold. A
/// forced gap (Δϱ' = +∞) never fuses, even at an infinite threshold (JUSTRULES).
fn fuses(prev: &Segment, cur: &Segment, rules: bool, threshold: f32) -> bool {
    if rules && cur.gap_before.forced {
        false
    } else if rules && cur.gap_before.avoided {
        true
    } else {
        slope_delta(&prev.counts, &cur.counts) <= threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::BlockOffset;
    use dbce_dom::NodeId;

    /// A crafted block with text density `num / den` and the given gap before it.
    fn block(num: u32, den: u32, gap: Gap) -> TextBlock {
        TextBlock {
            offset: BlockOffset::new(0),
            text: String::new(),
            words: num + 1,
            linked_words: 0,
            wrapped_lines: den + 1,
            words_in_wrapped_lines: num,
            text_density: crate::block::ratio(num, den),
            link_density: 0.0,
            tag_depth: 3,
            heading: false,
            element: NodeId::ROOT,
            tag_count: 0,
            gap_before: gap,
            nodes: Vec::new(),
        }
    }

    fn d(num: u32) -> TextBlock {
        block(
            num,
            1,
            Gap {
                forced: false,
                avoided: false,
            },
        )
    }

    fn ranges(segs: &[Segment]) -> Vec<Range<usize>> {
        segs.iter().map(|s| s.blocks.clone()).collect()
    }

    #[test]
    fn slope_delta_is_relative() {
        assert_eq!(slope_delta(&Counts::of(&d(10)), &Counts::of(&d(6))), 0.4);
        assert_eq!(slope_delta(&Counts::of(&d(0)), &Counts::of(&d(0))), 0.0);
        assert_eq!(slope_delta(&Counts::of(&d(0)), &Counts::of(&d(3))), 1.0);
    }

    #[test]
    fn plain_fuses_similar_neighbours() {
        // 10 and 12 fuse (Δ = 0.17) into 22/2 = 11, which takes 13 (Δ = 0.15); 2, 1 and 3
        // differ by 0.5 or more.
        let blocks = [d(10), d(12), d(13), d(2), d(1), d(3)];
        let segs = fuse(&blocks, FusionVariant::Plain, 0.38);
        assert_eq!(ranges(&segs), [0..3, 3..4, 4..5, 5..6]);
        // At 0.5, 2 and 1 fuse into 1.5, which takes 3 (Δ = 0.5).
        let segs = fuse(&blocks, FusionVariant::Plain, 0.5);
        assert_eq!(ranges(&segs), [0..3, 3..6]);
        assert!((segs[1].counts.text_density() - 2.0).abs() < 1e-6);
    }

    #[test]
    fn plain_repeats_passes_until_stable() {
        // Pass 1: 5 and 9 differ by 0.44; 9 and 6 fuse into 7.5. Pass 2: 5 and 7.5 differ by
        // 0.33 and fuse.
        let blocks = [d(5), d(9), d(6)];
        assert_eq!(
            fusion_pass(atomic(&blocks), FusionVariant::Plain, 0.4).len(),
            2
        );
        assert_eq!(
            fuse(&blocks, FusionVariant::Plain, 0.4)[..],
            [Segment {
                blocks: 0..3,
                counts: Counts {
                    words: 23,
                    linked_words: 0,
                    density_words: 20,
                    density_lines: 3
                },
                gap_before: blocks[0].gap_before,
            }]
        );
    }

    #[test]
    fn smoothed_fuses_a_dip_between_equal_neighbours() {
        // A peak (1, 5, 1) is no dip: neither variant fuses it.
        let peak = [d(1), d(5), d(1), d(9)];
        for variant in [FusionVariant::Plain, FusionVariant::Smoothed] {
            assert_eq!(
                ranges(&fuse(&peak, variant, 0.38)),
                [0..1, 1..2, 2..3, 3..4]
            );
        }
        // A dip (5, 1, 5) is fused with both neighbours by BF-SMOOTHED only.
        let dip = [d(5), d(1), d(5), d(20)];
        assert_eq!(
            ranges(&fuse(&dip, FusionVariant::Smoothed, 0.38)),
            [0..3, 3..4]
        );
        assert_eq!(
            ranges(&fuse(&dip, FusionVariant::Plain, 0.38)),
            [0..1, 1..2, 2..3, 3..4]
        );
    }

    #[test]
    fn rule_based_follows_forced_and_avoided_gaps() {
        let forced = Gap {
            forced: true,
            avoided: false,
        };
        let avoided = Gap {
            forced: false,
            avoided: true,
        };
        let blocks = [d(10), block(10, 1, forced), block(2, 1, avoided), d(3)];
        let segs = fuse(&blocks, FusionVariant::RuleBased, 0.6);
        // Equal densities but a forced gap: apart; 10 and 2 across a <br>: fused; the fused
        // 12/2 = 6 and 3: Δ = 0.5 <= 0.6, fused.
        assert_eq!(ranges(&segs), [0..1, 1..4]);
        let just_rules = fuse(&blocks, FusionVariant::RuleBased, f32::INFINITY);
        assert_eq!(ranges(&just_rules), [0..1, 1..4]);
        let plain = fuse(&blocks, FusionVariant::Plain, 0.6);
        assert_eq!(ranges(&plain), [0..2, 2..4]);
    }

    #[test]
    fn equal_density_fusion_is_one_pass() {
        let blocks = [d(3), d(3), d(4), block(8, 2, Gap::EMPTY), d(1)];
        assert_eq!(ranges(&fuse_equal(&blocks)), [0..2, 2..4, 4..5]);
    }
}

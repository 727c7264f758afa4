//! Every forest built into dbce (the block model, the page-type model, the run model and the
//! judge) gives the same probabilities, bit for bit, as when these digests were taken (with the
//! tree-walking forest, before `dbce_forest` compiled its trees to flat arrays): a change to
//! how a forest predicts cannot change a single output.
//!
//! Rows are drawn from a fixed generator mixing the shapes features take (zeros, ones, counts,
//! fractions, large magnitudes, negatives and the odd NaN), enough to reach most leaves; the
//! digest is FNV-1a over the bits of every probability in order. A retrained model takes a
//! new digest, taken with the flat forest (parity with the tree walk is `dbce-forest`'s
//! proptest): the page-type model's of 2026-11-25, retrained by `scripts/train-page-type` when
//! the committed one no longer reproduced (docs/page-types.md); the block model's of
//! 2026-11-29, boosted trees over rows that carry the page's type (docs/single-page.md), and
//! the judge retrained on that model's verdicts the same day (docs/RESULTS.md); all three
//! retrained again the same day on the DOMs without cookie-consent dialogs (docs/dom.md); all
//! three again on 2026-12-02, on the DOMs that read a scripted shell's `<noscript>`, the block
//! model's rounds chosen over six draws, and the judge reading the share of the page the
//! single-page classifier keeps although the partners share it (docs/RESULTS.md).
#![allow(clippy::unwrap_used)]

use dbce_classify::page_type::PAGE_TYPE_FEATURE_NAMES;
use dbce_classify::{BlockModel, PageTypeModel};
use dbce_learn::judge::{EVIDENCE_NAMES, Judge, PageEvidence};

/// Rows drawn per model.
const ROWS: usize = 4000;

/// A fixed stream of feature values (splitmix64).
struct Values(u64);

impl Values {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1_u64 << 24) as f32
    }

    fn value(&mut self) -> f32 {
        match self.next_u64() % 16 {
            0..=2 => 0.0,
            3 => 1.0,
            4..=7 => self.unit(),
            8..=10 => (self.next_u64() % 40) as f32,
            11..=12 => 10_f32.powf(5.0 * self.unit()),
            13 => -self.unit(),
            14 => (self.next_u64() % 4) as f32 * 0.25,
            _ if self.next_u64().is_multiple_of(8) => f32::NAN,
            _ => self.unit() * 3.0,
        }
    }

    fn rows(&mut self, width: usize) -> Vec<f32> {
        (0..ROWS * width).map(|_| self.value()).collect()
    }
}

/// FNV-1a over the bits of `probabilities`, with how many distinct values they take.
fn digest(probabilities: impl IntoIterator<Item = f32>) -> (u64, usize) {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut distinct = std::collections::BTreeSet::new();
    for p in probabilities {
        distinct.insert(p.to_bits());
        for byte in p.to_bits().to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    (hash, distinct.len())
}

fn checked(name: &str, (hash, distinct): (u64, usize), expected: u64) {
    // Enough different probabilities that the rows reach many leaves.
    assert!(
        distinct > 100,
        "{name}: only {distinct} distinct probabilities"
    );
    assert_eq!(hash, expected, "{name}: digest {hash:#018x}");
}

#[test]
fn the_block_model_predicts_as_before() {
    let model = BlockModel::built_in().unwrap();
    let width = model.classifier().n_features();
    let rows = Values(1).rows(width);
    checked(
        "block model",
        digest(model.probabilities(&rows)),
        0x6282_974f_ad25_d755,
    );
}

#[test]
fn the_page_type_model_predicts_as_before() {
    let model = PageTypeModel::built_in();
    let width = PAGE_TYPE_FEATURE_NAMES.len();
    let rows = Values(2).rows(width);
    let probabilities = rows
        .chunks_exact(width)
        .flat_map(|r| model.probabilities(r));
    checked(
        "page-type model",
        digest(probabilities),
        0x3610_c7d2_a255_66dc,
    );
}

#[test]
fn the_run_model_predicts_as_before() {
    let forest = dbce_learn::model::load(None).unwrap();
    let width = forest.n_features();
    let rows = Values(3).rows(width);
    let expected = 0x8fd9_03ea_4efa_eb41;
    let one_by_one = rows.chunks_exact(width).map(|r| forest.predict_proba(r));
    checked("run model", digest(one_by_one), expected);
    let batch = digest(forest.predict_proba_batch(&rows));
    checked("run model, batch", batch, expected);
}

#[test]
fn the_judge_predicts_as_before() {
    let judge = Judge::load(None).unwrap();
    let width = EVIDENCE_NAMES.len();
    let rows = Values(4).rows(width);
    let scores = rows.chunks_exact(width).flat_map(|r| {
        let evidence = PageEvidence(r.try_into().unwrap());
        judge.scores(&evidence)
    });
    checked("judge", digest(scores), 0x42af_eacd_94e0_944d);
}

/// Deciding at a threshold (`reaches`, which stops at the tree that settles it) answers as
/// comparing the full probability does, on every built-in model a decision is asked of: the
/// block model (boosted trees) at the route's thresholds and at probabilities it gives, the run
/// model at 0.5.
#[test]
fn decisions_at_a_threshold_are_the_probabilitys() {
    let block = BlockModel::built_in().unwrap().classifier();
    let width = block.n_features();
    let rows = Values(5).rows(width);
    let mut early = 0;
    for row in rows.chunks_exact(width) {
        let p = block.predict_proba(row);
        // The probability itself and its neighbouring f32s: the cut's slack must hold there.
        let around = [
            p,
            f32::from_bits(p.to_bits() + 1),
            f32::from_bits(p.to_bits() - 1),
        ];
        for t in [0.3, 0.5, 0.55, 0.7].into_iter().chain(around) {
            assert_eq!(block.reaches(row, t), p >= t, "p {p} at {t}");
            early += usize::from((p - t).abs() > 0.3);
        }
    }
    assert!(early > ROWS / 10, "{early}");
    let runs = dbce_learn::model::load(None).unwrap();
    let width = runs.n_features();
    let rows = Values(6).rows(width);
    let mut early = 0;
    for row in rows.chunks_exact(width) {
        let p = runs.predict_proba(row);
        assert_eq!(runs.reaches(row, 0.5), p >= 0.5, "p {p}");
        assert_eq!(runs.predict(row), p >= 0.5);
        early += usize::from((p - 0.5).abs() > 0.3);
    }
    // Rows far from a threshold, which the forest can settle early, are common.
    assert!(early > ROWS / 10, "{early}");
}

//! What a stage step took in, gave out and skipped, by reason.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::SkipReason;

/// Counts of one stage step on one shard, with the invariant `input == emitted + Σ skipped`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageReport {
    /// The stage, e.g. `read`.
    pub stage: String,
    /// The shard (rank or partition) this report is for.
    pub shard: u32,
    /// Items that came in (for `read`: archive entries, records and skips alike).
    pub input: u64,
    /// Items that went out (for `read`: pages).
    pub emitted: u64,
    /// Items that did not go out, by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// Items taken in despite something irregular, by warning (for `read`: archive records
    /// read as warcio reads them, e.g. `warc:short-block`). Not part of the balance: a warned
    /// item is also counted as emitted or skipped.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub warnings: BTreeMap<String, u64>,
}

impl StageReport {
    /// An empty report of `stage` on `shard`.
    pub fn new(stage: &str, shard: u32) -> Self {
        Self {
            stage: stage.to_owned(),
            shard,
            ..Self::default()
        }
    }

    /// Counts one item that went out.
    pub fn emit(&mut self) {
        self.input += 1;
        self.emitted += 1;
    }

    /// Counts one item skipped for `reason`.
    pub fn skip(&mut self, reason: SkipReason) {
        self.input += 1;
        *self.skipped.entry(reason).or_default() += 1;
    }

    /// Counts one warning about an item that is also counted as emitted or skipped.
    pub fn warn(&mut self, warning: impl Into<String>) {
        *self.warnings.entry(warning.into()).or_default() += 1;
    }

    /// Adds the counts of another report of the same stage.
    pub fn absorb(&mut self, other: &StageReport) {
        self.input += other.input;
        self.emitted += other.emitted;
        for (reason, count) in &other.skipped {
            *self.skipped.entry(*reason).or_default() += count;
        }
        for (warning, count) in &other.warnings {
            *self.warnings.entry(warning.clone()).or_default() += count;
        }
    }

    /// Whether every item is accounted for.
    pub fn balances(&self) -> bool {
        self.input == self.emitted + self.skipped.values().sum::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_balance() {
        let mut report = StageReport::new("read", 0);
        report.emit();
        report.skip(SkipReason::NotHtml);
        report.skip(SkipReason::NotHtml);
        report.warn("warc:short-block");
        let mut total = StageReport::new("read", 0);
        total.absorb(&report);
        total.absorb(&report);
        assert_eq!(
            (
                total.input,
                total.emitted,
                total.skipped[&SkipReason::NotHtml]
            ),
            (6, 2, 4)
        );
        assert!(total.balances());
        assert_eq!(total.warnings["warc:short-block"], 2);
    }
}

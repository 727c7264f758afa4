//! Mean scores per dataset, method and split, as a Markdown table or JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::Scores;

/// Which pages a score belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Split {
    /// Pages whose site has other pages in the dataset: the case dbce's diff is made for.
    Multi,
    /// Pages alone in their site (or without URL): nothing to diff against.
    Alone,
}

impl Split {
    /// `multi` or `alone`.
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Multi => "multi",
            Split::Alone => "alone",
        }
    }
}

/// Running sums of one cell.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Sums {
    pages: u64,
    precision: f64,
    recall: f64,
    f1: f64,
}

impl Sums {
    fn add(&mut self, scores: Scores) {
        self.pages += 1;
        self.precision += scores.precision;
        self.recall += scores.recall;
        self.f1 += scores.f1;
    }

    fn plus(self, other: Sums) -> Sums {
        Sums {
            pages: self.pages + other.pages,
            precision: self.precision + other.precision,
            recall: self.recall + other.recall,
            f1: self.f1 + other.f1,
        }
    }

    #[allow(clippy::cast_precision_loss)] // page counts stay far below 2^52
    fn mean(self) -> Mean {
        let n = self.pages as f64;
        let mean = |sum: f64| (self.pages > 0).then(|| sum / n);
        Mean {
            pages: self.pages,
            precision: mean(self.precision),
            recall: mean(self.recall),
            f1: mean(self.f1),
        }
    }
}

/// Mean scores over a set of pages; `None` when the set is empty.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Mean {
    /// Number of pages.
    pub pages: u64,
    /// Mean precision.
    pub precision: Option<f64>,
    /// Mean recall.
    pub recall: Option<f64>,
    /// Mean F1 (of the pages' F1, not F1 of the means).
    pub f1: Option<f64>,
}

/// The means of one dataset and method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Dataset name.
    pub dataset: String,
    /// Extraction method.
    pub method: String,
    /// Pages whose site has other pages in the dataset.
    pub multi: Mean,
    /// Pages alone in their site.
    pub alone: Mean,
    /// All pages.
    pub all: Mean,
}

/// Per-page [`Scores`] accumulated per (dataset, method, [`Split`]); output is ordered by
/// dataset, then method.
#[derive(Debug, Clone, Default)]
pub struct MethodScores {
    cells: BTreeMap<(String, String), [Sums; 2]>,
}

impl MethodScores {
    /// No scores yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one page's scores.
    pub fn add(&mut self, dataset: &str, method: &str, split: Split, scores: Scores) {
        let cell = self
            .cells
            .entry((dataset.to_owned(), method.to_owned()))
            .or_default();
        cell[split as usize].add(scores);
    }

    /// The means of every (dataset, method), ordered by dataset, then method.
    pub fn summary(&self) -> Vec<SummaryRow> {
        self.cells
            .iter()
            .map(|((dataset, method), [multi, alone])| SummaryRow {
                dataset: dataset.clone(),
                method: method.clone(),
                multi: multi.mean(),
                alone: alone.mean(),
                all: multi.plus(*alone).mean(),
            })
            .collect()
    }

    /// A Markdown table: one line per dataset, method and split (`multi`, `alone`, `all`),
    /// with the page count and mean precision, recall and F1 to three decimals (`–` for no
    /// pages).
    pub fn markdown_table(&self) -> String {
        let mut out = String::from(
            "| dataset | method | split | pages | precision | recall | F1 |\n\
             | --- | --- | --- | ---: | ---: | ---: | ---: |\n",
        );
        let fmt = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{v:.3}"));
        for row in self.summary() {
            for (split, mean) in [("multi", row.multi), ("alone", row.alone), ("all", row.all)] {
                let _ = writeln!(
                    out,
                    "| {} | {} | {split} | {} | {} | {} | {} |",
                    row.dataset,
                    row.method,
                    mean.pages,
                    fmt(mean.precision),
                    fmt(mean.recall),
                    fmt(mean.f1),
                );
            }
        }
        out
    }

    /// The summary as a JSON array of objects
    /// `{dataset, method, multi, alone, all}`, each split `{pages, precision, recall, f1}`
    /// (`null` means for no pages).
    pub fn to_json(&self) -> serde_json::Value {
        let mean = |m: Mean| json!({ "pages": m.pages, "precision": m.precision, "recall": m.recall, "f1": m.f1 });
        self.summary()
            .into_iter()
            .map(|row| {
                json!({
                    "dataset": row.dataset,
                    "method": row.method,
                    "multi": mean(row.multi),
                    "alone": mean(row.alone),
                    "all": mean(row.all),
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sc(p: f64, r: f64, f1: f64) -> Scores {
        Scores {
            precision: p,
            recall: r,
            f1,
        }
    }

    fn example() -> MethodScores {
        let mut scores = MethodScores::new();
        scores.add("zeta", "dbce", Split::Alone, sc(1.0, 0.5, 0.6));
        scores.add("alpha", "keep-all", Split::Multi, sc(0.5, 1.0, 0.6));
        scores.add("alpha", "dbce", Split::Multi, sc(1.0, 1.0, 1.0));
        scores.add("alpha", "dbce", Split::Multi, sc(0.5, 0.25, 0.5));
        scores.add("alpha", "dbce", Split::Alone, sc(0.0, 1.0, 0.0));
        scores
    }

    #[test]
    fn means_per_split_and_overall() {
        let rows = example().summary();
        let keys: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r.dataset.as_str(), r.method.as_str()))
            .collect();
        assert_eq!(
            keys,
            [("alpha", "dbce"), ("alpha", "keep-all"), ("zeta", "dbce")]
        );
        let dbce = &rows[0];
        assert_eq!(
            dbce.multi,
            Mean {
                pages: 2,
                precision: Some(0.75),
                recall: Some(0.625),
                f1: Some(0.75)
            }
        );
        assert_eq!(dbce.alone.pages, 1);
        assert_eq!(dbce.all.pages, 3);
        assert_eq!(dbce.all.precision, Some(0.5));
        assert_eq!(dbce.all.f1, Some(0.5));
        assert_eq!(rows[1].alone.f1, None);
    }

    #[test]
    fn markdown_lists_every_split_in_order() {
        let table = example().markdown_table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 2 + 9);
        assert_eq!(
            lines[2],
            "| alpha | dbce | multi | 2 | 0.750 | 0.625 | 0.750 |"
        );
        assert_eq!(
            lines[4],
            "| alpha | dbce | all | 3 | 0.500 | 0.750 | 0.500 |"
        );
        assert_eq!(lines[6], "| alpha | keep-all | alone | 0 | – | – | – |");
        assert_eq!(
            lines[10],
            "| zeta | dbce | all | 1 | 1.000 | 0.500 | 0.600 |"
        );
    }

    #[test]
    fn json_matches_the_summary() {
        let value = example().to_json();
        let rows: Vec<SummaryRow> = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(rows, example().summary());
        assert_eq!(value[1]["alone"]["f1"], serde_json::Value::Null);
        assert_eq!(value[0]["multi"]["pages"], 2);
    }
}

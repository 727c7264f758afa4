//! Mean scores per dataset, extractor and split or page type, with pages emptied and a
//! per-page oracle row, as a Markdown table or JSON.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::PageScore;

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

/// The method name of the oracle rows.
pub const ORACLE: &str = "oracle";

/// What a summary row stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowKind {
    /// A dbce method run on the pages.
    Method,
    /// Per page, the dbce method with the best F1 ([`ORACLE`]): the headroom of choosing the
    /// method page by page.
    Oracle,
    /// Another extractor's output on the same pages.
    Peer,
}

/// Running sums of one cell.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Sums {
    pages: u64,
    precision: f64,
    recall: f64,
    f1: f64,
    emptied: u64,
    filled_elsewhere: u64,
}

impl Sums {
    fn add(&mut self, page: &PageScore, filled_elsewhere: bool) {
        self.pages += 1;
        self.precision += page.scores.precision;
        self.recall += page.scores.recall;
        self.f1 += page.scores.f1;
        if page.emptied() {
            self.emptied += 1;
            self.filled_elsewhere += u64::from(filled_elsewhere);
        }
    }

    fn plus(self, other: Sums) -> Sums {
        Sums {
            pages: self.pages + other.pages,
            precision: self.precision + other.precision,
            recall: self.recall + other.recall,
            f1: self.f1 + other.f1,
            emptied: self.emptied + other.emptied,
            filled_elsewhere: self.filled_elsewhere + other.filled_elsewhere,
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
            emptied: self.emptied,
            filled_elsewhere: self.filled_elsewhere,
        }
    }
}

/// Mean scores over a set of pages (`None` when the set is empty), and the pages emptied.
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
    /// Pages whose truth has words but whose extracted text has none.
    pub emptied: u64,
    /// Of the emptied pages, those where another extractor of the table (another method or a
    /// peer; for the oracle, a peer) found the content ([`PageScore::found_content`]: F1 at
    /// least [`crate::FOUND_CONTENT_MIN_F1`]).
    pub filled_elsewhere: u64,
}

/// The means of one dataset and extractor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Dataset name.
    pub dataset: String,
    /// Extraction method, peer name, or [`ORACLE`].
    pub method: String,
    /// What the row stands for.
    pub kind: RowKind,
    /// Pages whose site has other pages in the dataset.
    pub multi: Mean,
    /// Pages alone in their site.
    pub alone: Mean,
    /// All pages.
    pub all: Mean,
    /// Pages per type, where the dataset labels types (empty otherwise), by type name.
    pub page_types: BTreeMap<String, Mean>,
}

/// The sums of one row: per split, and per page type.
#[derive(Debug, Clone, Default)]
struct RowSums {
    splits: [Sums; 2],
    page_types: BTreeMap<String, Sums>,
}

impl RowSums {
    fn add(&mut self, page: &PageScore, filled_elsewhere: bool) {
        self.splits[page.split as usize].add(page, filled_elsewhere);
        if let Some(page_type) = &page.page_type {
            self.page_types
                .entry(page_type.clone())
                .or_default()
                .add(page, filled_elsewhere);
        }
    }
}

/// Per-page [`PageScore`]s of dbce methods and peers, summarised per dataset and extractor:
/// means per [`Split`] and page type, pages emptied, and an oracle row per dataset run with
/// two methods or more.
#[derive(Debug, Clone, Default)]
pub struct MethodScores {
    pages: Vec<PageScore>,
}

impl MethodScores {
    /// No scores yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one page's scores for one extractor.
    pub fn add(&mut self, page: PageScore) {
        self.pages.push(page);
    }

    /// Every page score, in the order added.
    pub fn pages(&self) -> &[PageScore] {
        &self.pages
    }

    /// The rows, ordered by dataset, then kind (methods, oracle, peers), then name.
    pub fn summary(&self) -> Vec<SummaryRow> {
        self.row_sums()
            .into_iter()
            .map(|((dataset, kind, method), sums)| {
                let [multi, alone] = sums.splits;
                SummaryRow {
                    dataset: dataset.to_owned(),
                    method: method.to_owned(),
                    kind,
                    multi: multi.mean(),
                    alone: alone.mean(),
                    all: multi.plus(alone).mean(),
                    page_types: sums
                        .page_types
                        .into_iter()
                        .map(|(name, sums)| (name, sums.mean()))
                        .collect(),
                }
            })
            .collect()
    }

    /// The sums of every row; the oracle's only for datasets run with two methods or more.
    fn row_sums(&self) -> BTreeMap<(&str, RowKind, &str), RowSums> {
        let methods: BTreeSet<(&str, &str)> = self
            .pages
            .iter()
            .filter(|p| !p.peer)
            .map(|p| (p.dataset.as_str(), p.method.as_str()))
            .collect();
        let mut methods_per_dataset: BTreeMap<&str, usize> = BTreeMap::new();
        for (dataset, _) in methods {
            *methods_per_dataset.entry(dataset).or_default() += 1;
        }
        let mut rows: BTreeMap<(&str, RowKind, &str), RowSums> = BTreeMap::new();
        for extractors in self.by_page().values() {
            for page in extractors {
                let elsewhere = extractors
                    .iter()
                    .any(|other| other.method != page.method && other.found_content());
                let kind = if page.peer {
                    RowKind::Peer
                } else {
                    RowKind::Method
                };
                rows.entry((&page.dataset, kind, &page.method))
                    .or_default()
                    .add(page, elsewhere);
            }
            let best = best_method(extractors)
                .filter(|best| methods_per_dataset.get(best.dataset.as_str()) >= Some(&2));
            if let Some(best) = best {
                let elsewhere = extractors.iter().any(|p| p.peer && p.found_content());
                rows.entry((&best.dataset, RowKind::Oracle, ORACLE))
                    .or_default()
                    .add(best, elsewhere);
            }
        }
        rows
    }

    /// Each page's scores, one per extractor, by (dataset, page id).
    fn by_page(&self) -> BTreeMap<(&str, &str), Vec<&PageScore>> {
        let mut pages: BTreeMap<(&str, &str), Vec<&PageScore>> = BTreeMap::new();
        for page in &self.pages {
            pages
                .entry((&page.dataset, &page.page_id))
                .or_default()
                .push(page);
        }
        pages
    }

    /// A Markdown table: per dataset and extractor a line for `multi`, `alone`, `all` and
    /// then each page type, with the page count, mean precision, recall and F1 to three
    /// decimals (`–` for no pages), the pages emptied and how many of those another extractor
    /// filled.
    pub fn markdown_table(&self) -> String {
        let mut out = String::from(
            "| dataset | method | split | pages | precision | recall | F1 | emptied | filled elsewhere |\n\
             | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        );
        let fmt = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{v:.3}"));
        for row in self.summary() {
            let splits = [("multi", row.multi), ("alone", row.alone), ("all", row.all)];
            let types = row
                .page_types
                .iter()
                .map(|(name, mean)| (name.as_str(), *mean));
            for (split, mean) in splits.into_iter().chain(types) {
                let _ = writeln!(
                    out,
                    "| {} | {} | {split} | {} | {} | {} | {} | {} | {} |",
                    row.dataset,
                    row.method,
                    mean.pages,
                    fmt(mean.precision),
                    fmt(mean.recall),
                    fmt(mean.f1),
                    mean.emptied,
                    mean.filled_elsewhere,
                );
            }
        }
        out
    }

    /// The summary as a JSON array of [`SummaryRow`] objects
    /// `{dataset, method, kind, multi, alone, all, page_types}`, each mean
    /// `{pages, precision, recall, f1, emptied, filled_elsewhere}` (`null` means for no
    /// pages), `page_types` an object by type name.
    ///
    /// # Errors
    /// Fails when the summary does not serialise as JSON.
    pub fn to_json(&self) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::to_value(self.summary())
    }
}

/// The dbce method with the best F1 on a page (ties to the first name), if any ran.
fn best_method<'a>(extractors: &[&'a PageScore]) -> Option<&'a PageScore> {
    extractors
        .iter()
        .copied()
        .filter(|p| !p.peer)
        .max_by(|a, b| {
            a.scores
                .f1
                .total_cmp(&b.scores.f1)
                .then_with(|| b.method.cmp(&a.method))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RunNotes, Scores};

    /// A page score; `f1 < 0` stands for an empty extraction.
    fn page(dataset: &str, id: &str, method: &str, split: Split, f1: f64) -> PageScore {
        let empty = f1 < 0.0;
        let f1 = f1.max(0.0);
        PageScore {
            dataset: dataset.into(),
            page_id: id.into(),
            record_id: format!("<urn:{id}>"),
            split,
            page_type: None,
            method: method.into(),
            peer: false,
            scores: Scores {
                precision: if empty { 0.0 } else { 1.0 },
                recall: f1,
                f1,
            },
            empty,
            truth_empty: false,
            words: u64::from(!empty),
            run: RunNotes::default(),
        }
    }

    fn typed(mut page: PageScore, page_type: &str) -> PageScore {
        page.page_type = Some(page_type.into());
        page
    }

    fn peer(mut page: PageScore) -> PageScore {
        page.peer = true;
        page
    }

    fn table(pages: Vec<PageScore>) -> MethodScores {
        let mut scores = MethodScores::new();
        for page in pages {
            scores.add(page);
        }
        scores
    }

    fn example() -> MethodScores {
        use Split::{Alone, Multi};
        table(vec![
            page("zeta", "z", "dbce", Alone, 0.6),
            page("alpha", "a", "keep-all", Multi, 0.6),
            page("alpha", "a", "dbce", Multi, 1.0),
            page("alpha", "b", "dbce", Multi, 0.5),
            page("alpha", "b", "keep-all", Multi, 0.75),
            page("alpha", "c", "dbce", Alone, -1.0),
            page("alpha", "c", "keep-all", Alone, 0.0),
        ])
    }

    fn row<'a>(rows: &'a [SummaryRow], dataset: &str, method: &str) -> &'a SummaryRow {
        rows.iter()
            .find(|r| r.dataset == dataset && r.method == method)
            .unwrap()
    }

    #[test]
    fn means_per_split_and_overall() {
        let rows = example().summary();
        let keys: Vec<(&str, &str, RowKind)> = rows
            .iter()
            .map(|r| (r.dataset.as_str(), r.method.as_str(), r.kind))
            .collect();
        assert_eq!(
            keys,
            [
                ("alpha", "dbce", RowKind::Method),
                ("alpha", "keep-all", RowKind::Method),
                ("alpha", ORACLE, RowKind::Oracle),
                ("zeta", "dbce", RowKind::Method)
            ]
        );
        let dbce = &rows[0];
        assert_eq!(
            dbce.multi,
            Mean {
                pages: 2,
                precision: Some(1.0),
                recall: Some(0.75),
                f1: Some(0.75),
                emptied: 0,
                filled_elsewhere: 0,
            }
        );
        assert_eq!((dbce.alone.pages, dbce.all.pages), (1, 3));
        assert_eq!(dbce.all.f1, Some(0.5));
        assert!(dbce.page_types.is_empty());
        assert_eq!(rows[3].multi.f1, None);
    }

    #[test]
    fn the_oracle_takes_the_best_method_of_each_page() {
        let rows = example().summary();
        let oracle = row(&rows, "alpha", ORACLE);
        // a: dbce 1.0; b: keep-all 0.75; c: both 0, the tie goes to the first name (dbce).
        assert_eq!(oracle.multi.f1, Some(0.875));
        assert_eq!(oracle.all.pages, 3);
        assert_eq!((oracle.alone.f1, oracle.alone.emptied), (Some(0.0), 1));
        // One method alone has no oracle row.
        assert!(
            rows.iter()
                .all(|r| r.dataset != "zeta" || r.kind != RowKind::Oracle)
        );
    }

    #[test]
    fn peers_have_their_rows_but_no_say_in_the_oracle() {
        let mut scores = example();
        scores.add(peer(page("alpha", "a", "tool", Split::Multi, 0.1)));
        scores.add(peer(page("alpha", "b", "tool", Split::Multi, 0.99)));
        scores.add(peer(page("alpha", "c", "tool", Split::Alone, 0.6)));
        let rows = scores.summary();
        let tool = row(&rows, "alpha", "tool");
        assert_eq!((tool.kind, tool.all.pages), (RowKind::Peer, 3));
        let oracle = row(&rows, "alpha", ORACLE);
        assert_eq!(oracle.multi.f1, Some(0.875));
        // The oracle's emptied page c is one the peer filled.
        assert_eq!((oracle.all.emptied, oracle.all.filled_elsewhere), (1, 1));
    }

    #[test]
    fn emptied_pages_count_those_another_extractor_filled() {
        use Split::Alone;
        let mut scores = table(vec![
            page("s", "1", "a", Alone, -1.0),
            page("s", "1", "b", Alone, 0.5),
            page("s", "2", "a", Alone, -1.0),
            page("s", "2", "b", Alone, 0.0),
            page("s", "3", "a", Alone, -1.0),
            page("s", "3", "b", Alone, -1.0),
        ]);
        let mut nothing_to_find = page("s", "4", "a", Alone, -1.0);
        nothing_to_find.truth_empty = true;
        scores.add(nothing_to_find);
        let rows = scores.summary();
        let a = row(&rows, "s", "a");
        // Page 2's other text misses the content; page 4 has no content to lose.
        assert_eq!((a.all.emptied, a.all.filled_elsewhere), (3, 1));
        let b = row(&rows, "s", "b");
        assert_eq!((b.all.emptied, b.all.filled_elsewhere), (1, 0));
    }

    #[test]
    fn page_types_get_rows_of_their_own() {
        use Split::{Alone, Multi};
        let scores = table(vec![
            typed(page("w", "1", "m", Multi, 1.0), "forum"),
            typed(page("w", "2", "m", Alone, 0.5), "article"),
            typed(page("w", "3", "m", Alone, -1.0), "forum"),
            page("w", "4", "m", Alone, 0.25),
        ]);
        let rows = scores.summary();
        let types: Vec<(&str, u64, Option<f64>, u64)> = rows[0]
            .page_types
            .iter()
            .map(|(t, m)| (t.as_str(), m.pages, m.f1, m.emptied))
            .collect();
        assert_eq!(
            types,
            [("article", 1, Some(0.5), 0), ("forum", 2, Some(0.5), 1)]
        );
        let table = scores.markdown_table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 2 + 5);
        assert_eq!(
            lines[5],
            "| w | m | article | 1 | 1.000 | 0.500 | 0.500 | 0 | 0 |"
        );
        assert_eq!(
            lines[6],
            "| w | m | forum | 2 | 0.500 | 0.500 | 0.500 | 1 | 0 |"
        );
    }

    #[test]
    fn markdown_lists_every_split_in_order() {
        let table = example().markdown_table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 2 + 12);
        assert_eq!(
            lines[2],
            "| alpha | dbce | multi | 2 | 1.000 | 0.750 | 0.750 | 0 | 0 |"
        );
        assert_eq!(
            lines[4],
            "| alpha | dbce | all | 3 | 0.667 | 0.500 | 0.500 | 1 | 0 |"
        );
        assert_eq!(
            lines[10],
            "| alpha | oracle | all | 3 | 0.667 | 0.583 | 0.583 | 1 | 0 |"
        );
        assert_eq!(lines[11], "| zeta | dbce | multi | 0 | – | – | – | 0 | 0 |");
    }

    #[test]
    fn json_matches_the_summary() {
        let value = example().to_json().unwrap();
        let rows: Vec<SummaryRow> = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(rows, example().summary());
        assert_eq!(value[3]["multi"]["f1"], serde_json::Value::Null);
        assert_eq!(value[0]["multi"]["pages"], 2);
        assert_eq!(value[2]["kind"], "oracle");
        assert_eq!(value[0]["all"]["emptied"], 1);
        assert!(value[0]["page_types"].as_object().unwrap().is_empty());
    }
}

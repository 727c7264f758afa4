//! Cross-validation of the page-type model grouped by site, and confusion matrices.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use dbce_forest::ForestParams;

use super::features::PAGE_TYPE_FEATURE_NAMES;
use super::model::{PageTypeModel, PageTypeModelError};
use super::{PageType, PageTypeGuess};

/// Counts of (true type, predicted type) pairs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Confusion {
    /// `counts[truth][predicted]`, indexed by [`PageType::index`].
    pub counts: [[u32; PageType::ALL.len()]; PageType::ALL.len()],
}

impl Confusion {
    /// The matrix of `predicted` against `truth`, pairwise.
    pub fn of(truth: &[PageType], predicted: &[PageType]) -> Self {
        let mut confusion = Confusion::default();
        for (t, p) in truth.iter().zip(predicted) {
            confusion.counts[t.index()][p.index()] += 1;
        }
        confusion
    }

    /// How many pairs were counted.
    pub fn total(&self) -> u32 {
        self.counts.iter().flatten().sum()
    }

    /// The share of pairs whose prediction is the truth.
    pub fn accuracy(&self) -> f64 {
        let right: u32 = (0..PageType::ALL.len()).map(|i| self.counts[i][i]).sum();
        f64::from(right) / f64::from(self.total().max(1))
    }

    /// Of the pages of type `t`, the share predicted `t` (`None` without such pages).
    pub fn recall(&self, t: PageType) -> Option<f64> {
        let row: u32 = self.counts[t.index()].iter().sum();
        (row > 0).then(|| f64::from(self.counts[t.index()][t.index()]) / f64::from(row))
    }

    /// Of the pages predicted `t`, the share that are `t` (`None` if none was).
    pub fn precision(&self, t: PageType) -> Option<f64> {
        let column: u32 = self.counts.iter().map(|row| row[t.index()]).sum();
        (column > 0).then(|| f64::from(self.counts[t.index()][t.index()]) / f64::from(column))
    }

    /// The matrix as a Markdown table (rows: truth, columns: prediction), types without pages
    /// or predictions left out, then recall and precision per type.
    pub fn to_markdown(&self) -> String {
        let used: Vec<PageType> = PageType::ALL
            .into_iter()
            .filter(|t| self.recall(*t).is_some() || self.precision(*t).is_some())
            .collect();
        let mut out = String::from("| truth \\ predicted |");
        for t in &used {
            let _ = write!(out, " {t} |");
        }
        out.push_str(" recall |\n| --- |");
        out.push_str(&" ---: |".repeat(used.len() + 1));
        out.push('\n');
        let percent = |v: Option<f64>| v.map_or("–".to_owned(), |v| format!("{:.1}%", 100.0 * v));
        for &truth in &used {
            let _ = write!(out, "| {truth} |");
            for p in &used {
                let _ = write!(out, " {} |", self.counts[truth.index()][p.index()]);
            }
            let _ = writeln!(out, " {} |", percent(self.recall(truth)));
        }
        out.push_str("| precision |");
        for &p in &used {
            let _ = write!(out, " {} |", percent(self.precision(p)));
        }
        let _ = writeln!(out, " {} |", percent(Some(self.accuracy())));
        out
    }
}

/// What [`validate_page_types`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct PageTypeValidation {
    /// Each row's fold.
    pub folds: Vec<usize>,
    /// Each row's guess by the model trained without its fold.
    pub held_out: Vec<PageTypeGuess>,
    /// The held-out guesses against the labels.
    pub confusion: Confusion,
}

/// The fold of each row, `folds` folds, rows of one group always in one fold: groups go,
/// largest first (ties by name), to the fold with the fewest rows so far (ties to the lowest
/// fold), as scikit-learn's `GroupKFold` does.
pub fn grouped_folds(groups: &[String], folds: usize) -> Vec<usize> {
    let mut sizes: BTreeMap<&str, usize> = BTreeMap::new();
    for g in groups {
        *sizes.entry(g).or_default() += 1;
    }
    let mut order: Vec<(&str, usize)> = sizes.into_iter().collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut load = vec![0usize; folds.max(1)];
    let mut fold_of: BTreeMap<&str, usize> = BTreeMap::new();
    for (group, size) in order {
        let fold = (0..load.len()).min_by_key(|&f| (load[f], f)).unwrap_or(0);
        load[fold] += size;
        fold_of.insert(group, fold);
    }
    groups
        .iter()
        .map(|g| fold_of.get(g.as_str()).copied().unwrap_or(0))
        .collect()
}

/// Cross-validates [`PageTypeModel`]: rows are split into `folds` folds by `groups` (sites,
/// so no site is both trained on and tested), and each fold is predicted by a model trained
/// on the others with `params`.
///
/// # Errors
/// When a fold's model cannot be trained.
pub fn validate_page_types(
    rows: &[f32],
    labels: &[PageType],
    groups: &[String],
    folds: usize,
    params: &ForestParams,
) -> Result<PageTypeValidation, PageTypeModelError> {
    let width = PAGE_TYPE_FEATURE_NAMES.len();
    let fold_of = grouped_folds(groups, folds);
    let mut held_out = vec![PageTypeGuess::default(); labels.len()];
    for fold in 0..folds {
        let (mut train_rows, mut train_labels) = (Vec::new(), Vec::new());
        for (i, &label) in labels.iter().enumerate() {
            if fold_of[i] != fold {
                train_rows.extend_from_slice(&rows[i * width..(i + 1) * width]);
                train_labels.push(label);
            }
        }
        let model = PageTypeModel::fit(&train_rows, &train_labels, params)?;
        for (i, guess) in held_out.iter_mut().enumerate() {
            if fold_of[i] == fold {
                *guess = model.predict(&rows[i * width..(i + 1) * width]);
            }
        }
    }
    let predicted: Vec<PageType> = held_out.iter().map(|g| g.page_type).collect();
    Ok(PageTypeValidation {
        confusion: Confusion::of(labels, &predicted),
        folds: fold_of,
        held_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_never_spans_two_folds_and_folds_are_balanced() {
        let groups: Vec<String> = ["a", "a", "a", "b", "b", "c", "d", "e", "e", "f"]
            .map(str::to_owned)
            .to_vec();
        let folds = grouped_folds(&groups, 3);
        for (i, g) in groups.iter().enumerate() {
            for (j, h) in groups.iter().enumerate() {
                if g == h {
                    assert_eq!(folds[i], folds[j]);
                }
            }
        }
        let mut load = [0; 3];
        folds.iter().for_each(|&f| load[f] += 1);
        assert_eq!(load.iter().max().unwrap() - load.iter().min().unwrap(), 1);
    }

    #[test]
    fn confusion_counts_accuracy_recall_and_precision() {
        use PageType::{Article, Forum, Product};
        let c = Confusion::of(
            &[Article, Article, Forum, Product],
            &[Article, Forum, Forum, Article],
        );
        assert_eq!(c.total(), 4);
        assert!((c.accuracy() - 0.5).abs() < 1e-9);
        assert_eq!(c.recall(Article), Some(0.5));
        assert_eq!(c.precision(Forum), Some(0.5));
        assert_eq!(c.recall(PageType::Listing), None);
        assert!(c.to_markdown().contains("| forum | 0 | 1 | 0 | 100.0% |"));
    }
}

//! `dbce train-single-page --rows-out`: the blocks the forest trains on, one CSV line each,
//! so that other learners can be tried on the very rows, weights and site folds of
//! [`TrainingSet::fit`] and its cross-validation (`crates/dbce-classify/scripts/learners.py`).

use std::borrow::Cow;
use std::io::{self, Write};

use dbce_classify::block_feature_names;

use super::{Training, TrainingSet, block_copies, fold_of, page_times};

/// The columns before the features: the page's dataset, id and site group, the block's
/// place in the page, the page's site fold, the block's label (1 content, 0 boilerplate) and
/// its weight (the times the forest trains on it).
const KEYS: [&str; 7] = ["dataset", "id", "group", "block", "fold", "label", "weight"];

impl TrainingSet {
    /// Writes every block as one CSV line, after a header of [`KEYS`] and the block feature
    /// names in order: its page's dataset, id and site group, its place in the page, the
    /// page's site fold (as the cross-validation assigns them), its
    /// label, its weight under `training` (the times [`TrainingSet::fit`] trains on it) and
    /// its feature values. Values are written as Rust prints an `f32`, which reads back
    /// exactly.
    ///
    /// # Errors
    /// When `out` fails.
    pub fn write_rows(&self, training: &Training, out: &mut impl Write) -> io::Result<()> {
        let names = block_feature_names();
        let header: Vec<Cow<'_, str>> = KEYS
            .iter()
            .map(|&k| Cow::Borrowed(k))
            .chain(names.iter().map(|n| csv_field(n)))
            .collect();
        writeln!(out, "{}", header.join(","))?;
        for (page, fold) in self.pages.iter().zip(fold_of(&self.pages, self.folds)) {
            let times = page_times(page, training);
            let keys = format!(
                "{},{},{}",
                csv_field(&self.names[page.dataset]),
                csv_field(&page.id),
                csv_field(&page.group)
            );
            let blocks = page
                .rows
                .chunks_exact(names.len())
                .zip(&page.labels)
                .zip(&page.texts);
            for (block, ((row, &label), text)) in blocks.enumerate() {
                let weight = block_copies(times, text, training);
                write!(out, "{keys},{block},{fold},{},{weight}", u8::from(label))?;
                for value in row {
                    write!(out, ",{value}")?;
                }
                writeln!(out)?;
            }
        }
        Ok(())
    }
}

/// `text` as one CSV field: quoted, with its quotes doubled, when it holds a comma, a quote
/// or a line break.
fn csv_field(text: &str) -> Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        Cow::Owned(format!("\"{}\"", text.replace('"', "\"\"")))
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use dbce_forest::ForestParams;

    use super::super::tests::page;
    use super::super::{TypeModels, fold_of, site_fold};
    use super::*;

    fn training() -> Training {
        Training {
            learner: super::super::Learner::Forest(ForestParams::default()),
            word_steps: vec![2, 4],
            dataset_weight: vec![1, 3],
            type_weight: Vec::new(),
        }
    }

    /// Two pages with `width` features per block: values that tell block and feature apart.
    fn set(width: usize) -> TrainingSet {
        let mut one = page(0, "a.example", 2);
        one.texts = vec!["one".into(), "one two three four".into()];
        one.labels = vec![true, false];
        one.rows = (0..2 * width).map(|i| i as f32 + 0.25).collect();
        let mut two = page(1, "b,\"c\".example", 1);
        two.id = "x,y".into();
        two.texts = vec!["one two".into()];
        two.labels = vec![true];
        two.rows = (0..width).map(|i| -(i as f32) * 1e-7).collect();
        TrainingSet {
            names: vec!["first".into(), "second".into()],
            pages: vec![one, two],
            folds: 5,
            type_models: TypeModels {
                articles: vec![false, false],
                seed: 0,
            },
        }
    }

    #[test]
    fn rows_carry_keys_labels_weights_folds_and_exact_features() {
        let width = block_feature_names().len();
        let set = set(width);
        let mut out = Vec::new();
        set.write_rows(&training(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "a header and one line per block");
        let header: Vec<&str> = lines[0].split(',').collect();
        assert_eq!(header[..KEYS.len()], KEYS);
        assert_eq!(header[KEYS.len()..], block_feature_names());

        let fold_a = site_fold("a.example", 5);
        let first: Vec<&str> = lines[1].split(',').collect();
        assert_eq!(first.len(), KEYS.len() + width);
        // One word: below both steps, dataset weight 1.
        assert_eq!(
            first[..7],
            [
                "first",
                "a.example-2",
                "a.example",
                "0",
                &fold_a.to_string(),
                "1",
                "1"
            ]
        );
        let second: Vec<&str> = lines[2].split(',').collect();
        // Four words: both steps, so three times.
        assert_eq!(second[3..7], ["1", &fold_a.to_string(), "0", "3"]);
        let values: Vec<f32> = second[7..].iter().map(|v| v.parse().unwrap()).collect();
        assert_eq!(values, set.pages[0].rows[width..]);

        // Fields with commas and quotes are quoted; the dataset weight 3 times one step.
        let fold_b = fold_of(&set.pages, 5)[1];
        assert!(lines[3].starts_with(&format!(
            "second,\"x,y\",\"b,\"\"c\"\".example\",0,{fold_b},1,6,"
        )));
        let values: Vec<f32> = lines[3]
            .rsplit(',')
            .take(width)
            .map(|v| v.parse().unwrap())
            .collect();
        let expected: Vec<f32> = set.pages[1].rows.iter().rev().copied().collect();
        assert_eq!(values, expected, "f32 values read back exactly");
    }

    #[test]
    fn fields_are_quoted_only_when_they_must_be() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a\"b"), "\"a\"\"b\"");
        assert_eq!(csv_field("a\nb"), "\"a\nb\"");
    }
}

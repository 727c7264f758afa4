//! Labels from ground truth: which runs or blocks of a page are content.

use dbce_annotate::SequenceMatcher;

/// Fewest words of a block whose text found anywhere in the truth makes it content
/// ([`label_blocks`]).
pub const MIN_CONTAINED_WORDS: usize = 10;

/// Labels each run by the share of its words that the ground truth contains in order: the
/// page's words and the truth's are aligned with `SequenceMatcher` (no autojunk), and a run is
/// content when at least `min_aligned` of its words align.
pub fn label_runs(texts: &[String], truth: &str, min_aligned: f64) -> Vec<bool> {
    let mut words: Vec<&str> = Vec::new();
    let mut owner: Vec<usize> = Vec::new();
    for (run, text) in texts.iter().enumerate() {
        for word in text.split_whitespace() {
            words.push(word);
            owner.push(run);
        }
    }
    let truth: Vec<&str> = truth.split_whitespace().collect();
    let mut aligned = vec![0usize; texts.len()];
    for block in SequenceMatcher::new(&truth, &words, false).get_matching_blocks() {
        for &run in &owner[block.b..block.b + block.size] {
            aligned[run] += 1;
        }
    }
    texts
        .iter()
        .zip(aligned)
        .map(|(text, n)| {
            let total = text.split_whitespace().count();
            total > 0 && n as f64 >= min_aligned * total as f64
        })
        .collect()
}

/// Labels each block: content when most of its words align with the truth in order
/// ([`label_runs`]), or when it has at least [`MIN_CONTAINED_WORDS`] words and the truth
/// contains its whole text (white space collapsed) anywhere: the truth of forum threads and
/// listings does not always keep the page's order, which the alignment alone misses.
pub fn label_blocks(texts: &[String], truth: &str, min_aligned: f64) -> Vec<bool> {
    let flat = truth.split_whitespace().collect::<Vec<_>>().join(" ");
    label_runs(texts, truth, min_aligned)
        .into_iter()
        .zip(texts)
        .map(|(aligned, text)| {
            aligned
                || (text.split_whitespace().count() >= MIN_CONTAINED_WORDS
                    && flat.contains(text.as_str()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_content_when_most_of_their_words_align() {
        let texts = [
            "Home News Sport".to_owned(),
            "The council met on Monday".to_owned(),
            "Share this".to_owned(),
            "and voted".to_owned(),
        ];
        let truth = "The council met on Monday and voted for the plan";
        assert_eq!(label_runs(&texts, truth, 0.5), [false, true, false, true]);
        // A stricter share drops the run only half of whose words align.
        let half = ["The council adjourned early".to_owned()];
        assert_eq!(label_runs(&half, truth, 0.5), [true]);
        assert_eq!(label_runs(&half, truth, 0.6), [false]);
    }

    #[test]
    fn empty_runs_are_never_content() {
        assert_eq!(label_runs(&[String::new()], "", 0.0), [false]);
    }

    #[test]
    fn blocks_the_truth_holds_out_of_order_are_content() {
        let texts = [
            "Home News".to_owned(),
            "the second post says this much and then a few more words".to_owned(),
            "the first post opens the thread with a long question about it".to_owned(),
            "Share".to_owned(),
        ];
        let truth = "the first post opens the thread with a long question about it\n\
                     the second post says this much and then a few more words";
        // In order, only one of the two posts can align.
        let aligned = label_runs(&texts, truth, 0.5);
        assert!(aligned[1] != aligned[2], "{aligned:?}");
        assert_eq!(label_blocks(&texts, truth, 0.5), [false, true, true, false]);
    }

    #[test]
    fn short_blocks_need_the_alignment() {
        // Nine words the truth holds out of order: too short to count by containment.
        let texts = [
            "one two three four five six seven eight nine".to_owned(),
            "a long first paragraph that the truth keeps in its order".to_owned(),
        ];
        let truth = "a long first paragraph that the truth keeps in its order \
                     one two three four five six seven eight nine";
        assert_eq!(label_runs(&texts, truth, 0.5), [false, true]);
        assert_eq!(label_blocks(&texts, truth, 0.5), [false, true]);
    }
}

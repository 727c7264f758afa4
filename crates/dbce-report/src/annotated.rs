//! A page's annotated HTML rebuilt after the run from what stage `annotate` recorded of it (its
//! run labels), so a report can show any page of a run that did not write annotated HTML.

use dbce_annotate::{Bits, CrossRole, LabelledRun, PageTokens, Run, annotated_html};
use dbce_dom::Document;

use dbce_extract::{AnnotatedPage, RunLabel};
use dbce_page::PageFetcher;
use dbce_pipeline::Config;
use dbce_pipeline::fetch::FetchError;

/// The runs `labels` describe, placed on the page's `tokens`: each label's words must lie in
/// one text node, as every run's do. `None` when a label does not fit the tokens (the page no
/// longer reads as it did when it was annotated).
pub(crate) fn labelled_runs(tokens: &PageTokens, labels: &[RunLabel]) -> Option<Vec<LabelledRun>> {
    labels
        .iter()
        .map(|label| {
            let first = label.first_token as usize;
            let last = first + (label.words as usize).checked_sub(1)?;
            let (start, end) = (tokens.places.get(first)?, tokens.places.get(last)?);
            (start.node == end.node).then_some(LabelledRun {
                run: Run {
                    node: start.node,
                    start: start.start,
                    end: end.end,
                    first_token: label.first_token,
                    words: label.words,
                    bits: label.bits,
                },
                class: label.class,
                decision: label.decision,
            })
        })
        .collect()
}

/// The annotated HTML of `page` (as `annotate.annotated-html` writes it): the HTML the run kept,
/// or else the page read back from its archive, parsed with the run's settings and wrapped run
/// by run with the classes the run gave.
///
/// # Errors
/// Returns why the page could not be read back, or [`FetchError::RunsDoNotFit`] when its words
/// are not those the run labelled.
pub(crate) fn page_annotated_html(
    fetcher: &PageFetcher,
    config: &Config,
    page: &AnnotatedPage,
) -> Result<String, FetchError> {
    if let Some(html) = &page.annotated_html {
        return Ok(html.clone());
    }
    let captured = fetcher.fetch(&page.page)?;
    let doc =
        Document::parse(&captured.html, &config.sanitize).map_err(|_| FetchError::NotAPage)?;
    let runs =
        labelled_runs(&PageTokens::read(&doc), &page.runs).ok_or(FetchError::RunsDoNotFit)?;
    let cross = page
        .cross
        .as_ref()
        .map_or(Bits::of(&[CrossRole::Cur]), |c| c.bits);
    Ok(annotated_html(
        &doc,
        &captured.html,
        &page.page.url,
        cross,
        &runs,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbce_annotate::{Decision, PatternClass, annotate};
    use dbce_dom::SanitizeConfig;

    #[test]
    fn labels_are_placed_back_on_the_runs_they_came_from() {
        let doc = Document::parse(
            "<body><p>Home <b>News</b> and more</p><p>Second line here</p></body>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let tokens = PageTokens::read(&doc);
        let runs: Vec<LabelledRun> = annotate(&tokens, &[])
            .into_iter()
            .map(|run| LabelledRun {
                run,
                class: PatternClass::Content,
                decision: Decision::Pattern,
            })
            .collect();
        let labels: Vec<RunLabel> = runs.iter().map(RunLabel::of).collect();
        assert_eq!(labelled_runs(&tokens, &labels).unwrap(), runs);
    }

    #[test]
    fn a_label_beyond_the_words_or_across_text_nodes_does_not_fit() {
        let doc = Document::parse(
            "<body><p>one <b>two</b></p></body>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let tokens = PageTokens::read(&doc);
        let mut label = RunLabel {
            first_token: 0,
            words: 2,
            bits: Bits::of(&[CrossRole::Cur]),
            class: PatternClass::Content,
            decision: Decision::Pattern,
        };
        assert_eq!(labelled_runs(&tokens, &[label]), None, "across text nodes");
        label.words = 0;
        assert_eq!(labelled_runs(&tokens, &[label]), None, "no words");
        label.first_token = 2;
        label.words = 1;
        assert_eq!(labelled_runs(&tokens, &[label]), None, "beyond the words");
    }
}

//! How a page's routes become its runs' classes: which runs each route keeps, and the first
//! route whose text is not empty decides ([`settle`]), so that no page comes out empty while a
//! route would fill it.

use std::ops::Range;

use dbce_annotate::{Decision, LabelledRun, PatternClass, RunLayout};

use crate::judge::Route;

/// Which runs `route` keeps, from the patterns' classes and the single-page verdicts.
pub fn route_verdicts(route: Route, runs: &[LabelledRun], single: &[bool]) -> Vec<bool> {
    runs.iter()
        .zip(single)
        .map(|(run, &single)| match route {
            Route::Cross => match run.class {
                PatternClass::Content => true,
                PatternClass::Boilerplate => false,
                PatternClass::Invalid => single,
            },
            Route::Agree => run.class == PatternClass::Content && single,
            _ => single,
        })
        .collect()
}

/// Keeps every run of each of `lines` ([`RunLayout::lines`]: a block, or text between `<br>`s)
/// of which `keep` already keeps at least half the words. The diff compares pages word by word,
/// so a word a page shares with its partners ("said", "Product", "In this example") leaves a
/// hole in a sentence that is the page's own; the routes that read the cross ([`Route::Cross`],
/// [`Route::Agree`]) keep such a line whole instead. A line mostly shared (a menu with one
/// page-specific link) stays as the route has it.
pub fn whole_lines(keep: &mut [bool], runs: &[LabelledRun], lines: &[Range<usize>]) {
    for line in lines {
        let words = |kept_only: bool| -> u32 {
            line.clone()
                .filter(|&i| !kept_only || keep[i])
                .map(|i| runs[i].run.words)
                .sum()
        };
        let kept = words(true);
        if kept > 0 && 2 * kept >= words(false) {
            keep[line.clone()].fill(true);
        }
    }
}

/// Gives the runs the verdicts of the first route of `routes` whose text is not empty (the last
/// route if none has text) and returns that route. A run whose class the route keeps keeps
/// its decision; the others are decided by the single-page classifier.
pub fn settle(runs: &mut [LabelledRun], layout: &RunLayout, routes: &[(Route, &[bool])]) -> Route {
    let Some(last) = routes.last() else {
        return Route::Single;
    };
    let (route, keep) = routes
        .iter()
        .find(|(_, keep)| {
            layout
                .pieces()
                .zip(keep.iter())
                .any(|(piece, &kept)| kept && !piece.is_empty())
        })
        .unwrap_or(last);
    for (run, &content) in runs.iter_mut().zip(keep.iter()) {
        let class = if content {
            PatternClass::Content
        } else {
            PatternClass::Boilerplate
        };
        if run.class != class {
            run.class = class;
            run.decision = Decision::SinglePage;
        }
    }
    *route
}

#[cfg(test)]
mod tests {
    use dbce_annotate::{PageTokens, annotate};
    use dbce_dom::{Document, SanitizeConfig};

    use super::*;

    fn runs_of(doc: &Document) -> Vec<LabelledRun> {
        annotate(&PageTokens::read(doc), &[])
            .into_iter()
            .map(|run| LabelledRun {
                run,
                class: PatternClass::Boilerplate,
                decision: Decision::Pattern,
            })
            .collect()
    }

    #[test]
    fn the_first_route_with_text_decides() {
        let doc = Document::parse(
            "<body><p>one two three</p><p>four five</p></body>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let mut runs = runs_of(&doc);
        assert_eq!(runs.len(), 2);
        let layout = RunLayout::of(&doc, &runs);
        let routes: [(Route, &[bool]); 3] = [
            (Route::Cross, &[false, false]),
            (Route::Single, &[false, true]),
            (Route::Densest, &[true, false]),
        ];
        assert_eq!(settle(&mut runs, &layout, &routes), Route::Single);
        assert_eq!(runs[1].class, PatternClass::Content);
        assert_eq!(runs[1].decision, Decision::SinglePage);
        assert_eq!(runs[0].class, PatternClass::Boilerplate);
        assert_eq!(runs[0].decision, Decision::Pattern);
        let nothing: [(Route, &[bool]); 2] =
            [(Route::Cross, &[false; 2]), (Route::Densest, &[false; 2])];
        assert_eq!(settle(&mut runs, &layout, &nothing), Route::Densest);
        assert!(runs.iter().all(|r| r.class == PatternClass::Boilerplate));
    }

    #[test]
    fn routes_read_the_patterns_and_the_single_page_verdicts() {
        let doc = Document::parse(
            "<body><p>a b</p><p>c d</p><p>e f</p></body>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let mut runs = runs_of(&doc);
        runs[0].class = PatternClass::Content;
        runs[1].class = PatternClass::Invalid;
        let single = [false, true, true];
        assert_eq!(
            route_verdicts(Route::Cross, &runs, &single),
            [true, true, false]
        );
        assert_eq!(
            route_verdicts(Route::Agree, &runs, &single),
            [false, false, false]
        );
        assert_eq!(route_verdicts(Route::Single, &runs, &single), single);
    }

    #[test]
    fn a_line_the_route_mostly_keeps_is_kept_whole() {
        // Two lines: "Product 7" (its number the page's own, "Product" in every partner) and
        // a menu of three links with one the page's own.
        let doc = Document::parse(
            "<body><h1><span>Product</span> <b>7</b></h1>\
             <p><a>Home</a> <a>Shop</a> <a>Seven</a></p></body>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let runs = runs_of(&doc);
        assert_eq!(runs.len(), 5);
        let layout = RunLayout::of(&doc, &runs);
        let lines = layout.lines();
        let mut keep = vec![false, true, false, false, true];
        whole_lines(&mut keep, &runs, &lines);
        assert_eq!(keep, [true, true, false, false, true]);
        assert_eq!(layout.text(|i| keep[i]), "Product 7\nSeven");
        let mut none = vec![false; 5];
        whole_lines(&mut none, &runs, &lines);
        assert_eq!(none, [false; 5]);
    }
}

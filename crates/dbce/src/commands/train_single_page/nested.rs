//! `dbce train-single-page --nested`: the route's thresholds chosen inside each training fold.
//!
//! The single-page route has three thresholds: for pages typed `article`, the forest
//! probability at which a block Readability keeps is content (the anchor) and the one at
//! which any other block is; for the other types one threshold (or, in the per-type variant,
//! one per type). Choosing them on the held-out columns makes those columns optimistic. Here,
//! for each outer fold `f`, every page of every other fold `g` is predicted by a block model
//! and a page-type model trained on neither `f` nor `g` (one pair of models per pair of
//! folds), the thresholds that score best on those pages are chosen, and only then are the
//! pages of `f` scored with them, by the models trained without `f` alone. No page of `f`
//! takes part in choosing its thresholds, nor in training the models that choose them.
//!
//! Page types are held out too: the route depends on the guess, and the built-in page-type
//! model has seen every labelled page. Within a fold the page-type model is trained as
//! `scripts/train-page-type` trains the built-in one (labelled pages, and the pages of the
//! `--page-type-articles` datasets as articles), on the fold's training pages only.

use std::collections::HashMap;
use std::fmt::Write as _;

use dbce_classify::{LearnedBlocks, PageType, PageTypeGuess, PageTypeModel};
use dbce_eval::RougeScorer;
use dbce_forest::ForestParams;
use rayon::prelude::*;

use super::{Page, Training, fit};

/// Anchors tried for pages typed `article`: the threshold of the blocks Readability keeps.
const ANCHORS: [f32; 4] = [0.3, 0.35, 0.4, 0.45];
/// Thresholds tried for the blocks Readability drops on pages typed `article`.
const OUTSIDE: [f32; 7] = [0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8];
/// Thresholds tried for the pages of the other types.
const OTHERS: [f32; 7] = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5];

/// The forests of the page-type model, as `dbce train-page-type` trains the built-in one.
fn page_type_params() -> ForestParams {
    ForestParams {
        trees: 48,
        max_depth: 12,
        min_samples_leaf: 2,
        class_weight_balanced: true,
        seed: dbce_pipeline::Config::default().annotate.seed,
        ..ForestParams::default()
    }
}

/// Forest probabilities and page-type guesses of some pages, by models that did not train on
/// them; `None` for the pages they do not cover.
#[derive(Clone)]
struct Predictions {
    probabilities: Vec<Option<Vec<f32>>>,
    types: Vec<Option<PageTypeGuess>>,
}

impl Predictions {
    fn empty(pages: usize) -> Self {
        Self {
            probabilities: vec![None; pages],
            types: vec![None; pages],
        }
    }
}

/// Thresholds of the route, as chosen in one fold.
#[derive(Debug, Clone, PartialEq)]
struct Route {
    articles: LearnedBlocks,
    /// The threshold of every other type, in [`PageType::ALL`] order.
    others: [f32; PageType::ALL.len()],
}

impl Route {
    fn verdicts(&self, probabilities: &[f32], readability: &[bool], guess: PageType) -> Vec<bool> {
        let settings = if guess == PageType::Article {
            self.articles
        } else {
            LearnedBlocks::uniform(self.others[guess.index()])
        };
        probabilities
            .iter()
            .zip(readability)
            .map(|(&p, &kept)| settings.is_content(p, kept))
            .collect()
    }
}

/// What the nested validation adds to the tables: its columns and a report of the choices.
pub(super) struct Nested {
    /// Held-out verdicts: the fixed default route and the two nested routes, every page typed
    /// by a page-type model that did not train on it.
    pub columns: Vec<(String, Vec<Option<Vec<bool>>>)>,
    /// The thresholds chosen in each fold and the held-out page-type accuracy, in Markdown.
    pub report: String,
}

/// Runs the nested validation over `folds` folds (`fold_of` each page's); `outer` are the
/// forest probabilities of each page by the model trained without its fold.
pub(super) fn validate(
    pages: &[Page],
    fold_of: &[u64],
    folds: u64,
    training: &Training,
    type_articles: &[bool],
    outer: &[Option<Vec<f32>>],
) -> anyhow::Result<Nested> {
    let n = pages.len();
    let mut outer_types = vec![None; n];
    let mut inner: Vec<Predictions> = (0..folds).map(|_| Predictions::empty(n)).collect();
    for f in 0..folds {
        let train: Vec<usize> = (0..n).filter(|&i| fold_of[i] != f).collect();
        if let Some(model) = fit_page_types(pages, &train, type_articles)? {
            for i in (0..n).filter(|&i| fold_of[i] == f) {
                outer_types[i] = Some(guess(&model, &pages[i]));
            }
        }
        for g in f + 1..folds {
            let train: Vec<usize> = (0..n)
                .filter(|&i| fold_of[i] != f && fold_of[i] != g)
                .collect();
            if train.is_empty() {
                continue;
            }
            let blocks = fit(pages, &train, training)?;
            let Some(types) = fit_page_types(pages, &train, type_articles)? else {
                continue;
            };
            let tested: Vec<usize> = (0..n)
                .filter(|&i| fold_of[i] == f || fold_of[i] == g)
                .collect();
            let probabilities: Vec<Vec<f32>> = tested
                .par_iter()
                .map(|&i| blocks.probabilities(&pages[i].rows))
                .collect();
            for (&i, p) in tested.iter().zip(probabilities) {
                // A page of fold g helps choose fold f's thresholds, and the other way round.
                let context = if fold_of[i] == f { g } else { f };
                let slot = &mut inner[context as usize];
                slot.probabilities[i] = Some(p);
                slot.types[i] = Some(guess(&types, &pages[i]));
            }
            eprintln!("dbce: nested: folds {f} and {g} held out together");
        }
    }
    let outer = Predictions {
        probabilities: outer.to_vec(),
        types: outer_types,
    };
    let default_route = Route {
        articles: LearnedBlocks::ARTICLES,
        others: [LearnedBlocks::default().threshold; PageType::ALL.len()],
    };
    let mut one = Vec::new();
    let mut per_type = Vec::new();
    let mut report = String::from(
        "| fold | anchor | outside | others | forum | product | collection | listing | documentation | service |\n\
         | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for f in 0..folds {
        let scores = RouteScores::of(pages, &inner[f as usize]);
        let (articles, others, by_type) = scores.choose();
        let mut line = format!(
            "| {f} | {} | {} | {others} |",
            articles.threshold, articles.threshold_outside_readability
        );
        for t in &PageType::LEARNED[1..] {
            let _ = write!(line, " {} |", by_type[t.index()]);
        }
        report.push_str(&line);
        report.push('\n');
        one.push(Route {
            articles,
            others: [others; PageType::ALL.len()],
        });
        per_type.push(Route {
            articles,
            others: by_type,
        });
    }
    let _ = writeln!(
        report,
        "\nHeld-out page types (models of the outer folds): {}",
        type_accuracy(pages, &outer.types)
    );
    let fixed: Vec<Route> = (0..folds).map(|_| default_route.clone()).collect();
    let columns = vec![
        (
            "held-out types: default ≥0.35/0.55, others ≥0.3".to_owned(),
            apply(pages, fold_of, &fixed, &outer),
        ),
        (
            "nested: one threshold for other types".to_owned(),
            apply(pages, fold_of, &one, &outer),
        ),
        (
            "nested: a threshold per type".to_owned(),
            apply(pages, fold_of, &per_type, &outer),
        ),
    ];
    Ok(Nested { columns, report })
}

/// The page-type model trained on the pages at `train` that have a type: labelled in their
/// `meta.jsonl`, or articles of a dataset flagged in `type_articles`; `None` when there are
/// none.
fn fit_page_types(
    pages: &[Page],
    train: &[usize],
    type_articles: &[bool],
) -> anyhow::Result<Option<PageTypeModel>> {
    let mut rows = Vec::new();
    let mut labels = Vec::new();
    for &i in train {
        let page = &pages[i];
        if page.labelled_type || type_articles.get(page.dataset).copied().unwrap_or(false) {
            rows.extend_from_slice(&page.type_row);
            labels.push(page.page_type.parse::<PageType>()?);
        }
    }
    if labels.is_empty() {
        return Ok(None);
    }
    Ok(Some(PageTypeModel::fit(
        &rows,
        &labels,
        &page_type_params(),
    )?))
}

/// The page's type as [`PageTypeModel::classify`] gives it with `model`: an error rule's
/// verdict if one fired, else the model's.
fn guess(model: &PageTypeModel, page: &Page) -> PageTypeGuess {
    page.error_rule
        .unwrap_or_else(|| model.predict(&page.type_row))
}

/// Share of the labelled pages whose guess is their label.
fn type_accuracy(pages: &[Page], types: &[Option<PageTypeGuess>]) -> String {
    let (mut right, mut all) = (0usize, 0usize);
    for (page, guess) in pages.iter().zip(types) {
        if let (true, Some(guess)) = (page.labelled_type, guess) {
            all += 1;
            right += usize::from(guess.page_type.name() == page.page_type);
        }
    }
    format!(
        "{right} of {all} labelled pages right ({:.1}%)",
        100.0 * right as f64 / all.max(1) as f64
    )
}

/// The verdicts of every page by its fold's route, from `predictions`.
fn apply(
    pages: &[Page],
    fold_of: &[u64],
    routes: &[Route],
    predictions: &Predictions,
) -> Vec<Option<Vec<bool>>> {
    pages
        .iter()
        .enumerate()
        .map(|(i, page)| {
            let p = predictions.probabilities[i].as_ref()?;
            let guess = predictions.types[i]?;
            Some(routes[fold_of[i] as usize].verdicts(p, &page.readability, guess.page_type))
        })
        .collect()
}

/// Every candidate threshold's F1 on the pages of one selection context.
struct RouteScores {
    /// Pages typed `article`: weight and F1 for each (anchor, outside) pair, anchors major.
    articles: Vec<(f64, Vec<f64>)>,
    /// Pages of other types: type, weight and F1 for each of [`OTHERS`].
    others: Vec<(PageType, f64, Vec<f64>)>,
}

impl RouteScores {
    /// Scores every candidate on the pages `predictions` covers. A page weighs one over the
    /// number of covered pages of its dataset: each dataset counts alike, so the older news
    /// sets are not drowned by wcxb-dev.
    fn of(pages: &[Page], predictions: &Predictions) -> Self {
        let covered: Vec<usize> = (0..pages.len())
            .filter(|&i| predictions.probabilities[i].is_some() && predictions.types[i].is_some())
            .collect();
        let mut per_dataset: HashMap<usize, usize> = HashMap::new();
        for &i in &covered {
            *per_dataset.entry(pages[i].dataset).or_default() += 1;
        }
        let scored: Vec<(PageType, f64, Vec<f64>)> = covered
            .par_iter()
            .map_init(RougeScorer::new, |scorer, &i| {
                let page = &pages[i];
                let (Some(p), Some(guess)) = (&predictions.probabilities[i], predictions.types[i])
                else {
                    unreachable!("covered pages have predictions")
                };
                let weight = 1.0 / per_dataset[&page.dataset] as f64;
                let settings: Vec<LearnedBlocks> = if guess.page_type == PageType::Article {
                    ANCHORS
                        .iter()
                        .flat_map(|&a| {
                            OUTSIDE.iter().map(move |&u| LearnedBlocks {
                                threshold: a,
                                threshold_outside_readability: u,
                            })
                        })
                        .collect()
                } else {
                    OTHERS.iter().map(|&t| LearnedBlocks::uniform(t)).collect()
                };
                let mut cache: HashMap<Vec<bool>, f64> = HashMap::new();
                let f1 = settings
                    .iter()
                    .map(|s| {
                        let verdicts: Vec<bool> = p
                            .iter()
                            .zip(&page.readability)
                            .map(|(&p, &kept)| s.is_content(p, kept))
                            .collect();
                        *cache
                            .entry(verdicts)
                            .or_insert_with_key(|v| page.score(scorer, v))
                    })
                    .collect();
                (guess.page_type, weight, f1)
            })
            .collect();
        let (articles, others): (Vec<_>, Vec<_>) = scored
            .into_iter()
            .partition(|(t, _, _)| *t == PageType::Article);
        Self {
            articles: articles.into_iter().map(|(_, w, f)| (w, f)).collect(),
            others,
        }
    }

    /// The best article settings, the best single threshold of the other types, and the best
    /// threshold of each other type (ties to the earlier candidate). Without pages to choose
    /// on, article settings stay [`LearnedBlocks::ARTICLES`], the single threshold stays the
    /// default's, and a type takes the single threshold.
    fn choose(&self) -> (LearnedBlocks, f32, [f32; PageType::ALL.len()]) {
        let articles = best(
            ANCHORS.len() * OUTSIDE.len(),
            self.articles.iter().map(|(w, f)| (*w, f)),
        )
        .map_or(LearnedBlocks::ARTICLES, |i| LearnedBlocks {
            threshold: ANCHORS[i / OUTSIDE.len()],
            threshold_outside_readability: OUTSIDE[i % OUTSIDE.len()],
        });
        let others = best(OTHERS.len(), self.others.iter().map(|(_, w, f)| (*w, f)))
            .map_or(LearnedBlocks::default().threshold, |i| OTHERS[i]);
        let mut by_type = [others; PageType::ALL.len()];
        for t in PageType::ALL {
            let members = self.others.iter().filter(|(u, _, _)| *u == t);
            if let Some(i) = best(OTHERS.len(), members.map(|(_, w, f)| (*w, f))) {
                by_type[t.index()] = OTHERS[i];
            }
        }
        (articles, others, by_type)
    }
}

/// The candidate with the highest weighted sum of F1 over `pages` (the earliest among
/// equals); `None` without pages.
fn best<'a>(candidates: usize, pages: impl Iterator<Item = (f64, &'a Vec<f64>)>) -> Option<usize> {
    let mut sums = vec![0.0; candidates];
    let mut any = false;
    for (weight, f1) in pages {
        any = true;
        for (sum, f) in sums.iter_mut().zip(f1) {
            *sum += weight * f;
        }
    }
    let mut best = 0;
    for (i, &s) in sums.iter().enumerate() {
        if s > sums[best] + 1e-12 {
            best = i;
        }
    }
    any.then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_candidate_weighs_pages_and_keeps_the_earliest_of_equals() {
        let (a, b) = (vec![0.5, 0.9, 0.9], vec![1.0, 0.0, 0.0]);
        // Weighted 1:1 the first candidate wins (1.5 against 0.9); weighted 1:0.1 the second
        // (0.95 against 0.6), not the third although it scores the same.
        assert_eq!(best(3, [(1.0, &a), (1.0, &b)].into_iter()), Some(0));
        assert_eq!(best(3, [(1.0, &a), (0.1, &b)].into_iter()), Some(1));
        assert_eq!(best(3, std::iter::empty()), None);
    }

    #[test]
    fn each_part_of_the_route_is_chosen_on_its_own_pages() {
        let mut article = vec![0.0; ANCHORS.len() * OUTSIDE.len()];
        article[OUTSIDE.len() + 2] = 1.0;
        let high = |at: usize| {
            let mut f1 = vec![0.0; OTHERS.len()];
            f1[at] = 1.0;
            f1
        };
        let scores = RouteScores {
            articles: vec![(1.0, article)],
            others: vec![
                (PageType::Forum, 1.0, high(0)),
                (PageType::Forum, 1.0, high(0)),
                (PageType::Listing, 1.0, high(4)),
            ],
        };
        let (articles, others, by_type) = scores.choose();
        assert_eq!(
            articles,
            LearnedBlocks {
                threshold: ANCHORS[1],
                threshold_outside_readability: OUTSIDE[2],
            }
        );
        assert_eq!(others, OTHERS[0]);
        assert_eq!(by_type[PageType::Forum.index()], OTHERS[0]);
        assert_eq!(by_type[PageType::Listing.index()], OTHERS[4]);
        // No product page: products take the single threshold.
        assert_eq!(by_type[PageType::Product.index()], OTHERS[0]);
    }

    #[test]
    fn without_pages_the_defaults_stay() {
        let (articles, others, _) = RouteScores {
            articles: Vec::new(),
            others: Vec::new(),
        }
        .choose();
        assert_eq!(articles, LearnedBlocks::ARTICLES);
        assert_eq!(others, LearnedBlocks::default().threshold);
    }
}

//! The nested validation (`dbce train-single-page --nested`): the route's thresholds chosen
//! inside each training fold.
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
//! model has seen every labelled page. The page-type models are trained as
//! `scripts/train-page-type` trains the built-in one (labelled pages, and the pages of the
//! datasets of [`super::PageTypeTraining::articles`] as articles): for the outer fold, on the
//! other folds' pages ([`super::TrainingSet::load`], the types the block rows carry); for a
//! pair of folds, on the other folds' pages, to route the pair's pages. The block rows keep
//! the outer folds' types in the inner models too: a training page of fold `g` carries the
//! type of a model that saw fold `f`'s page-type labels (not its block labels).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use dbce_classify::{LearnedBlocks, PageType, PageTypeGuess};
use dbce_eval::RougeScorer;
use rayon::prelude::*;

use super::super::TrainError;
use super::{Column, Page, Training, TypeModels, fit, guess, type_accuracy};

/// Anchors tried for pages typed `article`: the threshold of the blocks Readability keeps.
const ANCHORS: [f32; 7] = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];
/// Thresholds tried for the blocks Readability drops on pages typed `article`.
const OUTSIDE: [f32; 8] = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8];
/// Thresholds tried for the pages of the other types.
const OTHERS: [f32; 8] = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5];
/// Caps tried on what the forest adds to Readability's article on pages typed `article`: the
/// blocks Readability drops stay out when together they hold more than this many times the
/// words of the blocks kept of Readability's (an embedded gallery or a block of related
/// stories outweighing the article); the last, infinite, is no cap.
const CAPS: [f32; 4] = [0.5, 1.0, 2.0, f32::INFINITY];
/// Gates tried on the page-type model's confidence: a page typed `article` less sure than
/// this takes the other types' route (a listing or service page taken for an article keeps
/// its items); the first, 0, sends every page typed `article` to the article route.
const GATES: [f32; 6] = [0.0, 0.4, 0.5, 0.6, 0.7, 0.8];

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

/// The route of pages typed `article`: the forest's thresholds anchored on Readability, and
/// a cap on the words it adds to Readability's article.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ArticleRoute {
    blocks: LearnedBlocks,
    /// The blocks Readability drops are all left out when their words exceed this many times
    /// the words of the content blocks Readability keeps (infinite: never).
    cap: f32,
}

impl ArticleRoute {
    /// Candidate `index` of the grid [`ANCHORS`] × [`OUTSIDE`] × [`CAPS`], in that order.
    fn candidate(index: usize) -> Self {
        let cap = index % CAPS.len();
        let outside = index / CAPS.len() % OUTSIDE.len();
        let anchor = index / CAPS.len() / OUTSIDE.len();
        Self {
            blocks: LearnedBlocks {
                threshold: ANCHORS[anchor],
                threshold_outside_readability: OUTSIDE[outside],
                relative_to_best: 0.0,
            },
            cap: CAPS[cap],
        }
    }

    fn verdicts(&self, probabilities: &[f32], readability: &[bool], words: &[usize]) -> Vec<bool> {
        let mut verdicts = self.blocks.verdicts(probabilities, readability);
        if self.cap.is_finite() {
            let (mut kept, mut added) = (0usize, 0usize);
            for ((&content, &readability), &words) in verdicts.iter().zip(readability).zip(words) {
                match (content, readability) {
                    (true, true) => kept += words,
                    (true, false) => added += words,
                    _ => {}
                }
            }
            if added as f64 > f64::from(self.cap) * kept as f64 {
                for (v, &readability) in verdicts.iter_mut().zip(readability) {
                    *v &= readability;
                }
            }
        }
        verdicts
    }
}

/// Words of each block of `page`.
fn block_words(page: &Page) -> Vec<usize> {
    page.texts
        .iter()
        .map(|t| t.split_whitespace().count())
        .collect()
}

/// Thresholds of the route, as chosen in one fold.
#[derive(Debug, Clone, PartialEq)]
struct Route {
    articles: ArticleRoute,
    /// The threshold of every other type, in [`PageType::ALL`] order; `article`'s is the one
    /// of pages typed `article` below the `gate`.
    others: [f32; PageType::ALL.len()],
    /// Pages typed `article` with a confidence below this take `others[article]`.
    gate: f32,
}

impl Route {
    fn verdicts(&self, page: &Page, probabilities: &[f32], guess: PageTypeGuess) -> Vec<bool> {
        if guess.page_type == PageType::Article && guess.confidence >= self.gate {
            self.articles
                .verdicts(probabilities, &page.readability, &block_words(page))
        } else {
            LearnedBlocks::uniform(self.others[guess.page_type.index()])
                .verdicts(probabilities, &page.readability)
        }
    }
}

/// What the nested validation adds to the tables: its columns and a report of the choices.
pub(super) struct Nested {
    /// Held-out verdicts: the fixed default route and the two nested routes, every page typed
    /// by a page-type model that did not train on it.
    pub(super) columns: Vec<Column>,
    /// The thresholds chosen in each fold and the held-out page-type accuracy, in Markdown.
    pub(super) report: String,
}

/// Runs the nested validation over `folds` folds (`fold_of` each page's); `outer` are the
/// forest probabilities of each page by the model trained without its fold. `progress` hears
/// one line per pair of folds.
pub(super) fn validate(
    pages: &[Page],
    fold_of: &[u64],
    folds: u64,
    training: &Training,
    types: &TypeModels,
    outer: &[Option<Vec<f32>>],
    progress: &dyn Fn(&str),
) -> Result<Nested, TrainError> {
    let n = pages.len();
    let mut inner: Vec<Predictions> = (0..folds).map(|_| Predictions::empty(n)).collect();
    for f in 0..folds {
        for g in f + 1..folds {
            let train: Vec<usize> = (0..n)
                .filter(|&i| fold_of[i] != f && fold_of[i] != g)
                .collect();
            if train.is_empty() {
                continue;
            }
            let blocks = fit(pages, &train, training)?;
            let Some(type_model) = types.fit(pages, &train)? else {
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
                slot.types[i] = Some(guess(&type_model, &pages[i]));
            }
            progress(&format!("nested: folds {f} and {g} held out together"));
        }
    }
    let outer = Predictions {
        probabilities: outer.to_vec(),
        types: pages.iter().map(|p| p.held_out_type).collect(),
    };
    let default_route = Route {
        articles: ArticleRoute {
            blocks: LearnedBlocks::ARTICLES,
            cap: f32::INFINITY,
        },
        others: [LearnedBlocks::default().threshold; PageType::ALL.len()],
        gate: 0.0,
    };
    let (mut one, mut per_type, mut capped) = (Vec::new(), Vec::new(), Vec::new());
    let (mut constrained, mut gated, mut gated_per_type) = (Vec::new(), Vec::new(), Vec::new());
    let mut report = String::from(
        "| fold | anchor | outside | with a cap: anchor / outside / cap | older sets kept: anchor / outside | others | forum | product | collection | listing | documentation | service | gate |\n\
         | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for f in 0..folds {
        let choice = RouteScores::of(pages, &inner[f as usize]).choose();
        report.push_str(&choice.report_line(&f.to_string()));
        let others = [choice.others; PageType::ALL.len()];
        let route = |articles, others, gate| Route {
            articles,
            others,
            gate,
        };
        one.push(route(choice.articles, others, 0.0));
        per_type.push(route(choice.articles, choice.by_type, 0.0));
        capped.push(route(choice.capped, others, 0.0));
        constrained.push(route(choice.constrained, others, 0.0));
        gated.push(route(choice.articles, others, choice.gate));
        gated_per_type.push(route(choice.articles, choice.by_type, choice.gate_by_type));
    }
    // The same choice over every page's held-out predictions: the route to ship with a model
    // trained on every page.
    report.push_str(&RouteScores::of(pages, &outer).choose().report_line("all"));
    let _ = writeln!(
        report,
        "\nHeld-out page types (models of the outer folds): {}",
        type_accuracy(pages, &outer.types)
    );
    let fixed: Vec<Route> = (0..folds).map(|_| default_route.clone()).collect();
    let columns = vec![
        (
            format!(
                "held-out types: default ≥{}/{}, others ≥{}",
                LearnedBlocks::ARTICLES.threshold,
                LearnedBlocks::ARTICLES.threshold_outside_readability,
                LearnedBlocks::default().threshold
            ),
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
        (
            "nested, articles' additions capped: one threshold for other types".to_owned(),
            apply(pages, fold_of, &capped, &outer),
        ),
        (
            "nested, articles: best labelled F1, no older set below Readability".to_owned(),
            apply(pages, fold_of, &constrained, &outer),
        ),
        (
            "nested, unsure articles as other types: one threshold".to_owned(),
            apply(pages, fold_of, &gated, &outer),
        ),
        (
            "nested, unsure articles as other types: a threshold per type".to_owned(),
            apply(pages, fold_of, &gated_per_type, &outer),
        ),
    ];
    Ok(Nested { columns, report })
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
            Some(routes[fold_of[i] as usize].verdicts(page, p, guess))
        })
        .collect()
}

/// Every candidate's F1 on the pages of one selection context.
struct RouteScores {
    /// Pages typed `article`: weight and F1 for each [`ArticleRoute::candidate`].
    articles: Vec<(f64, Vec<f64>)>,
    /// The same pages' [`ArticleContext`].
    article_context: Vec<ArticleContext>,
    /// The same pages' confidence of the type and F1 for each of [`OTHERS`]: what they score
    /// when the [`GATES`] send them to the other types' route.
    article_gate: Vec<(f32, Vec<f64>)>,
    /// Pages of other types: type, weight and F1 for each of [`OTHERS`].
    others: Vec<(PageType, f64, Vec<f64>)>,
}

/// One page's scores in a selection context: its type guess, its weight, its F1 at each of
/// [`OTHERS`] and, when typed `article`, at each [`ArticleRoute::candidate`] with its
/// [`ArticleContext`].
struct Scored {
    guess: PageTypeGuess,
    weight: f64,
    as_other: Vec<f64>,
    article: Option<(Vec<f64>, ArticleContext)>,
}

/// A page's dataset, whether the dataset has labelled page types (wcxb-dev, the modern web;
/// the others are the older news sets), and the F1 of Readability's blocks on it.
type ArticleContext = (usize, bool, f64);

/// The route chosen in one fold.
#[derive(Debug, PartialEq)]
struct Choice {
    /// The best article settings without a cap.
    articles: ArticleRoute,
    /// The best article settings with or without a cap.
    capped: ArticleRoute,
    /// The best article settings without a cap by another objective: the highest F1 on the
    /// datasets with page-type labels with no other dataset's articles below Readability's
    /// (the aim: the older news sets no worse), else the least shortfall.
    constrained: ArticleRoute,
    /// The best single threshold of the other types.
    others: f32,
    /// The best threshold of each other type.
    by_type: [f32; PageType::ALL.len()],
    /// The best of [`GATES`] with `articles` and `others`.
    gate: f32,
    /// The best of [`GATES`] with `articles` and `by_type`.
    gate_by_type: f32,
}

impl Choice {
    /// A row of the report's table, for the fold `name`.
    fn report_line(&self, name: &str) -> String {
        let (plain, cap) = (self.articles.blocks, self.capped);
        let mut line = format!(
            "| {name} | {} | {} | {} / {} / {} | {} / {} | {} |",
            plain.threshold,
            plain.threshold_outside_readability,
            cap.blocks.threshold,
            cap.blocks.threshold_outside_readability,
            cap.cap,
            self.constrained.blocks.threshold,
            self.constrained.blocks.threshold_outside_readability,
            self.others
        );
        for t in &PageType::LEARNED[1..] {
            let _ = write!(line, " {} |", self.by_type[t.index()]);
        }
        let _ = write!(line, " {} / {} |", self.gate, self.gate_by_type);
        line.push('\n');
        line
    }
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
        let scored: Vec<Scored> = covered
            .par_iter()
            .map_init(RougeScorer::new, |scorer, &i| {
                let page = &pages[i];
                let (Some(p), Some(guess)) = (&predictions.probabilities[i], predictions.types[i])
                else {
                    unreachable!("covered pages have predictions")
                };
                let weight = 1.0 / per_dataset[&page.dataset] as f64;
                let mut cache: HashMap<Vec<bool>, f64> = HashMap::new();
                let mut f1 =
                    |v: Vec<bool>| *cache.entry(v).or_insert_with_key(|v| page.score(scorer, v));
                let as_other: Vec<f64> = OTHERS
                    .iter()
                    .map(|&t| f1(LearnedBlocks::uniform(t).verdicts(p, &page.readability)))
                    .collect();
                let article = (guess.page_type == PageType::Article).then(|| {
                    let words = block_words(page);
                    let f1s = (0..ANCHORS.len() * OUTSIDE.len() * CAPS.len())
                        .map(|c| {
                            f1(ArticleRoute::candidate(c).verdicts(p, &page.readability, &words))
                        })
                        .collect();
                    let readability = f1(page.readability.clone());
                    (f1s, (page.dataset, page.labelled_type, readability))
                });
                Scored {
                    guess,
                    weight,
                    as_other,
                    article,
                }
            })
            .collect();
        let mut scores = Self {
            articles: Vec::new(),
            article_context: Vec::new(),
            article_gate: Vec::new(),
            others: Vec::new(),
        };
        for page in scored {
            match page.article {
                Some((f1, context)) => {
                    scores.articles.push((page.weight, f1));
                    scores.article_context.push(context);
                    scores
                        .article_gate
                        .push((page.guess.confidence, page.as_other));
                }
                None => scores
                    .others
                    .push((page.guess.page_type, page.weight, page.as_other)),
            }
        }
        scores
    }

    /// The best candidates (ties to the earlier). Without pages to choose on, article
    /// settings stay [`LearnedBlocks::ARTICLES`] uncapped, the single threshold stays the
    /// default's, and a type without pages takes the single threshold.
    fn choose(&self) -> Choice {
        let all: Vec<usize> = (0..ANCHORS.len() * OUTSIDE.len() * CAPS.len()).collect();
        let uncapped: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&c| !ArticleRoute::candidate(c).cap.is_finite())
            .collect();
        let article_pages = || self.articles.iter().map(|(w, f)| (*w, f));
        let fallback = ArticleRoute {
            blocks: LearnedBlocks::ARTICLES,
            cap: f32::INFINITY,
        };
        let articles = best(&uncapped, article_pages()).map_or(fallback, ArticleRoute::candidate);
        let constrained = self
            .constrained(&uncapped)
            .map_or(fallback, ArticleRoute::candidate);
        let capped = best(&all, article_pages()).map_or(fallback, ArticleRoute::candidate);
        let thresholds: Vec<usize> = (0..OTHERS.len()).collect();
        let others = best(&thresholds, self.others.iter().map(|(_, w, f)| (*w, f)))
            .map_or(LearnedBlocks::default().threshold, |i| OTHERS[i]);
        let mut by_type = [others; PageType::ALL.len()];
        for t in PageType::ALL {
            let members = self.others.iter().filter(|(u, _, _)| *u == t);
            if let Some(i) = best(&thresholds, members.map(|(_, w, f)| (*w, f))) {
                by_type[t.index()] = OTHERS[i];
            }
        }
        Choice {
            gate: self.gate(articles, others),
            gate_by_type: self.gate(articles, by_type[PageType::Article.index()]),
            articles,
            capped,
            constrained,
            others,
            by_type,
        }
    }

    /// Of [`GATES`], the one under which the pages typed `article` score best when those less
    /// sure than it take threshold `other` and the others the article route `articles` (0,
    /// no gate, without article pages or when the route is not a candidate).
    fn gate(&self, articles: ArticleRoute, other: f32) -> f32 {
        let all = ANCHORS.len() * OUTSIDE.len() * CAPS.len();
        let (Some(a), Some(o)) = (
            (0..all).find(|&c| ArticleRoute::candidate(c) == articles),
            OTHERS.iter().position(|&t| t == other),
        ) else {
            return GATES[0];
        };
        let f1: Vec<Vec<f64>> = self
            .articles
            .iter()
            .zip(&self.article_gate)
            .map(|((_, article), (confidence, as_other))| {
                GATES
                    .iter()
                    .map(|&g| {
                        if *confidence < g {
                            as_other[o]
                        } else {
                            article[a]
                        }
                    })
                    .collect()
            })
            .collect();
        let gates: Vec<usize> = (0..GATES.len()).collect();
        best(&gates, self.articles.iter().map(|(w, _)| *w).zip(&f1)).map_or(GATES[0], |i| GATES[i])
    }

    /// Of the `candidates`, the one with the highest mean F1 on the article pages of datasets
    /// with page-type labels among those that keep every other dataset's article pages at or
    /// above Readability's mean F1 there; when none does, the one whose worst shortfall is
    /// least. Ties go to the earlier candidate; `None` without article pages.
    fn constrained(&self, candidates: &[usize]) -> Option<usize> {
        // Per other dataset: Readability's F1 summed, and each candidate's.
        let mut older: BTreeMap<usize, (f64, Vec<f64>)> = BTreeMap::new();
        let mut target = vec![0.0; candidates.len()];
        for ((_, f1), &(dataset, labelled, readability)) in
            self.articles.iter().zip(&self.article_context)
        {
            let sums = if labelled {
                &mut target
            } else {
                let entry = older
                    .entry(dataset)
                    .or_insert_with(|| (0.0, vec![0.0; candidates.len()]));
                entry.0 += readability;
                &mut entry.1
            };
            for (sum, &c) in sums.iter_mut().zip(candidates) {
                *sum += f1[c];
            }
        }
        let shortfall = |i: usize| {
            older
                .values()
                .map(|(base, sums)| base - sums[i])
                .fold(0.0f64, f64::max)
        };
        let feasible: Vec<usize> = (0..candidates.len())
            .filter(|&i| shortfall(i) <= 1e-9)
            .collect();
        let chosen = if feasible.is_empty() {
            (0..candidates.len()).reduce(|a, b| {
                if shortfall(b) < shortfall(a) - 1e-12 {
                    b
                } else {
                    a
                }
            })
        } else {
            feasible
                .into_iter()
                .reduce(|a, b| if target[b] > target[a] + 1e-12 { b } else { a })
        };
        chosen
            .filter(|_| !self.articles.is_empty())
            .map(|i| candidates[i])
    }
}

/// Of the `candidates` (indices into each page's F1), the one with the highest weighted sum
/// of F1 over `pages` (the earliest among equals); `None` without pages.
fn best<'a>(
    candidates: &[usize],
    pages: impl Iterator<Item = (f64, &'a Vec<f64>)>,
) -> Option<usize> {
    let mut sums = vec![0.0; candidates.len()];
    let mut any = false;
    for (weight, f1) in pages {
        any = true;
        for (sum, &c) in sums.iter_mut().zip(candidates) {
            *sum += weight * f1[c];
        }
    }
    let mut best = 0;
    for (i, &s) in sums.iter().enumerate() {
        if s > sums[best] + 1e-12 {
            best = i;
        }
    }
    any.then(|| candidates[best])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_candidate_weighs_pages_and_keeps_the_earliest_of_equals() {
        let (a, b) = (vec![0.5, 0.9, 0.9], vec![1.0, 0.0, 0.0]);
        // Weighted 1:1 the first candidate wins (1.5 against 0.9); weighted 1:0.1 the second
        // (0.95 against 0.6), not the third although it scores the same.
        assert_eq!(
            best(&[0, 1, 2], [(1.0, &a), (1.0, &b)].into_iter()),
            Some(0)
        );
        assert_eq!(
            best(&[0, 1, 2], [(1.0, &a), (0.1, &b)].into_iter()),
            Some(1)
        );
        assert_eq!(best(&[2, 1], [(1.0, &a), (0.1, &b)].into_iter()), Some(2));
        assert_eq!(best(&[0, 1], std::iter::empty()), None);
    }

    #[test]
    fn each_part_of_the_route_is_chosen_on_its_own_pages() {
        let n = ANCHORS.len() * OUTSIDE.len() * CAPS.len();
        // The best uncapped candidate: anchor 1, outside 2; a capped one scores higher still.
        let uncapped = (OUTSIDE.len() + 2) * CAPS.len() + CAPS.len() - 1;
        let mut article = vec![0.0; n];
        article[uncapped] = 0.8;
        article[1] = 0.9;
        let high = |at: usize| {
            let mut f1 = vec![0.0; OTHERS.len()];
            f1[at] = 1.0;
            f1
        };
        let choice = RouteScores {
            articles: vec![(1.0, article)],
            article_context: vec![(0, true, 0.5)],
            article_gate: vec![(0.9, vec![0.0; OTHERS.len()])],
            others: vec![
                (PageType::Forum, 1.0, high(0)),
                (PageType::Forum, 1.0, high(0)),
                (PageType::Listing, 1.0, high(4)),
            ],
        }
        .choose();
        let expected = LearnedBlocks {
            threshold: ANCHORS[1],
            threshold_outside_readability: OUTSIDE[2],
            relative_to_best: 0.0,
        };
        assert_eq!(choice.articles.blocks, expected);
        assert!(choice.articles.cap.is_infinite());
        assert_eq!(choice.capped, ArticleRoute::candidate(1));
        assert_eq!(choice.capped.cap, CAPS[1]);
        assert_eq!(choice.others, OTHERS[0]);
        assert_eq!(choice.by_type[PageType::Forum.index()], OTHERS[0]);
        assert_eq!(choice.by_type[PageType::Listing.index()], OTHERS[4]);
        // No product page: products take the single threshold.
        assert_eq!(choice.by_type[PageType::Product.index()], OTHERS[0]);
    }

    #[test]
    fn without_pages_the_defaults_stay() {
        let choice = RouteScores {
            articles: Vec::new(),
            article_context: Vec::new(),
            article_gate: Vec::new(),
            others: Vec::new(),
        }
        .choose();
        assert_eq!(choice.articles.blocks, LearnedBlocks::ARTICLES);
        assert_eq!(choice.others, LearnedBlocks::default().threshold);
        assert_eq!(choice.gate, GATES[0]);
    }

    #[test]
    fn unsure_articles_go_to_the_other_route_when_that_scores_better() {
        let n = ANCHORS.len() * OUTSIDE.len() * CAPS.len();
        let route = ArticleRoute::candidate(0);
        let other = OTHERS[3];
        let page = |article: f64, as_other: f64| {
            let mut f1 = vec![0.0; OTHERS.len()];
            f1[3] = as_other;
            let mut a = vec![0.0; n];
            a[0] = article;
            (a, f1)
        };
        // A sure article scores best on the article route, two unsure pages (listings taken
        // for articles) on the other one: the gate falls between their confidences.
        let pages = [
            (0.9, page(0.9, 0.5)),
            (0.45, page(0.2, 0.8)),
            (0.35, page(0.3, 0.6)),
        ];
        let scores = RouteScores {
            articles: pages.iter().map(|(_, (a, _))| (1.0, a.clone())).collect(),
            article_context: vec![(0, true, 0.5); 3],
            article_gate: pages.iter().map(|(c, (_, o))| (*c, o.clone())).collect(),
            others: Vec::new(),
        };
        assert_eq!(scores.gate(route, other), 0.5);
        // When the other route is worse for them too, no gate.
        let scores = RouteScores {
            article_gate: pages
                .iter()
                .map(|(c, _)| (*c, vec![0.0; OTHERS.len()]))
                .collect(),
            ..scores
        };
        assert_eq!(scores.gate(route, other), GATES[0]);
        let gated = Route {
            articles: route,
            others: [other; PageType::ALL.len()],
            gate: 0.5,
        };
        let sure = PageTypeGuess {
            page_type: PageType::Article,
            confidence: 0.8,
        };
        let unsure = PageTypeGuess {
            confidence: 0.45,
            ..sure
        };
        let p = Page {
            dataset: 0,
            id: "p".into(),
            group: "g".into(),
            page_type: "listing".into(),
            labelled_type: true,
            truth: String::new(),
            texts: vec!["an item".into(), "a menu".into()],
            elements: Vec::new(),
            rows: Vec::new(),
            labels: vec![true, false],
            readability: vec![false, true],
            guess: sure,
            held_out_type: Some(sure),
            type_row: Vec::new(),
            error_rule: None,
        };
        // Candidate 0 keeps Readability's blocks at 0.3 and the others at 0.4.
        assert_eq!(gated.verdicts(&p, &[0.32, 0.1], sure), [false, false]);
        assert_eq!(gated.verdicts(&p, &[0.32, 0.1], unsure), [true, false]);
    }

    #[test]
    fn a_cap_drops_additions_that_outweigh_the_article() {
        let route = ArticleRoute {
            blocks: LearnedBlocks {
                threshold: 0.35,
                threshold_outside_readability: 0.55,
                relative_to_best: 0.0,
            },
            cap: 1.0,
        };
        let p = [0.9, 0.6, 0.7, 0.2];
        let readability = [true, false, false, true];
        // 10 words kept, 5 + 4 added: within the cap.
        assert_eq!(
            route.verdicts(&p, &readability, &[10, 5, 4, 3]),
            [true, true, true, false]
        );
        // 10 words kept, 50 + 4 added: over it, so only Readability's blocks stay.
        assert_eq!(
            route.verdicts(&p, &readability, &[10, 50, 4, 3]),
            [true, false, false, false]
        );
        let uncapped = ArticleRoute {
            cap: f32::INFINITY,
            ..route
        };
        assert_eq!(
            uncapped.verdicts(&p, &readability, &[0, 50, 4, 3]),
            [true, true, true, false]
        );
    }

    #[test]
    fn the_constrained_choice_keeps_the_older_sets_at_readability() {
        let n = ANCHORS.len() * OUTSIDE.len() * CAPS.len();
        let page = |f1: &[(usize, f64)]| {
            let mut v = vec![0.0; n];
            for &(c, f) in f1 {
                v[c] = f;
            }
            v
        };
        let candidates = [0, 1, 2];
        // Candidate 0 is best on the labelled set but drops the older set below Readability
        // (0.9); candidate 1 keeps it; candidate 2 keeps it too but scores lower.
        let scores = RouteScores {
            articles: vec![
                (1.0, page(&[(0, 0.9), (1, 0.7), (2, 0.6)])),
                (1.0, page(&[(0, 0.8), (1, 0.95), (2, 0.9)])),
            ],
            article_context: vec![(0, true, 0.5), (1, false, 0.9)],
            article_gate: vec![(1.0, vec![0.0; OTHERS.len()]); 2],
            others: Vec::new(),
        };
        assert_eq!(scores.constrained(&candidates), Some(1));
        // When no candidate keeps it, the least shortfall wins.
        let scores = RouteScores {
            article_context: vec![(0, true, 0.5), (1, false, 0.99)],
            ..scores
        };
        assert_eq!(scores.constrained(&candidates), Some(1));
    }
}

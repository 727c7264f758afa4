//! The page-level judge of method `evidence`: per cross page, how far to trust the cross
//! against the single-page classifier.
//!
//! The diff proves things about runs: a run the cross marks unique to the page (and stable
//! across its captures) is the page's own; a run shared with the template's other pages is not.
//! What it cannot tell is whether the page's own text is its main content — a news page's
//! comments and teasers are its own too — nor whether the partners share the page's template
//! at all. The single-page classifier knows the page's layout but nothing of the site. The judge
//! reads what both say of the page ([`PageEvidence`]) and picks a [`Route`]:
//! - [`Route::Cross`]: the runs the patterns call content, `invalid` runs as the single-page
//!   classifier says;
//! - [`Route::Agree`]: the runs both the cross and the single-page classifier keep;
//! - [`Route::Single`]: the single-page classifier alone.
//!
//! It is a random forest per route, trained offline on pages with ground truth (`dbce train
//! --judge`) to tell whether the route is among the page's best; the route most likely so wins.
//! One case is decided before the forests: a page whose partners carry its text whole and which
//! has no other capture in its cross ([`PageEvidence::is_copy`]) goes to [`Route::Single`].
//! A route that yields no text never decides while another yields some ([`fallback_order`]).

use std::path::Path;

use dbce_annotate::{Bits, CrossRole, LabelledRun, PatternClass};
use dbce_classify::{PageType, PageTypeGuess};
use dbce_forest::{FeatureSchema, ForestError, ForestParams, RandomForest};
use serde::{Deserialize, Serialize};

use crate::model::{LoadError, ModelFileError, read_model};

/// How a page's text was decided: the route whose verdicts make its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// The diff's patterns (`invalid` runs resolved by the method).
    Cross,
    /// The runs both the cross and the single-page classifier keep.
    Agree,
    /// The run model trained on ground truth (method `model`).
    Learned,
    /// The per-site classifier of T003–T006 and `joint` over the patterns' runs.
    Site,
    /// The single-page classifier.
    Single,
    /// The page's densest block: every other route left the page empty.
    Densest,
    /// The page's type: an error page has no content.
    PageType,
}

impl Route {
    /// The routes the judge weighs, in the order ties are broken.
    pub const JUDGED: [Route; 3] = [Route::Cross, Route::Agree, Route::Single];

    /// The route's name in the JSONL output (`decided_by`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Cross => "cross",
            Self::Agree => "agree",
            Self::Learned => "learned",
            Self::Site => "site",
            Self::Single => "single",
            Self::Densest => "densest",
            Self::PageType => "page-type",
        }
    }
}

/// The routes to try, in order, when `chosen` yields no text: the others the judge weighs, then
/// the densest block.
pub fn fallback_order(chosen: Route) -> Vec<Route> {
    let mut order = vec![chosen];
    order.extend(Route::JUDGED.into_iter().filter(|&r| r != chosen));
    order.push(Route::Densest);
    order
}

/// The names of the values of a [`PageEvidence`] row, in order; a judge model records them and
/// is refused by a build whose rows differ.
pub const EVIDENCE_NAMES: [&str; 18] = [
    "log-words",
    "unique-share",
    "invalid-share",
    "single-share",
    "agree-share",
    "single-confirmed",
    "unique-confirmed",
    "shared-kept-share",
    "unique-linked-share",
    "similarity-up",
    "similarity-down",
    "has-down",
    "has-prev",
    "has-next",
    "log-unique-runs",
    "type-article",
    "type-index",
    "type-forum",
];

/// What the cross and the single-page classifier say of one page: the judge's input row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageEvidence(pub [f32; EVIDENCE_NAMES.len()]);

/// Where `unique-share`, `single-share`, `has-prev` and `has-next` are in a [`PageEvidence`].
const UNIQUE_SHARE: usize = 1;
const SINGLE_SHARE: usize = 3;
const HAS_PREV: usize = 12;
const HAS_NEXT: usize = 13;

/// Below this share of its words unique to it, a page without another capture in its cross is
/// a copy of its partners' text ([`PageEvidence::is_copy`]).
pub const COPY_UNIQUE_SHARE: f32 = 0.05;

impl PageEvidence {
    /// Whether the page is a copy of its partners' text: less than [`COPY_UNIQUE_SHARE`] of its
    /// words unique, no `prev` or `next` capture, and some text the single-page classifier keeps.
    /// Other URLs that carry the whole page are one story published twice (a syndicated
    /// article, a print view), not the template's other pages; what they share with it is its
    /// content as much as its template, so the diff cannot tell them apart and the single-page
    /// route decides. With other captures of the URL in the cross, the patterns already know
    /// what is stable there, and the judge weighs them as usual. Held out on the development
    /// sets it fires on a few pages, all of one story at several URLs (`docs/RESULTS.md`).
    pub fn is_copy(&self) -> bool {
        let e = &self.0;
        e[UNIQUE_SHARE] < COPY_UNIQUE_SHARE
            && e[SINGLE_SHARE] > 0.0
            && e[HAS_PREV] == 0.0
            && e[HAS_NEXT] == 0.0
    }

    /// The evidence of a cross page: `runs` classified by the patterns, `single[i]` whether the
    /// single-page classifier keeps run `i`'s block, `linked[i]` whether run `i` lies in a link,
    /// the cross's members, the similarity of `up` and `down`, and the page's type (the
    /// confidence of `article`, of an index — `listing` or `collection` — and of `forum`, each 0
    /// when the page is of another type).
    pub fn of(
        runs: &[LabelledRun],
        single: &[bool],
        linked: &[bool],
        cross: Bits,
        similarity: [f32; 2],
        page_type: PageTypeGuess,
    ) -> Self {
        let mut words = 0u32;
        let mut unique = 0u32;
        let mut invalid = 0u32;
        let mut kept = 0u32;
        let mut agree = 0u32;
        // Words the single-page classifier keeps although the diff finds them on the partners.
        let mut shared_kept = 0u32;
        let mut unique_linked = 0u32;
        let mut unique_runs = 0u32;
        for (i, run) in runs.iter().enumerate() {
            let w = run.run.words;
            words += w;
            match run.class {
                PatternClass::Content => {
                    unique += w;
                    unique_runs += 1;
                    if linked[i] {
                        unique_linked += w;
                    }
                    if single[i] {
                        agree += w;
                    }
                }
                PatternClass::Invalid => invalid += w,
                PatternClass::Boilerplate => {
                    if single[i] {
                        shared_kept += w;
                    }
                }
            }
            if single[i] {
                kept += w;
            }
        }
        let share = |a: u32, b: u32| if b == 0 { 0.0 } else { a as f32 / b as f32 };
        let flag = |role| f32::from(u8::from(cross.contains(role)));
        // The page type's confidence when it is one of `types`, else 0.
        let typed = |types: &[PageType]| {
            if types.contains(&page_type.page_type) {
                page_type.confidence
            } else {
                0.0
            }
        };
        Self([
            (1.0 + words as f32).ln(),
            share(unique, words),
            share(invalid, words),
            share(kept, words),
            share(agree, words),
            share(agree, kept),
            share(agree, unique),
            share(shared_kept, words),
            share(unique_linked, unique),
            similarity[0],
            similarity[1],
            flag(CrossRole::Down),
            flag(CrossRole::Prev),
            flag(CrossRole::Next),
            (1.0 + unique_runs as f32).ln(),
            typed(&[PageType::Article]),
            typed(&[PageType::Listing, PageType::Collection]),
            typed(&[PageType::Forum]),
        ])
    }
}

/// The trained judge: one forest per route of [`Route::JUDGED`], each telling whether its
/// route is among the page's best.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judge {
    /// [`EVIDENCE_NAMES`] as the model was trained on them.
    features: FeatureSchema,
    /// The routes, in the order of `forests`.
    routes: Vec<Route>,
    forests: Vec<RandomForest>,
}

/// The judge built into dbce: trained by `scripts/train-judge` on the development sets and
/// generated archives.
pub(crate) const BUILT_IN: &[u8] = include_bytes!("../models/judge.bin");

const KIND: &str = "judge";

impl Judge {
    fn check(&self) -> Result<(), ModelFileError> {
        self.features
            .check(&EVIDENCE_NAMES)
            .map_err(|source| ModelFileError::Schema { kind: KIND, source })?;
        let shape = |reason: String| ModelFileError::Shape { kind: KIND, reason };
        if self.routes != Route::JUDGED || self.forests.len() != self.routes.len() {
            return Err(shape(format!(
                "judges the routes {:?} with {} forests; this dbce weighs {:?}",
                self.routes,
                self.forests.len(),
                Route::JUDGED
            )));
        }
        if let Some(forest) = self
            .forests
            .iter()
            .find(|f| f.n_features() != EVIDENCE_NAMES.len())
        {
            return Err(shape(format!(
                "a forest reads {} values, not {}",
                forest.n_features(),
                EVIDENCE_NAMES.len()
            )));
        }
        Ok(())
    }

    /// Reads the judge at `path`, or the built-in one.
    ///
    /// # Errors
    /// When the file cannot be read or is not a judge this build can use.
    pub fn load(path: Option<&Path>) -> Result<Self, LoadError> {
        read_model(path, BUILT_IN, "(built-in judge)", Self::decode)
    }

    /// The judge in `bytes`.
    ///
    /// # Errors
    /// [`ModelFileError`]: not a judge, or one of other evidence or routes.
    pub fn decode(bytes: &[u8]) -> Result<Self, ModelFileError> {
        let judge: Self = postcard::from_bytes(bytes)
            .map_err(|source| ModelFileError::NotAModel { kind: KIND, source })?;
        judge.check()?;
        Ok(judge)
    }

    /// The bytes of the judge, as [`Judge::decode`] reads them.
    ///
    /// # Errors
    /// When it cannot be serialised.
    pub fn encode(&self) -> Result<Vec<u8>, ModelFileError> {
        postcard::to_allocvec(self).map_err(|source| ModelFileError::Encode { kind: KIND, source })
    }

    /// Each judged route's probability of being among the page's best.
    pub fn scores(&self, evidence: &PageEvidence) -> Vec<f32> {
        self.forests
            .iter()
            .map(|f| f.predict_proba(&evidence.0))
            .collect()
    }

    /// [`Route::Single`] for a copy of its partners' text ([`PageEvidence::is_copy`]), else
    /// the route most likely among the page's best (the first of equals).
    pub fn choose(&self, evidence: &PageEvidence) -> Route {
        if evidence.is_copy() {
            return Route::Single;
        }
        best_route(&self.scores(evidence))
    }
}

/// The route of [`Route::JUDGED`] with the highest score, the first of equals.
pub fn best_route(scores: &[f32]) -> Route {
    let mut best = 0;
    for (i, &s) in scores.iter().enumerate() {
        if s > scores[best] {
            best = i;
        }
    }
    Route::JUDGED[best]
}

/// A route counts as among a page's best when its F1 is at most this far below the best.
pub const NEAR_BEST: f64 = 0.01;

/// One training page of the judge: its evidence, the F1 of each judged route's text against
/// the page's ground truth, and its site.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeSample {
    /// What the judge reads.
    pub evidence: PageEvidence,
    /// F1 of each route of [`Route::JUDGED`], in that order.
    pub f1: [f64; 3],
    /// The page's site (as the pipeline groups pages), written with the sample so that an
    /// analysis can group validation by site; the judge does not read it.
    pub site: String,
}

impl JudgeSample {
    /// Whether route `r` (index into [`Route::JUDGED`]) is among the page's best.
    fn near_best(&self, r: usize) -> bool {
        let best = self.f1.iter().copied().fold(f64::MIN, f64::max);
        self.f1[r] >= best - NEAR_BEST
    }
}

/// A judge trained on `samples` with `params` (one forest per judged route).
///
/// # Errors
/// When a forest cannot be trained (no samples).
pub fn fit_judge(samples: &[&JudgeSample], params: &ForestParams) -> Result<Judge, ForestError> {
    let rows: Vec<f32> = samples.iter().flat_map(|s| s.evidence.0).collect();
    let forests = (0..Route::JUDGED.len())
        .map(|r| {
            let labels: Vec<bool> = samples.iter().map(|s| s.near_best(r)).collect();
            RandomForest::fit(&rows, EVIDENCE_NAMES.len(), &labels, params)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Judge {
        features: FeatureSchema::new(&EVIDENCE_NAMES),
        routes: Route::JUDGED.to_vec(),
        forests,
    })
}

/// Mean F1 of a group of pages under each way of choosing a route.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeScores {
    /// The group (a dataset, or a site profile of generated archives).
    pub group: String,
    /// Its pages.
    pub pages: usize,
    /// Each route of [`Route::JUDGED`] on every page.
    pub fixed: [f64; 3],
    /// The judge trained without the group's pages.
    pub held_out: f64,
    /// The judge trained on every page.
    pub in_sample: f64,
    /// The best route of each page.
    pub oracle: f64,
}

/// Leave-one-group-out validation: for each group (`groups[i]` is sample `i`'s) that `report`
/// accepts, a judge trained on the other groups chooses the routes of its pages; beside it,
/// `full` (the judge trained on every sample), each fixed route and the per-page oracle.
/// Groups in name order; the groups `report` refuses only train.
///
/// # Errors
/// When a judge cannot be trained.
pub fn validate_judge(
    samples: &[JudgeSample],
    groups: &[String],
    full: &Judge,
    params: &ForestParams,
    report: impl Fn(&str) -> bool,
) -> Result<Vec<JudgeScores>, ForestError> {
    let names: std::collections::BTreeSet<&String> = groups.iter().filter(|g| report(g)).collect();
    let mut out = Vec::new();
    for name in names {
        let (inside, rest): (Vec<usize>, Vec<usize>) =
            (0..samples.len()).partition(|&i| &groups[i] == name);
        let training: Vec<&JudgeSample> = rest.iter().map(|&i| &samples[i]).collect();
        let judge = if training.is_empty() {
            None
        } else {
            Some(fit_judge(&training, params)?)
        };
        let mean = |f: &dyn Fn(&JudgeSample) -> f64| {
            inside.iter().map(|&i| f(&samples[i])).sum::<f64>() / inside.len().max(1) as f64
        };
        let chosen = |judge: &Judge, s: &JudgeSample| {
            let route = judge.choose(&s.evidence);
            s.f1[Route::JUDGED.iter().position(|&r| r == route).unwrap_or(0)]
        };
        out.push(JudgeScores {
            group: name.clone(),
            pages: inside.len(),
            fixed: [0, 1, 2].map(|r| mean(&|s| s.f1[r])),
            held_out: judge.as_ref().map_or(f64::NAN, |j| mean(&|s| chosen(j, s))),
            in_sample: mean(&|s| chosen(full, s)),
            oracle: mean(&|s| s.f1.iter().copied().fold(f64::MIN, f64::max)),
        });
    }
    Ok(out)
}

/// `groups` (sample `i`'s is `groups[i]`) with each group that `split` names cut into `folds`
/// folds by the samples' sites (`"{group} site fold {k}"`, a site's pages in one fold, as
/// `dbce train-single-page` folds sites), for [`validate_judge`] to hold out new sites of a
/// known kind of page rather than a whole dataset.
pub fn site_fold_groups(
    samples: &[JudgeSample],
    groups: &[String],
    split: impl Fn(&str) -> bool,
    folds: u64,
) -> Vec<String> {
    samples
        .iter()
        .zip(groups)
        .map(|(sample, group)| {
            if split(group) && folds > 0 {
                let fold = crate::train::single_page::site_fold(&sample.site, folds);
                format!("{group} site fold {fold}")
            } else {
                group.clone()
            }
        })
        .collect()
}

/// The scores of [`validate_judge`] as a Markdown table: per group its pages, each fixed
/// route, the judge held out (bold), in sample, and the oracle.
pub fn scores_table(scores: &[JudgeScores]) -> String {
    let mut table = String::from(
        "| group | pages | cross | agree | single | judge, held out | judge, in-sample | oracle |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for s in scores {
        table.push_str(&format!(
            "| {} | {} | {:.3} | {:.3} | {:.3} | **{:.3}** | {:.3} | {:.3} |\n",
            s.group, s.pages, s.fixed[0], s.fixed[1], s.fixed[2], s.held_out, s.in_sample, s.oracle
        ));
    }
    table
}

/// Writes one JSON line per sample, for analysis: its group (`groups[i]` is sample `i`'s),
/// its site, its evidence by name and the F1 of each judged route.
///
/// # Errors
/// When `out` fails.
pub fn write_samples(
    samples: &[JudgeSample],
    groups: &[String],
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    for (sample, group) in samples.iter().zip(groups) {
        let evidence: serde_json::Map<String, serde_json::Value> = EVIDENCE_NAMES
            .iter()
            .zip(sample.evidence.0)
            .map(|(name, v)| ((*name).to_owned(), serde_json::json!(v)))
            .collect();
        let line = serde_json::json!({
            "group": group,
            "site": sample.site,
            "evidence": evidence,
            "f1": sample.f1,
        });
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Why a line of a samples file ([`write_samples`]) cannot be read back.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SamplesError {
    /// The file cannot be read.
    #[error("cannot read the samples")]
    Read(#[from] std::io::Error),
    /// A line is not a sample as [`write_samples`] writes one.
    #[error("line {line}: {reason}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

/// The samples and groups of a file [`write_samples`] wrote, in its order: its evidence by
/// name (every value of [`EVIDENCE_NAMES`], none other), so a file of other evidence is
/// refused rather than read into the wrong places.
///
/// # Errors
/// [`SamplesError`] for a file that cannot be read or a line that is not such a sample.
pub fn read_samples(
    input: impl std::io::BufRead,
) -> Result<(Vec<JudgeSample>, Vec<String>), SamplesError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Line {
        group: String,
        #[serde(default)]
        site: String,
        evidence: std::collections::BTreeMap<String, f32>,
        f1: [f64; 3],
    }
    let (mut samples, mut groups) = (Vec::new(), Vec::new());
    for (i, text) in input.lines().enumerate() {
        let text = text?;
        if text.trim().is_empty() {
            continue;
        }
        let bad = |reason: String| SamplesError::Line {
            line: i + 1,
            reason,
        };
        let line: Line = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if line.evidence.len() != EVIDENCE_NAMES.len() {
            return Err(bad(format!(
                "{} evidence values, not the {} this dbce reads",
                line.evidence.len(),
                EVIDENCE_NAMES.len()
            )));
        }
        let mut evidence = [0.0; EVIDENCE_NAMES.len()];
        for (value, name) in evidence.iter_mut().zip(EVIDENCE_NAMES) {
            *value = *line
                .evidence
                .get(name)
                .ok_or_else(|| bad(format!("no evidence value `{name}`")))?;
        }
        samples.push(JudgeSample {
            evidence: PageEvidence(evidence),
            f1: line.f1,
            site: line.site,
        });
        groups.push(line.group);
    }
    Ok((samples, groups))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbce_annotate::{Decision, Run};
    use dbce_dom::NodeId;

    fn run(words: u32, class: PatternClass) -> LabelledRun {
        LabelledRun {
            run: Run {
                first_token: 0,
                words,
                node: NodeId::new(1),
                start: 0,
                end: 0,
                bits: Bits::of(&[CrossRole::Cur]),
            },
            class,
            decision: Decision::Pattern,
        }
    }

    #[test]
    fn evidence_counts_words_by_what_each_side_says() {
        let runs = [
            run(6, PatternClass::Content),
            run(2, PatternClass::Content),
            run(8, PatternClass::Boilerplate),
            run(4, PatternClass::Invalid),
        ];
        let single = [true, false, true, false];
        let linked = [false, true, false, false];
        let cross = Bits::of(&[CrossRole::Cur, CrossRole::Up, CrossRole::Next]);
        let forum = PageTypeGuess {
            page_type: PageType::Forum,
            confidence: 0.75,
        };
        let e = PageEvidence::of(&runs, &single, &linked, cross, [0.8, 0.0], forum).0;
        assert!((e[0] - 21f32.ln()).abs() < 1e-6);
        assert_eq!(e[1], 8.0 / 20.0); // unique
        assert_eq!(e[2], 4.0 / 20.0); // invalid
        assert_eq!(e[3], 14.0 / 20.0); // single keeps runs 0 and 2
        assert_eq!(e[4], 6.0 / 20.0); // both keep run 0
        assert_eq!(e[5], 6.0 / 14.0);
        assert_eq!(e[6], 6.0 / 8.0);
        assert_eq!(e[7], 8.0 / 20.0); // single keeps run 2, which the partners share
        assert_eq!(e[8], 2.0 / 8.0);
        assert_eq!(&e[9..14], &[0.8, 0.0, 0.0, 0.0, 1.0]);
        assert!((e[14] - 3f32.ln()).abs() < 1e-6);
        assert_eq!(&e[15..], &[0.0, 0.0, 0.75]);
    }

    #[test]
    fn the_copy_test_reads_the_values_it_names() {
        for (at, name) in [
            (UNIQUE_SHARE, "unique-share"),
            (SINGLE_SHARE, "single-share"),
            (HAS_PREV, "has-prev"),
            (HAS_NEXT, "has-next"),
        ] {
            assert_eq!(EVIDENCE_NAMES[at], name);
        }
    }

    #[test]
    fn a_page_whose_partners_carry_its_text_whole_is_a_copy_unless_it_has_captures() {
        let judge = Judge::load(None).unwrap();
        // 300 words, the single-page route keeps 240, all of them on the partners too.
        let runs = [
            run(240, PatternClass::Boilerplate),
            run(60, PatternClass::Boilerplate),
        ];
        let single = [true, false];
        let article = PageTypeGuess {
            page_type: PageType::Article,
            confidence: 0.9,
        };
        let cross = |roles: &[CrossRole]| Bits::of(roles);
        let of = |roles: &[CrossRole]| {
            PageEvidence::of(
                &runs,
                &single,
                &[false; 2],
                cross(roles),
                [0.95, 1.0],
                article,
            )
        };
        let copy = of(&[CrossRole::Cur, CrossRole::Up, CrossRole::Down]);
        assert!(copy.is_copy());
        assert_eq!(judge.choose(&copy), Route::Single);
        // Another capture of the URL in the cross: the patterns know what is stable.
        assert!(
            !of(&[
                CrossRole::Cur,
                CrossRole::Up,
                CrossRole::Down,
                CrossRole::Next
            ])
            .is_copy()
        );
        // Five words in a hundred unique: not a copy.
        let mut some_unique = copy;
        some_unique.0[UNIQUE_SHARE] = COPY_UNIQUE_SHARE;
        assert!(!some_unique.is_copy());
        // Nothing the single-page route keeps: it has nothing to offer instead.
        let mut nothing_kept = copy;
        nothing_kept.0[SINGLE_SHARE] = 0.0;
        assert!(!nothing_kept.is_copy());
    }

    #[test]
    fn a_page_without_words_has_zero_shares() {
        let unsure = PageTypeGuess {
            page_type: PageType::Service,
            confidence: 0.4,
        };
        let e = PageEvidence::of(&[], &[], &[], Bits::of(&[CrossRole::Cur]), [0.0; 2], unsure).0;
        assert!(e.iter().all(|v| *v == 0.0));
    }

    #[test]
    fn fallbacks_try_every_judged_route_then_the_densest_block() {
        assert_eq!(
            fallback_order(Route::Agree),
            [Route::Agree, Route::Cross, Route::Single, Route::Densest]
        );
        assert_eq!(best_route(&[0.2, 0.7, 0.7]), Route::Agree);
        assert_eq!(best_route(&[0.5, 0.5, 0.5]), Route::Cross);
    }

    #[test]
    fn the_built_in_judge_reads_this_builds_evidence() {
        let judge = Judge::load(None).unwrap();
        let bytes = judge.encode().unwrap();
        assert_eq!(Judge::decode(&bytes).unwrap(), judge);
        assert!(Judge::decode(b"not a judge").is_err());
    }

    #[test]
    fn the_scores_table_has_a_row_per_group_with_the_held_out_judge_in_bold() {
        let scores = [JudgeScores {
            group: "news".into(),
            pages: 3,
            fixed: [0.5, 0.25, 0.125],
            held_out: 0.6,
            in_sample: 0.7,
            oracle: 0.9,
        }];
        let table = scores_table(&scores);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3, "{table}");
        assert!(lines[0].starts_with("| group | pages | cross |"));
        assert_eq!(
            lines[2],
            "| news | 3 | 0.500 | 0.250 | 0.125 | **0.600** | 0.700 | 0.900 |"
        );
    }

    #[test]
    fn samples_are_written_one_json_line_each_with_named_evidence() {
        let mut evidence = [0.0; EVIDENCE_NAMES.len()];
        evidence[3] = 0.5;
        let sample = JudgeSample {
            evidence: PageEvidence(evidence),
            f1: [0.1, 0.2, 0.25],
            site: "example.com".into(),
        };
        let mut out = Vec::new();
        write_samples(
            &[sample.clone(), sample],
            &["a".into(), "b".into()],
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1]["group"], "b");
        assert_eq!(lines[0]["evidence"][EVIDENCE_NAMES[3]], 0.5);
        assert_eq!(lines[0]["f1"][2], 0.25);
        assert_eq!(lines[0]["site"], "example.com");
    }

    #[test]
    fn site_folds_cut_the_named_groups_and_keep_a_site_together() {
        let sample = |site: &str| JudgeSample {
            evidence: PageEvidence([0.0; EVIDENCE_NAMES.len()]),
            f1: [0.0; 3],
            site: site.into(),
        };
        let samples: Vec<JudgeSample> = ["a.example", "b.example", "a.example", "c.example"]
            .into_iter()
            .map(sample)
            .collect();
        let groups: Vec<String> = ["news", "news", "news", "generated site x"]
            .map(str::to_owned)
            .to_vec();
        let folded = site_fold_groups(&samples, &groups, |g| g == "news", 2);
        assert!(folded[0].starts_with("news site fold "), "{folded:?}");
        assert_eq!(folded[0], folded[2], "one site, one fold");
        assert_eq!(folded[3], "generated site x");
        let folds: std::collections::BTreeSet<&String> = folded[..3].iter().collect();
        assert!(
            folds
                .iter()
                .all(|g| ["news site fold 0", "news site fold 1"].contains(&g.as_str()))
        );
        assert_eq!(site_fold_groups(&samples, &groups, |_| true, 0), groups);
    }

    #[test]
    fn samples_read_back_as_written() {
        let evidence = std::array::from_fn(|i| (i as f32 + 0.1) / 7.0);
        let samples = vec![
            JudgeSample {
                evidence: PageEvidence(evidence),
                f1: [0.1, 2.0 / 3.0, 0.25],
                site: "a.example".into(),
            },
            JudgeSample {
                evidence: PageEvidence([0.3; EVIDENCE_NAMES.len()]),
                f1: [0.0, 1.0, 0.5],
                site: String::new(),
            },
        ];
        let groups = vec!["a".to_owned(), "generated site x".to_owned()];
        let mut out = Vec::new();
        write_samples(&samples, &groups, &mut out).unwrap();
        let (read, read_groups) = read_samples(out.as_slice()).unwrap();
        assert_eq!(read, samples);
        assert_eq!(read_groups, groups);
        // Evidence of another build (a value renamed) is refused with its line.
        let text = String::from_utf8(out).unwrap();
        let renamed = text.replacen(EVIDENCE_NAMES[0], "something-else", 2);
        let err = read_samples(renamed.as_bytes()).unwrap_err();
        assert!(
            err.to_string().starts_with("line 1: no evidence value"),
            "{err}"
        );
        let short = text.replacen("\"f1\":[", "\"f1\":[0.5,", 1);
        assert!(matches!(
            read_samples(short.as_bytes()),
            Err(SamplesError::Line { line: 1, .. })
        ));
    }
}

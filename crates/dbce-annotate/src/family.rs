//! Partners of the page's own URL family: other pages of one paginated document.
//!
//! A forum thread spread over several pages repeats its first post on every page; an article
//! split over pages repeats its headline. When such a sibling page is `up` or `down` of the
//! page's cross, the patterns read the repeated text as shared with the template, which makes
//! it boilerplate. It is not: the only pages that carry it are the document's own pages. When
//! the cross also has a partner outside the family, that partner is the witness of what the
//! template shares; a run it does not carry is judged as if the family's pages did not have it
//! either ([`free_family_runs`]). Pages of one thread are each other's most similar pages, so
//! a cross whose partners are all of the page's family gets as `down` the most similar
//! candidate outside it ([`with_outside_witness`]).

use crate::annotation::{Decision, LabelledRun};
use crate::cross::{Cross, CrossCandidate};
use crate::pattern::{BitPattern, Bits, CrossRole, classify};

/// Query keys that only number the pages of one document (`?page=2`, `&start=20`).
const PAGE_KEYS: [&str; 5] = ["page", "paged", "pg", "start", "offset"];

/// A URL reduced to the document it is a page of: host without a leading `www.`, lowercased;
/// the path without a trailing slash and without a last segment that numbers the page
/// (`page-2`, `page2`, `page/2`); the query without keys that number the page. Pages 1, 2
/// and 3 of a thread share it; two threads do not.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UrlFamily(String);

impl UrlFamily {
    /// The family of `url`; a string that does not parse as a URL is its own family.
    pub fn of(url: &str) -> Self {
        let Ok(parsed) = url::Url::parse(url.trim()) else {
            return Self(url.trim().to_owned());
        };
        let host = parsed.host_str().unwrap_or_default().to_ascii_lowercase();
        let host = host.strip_prefix("www.").unwrap_or(&host);
        let mut segments: Vec<&str> = parsed.path().split('/').filter(|s| !s.is_empty()).collect();
        if let [.., before, last] = segments.as_slice()
            && before.eq_ignore_ascii_case("page")
            && is_number(last)
        {
            segments.truncate(segments.len() - 2);
        } else if segments.last().is_some_and(|last| numbers_a_page(last)) {
            segments.pop();
        }
        let query: Vec<String> = parsed
            .query_pairs()
            .filter(|(key, _)| !PAGE_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k)))
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        Self(format!("{host}/{}?{}", segments.join("/"), query.join("&")))
    }
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `page-2`, `page_2`, `page2` (any case).
fn numbers_a_page(segment: &str) -> bool {
    let lower = segment.to_ascii_lowercase();
    lower.strip_prefix("page").is_some_and(|rest| {
        let rest = rest
            .strip_prefix('-')
            .or_else(|| rest.strip_prefix('_'))
            .unwrap_or(rest);
        is_number(rest)
    })
}

/// `cross` (chosen by [`crate::select_cross`] for `cur` among `candidates`) with a witness
/// outside the page's URL family: when `up` and `down` (if any) are both of the family
/// (`in_family`), `down` becomes the most similar candidate that is not (ties by the smaller
/// id), with a URL key and payload other than `cur`'s and `up`'s. Otherwise, or when no
/// candidate is outside the family, `cross` is returned as it is.
pub fn with_outside_witness<Id: Copy + Ord>(
    cross: Cross<Id>,
    cur: &CrossCandidate<Id>,
    candidates: &[CrossCandidate<Id>],
    in_family: impl Fn(&CrossCandidate<Id>) -> bool,
) -> Cross<Id> {
    let find = |id: Id| candidates.iter().find(|c| c.page == id);
    let Some(up) = find(cross.up) else {
        return cross;
    };
    let down_inside = cross.down.and_then(find).is_none_or(&in_family);
    if !in_family(up) || !down_inside {
        return cross;
    }
    let witness = candidates
        .iter()
        .filter(|c| c.page != cur.page && c.payload != cur.payload && c.url != cur.url)
        .filter(|c| c.url != up.url && c.payload != up.payload && !in_family(c))
        .min_by(|a, b| {
            b.similarity
                .total_cmp(&a.similarity)
                .then(a.page.cmp(&b.page))
        });
    match witness {
        Some(w) => Cross {
            down: Some(w.page),
            ..cross
        },
        None => cross,
    }
}

/// Reclassifies the runs of a page whose cross has the members `cross`, of which the partners
/// in `family` (`up`, `down` or both) are pages of the page's own URL family. Applies only
/// when the cross has a partner (`up` or `down`) outside the family, and only to runs decided by
/// the patterns that occur in a family partner but in no partner outside it: such a run's
/// class is looked up again as if the family partners did not carry it (`Decision::Family`).
/// Returns how many runs changed class.
pub fn free_family_runs(runs: &mut [LabelledRun], cross: Bits, family: Bits) -> usize {
    let partners = [CrossRole::Up, CrossRole::Down];
    let outside: Vec<CrossRole> = partners
        .into_iter()
        .filter(|&r| cross.contains(r) && !family.contains(r))
        .collect();
    let inside: Vec<CrossRole> = partners
        .into_iter()
        .filter(|&r| cross.contains(r) && family.contains(r))
        .collect();
    if outside.is_empty() || inside.is_empty() {
        return 0;
    }
    let mut changed = 0;
    for run in runs.iter_mut() {
        let bits = run.run.bits;
        if run.decision != Decision::Pattern
            || outside.iter().any(|&r| bits.contains(r))
            || !inside.iter().any(|&r| bits.contains(r))
        {
            continue;
        }
        let freed = CrossRole::ALL
            .into_iter()
            .filter(|&r| bits.contains(r) && !inside.contains(&r))
            .fold(Bits::default(), Bits::with);
        let class = classify(BitPattern { cross, run: freed });
        if class != run.class {
            run.class = class;
            run.decision = Decision::Family;
            changed += 1;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PatternClass, Run};
    use CrossRole::{Cur, Down, Next, Prev, Up};
    use dbce_dom::NodeId;

    #[test]
    fn pages_of_one_document_share_a_family() {
        let family = |u| UrlFamily::of(u);
        let first = family("https://www.forum.example/t/5003-a-thread/");
        for other in [
            "https://forum.example/t/5003-a-thread/page-2/",
            "https://forum.example/t/5003-a-thread/page/3",
            "http://forum.example/t/5003-a-thread/Page4",
            "https://forum.example/t/5003-a-thread?page=2",
        ] {
            assert_eq!(family(other), first, "{other}");
        }
        assert_eq!(
            family("https://a.example/viewtopic.php?t=7&start=15"),
            family("https://a.example/viewtopic.php?t=7")
        );
        for other in [
            "https://forum.example/t/5004-another/page-2/",
            "https://forum.example/t/5003-a-thread/replies/",
            "https://forum.example/t/page-2/",
        ] {
            assert_ne!(family(other), first, "{other}");
        }
        assert_ne!(
            family("https://a.example/viewtopic.php?t=8&start=15"),
            family("https://a.example/viewtopic.php?t=7")
        );
        assert_eq!(family("not a url"), family("not a url"));
    }

    fn candidate(page: u32, url: &str, similarity: f64) -> CrossCandidate<u32> {
        let mut payload = [0; 20];
        payload[..4].copy_from_slice(&page.to_be_bytes());
        CrossCandidate {
            page,
            url: crate::UrlKey::of(url),
            captured: 0,
            payload,
            similarity,
        }
    }

    #[test]
    fn a_cross_of_one_thread_gets_a_witness_from_outside() {
        let thread = "https://f.example/t/1-a/";
        let cur = candidate(0, "https://f.example/t/1-a/page-2/", 1.0);
        let candidates = vec![
            candidate(1, thread, 0.9),
            candidate(2, "https://f.example/t/1-a/page-3/", 0.8),
            candidate(3, "https://f.example/t/2-b/", 0.5),
            candidate(4, "https://f.example/t/3-c/", 0.6),
        ];
        // Pages 0, 1 and 2 are the thread's.
        let in_family = |c: &CrossCandidate<u32>| c.page <= 2;
        let cross = crate::select_cross(&cur, &candidates).unwrap();
        assert_eq!((cross.up, cross.down), (1, Some(2)));
        let cross = with_outside_witness(cross, &cur, &candidates, in_family);
        assert_eq!((cross.up, cross.down), (1, Some(4)));
        // A cross that has a partner outside already keeps it.
        let outside = Cross {
            down: Some(3),
            ..cross
        };
        assert_eq!(
            with_outside_witness(outside, &cur, &candidates, in_family),
            outside
        );
    }

    fn run(bits: &[CrossRole], cross: Bits) -> LabelledRun {
        let run = Run {
            node: NodeId::ROOT,
            start: 0,
            end: 1,
            first_token: 0,
            words: 1,
            bits: Bits::of(bits),
        };
        LabelledRun {
            run,
            class: classify(BitPattern {
                cross,
                run: run.bits,
            }),
            decision: Decision::Pattern,
        }
    }

    #[test]
    fn text_only_the_documents_other_pages_carry_is_content() {
        // Page 2 of a thread: `up` is page 1 of the thread, `down` another thread.
        let cross = Bits::of(&[Cur, Up, Down]);
        let family = Bits::of(&[Up]);
        let mut runs = vec![
            run(&[Cur, Up], cross),       // the first post, repeated on page 1
            run(&[Cur, Up, Down], cross), // the template
            run(&[Cur], cross),           // this page's replies
            run(&[Cur, Down], cross),     // shared with another thread only
        ];
        let before: Vec<PatternClass> = runs.iter().map(|r| r.class).collect();
        assert_eq!(
            before,
            [
                PatternClass::Boilerplate,
                PatternClass::Boilerplate,
                PatternClass::Content,
                PatternClass::Boilerplate
            ]
        );
        assert_eq!(free_family_runs(&mut runs, cross, family), 1);
        assert_eq!(runs[0].class, PatternClass::Content);
        assert_eq!(runs[0].decision, Decision::Family);
        assert_eq!(runs[1].class, PatternClass::Boilerplate);
        assert_eq!(runs[3].class, PatternClass::Boilerplate);
        assert_eq!(runs[3].decision, Decision::Pattern);
    }

    #[test]
    fn captures_still_count_and_no_outside_witness_changes_nothing() {
        // With captures: the first post is in `prev` and `next` too; Appendix B lists no
        // class for it with `down`, and names it content without.
        let cross = Bits::of(&[Cur, Up, Down, Prev, Next]);
        let mut runs = vec![run(&[Cur, Down, Prev, Next], cross)];
        assert_eq!(runs[0].class, PatternClass::Invalid);
        assert_eq!(free_family_runs(&mut runs, cross, Bits::of(&[Down])), 1);
        assert_eq!(runs[0].class, PatternClass::Content);
        // Both partners are pages of the document: nothing tells its text from the template.
        let cross = Bits::of(&[Cur, Up, Down]);
        let mut runs = vec![run(&[Cur, Up], cross), run(&[Cur, Up, Down], cross)];
        assert_eq!(free_family_runs(&mut runs, cross, Bits::of(&[Up, Down])), 0);
        // No partner of the family: nothing to free.
        assert_eq!(free_family_runs(&mut runs, cross, Bits::default()), 0);
        assert!(runs.iter().all(|r| r.class == PatternClass::Boilerplate));
    }
}

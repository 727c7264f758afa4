//! Partners of the page's own URL family: other pages of one paginated document.
//!
//! A forum thread spread over several pages repeats its first post on every page; an article
//! split over pages repeats its headline. When such a sibling page is `up` or `down` of the
//! page's cross, the patterns read the repeated text as shared with the template, which makes
//! it boilerplate. It is not: the only pages that carry it are the document's own pages. When
//! the cross also has a partner outside the family, that partner is the witness of what the
//! template shares; a run it does not carry is judged as if the family's pages did not have it
//! either ([`free_family_runs`]).

use crate::annotation::{Decision, LabelledRun};
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

//! Teasers on listing pages: a linked headline and its summary.
//!
//! A listing page (a section front, a category, a blog index) shows for each item a headline
//! linking to a page of the site and a summary. The headline is also on the home page, on
//! other listings and in "most read" boxes, so the partners carry it and the patterns call it
//! boilerplate; the summary is often on this listing only, and the patterns call it content.
//! The pair is one item: when the cross says the summary is the page's own, the headline that
//! introduces it is too ([`keep_teaser_headlines`]).

use dbce_dom::{Document, NodeId, NodeRef};

use crate::annotation::{Decision, LabelledRun};
use crate::pattern::{CrossRole, PatternClass};

/// Fewest words of a summary: shorter unlinked text (a date, a "by" line) does not vouch for
/// the headline.
const SUMMARY_WORDS: u32 = 6;
/// How far above the link the item may end: the link's parent, grandparent or great-grandparent.
const ITEM_LEVELS: usize = 3;

/// Makes content the headline runs of teasers whose summary the cross keeps. A run qualifies
/// when the patterns made it boilerplate or `invalid` because a partner (`up` or `down`)
/// carries it, it lies in a link to a page of the same host as `page_url` (or a relative link)
/// that does not sit in running text (no other text beside it in its parent element), and the
/// smallest element around the link (at most [`ITEM_LEVELS`] up) that holds other text is one
/// teaser (no link in it goes elsewhere) with a summary: a run of at least [`SUMMARY_WORDS`]
/// words outside every link that no partner carries and the patterns do not make boilerplate.
/// Returns how many runs changed.
pub fn keep_teaser_headlines(doc: &Document, page_url: &str, runs: &mut [LabelledRun]) -> usize {
    let base = url::Url::parse(page_url).ok();
    let host = base.as_ref().and_then(|u| u.host_str().map(site_host));
    let nodes: Vec<NodeId> = runs.iter().map(|r| r.run.node).collect();
    let linked: Vec<bool> = nodes
        .iter()
        .map(|&id| enclosing_link(doc, id).is_some())
        .collect();
    let shared = |run: &LabelledRun| {
        [CrossRole::Up, CrossRole::Down]
            .into_iter()
            .any(|r| run.run.bits.contains(r))
    };
    let summary: Vec<bool> = runs
        .iter()
        .zip(&linked)
        .map(|(r, &linked)| {
            !linked
                && !shared(r)
                && r.class != PatternClass::Boilerplate
                && r.run.words >= SUMMARY_WORDS
        })
        .collect();
    let mut promote = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        if run.class == PatternClass::Content
            || !matches!(run.decision, Decision::Pattern | Decision::Family)
            || !shared(run)
        {
            continue;
        }
        let Some(link) = enclosing_link(doc, nodes[i]) else {
            continue;
        };
        let same_site =
            link.attr("href")
                .is_some_and(|href| match (base.as_ref(), host.as_deref()) {
                    (Some(base), Some(host)) => base
                        .join(href)
                        .ok()
                        .and_then(|target| target.host_str().map(site_host))
                        .is_some_and(|target| target == host),
                    _ => false,
                });
        if !same_site {
            continue;
        }
        let inside_link = range(link);
        // A link inside running text (a paragraph's words around it) is no headline.
        let parent = link.parent().map(NodeRef::id);
        let inline = link.parent().is_some_and(|p| {
            runs_in(&nodes, range(p)).any(|j| {
                !inside_link.contains(&nodes[j].get())
                    && doc.get(nodes[j]).and_then(NodeRef::parent).map(NodeRef::id) == parent
            })
        });
        if inline {
            continue;
        }
        for item in link.ancestors().take(ITEM_LEVELS) {
            let inside_item = range(item);
            let others: Vec<usize> = runs_in(&nodes, inside_item)
                .filter(|&j| !inside_link.contains(&nodes[j].get()))
                .collect();
            if others.is_empty() {
                continue;
            }
            // One teaser per item: any other link in it goes where the headline goes ("read
            // more").
            let one_teaser = others.iter().all(|&j| {
                enclosing_link(doc, nodes[j])
                    .is_none_or(|other| other.attr("href") == link.attr("href"))
            });
            if one_teaser && others.iter().any(|&j| summary[j]) {
                promote.push(i);
            }
            break;
        }
    }
    for &i in &promote {
        runs[i].class = PatternClass::Content;
        runs[i].decision = Decision::Teaser;
    }
    promote.len()
}

/// A host without a leading `www.`, lowercased.
fn site_host(host: &str) -> String {
    let host = host.to_ascii_lowercase();
    host.strip_prefix("www.")
        .map_or(host.clone(), str::to_owned)
}

/// The nearest `<a href>` around node `id`.
fn enclosing_link(doc: &Document, id: NodeId) -> Option<NodeRef<'_>> {
    doc.get(id)?
        .ancestors()
        .find(|a| a.is_element("a") && a.attr("href").is_some())
}

/// The ids of `node` and everything inside it.
fn range(node: NodeRef<'_>) -> std::ops::Range<u32> {
    node.id().get()..node.end()
}

/// The runs (indices) whose text node lies in `ids`; `nodes` is in document order.
fn runs_in(nodes: &[NodeId], ids: std::ops::Range<u32>) -> impl Iterator<Item = usize> + '_ {
    let from = nodes.partition_point(|n| n.get() < ids.start);
    let to = nodes.partition_point(|n| n.get() < ids.end);
    from..to
}

#[cfg(test)]
mod tests {
    use dbce_dom::SanitizeConfig;

    use super::*;
    use crate::pattern::{BitPattern, Bits, classify};
    use crate::{PageTokens, annotate};

    /// The page's runs classified against one partner (`up`) whose text is `partner`.
    fn classified(page: &str, partner: &str) -> (Document, Vec<LabelledRun>) {
        let config = SanitizeConfig::default();
        let doc = Document::parse(page, &config).unwrap();
        let other = Document::parse(partner, &config).unwrap();
        let (tokens, other) = (PageTokens::read(&doc), PageTokens::read(&other));
        let runs = annotate(&tokens, &[(CrossRole::Up, &other.words)]);
        let cross = Bits::of(&[CrossRole::Cur, CrossRole::Up]);
        let runs = crate::classify_runs(&runs, cross, crate::InvalidMode::Keep);
        for run in &runs {
            assert_eq!(
                run.class,
                classify(BitPattern {
                    cross,
                    run: run.run.bits
                })
            );
        }
        (doc, runs)
    }

    fn text_of(doc: &Document, run: &LabelledRun) -> String {
        run.run.text(doc).to_owned()
    }

    #[test]
    fn a_shared_headline_whose_summary_is_unique_is_content() {
        let page = r#"<html><body><ul>
            <li><h3><a href="/news/harbour-bridge">Harbour bridge reopens after repairs</a></h3>
                <p>The city council confirmed that traffic returns on Monday morning.</p></li>
            <li><h3><a href="https://elsewhere.example/x">Elsewhere story reopens after repairs</a></h3>
                <p>Another summary that only this page shows to its many readers.</p></li>
            <li><p>Running text around <a href="/news/inline">a shared inline link to the site</a>
                that this page alone writes, with many words.</p></li>
            </ul><aside><a href="/news/most-read">Most read headline of the week</a></aside>
            </body></html>"#;
        let partner = r#"<html><body><a href="/news/harbour-bridge">Harbour bridge reopens after repairs</a>
            <a href="https://elsewhere.example/x">Elsewhere story reopens after repairs</a>
            <a href="/news/inline">a shared inline link to the site</a>
            <a href="/news/most-read">Most read headline of the week</a></body></html>"#;
        let (doc, mut runs) = classified(page, partner);
        let changed = keep_teaser_headlines(&doc, "https://www.city.example/news/", &mut runs);
        let promoted: Vec<String> = runs
            .iter()
            .filter(|r| r.decision == Decision::Teaser)
            .map(|r| text_of(&doc, r))
            .collect();
        assert_eq!(changed, promoted.len());
        assert_eq!(promoted.join(" "), "Harbour bridge reopens after repairs");
        let content: Vec<String> = runs
            .iter()
            .filter(|r| r.class == PatternClass::Content)
            .map(|r| text_of(&doc, r))
            .collect();
        assert!(content.iter().any(|t| t.starts_with("Harbour bridge")));
        // A link to another site, and a teaser without a summary, stay boilerplate.
        assert!(!content.iter().any(|t| t.starts_with("Elsewhere")));
        assert!(!content.iter().any(|t| t.starts_with("Most read")));
        assert!(
            !content
                .iter()
                .any(|t| t.starts_with("a shared inline link"))
        );
        let teaser = runs
            .iter()
            .find(|r| text_of(&doc, r).starts_with("Harbour"));
        assert_eq!(teaser.map(|r| r.decision), Some(Decision::Teaser));
    }
}

//! readability-lxml 0.9's choices around the best candidate: an `<article>` scored by its list
//! items when the best candidate lies in a form, aside or nav (`get_semantic_article_candidate`),
//! the other segments of an article split over several containers
//! (`merge_article_segments`, with the quote leads before them), and the editorial leads
//! (standfirst, dek, subtitle…) before the best candidate in its `<article>` or `<main>`
//! (`get_editorial_leads`).

use std::collections::BTreeSet;

use super::page::{NONE, Page, Tag, is_positive};
use super::tree::Tree;

/// Subtrees readability-lxml moves into the best candidate.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Moved {
    /// Moved to its start, in order.
    pub(super) front: Vec<u32>,
    /// Moved to its end, in order.
    pub(super) back: Vec<u32>,
}

/// The element's classes.
fn classes<'a>(page: &Page<'a>, i: u32) -> impl Iterator<Item = &'a str> {
    page.node(i)
        .and_then(|n| n.attr("class"))
        .unwrap_or_default()
        .split_whitespace()
}

/// The tag name as the transformed tree has it: `p` for a `<div>` read as a paragraph.
fn name<'a>(page: &Page<'a>, tree: &Tree, i: u32) -> &'a str {
    if tree.converted[i as usize] {
        "p"
    } else {
        page.node(i).and_then(|n| n.name()).unwrap_or_default()
    }
}

/// `a` is a proper ancestor of `d`.
fn contains(page: &Page<'_>, a: u32, d: u32) -> bool {
    a < d && d < page.nodes[a as usize].end
}

/// `get_semantic_article_candidate`: when `best` is or lies in a `<form>`, `<aside>` or `<nav>`,
/// the `<article>` outside those with the highest score by its list items (each `<li>` without
/// nested items, with `min_len` characters or more and few links, scores like a paragraph),
/// if that beats the best; its score is set in `scores`.
pub(super) fn semantic_article(
    page: &Page<'_>,
    tree: &Tree,
    scores: &mut [f64],
    best: u32,
    min_len: u32,
) -> u32 {
    if !page.nodes[best as usize].in_form_aside_nav {
        return best;
    }
    let n = page.len();
    // Prefix sums over ids of the qualifying items' points and counts.
    let mut points = vec![0.0f64; n + 1];
    let mut items = vec![0u32; n + 1];
    for i in 0..n {
        let s = tree.stats[i];
        let item = !tree.removed[i]
            && page.nodes[i].tag == Tag::Li
            && s.li == 1
            && s.len >= min_len
            && s.link_density() <= 0.25;
        let (pt, c) = if item {
            let p = 2.0 + f64::from(s.commas) + (f64::from(s.len) / 100.0).min(3.0);
            (p, 1)
        } else {
            (0.0, 0)
        };
        points[i + 1] = points[i] + pt;
        items[i + 1] = items[i] + c;
    }
    let mut found: Option<(u32, f64)> = None;
    for i in 0..n {
        let info = &page.nodes[i];
        if tree.removed[i] || info.tag != Tag::Article || info.in_form_aside_nav {
            continue;
        }
        let ld = tree.stats[i].link_density();
        let end = info.end as usize;
        if ld > 0.25 || items[end] == items[i] {
            continue;
        }
        let score =
            (f64::from(info.class_weight + info.tag_weight) + points[end] - points[i]) * (1.0 - ld);
        if found.is_none_or(|(_, s)| score > s) {
            found = u32::try_from(i).ok().map(|a| (a, score));
        }
    }
    match found {
        Some((a, score)) if score > scores[best as usize] => {
            scores[a as usize] = score;
            a
        }
        _ => best,
    }
}

/// `merge_article_segments`: candidates elsewhere in the best candidate's `<article>` or
/// `<main>` (or, without one, its nearest positive ancestor holding such a candidate) that
/// look like it — same tag, sharing its positive class, or its exact classes in an
/// `<article>`, or classless `<article>`s in containers sharing a class — with few links, and
/// the quote leads before those holding a `<blockquote>`.
pub(super) fn merge_segments(
    page: &Page<'_>,
    tree: &Tree,
    scores: &[f64],
    best: u32,
    threshold: f64,
    min_len: u32,
) -> Moved {
    let mut moved = Moved::default();
    let best_classes: BTreeSet<&str> = classes(page, best).collect();
    let content: BTreeSet<&str> = best_classes
        .iter()
        .copied()
        .filter(|c| is_positive(c))
        .collect();
    let best_article = page.nodes[best as usize].tag == Tag::Article;
    let ancestors =
        || std::iter::successors(page.element_parent(best), |&a| page.element_parent(a));
    let mut frame =
        ancestors().find(|&a| matches!(page.nodes[a as usize].tag, Tag::Article | Tag::Main));
    let neutral = content.is_empty()
        && !best_article
        && !best_classes.is_empty()
        && frame.is_some_and(|f| page.nodes[f as usize].tag == Tag::Article);
    if content.is_empty() && !best_article && !neutral {
        return moved;
    }
    let segment_threshold = if neutral {
        10f64.max(scores[best as usize] * 0.05)
    } else {
        threshold
    };
    let best_parent = page.element_parent(best);
    let parent_classes: BTreeSet<&str> = best_parent
        .map(|p| classes(page, p).collect())
        .unwrap_or_default();
    let best_name = name(page, tree, best);
    let matches = |e: u32| -> bool {
        let ei = e as usize;
        if e == best || tree.removed[ei] || scores[ei].is_nan() {
            return false;
        }
        let classless_article = content.is_empty() && page.nodes[ei].tag == Tag::Article;
        if scores[ei] < segment_threshold && !classless_article {
            return false;
        }
        let parent = page.element_parent(e);
        if parent == best_parent || name(page, tree, e) != best_name {
            return false;
        }
        if !content.is_empty() && !classes(page, e).any(|c| content.contains(c)) {
            return false;
        }
        if neutral && classes(page, e).collect::<BTreeSet<_>>() != best_classes {
            return false;
        }
        if classless_article
            && !parent.is_some_and(|p| classes(page, p).any(|c| parent_classes.contains(c)))
        {
            return false;
        }
        tree.stats[ei].link_density() <= 0.2 && !contains(page, e, best) && !contains(page, best, e)
    };
    if frame.is_none() {
        let matching: Vec<u32> = (0..page.len())
            .filter_map(|i| u32::try_from(i).ok())
            .filter(|&i| matches(i))
            .collect();
        frame = ancestors().find(|&a| {
            let node = page.node(a);
            let class = node.and_then(|n| n.attr("class")).unwrap_or_default();
            let id = if Some(a) == page.body {
                "readabilityBody"
            } else {
                node.and_then(|n| n.attr("id")).unwrap_or_default()
            };
            let first_after = matching.partition_point(|&c| c <= a);
            is_positive(&format!("{class} {id}"))
                && matching
                    .get(first_after)
                    .is_some_and(|&c| contains(page, a, c))
        });
    }
    let Some(frame) = frame else {
        return moved;
    };
    let mut last_chars: Option<Vec<Option<char>>> = None;
    let mut selected: BTreeSet<u32> = BTreeSet::new();
    let mut after_best = false;
    let end = page.nodes[frame as usize].end;
    let mut e = frame + 1;
    while e < end {
        let ei = e as usize;
        if tree.removed[ei] {
            e = page.nodes[ei].end;
            continue;
        }
        if e == best {
            after_best = true;
            e += 1;
            continue;
        }
        if page.nodes[ei].tag == Tag::Text || !matches(e) {
            e += 1;
            continue;
        }
        let lead = quote_lead(page, tree, e, min_len, &mut last_chars);
        let list = if after_best {
            &mut moved.back
        } else {
            &mut moved.front
        };
        for m in lead.into_iter().chain(Some(e)) {
            if selected.insert(m) {
                list.push(m);
            }
        }
        // Everything inside a selected segment goes with it.
        e = page.nodes[ei].end;
    }
    moved
}

/// `get_quote_lead`: for a segment holding a `<blockquote>`, the element before it (or before
/// its parent), outside asides and navs, whose text has `min_len` characters or more and ends
/// in a colon.
fn quote_lead(
    page: &Page<'_>,
    tree: &Tree,
    e: u32,
    min_len: u32,
    last_chars: &mut Option<Vec<Option<char>>>,
) -> Option<u32> {
    let own = u32::from(page.nodes[e as usize].tag == Tag::Blockquote);
    if tree.stats[e as usize].blockquote <= own {
        return None;
    }
    let last_chars = last_chars.get_or_insert_with(|| last_characters(page, tree));
    for container in std::iter::once(e).chain(page.element_parent(e)) {
        let Some(lead) = previous_element(page, tree, container) else {
            continue;
        };
        let li = lead as usize;
        if page.nodes[li].in_aside_nav {
            continue;
        }
        if tree.stats[li].len >= min_len && last_chars[li] == Some(':') {
            return Some(lead);
        }
    }
    None
}

/// The element sibling before `i`, removed ones left out.
fn previous_element(page: &Page<'_>, tree: &Tree, i: u32) -> Option<u32> {
    page.node(i)?
        .parent()?
        .children()
        .map(|c| c.id().get())
        .take_while(|&c| c != i)
        .filter(|&c| !tree.removed[c as usize] && page.nodes[c as usize].tag != Tag::Text)
        .last()
}

/// The last non-blank character of each subtree's text, removed nodes left out.
fn last_characters(page: &Page<'_>, tree: &Tree) -> Vec<Option<char>> {
    let n = page.len();
    let mut last = vec![None; n];
    for i in (0..n).rev() {
        if tree.removed[i] {
            continue;
        }
        if page.nodes[i].tag == Tag::Text {
            let id = u32::try_from(i).unwrap_or(NONE);
            last[i] = page.text(id).trim_end().chars().next_back();
        }
        let parent = page.nodes[i].parent as usize;
        if parent < n && last[parent].is_none() {
            last[parent] = last[i];
        }
    }
    last
}

/// Whether `class id` has an editorial-lead word (`editorialLeadRe`): "subhead",
/// "story lead" (any of space, `_`, `-` between, or nothing), "standfirst", "dek" or
/// "subtitle", delimited by the ends, whitespace, `_` or `-`.
pub(super) fn is_editorial_lead(features: &str) -> bool {
    let text = features.to_ascii_lowercase();
    let bytes = text.as_bytes();
    let delimiter = |b: u8| b.is_ascii_whitespace() || b == b'_' || b == b'-';
    (0..bytes.len()).any(|start| {
        if start > 0 && !delimiter(bytes[start - 1]) {
            return false;
        }
        let rest = &bytes[start..];
        let word_end = ["subhead", "standfirst", "dek", "subtitle"]
            .iter()
            .find(|w| rest.starts_with(w.as_bytes()))
            .map(|w| start + w.len())
            .or_else(|| {
                let after = rest.strip_prefix(b"story")?;
                let gap = after.iter().take_while(|&&b| delimiter(b)).count();
                after[gap..]
                    .starts_with(b"lead")
                    .then_some(start + 5 + gap + 4)
            });
        word_end.is_some_and(|e| e == bytes.len() || delimiter(bytes[e]))
    })
}

/// `get_editorial_leads`: the elements before the best candidate in its `<article>` or
/// `<main>`, outside its ancestors and the moved segments, whose class or id names an
/// editorial lead and that have few links; the outermost of nested ones.
pub(super) fn editorial_leads(page: &Page<'_>, tree: &Tree, best: u32, moved: &Moved) -> Vec<u32> {
    let Some(frame) = std::iter::successors(page.element_parent(best), |&a| page.element_parent(a))
        .find(|&a| matches!(page.nodes[a as usize].tag, Tag::Article | Tag::Main))
    else {
        return Vec::new();
    };
    let skip: BTreeSet<u32> = moved.front.iter().chain(&moved.back).copied().collect();
    let mut leads = Vec::new();
    let mut e = frame + 1;
    while e < best {
        let ei = e as usize;
        let info = &page.nodes[ei];
        if tree.removed[ei] || skip.contains(&e) {
            e = info.end;
            continue;
        }
        let node = page.node(e);
        let features = format!(
            "{} {}",
            node.and_then(|n| n.attr("class")).unwrap_or_default(),
            node.and_then(|n| n.attr("id")).unwrap_or_default()
        );
        if info.tag != Tag::Text
            && !contains(page, e, best)
            && is_editorial_lead(&features)
            && tree.stats[ei].link_density() <= 0.2
        {
            leads.push(e);
            e = info.end;
        } else {
            e += 1;
        }
    }
    leads
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editorial_lead_words() {
        for yes in [
            "standfirst",
            "article-dek ",
            "x story_lead",
            "storylead",
            "story - lead",
            " subtitle",
            "Subhead",
        ] {
            assert!(is_editorial_lead(yes), "{yes}");
        }
        for no in [
            "subtitles",
            "deck",
            "mystandfirst",
            "story-leader",
            " ",
            "headline",
        ] {
            assert!(!is_editorial_lead(no), "{no}");
        }
    }
}

//! Choosing a page's cross among its LSH candidates (thesis §2.3, "Cross Construction").

use crate::{Bits, CrossRole};

/// A URL reduced to what makes two captures "the same page": host without a leading `www.`,
/// lowercased; the path without a trailing slash (`/` for the root); the query as written. The
/// scheme, port, user info and fragment are left out, so `http://www.example.com/a/` and
/// `https://example.com/a#top` are the same page, while `/a?id=1` and `/a?id=2` are not.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct UrlKey(String);

impl UrlKey {
    /// The key of `url`; a string that does not parse as a URL is its own key.
    pub fn of(url: &str) -> Self {
        let Ok(parsed) = url::Url::parse(url.trim()) else {
            return Self(url.trim().to_owned());
        };
        let host = parsed.host_str().unwrap_or_default().to_ascii_lowercase();
        let host = host.strip_prefix("www.").unwrap_or(&host);
        let path = parsed.path();
        let path = if path.len() > 1 {
            path.trim_end_matches('/')
        } else {
            "/"
        };
        let path = if path.is_empty() { "/" } else { path };
        match parsed.query() {
            Some(query) => Self(format!("{host}{path}?{query}")),
            None => Self(format!("{host}{path}")),
        }
    }
}

/// A page that may take part in a cross: the page itself or one of its LSH candidates.
#[derive(Debug, Clone, PartialEq)]
pub struct CrossCandidate<Id> {
    /// The page.
    pub page: Id,
    /// Its URL key.
    pub url: UrlKey,
    /// Its capture time (`YYYYMMDDhhmmss` as a number, or any order-preserving number).
    pub captured: u64,
    /// The SHA-1 of its payload: candidates with equal digests are one page.
    pub payload: [u8; 20],
    /// Its estimated template similarity (Jaccard) to the page the cross is for.
    pub similarity: f64,
}

/// A page's cross: the page, the two most similar pages of its template with another URL, and
/// the captures of its own URL just before and after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cross<Id> {
    /// The page being annotated.
    pub cur: Id,
    /// The most similar candidate with another URL.
    pub up: Id,
    /// The second most similar candidate with another URL.
    pub down: Option<Id>,
    /// The latest capture of the same URL before `cur`.
    pub prev: Option<Id>,
    /// The earliest capture of the same URL after `cur`.
    pub next: Option<Id>,
}

impl<Id: Copy> Cross<Id> {
    /// Which members the cross has.
    pub fn bits(&self) -> Bits {
        let mut bits = Bits::of(&[CrossRole::Cur, CrossRole::Up]);
        for (member, role) in [
            (self.down, CrossRole::Down),
            (self.prev, CrossRole::Prev),
            (self.next, CrossRole::Next),
        ] {
            if member.is_some() {
                bits = bits.with(role);
            }
        }
        bits
    }

    /// The members in role order, with their roles.
    pub fn members(&self) -> Vec<(CrossRole, Id)> {
        let optional = [
            (CrossRole::Down, self.down),
            (CrossRole::Prev, self.prev),
            (CrossRole::Next, self.next),
        ];
        [(CrossRole::Cur, self.cur), (CrossRole::Up, self.up)]
            .into_iter()
            .chain(
                optional
                    .into_iter()
                    .filter_map(|(role, id)| id.map(|id| (role, id))),
            )
            .collect()
    }
}

/// The cross of `cur` among `candidates`, or `None` when no candidate has another URL (the page
/// then goes to the single-page classifier).
///
/// A candidate with `cur`'s payload is the page itself (the same capture read from another
/// file, a revisit, an unchanged re-crawl) and takes no part, nor does `cur` itself. `up` is
/// the candidate with another URL key of the highest similarity, ties broken by the smaller
/// page id; `down` the next one in that order with a URL key and a payload different from
/// both `cur`'s and `up`'s, so the two partners are two different pages. `prev` and `next`
/// are the candidates with `cur`'s URL key captured nearest before and after `cur` (ties by
/// id); a candidate captured at the same second as `cur` under the same URL is a duplicate
/// capture and takes no part.
pub fn select_cross<Id: Copy + Ord>(
    cur: &CrossCandidate<Id>,
    candidates: &[CrossCandidate<Id>],
) -> Option<Cross<Id>> {
    let others = candidates
        .iter()
        .filter(|c| c.page != cur.page && c.payload != cur.payload);
    let mut partners: Vec<&CrossCandidate<Id>> =
        others.clone().filter(|c| c.url != cur.url).collect();
    partners.sort_by(|a, b| {
        b.similarity
            .total_cmp(&a.similarity)
            .then(a.page.cmp(&b.page))
    });
    let up = *partners.first()?;
    let down = partners
        .iter()
        .find(|c| c.url != up.url && c.payload != up.payload)
        .map(|c| c.page);
    let same_url: Vec<&CrossCandidate<Id>> = others.filter(|c| c.url == cur.url).collect();
    let prev = same_url
        .iter()
        .filter(|c| c.captured < cur.captured)
        .max_by(|a, b| a.captured.cmp(&b.captured).then(b.page.cmp(&a.page)))
        .map(|c| c.page);
    let next = same_url
        .iter()
        .filter(|c| c.captured > cur.captured)
        .min_by(|a, b| a.captured.cmp(&b.captured).then(a.page.cmp(&b.page)))
        .map(|c| c.page);
    Some(Cross {
        cur: cur.page,
        up: up.page,
        down,
        prev,
        next,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A candidate whose payload is its own (derived from its page id).
    fn candidate(page: u32, url: &str, captured: u64, similarity: f64) -> CrossCandidate<u32> {
        copy_of(page, page, url, captured, similarity)
    }

    /// A candidate with the payload of page `original`.
    fn copy_of(
        page: u32,
        original: u32,
        url: &str,
        captured: u64,
        similarity: f64,
    ) -> CrossCandidate<u32> {
        let mut payload = [0; 20];
        payload[..4].copy_from_slice(&original.to_be_bytes());
        CrossCandidate {
            page,
            url: UrlKey::of(url),
            captured,
            payload,
            similarity,
        }
    }

    #[test]
    fn url_keys_ignore_scheme_www_slash_and_fragment() {
        let key = UrlKey::of("http://www.Example.com/a/b/");
        assert_eq!(key, UrlKey::of("https://example.com/a/b#top"));
        assert_eq!(
            UrlKey::of("http://example.com"),
            UrlKey::of("http://example.com/")
        );
        assert_ne!(
            UrlKey::of("http://example.com/a?id=1"),
            UrlKey::of("http://example.com/a?id=2")
        );
        assert_ne!(
            UrlKey::of("http://news.example.com/a"),
            UrlKey::of("http://example.com/a")
        );
        assert_eq!(UrlKey::of("not a url").0, "not a url");
    }

    #[test]
    fn the_full_cross() {
        let cur = candidate(5, "http://e.com/story", 20160601000000, 1.0);
        let candidates = [
            candidate(1, "http://e.com/other", 20160101000000, 0.7),
            candidate(2, "http://e.com/third", 20160101000000, 0.9),
            candidate(3, "http://e.com/fourth", 20160101000000, 0.9),
            candidate(4, "http://e.com/story/", 20160501000000, 0.95),
            candidate(6, "http://e.com/story", 20160301000000, 0.95),
            candidate(7, "https://www.e.com/story", 20160701000000, 0.95),
            candidate(8, "http://e.com/story", 20160901000000, 0.95),
            candidate(5, "http://e.com/story", 20160601000000, 1.0),
        ];
        let cross = select_cross(&cur, &candidates).unwrap();
        assert_eq!(
            cross,
            Cross {
                cur: 5,
                up: 2,
                down: Some(3),
                prev: Some(4),
                next: Some(7)
            }
        );
        assert_eq!(cross.bits(), Bits::from_tuple([1, 1, 1, 1, 1]));
        let roles: Vec<CrossRole> = cross.members().iter().map(|(role, _)| *role).collect();
        assert_eq!(roles, CrossRole::ALL);
    }

    #[test]
    fn partial_crosses_and_no_cross() {
        let cur = candidate(1, "http://e.com/a", 20160601000000, 1.0);
        let only_up = [candidate(2, "http://e.com/b", 1, 0.4)];
        let cross = select_cross(&cur, &only_up).unwrap();
        assert_eq!(cross.bits(), Bits::from_tuple([1, 1, 0, 0, 0]));
        let later = [
            candidate(2, "http://e.com/b", 1, 0.4),
            candidate(3, "http://e.com/a", 20170101000000, 0.9),
        ];
        assert_eq!(
            select_cross(&cur, &later).unwrap().bits(),
            Bits::from_tuple([1, 1, 0, 0, 1])
        );
        let same_url_only = [candidate(3, "http://e.com/a", 20170101000000, 0.9)];
        assert_eq!(select_cross(&cur, &same_url_only), None);
        let duplicate = [
            candidate(2, "http://e.com/b", 1, 0.4),
            candidate(3, "http://e.com/a", 20160601000000, 0.9),
        ];
        assert_eq!(
            select_cross(&cur, &duplicate).unwrap().bits(),
            Bits::from_tuple([1, 1, 0, 0, 0])
        );
    }

    #[test]
    fn ties_are_broken_by_page_id_whatever_the_input_order() {
        let cur = candidate(0, "http://e.com/a", 5, 1.0);
        let mut candidates = vec![
            candidate(9, "http://e.com/x", 1, 0.5),
            candidate(4, "http://e.com/y", 1, 0.5),
            candidate(7, "http://e.com/z", 1, 0.5),
        ];
        let first = select_cross(&cur, &candidates).unwrap();
        candidates.reverse();
        assert_eq!(select_cross(&cur, &candidates).unwrap(), first);
        assert_eq!((first.up, first.down), (4, Some(7)));
    }

    #[test]
    fn copies_of_the_page_are_neither_partners_nor_neighbours() {
        // The page read twice (same payload under its URL, a copy served at another URL, and
        // the same capture at other times): only different captures take part.
        let cur = candidate(5, "http://e.com/a", 20160601000000, 1.0);
        let candidates = [
            copy_of(1, 5, "http://e.com/mirror", 20160601000000, 1.0),
            copy_of(2, 5, "http://e.com/a", 20160501000000, 1.0),
            copy_of(3, 5, "http://e.com/a", 20160701000000, 1.0),
            candidate(4, "http://e.com/a", 20160401000000, 0.9),
            candidate(6, "http://e.com/a", 20160801000000, 0.9),
            candidate(7, "http://e.com/b", 1, 0.6),
            candidate(8, "http://e.com/c", 1, 0.5),
        ];
        let cross = select_cross(&cur, &candidates).unwrap();
        assert_eq!(
            cross,
            Cross {
                cur: 5,
                up: 7,
                down: Some(8),
                prev: Some(4),
                next: Some(6)
            }
        );
        // Nothing but copies of the page: no cross.
        assert_eq!(select_cross(&cur, &candidates[..3]), None);
    }

    #[test]
    fn up_and_down_differ_by_url_and_by_payload() {
        let cur = candidate(0, "http://e.com/a", 5, 1.0);
        let candidates = [
            // The best partner, read from two files: one page.
            candidate(1, "http://e.com/b", 5, 0.9),
            copy_of(2, 1, "http://e.com/b", 5, 0.9),
            // Another capture of the best partner's URL: another payload, same URL key.
            candidate(3, "https://www.e.com/b/", 9, 0.8),
            // The same payload as the best partner under another URL.
            copy_of(4, 1, "http://e.com/b-copy", 5, 0.7),
            candidate(5, "http://e.com/c", 5, 0.4),
        ];
        let cross = select_cross(&cur, &candidates).unwrap();
        assert_eq!((cross.up, cross.down), (1, Some(5)));
        // Without a different second page, there is no `down`.
        let cross = select_cross(&cur, &candidates[..4]).unwrap();
        assert_eq!((cross.up, cross.down), (1, None));
    }

    #[test]
    fn ties_among_copies_and_neighbours_are_broken_by_page_id() {
        let cur = candidate(0, "http://e.com/a", 50, 1.0);
        let mut candidates = vec![
            copy_of(9, 3, "http://e.com/x", 1, 0.5),
            candidate(3, "http://e.com/x", 1, 0.5),
            candidate(6, "http://e.com/y", 1, 0.5),
            candidate(8, "http://e.com/a", 40, 0.9),
            candidate(7, "http://e.com/a", 40, 0.9),
            candidate(12, "http://e.com/a", 60, 0.9),
            candidate(11, "http://e.com/a", 60, 0.9),
        ];
        let first = select_cross(&cur, &candidates).unwrap();
        candidates.reverse();
        assert_eq!(select_cross(&cur, &candidates).unwrap(), first);
        assert_eq!(
            first,
            Cross {
                cur: 0,
                up: 3,
                down: Some(6),
                prev: Some(7),
                next: Some(11)
            }
        );
    }
}

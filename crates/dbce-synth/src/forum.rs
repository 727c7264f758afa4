//! Forum threads (`Config::forums`): a title, a first post and replies, shown a few replies a
//! page over several pages, every page repeating the first post.
//!
//! A thread's content blocks are named like an article's (see [`crate::text::name_id`]), with
//! the article coordinate `site.articles + thread`, past every article of the site: block 0 the
//! title, 1 to 4 the first post's paragraphs, `8 + k` reply `k`.

use rand::Rng as _;

use crate::clock::{DAY, HOUR, Timestamp};
use crate::seed::{self, Stream};
use crate::site::{PUBLISH_DAYS, Site};
use crate::text::{self, Draft};

/// Replies shown on one page of a thread.
pub(crate) const REPLIES_PER_PAGE: usize = 5;

/// One post: who wrote it, when, and its paragraphs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Post {
    pub(crate) author: &'static str,
    pub(crate) at: Timestamp,
    pub(crate) paragraphs: Vec<String>,
}

/// A forum thread as it stands once its last reply is posted (threads do not change between
/// captures).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Thread {
    pub(crate) index: u32,
    pub(crate) title: String,
    pub(crate) first: Post,
    pub(crate) replies: Vec<Post>,
}

impl Thread {
    /// Thread `t` of `site`.
    pub(crate) fn new(site: &Site, t: u32) -> Self {
        let mut rng = seed::rng(site.seed, Stream::Thread, &[site.index.into(), t.into()]);
        let coordinate = site.articles + t;
        let name = |block: u32| text::name(site.lang, text::name_id(site.index, coordinate, block));
        let sentence = |rng: &mut seed::Rng, block, count, words| {
            Draft::new(rng, site.lang, count, words)
                .with_name(rng)
                .write(site.lang, &name(block), false, true)
        };
        let title = Draft::new(&mut rng, site.lang, 1..=1, 5..=9)
            .with_name(&mut rng)
            .write(site.lang, &name(0), false, false);
        let authors = &site.lang.ui.commenters;
        let started = Self::started(site, t);
        let first = Post {
            author: authors[rng.random_range(0..authors.len())],
            at: started,
            paragraphs: (1..=rng.random_range(2..=4))
                .map(|block| sentence(&mut rng, block, 2..=4, 8..=16))
                .collect(),
        };
        let mut at = started;
        let replies = (0..rng.random_range(REPLIES_PER_PAGE + 1..=4 * REPLIES_PER_PAGE))
            .map(|k| {
                at = at.plus(rng.random_range(HOUR / 4..=18 * HOUR));
                #[allow(clippy::cast_possible_truncation)]
                let block = 8 + k as u32;
                Post {
                    author: authors[rng.random_range(0..authors.len())],
                    at,
                    paragraphs: vec![sentence(&mut rng, block, 1..=3, 5..=15)],
                }
            })
            .collect();
        Self {
            index: t,
            title,
            first,
            replies,
        }
    }

    /// When thread `t` of `site` is started: spread over the publishing period.
    pub(crate) fn started(site: &Site, t: u32) -> Timestamp {
        let draw = seed::mix(site.seed, Stream::Thread, &[site.index.into(), t.into(), 1]);
        #[allow(clippy::cast_possible_wrap)]
        let offset = (draw % (PUBLISH_DAYS * DAY).unsigned_abs()) as i64;
        crate::clock::EPOCH.plus(offset)
    }

    /// How many pages the thread spans (two or more).
    pub(crate) fn pages(&self) -> u32 {
        #[allow(clippy::cast_possible_truncation)]
        let pages = self.replies.len().div_ceil(REPLIES_PER_PAGE) as u32;
        pages
    }

    /// The replies page `page` (0-based) shows.
    pub(crate) fn replies_on(&self, page: u32) -> &[Post] {
        let from = (page as usize * REPLIES_PER_PAGE).min(self.replies.len());
        let to = (from + REPLIES_PER_PAGE).min(self.replies.len());
        &self.replies[from..to]
    }

    /// When the last reply was posted: captures come after it.
    pub(crate) fn closed(&self) -> Timestamp {
        self.replies.last().map_or(self.first.at, |p| p.at)
    }
}

/// The number of pages of thread `t` of `site`, without writing its text.
pub(crate) fn pages_of(site: &Site, t: u32) -> u32 {
    Thread::new(site, t).pages()
}

/// The URL of page `page` (0-based) of thread `t` of `site`: `/forum/t/{id}-{slug}/`, then
/// `…/page-2/` and on.
pub(crate) fn thread_url(site: &Site, t: u32, title: &str, page: u32) -> String {
    let id = 5000 + t;
    let slug = text::slug(title, 5);
    let slug = if slug.is_empty() {
        String::new()
    } else {
        format!("-{slug}")
    };
    match page {
        0 => format!("{}/forum/t/{id}{slug}/", site.base()),
        n => format!("{}/forum/t/{id}{slug}/page-{}/", site.base(), n + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn threads_span_pages_that_split_the_replies() {
        let config = Config {
            sites: 2,
            pages: 60,
            forums: true,
            ..Config::default()
        };
        let site = Site::new(&config, 1);
        assert!(site.threads >= 2);
        for t in 0..site.threads {
            let thread = Thread::new(&site, t);
            assert!(thread.pages() >= 2, "{}", thread.pages());
            let shown: usize = (0..thread.pages())
                .map(|p| thread.replies_on(p).len())
                .sum();
            assert_eq!(shown, thread.replies.len());
            assert!(thread.replies.windows(2).all(|w| w[0].at < w[1].at));
            assert!(thread.first.at < thread.replies[0].at);
            let urls: Vec<String> = (0..thread.pages())
                .map(|p| thread_url(&site, t, &thread.title, p))
                .collect();
            assert!(urls[1].starts_with(&urls[0]) && urls[1].ends_with("/page-2/"));
            assert_eq!(Thread::new(&site, t), thread);
        }
    }
}

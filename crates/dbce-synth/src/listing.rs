//! Links between pages: article URLs, teasers, and which articles a page lists at a given time.

use rand::Rng as _;

use crate::article;
use crate::clock::Timestamp;
use crate::lang::Language;
use crate::profile::UrlStyle;
use crate::seed::Rng;
use crate::site::Site;
use crate::text;

/// A link to an article with its headline, and on section pages its summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Teaser {
    pub(crate) article: u32,
    pub(crate) url: String,
    pub(crate) headline: String,
    pub(crate) dek: Option<String>,
}

impl Teaser {
    /// The teaser of article `j`, with its summary if `dek`.
    pub(crate) fn new(site: &Site, j: u32, dek: bool) -> Self {
        let headline = article::headline(site, j);
        Self {
            article: j,
            url: article_url(site, j, &headline),
            dek: dek.then(|| article::dek(site, j)),
            headline,
        }
    }
}

/// The URL of article `j`, whose headline is `headline`.
pub(crate) fn article_url(site: &Site, j: u32, headline: &str) -> String {
    let c = site.published(j).civil();
    let section = site.section_path(site.section_of(j));
    let id = 100_000 + u64::from(j) * 7 + u64::from(site.index % 7);
    let slug = text::slug(headline, 24);
    let path = match site.profile.urls {
        UrlStyle::DatedPath => format!("/{section}/{}/{:02}/{:02}/{slug}", c.year, c.month, c.day),
        UrlStyle::SlugHtml => format!("/{section}/{slug}-{id}.html"),
        UrlStyle::PhpQuery => format!("/{section}/article.php?id={id}"),
        UrlStyle::YearMonthSlug => format!("/{}/{:02}/{slug}/", c.year, c.month),
        UrlStyle::IdName => {
            let latin = text::name(Language::English.data(), text::name_id(site.index, j, 0));
            format!("/{section}/{id}-{}/", latin.to_lowercase())
        }
        UrlStyle::DatedId => format!("/articles/{}{:02}{:02}/{id}.html", c.year, c.month, c.day),
    };
    format!("{}{path}", site.base())
}

/// The URL of the index page of `section`, or of the home page.
pub(crate) fn index_url(site: &Site, section: Option<usize>) -> String {
    match section {
        Some(s) => format!("{}/{}/", site.base(), site.section_path(s)),
        None => format!("{}/", site.base()),
    }
}

/// The `count` newest articles published before `at`, in `section` if given, newest first,
/// leaving out `skip`.
pub(crate) fn latest(
    site: &Site,
    at: Timestamp,
    section: Option<usize>,
    count: usize,
    skip: &[u32],
) -> Vec<u32> {
    let mut out = Vec::with_capacity(count);
    let mut j = site.published_before(at);
    while j > 0 && out.len() < count {
        j -= 1;
        if section.is_none_or(|s| site.section_of(j) == s) && !skip.contains(&j) {
            out.push(j);
        }
    }
    out
}

/// `count` articles drawn from the `pool` newest before `at` (see [`latest`]), in the order
/// drawn: the teasers that change from capture to capture.
pub(crate) fn draw(
    site: &Site,
    rng: &mut Rng,
    at: Timestamp,
    section: Option<usize>,
    (pool, count): (usize, usize),
    skip: &[u32],
) -> Vec<u32> {
    let mut candidates = latest(site, at, section, pool, skip);
    let mut out = Vec::with_capacity(count);
    while out.len() < count && !candidates.is_empty() {
        out.push(candidates.swap_remove(rng.random_range(0..candidates.len())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::clock::{DAY, EPOCH};
    use crate::seed::{Stream, rng};

    #[test]
    fn latest_respects_time_section_and_skip() {
        let config = Config {
            sites: 2,
            pages: 400,
            ..Config::default()
        };
        let site = Site::new(&config, 0);
        let at = EPOCH.plus(200 * DAY);
        let all = latest(&site, at, None, 10, &[]);
        assert_eq!(all.len(), 10);
        assert!(all.windows(2).all(|w| w[0] > w[1]));
        assert!(all.iter().all(|&j| site.published(j) < at));
        let in_one = latest(&site, at, Some(1), 5, &[all[0]]);
        assert!(
            in_one
                .iter()
                .all(|&j| site.section_of(j) == 1 && j != all[0])
        );
        let drawn = draw(
            &site,
            &mut rng(1, Stream::Capture, &[]),
            at,
            None,
            (30, 5),
            &[all[1]],
        );
        assert_eq!(drawn.len(), 5);
        assert!(!drawn.contains(&all[1]));
    }

    #[test]
    fn urls_follow_the_profile() {
        let config = Config {
            sites: 6,
            pages: 120,
            ..Config::default()
        };
        let url = |i| {
            let site = Site::new(&config, i);
            article_url(&site, 3, &article::headline(&site, 3))
        };
        assert!(url(0).starts_with("https://www.harborcourier.example/"));
        assert!(url(2).contains("/article.php?id="), "{}", url(2));
        assert!(
            url(4).is_ascii() && url(5).ends_with(".html"),
            "{} {}",
            url(4),
            url(5)
        );
    }
}

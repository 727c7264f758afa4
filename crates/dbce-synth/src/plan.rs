//! The crawl plan: which URL is captured when, in archive order.

use rand::Rng as _;

use crate::clock::{CRAWL_DAYS, DAY, EPOCH, HOUR, Timestamp};
use crate::forum::{self, Thread};
use crate::seed::{self, Stream};
use crate::site::Site;

/// A non-HTML or non-200 resource every site has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Asset {
    /// `http://host/` answered with a 301 to `https://host/`.
    Redirect,
    Robots,
    Stylesheet,
    Logo,
    Feed,
}

/// What a capture fetches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Target {
    Home,
    Section(usize),
    Article(u32),
    Asset(Asset),
    /// Page `page` (0-based) of forum thread `thread`.
    Thread {
        thread: u32,
        page: u32,
    },
}

/// One fetch of one URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Capture {
    pub(crate) at: Timestamp,
    pub(crate) site: u32,
    pub(crate) target: Target,
    /// 0-based number of this capture among the URL's captures.
    pub(crate) number: u32,
    /// How many captures the URL has.
    pub(crate) count: u32,
}

/// What an HTML target shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shown {
    Article(u32),
    /// The home page (`None`) or a section page.
    Index(Option<usize>),
    /// Page `page` of forum thread `thread`.
    Thread {
        thread: u32,
        page: u32,
    },
}

impl Target {
    /// What the target shows if it is an HTML page, else which asset it is.
    pub(crate) fn shown(self) -> Result<Shown, Asset> {
        match self {
            Self::Home => Ok(Shown::Index(None)),
            Self::Section(s) => Ok(Shown::Index(Some(s))),
            Self::Article(j) => Ok(Shown::Article(j)),
            Self::Thread { thread, page } => Ok(Shown::Thread { thread, page }),
            Self::Asset(asset) => Err(asset),
        }
    }

    /// A number identifying the target within its site, for seeds and record ids.
    pub(crate) fn key(self) -> u64 {
        match self {
            Self::Home => 0,
            Self::Section(s) => 1 + s as u64,
            Self::Asset(a) => 100 + a as u64,
            Self::Article(j) => 1000 + u64::from(j),
            Self::Thread { thread, page } => (1 << 40) + (u64::from(thread) << 8) + u64::from(page),
        }
    }
}

/// All captures of all sites, ordered by time (ties by site, target and number).
pub(crate) fn plan(sites: &[Site], captures_max: u32) -> Vec<Capture> {
    let mut out = Vec::new();
    for site in sites {
        let mut targets = vec![Target::Home];
        targets.extend((0..site.sections).map(Target::Section));
        targets.extend((0..site.articles).map(Target::Article));
        for thread in 0..site.threads {
            let pages = forum::pages_of(site, thread);
            targets.extend((0..pages).map(|page| Target::Thread { thread, page }));
        }
        for asset in [
            Asset::Redirect,
            Asset::Robots,
            Asset::Stylesheet,
            Asset::Logo,
            Asset::Feed,
        ] {
            targets.push(Target::Asset(asset));
        }
        for target in targets {
            let times = times(site, target, captures_max);
            #[allow(clippy::cast_possible_truncation)]
            let count = times.len() as u32;
            out.extend(times.into_iter().zip(0..).map(|(at, number)| Capture {
                at,
                site: site.index,
                target,
                number,
                count,
            }));
        }
    }
    out.sort_unstable();
    out
}

/// The capture times of `target`, increasing.
pub(crate) fn times(site: &Site, target: Target, captures_max: u32) -> Vec<Timestamp> {
    let mut rng = seed::rng(
        site.seed,
        Stream::Timeline,
        &[site.index.into(), target.key()],
    );
    let max = i64::from(captures_max);
    match target {
        Target::Article(j) => revisits(&mut rng, site.published(j), max),
        Target::Thread { thread, .. } => {
            revisits(&mut rng, Thread::new(site, thread).closed(), max)
        }
        Target::Home | Target::Section(_) => {
            let span = (CRAWL_DAYS - 20) * DAY / max;
            (0..max)
                .map(|k| EPOCH.plus(20 * DAY + k * span + rng.random_range(0..span / 2)))
                .collect()
        }
        Target::Asset(Asset::Redirect) => vec![EPOCH.plus(rng.random_range(0..HOUR))],
        Target::Asset(_) => {
            let mut out: Vec<Timestamp> = (0..rng.random_range(1..=max.min(2)))
                .map(|_| EPOCH.plus(rng.random_range(HOUR..CRAWL_DAYS * DAY)))
                .collect();
            out.sort_unstable();
            out
        }
    }
}

/// The captures of a page that exists from `since` on: 1 to `max` of them ([`skewed_count`]),
/// the first 1 hour to 3 days after `since`, then every 7 to 120 days.
fn revisits(rng: &mut crate::seed::Rng, since: Timestamp, max: i64) -> Vec<Timestamp> {
    let count = skewed_count(rng, max);
    let mut at = since.plus(rng.random_range(HOUR..=3 * DAY));
    let mut out = vec![at];
    for _ in 1..count {
        at = at.plus(rng.random_range(7 * DAY..=120 * DAY));
        out.push(at);
    }
    out
}

/// A number of captures from 1 to `max`, `n` drawn with weight `1/n`: most articles are
/// captured once or twice, a few many times, as in real crawls.
fn skewed_count(rng: &mut crate::seed::Rng, max: i64) -> i64 {
    let total: f64 = (1..=max).map(|n| 1.0 / n as f64).sum();
    let mut draw = rng.random::<f64>() * total;
    for n in 1..max {
        draw -= 1.0 / n as f64;
        if draw < 0.0 {
            return n;
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn plan_is_sorted_and_complete() {
        let config = Config {
            sites: 2,
            pages: 40,
            captures_max: 3,
            ..Config::default()
        };
        let sites: Vec<Site> = (0..2).map(|i| Site::new(&config, i)).collect();
        let plan = plan(&sites, 3);
        assert!(plan.windows(2).all(|w| w[0].at <= w[1].at));
        let homes = plan.iter().filter(|c| c.target == Target::Home).count();
        assert_eq!(homes, 6);
        for c in &plan {
            assert!(c.number < c.count && c.count <= 3);
            if let Target::Article(j) = c.target {
                assert!(c.at > sites[c.site as usize].published(j));
            }
        }
    }

    #[test]
    fn article_captures_spread_over_months() {
        let config = Config {
            sites: 1,
            pages: 30,
            captures_max: 6,
            ..Config::default()
        };
        let site = Site::new(&config, 0);
        let longest = (0..site.articles)
            .map(|j| times(&site, Target::Article(j), 6))
            .max_by_key(Vec::len)
            .unwrap_or_default();
        assert!(longest.len() >= 3);
        assert!(longest.windows(2).all(|w| w[1].0 - w[0].0 >= 7 * DAY));
    }
}

//! Sites: who they are, what they publish when, and how they look over time.

use crate::Config;
use crate::clock::{CRAWL_DAYS, DAY, EPOCH, Timestamp};
use crate::lang::Lang;
use crate::profile::{PROFILES, Profile};
use crate::seed::{self, Stream};
use crate::template::Design;
use crate::text;

/// Days over which articles are published.
pub(crate) const PUBLISH_DAYS: i64 = 450;
/// Path segments for sections whose names have no ASCII slug.
const SECTION_PATHS: [&str; 8] = [
    "news", "politics", "economy", "sport", "culture", "society", "health", "travel",
];

/// One site of the archive.
#[derive(Debug)]
pub(crate) struct Site {
    pub(crate) index: u32,
    pub(crate) seed: u64,
    pub(crate) profile: &'static Profile,
    pub(crate) lang: &'static Lang,
    /// Short name used in template labels and the truth file.
    pub(crate) key: String,
    /// Display name.
    pub(crate) name: String,
    pub(crate) host: String,
    /// Number of sections with their own index page (a prefix of the profile's sections).
    pub(crate) sections: usize,
    /// URL path segments of all the profile's sections.
    section_paths: Vec<String>,
    pub(crate) articles: u32,
    /// Forum threads (`Config::forums`), on top of the pages; 0 without forums.
    pub(crate) threads: u32,
    calendar: Calendar,
    design: Design,
    redesign: Option<(Timestamp, Design)>,
    /// The footer's "about us" prose.
    pub(crate) about: String,
    /// Ad texts that rotate between captures.
    pub(crate) ads: Vec<String>,
}

/// When articles appear: article `j` of site `s` in slot `j * sites + s`, so that no two
/// articles of the archive are published in the same minute.
#[derive(Debug, Clone, Copy)]
struct Calendar {
    sites: u32,
    step: i64,
}

impl Site {
    /// Site `index` of the archive `config` describes.
    pub(crate) fn new(config: &Config, index: u32) -> Self {
        let profile = &PROFILES[index as usize % PROFILES.len()];
        let round = index as usize / PROFILES.len();
        let number = if round == 0 {
            String::new()
        } else {
            (round + 1).to_string()
        };
        let key = if round == 0 {
            profile.key.to_owned()
        } else {
            format!("{}-{number}", profile.key)
        };
        let name = if round == 0 {
            profile.name.to_owned()
        } else {
            format!("{} {number}", profile.name)
        };
        let pages = config.pages / config.sites + u32::from(index < config.pages % config.sites);
        let sections = (pages / 6).clamp(1, 8) as usize;
        let lang = profile.language.data();
        let mut rng = seed::rng(config.seed, Stream::Site, &[index.into()]);
        let switch = index == 1.min(config.sites - 1);
        Self {
            index,
            seed: config.seed,
            profile,
            lang,
            host: profile.host.replace("{}", &number),
            design: Design::new(config.seed, index, &key, profile.skins[0], 1),
            redesign: switch.then(|| {
                let at = EPOCH.plus(CRAWL_DAYS / 2 * DAY + 7 * 3600);
                (
                    at,
                    Design::new(config.seed, index, &key, profile.skins[1], 2),
                )
            }),
            key,
            name,
            sections,
            section_paths: section_paths(profile),
            articles: pages.saturating_sub(1 + sections as u32).max(1),
            threads: if config.forums { (pages / 8).max(2) } else { 0 },
            calendar: Calendar::new(config),
            about: text::prose(&mut rng, lang, 6..=8, 12..=18, true),
            ads: (0..24)
                .map(|_| text::prose(&mut rng, lang, 1..=1, 4..=8, false))
                .collect(),
        }
    }

    /// The design in force at `at`.
    pub(crate) fn design(&self, at: Timestamp) -> &Design {
        match &self.redesign {
            Some((switch, design)) if at >= *switch => design,
            _ => &self.design,
        }
    }

    /// When the site switches templates, if it does.
    #[cfg(test)]
    pub(crate) fn redesign_at(&self) -> Option<Timestamp> {
        self.redesign.as_ref().map(|(at, _)| *at)
    }

    /// When article `j` is published.
    pub(crate) fn published(&self, j: u32) -> Timestamp {
        let slot = i64::from(j) * i64::from(self.calendar.sites) + i64::from(self.index);
        let jitter = seed::mix(self.seed, Stream::Publish, &[self.index.into(), j.into()]);
        #[allow(clippy::cast_possible_wrap)]
        let jitter = (jitter % self.calendar.step.unsigned_abs()) as i64;
        EPOCH.plus(slot * self.calendar.step + jitter)
    }

    /// How many articles are published before `at` (articles appear in index order).
    pub(crate) fn published_before(&self, at: Timestamp) -> u32 {
        let (mut low, mut high) = (0, self.articles);
        while low < high {
            let mid = low + (high - low) / 2;
            if self.published(mid) < at {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        low
    }

    /// The section of article `j`.
    pub(crate) fn section_of(&self, j: u32) -> usize {
        let draw = seed::mix(self.seed, Stream::Section, &[self.index.into(), j.into()]);
        #[allow(clippy::cast_possible_truncation)]
        let section = (draw % self.sections as u64) as usize;
        section
    }

    /// The URL path segment of section `section`.
    pub(crate) fn section_path(&self, section: usize) -> &str {
        &self.section_paths[section]
    }

    /// The site's base URL, without a trailing slash.
    pub(crate) fn base(&self) -> String {
        format!("https://{}", self.host)
    }
}

fn section_paths(profile: &Profile) -> Vec<String> {
    let slugs = profile.sections.iter().map(|label| text::slug(label, 3));
    slugs
        .zip(SECTION_PATHS)
        .map(|(slug, fallback)| {
            if slug.is_empty() {
                fallback.to_owned()
            } else {
                slug
            }
        })
        .collect()
}

impl Calendar {
    fn new(config: &Config) -> Self {
        let most = config.pages.div_ceil(config.sites).max(1);
        let slots = i64::from(most) * i64::from(config.sites);
        let step = (PUBLISH_DAYS * DAY / slots / 60 * 60).max(60);
        Self {
            sites: config.sites,
            step,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(sites: u32, pages: u32) -> Config {
        Config {
            sites,
            pages,
            ..Config::default()
        }
    }

    #[test]
    fn publication_times_are_increasing_and_distinct_across_sites() {
        let config = settings(3, 300);
        let sites: Vec<Site> = (0..3).map(|i| Site::new(&config, i)).collect();
        let mut minutes = std::collections::BTreeSet::new();
        for site in &sites {
            for j in 0..site.articles {
                assert!(j == 0 || site.published(j - 1) < site.published(j));
                assert!(minutes.insert(site.published(j).0 / 60));
            }
        }
        let s = &sites[1];
        assert_eq!(s.published_before(s.published(7)), 7);
        assert_eq!(s.published_before(s.published(7).plus(1)), 8);
    }

    #[test]
    fn only_the_designated_site_is_redesigned() {
        let config = settings(3, 60);
        let redesigned: Vec<bool> = (0..3)
            .map(|i| Site::new(&config, i).redesign_at().is_some())
            .collect();
        assert_eq!(redesigned, [false, true, false]);
        assert!(Site::new(&settings(1, 10), 0).redesign_at().is_some());
    }

    #[test]
    fn later_rounds_get_numbered_names() {
        let config = settings(8, 80);
        let site = Site::new(&config, 6);
        assert_eq!(
            (site.key.as_str(), site.host.as_str()),
            ("harbor-courier-2", "www.harborcourier2.example")
        );
        assert_eq!(Site::new(&config, 2).section_path(1), "politique");
        assert_eq!(Site::new(&config, 4).section_path(2), "economy");
    }
}

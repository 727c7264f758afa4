//! One capture of an HTML page: what it shows at that time, before it is rendered.

use rand::Rng as _;

use crate::article::{Article, Comment};
use crate::clock::Timestamp;
use crate::forum::{self, Thread};
use crate::listing::{self, Teaser};
use crate::plan::{self, Capture, Shown, Target};
use crate::seed::{self, Stream};
use crate::site::Site;
use crate::template::TemplateKind;

/// Articles a home page lists.
const HOME_ITEMS: usize = 12;
/// Articles a section page lists.
const SECTION_ITEMS: usize = 10;

/// What a page shows in its main column.
#[derive(Debug, Clone)]
pub(crate) enum Main {
    Article(Box<ArticleView>),
    /// A home or section page: a heading and a list of teasers.
    Index {
        heading: String,
        items: Vec<Teaser>,
    },
    /// A page of a forum thread: its title, the first post, and this page's replies.
    Thread(Box<ThreadView>),
}

/// One page of a forum thread.
#[derive(Debug, Clone)]
pub(crate) struct ThreadView {
    pub(crate) thread: Thread,
    /// 0-based page number.
    pub(crate) page: u32,
}

/// An article as one capture shows it.
#[derive(Debug, Clone)]
pub(crate) struct ArticleView {
    pub(crate) article: Article,
    /// The first of several captures shows the typo.
    pub(crate) typo: bool,
    /// The dated update paragraph, from the middle capture on.
    pub(crate) update: Option<String>,
    pub(crate) comments: Vec<Comment>,
}

/// One capture of an HTML page.
#[derive(Debug, Clone)]
pub(crate) struct Page {
    pub(crate) url: String,
    pub(crate) at: Timestamp,
    pub(crate) template: TemplateKind,
    pub(crate) title: String,
    /// The section shown in the breadcrumb.
    pub(crate) section: Option<usize>,
    pub(crate) main: Main,
    pub(crate) most_read: Vec<Teaser>,
    pub(crate) related: Vec<Teaser>,
    /// Indices into the site's ad texts.
    pub(crate) ads: Vec<usize>,
}

impl Page {
    /// The page `capture` fetches, which shows `shown`.
    pub(crate) fn new(site: &Site, capture: &Capture, shown: Shown, captures_max: u32) -> Self {
        let mut rng = seed::rng(
            site.seed,
            Stream::Capture,
            &[
                site.index.into(),
                capture.target.key(),
                capture.number.into(),
            ],
        );
        let at = capture.at;
        let (main, section, template, skip) = match shown {
            Shown::Article(j) => article_main(site, capture, captures_max, j),
            Shown::Index(section) => index_main(site, at, section),
            Shown::Thread { thread, page } => {
                let view = ThreadView {
                    thread: Thread::new(site, thread),
                    page,
                };
                (
                    Main::Thread(Box::new(view)),
                    None,
                    TemplateKind::Article,
                    vec![],
                )
            }
        };
        let draw = |rng: &mut _, section, sizes| -> Vec<Teaser> {
            listing::draw(site, rng, at, section, sizes, &skip)
                .into_iter()
                .map(|j| Teaser::new(site, j, false))
                .collect()
        };
        let most_read = draw(&mut rng, None, (40, 5));
        let related = match (&main, section) {
            (Main::Article(_), Some(s)) => draw(&mut rng, Some(s), (20, 4)),
            _ => Vec::new(),
        };
        let ads = (0..3)
            .map(|_| rng.random_range(0..site.ads.len()))
            .collect();
        let (url, title) = match &main {
            Main::Article(view) => {
                let headline = &view.article.headline;
                (
                    listing::article_url(site, view.article.index, headline),
                    headline.clone(),
                )
            }
            Main::Index { heading, .. } => (listing::index_url(site, section), heading.clone()),
            Main::Thread(view) => {
                let thread = &view.thread;
                let url = forum::thread_url(site, thread.index, &thread.title, view.page);
                (url, thread.title.clone())
            }
        };
        let title = format!("{title} | {}", site.name);
        Self {
            url,
            at,
            template,
            title,
            section,
            main,
            most_read,
            related,
            ads,
        }
    }
}

type Parts = (Main, Option<usize>, TemplateKind, Vec<u32>);

fn article_main(site: &Site, capture: &Capture, captures_max: u32, j: u32) -> Parts {
    let article = Article::new(site, j);
    let times = plan::times(site, Target::Article(j), captures_max);
    let from = (capture.count / 2).max(1);
    let update = article
        .update
        .as_ref()
        .filter(|_| capture.count >= 2 && capture.number >= from);
    let update = update.map(|text| {
        let before = times[from as usize - 1];
        let when = before.plus((times[from as usize].0 - before.0) / 2);
        format!(
            "{} ({}): {text}",
            site.lang.ui.update,
            site.lang.date(when, true)
        )
    });
    let typo = article.typo.is_some() && capture.count >= 2 && capture.number == 0;
    let template = if article.feature && site.design(capture.at).has_feature() {
        TemplateKind::Feature
    } else {
        TemplateKind::Article
    };
    let comments = article.comments_before(site, capture.at);
    let section = Some(article.section);
    let view = ArticleView {
        article,
        typo,
        update,
        comments,
    };
    (Main::Article(Box::new(view)), section, template, vec![j])
}

fn index_main(site: &Site, at: Timestamp, section: Option<usize>) -> Parts {
    let ui = site.lang.ui;
    let (heading, count) = match section {
        Some(s) => (
            ui.latest.replace("{}", site.profile.sections[s]),
            SECTION_ITEMS,
        ),
        None => (ui.top_stories.to_owned(), HOME_ITEMS),
    };
    let listed = listing::latest(site, at, section, count, &[]);
    let items = listed
        .iter()
        .map(|&j| Teaser::new(site, j, section.is_some()))
        .collect();
    (
        Main::Index { heading, items },
        section,
        TemplateKind::Index,
        listed,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn teasers_never_show_what_the_main_column_shows() {
        let config = Config {
            sites: 1,
            pages: 120,
            captures_max: 4,
            ..Config::default()
        };
        let site = Site::new(&config, 0);
        for capture in plan::plan(std::slice::from_ref(&site), 4) {
            let Ok(shown) = capture.target.shown() else {
                continue;
            };
            let page = Page::new(&site, &capture, shown, 4);
            let shown: Vec<u32> = match &page.main {
                Main::Article(view) => vec![view.article.index],
                Main::Index { items, .. } => items.iter().map(|t| t.article).collect(),
                Main::Thread(_) => Vec::new(),
            };
            for teaser in page.most_read.iter().chain(&page.related) {
                assert!(!shown.contains(&teaser.article));
            }
        }
    }
}

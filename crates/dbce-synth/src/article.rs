//! Articles: headline, standfirst, byline and body blocks, plus what changes between captures
//! (a typo fixed, an update added, comments arriving).
//!
//! Block numbers inside an article name its content blocks (see [`crate::text::name_id`]):
//! 0 headline, 1 standfirst, 2 index summary, 3 update, 4 and up the body.

use rand::Rng as _;

use crate::clock::{DAY, HOUR, Timestamp};
use crate::seed::{self, Rng, Stream};
use crate::site::Site;
use crate::text::{self, Draft};

type Range = std::ops::RangeInclusive<usize>;

/// A block of an article's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Block {
    Heading(String),
    Paragraph(String),
    List {
        ordered: bool,
        items: Vec<String>,
    },
    /// The first row is the header row.
    Table {
        caption: String,
        rows: Vec<Vec<String>>,
    },
    Figure {
        caption: String,
        image: String,
    },
}

/// An article as first published.
#[derive(Debug, Clone)]
pub(crate) struct Article {
    pub(crate) index: u32,
    pub(crate) section: usize,
    pub(crate) published: Timestamp,
    pub(crate) headline: String,
    pub(crate) standfirst: String,
    pub(crate) author: &'static str,
    pub(crate) body: Vec<Block>,
    /// The body paragraph that has a typo in the first of several captures, and its text
    /// with the typo.
    pub(crate) typo: Option<(usize, String)>,
    /// A paragraph added by a later capture (without its dated prefix).
    pub(crate) update: Option<String>,
    pub(crate) tags: Vec<usize>,
    /// Shown with the long-read template where the design has one.
    pub(crate) feature: bool,
    /// Comments the article gets over its life.
    pub(crate) comments: u32,
}

/// One user comment.
#[derive(Debug, Clone)]
pub(crate) struct Comment {
    pub(crate) author: &'static str,
    pub(crate) at: Timestamp,
    pub(crate) text: String,
}

/// The headline of article `j`, drawn apart from the body so teasers are cheap.
pub(crate) fn headline(site: &Site, j: u32) -> String {
    let mut rng = seed::rng(site.seed, Stream::Headline, &[site.index.into(), j.into()]);
    let draft = Draft::new(&mut rng, site.lang, 1..=1, 5..=9).with_name(&mut rng);
    draft.write(site.lang, &block_name(site, j, 0), false, false)
}

/// The summary of article `j` shown on its section's index page only.
pub(crate) fn dek(site: &Site, j: u32) -> String {
    let mut rng = seed::rng(site.seed, Stream::Dek, &[site.index.into(), j.into()]);
    let draft = Draft::new(&mut rng, site.lang, 1..=1, 10..=16).with_name(&mut rng);
    draft.write(site.lang, &block_name(site, j, 2), false, true)
}

fn block_name(site: &Site, j: u32, block: u32) -> String {
    text::name(site.lang, text::name_id(site.index, j, block))
}

impl Article {
    /// Article `j` of `site`.
    pub(crate) fn new(site: &Site, j: u32) -> Self {
        let mut rng = seed::rng(site.seed, Stream::Body, &[site.index.into(), j.into()]);
        let mut writer = BodyWriter { site, j, next: 4 };
        let standfirst = writer.sentences(&mut rng, 1, 1..=2, 12..=20);
        let feature = rng.random_bool(0.25);
        let paragraphs = if feature {
            rng.random_range(12..=30)
        } else {
            rng.random_range(3..=16)
        };
        let typo_in = rng
            .random_bool(0.4)
            .then(|| rng.random_range(0..paragraphs));
        let (body, typo) = writer.body(&mut rng, paragraphs, typo_in);
        let update = rng
            .random_bool(0.35)
            .then(|| writer.sentences(&mut rng, 3, 1..=2, 10..=18));
        let tags = (0..rng.random_range(2..=4))
            .map(|_| rng.random_range(0..10))
            .collect();
        let comments = if site.profile.comments && rng.random_bool(0.6) {
            rng.random_range(1..=25)
        } else {
            0
        };
        let author = site.profile.authors[rng.random_range(0..site.profile.authors.len())];
        Self {
            index: j,
            section: site.section_of(j),
            published: site.published(j),
            headline: headline(site, j),
            standfirst,
            author,
            body,
            typo,
            update,
            tags,
            feature,
            comments,
        }
    }

    /// The comments posted before `at`, oldest first.
    pub(crate) fn comments_before(&self, site: &Site, at: Timestamp) -> Vec<Comment> {
        let mut posted = self.published;
        let mut out = Vec::new();
        for i in 0..self.comments {
            let mut rng = seed::rng(
                site.seed,
                Stream::Comment,
                &[site.index.into(), self.index.into(), i.into()],
            );
            posted = posted.plus(rng.random_range(HOUR..=4 * DAY));
            if posted >= at {
                break;
            }
            let authors = &site.lang.ui.commenters;
            out.push(Comment {
                author: authors[rng.random_range(0..authors.len())],
                at: posted,
                text: text::prose(&mut rng, site.lang, 1..=3, 5..=15, true),
            });
        }
        out
    }
}

/// Writes body blocks, numbering them as it goes.
struct BodyWriter<'a> {
    site: &'a Site,
    j: u32,
    next: u32,
}

/// A typo: the paragraph at this position in the body gets one in its first capture.
type Typo = Option<(usize, String)>;

impl BodyWriter<'_> {
    fn name(&mut self) -> String {
        self.next += 1;
        block_name(self.site, self.j, self.next - 1)
    }

    /// Sentences carrying the name of fixed block `block` (standfirst, update).
    fn sentences(&self, rng: &mut Rng, block: u32, count: Range, words: Range) -> String {
        let draft = Draft::new(rng, self.site.lang, count, words).with_name(rng);
        draft.write(
            self.site.lang,
            &block_name(self.site, self.j, block),
            false,
            true,
        )
    }

    /// One sentence or phrase carrying the next body block's name.
    fn phrase(&mut self, rng: &mut Rng, words: Range, stop: bool) -> String {
        let name = self.name();
        let draft = Draft::new(rng, self.site.lang, 1..=1, words).with_name(rng);
        draft.write(self.site.lang, &name, false, stop)
    }

    /// The body, and the typo of paragraph number `typo_in`, if that paragraph can carry one.
    fn body(
        &mut self,
        rng: &mut Rng,
        paragraphs: usize,
        typo_in: Option<usize>,
    ) -> (Vec<Block>, Typo) {
        let mut body = Vec::with_capacity(paragraphs + 8);
        let mut typo = None;
        let mut since_heading = 0;
        for i in 0..paragraphs {
            if i > 1 && since_heading >= rng.random_range(3..=6) {
                body.push(Block::Heading(self.phrase(rng, 3..=7, false)));
                since_heading = 0;
            }
            let draft = Draft::new(rng, self.site.lang, 2..=6, 8..=22).with_name(rng);
            let name = self.name();
            if typo_in == Some(i) {
                let draft = draft.clone().with_typo(rng);
                typo = draft
                    .has_typo()
                    .then(|| (body.len(), draft.write(self.site.lang, &name, true, true)));
            }
            body.push(Block::Paragraph(draft.write(
                self.site.lang,
                &name,
                false,
                true,
            )));
            since_heading += 1;
            self.extra(rng, &mut body);
        }
        (body, typo)
    }

    /// Maybe a list, a table or a figure after a paragraph.
    fn extra(&mut self, rng: &mut Rng, body: &mut Vec<Block>) {
        let count = |f: fn(&Block) -> bool| body.iter().filter(|b| f(b)).count();
        let roll = rng.random_range(0..100);
        if roll < 10 && count(|b| matches!(b, Block::List { .. })) < 2 {
            let items = (0..rng.random_range(3..=6))
                .map(|_| self.phrase(rng, 3..=8, false))
                .collect();
            body.push(Block::List {
                ordered: rng.random_bool(0.3),
                items,
            });
        } else if roll < 15 && count(|b| matches!(b, Block::Table { .. })) < 1 {
            body.push(self.table(rng));
        } else if roll < 30 {
            let figures = count(|b| matches!(b, Block::Figure { .. }));
            if figures < 3 {
                let caption = self.phrase(rng, 6..=14, true);
                let image = format!("/media/{}-{}.jpg", self.j, figures + 1);
                body.push(Block::Figure { caption, image });
            }
        }
    }

    fn table(&mut self, rng: &mut Rng) -> Block {
        let caption = self.phrase(rng, 3..=6, false);
        let columns = rng.random_range(2..=4);
        let mut header = vec![self.name()];
        header.extend((1..columns).map(|_| text::prose(rng, self.site.lang, 1..=1, 1..=1, false)));
        let mut rows = vec![header];
        for _ in 0..rng.random_range(3..=6) {
            let mut row = vec![self.name()];
            row.extend((1..columns).map(|_| number(rng, self.site.lang.tag)));
            rows.push(row);
        }
        Block::Table { caption, rows }
    }
}

/// A table cell number, with the language's decimal separator.
fn number(rng: &mut Rng, tag: &str) -> String {
    let value = rng.random_range(0..100_000);
    let text = format!("{}.{}", value / 10, value % 10);
    if tag == "en" || tag == "ja" {
        text
    } else {
        text.replace('.', ",")
    }
}

#[cfg(test)]
#[path = "article_tests.rs"]
mod tests;

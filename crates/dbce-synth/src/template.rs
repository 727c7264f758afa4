//! Page templates: the structure every page of one kind on one site shares in one period.

use rand::Rng as _;

use crate::naming::Naming;
use crate::profile::Skin;
use crate::seed::{self, Rng, Stream};

/// Which of a site's templates a page uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TemplateKind {
    Article,
    Index,
    /// Long reads: no sidebar, headline above the grid.
    Feature,
}

/// Where the sidebar sits in source order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sidebar {
    None,
    Before,
    After,
}

/// The structure of a page.
#[derive(Debug, Clone)]
pub(crate) struct Template {
    /// `site/kind@vN`, as written in the truth file.
    pub(crate) label: String,
    pub(crate) naming: Naming,
    pub(crate) tables: bool,
    pub(crate) entities: bool,
    pub(crate) wrap: Option<usize>,
    /// Wrapper classes around the whole page, outermost first.
    pub(crate) outer: Vec<&'static str>,
    /// Wrapper classes between the main column and the content element; the first two also
    /// wrap the header's and the footer's insides.
    pub(crate) inner: Vec<&'static str>,
    /// The element that holds the main content.
    pub(crate) content_tag: &'static str,
    pub(crate) sidebar: Sidebar,
    /// "Related articles" inside the main column rather than after the grid.
    pub(crate) related_in_main: bool,
    /// The cookie banner comes first in the body rather than last.
    pub(crate) cookie_first: bool,
    /// The headline block sits above the grid.
    pub(crate) hero: bool,
    /// Number of ad slots (1–3).
    pub(crate) ads: usize,
}

/// The templates of one site in one period.
#[derive(Debug, Clone)]
pub(crate) struct Design {
    templates: Vec<Template>,
}

impl Design {
    /// The templates for `skin` on site `site` (key `key`), period `version` (1 or 2).
    pub(crate) fn new(seed: u64, site: u32, key: &str, skin: Skin, version: u32) -> Self {
        let kinds: &[(TemplateKind, &str)] = match skin.templates {
            1 => &[(TemplateKind::Article, "main")],
            2 => &[
                (TemplateKind::Article, "article"),
                (TemplateKind::Index, "index"),
            ],
            _ => &[
                (TemplateKind::Article, "article"),
                (TemplateKind::Index, "index"),
                (TemplateKind::Feature, "feature"),
            ],
        };
        let templates = kinds
            .iter()
            .map(|&(kind, name)| {
                let mut rng = seed::rng(
                    seed,
                    Stream::Template,
                    &[site.into(), version.into(), kind as u64],
                );
                Template::new(&mut rng, skin, kind, format!("{key}/{name}@v{version}"))
            })
            .collect();
        Self { templates }
    }

    /// The template for pages of `kind`, falling back to the article template.
    pub(crate) fn template(&self, kind: TemplateKind) -> &Template {
        let index = match (kind, self.templates.len()) {
            (TemplateKind::Index, n) if n >= 2 => 1,
            (TemplateKind::Feature, n) if n >= 3 => 2,
            _ => 0,
        };
        &self.templates[index]
    }

    /// Whether the design has a long-read template.
    pub(crate) fn has_feature(&self) -> bool {
        self.templates.len() >= 3
    }
}

impl Template {
    fn new(rng: &mut Rng, skin: Skin, kind: TemplateKind, label: String) -> Self {
        let pool = skin.naming.wrappers();
        let start = rng.random_range(0..pool.len());
        let outer = pick(pool, start, rng.random_range(4..=6));
        let inner = pick(pool, start + 5, rng.random_range(4..=8));
        let tags: &[&str] = match (skin.naming, kind) {
            (Naming::Legacy, _) => &["div"],
            (_, TemplateKind::Index) => &["div", "section", "main"],
            _ => &["article", "div", "section", "main"],
        };
        let sidebar = match kind {
            TemplateKind::Feature => Sidebar::None,
            _ if rng.random_bool(0.3) => Sidebar::Before,
            _ => Sidebar::After,
        };
        Self {
            label,
            naming: skin.naming,
            tables: skin.tables,
            entities: skin.entities,
            wrap: skin.wrap,
            outer,
            inner,
            content_tag: tags[rng.random_range(0..tags.len())],
            sidebar,
            related_in_main: rng.random_bool(0.5),
            cookie_first: rng.random_bool(0.5),
            hero: kind == TemplateKind::Feature,
            ads: rng.random_range(1..=3),
        }
    }
}

fn pick(pool: &[&'static str], start: usize, count: usize) -> Vec<&'static str> {
    (0..count).map(|i| pool[(start + i) % pool.len()]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::PROFILES;

    #[test]
    fn designs_have_the_profiles_template_count() {
        let d = Design::new(1, 3, "tech-ledger", PROFILES[3].skins[0], 1);
        assert!(d.has_feature());
        assert_eq!(
            d.template(TemplateKind::Index).label,
            "tech-ledger/index@v1"
        );
        assert_eq!(d.template(TemplateKind::Feature).sidebar, Sidebar::None);
        let single = Design::new(1, 2, "petit-quotidien", PROFILES[2].skins[0], 1);
        assert_eq!(
            single.template(TemplateKind::Index).label,
            "petit-quotidien/main@v1"
        );
        assert_ne!(
            single.template(TemplateKind::Article).content_tag,
            "article"
        );
    }

    #[test]
    fn versions_differ() {
        let skin = PROFILES[0].skins[0];
        let a = Design::new(1, 0, "x", skin, 1);
        let b = Design::new(1, 0, "x", skin, 2);
        assert_ne!(
            a.template(TemplateKind::Article).label,
            b.template(TemplateKind::Article).label
        );
    }
}

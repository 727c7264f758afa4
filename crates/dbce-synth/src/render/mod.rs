//! Rendering a page capture to HTML, recording on the way which text is content, boilerplate
//! or user comments.

mod chrome;
mod head;
mod main;

use crate::html::Html;
use crate::naming::Role;
use crate::page::{Main, Page};
use crate::site::Site;
use crate::template::{Sidebar, Template};

/// The ground truth of a rendered page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Truth {
    /// Main-content lines in document order.
    pub(crate) content: Vec<String>,
    /// Template text, each string once, in document order.
    pub(crate) boilerplate: Vec<String>,
    /// Text of the comment section's entries.
    pub(crate) comments: Vec<String>,
}

/// A rendered page.
#[derive(Debug)]
pub(crate) struct Rendered {
    pub(crate) html: String,
    pub(crate) truth: Truth,
    /// The template's label.
    pub(crate) template: String,
}

/// Renders `page` of `site` with the template in force at its capture time.
pub(crate) fn render(site: &Site, page: &Page) -> Rendered {
    let template = site.design(page.at).template(page.template);
    let mut renderer = Renderer {
        site,
        page,
        t: template,
        html: Html::new(template.entities, template.wrap),
        truth: Truth::default(),
    };
    renderer.document();
    let mut truth = renderer.truth;
    dedup(&mut truth.boilerplate);
    Rendered {
        html: renderer.html.finish(),
        truth,
        template: template.label.clone(),
    }
}

struct Renderer<'a> {
    site: &'a Site,
    page: &'a Page,
    t: &'a Template,
    html: Html,
    truth: Truth,
}

impl Renderer<'_> {
    fn class(&self, role: Role) -> &'static str {
        self.t.naming.class(role)
    }

    /// Boilerplate text in its own element.
    fn boiler(&mut self, tag: &str, role: Role, text: &str) {
        let class = self.class(role);
        self.html.line(tag, &[("class", class)], text);
        self.truth.boilerplate.push(text.to_owned());
    }

    /// A boilerplate link in a list item.
    fn boiler_item(&mut self, class: &str, href: &str, text: &str) {
        let attrs: &[(&str, &str)] = if class.is_empty() {
            &[]
        } else {
            &[("class", class)]
        };
        self.html.open("li", attrs);
        self.html.link(href, text);
        self.html.close("li");
        self.truth.boilerplate.push(text.to_owned());
    }

    fn document(&mut self) {
        self.html.raw("<!DOCTYPE html>");
        self.html.open("html", &[("lang", self.site.lang.tag)]);
        self.head();
        self.html.open("body", &[("class", self.class(Role::Page))]);
        let skip = self.site.lang.ui.skip;
        self.html.line(
            "a",
            &[("class", self.class(Role::Skip)), ("href", "#main")],
            skip,
        );
        self.truth.boilerplate.push(skip.to_owned());
        if self.t.cookie_first {
            self.cookie();
        }
        let t = self.t;
        self.wrappers(&t.outer);
        if t.tables {
            self.table_layout();
        } else {
            self.div_layout();
        }
        self.unwrap(self.t.outer.len());
        if !self.t.cookie_first {
            self.cookie();
        }
        self.scripts();
        self.html.close("body");
        self.html.close("html");
    }

    fn div_layout(&mut self) {
        self.header();
        self.breadcrumb();
        self.ad(0);
        if self.t.hero {
            self.hero();
        }
        self.html
            .open("div", &[("class", self.class(Role::Layout))]);
        if self.t.sidebar == Sidebar::Before {
            self.sidebar("aside");
        }
        self.html.open(
            "div",
            &[("class", self.class(Role::MainCol)), ("id", "main")],
        );
        self.main_column();
        self.html.close("div");
        if self.t.sidebar == Sidebar::After {
            self.sidebar("aside");
        }
        self.html.close("div");
        if !self.t.related_in_main {
            self.related();
        }
        self.ad(2);
        self.footer();
    }

    /// The old-school layout: one table, navigation in the left cell.
    fn table_layout(&mut self) {
        let table = [
            ("class", self.class(Role::Layout)),
            ("width", "100%"),
            ("cellpadding", "0"),
        ];
        self.html.open("table", &table);
        self.html.open("tr", &[]);
        self.html.open("td", &[("colspan", "3")]);
        self.header();
        self.html.close("td");
        self.html.close("tr");
        self.html.open("tr", &[]);
        self.html.open(
            "td",
            &[
                ("class", self.class(Role::Nav)),
                ("valign", "top"),
                ("width", "180"),
            ],
        );
        self.nav();
        self.html.close("td");
        self.html.open(
            "td",
            &[
                ("class", self.class(Role::MainCol)),
                ("id", "main"),
                ("valign", "top"),
            ],
        );
        self.breadcrumb();
        self.ad(0);
        self.main_column();
        if !self.t.related_in_main {
            self.related();
        }
        self.html.close("td");
        self.sidebar("td");
        self.html.close("tr");
        self.html.open("tr", &[]);
        self.html.open("td", &[("colspan", "3")]);
        self.ad(2);
        self.footer();
        self.html.close("td");
        self.html.close("tr");
        self.html.close("table");
    }

    /// The main column: the content element and what follows it.
    fn main_column(&mut self) {
        let (t, page) = (self.t, self.page);
        self.wrappers(&t.inner);
        self.html
            .open(t.content_tag, &[("class", self.class(Role::Content))]);
        match &page.main {
            Main::Article(view) => self.article(view),
            Main::Index { heading, items } => self.index(heading, items),
            Main::Thread(view) => self.thread(view),
        }
        self.html.close(self.t.content_tag);
        if let Main::Article(view) = &page.main {
            self.share_and_tags(&view.article.tags);
            if self.t.related_in_main {
                self.related();
            }
            self.comments(view);
        }
        if self.t.sidebar == Sidebar::None {
            self.ad(1);
        }
        self.unwrap(self.t.inner.len());
    }

    fn wrappers(&mut self, classes: &[&str]) {
        for class in classes {
            self.html.open("div", &[("class", class)]);
        }
    }

    fn unwrap(&mut self, count: usize) {
        for _ in 0..count {
            self.html.close("div");
        }
    }
}

/// Removes repeated strings, keeping each first occurrence.
fn dedup(strings: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::with_capacity(strings.len());
    let keep: Vec<bool> = strings.iter().map(|s| seen.insert(s.as_str())).collect();
    let mut keep = keep.into_iter();
    strings.retain(|_| keep.next().unwrap_or(true));
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;

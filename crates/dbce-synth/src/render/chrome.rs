//! The template around the content: banner, header, navigation, ads, sidebar, related
//! articles and footer. All of its text is boilerplate.

use super::Renderer;
use crate::listing::{self, Teaser};
use crate::naming::Role;
use crate::text;

/// Social networks linked from every footer.
const SOCIAL: [&str; 5] = ["Facebook", "Instagram", "YouTube", "LinkedIn", "RSS"];

impl Renderer<'_> {
    pub(super) fn cookie(&mut self) {
        let [title, body, accept, settings] = self.site.lang.ui.cookie;
        let attrs = [
            ("class", self.class(Role::Cookie)),
            ("id", "cookie"),
            ("role", "dialog"),
        ];
        self.html.open("div", &attrs);
        self.boiler("strong", Role::Cookie, title);
        self.boiler("p", Role::Cookie, body);
        self.html
            .open("div", &[("class", self.class(Role::CookieButtons))]);
        self.boiler("button", Role::CookieButtons, accept);
        self.boiler("button", Role::CookieButtons, settings);
        self.html.close("div");
        self.html.close("div");
    }

    pub(super) fn header(&mut self) {
        let (ui, t) = (self.site.lang.ui, self.t);
        self.html
            .open("header", &[("class", self.class(Role::Header))]);
        self.wrappers(&t.inner[..2]);
        self.html.open("div", &[("class", self.class(Role::Brand))]);
        self.html.raw(
            "<a href=\"/\"><img src=\"/static/logo.png\" alt=\"\" width=\"32\" height=\"32\"> ",
        );
        self.html.text(&self.site.name);
        self.html.end("a");
        self.truth.boilerplate.push(self.site.name.clone());
        self.html.close("div");
        self.html
            .open("ul", &[("class", self.class(Role::TopLinks))]);
        for (i, label) in ui.top_links.iter().enumerate() {
            self.boiler_item("", &format!("/service/{i}"), label);
        }
        self.boiler_item("", "/search", ui.search);
        self.html.close("ul");
        if !self.t.tables {
            self.nav();
        }
        self.unwrap(2);
        self.html.close("header");
    }

    pub(super) fn nav(&mut self) {
        let (ui, profile) = (self.site.lang.ui, self.site.profile);
        self.html.open(
            "nav",
            &[("class", self.class(Role::Nav)), ("aria-label", "main")],
        );
        self.html
            .open("ul", &[("class", self.class(Role::NavList))]);
        let item = self.class(Role::NavItem);
        self.boiler_item(item, "/", ui.home);
        for s in 0..profile.sections.len() {
            let href = format!("/{}/", self.site.section_path(s));
            self.boiler_item(item, &href, profile.sections[s]);
        }
        self.html.open("li", &[("class", item)]);
        self.html.line("span", &[], ui.more);
        self.truth.boilerplate.push(ui.more.to_owned());
        self.html.open("ul", &[("class", "dropdown")]);
        for (i, topic) in profile.topics.iter().enumerate() {
            let href = format!("/topic/{}-{i}", text::slug(topic, 3));
            self.boiler_item("", &href, topic);
        }
        self.html.close("ul");
        self.html.close("li");
        self.html.close("ul");
        self.html.close("nav");
    }

    pub(super) fn breadcrumb(&mut self) {
        let site = self.site;
        let Some(section) = self.page.section else {
            return;
        };
        let label = site.profile.sections[section];
        let attrs = [
            ("class", self.class(Role::Breadcrumb)),
            ("aria-label", "breadcrumb"),
        ];
        self.html.open("nav", &attrs);
        self.html.open("ol", &[]);
        self.boiler_item("", "/", site.lang.ui.home);
        self.boiler_item("", &listing::index_url(site, Some(section)), label);
        self.html.close("ol");
        self.html.close("nav");
    }

    /// Ad slot `slot`, if the template has that many.
    pub(super) fn ad(&mut self, slot: usize) {
        if slot >= self.t.ads {
            return;
        }
        let ui = self.site.lang.ui;
        let ad = self.page.ads[slot];
        self.html.open(
            "div",
            &[
                ("class", self.class(Role::Ad)),
                ("id", &format!("ad-slot-{slot}")),
            ],
        );
        self.html
            .line("span", &[("class", "label")], ui.advertisement);
        self.html.open("div", &[("class", "creative")]);
        let href = format!("https://ads.example/click?c={ad}&s={slot}");
        self.html.line(
            "a",
            &[("href", &href), ("rel", "sponsored nofollow")],
            &self.site.ads[ad],
        );
        self.html
            .line("a", &[("href", &href), ("class", "cta")], ui.ad_cta);
        self.html.close("div");
        self.html.close("div");
        let pushed = [ui.advertisement, &self.site.ads[ad], ui.ad_cta].map(str::to_owned);
        self.truth.boilerplate.extend(pushed);
    }

    /// The sidebar, as an element `tag` (`aside`, or `td` in table layouts).
    pub(super) fn sidebar(&mut self, tag: &str) {
        let (ui, page) = (self.site.lang.ui, self.page);
        self.html.open(tag, &[("class", self.class(Role::SideCol))]);
        self.teaser_box(ui.most_read, &page.most_read, "ol");
        self.ad(1);
        self.html
            .open("div", &[("class", self.class(Role::Widget))]);
        let [title, body, button] = ui.newsletter;
        self.boiler("h3", Role::WidgetTitle, title);
        self.boiler("p", Role::Widget, body);
        self.html.void(
            "input",
            &[
                ("type", "email"),
                ("name", "email"),
                ("placeholder", "email@example.com"),
            ],
        );
        self.boiler("button", Role::Widget, button);
        self.html.close("div");
        self.html.close(tag);
    }

    pub(super) fn related(&mut self) {
        let page = self.page;
        if page.related.is_empty() {
            return;
        }
        self.html
            .open("section", &[("class", self.class(Role::Related))]);
        self.teaser_box(self.site.lang.ui.related, &page.related, "ul");
        self.html.close("section");
    }

    fn teaser_box(&mut self, title: &str, teasers: &[Teaser], list: &str) {
        self.html
            .open("div", &[("class", self.class(Role::Widget))]);
        self.boiler("h3", Role::WidgetTitle, title);
        self.html.open(list, &[]);
        let class = self.class(Role::Teaser);
        for teaser in teasers {
            self.html.open("li", &[("class", class)]);
            self.html.open("div", &[("class", "teaser-inner")]);
            self.html
                .line("a", &[("href", &teaser.url)], &teaser.headline);
            self.html.close("div");
            self.html.close("li");
            self.truth.boilerplate.push(teaser.headline.clone());
        }
        self.html.close(list);
        self.html.close("div");
    }

    pub(super) fn footer(&mut self) {
        let site = self.site;
        let (ui, profile, t) = (site.lang.ui, site.profile, self.t);
        self.html
            .open("footer", &[("class", self.class(Role::Footer))]);
        self.wrappers(&t.inner[..2]);
        self.html.open("div", &[("class", "footer-columns")]);
        let sections: Vec<(String, &str)> = (0..profile.sections.len())
            .map(|s| {
                (
                    format!("/{}/", self.site.section_path(s)),
                    profile.sections[s],
                )
            })
            .collect();
        self.footer_column(&sections);
        let topics: Vec<(String, &str)> = profile
            .topics
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("/topic/{i}"), *t))
            .collect();
        self.footer_column(&topics);
        let links: Vec<(String, &str)> = ui
            .footer_links
            .iter()
            .enumerate()
            .map(|(i, l)| (format!("/info/{i}"), *l))
            .collect();
        self.footer_column(&links);
        let social: Vec<(String, &str)> = SOCIAL
            .iter()
            .map(|s| (format!("https://social.example/{}", s.to_lowercase()), *s))
            .collect();
        self.footer_column(&social);
        self.html.close("div");
        self.html.open("div", &[("class", self.class(Role::About))]);
        self.boiler("h4", Role::About, ui.about);
        self.boiler("p", Role::About, &site.about);
        self.html.close("div");
        let year = self.page.at.civil().year;
        let copyright = format!("© {year} {} · {}", profile.company, ui.rights);
        self.boiler("p", Role::Copyright, &copyright);
        self.unwrap(2);
        self.html.close("footer");
    }

    fn footer_column(&mut self, links: &[(String, &str)]) {
        self.html
            .open("div", &[("class", self.class(Role::FooterCol))]);
        self.html.open("ul", &[]);
        for (href, label) in links {
            self.boiler_item("", href, label);
        }
        self.html.close("ul");
        self.html.close("div");
    }
}

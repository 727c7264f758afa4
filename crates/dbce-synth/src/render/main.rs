//! The main column: article text or an index page's teaser list (content), and the share bar,
//! tags and comments around it (not content).

use super::Renderer;
use crate::article::{Article, Block};
use crate::listing::Teaser;
use crate::naming::Role;
use crate::page::{ArticleView, Main, ThreadView};
use crate::text;

impl Renderer<'_> {
    /// Content text in its own element.
    fn content(&mut self, tag: &str, class: &str, text: &str) {
        let attrs: &[(&str, &str)] = if class.is_empty() {
            &[]
        } else {
            &[("class", class)]
        };
        self.html.line(tag, attrs, text);
        self.truth.content.push(text.to_owned());
    }

    /// The headline block above the grid (long-read template).
    pub(super) fn hero(&mut self) {
        let page = self.page;
        if let Main::Article(view) = &page.main {
            self.html.open("div", &[("class", "hero")]);
            self.article_header(&view.article);
            self.html.close("div");
        }
    }

    fn article_header(&mut self, article: &Article) {
        self.html.open("header", &[]);
        self.content("h1", self.class(Role::Headline), &article.headline);
        self.content("p", self.class(Role::Standfirst), &article.standfirst);
        let lang = self.site.lang;
        let date = lang.date(article.published, true);
        self.html
            .open("div", &[("class", self.class(Role::Byline))]);
        self.html.text(lang.ui.by);
        self.html.raw(" ");
        self.html.link(
            &format!("/author/{}", text::slug(article.author, 3)),
            article.author,
        );
        self.html.raw(" · ");
        self.html
            .start_tag("time", &[("datetime", &article.published.iso())]);
        self.html.text(&date);
        self.html.end("time");
        self.html.close("div");
        self.html.close("header");
        self.truth
            .content
            .push(format!("{} {} · {date}", lang.ui.by, article.author));
    }

    pub(super) fn article(&mut self, view: &ArticleView) {
        let article = &view.article;
        if !self.t.hero {
            self.article_header(article);
        }
        self.html
            .open("div", &[("class", self.class(Role::ArticleBody))]);
        for (i, block) in article.body.iter().enumerate() {
            match article
                .typo
                .as_ref()
                .filter(|(at, _)| view.typo && *at == i)
            {
                Some((_, with_typo)) => self.paragraph(i, with_typo),
                None => self.block(i, block),
            }
        }
        if let Some(update) = &view.update {
            self.content("p", "update-note", update);
        }
        self.html.close("div");
    }

    /// A paragraph; some get an inline link or emphasis around a few words.
    fn paragraph(&mut self, index: usize, text: &str) {
        self.truth.content.push(text.to_owned());
        let spaces: Vec<usize> = text
            .bytes()
            .enumerate()
            .filter(|(_, b)| *b == b' ')
            .map(|(i, _)| i)
            .take(9)
            .collect();
        self.html.begin("p", &[]);
        if spaces.len() > 8 && index % 3 != 2 {
            let (from, to) = (spaces[2] + 1, spaces[4]);
            self.html.text(&text[..from]);
            if index.is_multiple_of(3) {
                self.html.link(
                    &format!("/topic/{}", text::slug(&text[from..to], 2)),
                    &text[from..to],
                );
            } else {
                self.html.start_tag("em", &[]);
                self.html.text(&text[from..to]);
                self.html.end("em");
            }
            self.html.text(&text[to..]);
        } else {
            self.html.text(text);
        }
        self.html.end("p");
    }

    /// Body block number `index`.
    fn block(&mut self, index: usize, block: &Block) {
        match block {
            Block::Paragraph(text) => self.paragraph(index, text),
            Block::Heading(text) => self.content("h2", "", text),
            Block::List { ordered, items } => {
                let tag = if *ordered { "ol" } else { "ul" };
                self.html.open(tag, &[]);
                for item in items {
                    self.html.line("li", &[], item);
                    self.truth.content.push(item.clone());
                }
                self.html.close(tag);
            }
            Block::Table { caption, rows } => self.table(caption, rows),
            Block::Figure { caption, image } => {
                self.html
                    .open("figure", &[("class", self.class(Role::Figure))]);
                self.html
                    .void("img", &[("src", image), ("alt", ""), ("loading", "lazy")]);
                self.content("figcaption", "", caption);
                self.html.close("figure");
            }
        }
    }

    fn table(&mut self, caption: &str, rows: &[Vec<String>]) {
        self.html.open("table", &[("class", "data-table")]);
        self.content("caption", "", caption);
        for (r, row) in rows.iter().enumerate() {
            let (group, cell) = if r == 0 {
                ("thead", "th")
            } else {
                ("tbody", "td")
            };
            if r < 2 {
                self.html.open(group, &[]);
            }
            self.html.open("tr", &[]);
            for value in row {
                self.html.line(cell, &[], value);
            }
            self.html.close("tr");
            if r == 0 || r + 1 == rows.len() {
                self.html.close(group);
            }
            self.truth.content.push(row.join("\t"));
        }
        self.html.close("table");
    }

    /// A home or section page's heading and teasers.
    pub(super) fn index(&mut self, heading: &str, items: &[Teaser]) {
        self.content("h1", self.class(Role::Headline), heading);
        self.html
            .open("ul", &[("class", self.class(Role::IndexList))]);
        let read_more = self.site.lang.ui.read_more;
        for (i, item) in items.iter().enumerate() {
            self.html.open("li", &[("class", self.class(Role::Teaser))]);
            self.html.open("div", &[("class", "teaser-body")]);
            let tag = if i == 0 { "h2" } else { "h3" };
            self.html.begin(tag, &[]);
            self.html.link(&item.url, &item.headline);
            self.html.end(tag);
            self.truth.content.push(item.headline.clone());
            if let Some(dek) = &item.dek {
                self.content("p", self.class(Role::Dek), dek);
            }
            self.html
                .line("a", &[("class", "more"), ("href", &item.url)], read_more);
            self.truth.boilerplate.push(read_more.to_owned());
            self.html.close("div");
            self.html.close("li");
        }
        self.html.close("ul");
    }

    /// A forum thread's page: the title, the first post, then this page's replies; every post
    /// an author line and its paragraphs, all content.
    pub(super) fn thread(&mut self, view: &ThreadView) {
        let thread = &view.thread;
        self.content("h1", self.class(Role::Headline), &thread.title);
        self.html.open("ol", &[("class", "posts")]);
        for post in std::iter::once(&thread.first).chain(thread.replies_on(view.page)) {
            self.html.open("li", &[("class", "post")]);
            let date = self.site.lang.date(post.at, true);
            self.html.open("div", &[("class", "post-meta")]);
            self.html.line("span", &[("class", "author")], post.author);
            self.html.raw(" · ");
            self.html.start_tag("time", &[("datetime", &post.at.iso())]);
            self.html.text(&date);
            self.html.end("time");
            self.html.close("div");
            self.truth.content.push(format!("{} · {date}", post.author));
            for paragraph in &post.paragraphs {
                self.content("p", "", paragraph);
            }
            self.html.close("li");
        }
        self.html.close("ol");
    }

    pub(super) fn share_and_tags(&mut self, tags: &[usize]) {
        let (ui, profile) = (self.site.lang.ui, self.site.profile);
        self.html.open("div", &[("class", self.class(Role::Share))]);
        for (i, label) in ui.share.iter().enumerate() {
            self.html.line(
                "a",
                &[("class", "share"), ("href", &format!("#share-{i}"))],
                label,
            );
            self.truth.boilerplate.push((*label).to_owned());
        }
        self.html.close("div");
        self.html.open("div", &[("class", self.class(Role::Tags))]);
        self.boiler("span", Role::Tags, ui.topics);
        self.html.open("ul", &[]);
        for &tag in tags {
            self.boiler_item("", &format!("/topic/{tag}"), profile.topics[tag]);
        }
        self.html.close("ul");
        self.html.close("div");
    }

    pub(super) fn comments(&mut self, view: &ArticleView) {
        if view.article.comments == 0 {
            return;
        }
        let ui = self.site.lang.ui;
        self.html.open(
            "section",
            &[("class", self.class(Role::Comments)), ("id", "comments")],
        );
        self.boiler(
            "h3",
            Role::Comments,
            &ui.comments.replace("{}", &view.comments.len().to_string()),
        );
        self.html.open("ol", &[]);
        for comment in &view.comments {
            self.html
                .open("li", &[("class", self.class(Role::Comment))]);
            let date = self.site.lang.date(comment.at, true);
            self.html.open("div", &[("class", "meta")]);
            self.html
                .line("span", &[("class", "author")], comment.author);
            self.html.raw(" · ");
            self.html
                .start_tag("time", &[("datetime", &comment.at.iso())]);
            self.html.text(&date);
            self.html.end("time");
            self.html.close("div");
            self.html.line("p", &[], &comment.text);
            self.html.close("li");
            self.truth
                .comments
                .push(format!("{} · {date}", comment.author));
            self.truth.comments.push(comment.text.clone());
        }
        self.html.close("ol");
        self.comment_form();
        self.html.close("section");
    }

    fn comment_form(&mut self) {
        let [title, name, email, submit] = self.site.lang.ui.comment_form;
        self.html.open(
            "form",
            &[
                ("class", self.class(Role::CommentForm)),
                ("method", "post"),
                ("action", "/comments"),
            ],
        );
        self.boiler("h4", Role::CommentForm, title);
        for (label, field) in [(name, "name"), (email, "email")] {
            self.boiler("label", Role::CommentForm, label);
            self.html
                .void("input", &[("type", "text"), ("name", field)]);
        }
        self.html
            .line("textarea", &[("name", "body"), ("rows", "5")], "");
        self.boiler("button", Role::CommentForm, submit);
        self.html.close("form");
    }
}

//! The document head and the scripts at the end of the body: text no extractor should keep.

use super::Renderer;
use crate::naming::Role;
use crate::page::Main;

impl Renderer<'_> {
    pub(super) fn head(&mut self) {
        let charset = self.site.profile.charset.label();
        self.html.open("head", &[]);
        if self.t.tables || self.t.entities {
            let value = format!("text/html; charset={charset}");
            self.html.void(
                "meta",
                &[("http-equiv", "Content-Type"), ("content", &value)],
            );
        } else {
            self.html.void("meta", &[("charset", charset)]);
        }
        self.html.line("title", &[], &self.page.title);
        self.html.void(
            "meta",
            &[
                ("name", "viewport"),
                ("content", "width=device-width, initial-scale=1"),
            ],
        );
        let (description, kind) = match &self.page.main {
            Main::Article(view) => (view.article.standfirst.as_str(), "article"),
            Main::Index { heading, .. } => (heading.as_str(), "website"),
            Main::Thread(view) => (view.thread.title.as_str(), "website"),
        };
        self.html
            .void("meta", &[("name", "description"), ("content", description)]);
        self.html
            .void("meta", &[("property", "og:type"), ("content", kind)]);
        self.html.void(
            "meta",
            &[("property", "og:title"), ("content", &self.page.title)],
        );
        self.html
            .void("link", &[("rel", "canonical"), ("href", &self.page.url)]);
        self.html.void(
            "link",
            &[("rel", "stylesheet"), ("href", "/static/site.css?v=3")],
        );
        self.html
            .void("link", &[("rel", "icon"), ("href", "/static/logo.png")]);
        self.style();
        self.data_layer(kind);
        self.html.close("head");
    }

    fn style(&mut self) {
        let mut css = String::from("\n");
        for (role, rule) in [
            (Role::Content, "max-width:44rem;margin:0 auto"),
            (Role::Headline, "font:700 2.2rem/1.15 Georgia,serif"),
            (Role::ArticleBody, "font-size:1.1rem;line-height:1.6"),
            (Role::SideCol, "font-size:.9rem"),
            (
                Role::Ad,
                "min-height:90px;background:#f4f4f4;text-align:center",
            ),
            (Role::Cookie, "position:fixed;bottom:0;z-index:99"),
            (Role::Footer, "background:#222;color:#ccc;padding:2rem 0"),
        ] {
            let selector = self
                .class(role)
                .split(' ')
                .next()
                .unwrap_or("x")
                .replace(':', "\\:");
            css.push_str(&format!(".{selector}{{{rule}}}\n"));
        }
        css.push_str(".hidden{display:none}\n");
        self.html.open("style", &[]);
        self.html.raw(&css);
        self.html.close("style");
    }

    fn data_layer(&mut self, kind: &str) {
        let page = self.page;
        let section = page
            .section
            .map_or("home", |s| self.site.profile.sections[s]);
        let script = format!(
            "\nwindow.dataLayer = window.dataLayer || [];\ndataLayer.push({{\"pageType\": \"{kind}\", \
             \"section\": {}, \"site\": {}}});\n",
            json(section),
            json(&self.site.name)
        );
        self.script(&[], &script);
        if let Main::Article(view) = &page.main {
            let a = &view.article;
            let linked = format!(
                "{{\"@context\":\"https://schema.org\",\"@type\":\"NewsArticle\",\"headline\":{},\
                 \"datePublished\":\"{}\",\"author\":{{\"@type\":\"Person\",\"name\":{}}}}}",
                json(&a.headline),
                a.published.iso(),
                json(a.author)
            );
            self.script(&[("type", "application/ld+json")], &linked);
        }
        if let Main::Thread(view) = &page.main {
            let t = &view.thread;
            let linked = format!(
                "{{\"@context\":\"https://schema.org\",\"@type\":\"DiscussionForumPosting\",\
                 \"headline\":{},\"datePublished\":\"{}\",\"commentCount\":{}}}",
                json(&t.title),
                t.first.at.iso(),
                t.replies.len()
            );
            self.script(&[("type", "application/ld+json")], &linked);
        }
    }

    fn script(&mut self, attrs: &[(&str, &str)], body: &str) {
        self.html.open("script", attrs);
        self.html.raw(body);
        self.html.close("script");
    }

    pub(super) fn scripts(&mut self) {
        self.html.void(
            "script",
            &[("src", "/static/app.js?v=3"), ("defer", "defer")],
        );
        self.html.raw("</script>");
        self.script(
            &[],
            "\n(function () {\n  var consent = document.cookie.indexOf('consent=1') > -1;\n  \
             var note = 'Please enable JavaScript to read the comments.';\n  \
             if (!consent) { document.body.classList.add('needs-consent'); }\n  \
             window.__cfg = { ads: true, note: note };\n})();\n",
        );
    }
}

fn json(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

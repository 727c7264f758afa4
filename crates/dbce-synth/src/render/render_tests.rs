use super::*;
use crate::Config;
use crate::plan::{self, Capture, Target};

fn pages(site: &Site) -> Vec<(Capture, Rendered)> {
    plan::plan(std::slice::from_ref(site), 3)
        .into_iter()
        .filter_map(|c| {
            let shown = c.target.shown().ok()?;
            Some((c, render(site, &Page::new(site, &c, shown, 3))))
        })
        .collect()
}

/// The deepest nesting of `div` elements in `html`.
fn div_depth(html: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0);
    for (i, _) in html
        .match_indices("<div")
        .chain(html.match_indices("</div>"))
        .collect::<std::collections::BTreeMap<_, _>>()
    {
        if html[i..].starts_with("</") {
            depth -= 1;
        } else {
            depth += 1;
            deepest = deepest.max(depth);
        }
    }
    assert_eq!(depth, 0, "unbalanced divs");
    deepest
}

#[test]
fn pages_are_deep_link_rich_documents() {
    let config = Config {
        sites: 6,
        pages: 60,
        ..Config::default()
    };
    let mut article_tag = (false, false);
    for index in 0..6 {
        let site = Site::new(&config, index);
        for (capture, page) in pages(&site) {
            let html = &page.html;
            assert!(
                html.starts_with("<!DOCTYPE html>")
                    && html.contains("<script")
                    && html.contains("<style>")
            );
            assert!(html.matches("<a ").count() >= 50, "{}", page.template);
            assert!(html.matches("<div").count() >= 30, "{}", page.template);
            assert!(
                div_depth(html) >= 10,
                "{}: {}",
                page.template,
                div_depth(html)
            );
            assert!(!page.truth.content.is_empty() && page.truth.boilerplate.len() >= 40);
            let about = &site.about;
            assert!(about.len() > 400 && page.truth.boilerplate.contains(about));
            if matches!(capture.target, Target::Article(_)) {
                let in_article = html.contains("<article");
                article_tag = (article_tag.0 || in_article, article_tag.1 || !in_article);
            }
        }
    }
    assert_eq!(
        article_tag,
        (true, true),
        "content sometimes in <article>, sometimes not"
    );
}

#[test]
fn rendering_is_deterministic() {
    let site = Site::new(&Config::default(), 3);
    let a: Vec<String> = pages(&site).into_iter().map(|(_, r)| r.html).collect();
    let b: Vec<String> = pages(&site).into_iter().map(|(_, r)| r.html).collect();
    assert_eq!(a, b);
}

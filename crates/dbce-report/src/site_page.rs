//! A site's page (`sites/SITE.html`): its templates, the pages it kept least and most of, its
//! captures per URL and its pages with a viewer.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use dbce_pipeline::PageId;

use crate::html;
use crate::sample::EXTREMES;
use crate::site::{PageRow, Site};

/// Templates listed per site, largest first.
const TEMPLATES_SHOWN: usize = 30;
/// Pages named per template.
const TEMPLATE_PAGES_SHOWN: usize = 8;

/// The page of `site`, whose pages `viewers` have a viewer.
pub(crate) fn render(site: &Site, viewers: &BTreeSet<PageId>) -> String {
    let mut body = format!("<h1>{}</h1>\n", html::text(&site.name));
    let _ = writeln!(
        body,
        "<p><span id=\"site-pages\">{}</span> pages, {} with a viewer; mean share of words kept \
         {}; {} emptied; {} distinct LSH buckets (templates).</p>",
        site.pages.len(),
        viewers.len(),
        html::percent(site.mean_kept_share()),
        site.emptied().count(),
        site.templates.len(),
    );
    body.push_str(&templates(site, viewers));
    let by_share = site.by_kept_share();
    let least: Vec<&PageRow> = by_share.iter().take(EXTREMES).copied().collect();
    let most: Vec<&PageRow> = by_share.iter().rev().take(EXTREMES).copied().collect();
    body.push_str("<div class=\"columns\"><section><h2>Least kept</h2>");
    body.push_str(&page_table("least-kept", &least, viewers));
    body.push_str("</section><section><h2>Most kept</h2>");
    body.push_str(&page_table("most-kept", &most, viewers));
    body.push_str("</section></div>\n");
    body.push_str(&captures(site));
    let shown: Vec<&PageRow> = site
        .pages
        .iter()
        .filter(|row| viewers.contains(&row.id))
        .collect();
    body.push_str("<h2>Pages with a viewer</h2>");
    body.push_str(&page_table("site-pages-list", &shown, viewers));
    html::page(&site.name, "../", &body)
}

/// A page's name in a list: its URL, linked to its viewer when it has one.
pub(crate) fn page_link(row: &PageRow, viewers: &BTreeSet<PageId>, root: &str) -> String {
    if viewers.contains(&row.id) {
        format!(
            "<a href=\"{root}pages/{}.html\">{}</a>",
            row.id,
            html::text(&row.record.url)
        )
    } else {
        html::text(&row.record.url)
    }
}

fn page_table(id: &str, rows: &[&PageRow], viewers: &BTreeSet<PageId>) -> String {
    let rows: Vec<String> = rows
        .iter()
        .map(|row| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
                page_link(row, viewers, "../"),
                html::text(&row.record.date),
                row.record.page_type.name(),
                html::text(&row.record.decided_by),
                html::percent(row.kept_share()),
            )
        })
        .collect();
    html::table(
        id,
        &["page", "date", "page_type", "decided_by", "kept"],
        &rows,
    )
}

fn templates(site: &Site, viewers: &BTreeSet<PageId>) -> String {
    let rows: Vec<String> = site
        .templates
        .iter()
        .take(TEMPLATES_SHOWN)
        .map(|template| {
            let pages: Vec<String> = template
                .pages
                .iter()
                .take(TEMPLATE_PAGES_SHOWN)
                .filter_map(|&id| site.page(id))
                .map(|row| page_link(row, viewers, "../"))
                .collect();
            let more = template.pages.len().saturating_sub(TEMPLATE_PAGES_SHOWN);
            format!(
                "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}{}</td></tr>",
                template.pages.len(),
                template.bands,
                pages.join("<br>"),
                if more > 0 {
                    format!("<br>… and {more} more")
                } else {
                    String::new()
                }
            )
        })
        .collect();
    format!(
        "<h2>Templates: LSH buckets, those with the same pages merged</h2>{}",
        html::table("templates", &["pages", "bands", "pages in it"], &rows)
    )
}

fn captures(site: &Site) -> String {
    let rows: Vec<String> = site
        .captures
        .iter()
        .map(|(captures, urls)| {
            format!("<tr><td class=\"num\">{captures}</td><td class=\"num\">{urls}</td></tr>")
        })
        .collect();
    let most: Vec<String> = site
        .most_captured
        .iter()
        .map(|(url, n)| {
            format!(
                "<tr><td>{}</td><td class=\"num\">{n}</td></tr>",
                html::text(url)
            )
        })
        .collect();
    format!(
        "<div class=\"columns\"><section><h2>Captures per URL</h2>{}</section>\
         <section><h2>Most captured URLs</h2>{}</section></div>\n",
        html::table("captures", &["captures", "URLs"], &rows),
        html::table("most-captured", &["URL", "captures"], &most),
    )
}

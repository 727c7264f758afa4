//! The page list (`pages.html`): every page with a viewer, and a filter by site, type, method,
//! deciding route and share kept (`filter.js`; its settings can be given in the URL's fragment,
//! `pages.html#site=example.com&type=article&method=cross&route=agree&min=0.2&max=0.8`).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::html;
use crate::overview::ListedPage;

/// `pages.html` listing `pages`.
pub(crate) fn render(pages: &[ListedPage]) -> String {
    let mut body = String::from("<h1>Pages with a viewer</h1>\n<form id=\"filter\">");
    let choices =
        |pick: fn(&ListedPage) -> &str| -> BTreeSet<&str> { pages.iter().map(pick).collect() };
    for (name, label, values) in [
        ("site", "site", choices(|p| &p.site)),
        ("type", "page_type", choices(|p| p.page_type)),
        ("method", "method", choices(|p| &p.method)),
        ("route", "decided_by", choices(|p| &p.route)),
    ] {
        let _ = write!(
            body,
            "<label>{label} <select name=\"{name}\"><option value=\"\">all</option>"
        );
        for value in values {
            let _ = write!(
                body,
                "<option value=\"{0}\">{1}</option>",
                html::attr(value),
                html::text(value)
            );
        }
        body.push_str("</select></label> ");
    }
    body.push_str(
        "<label>kept from <input name=\"min\" type=\"number\" min=\"0\" max=\"1\" step=\"0.05\" \
         value=\"0\"></label> <label>to <input name=\"max\" type=\"number\" min=\"0\" max=\"1\" \
         step=\"0.05\" value=\"1\"></label></form>\n",
    );
    let _ = writeln!(
        body,
        "<p><span id=\"shown\">{0}</span> of <span id=\"listed\">{0}</span> pages shown.</p>",
        pages.len()
    );
    let rows: Vec<String> = pages
        .iter()
        .map(|page| {
            format!(
                "<tr data-site=\"{}\" data-type=\"{}\" data-method=\"{}\" data-route=\"{}\" \
                 data-kept=\"{:.4}\"><td><a href=\"pages/{}.html\">{}</a></td><td>{}</td>\
                 <td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
                html::attr(&page.site),
                page.page_type,
                html::attr(&page.method),
                html::attr(&page.route),
                page.kept_share,
                page.id,
                html::text(&page.url),
                html::text(&page.date),
                html::text(&page.site),
                page.page_type,
                html::text(&page.method),
                html::text(&page.route),
                html::percent(page.kept_share),
            )
        })
        .collect();
    body.push_str(&html::table(
        "pages",
        &[
            "page",
            "date",
            "site",
            "page_type",
            "method",
            "decided_by",
            "kept",
        ],
        &rows,
    ));
    body.push_str("<script src=\"filter.js\"></script>\n");
    html::page("dbce: pages", "", &body)
}

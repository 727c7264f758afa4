//! The page viewer (`pages/PAGE.html`): the page as archived with its runs shaded, beside what
//! the run decided of it and its JSONL record.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use dbce_pipeline::PageId;

use crate::html;
use crate::site::{PageRow, Site, site_file};

/// What the annotated page may load: nothing from the network and no script, only its own
/// inline styles and inline images, so that a viewer opens offline and runs none of the page.
const FRAME_POLICY: &str = "<meta http-equiv=\"Content-Security-Policy\" \
     content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\
     <style>.dbce:hover{outline:2px solid #1565c0}</style>";

/// The annotated page as the viewer frames it (`pages/PAGE.page.html`): `annotated` (as
/// [`annotated_html`](dbce_annotate::annotated_html) writes it) under [`FRAME_POLICY`].
pub(crate) fn frame(annotated: &str) -> String {
    match annotated.find("<head>") {
        Some(at) => {
            let at = at + "<head>".len();
            format!("{}{FRAME_POLICY}{}", &annotated[..at], &annotated[at..])
        }
        None => format!("{FRAME_POLICY}{annotated}"),
    }
}

/// The viewer of `row`, a page of `site` whose pages `viewers` have a viewer.
///
/// # Errors
/// Fails when the page's JSONL record does not serialise.
pub(crate) fn render(
    row: &PageRow,
    site: &Site,
    viewers: &BTreeSet<PageId>,
) -> Result<String, serde_json::Error> {
    let record = &row.record;
    let mut panel = format!(
        "<h1><a href=\"{}\" rel=\"noreferrer\">{}</a></h1>\n<dl id=\"decision\">",
        html::attr(&record.url),
        html::text(if record.title.is_empty() {
            &record.url
        } else {
            &record.title
        }),
    );
    let mut field = |name: &str, value: String| {
        let _ = write!(
            panel,
            "<dt>{name}</dt><dd data-field=\"{name}\">{value}</dd>"
        );
    };
    field(
        "site",
        format!(
            "<a href=\"../{}\">{}</a>",
            html::attr(&site_file(&record.site)),
            html::text(&record.site)
        ),
    );
    field("date", html::text(&record.date));
    field(
        "page_type",
        format!(
            "{} ({:.2})",
            record.page_type.name(),
            record.page_type_confidence
        ),
    );
    field("method", html::text(&record.method));
    field("decided_by", html::text(&record.decided_by));
    if let Some(reason) = &record.empty_reason {
        field("empty_reason", html::text(reason));
    }
    field(
        "kept",
        format!(
            "{} ({} of {} words)",
            html::percent(row.kept_share()),
            row.kept_words,
            row.words
        ),
    );
    panel.push_str("</dl>\n<h2>Cross</h2>");
    panel.push_str(&partners(row, site, viewers));
    panel.push_str(
        "<p class=\"note\">Green runs are content, red boilerplate, grey invalid. Hover a \
         run for its class, what decided it (pattern, t002, learned, single-page, \
         propagated, url-family, teaser) and its bits: the cross members present (cur, up, down, prev, next) and \
         those the run occurs in.</p>\n<h2>JSONL record</h2><pre id=\"record\">",
    );
    let json = serde_json::to_string_pretty(record)?;
    panel.push_str(&html::text(&json));
    panel.push_str("</pre>");
    let body = format!(
        "<div class=\"viewer\"><iframe id=\"page\" src=\"{id}.page.html\" \
         title=\"the page as archived, annotated\"></iframe>\
         <aside>{panel}</aside></div>\n",
        id = row.id
    );
    Ok(html::page(&record.url, "../", &body))
}

/// The page's cross members, each linked to its viewer when it has one.
fn partners(row: &PageRow, site: &Site, viewers: &BTreeSet<PageId>) -> String {
    if row.record.cross.is_empty() {
        return "<p>No cross: the page was classified alone.</p>".to_owned();
    }
    let rows: Vec<String> = row
        .record
        .cross
        .iter()
        .map(|(role, member)| {
            let id = PageId::from_record_id(&member.id);
            let name = match site.page(id) {
                Some(partner) => format!(
                    "{} ({})",
                    crate::site_page::page_link(partner, viewers, "../"),
                    html::text(&partner.record.date)
                ),
                None => html::text(&member.id),
            };
            format!(
                "<tr data-role=\"{}\"><td>{}</td><td>{name}</td><td class=\"num\">{:.2}</td></tr>",
                html::attr(role),
                html::text(role),
                member.similarity
            )
        })
        .collect();
    html::table("cross", &["role", "page", "similarity"], &rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::row;
    use dbce_output::CrossMember;

    #[test]
    fn partners_link_to_their_viewers_when_they_have_one() {
        let mut page = row(1, 50, false);
        for (role, n) in [("up", 2), ("down", 3)] {
            let member = CrossMember {
                id: format!("<urn:test:{n}>"),
                similarity: 0.5,
            };
            page.record.cross.insert(role.into(), member);
        }
        let mut rows = vec![page, row(2, 10, false), row(3, 10, false)];
        for row in &mut rows {
            row.id = PageId::from_record_id(&row.record.id);
        }
        rows.sort_by_key(|row| row.id);
        let site = Site::new("a.test".into(), rows, &[]);
        let first = PageId::from_record_id("<urn:test:1>");
        let second = PageId::from_record_id("<urn:test:2>");
        let viewers: BTreeSet<PageId> = [first, second].into();
        let html = render(site.page(first).unwrap(), &site, &viewers).unwrap();
        assert!(html.contains(&format!(
            "<a href=\"../pages/{second}.html\">http://a.test/2</a>"
        )));
        let third = PageId::from_record_id("<urn:test:3>");
        assert!(!html.contains(&format!("{third}.html")));
        assert!(
            html.contains("<td>http://a.test/3 ("),
            "a partner without a viewer is named"
        );
        assert!(html.contains(&format!("src=\"{first}.page.html\"")));
        assert!(html.contains("<dd data-field=\"kept\">50.0% (50 of 100 words)</dd>"));
    }

    #[test]
    fn the_frame_policy_comes_first_in_the_head() {
        let framed = frame("<!DOCTYPE html>\n<html><head><base href=\"x\"></head>");
        assert!(framed.starts_with(
            "<!DOCTYPE html>\n<html><head><meta http-equiv=\"Content-Security-Policy\""
        ));
        assert!(framed.ends_with("<base href=\"x\"></head>"));
    }
}

//! Small pieces of HTML shared by the report's pages: escaping, the page frame, tables.

use std::fmt::Write as _;

/// `text` escaped for an element's content.
pub(crate) fn text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    dbce_dom::escape_text(text, &mut out);
    out
}

/// `value` escaped for a double-quoted attribute.
pub(crate) fn attr(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    dbce_dom::escape_attr(value, &mut out);
    out
}

/// A share in `[0, 1]` as the report shows it: a percentage with one decimal.
pub(crate) fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// A report page: `title`, the stylesheet and navigation at `root` (the relative path from the
/// page to the report's root, `""` or `"../"`), then `body`.
pub(crate) fn page(title: &str, root: &str, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 512);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"{root}report.css\"></head>\n\
         <body><nav><a href=\"{root}index.html\">Overview</a> \
         <a href=\"{root}pages.html\">Pages</a></nav>\n{body}</body></html>\n",
        title = text(title),
    );
    out
}

/// A table with a header row `head` and `rows` of cells already in HTML; `id` names it.
pub(crate) fn table(id: &str, head: &[&str], rows: &[String]) -> String {
    let mut out = format!("<table id=\"{}\"><thead><tr>", attr(id));
    for cell in head {
        let _ = write!(out, "<th>{}</th>", text(cell));
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in rows {
        out.push_str(row);
        out.push('\n');
    }
    out.push_str("</tbody></table>\n");
    out
}

/// A horizontal bar `share` of the full width, as a `<span>` (the histogram's bars).
pub(crate) fn bar(share: f64) -> String {
    format!(
        "<span class=\"bar\" style=\"width:{:.1}%\"></span>",
        (share * 100.0).clamp(0.0, 100.0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        assert_eq!(text("a < b & c"), "a &lt; b &amp; c");
        assert_eq!(attr("\"x\""), "&quot;x&quot;");
        let html = page("<t>", "../", "<p>b</p>");
        assert!(html.contains("<title>&lt;t&gt;</title>"));
        assert!(html.contains("href=\"../report.css\""));
        assert!(html.contains("<p>b</p></body>"));
    }

    #[test]
    fn percent_and_bars() {
        assert_eq!(percent(0.25), "25.0%");
        assert_eq!(
            bar(2.0),
            "<span class=\"bar\" style=\"width:100.0%\"></span>"
        );
    }
}

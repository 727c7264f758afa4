//! What a reader sees of an annotated page: the cleaned text and the annotated HTML.

use dbce_dom::{Document, NodeId, TextLines, escape_attr, escape_text};

use crate::PatternClass;
use crate::annotation::{Decision, LabelledRun};

/// The content runs of a page as text: one line per block element (paragraph, heading, list
/// item, table row, …) and per `<br>`, words of one line separated by single spaces.
///
/// `runs` must be in document order, as [`annotate`](crate::annotate) returns them.
pub fn content_text(doc: &Document, runs: &[LabelledRun]) -> String {
    RunLayout::of(doc, runs).text(|i| runs[i].class == PatternClass::Content)
}

/// What separates a run's text from the text before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Separator {
    /// Nothing: `foo<b>bar</b>` reads `foobar`.
    None,
    /// A space.
    Space,
    /// A line break: a block boundary or `<br>`.
    Line,
}

/// How a page's runs lay out as text: each run's words and what separates it from the run
/// before, so the text of any subset of runs can be written without the document.
#[derive(Debug, Clone, Default)]
pub struct RunLayout {
    pieces: Vec<(Separator, String)>,
}

impl RunLayout {
    /// The layout of `runs` (a page's, in document order) in `doc`. There is one piece per
    /// run; a run in text no browser shows (a `<title>` misplaced in the body) has an empty one.
    pub fn of(doc: &Document, runs: &[LabelledRun]) -> Self {
        let mut cursor = RunCursor::new(runs);
        let mut pieces: Vec<Option<(usize, usize)>> = vec![None; runs.len()];
        let all = doc.visible_text_with(|node, text, out: &mut TextLines| {
            let mut last_end = 0;
            let first = cursor.position(node);
            for (offset, run) in cursor.runs_of(node).iter().enumerate() {
                let (start, end) = (run.run.start as usize, run.run.end as usize);
                push_space_in(text.get(last_end..start), out);
                let before = out.as_str().len();
                out.push_text(text.get(start..end).unwrap_or_default());
                pieces[first + offset] = Some((before, out.as_str().len()));
                last_end = end;
            }
            push_space_in(text.get(last_end..), out);
        });
        let mut previous_end = 0;
        let pieces = pieces
            .into_iter()
            .map(|piece| {
                let Some((before, after)) = piece else {
                    return (Separator::None, String::new());
                };
                let gap = all.get(previous_end..before).unwrap_or_default();
                let piece = all.get(before..after).unwrap_or_default();
                // `push_text` writes the separator first: move it from the piece to the gap.
                let trimmed = piece.trim_start_matches([' ', '\n']);
                let lead = &piece[..piece.len() - trimmed.len()];
                let separator = if gap.contains('\n') || lead.contains('\n') {
                    Separator::Line
                } else if gap.contains(' ') || lead.contains(' ') {
                    Separator::Space
                } else {
                    Separator::None
                };
                previous_end = after;
                (separator, trimmed.to_owned())
            })
            .collect();
        Self { pieces }
    }

    /// Each run's text, whitespace collapsed, in run order.
    pub fn pieces(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().map(|(_, piece)| piece.as_str())
    }

    /// Each run's text with what separates it from the run before, in run order.
    pub(crate) fn separated_pieces(&self) -> impl Iterator<Item = (Separator, &str)> {
        self.pieces
            .iter()
            .map(|(separator, piece)| (*separator, piece.as_str()))
    }

    /// The runs of each line of the text (a block, or the text between two `<br>`s), as
    /// index ranges in run order: a run opens a line when a line break separates it from the
    /// run before.
    pub fn lines(&self) -> Vec<std::ops::Range<usize>> {
        let mut lines = Vec::new();
        let mut start = 0;
        for (i, (separator, _)) in self.pieces.iter().enumerate() {
            if *separator == Separator::Line && i > start {
                lines.push(start..i);
                start = i;
            }
        }
        if start < self.pieces.len() {
            lines.push(start..self.pieces.len());
        }
        lines
    }

    /// The text of the runs `keep` selects (by index): one line per block, as
    /// [`content_text`] writes it. A left-out run still separates its neighbours.
    pub fn text(&self, keep: impl Fn(usize) -> bool) -> String {
        let mut out = String::new();
        let mut pending = Separator::None;
        for (i, (separator, piece)) in self.pieces.iter().enumerate() {
            pending = pending.max(*separator);
            if !keep(i) || piece.is_empty() {
                continue;
            }
            if !out.is_empty() {
                match pending {
                    Separator::Line => out.push('\n'),
                    Separator::Space => out.push(' '),
                    Separator::None => {}
                }
            }
            out.push_str(piece);
            pending = Separator::None;
        }
        out
    }
}

/// Whitespace in text between runs still separates the words around it.
fn push_space_in(gap: Option<&str>, out: &mut TextLines) {
    match gap {
        // A line break inside a `<pre>` ends the line; elsewhere it is a space.
        Some(gap) if gap.contains('\n') => out.push_text("\n"),
        Some(gap) if gap.contains(char::is_whitespace) => out.push_text(" "),
        _ => {}
    }
}

/// Walks runs in document order, handing out those of one text node at a time.
struct RunCursor<'r> {
    runs: &'r [LabelledRun],
    next: usize,
}

impl<'r> RunCursor<'r> {
    fn new(runs: &'r [LabelledRun]) -> Self {
        Self { runs, next: 0 }
    }

    /// Index of the first run of `node` or of the first run after it; nodes must be asked for
    /// in document order.
    fn position(&mut self, node: NodeId) -> usize {
        while self.runs.get(self.next).is_some_and(|r| r.run.node < node) {
            self.next += 1;
        }
        self.next
    }

    /// The runs of `node`; nodes must be asked for in document order.
    fn runs_of(&mut self, node: NodeId) -> &'r [LabelledRun] {
        while self.runs.get(self.next).is_some_and(|r| r.run.node < node) {
            self.next += 1;
        }
        let start = self.next;
        while self.runs.get(self.next).is_some_and(|r| r.run.node == node) {
            self.next += 1;
        }
        &self.runs[start..self.next]
    }
}

/// The CSS of the legend: content green, boilerplate red, invalid grey.
const LEGEND_STYLE: &str = "<style>\
.dbce-content{background:#c8f7c5}\
.dbce-boilerplate{background:#f7c5c5;color:#555}\
.dbce-invalid{background:#ddd}\
#dbce-legend{position:fixed;bottom:0;right:0;z-index:2147483647;background:#fff;\
border:1px solid #888;padding:4px 8px;font:12px sans-serif}\
#dbce-legend span{padding:0 4px;margin:0 2px}\
</style>";

/// The annotated HTML of a page: the page's original `<head>` (its scripts and its own charset
/// declarations removed: the annotated page is UTF-8 and says so first; a `<base>` pointing at
/// `url` so relative styles and images resolve), then the sanitised body with each
/// run wrapped in `<span class="dbce dbce-LABEL" data-bits="CROSS/RUN" title="…">`, and a small
/// legend. `raw_html` is the page as captured, for its head.
pub fn annotated_html(
    doc: &Document,
    raw_html: &str,
    url: &str,
    cross: crate::Bits,
    runs: &[LabelledRun],
) -> String {
    let mut out = String::with_capacity(raw_html.len() + runs.len() * 64);
    out.push_str("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><base href=\"");
    escape_attr(url, &mut out);
    out.push_str("\">");
    out.push_str(&head_without_scripts(raw_html));
    out.push_str(LEGEND_STYLE);
    out.push_str("</head>\n");
    let mut cursor = RunCursor::new(runs);
    let cross_code = cross.code();
    let write_text = |node: NodeId, text: &str, out: &mut String| {
        let mut last_end = 0;
        for run in cursor.runs_of(node) {
            let (start, end) = (run.run.start as usize, run.run.end as usize);
            escape_text(text.get(last_end..start).unwrap_or_default(), out);
            let label = label_name(run.class);
            out.push_str("<span class=\"dbce dbce-");
            out.push_str(label);
            out.push_str("\" data-bits=\"");
            out.push_str(&cross_code);
            out.push('/');
            out.push_str(&run.run.bits.code());
            out.push_str("\" title=\"");
            out.push_str(label);
            out.push_str(" by ");
            out.push_str(decision_name(run.decision));
            out.push_str(", cross ");
            out.push_str(&cross_code);
            out.push_str(", run ");
            out.push_str(&run.run.bits.code());
            out.push_str("\">");
            escape_text(text.get(start..end).unwrap_or_default(), out);
            out.push_str("</span>");
            last_end = end;
        }
        escape_text(text.get(last_end..).unwrap_or_default(), out);
    };
    match doc.body() {
        Some(body) => doc.write_html(body, &mut out, write_text),
        None => out.push_str("<body>"),
    }
    if out.ends_with("</body>") {
        out.truncate(out.len() - "</body>".len());
    }
    out.push_str(
        "<div id=\"dbce-legend\">dbce: <span class=\"dbce-content\">content</span>\
         <span class=\"dbce-boilerplate\">boilerplate</span>\
         <span class=\"dbce-invalid\">invalid</span></div></body></html>\n",
    );
    out
}

/// The name of a class in markup and reports.
pub fn label_name(class: PatternClass) -> &'static str {
    match class {
        PatternClass::Content => "content",
        PatternClass::Boilerplate => "boilerplate",
        PatternClass::Invalid => "invalid",
    }
}

/// The name of a decision in markup and reports.
pub fn decision_name(decision: Decision) -> &'static str {
    match decision {
        Decision::Pattern => "pattern",
        Decision::InvalidAsBoilerplate => "t002",
        Decision::Learned => "learned",
        Decision::SinglePage => "single-page",
        Decision::Propagated => "propagated",
        Decision::Family => "url-family",
        Decision::Teaser => "teaser",
        Decision::Repeated => "repeated",
    }
}

/// The inside of the first `<head>` element of `html`, without `<script>` elements and without
/// the `<meta>` elements that declare a charset (`charset=…`, or `http-equiv="Content-Type"`
/// with `content="…; charset=…"`): the page was decoded, and is written as UTF-8. Empty if
/// there is no head.
fn head_without_scripts(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let Some(open) = find_tag(&lower, "<head", 0) else {
        return String::new();
    };
    let Some(content_start) = lower[open..].find('>').map(|i| open + i + 1) else {
        return String::new();
    };
    let content_end = lower[content_start..]
        .find("</head")
        .or_else(|| lower[content_start..].find("<body"))
        .map_or(lower.len(), |i| content_start + i);
    let mut out = String::new();
    let mut at = content_start;
    while let Some(script) = find_tag(&lower[..content_end], "<script", at) {
        out.push_str(&html[at..script]);
        at = lower[script..content_end]
            .find("</script")
            .and_then(|i| lower[script + i..].find('>').map(|j| script + i + j + 1))
            .unwrap_or(content_end)
            .min(content_end);
    }
    out.push_str(&html[at..content_end]);
    without_charset_metas(&out)
}

/// `head` without its `<meta>` elements that declare a charset: a `charset` attribute, or a
/// `content` that names one (`text/html; charset=windows-1252`).
fn without_charset_metas(head: &str) -> String {
    let lower = head.to_ascii_lowercase();
    let mut out = String::with_capacity(head.len());
    let mut at = 0;
    while let Some(meta) = find_tag(&lower, "<meta", at) {
        let end = lower[meta..]
            .find('>')
            .map_or(lower.len(), |i| meta + i + 1);
        out.push_str(&head[at..meta]);
        if !declares_charset(&lower[meta..end]) {
            out.push_str(&head[meta..end]);
        }
        at = end;
    }
    out.push_str(&head[at..]);
    out
}

/// Whether a lowercased `<meta …>` tag declares a charset: `charset` followed by `=`, as an
/// attribute or inside `content`.
fn declares_charset(tag: &str) -> bool {
    tag.match_indices("charset")
        .any(|(i, word)| tag[i + word.len()..].trim_start().starts_with('='))
}

/// The position of tag `name` (such as `<head`) at or after `from` in lowercased `html`,
/// followed by `>`, whitespace or `/` so that `<header` is not `<head`.
fn find_tag(lower: &str, name: &str, from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(i) = lower.get(at..)?.find(name) {
        let pos = at + i;
        match lower.as_bytes().get(pos + name.len()) {
            Some(b'>' | b'/') | None => return Some(pos),
            Some(c) if c.is_ascii_whitespace() => return Some(pos),
            _ => at = pos + name.len(),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotation::Run;
    use crate::{Bits, CrossRole};
    use dbce_dom::SanitizeConfig;

    fn labelled(doc: &Document, pieces: &[(&str, PatternClass)]) -> Vec<LabelledRun> {
        // Finds each piece as a substring of some text node, in order.
        pieces
            .iter()
            .map(|&(piece, class)| {
                let node = doc
                    .nodes()
                    .find(|n| n.text().is_some_and(|t| t.contains(piece)))
                    .unwrap();
                let start = node.text().unwrap().find(piece).unwrap();
                LabelledRun {
                    run: Run {
                        node: node.id(),
                        start: start as u32,
                        end: (start + piece.len()) as u32,
                        first_token: 0,
                        words: piece.split_whitespace().count() as u32,
                        bits: Bits::of(&[CrossRole::Cur]),
                    },
                    class,
                    decision: Decision::Pattern,
                }
            })
            .collect()
    }

    #[test]
    fn a_layout_cuts_its_runs_into_lines_at_blocks_and_breaks() {
        let doc = Document::parse(
            "<body><h1>Product <b>7</b></h1><p>one<br>two <i>three</i></p></body>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let content = PatternClass::Content;
        let runs = labelled(
            &doc,
            &[
                ("Product", content),
                ("7", content),
                ("one", content),
                ("two", content),
                ("three", content),
            ],
        );
        let layout = RunLayout::of(&doc, &runs);
        assert_eq!(layout.lines(), [0..2, 2..3, 3..5]);
        assert_eq!(RunLayout::default().lines(), []);
    }

    #[test]
    fn content_text_keeps_blocks_and_drops_boilerplate() {
        let doc = Document::parse(
            "<body><ul><li>Home</li><li>News</li></ul><h1>Title here</h1>\
             <p>First <b>para</b> text. Share this</p><p>Second</p></body>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        use PatternClass::{Boilerplate as B, Content as C};
        let runs = labelled(
            &doc,
            &[
                ("Home", B),
                ("News", B),
                ("Title here", C),
                ("First", C),
                ("para", C),
                ("text.", C),
                ("Share this", B),
                ("Second", C),
            ],
        );
        assert_eq!(
            content_text(&doc, &runs),
            "Title here\nFirst para text.\nSecond"
        );
    }

    #[test]
    fn code_keeps_its_lines_between_runs_and_inside_one() {
        let doc = Document::parse(
            "<body><p>See\nthis:</p><pre><span>let</span> x = 1;\nlet y = 2;\n<i>z</i></pre></body>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        use PatternClass::{Boilerplate as B, Content as C};
        // A run spanning a line break, and a line break between two runs.
        let runs = labelled(
            &doc,
            &[
                ("See\nthis:", C),
                ("let", C),
                ("x = 1;\nlet y", C),
                ("= 2;", B),
                ("z", C),
            ],
        );
        assert_eq!(content_text(&doc, &runs), "See this:\nlet x = 1;\nlet y\nz");
    }

    #[test]
    fn annotated_html_wraps_runs_and_keeps_head_without_scripts() {
        let raw = "<html><HEAD><title>T</title><script>evil()</script>\
                   <link rel=stylesheet href=s.css></head><body><p>a &lt; b</p></body></html>";
        let doc = Document::parse(raw, &SanitizeConfig::default()).unwrap();
        let runs = labelled(&doc, &[("a < b", PatternClass::Content)]);
        let cross = Bits::of(&[CrossRole::Cur, CrossRole::Up]);
        let html = annotated_html(&doc, raw, "http://x.test/a", cross, &runs);
        assert!(html.contains("<title>T</title>"));
        assert!(html.contains("s.css"));
        assert!(!html.contains("evil"));
        assert!(html.contains("<base href=\"http://x.test/a\">"));
        assert!(html.contains(
            "<p><span class=\"dbce dbce-content\" data-bits=\"11000/10000\" \
             title=\"content by pattern, cross 11000, run 10000\">a &lt; b</span></p>"
        ));
        assert!(html.contains("id=\"dbce-legend\""));
        assert!(html.ends_with("</body></html>\n"));
    }

    #[test]
    fn header_is_not_head() {
        assert_eq!(head_without_scripts("<header>x</header>"), "");
        assert_eq!(
            head_without_scripts("<head ><title>t</title><body>"),
            "<title>t</title>"
        );
    }

    #[test]
    fn the_annotated_page_declares_utf8_and_only_that() {
        let raw = "<head><META CHARSET=\"windows-1252\"><meta name=x content=\"charset\">\
                   <meta http-equiv=Content-Type content=\"text/html; charset=iso-8859-1\">\
                   <title>T</title></head><body><p>a — b</p></body>";
        let doc = Document::parse(raw, &SanitizeConfig::default()).unwrap();
        let runs = labelled(&doc, &[("a — b", PatternClass::Content)]);
        let html = annotated_html(
            &doc,
            raw,
            "http://x.test/",
            Bits::of(&[CrossRole::Cur]),
            &runs,
        );
        assert!(html.starts_with("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"));
        assert_eq!(html.matches("charset=").count(), 1, "{html}");
        assert!(html.contains("<meta name=x content=\"charset\">"));
        assert!(html.contains("<title>T</title>"));
    }
}

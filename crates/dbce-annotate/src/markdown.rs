//! The content runs of a page as Markdown: headings, paragraphs, lists, tables, code and quotes
//! kept from the DOM.
//!
//! The words are the ones [`RunLayout::text`] writes for the same runs (whitespace collapsed);
//! only the block structure is added, read off each run's ancestors: the nearest block element
//! is the run's block, and the first of `pre`, `td`/`th`, `h1`–`h6` and `li` above it says
//! what kind of block that is. Inline markup other than code is not kept.

use dbce_dom::{Document, NodeId, NodeRef, is_block_element, is_preformatted};

use crate::annotation::LabelledRun;
use crate::render::{RunLayout, Separator};

/// What a block of text is in Markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    /// A paragraph (any block without more specific structure).
    Paragraph,
    /// A heading of this level (1–6).
    Heading(usize),
    /// A list item: how many lists hold it (1 for a top-level list) and whether its own list
    /// is ordered.
    Item { depth: usize, ordered: bool },
    /// Preformatted text: a fenced code block of the text nodes' raw text.
    Code,
    /// A table cell in `row` of `table`.
    Cell { table: NodeId, row: NodeId },
}

/// Where a run's text goes: its block and what the block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Place {
    /// The element whose runs make one block (the cell, the item, the `<pre>`, the heading or
    /// the nearest block element); `None` for text straight in the body.
    block: Option<NodeId>,
    kind: BlockKind,
    /// How many `<blockquote>`s hold the block.
    quotes: usize,
    /// Whether the run is inline code (`code`, `kbd`, `samp`, `tt` outside `<pre>`).
    inline_code: bool,
}

/// The place of text node `node`, from one walk over its ancestors (at most the DOM's depth
/// limit).
fn place_of(doc: &Document, node: NodeId) -> Place {
    let mut nearest_block = None;
    let mut structural: Option<(NodeId, &str)> = None;
    let (mut pre, mut row, mut table, mut ordered) = (None, None, None, None);
    let (mut quotes, mut lists, mut inline_code) = (0, 0, false);
    for ancestor in doc.get(node).into_iter().flat_map(NodeRef::ancestors) {
        let Some(name) = ancestor.name() else {
            continue;
        };
        if matches!(name, "body" | "html" | "frameset") {
            break;
        }
        let id = ancestor.id();
        match name {
            _ if is_preformatted(name) => pre = pre.or(Some(id)),
            "code" | "kbd" | "samp" | "tt" if nearest_block.is_none() => inline_code = true,
            "blockquote" => quotes += 1,
            "ul" | "ol" | "menu" | "dir" => {
                lists += 1;
                ordered = ordered.or(Some(name == "ol"));
            }
            "tr" => row = row.or(Some(id)),
            "table" => table = table.or(Some(id)),
            _ => {}
        }
        if structural.is_none()
            && matches!(
                name,
                "td" | "th" | "li" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
            )
        {
            structural = Some((id, name));
        }
        if nearest_block.is_none() && is_block_element(name) {
            nearest_block = Some(id);
        }
    }
    let (block, kind) = match (pre, structural) {
        (Some(pre), _) => (Some(pre), BlockKind::Code),
        (None, Some((cell, "td" | "th"))) => match (row, table) {
            (Some(row), Some(table)) => (Some(cell), BlockKind::Cell { table, row }),
            _ => (Some(cell), BlockKind::Paragraph),
        },
        (None, Some((item, "li"))) => (
            Some(item),
            BlockKind::Item {
                depth: lists.max(1),
                ordered: ordered.unwrap_or(false),
            },
        ),
        (None, Some((heading, name))) => {
            let level = name[1..].parse().unwrap_or(1);
            (Some(heading), BlockKind::Heading(level))
        }
        (None, None) => (nearest_block, BlockKind::Paragraph),
    };
    Place {
        block,
        kind,
        quotes,
        inline_code: inline_code && pre.is_none(),
    }
}

/// The kept runs of one block: their lines (split where the layout breaks a line) and the text
/// nodes they lie in.
#[derive(Debug)]
struct Block {
    place: Place,
    lines: Vec<String>,
    nodes: Vec<NodeId>,
}

/// The content of a page as Markdown: the runs `keep` selects (by index), laid out as `layout`
/// (the [`RunLayout`] of the same `runs` in `doc`) lays them out, with the structure of their
/// blocks. Blocks are separated by a blank line; list items and table rows of one list or
/// table by a line break. A table's first row is its header row.
///
/// ```
/// use dbce_annotate::{PageTokens, RunLayout, annotate, classify_runs, content_markdown, Bits, CrossRole, InvalidMode};
/// use dbce_dom::{Document, SanitizeConfig};
///
/// let html = "<body><h1>Title</h1><p>One <b>two</b></p><ul><li>a</li><li>b</li></ul></body>";
/// let doc = Document::parse(html, &SanitizeConfig::default())?;
/// let runs = annotate(&PageTokens::read(&doc), &[]);
/// let runs = classify_runs(&runs, Bits::of(&[CrossRole::Cur]), InvalidMode::Keep);
/// let layout = RunLayout::of(&doc, &runs);
/// assert_eq!(content_markdown(&doc, &runs, &layout, |_| true), "# Title\n\nOne two\n\n- a\n- b");
/// # Ok::<(), dbce_dom::DomError>(())
/// ```
pub fn content_markdown(
    doc: &Document,
    runs: &[LabelledRun],
    layout: &RunLayout,
    keep: impl Fn(usize) -> bool,
) -> String {
    let blocks = blocks(doc, runs, layout, keep);
    let mut out = String::new();
    let mut previous: Option<Place> = None;
    let mut index = 0;
    while let Some(block) = blocks.get(index) {
        let place = block.place;
        let (text, taken) = match place.kind {
            BlockKind::Cell { table, .. } => {
                let cells = blocks[index..]
                    .iter()
                    .take_while(
                        |b| matches!(b.place.kind, BlockKind::Cell { table: t, .. } if t == table),
                    )
                    .count();
                (table_markdown(&blocks[index..index + cells]), cells)
            }
            _ => (block_markdown(doc, block), 1),
        };
        index += taken;
        if text.is_empty() {
            continue;
        }
        if let Some(before) = previous {
            let both_items = matches!(before.kind, BlockKind::Item { .. })
                && matches!(place.kind, BlockKind::Item { .. });
            if both_items && before.quotes == place.quotes {
                out.push('\n');
            } else {
                out.push('\n');
                out.push_str(&">".repeat(before.quotes.min(place.quotes)));
                out.push('\n');
            }
        }
        let quote = "> ".repeat(place.quotes);
        for (n, line) in text.split('\n').enumerate() {
            if n > 0 {
                out.push('\n');
            }
            out.push_str(if line.is_empty() {
                quote.trim_end()
            } else {
                &quote
            });
            out.push_str(line);
        }
        previous = Some(place);
    }
    out
}

/// The kept runs grouped into blocks, in document order.
fn blocks(
    doc: &Document,
    runs: &[LabelledRun],
    layout: &RunLayout,
    keep: impl Fn(usize) -> bool,
) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut pending = Separator::None;
    let mut cached: Option<(NodeId, Place)> = None;
    for (i, (run, (separator, piece))) in runs.iter().zip(layout.separated_pieces()).enumerate() {
        pending = pending.max(separator);
        if !keep(i) || piece.is_empty() {
            continue;
        }
        let node = run.run.node;
        let place = match cached {
            Some((cached_node, place)) if cached_node == node => place,
            _ => place_of(doc, node),
        };
        cached = Some((node, place));
        let text = if place.inline_code {
            format!("`{piece}`")
        } else {
            piece.to_owned()
        };
        match blocks.last_mut() {
            Some(block) if block.place.block == place.block => {
                if block.nodes.last() != Some(&node) {
                    block.nodes.push(node);
                }
                match (pending, block.lines.last_mut()) {
                    (Separator::Line, _) | (_, None) => block.lines.push(text),
                    (Separator::Space, Some(line)) => {
                        line.push(' ');
                        line.push_str(&text);
                    }
                    (Separator::None, Some(line)) => line.push_str(&text),
                }
            }
            _ => blocks.push(Block {
                place,
                lines: vec![text],
                nodes: vec![node],
            }),
        }
        pending = Separator::None;
    }
    blocks
}

/// The raw text of a code block: every text node of its `<pre>` from the first kept one to the
/// last, with the nodes of only whitespace between them (a highlighter's spans are separated by
/// such nodes: without them `function main()` would come out as `functionmain()`) and a line
/// break for each `<br>`. Text with runs left out stays out. (`block.nodes` is in document
/// order.)
fn code_text(doc: &Document, block: &Block) -> String {
    let (Some(&first), Some(&last)) = (block.nodes.first(), block.nodes.last()) else {
        return String::new();
    };
    let Some(pre) = block.place.block.and_then(|pre| doc.get(pre)) else {
        return String::new();
    };
    let mut raw = String::new();
    for node in pre.descendants() {
        let id = node.id();
        if id < first {
            continue;
        }
        if id > last {
            break;
        }
        match (node.text(), node.name()) {
            (Some(text), _) if block.nodes.binary_search(&id).is_ok() || text.trim().is_empty() => {
                raw.push_str(text);
            }
            (None, Some("br")) => raw.push('\n'),
            _ => {}
        }
    }
    raw
}

/// One block (not a table cell) in Markdown, without its quote marks.
fn block_markdown(doc: &Document, block: &Block) -> String {
    match block.place.kind {
        BlockKind::Heading(level) => format!("{} {}", "#".repeat(level), block.lines.join(" ")),
        BlockKind::Item { depth, ordered } => {
            let marker = if ordered { "1." } else { "-" };
            format!(
                "{}{marker} {}",
                "  ".repeat(depth - 1),
                escape_line_start(&block.lines.join(" "))
            )
        }
        BlockKind::Code => {
            let raw = code_text(doc, block);
            let code = raw.trim_matches(|c| c == '\n' || c == '\r');
            let fence = "`".repeat(longest_backtick_run(code).max(2) + 1);
            format!("{fence}\n{code}\n{fence}")
        }
        BlockKind::Paragraph | BlockKind::Cell { .. } => block
            .lines
            .iter()
            .map(|line| escape_line_start(line))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// The cells of one table as a Markdown table: one line per row, the first row as header, as
/// many columns as the widest row.
fn table_markdown(cells: &[Block]) -> String {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut last_row = None;
    for cell in cells {
        let BlockKind::Cell { row, .. } = cell.place.kind else {
            continue;
        };
        let text = cell.lines.join(" ").replace('|', "\\|");
        match rows.last_mut() {
            Some(cells) if last_row == Some(row) => cells.push(text),
            _ => rows.push(vec![text]),
        }
        last_row = Some(row);
    }
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let line = |cells: &[String]| {
        let mut line = String::from("|");
        for column in 0..columns {
            line.push(' ');
            line.push_str(cells.get(column).map_or("", String::as_str));
            line.push_str(" |");
        }
        line
    };
    let mut out = Vec::with_capacity(rows.len() + 1);
    for (n, row) in rows.iter().enumerate() {
        out.push(line(row));
        if n == 0 {
            out.push(format!("|{}", " --- |".repeat(columns)));
        }
    }
    out.join("\n")
}

/// The line with a backslash before a start that Markdown would read as structure (a heading,
/// quote, list marker or thematic break).
fn escape_line_start(line: &str) -> String {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let after_digits = line.as_bytes().get(digits).copied();
    let marker = match line.as_bytes().first() {
        Some(b'#' | b'>' | b'=') => true,
        Some(b'-' | b'+' | b'*') => {
            matches!(line.as_bytes().get(1), None | Some(b' ' | b'-' | b'*'))
        }
        Some(b'0'..=b'9') => {
            matches!(after_digits, Some(b'.' | b')'))
                && matches!(line.as_bytes().get(digits + 1), None | Some(b' '))
        }
        _ => false,
    };
    if !marker {
        return line.to_owned();
    }
    if digits > 0 {
        format!("{}\\{}", &line[..digits], &line[digits..])
    } else {
        format!("\\{line}")
    }
}

/// The length of the longest run of backticks in `text`.
fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bits, CrossRole, InvalidMode, PageTokens, PatternClass, annotate, classify_runs};
    use dbce_dom::SanitizeConfig;

    fn markdown(html: &str, keep: impl Fn(&str) -> bool) -> String {
        let doc = Document::parse(html, &SanitizeConfig::default()).expect("parses");
        let runs = annotate(&PageTokens::read(&doc), &[]);
        let mut runs = classify_runs(&runs, Bits::of(&[CrossRole::Cur]), InvalidMode::Keep);
        for run in &mut runs {
            run.class = if keep(run.run.text(&doc)) {
                PatternClass::Content
            } else {
                PatternClass::Boilerplate
            };
        }
        let layout = RunLayout::of(&doc, &runs);
        content_markdown(&doc, &runs, &layout, |i| {
            runs[i].class == PatternClass::Content
        })
    }

    #[test]
    fn headings_paragraphs_and_line_breaks() {
        let html = "<body><h2>Sub  title</h2><div><p>First <i>line</i><br>second</p>\
                    <p>Next</p></div></body>";
        assert_eq!(
            markdown(html, |_| true),
            "## Sub title\n\nFirst line\nsecond\n\nNext"
        );
    }

    #[test]
    fn nested_and_ordered_lists() {
        let html = "<body><ol><li>one<ul><li>inner</li></ul></li><li>two</li></ol></body>";
        assert_eq!(markdown(html, |_| true), "1. one\n  - inner\n1. two");
    }

    #[test]
    fn tables_with_a_header_row_and_escaped_pipes() {
        let html = "<body><table><tr><th>a</th><th>b|c</th></tr><tr><td>1</td></tr></table>\
                    <p>after</p></body>";
        assert_eq!(
            markdown(html, |_| true),
            "| a | b\\|c |\n| --- | --- |\n| 1 |  |\n\nafter"
        );
    }

    #[test]
    fn code_blocks_keep_their_raw_text_and_inline_code_is_marked() {
        let html =
            "<body><p>Call <code>f()</code> now</p><pre>fn main() {\n    x```\n}\n</pre></body>";
        assert_eq!(
            markdown(html, |_| true),
            "Call `f()` now\n\n````\nfn main() {\n    x```\n}\n````"
        );
    }

    #[test]
    fn code_blocks_keep_the_whitespace_between_highlighted_spans() {
        let html = "<body><pre><code><span>function</span> <span>main</span>()\n\
                    <span>return</span><br><span>x</span>\n</code></pre><p>after</p></body>";
        assert_eq!(
            markdown(html, |_| true),
            "```\nfunction main()\nreturn\nx\n```\n\nafter"
        );
        // A left-out run stays out; the whitespace around it is kept.
        assert_eq!(
            markdown(html, |text| text != "main"),
            "```\nfunction ()\nreturn\nx\n```\n\nafter"
        );
    }

    #[test]
    fn quotes_mark_every_line() {
        let html = "<body><blockquote><p>said</p><p>more</p></blockquote><p>end</p></body>";
        assert_eq!(markdown(html, |_| true), "> said\n>\n> more\n\nend");
    }

    #[test]
    fn only_kept_runs_are_written_and_markers_in_text_are_escaped() {
        let html = "<body><nav><ul><li>Home</li></ul></nav><p># not a heading</p><p>1. not a list</p></body>";
        assert_eq!(
            markdown(html, |text| text != "Home"),
            "\\# not a heading\n\n1\\. not a list"
        );
    }
}

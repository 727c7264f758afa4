//! [`Document::parse`]: limits, the html5ever tree builder fed by `dbce_tokenize` in chunks,
//! then sanitising.

use dbce_tokenize::Tokenizer;
use html5ever::interface::TreeSink;
use html5ever::tendril::StrTendril;
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::compact::compact;
use crate::document::Document;
use crate::raw::RawTree;
use crate::report::{ParseReport, Truncation};
use crate::sink::{Handle, Sink, SinkCounts};
use crate::streamed::put_streamed_content_in_place;
use crate::{DomError, DropReason, SanitizeConfig};

/// Calls of [`Document::parse`] in this process, for [`parse_count`].
static PARSES: AtomicU64 = AtomicU64::new(0);

/// How many times [`Document::parse`] has run in this process: lets a test count the parses a
/// stage makes per page.
pub fn parse_count() -> u64 {
    PARSES.load(Ordering::Relaxed)
}

/// Input is fed to the parser in pieces of about this many bytes, so that a page that reaches
/// the node limit is stopped soon after.
const CHUNK_BYTES: usize = 16 * 1024;

impl Document {
    /// Parses decoded HTML text with the HTML5 algorithm (html5ever's tree builder, fed by the
    /// byte-oriented tokenizer of `dbce_tokenize`, which gives it html5ever's own tokens) and
    /// sanitises it as thesis §2.2 does: scripts, styles, comments, iframes and `<noscript>`
    /// are dropped with their content, and a few more elements are (see
    /// [`crate::DropReason`]).
    ///
    /// A page whose body shows fewer than 50 words once `<noscript>` is dropped, but
    /// had some `<noscript>`, is parsed again as a browser without scripting shows it,
    /// `<noscript>` content kept: some sites (Discourse and Flarum forums among them) serve
    /// their whole content there to crawlers, and script the page a browser shows, down to a
    /// header line or a "Loading". The second parse is the page when it shows at least 50
    /// words and twice those of the first (always when the first shows none), so that a short
    /// page's "Please enable JavaScript" stays out. A page that shows fewer than 50 words because
    /// its `<title>` is never closed (the parser reads the rest of the page as the title) is
    /// parsed again with the title closed before the first tag after it, by the same rule.
    ///
    /// Malformed HTML is repaired as a browser would. Two limits of `config` truncate the page
    /// rather than refuse it, and [`ParseReport::truncated`] says which: an input longer than
    /// [`SanitizeConfig::max_input_bytes`] is cut to its first bytes (at a character boundary,
    /// before a tag cut in two), and a block element nested deeper than
    /// [`SanitizeConfig::max_block_depth`] ends the parse a few kilobytes later, keeping the
    /// tree built so far.
    ///
    /// # Errors
    ///
    /// [`DomError::TooManyNodes`] within a few kilobytes of input after the tree reaches
    /// [`SanitizeConfig::max_nodes`].
    pub fn parse(html: &str, config: &SanitizeConfig) -> Result<Document, DomError> {
        PARSES.fetch_add(1, Ordering::Relaxed);
        parse_document::<Tokenizer<TreeBuilder<Handle, Sink>>>(html, config)
    }
}

/// [`Document::parse`] with the tokenizer `P`.
pub(crate) fn parse_document<P: Driver>(
    html: &str,
    config: &SanitizeConfig,
) -> Result<Document, DomError> {
    let doc = parse_with::<P>(html, config, false)?;
    let shown = doc.shown_words(FEW_WORDS);
    if shown >= FEW_WORDS {
        return Ok(doc);
    }
    // What a second parse must show to be the page: at least FEW_WORDS words and twice the
    // first's, or anything when the first shows none.
    let enough = if shown == 0 {
        0
    } else {
        FEW_WORDS.max(2 * shown)
    };
    if let Some((closed, at)) = with_title_closed(html) {
        let mut repaired = parse_document::<P>(&closed, config)?;
        if repaired.shown_words(enough.max(1)) >= enough.max(1) {
            // The bytes parsed are counted in the page as captured.
            let report = &mut repaired.report;
            if report.input_bytes > at as u64 {
                report.input_bytes -= TITLE_END.len() as u64;
            }
            return Ok(repaired);
        }
    }
    if doc.report().dropped(DropReason::Noscript) == 0 {
        return Ok(doc);
    }
    let without_scripting = parse_with::<P>(html, config, true)?;
    if without_scripting.shown_words(enough) >= enough {
        return Ok(without_scripting);
    }
    Ok(doc)
}

/// The end tag [`with_title_closed`] adds.
const TITLE_END: &str = "</title>";

/// `html` with the `</title>` it lacks, and where it went: when the first `<title>` start tag
/// is never closed, the HTML5 parser reads all that follows as the title's text and the body
/// comes out empty (l3s-gn1 has eight such pages: six Korea Times and one Computerworld page
/// lost their `</title>`, a CBN News page has `</titlevalue="true" -->`). The end tag
/// goes before the first `<` after the start tag, so that the tags after it are tags again.
/// `None` when the page has no `<title>`, closes it, or has no tag after it.
fn with_title_closed(html: &str) -> Option<(String, usize)> {
    let lower = html.to_ascii_lowercase();
    // Where a tag `open` (`<title` or `</title`) starts in `lower` from `from` on: its name
    // must end there (`</titlevalue="true" -->` does not close a title).
    let tag = |open: &str, from: usize| {
        lower[from..]
            .match_indices(open)
            .map(|(i, _)| from + i)
            .find(|&i| {
                matches!(
                    lower.as_bytes().get(i + open.len()),
                    Some(b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
                )
            })
    };
    let start = tag("<title", 0)?;
    if tag(TITLE_END.trim_end_matches('>'), start).is_some() {
        return None;
    }
    let text = start + lower[start..].find('>')? + 1;
    let at = text + lower[text..].find('<')?;
    Some(([&html[..at], TITLE_END, &html[at..]].concat(), at))
}

/// Fewer words than this in a body are a scripted page's shell (a site name, a menu, a
/// "Loading"), not its content: [`Document::parse`] reads its `<noscript>` content then.
pub(crate) const FEW_WORDS: usize = 50;

/// A tokenizer feeding html5ever's tree builder over [`Sink`], fed the input in chunks.
pub(crate) trait Driver {
    /// A parser of `input` into `sink`.
    fn new(sink: Sink, opts: TreeBuilderOpts, input: &str) -> Self;
    /// Makes `input[from..to]` available after what was fed before, and parses it.
    fn feed(&mut self, input: &str, from: usize, to: usize);
    fn sink(&self) -> &Sink;
    /// Ends the input where feeding stopped.
    fn finish(self) -> (RawTree, SinkCounts);
}

impl Driver for Tokenizer<TreeBuilder<Handle, Sink>> {
    fn new(sink: Sink, opts: TreeBuilderOpts, input: &str) -> Self {
        Tokenizer::new(TreeBuilder::new(sink, opts), StrTendril::from_slice(input))
    }

    fn feed(&mut self, _input: &str, _from: usize, to: usize) {
        self.feed_to(to);
    }

    fn sink(&self) -> &Sink {
        &Tokenizer::sink(self).sink
    }

    fn finish(mut self) -> (RawTree, SinkCounts) {
        self.end();
        self.into_sink().sink.finish()
    }
}

/// The part of `html` parsed under a byte limit of `max` bytes: all of it when it fits, else
/// its first bytes up to a character boundary, and before the last `<` when no `>` follows it
/// (a tag cut in two would otherwise be read as text or swallow what the cut left).
fn cut_to(html: &str, max: u64) -> &str {
    let max = usize::try_from(max).unwrap_or(usize::MAX);
    if html.len() <= max {
        return html;
    }
    let prefix = &html[..html.floor_char_boundary(max)];
    match (prefix.rfind('<'), prefix.rfind('>')) {
        (Some(open), Some(close)) if close > open => prefix,
        (Some(open), _) => &prefix[..open],
        (None, _) => prefix,
    }
}

/// [`Document::parse`] with scripting on and `<noscript>` dropped, or (`keep_noscript`) with
/// scripting off and `<noscript>` content kept.
fn parse_with<P: Driver>(
    html: &str,
    config: &SanitizeConfig,
    keep_noscript: bool,
) -> Result<Document, DomError> {
    let mut truncated = Vec::new();
    let input = cut_to(html, config.max_input_bytes.min(u64::from(u32::MAX)));
    if input.len() < html.len() {
        truncated.push(Truncation::Bytes);
    }
    // Real ids must stay below the `NONE` marker.
    let max_nodes = config.max_nodes.min(u32::MAX - 1);
    let sink = Sink::new(max_nodes as usize, config.max_block_depth, keep_noscript);
    let mut parser = P::new(sink, tree_builder_opts(!keep_noscript), input);
    let mut fed = 0;
    while fed < input.len() {
        let end = input.floor_char_boundary(fed + CHUNK_BYTES).max(fed + 1);
        let end = input.ceil_char_boundary(end);
        parser.feed(input, fed, end);
        fed = end;
        if parser.sink().limit_hit() {
            break;
        }
    }
    let at_byte = fed as u64;
    let counts = parser.sink().counts();
    if counts.overflowed {
        return Err(DomError::TooManyNodes {
            max: max_nodes,
            at_byte,
        });
    }
    // Past the depth limit, the parser is stopped where it got to: closing the open elements
    // costs time linear in their number.
    let (mut raw, counts) = parser.finish();
    if counts.overflowed {
        return Err(DomError::TooManyNodes {
            max: max_nodes,
            at_byte,
        });
    }
    if counts.too_deep {
        truncated.push(Truncation::Depth);
    }
    if counts.streamed {
        put_streamed_content_in_place(&mut raw);
    }
    let report = ParseReport {
        input_bytes: at_byte,
        truncated,
        parse_errors: counts.parse_errors,
        dropped: counts.dropped,
        ..ParseReport::default()
    };
    Ok(compact(&raw, config, report))
}

/// Scripting is on, as in the browsers people read archived pages with: `<noscript>` content is
/// then one text node, dropped with the element, and cannot spill into the page (with scripting
/// off, `<noscript><img></noscript>` in the head closes the head and moves the image into the
/// body). It is off only for the second parse of a page that shows nothing without it.
fn tree_builder_opts(scripting: bool) -> TreeBuilderOpts {
    TreeBuilderOpts {
        scripting_enabled: scripting,
        drop_doctype: true,
        ..TreeBuilderOpts::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> SanitizeConfig {
        SanitizeConfig::default()
    }

    fn body_text(doc: &Document) -> String {
        doc.nodes()
            .filter_map(|n| n.text())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn noscript_content_is_read_only_when_the_page_shows_nothing_else() {
        let only_noscript = "<html><head><title>T</title><noscript><link rel=x></noscript></head>\
            <body><div id=app></div><noscript><div class=post><p>First reply</p>\
            <p>Second reply</p></div></noscript><script>app()</script></body></html>";
        let doc = Document::parse(only_noscript, &config()).unwrap();
        let text = body_text(&doc);
        assert!(
            text.contains("First reply") && text.contains("Second reply"),
            "{text}"
        );
        assert!(
            doc.nodes().any(|n| n.is_element("p")),
            "kept as markup, not as text"
        );
        assert!(!text.contains("app()"), "scripts stay dropped: {text}");

        let with_text =
            "<body><p>Visible story</p><noscript><p>Enable JavaScript</p></noscript></body>";
        let doc = Document::parse(with_text, &config()).unwrap();
        let text = body_text(&doc);
        assert!(text.contains("Visible story"));
        assert!(!text.contains("Enable JavaScript"), "{text}");
        assert_eq!(doc.report().dropped(DropReason::Noscript), 1);
    }

    #[test]
    fn a_title_never_closed_ends_before_the_next_tag_when_it_swallowed_the_page() {
        // A Korea Times page of l3s-gn1: the `</title>` and part of a script were lost.
        let story = "South Korean golfer Choi Kyung-ju won the Sony Open on Sunday. ";
        let page = format!(
            "<html><head><title>Choi Wins (The Korea Times)ntById(\"font\");\n}}\n//-->\n\
             </script></head><body><table><tr><td><p>{}</p></td></tr></table></body></html>",
            story.repeat(3)
        );
        let doc = Document::parse(&page, &config()).unwrap();
        let text = body_text(&doc);
        assert!(text.contains("Choi Kyung-ju won"), "{text}");
        // The body shows the story (33 words); the script's remains are the title's text.
        assert_eq!(doc.shown_words(FEW_WORDS), 33);
        assert_eq!(doc.report().input_bytes, page.len() as u64);
        // As parsed when the title is closed, tags and all; and a page that shows enough as it
        // is, or whose title ends, is not parsed again.
        let closed = page.replacen("</script>", "</title></script>", 1);
        let reference = Document::parse(&closed, &config()).unwrap();
        assert_eq!(body_text(&reference), text);
        assert_eq!(with_title_closed(&closed), None);
        assert_eq!(with_title_closed("<title>T</TITLE><p>x"), None);
        assert_eq!(with_title_closed("<titles><p>x"), None);
        assert_eq!(
            with_title_closed("<TITLE lang=en>T <p>x"),
            Some(("<TITLE lang=en>T </title><p>x".to_owned(), 17))
        );
        assert_eq!(with_title_closed("<title>Only a title"), None);
        // A CBN News page of l3s-gn1: a template tool's comment ran into the end tag.
        assert_eq!(
            with_title_closed("<title>T</titlevalue=\"true\" --></head>"),
            Some((
                "<title>T</title></titlevalue=\"true\" --></head>".to_owned(),
                8
            ))
        );
    }

    #[test]
    fn a_scripted_shell_with_a_few_words_is_read_from_its_noscript_content() {
        let post = "I am just getting back in to using this after a few years away. ";
        let shell = |shown: &str, noscript: &str| {
            format!(
                "<body><header><h1>{shown}</h1></header><div id=app></div>\
                 <noscript><div class=post><p>{noscript}</p></div></noscript></body>"
            )
        };
        // A forum's header line and its thread in <noscript>, as Discourse serves it.
        let forum = shell("Community Forums", &post.repeat(20));
        let doc = Document::parse(&forum, &config()).unwrap();
        assert!(body_text(&doc).contains("getting back in"));
        assert!(body_text(&doc).contains("Community Forums"));
        // A short page with a note for browsers without scripting keeps its own words only.
        let short = shell(
            &post.repeat(3),
            "Please enable JavaScript to use all features",
        );
        let doc = Document::parse(&short, &config()).unwrap();
        assert!(!body_text(&doc).contains("enable JavaScript"));
        assert_eq!(doc.report().dropped(DropReason::Noscript), 1);
        // A page that shows FEW_WORDS words is never parsed again, whatever <noscript> holds.
        let long = shell(&"word ".repeat(FEW_WORDS), &post.repeat(20));
        let doc = Document::parse(&long, &config()).unwrap();
        assert!(!body_text(&doc).contains("getting back in"));
    }

    #[test]
    fn input_too_large_is_cut_before_a_split_tag() {
        let c = SanitizeConfig {
            max_input_bytes: 19,
            ..config()
        };
        let doc = Document::parse("<p>0123456789</p><p>abcdef</p>", &c).unwrap();
        assert_eq!(doc.report().truncated, vec![Truncation::Bytes]);
        assert_eq!(doc.report().input_bytes, 17);
        assert_eq!(doc.visible_text(), "0123456789");
        let whole = Document::parse("<p>01</p>", &c).unwrap();
        assert!(whole.report().truncated.is_empty());
        assert_eq!(whole.report().input_bytes, 9);
    }

    #[test]
    fn cuts_fall_on_character_boundaries_and_before_open_tags() {
        assert_eq!(cut_to("<p>caf\u{e9}</p>", 7), "<p>caf");
        assert_eq!(cut_to("<p>ab</p><div class=x>", 14), "<p>ab</p>");
        assert_eq!(cut_to("<p>ab</p>cd", 10), "<p>ab</p>c");
        assert_eq!(cut_to("abc", 10), "abc");
        assert_eq!(cut_to("a > b", 3), "a >");
    }

    #[test]
    fn too_many_nodes_stops_the_parse() {
        let c = SanitizeConfig {
            max_nodes: 100,
            ..config()
        };
        let html = "<p>x</p>".repeat(60);
        let err = Document::parse(&html, &c).unwrap_err();
        assert_eq!(
            err,
            DomError::TooManyNodes {
                max: 100,
                at_byte: html.len() as u64
            }
        );
        // Dropped nodes are not stored, so they do not count.
        let html = format!("<p>x</p>{}", "<script>s</script><!--c-->".repeat(200));
        assert!(Document::parse(&html, &c).is_ok());
    }

    #[test]
    fn node_limit_is_noticed_within_a_chunk() {
        let c = SanitizeConfig {
            max_nodes: 1000,
            ..config()
        };
        let html = "<b>x</b>".repeat(100_000);
        let Err(DomError::TooManyNodes { at_byte, .. }) = Document::parse(&html, &c) else {
            panic!("expected TooManyNodes");
        };
        assert!(at_byte <= 2 * CHUNK_BYTES as u64, "{at_byte}");
    }

    #[test]
    fn elements_past_max_depth_are_unwrapped_keeping_their_text() {
        let c = SanitizeConfig {
            max_depth: 3,
            ..config()
        };
        let doc =
            Document::parse("<div><p><span><b>deep</b> <i>text</i></span></p></div>", &c).unwrap();
        let names: Vec<_> = doc.nodes().filter_map(|n| n.name()).collect();
        // html 0, body 1, div 2, p 3; span, b and i are unwrapped into <p>.
        assert_eq!(names, ["html", "head", "body", "div", "p"]);
        assert_eq!(doc.report().unwrapped_elements, 3);
        let p = doc.nodes().find(|n| n.is_element("p")).unwrap();
        let texts: Vec<_> = p.children().filter_map(|n| n.text()).collect();
        assert_eq!(texts, ["deep text"]);
    }

    #[test]
    fn attributes_past_the_budget_are_dropped_and_counted() {
        let c = SanitizeConfig {
            max_attribute_bytes: 13,
            ..config()
        };
        let doc = Document::parse("<a href=/12345 class=abcdef id=x>l</a>", &c).unwrap();
        let a = doc.nodes().find(|n| n.is_element("a")).unwrap();
        let attrs: Vec<_> = a.attrs().collect();
        assert_eq!(attrs, [("href", "/12345"), ("id", "x")]);
        assert_eq!(doc.report().dropped_attributes, 1);
    }

    #[test]
    fn report_counts_input_and_parse_errors() {
        let doc = Document::parse("<p>a</b>", &config()).unwrap();
        assert_eq!(doc.report().input_bytes, 8);
        assert!(doc.report().parse_errors >= 1);
        let doc = Document::parse(
            "<!DOCTYPE html><html><head></head><body></body></html>",
            &config(),
        )
        .unwrap();
        assert_eq!(doc.report().parse_errors, 0);
    }

    #[test]
    fn text_in_many_pieces_is_the_same_past_the_piece_limit() {
        // Every character reference and every CR LF is a text token of its own, appended to
        // the text node as a piece; past `max_nodes` pieces they are copied instead.
        let html = format!("<p>{}</p>", "a &amp; b\r\n".repeat(2000));
        let few = SanitizeConfig {
            max_nodes: 50,
            ..config()
        };
        let (mut tight, mut roomy) = (Vec::new(), Vec::new());
        Document::parse(&html, &few).unwrap().encode(&mut tight);
        Document::parse(&html, &config())
            .unwrap()
            .encode(&mut roomy);
        assert_eq!(tight, roomy);
        let doc = Document::parse(&html, &few).unwrap();
        let text = doc.text_runs().next().unwrap().text;
        assert_eq!(text.matches("a & b").count(), 2000, "{text}");
        assert!(!text.contains('\r') && !text.contains("amp"), "{text}");
    }

    #[test]
    fn multibyte_text_across_chunks_is_intact() {
        let text = "\u{e9}\u{1f600}".repeat(CHUNK_BYTES / 3);
        let doc = Document::parse(&format!("<p>{text}</p>"), &config()).unwrap();
        assert_eq!(doc.text_runs().next().unwrap().text, text);
    }
}

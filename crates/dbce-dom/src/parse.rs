//! [`Document::parse`]: limits, the html5ever run in chunks, then sanitising.

use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{ParseOpts, parse_document};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::compact::compact;
use crate::document::Document;
use crate::report::ParseReport;
use crate::sink::{Sink, SinkCounts};
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
    /// Parses decoded HTML text with the HTML5 algorithm (html5ever) and sanitises it as thesis
    /// §2.2 does: scripts, styles, comments, iframes and `<noscript>` are dropped with their
    /// content, and a few more elements are (see [`crate::DropReason`]).
    ///
    /// A page whose body shows no words once `<noscript>` is dropped, but had some `<noscript>`,
    /// is parsed again as a browser without scripting shows it, `<noscript>` content kept: some
    /// sites (Discourse forums among them) serve their whole content there to crawlers.
    ///
    /// Malformed HTML is repaired as a browser would; only the limits of `config` fail.
    ///
    /// # Errors
    ///
    /// [`DomError::InputTooLarge`] before any parsing; [`DomError::TooManyNodes`] and
    /// [`DomError::TooDeep`] within a few kilobytes of input after the tree reaches
    /// [`SanitizeConfig::max_nodes`] or [`SanitizeConfig::max_block_depth`].
    pub fn parse(html: &str, config: &SanitizeConfig) -> Result<Document, DomError> {
        PARSES.fetch_add(1, Ordering::Relaxed);
        let doc = parse_with(html, config, false)?;
        if doc.report().dropped(DropReason::Noscript) > 0 && !doc.shows_words() {
            return parse_with(html, config, true);
        }
        Ok(doc)
    }
}

/// [`Document::parse`] with scripting on and `<noscript>` dropped, or (`keep_noscript`) with
/// scripting off and `<noscript>` content kept.
fn parse_with(
    html: &str,
    config: &SanitizeConfig,
    keep_noscript: bool,
) -> Result<Document, DomError> {
    {
        let len = html.len() as u64;
        let max = config.max_input_bytes.min(u64::from(u32::MAX));
        if len > max {
            return Err(DomError::InputTooLarge { len, max });
        }
        // Real ids must stay below the `NONE` marker.
        let max_nodes = config.max_nodes.min(u32::MAX - 1);
        let sink = Sink::new(max_nodes as usize, config.max_block_depth, keep_noscript);
        let mut parser = parse_document(sink, parse_opts(!keep_noscript));
        let mut fed = 0;
        while fed < html.len() {
            let end = html.floor_char_boundary(fed + CHUNK_BYTES).max(fed + 1);
            let end = html.ceil_char_boundary(end);
            parser.process(StrTendril::from_slice(&html[fed..end]));
            fed = end;
            if parser.tokenizer.sink.sink.limit_hit() {
                break;
            }
        }
        let at_byte = fed as u64;
        if parser.tokenizer.sink.sink.limit_hit() {
            let counts = parser.tokenizer.sink.sink.counts();
            return Err(limit_error(&counts, max_nodes, config, at_byte));
        }
        let (raw, counts) = parser.finish();
        if counts.overflowed || counts.too_deep {
            return Err(limit_error(&counts, max_nodes, config, at_byte));
        }
        let report = ParseReport {
            input_bytes: len,
            parse_errors: counts.parse_errors,
            dropped: counts.dropped,
            ..ParseReport::default()
        };
        Ok(compact(&raw, config, report))
    }
}

/// The error for the limit that `counts` says was hit.
fn limit_error(
    counts: &SinkCounts,
    max_nodes: u32,
    config: &SanitizeConfig,
    at_byte: u64,
) -> DomError {
    if counts.overflowed {
        DomError::TooManyNodes {
            max: max_nodes,
            at_byte,
        }
    } else {
        DomError::TooDeep {
            max: config.max_block_depth,
            at_byte,
        }
    }
}

/// Scripting is on, as in the browsers people read archived pages with: `<noscript>` content is
/// then one text node, dropped with the element, and cannot spill into the page (with scripting
/// off, `<noscript><img></noscript>` in the head closes the head and moves the image into the
/// body). It is off only for the second parse of a page that shows nothing without it.
fn parse_opts(scripting: bool) -> ParseOpts {
    ParseOpts {
        tree_builder: TreeBuilderOpts {
            scripting_enabled: scripting,
            drop_doctype: true,
            ..TreeBuilderOpts::default()
        },
        ..ParseOpts::default()
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
    fn input_too_large_is_refused_before_parsing() {
        let c = SanitizeConfig {
            max_input_bytes: 10,
            ..config()
        };
        assert_eq!(
            Document::parse("<p>0123456789</p>", &c).unwrap_err(),
            DomError::InputTooLarge { len: 17, max: 10 }
        );
        assert!(Document::parse("<p>01</p>", &c).is_ok());
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
    fn multibyte_text_across_chunks_is_intact() {
        let text = "\u{e9}\u{1f600}".repeat(CHUNK_BYTES / 3);
        let doc = Document::parse(&format!("<p>{text}</p>"), &config()).unwrap();
        assert_eq!(doc.text_runs().next().unwrap().text, text);
    }
}

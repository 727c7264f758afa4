//! A parsed [`Document`] as bytes and back: how stage `read` hands each page's DOM to the later
//! stages, which then need not fetch and parse the page again.
//!
//! Layout (documented in `docs/formats.md`), every integer an unsigned LEB128 varint:
//!
//! ```text
//! version
//! input_bytes parse_errors unwrapped_elements dropped_attributes dropped[9]
//! count truncated[count] (0 bytes, 1 depth)                                   the report
//! len(text) text  len(names) names                                            UTF-8 buffers
//! count ( name.start name.len value.start value.len )*                        attributes
//! count ( kind id-parent next_sibling-id end-id depth data.start data.len
//!         attrs.start attrs.len )*                                            nodes
//! ```
//!
//! Links are stored as distances forward from the node (a parent is always before its node, a
//! sibling and a subtree's end after it), which keeps most of them to one byte; a missing
//! parent or sibling is 0. Decoding checks every link and range, so damaged bytes give an error,
//! never a document whose walks would panic.

use crate::document::Document;
use crate::node::{AttrSpan, NONE, Node, NodeKind, Span};
use crate::report::{ParseReport, Truncation};

/// The encoding's version, its first byte: bumped whenever the layout or the meaning of a
/// [`Document`]'s fields changes, so bytes written by another version are refused.
const VERSION: u64 = 2;

/// Bytes that do not decode as a [`Document`] of this version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("encoded document is damaged or of another version: {0}")]
pub struct DecodeError(&'static str);

impl Document {
    /// Appends the document's encoding to `out`; [`Document::decode`] gives back an equal
    /// document.
    pub fn encode(&self, out: &mut Vec<u8>) {
        put(out, VERSION);
        let report = &self.report;
        for n in [
            report.input_bytes,
            report.parse_errors,
            report.unwrapped_elements,
            report.dropped_attributes,
        ] {
            put(out, n);
        }
        report.dropped.iter().for_each(|&n| put(out, n));
        put(out, report.truncated.len() as u64);
        out.extend(report.truncated.iter().map(|&cut| match cut {
            Truncation::Bytes => 0,
            Truncation::Depth => 1,
        }));
        for buffer in [&self.text, &self.names] {
            put(out, buffer.len() as u64);
            out.extend_from_slice(buffer.as_bytes());
        }
        put(out, self.attrs.len() as u64);
        for attr in &self.attrs {
            put_span(out, attr.name);
            put_span(out, attr.value);
        }
        put(out, self.nodes.len() as u64);
        for (id, node) in (0_u32..).zip(&self.nodes) {
            out.push(match node.kind {
                NodeKind::Document => 0,
                NodeKind::Element => 1,
                NodeKind::Text => 2,
            });
            let back = |link: u32| if link == NONE { 0 } else { id - link };
            let ahead = |link: u32| if link == NONE { 0 } else { link - id };
            put(out, u64::from(back(node.parent)));
            put(out, u64::from(ahead(node.next_sibling)));
            put(out, u64::from(node.end - id));
            put(out, u64::from(node.depth));
            put_span(out, node.data);
            put_span(out, node.attrs);
        }
    }

    /// The document `bytes` encode ([`Document::encode`]).
    ///
    /// # Errors
    /// [`DecodeError`] when the bytes are cut short, of another version, or hold a link or range
    /// outside the document.
    pub fn decode(bytes: &[u8]) -> Result<Document, DecodeError> {
        let mut input = Input(bytes);
        if input.varint()? != VERSION {
            return Err(DecodeError("unknown version"));
        }
        let mut report = ParseReport {
            input_bytes: input.varint()?,
            parse_errors: input.varint()?,
            unwrapped_elements: input.varint()?,
            dropped_attributes: input.varint()?,
            ..ParseReport::default()
        };
        for n in &mut report.dropped {
            *n = input.varint()?;
        }
        let cuts = input.count(1)?;
        for _ in 0..cuts {
            report.truncated.push(match input.byte()? {
                0 => Truncation::Bytes,
                1 => Truncation::Depth,
                _ => return Err(DecodeError("truncation")),
            });
        }
        let text = input.string()?;
        let names = input.string()?;
        let attr_count = input.count(4)?;
        let mut attrs = Vec::with_capacity(attr_count);
        for _ in 0..attr_count {
            let name = input.span(names.len())?;
            let value = input.span(names.len())?;
            attrs.push(AttrSpan { name, value });
        }
        let node_count = input.count(9)?;
        if node_count == 0 || node_count >= NONE as usize {
            return Err(DecodeError("node count"));
        }
        let len = node_count as u32;
        let mut nodes = Vec::with_capacity(node_count);
        for id in 0..len {
            let kind = match input.byte()? {
                0 if id == 0 => NodeKind::Document,
                1 if id > 0 => NodeKind::Element,
                2 if id > 0 => NodeKind::Text,
                _ => return Err(DecodeError("node kind")),
            };
            let parent = match (id, input.small()?) {
                (0, 0) => NONE,
                (_, back) if back > 0 && back <= id => id - back,
                _ => return Err(DecodeError("parent link")),
            };
            let next_sibling = match input.small()? {
                0 => NONE,
                ahead if ahead < len - id => id + ahead,
                _ => return Err(DecodeError("sibling link")),
            };
            let end = match input.small()? {
                ahead if ahead > 0 && ahead <= len - id => id + ahead,
                _ => return Err(DecodeError("subtree end")),
            };
            let depth = match input.small()? {
                0 if id > 0 => return Err(DecodeError("depth")),
                depth if id == 0 && depth > 0 => return Err(DecodeError("depth")),
                depth => depth,
            };
            let buffer = if kind == NodeKind::Text {
                &text
            } else {
                &names
            };
            let data = input.span(buffer.len())?;
            let attrs = input.span(attrs.len())?;
            nodes.push(Node {
                kind,
                parent,
                next_sibling,
                end,
                depth,
                data,
                attrs,
            });
        }
        if !input.0.is_empty() {
            return Err(DecodeError("bytes after the document"));
        }
        Ok(Document {
            nodes,
            attrs,
            text,
            names,
            report,
        })
    }
}

fn put(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn put_span(out: &mut Vec<u8>, span: Span) {
    put(out, u64::from(span.start));
    put(out, u64::from(span.end.saturating_sub(span.start)));
}

/// What is left to decode.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> Result<u8, DecodeError> {
        let (&first, rest) = self.0.split_first().ok_or(DecodeError("cut short"))?;
        self.0 = rest;
        Ok(first)
    }

    fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut value = 0_u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return Ok(value);
            }
        }
        Err(DecodeError("varint too long"))
    }

    /// A varint that fits in 32 bits.
    fn small(&mut self) -> Result<u32, DecodeError> {
        u32::try_from(self.varint()?).map_err(|_| DecodeError("number too large"))
    }

    /// A count of items that take at least `min_bytes` each, so a damaged count cannot make
    /// decoding reserve more memory than the input could fill.
    fn count(&mut self, min_bytes: usize) -> Result<usize, DecodeError> {
        let n = usize::try_from(self.varint()?).map_err(|_| DecodeError("count"))?;
        if n > self.0.len() / min_bytes {
            return Err(DecodeError("count larger than the bytes left"));
        }
        Ok(n)
    }

    fn string(&mut self) -> Result<String, DecodeError> {
        let n = usize::try_from(self.varint()?).map_err(|_| DecodeError("length"))?;
        if n > self.0.len() || n >= u32::MAX as usize {
            return Err(DecodeError("string longer than the bytes left"));
        }
        let (bytes, rest) = self.0.split_at(n);
        self.0 = rest;
        String::from_utf8(bytes.to_vec()).map_err(|_| DecodeError("string not UTF-8"))
    }

    /// A range of a buffer of `len` bytes or items.
    fn span(&mut self, len: usize) -> Result<Span, DecodeError> {
        let start = self.small()?;
        let end = start
            .checked_add(self.small()?)
            .filter(|&end| end as usize <= len)
            .ok_or(DecodeError("range outside its buffer"))?;
        Ok(Span { start, end })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NodeRef, SanitizeConfig};
    use proptest::prelude::*;

    fn encoded(doc: &Document) -> Vec<u8> {
        let mut out = Vec::new();
        doc.encode(&mut out);
        out
    }

    /// Everything a document shows, for comparing two.
    fn shown(doc: &Document) -> Vec<String> {
        let mut shown = vec![format!("{:?}", doc.report())];
        for node in doc.nodes() {
            shown.push(format!(
                "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                node.kind(),
                node.name(),
                node.text(),
                node.parent().map(NodeRef::id),
                node.children().map(NodeRef::id).collect::<Vec<_>>(),
                node.descendants().count(),
                node.depth(),
                node.attrs().collect::<Vec<_>>(),
            ));
        }
        shown
    }

    #[test]
    fn a_page_comes_back_equal() {
        let html = "<html><head><title>T</title></head><body><div id=a class='b c'>one \
                    <a href=/x>two</a><script>x</script><p>three<br>four</div><!-- c --></body>";
        let doc = Document::parse(html, &SanitizeConfig::default()).unwrap();
        let bytes = encoded(&doc);
        let back = Document::decode(&bytes).unwrap();
        assert_eq!(shown(&back), shown(&doc));
        assert_eq!(encoded(&back), bytes);
        assert_eq!(back.report(), doc.report());
        assert!(doc.report().dropped_total() > 0);
    }

    #[test]
    fn a_truncated_page_keeps_its_truncation() {
        let config = SanitizeConfig {
            max_input_bytes: 40,
            ..SanitizeConfig::default()
        };
        let html = "<p>one two three</p><p>four five six seven eight nine ten</p>";
        let doc = Document::parse(html, &config).unwrap();
        assert_eq!(doc.report().truncated, [Truncation::Bytes]);
        let back = Document::decode(&encoded(&doc)).unwrap();
        assert_eq!(back.report(), doc.report());
        assert_eq!(shown(&back), shown(&doc));
    }

    #[test]
    fn damaged_bytes_are_refused() {
        let doc = Document::parse("<p class=x>a<b>b</b></p>", &SanitizeConfig::default()).unwrap();
        let bytes = encoded(&doc);
        for cut in 0..bytes.len() {
            assert!(Document::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut other_version = bytes.clone();
        other_version[0] = 1;
        assert_eq!(
            Document::decode(&other_version).unwrap_err(),
            DecodeError("unknown version")
        );
        let mut longer = bytes;
        longer.push(0);
        assert!(Document::decode(&longer).is_err());
    }

    proptest! {
        #[test]
        fn any_markup_comes_back_equal(html in "(<(p|div|a href=x|b|td|li|span class=c)>|</(p|div|a|b)>|[a-z ]{0,5}|&amp;|é){0,40}") {
            let doc = Document::parse(&html, &SanitizeConfig::default()).unwrap();
            let back = Document::decode(&encoded(&doc)).unwrap();
            prop_assert_eq!(shown(&back), shown(&doc));
        }

        #[test]
        fn any_damage_is_an_error_or_a_document(html in "(<(p|div|b)>|</(p|div)>|[a-z ]{0,4}){0,12}", at in any::<prop::sample::Index>(), byte in any::<u8>()) {
            let doc = Document::parse(&html, &SanitizeConfig::default()).unwrap();
            let mut bytes = encoded(&doc);
            let at = at.index(bytes.len());
            bytes[at] = byte;
            // Whatever the damage, decoding returns and what it returns can be walked.
            if let Ok(back) = Document::decode(&bytes) {
                let _ = shown(&back);
            }
        }
    }
}

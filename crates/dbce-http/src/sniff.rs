//! Telling HTML pages from other payloads, by declared type or, when that says nothing, by a
//! sniff of the first bytes in the manner of the WHATWG MIME Sniffing Standard (§7.1).

use std::borrow::Cow;

use crate::mime::essence;

/// How many leading bytes the sniff reads: the standard's resource header size.
const SNIFF_BYTES: usize = 1445;

/// Declared types that say nothing about the payload, so the body is sniffed instead.
const UNINFORMATIVE_TYPES: [&str; 5] = [
    "application/octet-stream",
    "application/unknown",
    "binary/octet-stream",
    "unknown/unknown",
    "*/*",
];

/// Tag openings that mark a body as HTML (the standard's list), each matched case-insensitively
/// and followed by whitespace or `>`.
const HTML_OPENINGS: [&[u8]; 16] = [
    b"<!doctype html",
    b"<html",
    b"<head",
    b"<body",
    b"<script",
    b"<iframe",
    b"<h1",
    b"<div",
    b"<font",
    b"<table",
    b"<a",
    b"<style",
    b"<title",
    b"<b",
    b"<br",
    b"<p",
];

/// Whether a response is an HTML page.
///
/// `text/html` and `application/xhtml+xml` are; other declared types are not, except that a
/// missing, malformed or uninformative one (`application/octet-stream`, `unknown/unknown`, …)
/// leads to a sniff of the body: after a byte order mark, whitespace, comments and `<?…>`
/// declarations, it must open with `<!doctype html`, `<html`, `<head`, `<body` or another tag of
/// the standard's list. `body` should be the decoded body (see [`decode_body`](crate::decode_body)).
#[must_use]
pub fn is_html(content_type: Option<&str>, body: &[u8]) -> bool {
    match content_type.and_then(essence).as_deref() {
        Some("text/html" | "application/xhtml+xml") => true,
        Some(declared) if !UNINFORMATIVE_TYPES.contains(&declared) => false,
        _ => sniff_html(body),
    }
}

/// Whether `body` opens like an HTML document.
fn sniff_html(body: &[u8]) -> bool {
    let head = without_bom(&body[..body.len().min(SNIFF_BYTES)]);
    let mut rest: &[u8] = &head;
    loop {
        rest = rest.trim_ascii_start();
        let skip_to = if rest.starts_with(b"<!--") {
            memchr::memmem::find(&rest[4..], b"-->").map(|end| 4 + end + 3)
        } else if rest.starts_with(b"<?") {
            memchr::memchr(b'>', rest).map(|end| end + 1)
        } else {
            return HTML_OPENINGS
                .iter()
                .any(|opening| opens_with(rest, opening));
        };
        match skip_to {
            Some(end) => rest = &rest[end..],
            None => return false,
        }
    }
}

/// Whether `rest` starts with `opening` (ignoring case) followed by whitespace or `>`.
fn opens_with(rest: &[u8], opening: &[u8]) -> bool {
    rest.len() > opening.len()
        && rest[..opening.len()].eq_ignore_ascii_case(opening)
        && (rest[opening.len()].is_ascii_whitespace() || rest[opening.len()] == b'>')
}

/// `head` without a UTF-8 byte order mark, or narrowed to its ASCII characters after a UTF-16 one.
fn without_bom(head: &[u8]) -> Cow<'_, [u8]> {
    match head {
        [0xef, 0xbb, 0xbf, rest @ ..] => Cow::Borrowed(rest),
        [0xff, 0xfe, rest @ ..] => Cow::Owned(narrow_utf16(rest, |[low, high]| (low, high))),
        [0xfe, 0xff, rest @ ..] => Cow::Owned(narrow_utf16(rest, |[high, low]| (low, high))),
        _ => Cow::Borrowed(head),
    }
}

/// The leading ASCII characters of UTF-16 text, one byte each.
fn narrow_utf16(units: &[u8], split: fn([u8; 2]) -> (u8, u8)) -> Vec<u8> {
    units
        .chunks_exact(2)
        .map(|pair| split([pair[0], pair[1]]))
        .take_while(|(low, high)| *high == 0 && low.is_ascii())
        .map(|(low, _)| low)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_html_types_are_html() {
        assert!(is_html(Some("text/html; charset=utf-8"), b""));
        assert!(is_html(Some("Application/XHTML+XML"), b"{}"));
    }

    #[test]
    fn other_declared_types_are_not_sniffed() {
        assert!(!is_html(Some("text/plain"), b"<html><body>"));
        assert!(!is_html(Some("image/png"), b"<!doctype html>"));
        assert!(!is_html(Some("application/json"), b"<html>"));
    }

    #[test]
    fn missing_or_uninformative_types_are_sniffed() {
        for content_type in [
            None,
            Some(""),
            Some("garbage"),
            Some("application/octet-stream"),
        ] {
            assert!(
                is_html(content_type, b"<!DOCTYPE html>\n<html>"),
                "{content_type:?}"
            );
            assert!(
                !is_html(content_type, b"\x89PNG\r\n\x1a\n"),
                "{content_type:?}"
            );
        }
    }

    #[test]
    fn sniff_skips_bom_whitespace_comments_and_declarations() {
        assert!(sniff_html(b"\xef\xbb\xbf  \r\n<HTML lang=en>"));
        assert!(sniff_html(b"<!-- generated --> <!-- twice -->\n<head>"));
        assert!(sniff_html(b"<?xml version=\"1.0\"?>\n<html xmlns=\"x\">"));
        assert!(sniff_html(b"\t<body\n class=x>"));
        assert!(sniff_html(b"<p>Just a paragraph</p>"));
    }

    #[test]
    fn sniff_reads_utf16_bodies() {
        let le: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain("<html>".bytes().flat_map(|b| [b, 0]))
            .collect();
        let be: Vec<u8> = [0xfe, 0xff]
            .into_iter()
            .chain("<html>".bytes().flat_map(|b| [0, b]))
            .collect();
        assert!(sniff_html(&le) && sniff_html(&be));
    }

    #[test]
    fn sniff_rejects_non_html() {
        assert!(!sniff_html(b""));
        assert!(!sniff_html(b"<!-- unterminated <html>"));
        assert!(!sniff_html(b"<htmlx>"));
        assert!(!sniff_html(b"<html"), "no tag-terminating byte");
        assert!(!sniff_html(b"{\"json\": true}"));
        assert!(!sniff_html(b"plain text <html>"));
        assert!(!sniff_html(b"<?xml version=\"1.0\"?><rss>"));
    }
}

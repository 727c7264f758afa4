//! The HTTP status line and header block at the head of a WARC response record's block.

use std::borrow::Cow;

use dbce_warc::Headers;

use crate::limits::as_usize;
use crate::{HttpError, HttpLimits};

/// The protocol version named in the status line, such as `HTTP/1.1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HttpVersion {
    /// The number before the dot.
    pub major: u8,
    /// The number after the dot, 0 when there is none (`HTTP/2`).
    pub minor: u8,
}

/// An HTTP response split into its parts, borrowing the body from the WARC block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse<'a> {
    /// The protocol version of the status line.
    pub version: HttpVersion,
    /// The three-digit status code.
    pub status: u16,
    /// The reason phrase, empty when the server sent none; invalid UTF-8 is replaced.
    pub reason: Cow<'a, str>,
    /// The header fields, in the order they were sent.
    pub headers: Headers,
    /// The message body exactly as archived: still transfer- and content-encoded.
    pub body: &'a [u8],
}

impl HttpResponse<'_> {
    /// The value of the first `Content-Type` header, if any.
    pub fn content_type(&self) -> Option<&str> {
        self.headers.get("content-type")
    }
}

/// Splits the block of a WARC response record into status line, headers and body.
///
/// Lenient where servers and crawlers are: leading blank lines are skipped, lines may end in a
/// bare LF, the reason phrase may be missing, and a block that ends right after the last header
/// line (without the closing blank line) has an empty body.
///
/// # Errors
/// [`HttpError::NotHttp`] when the block does not start with `HTTP/`; [`HttpError::InvalidVersion`]
/// or [`HttpError::InvalidStatusCode`] for a malformed status line;
/// [`HttpError::UnterminatedHeaders`], [`HttpError::HeadersTooLarge`] or [`HttpError::Headers`]
/// for a bad header block.
pub fn parse_response<'a>(
    block: &'a [u8],
    limits: &HttpLimits,
) -> Result<HttpResponse<'a>, HttpError> {
    let start = skip_blank_lines(block);
    let head = &block[start..];
    let (status_line, fields_start) = split_line(head).ok_or(HttpError::UnterminatedHeaders)?;
    let (version, status, reason) = parse_status_line(status_line)?;
    let body_start = find_header_end(head, fields_start, limits.max_header_bytes)?;
    let headers = Headers::parse(&head[fields_start..body_start.fields_end])?;
    Ok(HttpResponse {
        version,
        status,
        reason,
        headers,
        body: &head[body_start.body..],
    })
}

/// The offset of the first byte that is not part of a leading blank line.
fn skip_blank_lines(block: &[u8]) -> usize {
    let mut pos = 0;
    loop {
        let rest = &block[pos..];
        if rest.starts_with(b"\r\n") {
            pos += 2;
        } else if rest.starts_with(b"\n") {
            pos += 1;
        } else {
            return pos;
        }
    }
}

/// The first line of `bytes` without its line end, and the offset just past that line end.
fn split_line(bytes: &[u8]) -> Option<(&[u8], usize)> {
    let nl = memchr::memchr(b'\n', bytes)?;
    let line = &bytes[..nl];
    Some((line.strip_suffix(b"\r").unwrap_or(line), nl + 1))
}

fn parse_status_line(line: &[u8]) -> Result<(HttpVersion, u16, Cow<'_, str>), HttpError> {
    if line.len() < 5 || !line[..5].eq_ignore_ascii_case(b"HTTP/") {
        return Err(HttpError::NotHttp);
    }
    let rest = &line[5..];
    let version_end = rest
        .iter()
        .position(|b| *b == b' ' || *b == b'\t')
        .unwrap_or(rest.len());
    let version = parse_version(&rest[..version_end]).ok_or(HttpError::InvalidVersion)?;
    let rest = rest[version_end..].trim_ascii_start();
    let code = rest.get(..3).ok_or(HttpError::InvalidStatusCode)?;
    let status = parse_status_code(code).ok_or(HttpError::InvalidStatusCode)?;
    let after = &rest[3..];
    if !after.is_empty() && after[0] != b' ' && after[0] != b'\t' {
        return Err(HttpError::InvalidStatusCode);
    }
    Ok((version, status, String::from_utf8_lossy(after.trim_ascii())))
}

fn parse_version(text: &[u8]) -> Option<HttpVersion> {
    let (major, minor) = match memchr::memchr(b'.', text) {
        Some(dot) => (&text[..dot], Some(&text[dot + 1..])),
        None => (text, None),
    };
    Some(HttpVersion {
        major: parse_small_number(major)?,
        minor: minor.map_or(Some(0), parse_small_number)?,
    })
}

fn parse_small_number(digits: &[u8]) -> Option<u8> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

fn parse_status_code(code: &[u8]) -> Option<u16> {
    code.iter().try_fold(0u16, |acc, b| {
        b.is_ascii_digit().then(|| acc * 10 + u16::from(b - b'0'))
    })
}

/// Where the header fields end and where the body starts, as offsets into the head.
struct HeaderEnd {
    fields_end: usize,
    body: usize,
}

/// Finds the blank line that closes the header block, looking at most `limit` bytes in.
fn find_header_end(head: &[u8], fields_start: usize, limit: u64) -> Result<HeaderEnd, HttpError> {
    let mut pos = fields_start;
    loop {
        if pos > as_usize(limit) {
            return Err(HttpError::HeadersTooLarge { limit });
        }
        let Some((line, len)) = split_line(&head[pos..]) else {
            return if pos == head.len() {
                Ok(HeaderEnd {
                    fields_end: pos,
                    body: pos,
                })
            } else {
                Err(HttpError::UnterminatedHeaders)
            };
        };
        if line.is_empty() {
            return Ok(HeaderEnd {
                fields_end: pos,
                body: pos + len,
            });
        }
        pos += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(block: &[u8]) -> Result<HttpResponse<'_>, HttpError> {
        parse_response(block, &HttpLimits::default())
    }

    #[test]
    fn parses_a_plain_response() {
        let r = parse(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hi").unwrap();
        assert_eq!(r.version, HttpVersion { major: 1, minor: 1 });
        assert_eq!((r.status, r.reason.as_ref()), (200, "OK"));
        assert_eq!(r.content_type(), Some("text/html"));
        assert_eq!(r.body, b"<p>hi");
    }

    #[test]
    fn tolerates_bare_lf_leading_blank_lines_and_missing_reason() {
        let r = parse(b"\r\n\nHTTP/1.0 404\nServer: x\n\nbody\r\n").unwrap();
        assert_eq!(r.version, HttpVersion { major: 1, minor: 0 });
        assert_eq!((r.status, r.reason.as_ref()), (404, ""));
        assert_eq!(r.headers.get("server"), Some("x"));
        assert_eq!(r.body, b"body\r\n");
    }

    #[test]
    fn keeps_multi_word_reason_and_accepts_version_without_minor() {
        let r = parse(b"HTTP/2 301 Moved  Permanently \r\n\r\n").unwrap();
        assert_eq!(r.version, HttpVersion { major: 2, minor: 0 });
        assert_eq!(r.reason, "Moved  Permanently");
        assert!(r.headers.is_empty());
        assert!(r.body.is_empty());
    }

    #[test]
    fn block_ending_after_last_header_has_empty_body() {
        let r = parse(b"HTTP/1.1 304 Not Modified\r\nDate: x\r\n").unwrap();
        assert_eq!(r.headers.get("date"), Some("x"));
        assert!(r.body.is_empty());
    }

    #[test]
    fn raw_html_and_garbage_are_not_http() {
        assert_eq!(
            parse(b"<!doctype html>\n<html>").unwrap_err(),
            HttpError::NotHttp
        );
        assert_eq!(
            parse(b"\x00\x01\x02garbage\n").unwrap_err(),
            HttpError::NotHttp
        );
        assert_eq!(parse(b"HTTP\n").unwrap_err(), HttpError::NotHttp);
    }

    #[test]
    fn malformed_status_lines_are_typed() {
        assert_eq!(
            parse(b"HTTP/x.1 200 OK\r\n\r\n").unwrap_err(),
            HttpError::InvalidVersion
        );
        assert_eq!(
            parse(b"HTTP/1.1 20 OK\r\n\r\n").unwrap_err(),
            HttpError::InvalidStatusCode
        );
        assert_eq!(
            parse(b"HTTP/1.1 2000\r\n\r\n").unwrap_err(),
            HttpError::InvalidStatusCode
        );
        assert_eq!(
            parse(b"HTTP/1.1\r\n\r\n").unwrap_err(),
            HttpError::InvalidStatusCode
        );
    }

    #[test]
    fn unterminated_and_oversized_headers_are_errors() {
        assert_eq!(
            parse(b"HTTP/1.1 200 OK").unwrap_err(),
            HttpError::UnterminatedHeaders
        );
        assert_eq!(
            parse(b"HTTP/1.1 200 OK\r\nContent-Ty").unwrap_err(),
            HttpError::UnterminatedHeaders
        );
        let limits = HttpLimits {
            max_header_bytes: 20,
            ..HttpLimits::default()
        };
        let block = b"HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\n\r\n";
        assert_eq!(
            parse_response(block, &limits).unwrap_err(),
            HttpError::HeadersTooLarge { limit: 20 }
        );
    }

    #[test]
    fn bad_header_line_is_a_header_error() {
        let err = parse(b"HTTP/1.1 200 OK\r\nno colon\r\n\r\n").unwrap_err();
        assert!(matches!(err, HttpError::Headers(_)));
    }
}

//! The legacy Internet Archive ARC format (versions 1 and 2): one header line per record.
//!
//! Records are given WARC header fields so that the rest of dbce sees one kind of record: the
//! `filedesc://` record becomes `warcinfo`, HTTP captures `response` (their block is the HTTP
//! message, as in WARC) and anything else `resource`.

use crate::{Headers, RecordHeader, RecordType, SkipReason};

/// The longest ARC header line considered when looking for the next record.
pub(crate) const MAX_LINE: usize = 4096;

/// The ARC version, from the `filedesc://` record's version block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    /// `URL IP-address Archive-date Content-type Archive-length`.
    V1,
    /// Version 1's fields with result code, checksum, location, offset and file name added
    /// before the length.
    V2,
}

impl Version {
    fn field_count(self) -> usize {
        match self {
            Self::V1 => 5,
            Self::V2 => 10,
        }
    }
}

/// Whether `head` starts with a plausible ARC header line.
pub(crate) fn is_header_line(head: &[u8]) -> bool {
    let line = first_line(head);
    let fields: Vec<&[u8]> = line
        .split(|&b| b == b' ')
        .filter(|f| !f.is_empty())
        .collect();
    let n = fields.len();
    let has_scheme = fields.first().is_some_and(|url| {
        let scheme = url.split(|&b| b == b':').next().unwrap_or_default();
        !scheme.is_empty() && scheme.len() < url.len() && scheme.iter().all(u8::is_ascii_alphabetic)
    });
    let is_date = |i: Option<usize>| {
        i.and_then(|i| fields.get(i))
            .is_some_and(|f| (12..=14).contains(&f.len()) && f.iter().all(u8::is_ascii_digit))
    };
    n >= 5
        && has_scheme
        && fields[n - 1].iter().all(u8::is_ascii_digit)
        && (is_date(n.checked_sub(3)) || is_date(n.checked_sub(8)))
}

fn first_line(head: &[u8]) -> &[u8] {
    let end = memchr::memchr(b'\n', head).unwrap_or(head.len().min(MAX_LINE));
    head[..end].strip_suffix(b"\r").unwrap_or(&head[..end])
}

/// Parses an ARC header line into WARC-style header fields.
pub(crate) fn parse_header(line: &[u8], version: Version) -> Result<RecordHeader, SkipReason> {
    let line = String::from_utf8_lossy(first_line(line)).into_owned();
    let fields: Vec<&str> = line.split(' ').filter(|f| !f.is_empty()).collect();
    let count = version.field_count();
    if fields.len() < count {
        return Err(SkipReason::MalformedHeader);
    }
    let rest = &fields[fields.len() - (count - 1)..];
    let url = fields[..fields.len() - (count - 1)].join(" ");
    let (ip, date, mime, length) = (rest[0], rest[1], rest[2], rest[count - 2]);
    if length.is_empty() || !length.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SkipReason::MissingHeader {
            field: "Content-Length",
        });
    }
    let record_type = if url.starts_with("filedesc:") {
        RecordType::Warcinfo
    } else if url.starts_with("http:") || url.starts_with("https:") {
        RecordType::Response
    } else {
        RecordType::Resource
    };
    let mut out = Headers::new();
    out.push("WARC-Type", record_type.as_str());
    out.push("WARC-Target-URI", url.as_str());
    out.push("WARC-Date", iso_date(date));
    out.push("WARC-IP-Address", ip);
    let content_type = if record_type == RecordType::Response {
        "application/http; msgtype=response"
    } else {
        mime
    };
    out.push("Content-Type", content_type);
    out.push("ARC-Content-Type", mime);
    out.push("Content-Length", length);
    Ok(RecordHeader {
        version: "ARC/1".to_owned(),
        record_type,
        fields: out,
    })
}

/// The ARC version a record header line is written in, by its number of fields: for a reader
/// that starts at a record in the middle of a file and never sees the `filedesc://` record.
pub(crate) fn version_of_line(head: &[u8]) -> Version {
    let fields = first_line(head)
        .split(|&b| b == b' ')
        .filter(|f| !f.is_empty())
        .count();
    if fields >= Version::V2.field_count() {
        Version::V2
    } else {
        Version::V1
    }
}

/// The ARC version named by a `filedesc://` record's block (`1 0 …` or `2 0 …`).
pub(crate) fn version_of(header: &RecordHeader, block: &[u8]) -> Option<Version> {
    if header.record_type != RecordType::Warcinfo {
        return None;
    }
    match block.get(..2)? {
        b"1 " => Some(Version::V1),
        b"2 " => Some(Version::V2),
        _ => None,
    }
}

/// `YYYYMMDDhhmmss` (shorter forms padded with zeros) as `YYYY-MM-DDThh:mm:ssZ`.
fn iso_date(date: &str) -> String {
    let mut digits: String = date.chars().filter(char::is_ascii_digit).take(14).collect();
    while digits.len() < 14 {
        digits.push('0');
    }
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        &digits[0..4],
        &digits[4..6],
        &digits[6..8],
        &digits[8..10],
        &digits[10..12],
        &digits[12..14]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines_are_recognised() {
        assert!(is_header_line(
            b"http://example.com/ 1.2.3.4 20140216050221 text/html 1591\n"
        ));
        assert!(is_header_line(
            b"filedesc://x.arc 0.0.0.0 20140216050221 text/plain 75\n"
        ));
        assert!(!is_header_line(
            b"http://example.com/ 1.2.3.4 20140216050221 text/html -1\n"
        ));
        assert!(!is_header_line(b"HTTP/1.1 200 OK\r\n"));
        assert!(!is_header_line(b"<html> a b c 12\n"));
    }

    #[test]
    fn urls_with_spaces_are_kept_whole() {
        let line = b"http://e.com/a b c 1.2.3.4 20140216050221 text/html 10\n";
        let header = parse_header(line, Version::V1).unwrap();
        assert_eq!(header.target_uri(), Some("http://e.com/a b c"));
        assert_eq!(header.date(), Some("2014-02-16T05:02:21Z"));
        assert_eq!(header.content_length(), Some(10));
        assert_eq!(header.record_type, RecordType::Response);
    }

    #[test]
    fn version_two_lines_have_ten_fields() {
        let line = b"dns:e.com 1.2.3.4 20140216050221 text/dns 200 - - 0 f.arc 42\n";
        let header = parse_header(line, Version::V2).unwrap();
        assert_eq!(header.target_uri(), Some("dns:e.com"));
        assert_eq!(header.record_type, RecordType::Resource);
        assert_eq!(header.content_length(), Some(42));
    }

    #[test]
    fn bad_lengths_are_reported() {
        let line = b"http://e.com/ 1.2.3.4 20140216050221 text/html abc\n";
        assert_eq!(
            parse_header(line, Version::V1),
            Err(SkipReason::MissingHeader {
                field: "Content-Length"
            })
        );
    }
}

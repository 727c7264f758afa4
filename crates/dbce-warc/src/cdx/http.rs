//! The HTTP status line and header block at the start of a record's block, read the way
//! warcio's lenient `StatusAndHeadersParser` reads it for cdxj-indexer.
//!
//! Lines end at `\n`, are decoded as UTF-8 (Latin-1 if invalid) and right-stripped of
//! whitespace; the header block ends at the first blank line or with the block. What follows
//! is the payload, whose sha1 is the digest of records that do not state one.

/// What warcio keeps of an HTTP message head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct HttpHead {
    /// The status line after the protocol, e.g. `200 OK`; empty if there is none.
    status_line: String,
    /// The value of the first `Content-Type` field, continuation lines appended.
    content_type: Option<String>,
    /// Whether any header field was read.
    has_fields: bool,
    /// Bytes of the block taken by the status line, the fields and the blank line.
    pub(super) len: usize,
}

impl HttpHead {
    /// Reads the head at the start of `block`.
    pub(super) fn parse(block: &[u8]) -> Self {
        let mut lines = Lines { block, position: 0 };
        let first = lines.next_line();
        let status_line = match first.split_once(' ') {
            Some((_protocol, rest)) => python_strip(rest).to_owned(),
            None => String::new(),
        };
        let mut head = Self {
            status_line,
            content_type: None,
            has_fields: false,
            len: lines.position,
        };
        if !first.is_empty() {
            head.read_fields(&mut lines);
        }
        head
    }

    fn read_fields(&mut self, lines: &mut Lines<'_>) {
        let mut line = lines.next_line();
        while !line.is_empty() {
            let field = line.split_once(':');
            let mut value = field.map(|(_, value)| python_lstrip(value).to_owned());
            let mut next = lines.next_line();
            while next.starts_with([' ', '\t']) {
                if let Some(value) = value.as_mut() {
                    value.push_str(&next);
                }
                next = lines.next_line();
            }
            if let (Some((name, _)), Some(value)) = (field, value) {
                self.has_fields = true;
                let name = name.trim_end_matches([' ', '\t']);
                if self.content_type.is_none() && name.eq_ignore_ascii_case("content-type") {
                    self.content_type = Some(value);
                }
            }
            line = next;
        }
        self.len = lines.position;
    }

    /// Whether warcio counts the head as present (it has a status line or fields).
    pub(super) fn is_present(&self) -> bool {
        !self.status_line.is_empty() || self.has_fields
    }

    /// The status code: the status line up to its first space.
    pub(super) fn status(&self) -> &str {
        self.status_line
            .split_once(' ')
            .map_or(self.status_line.as_str(), |(code, _)| code)
    }

    /// The `Content-Type` value, if the head has one.
    pub(super) fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }
}

struct Lines<'a> {
    block: &'a [u8],
    position: usize,
}

impl Lines<'_> {
    /// The next line, decoded and right-stripped; empty at the end of the block.
    fn next_line(&mut self) -> String {
        let rest = &self.block[self.position..];
        let len = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        self.position += len;
        let line = match std::str::from_utf8(&rest[..len]) {
            Ok(line) => line.to_owned(),
            Err(_) => rest[..len].iter().map(|&b| char::from(b)).collect(),
        };
        line.trim_end_matches(is_python_space).to_owned()
    }
}

/// Python's `str.isspace`: Unicode white space and the ASCII separators `\x1c` to `\x1f`.
pub(super) fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

fn python_lstrip(s: &str) -> &str {
    s.trim_start_matches(is_python_space)
}

fn python_strip(s: &str) -> &str {
    s.trim_matches(is_python_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_content_type_are_read() {
        let block = b"HTTP/1.1  200 OK\r\nX: 1\r\ncontent-TYPE : text/html;\r\n charset=x\r\nContent-Type: b\r\n\r\nbody";
        let head = HttpHead::parse(block);
        assert!(head.is_present());
        assert_eq!(head.status(), "200");
        assert_eq!(head.content_type(), Some("text/html; charset=x"));
        assert_eq!(&block[head.len..], b"body");
    }

    #[test]
    fn odd_heads_are_read_as_warcio_reads_them() {
        let head = HttpHead::parse(b"HTTP/1.0\nno colon\n \t\nbody");
        assert_eq!((head.status(), head.is_present()), ("", false));
        assert_eq!(head.len, 21);
        let head = HttpHead::parse(b"\r\nHTTP/1.1 200 OK\r\n\r\n");
        assert_eq!((head.len, head.is_present()), (2, false));
        let head = HttpHead::parse(b"HTTP/1.1 404\r\nA: \xe9\r\n");
        assert_eq!(
            (head.status(), head.is_present(), head.len),
            ("404", true, 20)
        );
    }
}

//! Named header fields as they appear in WARC and HTTP header blocks.

use std::fmt;

/// An ordered list of header fields.
///
/// Lookup is case-insensitive, repeated fields are kept in file order, and continuation lines
/// (a line starting with a space or tab) are folded into the previous field's value with one
/// space, as RFC 2616 and the WARC specification describe.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers {
    fields: Vec<(String, String)>,
}

/// A header block could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// A line has no `:` separating name and value.
    #[error("header line {line} has no ':' separator")]
    MissingColon {
        /// One-based line number within the block.
        line: usize,
    },
    /// A continuation line came before any field.
    #[error("continuation line before the first header field")]
    LeadingContinuation,
    /// A field name is empty or contains a byte that is not allowed in a token.
    #[error("header line {line} has an invalid field name")]
    InvalidName {
        /// One-based line number within the block.
        line: usize,
    },
}

impl Headers {
    /// An empty header list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses header lines (without the leading version/status line and without the blank line
    /// that ends the block). Lines may end in CRLF or a bare LF. Values are decoded as UTF-8,
    /// replacing invalid bytes, and trimmed.
    ///
    /// # Errors
    /// Fails on a line without a colon, an empty or invalid field name, or a continuation line
    /// before the first field.
    pub fn parse(block: &[u8]) -> Result<Self, HeaderError> {
        let mut fields: Vec<(String, String)> = Vec::new();
        for (index, raw) in block.split(|&b| b == b'\n').enumerate() {
            // Lines may end CR LF, LF, or (written by some tools) CR CR LF.
            let mut line = raw;
            while let Some(shorter) = line.strip_suffix(b"\r") {
                line = shorter;
            }
            if line.is_empty() {
                continue;
            }
            if line[0] == b' ' || line[0] == b'\t' {
                let (_, value) = fields.last_mut().ok_or(HeaderError::LeadingContinuation)?;
                let more = String::from_utf8_lossy(line);
                let more = more.trim();
                if !more.is_empty() {
                    if !value.is_empty() {
                        value.push(' ');
                    }
                    value.push_str(more);
                }
                continue;
            }
            let colon =
                memchr::memchr(b':', line).ok_or(HeaderError::MissingColon { line: index + 1 })?;
            let name = line[..colon].trim_ascii();
            if name.is_empty() || !name.iter().all(|&b| is_token_byte(b)) {
                return Err(HeaderError::InvalidName { line: index + 1 });
            }
            let value = String::from_utf8_lossy(line[colon + 1..].trim_ascii()).into_owned();
            fields.push((String::from_utf8_lossy(name).into_owned(), value));
        }
        Ok(Self { fields })
    }

    /// The first value of `name`, compared case-insensitively.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// All values of `name`, in file order.
    pub fn get_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.fields
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Appends a field, keeping any earlier field of the same name.
    pub fn push(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.fields.push((name.into(), value.into()));
    }

    /// Replaces every field named `name` by one field with `value` (appended if absent).
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .fields
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(first) => {
                self.fields[first].1 = value;
                let mut index = 0;
                self.fields.retain(|(n, _)| {
                    index += 1;
                    index - 1 == first || !n.eq_ignore_ascii_case(name)
                });
            }
            None => self.fields.push((name.to_owned(), value)),
        }
    }

    /// All fields in file order, as `(name, value)`.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.fields.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The number of fields, repeated ones counted each time.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether there is no field at all.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }
}

impl fmt::Display for Headers {
    /// Writes the fields as `Name: value\r\n` lines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.fields {
            write!(f, "{name}: {value}\r\n")?;
        }
        Ok(())
    }
}

/// Which bytes may appear in a field name (RFC 9110 `tchar`), as a table: a lookup per byte
/// instead of a search of the separator list.
const TOKEN_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0x21;
    while b < 0x7f {
        table[b] = true;
        b += 1;
    }
    let separators = b"()<>@,;:\\\"/[]?={}";
    let mut i = 0;
    while i < separators.len() {
        table[separators[i] as usize] = false;
        i += 1;
    }
    table
};

fn is_token_byte(b: u8) -> bool {
    TOKEN_BYTES[usize::from(b)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_is_case_insensitive_and_keeps_repeats() {
        let h =
            Headers::parse(b"Content-Type: text/html\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n")
                .unwrap();
        assert_eq!(h.get("content-type"), Some("text/html"));
        assert_eq!(h.get_all("SET-COOKIE").collect::<Vec<_>>(), ["a=1", "b=2"]);
        assert_eq!(h.len(), 3);
    }

    #[test]
    fn continuation_lines_are_folded() {
        let h = Headers::parse(b"X-Long: first\r\n  second\r\n\tthird\nOther: x\n").unwrap();
        assert_eq!(h.get("x-long"), Some("first second third"));
        assert_eq!(h.get("other"), Some("x"));
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert_eq!(
            Headers::parse(b"no colon here\r\n"),
            Err(HeaderError::MissingColon { line: 1 })
        );
        assert_eq!(
            Headers::parse(b" cont\r\n"),
            Err(HeaderError::LeadingContinuation)
        );
        assert_eq!(
            Headers::parse(b": empty\r\n"),
            Err(HeaderError::InvalidName { line: 1 })
        );
    }

    #[test]
    fn set_replaces_all_and_display_round_trips() {
        let mut h = Headers::parse(b"A: 1\r\nB: 2\r\na: 3\r\n").unwrap();
        h.set("A", "9");
        assert_eq!(h.to_string(), "A: 9\r\nB: 2\r\n");
        assert_eq!(Headers::parse(h.to_string().as_bytes()).unwrap(), h);
    }
}

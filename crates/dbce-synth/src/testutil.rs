//! Test helpers: reading back the WARC, HTTP and HTML the generator wrote, independently of
//! the code that wrote them.

use std::io::Read as _;

use dbce_warc::Headers;

use crate::html::ENTITIES;

/// A WARC record read back.
pub(crate) struct Record {
    pub(crate) fields: Headers,
    pub(crate) block: Vec<u8>,
}

impl Record {
    pub(crate) fn field(&self, name: &str) -> &str {
        self.fields.get(name).unwrap_or_default()
    }
}

/// An HTTP message with its body decoded from chunked and gzip coding.
pub(crate) struct Message {
    pub(crate) start: String,
    pub(crate) headers: Headers,
    pub(crate) body: Vec<u8>,
}

/// All records of a gzip-per-record WARC file.
pub(crate) fn read_warc(bytes: &[u8]) -> Vec<Record> {
    let mut data = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut data)
        .unwrap();
    let mut records = Vec::new();
    let mut rest = &data[..];
    while !rest.is_empty() {
        assert!(rest.starts_with(b"WARC/1.1\r\n"));
        let end = find(rest, b"\r\n\r\n").unwrap();
        let fields = Headers::parse(&rest[10..end + 2]).unwrap();
        let length: usize = fields.get("Content-Length").unwrap().parse().unwrap();
        let block = rest[end + 4..end + 4 + length].to_vec();
        assert_eq!(&rest[end + 4 + length..end + 8 + length], b"\r\n\r\n");
        rest = &rest[end + 8 + length..];
        records.push(Record { fields, block });
    }
    records
}

/// Splits an HTTP message and decodes its body.
pub(crate) fn read_http(block: &[u8]) -> Message {
    let end = find(block, b"\r\n\r\n").unwrap();
    let head = std::str::from_utf8(&block[..end]).unwrap();
    let (start, fields) = head.split_once("\r\n").unwrap_or((head, ""));
    let headers = Headers::parse(fields.as_bytes()).unwrap();
    let mut body = block[end + 4..].to_vec();
    if headers.get("Transfer-Encoding") == Some("chunked") {
        body = dechunk(&body);
    } else if let Some(length) = headers.get("Content-Length") {
        assert_eq!(length.parse::<usize>().unwrap(), body.len());
    }
    if headers.get("Content-Encoding") == Some("gzip") {
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(&body[..])
            .read_to_end(&mut plain)
            .unwrap();
        body = plain;
    }
    Message {
        start: start.to_owned(),
        headers,
        body,
    }
}

/// The payload of a chunked body.
pub(crate) fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line = find(data, b"\r\n").unwrap();
        let size = usize::from_str_radix(std::str::from_utf8(&data[..line]).unwrap(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[line + 2..line + 2 + size]);
        assert_eq!(&data[line + 2 + size..line + 4 + size], b"\r\n");
        data = &data[line + 4 + size..];
    }
}

/// The text a reader sees: no head, scripts or styles, tags removed, entities decoded,
/// whitespace collapsed to single spaces.
pub(crate) fn visible_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let body = &html[html.find("</head>").unwrap_or(0)..];
    let mut rest = body;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        rest = &rest[open..];
        let skip_to = ["<script", "<style"]
            .iter()
            .zip(["</script>", "</style>"])
            .find(|(start, _)| rest.starts_with(*start))
            .map(|(_, end)| end);
        let close = match skip_to {
            Some(end) => rest.find(end).unwrap() + end.len(),
            None => rest.find('>').unwrap() + 1,
        };
        rest = &rest[close..];
    }
    text.push_str(rest);
    collapse(&unescape(&text))
}

/// Whitespace runs replaced by one space, ends trimmed.
pub(crate) fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let semi = rest[amp..].find(';').unwrap() + amp;
        let name = &rest[amp + 1..semi];
        let decoded = match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            _ => ENTITIES
                .iter()
                .find(|(_, n)| *n == name)
                .map(|(c, _)| *c)
                .unwrap(),
        };
        out.push(decoded);
        rest = &rest[semi + 1..];
    }
    out.push_str(rest);
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[test]
fn visible_text_drops_markup() {
    let html = "<html><head><title>T</title></head><body><script>var a = '<p>';</script>\
                <p>A &amp; <a href=\"x\">B</a>\n  &auml;</p><style>p{}</style></body></html>";
    assert_eq!(visible_text(html), "A & B ä");
}

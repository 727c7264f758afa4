//! Writing index lines as CDXJ and classic CDX, and reading CDXJ back.
//!
//! CDXJ is `key timestamp {json}`, the JSON object written as Python's `json.dumps` writes
//! it: `", "` and `": "` separators, fields in a fixed order, absent ones left out, and every
//! character outside printable ASCII escaped as `\uXXXX`.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use super::{CdxError, CdxLine};

/// The header line cdxj-indexer writes before the lines of each file in classic CDX format.
pub const CDX11_HEADER: &str = " CDX N b a m s k r M S V g";

impl CdxLine {
    /// The line in classic 11-field CDX (`N b a m s k r M S V g`: key, timestamp, URL, MIME
    /// type, status, digest without its `sha1:` prefix, redirect, meta tags, length, offset,
    /// file name), `-` standing for absent fields.
    pub fn to_cdx11(&self) -> String {
        let dash = |value: &Option<String>| value.clone().unwrap_or_else(|| "-".to_owned());
        let digest = self
            .digest
            .as_deref()
            .map(|d| d.rsplit(':').next().unwrap_or(d).to_owned());
        [
            self.key.clone(),
            self.timestamp.clone(),
            dash(&self.url),
            dash(&self.mime),
            dash(&self.status),
            dash(&digest),
            "-".to_owned(),
            "-".to_owned(),
            self.length.to_string(),
            self.offset.to_string(),
            self.filename.clone(),
        ]
        .join(" ")
    }

    fn json_fields(&self) -> [(&'static str, Option<String>); 7] {
        [
            ("url", self.url.clone()),
            ("mime", self.mime.clone()),
            ("status", self.status.clone()),
            ("digest", self.digest.clone()),
            ("length", Some(self.length.to_string())),
            ("offset", Some(self.offset.to_string())),
            ("filename", Some(self.filename.clone())),
        ]
    }
}

impl fmt::Display for CdxLine {
    /// Writes the line as CDXJ, without a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {{", self.key, self.timestamp)?;
        let fields = self.json_fields();
        let present = fields
            .iter()
            .filter_map(|(name, value)| Some((name, value.as_ref()?)));
        for (i, (name, value)) in present.enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_json_string(f, name)?;
            f.write_str(": ")?;
            write_json_string(f, value)?;
        }
        f.write_char('}')
    }
}

/// A string as `json.dumps` writes it with `ensure_ascii`.
fn write_json_string(out: &mut impl fmt::Write, value: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in value.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            '\u{8}' => out.write_str("\\b")?,
            '\u{c}' => out.write_str("\\f")?,
            ' '..='~' => out.write_char(c)?,
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(out, "\\u{unit:04x}")?;
                }
            }
        }
    }
    out.write_char('"')
}

/// The JSON object of a CDXJ line; other fields are ignored.
#[derive(serde::Deserialize)]
struct JsonFields {
    url: Option<String>,
    mime: Option<String>,
    status: Option<String>,
    digest: Option<String>,
    length: Option<String>,
    offset: Option<String>,
    filename: Option<String>,
}

impl FromStr for CdxLine {
    type Err = CdxError;

    /// Reads a CDXJ line (without its newline) as cdxj-indexer writes it.
    fn from_str(line: &str) -> Result<Self, Self::Err> {
        let mut parts = line.splitn(3, ' ');
        let key = parts.next().ok_or(CdxError::MissingPart { part: "key" })?;
        let timestamp = parts
            .next()
            .ok_or(CdxError::MissingPart { part: "timestamp" })?;
        let json = parts.next().ok_or(CdxError::MissingPart {
            part: "JSON object",
        })?;
        let valid =
            (1..=14).contains(&timestamp.len()) && timestamp.bytes().all(|b| b.is_ascii_digit());
        if !valid {
            return Err(CdxError::InvalidTimestamp {
                timestamp: timestamp.to_owned(),
            });
        }
        let fields: JsonFields =
            serde_json::from_str(json).map_err(|error| CdxError::InvalidJson {
                column: error.column(),
            })?;
        let number = |value: Option<String>, field| {
            value
                .and_then(|v| v.parse().ok())
                .ok_or(CdxError::InvalidField { field })
        };
        Ok(Self {
            key: key.to_owned(),
            timestamp: timestamp.to_owned(),
            url: fields.url,
            mime: fields.mime,
            status: fields.status,
            digest: fields.digest,
            length: number(fields.length, "length")?,
            offset: number(fields.offset, "offset")?,
            filename: fields
                .filename
                .ok_or(CdxError::InvalidField { field: "filename" })?,
        })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn sample() -> CdxLine {
        CdxLine {
            key: "com,example)/".to_owned(),
            timestamp: "20170306040348".to_owned(),
            url: Some("http://example.com/".to_owned()),
            mime: Some("warc/revisit".to_owned()),
            status: Some("200".to_owned()),
            digest: Some("sha1:G7HRM7BGOKSKMSXZAHMUQTTV53QOFSMK".to_owned()),
            length: 942,
            offset: 3370,
            filename: "example.warc".to_owned(),
        }
    }

    #[test]
    fn cdxj_is_written_like_cdxj_indexer() {
        assert_eq!(
            sample().to_string(),
            "com,example)/ 20170306040348 {\"url\": \"http://example.com/\", \"mime\": \
             \"warc/revisit\", \"status\": \"200\", \"digest\": \
             \"sha1:G7HRM7BGOKSKMSXZAHMUQTTV53QOFSMK\", \"length\": \"942\", \"offset\": \
             \"3370\", \"filename\": \"example.warc\"}"
        );
    }

    #[test]
    fn json_escapes_like_python() {
        let mut out = String::new();
        write_json_string(&mut out, "a\"\\\n\u{1}\u{7f}é😀\u{2028}").unwrap();
        // json.dumps("a\"\\\n\x01\x7fé😀\u2028") in Python 3.11.
        assert_eq!(out, r#""a\"\\\n\u0001\u007f\u00e9\ud83d\ude00\u2028""#);
    }

    #[test]
    fn cdx11_uses_dashes_and_bare_digests() {
        let line = CdxLine {
            mime: Some(String::new()),
            status: None,
            ..sample()
        };
        assert_eq!(
            line.to_cdx11(),
            "com,example)/ 20170306040348 http://example.com/  - \
             G7HRM7BGOKSKMSXZAHMUQTTV53QOFSMK - - 942 3370 example.warc"
        );
    }

    #[test]
    fn malformed_lines_are_errors() {
        let parse = |line: &str| line.parse::<CdxLine>().unwrap_err();
        assert_eq!(parse("key"), CdxError::MissingPart { part: "timestamp" });
        assert!(matches!(
            parse("k 2017x {}"),
            CdxError::InvalidTimestamp { .. }
        ));
        assert!(matches!(
            parse("k 2017 {\"url\": 1}"),
            CdxError::InvalidJson { .. }
        ));
        let no_length = r#"k 2017 {"offset": "1", "filename": "f"}"#;
        assert_eq!(parse(no_length), CdxError::InvalidField { field: "length" });
    }

    fn text() -> impl Strategy<Value = String> {
        any::<String>()
    }

    prop_compose! {
        fn lines()(
            key in "[^ \n]{1,30}",
            timestamp in "[0-9]{14}",
            url in proptest::option::of(text()),
            mime in proptest::option::of(text()),
            status in proptest::option::of(text()),
            digest in proptest::option::of(text()),
            length in any::<u64>(),
            offset in any::<u64>(),
            filename in text(),
        ) -> CdxLine {
            CdxLine { key, timestamp, url, mime, status, digest, length, offset, filename }
        }
    }

    proptest! {
        #[test]
        fn parsing_undoes_formatting(line in lines()) {
            let written = line.to_string();
            prop_assert!(written[line.key.len()..].is_ascii() && !written.contains('\n'));
            prop_assert_eq!(written.parse::<CdxLine>()?, line);
        }
    }
}

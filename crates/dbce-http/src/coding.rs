//! Content codings (RFC 9110 §8.4): naming them and undoing one.

use std::fmt;

use dbce_warc::Headers;

use crate::HttpError;
use crate::decompress::{Ending, GZIP_MAGIC, Inflated, gunzip, inflate_deflate, unbrotli};
use crate::limits::as_usize;

/// A content coding this crate can undo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ContentCoding {
    /// `gzip` or `x-gzip` (RFC 1952).
    Gzip,
    /// `deflate`: zlib-wrapped (RFC 1950) or, as many servers send it, raw (RFC 1951).
    Deflate,
    /// `br` (RFC 7932).
    Brotli,
}

impl ContentCoding {
    /// The coding named by `token` (case-insensitive); `Ok(None)` for `identity`.
    ///
    /// # Errors
    /// [`HttpError::UnsupportedCoding`] for any other name.
    pub fn from_token(token: &str) -> Result<Option<Self>, HttpError> {
        let token = token.trim().to_ascii_lowercase();
        match token.as_str() {
            "gzip" | "x-gzip" => Ok(Some(Self::Gzip)),
            "deflate" => Ok(Some(Self::Deflate)),
            "br" => Ok(Some(Self::Brotli)),
            "identity" => Ok(None),
            _ => Err(HttpError::UnsupportedCoding { coding: token }),
        }
    }

    /// The coding's registered name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Gzip => "gzip",
            Self::Deflate => "deflate",
            Self::Brotli => "br",
        }
    }
}

impl fmt::Display for ContentCoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What undoing one content coding did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CodingStatus {
    /// The compressed stream was complete and decoded.
    Decoded,
    /// The compressed stream stopped early; what it held is kept.
    Truncated,
    /// The decompressor failed after producing output, which is kept.
    Corrupt,
    /// The data was not in this coding (the header lied, as when a crawler stored the body already
    /// decoded) and was passed on unchanged.
    NotEncoded,
    /// The decoded data reached [`HttpLimits::max_decoded_bytes`](crate::HttpLimits): its first
    /// that many bytes are kept, the rest was not decoded (a large page, or a zip bomb).
    LimitReached,
}

/// The codings to undo for `headers`, in the order to undo them: the reverse of the order
/// applied, listed across `Content-Encoding` and then `Transfer-Encoding` (without `chunked`).
pub(crate) fn codings_to_undo(headers: &Headers) -> Result<Vec<ContentCoding>, HttpError> {
    let content = headers.get_all("content-encoding");
    let transfer = headers.get_all("transfer-encoding");
    let mut codings = Vec::new();
    for token in content.chain(transfer).flat_map(|value| value.split(',')) {
        if token.trim().is_empty() || token.trim().eq_ignore_ascii_case("chunked") {
            continue;
        }
        codings.extend(ContentCoding::from_token(token)?);
    }
    codings.reverse();
    Ok(codings)
}

/// Undoes `coding` on `data`, producing at most `limit` bytes: the decoded bytes (`None` when
/// `data` passes unchanged) and status.
pub(crate) fn undo(
    coding: ContentCoding,
    data: &[u8],
    limit: u64,
) -> (Option<Vec<u8>>, CodingStatus) {
    let (out, ending): Inflated = match coding {
        ContentCoding::Gzip if !data.starts_with(&GZIP_MAGIC) => return not_encoded(),
        ContentCoding::Gzip => gunzip(data, as_usize(limit)),
        ContentCoding::Deflate => inflate_deflate(data, as_usize(limit)),
        ContentCoding::Brotli => unbrotli(data, as_usize(limit)),
    };
    match ending {
        Ending::Complete => (Some(out), CodingStatus::Decoded),
        Ending::LimitReached => (Some(out), CodingStatus::LimitReached),
        _ if looks_like_text(data) => not_encoded(),
        Ending::Truncated => (Some(out), CodingStatus::Truncated),
        Ending::Corrupt if out.is_empty() => not_encoded(),
        Ending::Corrupt => (Some(out), CodingStatus::Corrupt),
    }
}

/// How many leading bytes [`looks_like_text`] checks.
const TEXT_PROBE_BYTES: usize = 64;

/// Whether `data` opens with printable ASCII only. Compressed data practically never does, so a
/// stream that did not decode cleanly is then taken for an uncompressed body under a lying header
/// (raw deflate and brotli have no magic number to tell otherwise).
fn looks_like_text(data: &[u8]) -> bool {
    data[..data.len().min(TEXT_PROBE_BYTES)]
        .iter()
        .all(|b| b.is_ascii_graphic() || b.is_ascii_whitespace())
}

fn not_encoded() -> (Option<Vec<u8>>, CodingStatus) {
    (None, CodingStatus::NotEncoded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decompress::testutil::{brotli, gzip, zlib};

    fn headers(block: &str) -> Headers {
        Headers::parse(block.as_bytes()).unwrap()
    }

    #[test]
    fn tokens_are_case_insensitive_and_identity_is_nothing() {
        assert_eq!(
            ContentCoding::from_token(" X-GZIP "),
            Ok(Some(ContentCoding::Gzip))
        );
        assert_eq!(
            ContentCoding::from_token("Br"),
            Ok(Some(ContentCoding::Brotli))
        );
        assert_eq!(ContentCoding::from_token("identity"), Ok(None));
        assert_eq!(
            ContentCoding::from_token("Compress"),
            Err(HttpError::UnsupportedCoding {
                coding: "compress".into()
            })
        );
    }

    #[test]
    fn codings_are_undone_in_reverse_order_across_headers() {
        let h = headers(
            "Content-Encoding: gzip, identity\r\nContent-Encoding: br\r\n\
             Transfer-Encoding: deflate, chunked\r\n",
        );
        let expected = [
            ContentCoding::Deflate,
            ContentCoding::Brotli,
            ContentCoding::Gzip,
        ];
        assert_eq!(codings_to_undo(&h), Ok(expected.to_vec()));
        assert_eq!(
            codings_to_undo(&headers("Content-Encoding: ,\r\n")),
            Ok(Vec::new())
        );
    }

    #[test]
    fn undo_reports_each_status() {
        let (out, status) = undo(ContentCoding::Gzip, &gzip(b"hello"), 100);
        assert_eq!(
            (out.as_deref(), status),
            (Some(&b"hello"[..]), CodingStatus::Decoded)
        );
        let plain = b"<html>plain</html>";
        assert_eq!(
            undo(ContentCoding::Gzip, plain, 100),
            (None, CodingStatus::NotEncoded)
        );
        let cut = &brotli(b"hello hello hello")[..4];
        assert_eq!(
            undo(ContentCoding::Brotli, cut, 100).1,
            CodingStatus::Truncated
        );
    }

    #[test]
    fn corrupt_gzip_keeps_what_it_decoded() {
        let mut encoded = gzip(b"hello world");
        let crc = encoded.len() - 8;
        encoded[crc] ^= 0xff;
        let (out, status) = undo(ContentCoding::Gzip, &encoded, 100);
        assert_eq!(
            (out.as_deref(), status),
            (Some(&b"hello world"[..]), CodingStatus::Corrupt)
        );
    }

    #[test]
    fn plain_html_labelled_compressed_passes_unchanged() {
        let pages: [&[u8]; 7] = [
            b"\n<html><body>\n<p>A paragraph of text.</p>\n</body></html>\n",
            b"b<html>",
            b"  \t<!doctype html><title>x</title>",
            b"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>T</title></head>",
            b"<html><body><p>Hello</p></body></html>",
            b"\r\n\r\n<!-- comment --><HTML><HEAD></HEAD><BODY>x</BODY></HTML>",
            b"{\"json\": [1, 2, 3], \"text\": \"not compressed\"}",
        ];
        for page in pages {
            for coding in [
                ContentCoding::Gzip,
                ContentCoding::Deflate,
                ContentCoding::Brotli,
            ] {
                let result = undo(coding, page, 1 << 20);
                assert_eq!(
                    result,
                    (None, CodingStatus::NotEncoded),
                    "{coding} {page:?}"
                );
            }
        }
    }

    #[test]
    fn undo_stops_at_the_limit_keeping_the_first_bytes() {
        let text: Vec<u8> = (0..200_000_u32).map(|i| b'a' + (i % 26) as u8).collect();
        let encoded = [
            (ContentCoding::Gzip, gzip(&text)),
            (ContentCoding::Deflate, zlib(&text)),
            (ContentCoding::Brotli, brotli(&text)),
        ];
        for (coding, encoded) in encoded {
            for limit in [999, 100_000] {
                let (out, status) = undo(coding, &encoded, limit);
                assert_eq!(status, CodingStatus::LimitReached, "{coding} {limit}");
                assert_eq!(out.as_deref(), Some(&text[..limit as usize]), "{coding}");
            }
            assert_eq!(undo(coding, &encoded, 200_000).1, CodingStatus::Decoded);
        }
    }
}

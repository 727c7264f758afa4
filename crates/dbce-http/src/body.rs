//! Undoing the transfer and content codings of a response body.

use std::borrow::Cow;

use crate::coding::{codings_to_undo, undo};
use crate::transfer::dechunk;
use crate::{CodingStatus, ContentCoding, HttpError, HttpLimits, HttpResponse, TransferOutcome};

/// A response body with its codings undone, and what it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedBody<'a> {
    /// The decoded bytes; borrowed from the block when nothing had to be undone.
    pub bytes: Cow<'a, [u8]>,
    /// What was undone and which fallbacks were taken.
    pub report: DecodeReport,
}

/// What [`decode_body`] did, so that callers can count fallbacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeReport {
    /// What undoing `Transfer-Encoding: chunked` did.
    pub transfer: TransferOutcome,
    /// Each content coding attempted, in the order undone.
    pub codings: Vec<CodingStep>,
}

/// One content coding attempted by [`decode_body`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CodingStep {
    /// The coding named by the headers.
    pub coding: ContentCoding,
    /// What undoing it did.
    pub status: CodingStatus,
}

impl DecodeReport {
    /// Whether every step decoded cleanly, with no fallback or truncation.
    pub fn is_clean(&self) -> bool {
        matches!(
            self.transfer,
            TransferOutcome::Identity | TransferOutcome::Chunked
        ) && self
            .codings
            .iter()
            .all(|step| step.status == CodingStatus::Decoded)
    }

    /// Whether a coding produced more than the limit, so that only the body's first
    /// [`HttpLimits::max_decoded_bytes`] are kept.
    pub fn reached_limit(&self) -> bool {
        self.codings
            .iter()
            .any(|step| step.status == CodingStatus::LimitReached)
    }
}

/// Undoes the response's `Transfer-Encoding: chunked`, then its content codings (`gzip`, `x-gzip`,
/// `deflate`, `br`, `identity`; stacked ones in reverse order of application).
///
/// Damaged bodies are decoded as far as possible rather than rejected: a body declared chunked
/// that is not, or declared compressed that is not, is passed on raw, and a truncated stream
/// keeps what it held; [`DecodeReport`] says which happened. A coding that would produce more
/// than [`HttpLimits::max_decoded_bytes`] stops there, keeping the first bytes
/// ([`CodingStatus::LimitReached`], [`DecodeReport::reached_limit`]). An empty body is returned
/// as it is, with nothing attempted.
///
/// # Errors
/// [`HttpError::UnsupportedCoding`] for a coding such as `compress` or `zstd`.
pub fn decode_body<'a>(
    response: &HttpResponse<'a>,
    limits: &HttpLimits,
) -> Result<DecodedBody<'a>, HttpError> {
    let mut report = DecodeReport {
        transfer: TransferOutcome::Identity,
        codings: Vec::new(),
    };
    if response.body.is_empty() {
        return Ok(DecodedBody {
            bytes: Cow::Borrowed(response.body),
            report,
        });
    }
    let codings = codings_to_undo(&response.headers)?;
    let mut bytes = Cow::Borrowed(response.body);
    if is_chunked(response) {
        (bytes, report.transfer) = dechunk(response.body);
    }
    for coding in codings {
        let (decoded, status) = undo(coding, &bytes, limits.max_decoded_bytes);
        report.codings.push(CodingStep { coding, status });
        if let Some(decoded) = decoded {
            bytes = Cow::Owned(decoded);
        }
    }
    Ok(DecodedBody { bytes, report })
}

fn is_chunked(response: &HttpResponse<'_>) -> bool {
    response
        .headers
        .get_all("transfer-encoding")
        .flat_map(|value| value.split(','))
        .any(|token| token.trim().eq_ignore_ascii_case("chunked"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decompress::testutil::{brotli, gzip, raw_deflate, sample_text, zlib};
    use crate::parse_response;

    fn block(headers: &str, body: &[u8]) -> Vec<u8> {
        let mut block = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
        block.extend_from_slice(body);
        block
    }

    fn decode(headers: &str, body: &[u8]) -> Result<(Vec<u8>, DecodeReport), HttpError> {
        let limits = HttpLimits {
            max_decoded_bytes: 1_000_000,
            ..HttpLimits::default()
        };
        let block = block(headers, body);
        let response = parse_response(&block, &limits)?;
        let decoded = decode_body(&response, &limits)?;
        Ok((decoded.bytes.into_owned(), decoded.report))
    }

    fn step(coding: ContentCoding, status: CodingStatus) -> CodingStep {
        CodingStep { coding, status }
    }

    #[test]
    fn plain_body_is_borrowed_and_clean() {
        let block = block("Content-Type: text/html\r\n", b"<p>hi</p>");
        let response = parse_response(&block, &HttpLimits::default()).unwrap();
        let decoded = decode_body(&response, &HttpLimits::default()).unwrap();
        assert!(matches!(decoded.bytes, Cow::Borrowed(b"<p>hi</p>")));
        assert!(decoded.report.is_clean());
    }

    #[test]
    fn each_coding_is_undone() {
        let text = sample_text(20_000);
        for (name, coding, encoded) in [
            ("gzip", ContentCoding::Gzip, gzip(&text)),
            ("x-gzip", ContentCoding::Gzip, gzip(&text)),
            ("deflate", ContentCoding::Deflate, zlib(&text)),
            ("deflate", ContentCoding::Deflate, raw_deflate(&text)),
            ("br", ContentCoding::Brotli, brotli(&text)),
        ] {
            let (bytes, report) =
                decode(&format!("Content-Encoding: {name}\r\n"), &encoded).unwrap();
            assert_eq!(bytes, text, "{name}");
            assert_eq!(
                report.codings,
                [step(coding, CodingStatus::Decoded)],
                "{name}"
            );
        }
    }

    #[test]
    fn chunked_stacked_encodings_are_undone_in_reverse() {
        let text = sample_text(5000);
        let encoded = brotli(&gzip(&text));
        let mut chunked = format!("{:x};ext=1\r\n", encoded.len()).into_bytes();
        chunked.extend_from_slice(&encoded);
        chunked.extend_from_slice(b"\r\n0\r\nTrailer: x\r\n\r\n");
        let headers = "Transfer-Encoding: chunked\r\nContent-Encoding: gzip, br\r\n";
        let (bytes, report) = decode(headers, &chunked).unwrap();
        assert_eq!(bytes, text);
        assert_eq!(report.transfer, TransferOutcome::Chunked);
        assert_eq!(
            report.codings,
            [
                step(ContentCoding::Brotli, CodingStatus::Decoded),
                step(ContentCoding::Gzip, CodingStatus::Decoded)
            ]
        );
        assert!(report.is_clean());
    }

    #[test]
    fn lying_headers_fall_back_to_raw_bytes() {
        let html = b"<html><body>already decoded</body></html>";
        let headers = "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n";
        let (bytes, report) = decode(headers, html).unwrap();
        assert_eq!(bytes, html);
        assert_eq!(report.transfer, TransferOutcome::NotChunked);
        assert_eq!(
            report.codings,
            [step(ContentCoding::Gzip, CodingStatus::NotEncoded)]
        );
        assert!(!report.is_clean());
    }

    #[test]
    fn truncated_gzip_keeps_its_prefix() {
        let text = sample_text(100_000);
        let encoded = gzip(&text);
        let cut = &encoded[..encoded.len() / 2];
        let (bytes, report) = decode("Content-Encoding: gzip\r\n", cut).unwrap();
        assert!(!bytes.is_empty() && text.starts_with(&bytes));
        assert_eq!(
            report.codings,
            [step(ContentCoding::Gzip, CodingStatus::Truncated)]
        );
    }

    #[test]
    fn zip_bomb_is_cut_at_the_limit() {
        let bomb = gzip(&vec![0u8; 5_000_000]);
        let (bytes, report) = decode("Content-Encoding: gzip\r\n", &bomb).unwrap();
        assert_eq!(bytes.len(), 1_000_000);
        assert_eq!(
            report.codings,
            [step(ContentCoding::Gzip, CodingStatus::LimitReached)]
        );
        assert!(report.reached_limit() && !report.is_clean());
    }

    #[test]
    fn unsupported_coding_is_an_error_and_empty_body_is_untouched() {
        assert_eq!(
            decode("Content-Encoding: zstd\r\n", b"x"),
            Err(HttpError::UnsupportedCoding {
                coding: "zstd".into()
            })
        );
        let (bytes, report) = decode("Content-Encoding: zstd\r\n", b"").unwrap();
        assert!(bytes.is_empty() && report.is_clean() && report.codings.is_empty());
    }
}

//! Undoing `Transfer-Encoding: chunked` (RFC 9112 §7.1), leniently.

use std::borrow::Cow;

/// What undoing the transfer coding did to the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TransferOutcome {
    /// The body was not declared chunked and was kept as it is.
    Identity,
    /// The body was chunked and decoded up to and including its last (zero-size) chunk.
    Chunked,
    /// The chunked body ended before its last chunk; the data decoded so far is kept.
    Truncated,
    /// The chunk framing broke after at least one good chunk; the data decoded before `offset`
    /// is kept and the rest dropped.
    Malformed {
        /// Offset in the raw body of the chunk whose framing is broken.
        offset: u64,
    },
    /// The body was declared chunked but does not start with a chunk header, as when a crawler
    /// stored it already de-chunked; the raw body is kept.
    NotChunked,
}

/// One step of walking the chunk framing.
enum Chunk {
    /// Data at `start..start + len`; the next chunk header is at `next`.
    Data {
        start: usize,
        len: usize,
        next: usize,
    },
    /// The zero-size last chunk (trailer fields, if any, are skipped).
    Last,
    /// The body ends inside a chunk; its data from `start` to the end is kept.
    Truncated { start: usize },
    /// The bytes at the chunk header position are not chunk framing.
    Invalid,
}

/// Removes chunk framing from `body`.
///
/// Chunk extensions and trailer fields are ignored, lines may end in a bare LF, and the size may be
/// surrounded by spaces or tabs. Never fails: see [`TransferOutcome`] for the fallbacks.
pub(crate) fn dechunk(body: &[u8]) -> (Cow<'_, [u8]>, TransferOutcome) {
    let mut out = Vec::with_capacity(body.len());
    let mut pos = 0;
    loop {
        match next_chunk(body, pos) {
            Chunk::Data { start, len, next } => {
                out.extend_from_slice(&body[start..start + len]);
                pos = next;
            }
            Chunk::Last => return (Cow::Owned(out), TransferOutcome::Chunked),
            Chunk::Truncated { start } => {
                out.extend_from_slice(&body[start..]);
                return (Cow::Owned(out), TransferOutcome::Truncated);
            }
            Chunk::Invalid if pos == 0 => {
                return (Cow::Borrowed(body), TransferOutcome::NotChunked);
            }
            Chunk::Invalid => {
                let offset = pos as u64;
                return (Cow::Owned(out), TransferOutcome::Malformed { offset });
            }
        }
    }
}

/// Reads the chunk whose header starts at `pos`.
fn next_chunk(body: &[u8], pos: usize) -> Chunk {
    let rest = &body[pos..];
    let (line, data_start) = match memchr::memchr(b'\n', rest) {
        Some(nl) => (&rest[..nl], pos + nl + 1),
        None => (rest, body.len()),
    };
    let Some(size) = parse_size_line(line) else {
        return if rest.is_empty() && pos > 0 {
            Chunk::Truncated { start: pos }
        } else {
            Chunk::Invalid
        };
    };
    if data_start == body.len() && size > 0 {
        return Chunk::Truncated { start: data_start };
    }
    if size == 0 {
        return Chunk::Last;
    }
    let Some(data_end) = data_start
        .checked_add(size)
        .filter(|end| *end <= body.len())
    else {
        return Chunk::Truncated { start: data_start };
    };
    match line_end_len(&body[data_end..]) {
        Some(crlf) => Chunk::Data {
            start: data_start,
            len: size,
            next: data_end + crlf,
        },
        None => Chunk::Invalid,
    }
}

/// The length of the line end that must follow chunk data: 2 for CRLF, 1 for LF, 0 when the body
/// ends there (the next step then reports truncation); `None` when something else follows.
fn line_end_len(after: &[u8]) -> Option<usize> {
    match after {
        [] | [b'\r'] => Some(after.len()),
        [b'\r', b'\n', ..] => Some(2),
        [b'\n', ..] => Some(1),
        _ => None,
    }
}

/// Parses `chunk-size [; extensions] [CR]`; `None` when it is not a hexadecimal size.
fn parse_size_line(line: &[u8]) -> Option<usize> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let size = match memchr::memchr(b';', line) {
        Some(semi) => &line[..semi],
        None => line,
    };
    let digits = size.trim_ascii();
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0usize, |acc, b| {
        let digit = char::from(*b).to_digit(16)?;
        acc.checked_mul(16)?.checked_add(digit as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn dechunked(body: &[u8]) -> (Vec<u8>, TransferOutcome) {
        let (bytes, outcome) = dechunk(body);
        (bytes.into_owned(), outcome)
    }

    #[test]
    fn decodes_chunks_with_extensions_and_trailers() {
        let body = b"4;name=value\r\nWiki\r\n5 ; x=\"y\"\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n\
                     0;last\r\nExpires: never\r\nX-Trailer: 1\r\n\r\n";
        assert_eq!(
            dechunked(body),
            (
                b"Wikipedia in\r\n\r\nchunks.".to_vec(),
                TransferOutcome::Chunked
            )
        );
    }

    #[test]
    fn accepts_bare_lf_padding_and_missing_final_blank_line() {
        let body = b" 3 \nabc\n0\n";
        assert_eq!(dechunked(body), (b"abc".to_vec(), TransferOutcome::Chunked));
    }

    #[test]
    fn body_that_is_not_chunked_is_kept_raw() {
        let body = b"<html><body>already de-chunked</body></html>";
        let (bytes, outcome) = dechunk(body);
        assert_eq!(outcome, TransferOutcome::NotChunked);
        assert!(matches!(bytes, Cow::Borrowed(b) if b == body));
        let starts_with_blank_line = b"\r\n<html>";
        assert_eq!(
            dechunk(starts_with_blank_line).1,
            TransferOutcome::NotChunked
        );
        let wrong_first_size = b"3\r\nabcdef\r\n0\r\n\r\n";
        assert_eq!(dechunk(wrong_first_size).1, TransferOutcome::NotChunked);
    }

    #[test]
    fn truncated_chunk_keeps_decoded_data() {
        assert_eq!(
            dechunked(b"3\r\nabc\r\nA\r\nhello"),
            (b"abchello".to_vec(), TransferOutcome::Truncated)
        );
        assert_eq!(
            dechunked(b"3\r\nabc\r\n"),
            (b"abc".to_vec(), TransferOutcome::Truncated)
        );
        assert_eq!(
            dechunked(b"3\r\nabc"),
            (b"abc".to_vec(), TransferOutcome::Truncated)
        );
        assert_eq!(
            dechunked(b"3\r\nabc\r\n1"),
            (b"abc".to_vec(), TransferOutcome::Truncated)
        );
        assert_eq!(
            dechunked(b"ff\r\n"),
            (Vec::new(), TransferOutcome::Truncated)
        );
    }

    #[test]
    fn broken_framing_after_a_good_chunk_is_malformed() {
        assert_eq!(
            dechunked(b"3\r\nabc\r\nzz\r\nmore"),
            (b"abc".to_vec(), TransferOutcome::Malformed { offset: 8 })
        );
    }

    #[test]
    fn oversized_chunk_size_does_not_overflow() {
        let body = b"ffffffffffffffffffff\r\nabc";
        assert_eq!(dechunk(body).1, TransferOutcome::NotChunked);
        let body = b"ffffffffffffffff\r\nabc";
        assert_eq!(
            dechunked(body),
            (b"abc".to_vec(), TransferOutcome::Truncated)
        );
    }

    fn encode_chunked(data: &[u8], sizes: &[usize]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut rest = data;
        for size in sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (chunk, tail) = rest.split_at((*size).min(rest.len()));
            out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
            out.extend_from_slice(chunk);
            out.extend_from_slice(b"\r\n");
            rest = tail;
        }
        out.extend_from_slice(b"0\r\n\r\n");
        out
    }

    proptest! {
        #[test]
        fn chunk_encoding_round_trips(
            data in proptest::collection::vec(any::<u8>(), 0..4096),
            sizes in proptest::collection::vec(1usize..600, 1..8),
        ) {
            let encoded = encode_chunked(&data, &sizes);
            prop_assert_eq!(dechunked(&encoded), (data, TransferOutcome::Chunked));
        }
    }
}

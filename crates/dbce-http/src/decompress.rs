//! Decompressors for the gzip, deflate and brotli content codings, bounded in output size.

use brotli_decompressor::{BrotliDecompressStream, BrotliResult, BrotliState, StandardAlloc};
use flate2::{Decompress, FlushDecompress, Status};

/// Bytes produced per decompressor call before the size limit is checked.
const STEP: usize = 32 * 1024;

/// How a decompressor stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The compressed stream ended properly.
    Complete,
    /// The input ran out before the end of the compressed stream.
    Truncated,
    /// The decompressor rejected the input.
    Corrupt,
    /// The output reached the limit: its first `limit` bytes are kept, the rest was not
    /// decoded.
    LimitReached,
}

/// Output and ending of one decompression.
pub(crate) type Inflated = (Vec<u8>, Ending);

/// Undoes gzip, including several concatenated members.
pub(crate) fn gunzip(input: &[u8], limit: usize) -> Inflated {
    let mut out = Vec::new();
    let mut rest = input;
    loop {
        let (consumed, ending) = inflate(rest, Decompress::new_gzip(15), &mut out, limit);
        rest = &rest[consumed..];
        if ending != Ending::Complete || !rest.starts_with(&GZIP_MAGIC) {
            return (out, ending);
        }
    }
}

/// The first two bytes of every gzip member.
pub(crate) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Undoes deflate, whether zlib-wrapped (RFC 1950, what the HTTP standard means) or raw
/// (RFC 1951, what many servers send).
pub(crate) fn inflate_deflate(input: &[u8], limit: usize) -> Inflated {
    let mut out = Vec::new();
    let state = Decompress::new(has_zlib_header(input));
    let (_, ending) = inflate(input, state, &mut out, limit);
    (out, ending)
}

/// Whether `input` starts with a valid zlib header: deflate method and a header checksum.
fn has_zlib_header(input: &[u8]) -> bool {
    match input {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

/// Runs a flate2 decompressor over `input`, appending to `out` until it holds `limit` bytes;
/// returns the input consumed and how it stopped.
fn inflate(
    input: &[u8],
    mut state: Decompress,
    out: &mut Vec<u8>,
    limit: usize,
) -> (usize, Ending) {
    let mut buf = vec![0u8; STEP];
    loop {
        let consumed = total(state.total_in());
        let produced_before = state.total_out();
        let result = state.decompress(&input[consumed..], &mut buf, FlushDecompress::None);
        let produced = total(state.total_out() - produced_before);
        if out.len() + produced > limit {
            let room = limit.saturating_sub(out.len());
            out.extend_from_slice(&buf[..room]);
            return (total(state.total_in()), Ending::LimitReached);
        }
        out.extend_from_slice(&buf[..produced]);
        let progressed = produced > 0 || total(state.total_in()) > consumed;
        let ending = match result {
            Ok(Status::StreamEnd) => Ending::Complete,
            Ok(_) if progressed => continue,
            Ok(_) => Ending::Truncated,
            Err(_) => Ending::Corrupt,
        };
        return (total(state.total_in()), ending);
    }
}

/// A flate2 byte count, which never exceeds the length of an in-memory slice.
fn total(count: u64) -> usize {
    usize::try_from(count).unwrap_or(usize::MAX)
}

/// Undoes brotli (RFC 7932).
pub(crate) fn unbrotli(input: &[u8], limit: usize) -> Inflated {
    let mut state = BrotliState::new(
        StandardAlloc::default(),
        StandardAlloc::default(),
        StandardAlloc::default(),
    );
    let mut buf = vec![0u8; STEP];
    let mut out = Vec::new();
    let (mut available_in, mut input_offset, mut total_out) = (input.len(), 0, 0);
    loop {
        let (mut available_out, mut output_offset) = (buf.len(), 0);
        let result = BrotliDecompressStream(
            &mut available_in,
            &mut input_offset,
            input,
            &mut available_out,
            &mut output_offset,
            &mut buf,
            &mut total_out,
            &mut state,
        );
        if out.len() + output_offset > limit {
            let room = limit.saturating_sub(out.len());
            out.extend_from_slice(&buf[..room]);
            return (out, Ending::LimitReached);
        }
        out.extend_from_slice(&buf[..output_offset]);
        let ending = match result {
            BrotliResult::NeedsMoreOutput => continue,
            BrotliResult::ResultSuccess => Ending::Complete,
            BrotliResult::NeedsMoreInput => Ending::Truncated,
            BrotliResult::ResultFailure => Ending::Corrupt,
        };
        return (out, ending);
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Encoders for test data.

    use std::io::Write;

    use flate2::Compression;
    use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};

    /// `data` gzip-compressed.
    pub(crate) fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// `data` zlib-wrapped deflate.
    pub(crate) fn zlib(data: &[u8]) -> Vec<u8> {
        let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// `data` raw deflate.
    pub(crate) fn raw_deflate(data: &[u8]) -> Vec<u8> {
        let mut encoder = DeflateEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// `data` brotli-compressed.
    pub(crate) fn brotli(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        encoder.write_all(data).unwrap();
        drop(encoder);
        out
    }

    /// Text of `len` bytes made of pseudo-random words: compressible, but not trivially.
    pub(crate) fn sample_text(len: usize) -> Vec<u8> {
        const WORDS: [&str; 8] = [
            "<p>", "lorem ", "ipsum ", "dolor ", "sit ", "amet\n", "</p>", "42 ",
        ];
        let mut state: u32 = 1;
        let mut out = Vec::with_capacity(len + 8);
        while out.len() < len {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            out.extend_from_slice(WORDS[(state >> 16) as usize % WORDS.len()].as_bytes());
        }
        out.truncate(len);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::testutil::*;
    use super::*;

    const NO_LIMIT: usize = usize::MAX;

    #[test]
    fn gzip_round_trips_and_reads_concatenated_members() {
        let text = sample_text(100_000);
        assert_eq!(
            gunzip(&gzip(&text), NO_LIMIT),
            (text.clone(), Ending::Complete)
        );
        let mut two = gzip(b"first ");
        two.extend(gzip(b"second"));
        assert_eq!(
            gunzip(&two, NO_LIMIT),
            (b"first second".to_vec(), Ending::Complete)
        );
    }

    #[test]
    fn deflate_accepts_zlib_and_raw() {
        let text = sample_text(50_000);
        assert_eq!(
            inflate_deflate(&zlib(&text), NO_LIMIT),
            (text.clone(), Ending::Complete)
        );
        let raw = raw_deflate(&text);
        assert!(!has_zlib_header(&raw));
        assert_eq!(inflate_deflate(&raw, NO_LIMIT), (text, Ending::Complete));
    }

    #[test]
    fn brotli_round_trips() {
        let text = sample_text(100_000);
        assert_eq!(unbrotli(&brotli(&text), NO_LIMIT), (text, Ending::Complete));
    }

    #[test]
    fn truncated_streams_keep_a_prefix() {
        let text = sample_text(200_000);
        let half = |encoded: Vec<u8>| encoded[..encoded.len() / 2].to_vec();
        for (decoded, name) in [
            (gunzip(&half(gzip(&text)), NO_LIMIT), "gzip"),
            (inflate_deflate(&half(zlib(&text)), NO_LIMIT), "zlib"),
            (unbrotli(&half(brotli(&text)), NO_LIMIT), "brotli"),
        ] {
            let (out, ending) = decoded;
            assert_eq!(ending, Ending::Truncated, "{name}");
            assert!(!out.is_empty() && text.starts_with(&out), "{name}");
        }
    }

    #[test]
    fn garbage_is_corrupt() {
        let garbage = b"<html>not compressed at all</html>";
        assert_eq!(gunzip(garbage, NO_LIMIT).1, Ending::Corrupt);
        assert_eq!(inflate_deflate(garbage, NO_LIMIT).1, Ending::Corrupt);
        assert_eq!(unbrotli(garbage, NO_LIMIT).1, Ending::Corrupt);
    }

    #[test]
    fn output_stops_at_the_limit() {
        let zeros = vec![0u8; 1_000_000];
        let cut = |limit: usize| (vec![0u8; limit], Ending::LimitReached);
        assert_eq!(gunzip(&gzip(&zeros), 999_999), cut(999_999));
        assert_eq!(inflate_deflate(&raw_deflate(&zeros), 10_000), cut(10_000));
        assert_eq!(unbrotli(&brotli(&zeros), 10_000), cut(10_000));
        assert_eq!(gunzip(&gzip(&zeros), 1_000_000), (zeros, Ending::Complete));
    }
}

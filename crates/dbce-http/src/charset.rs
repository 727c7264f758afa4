//! Choosing a page's character encoding and decoding it to UTF-8, following the HTML standard's
//! encoding sniffing algorithm (§13.2.3.2) with `chardetng` in place of the browser's guess.

use chardetng::EncodingDetector;
use encoding_rs::{Encoding, ISO_2022_JP, REPLACEMENT, UTF_16BE, UTF_16LE, WINDOWS_1252};

use crate::mime::charset_param;
use crate::prescan::prescan;

/// Where the encoding of a page came from, in the order the sources are consulted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CharsetSource {
    /// A byte order mark (UTF-8, UTF-16LE or UTF-16BE) at the start of the body.
    Bom,
    /// The `charset` parameter of the HTTP `Content-Type` header.
    Http,
    /// A `<meta>` element in the first 1024 bytes, found by the standard's prescan.
    Meta,
    /// Statistical detection by `chardetng` over the whole body: nothing was declared, or the
    /// declared encoding was implausible for the bytes (see [`decode_html`]).
    Detected,
    /// Nothing to go on (the body is ASCII): windows-1252, the standard's default.
    Default,
}

/// A page decoded to UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedHtml {
    /// The page's text, without any byte order mark.
    pub text: String,
    /// The encoding the body was decoded from.
    pub encoding: &'static Encoding,
    /// Where that encoding came from.
    pub source: CharsetSource,
    /// Whether malformed byte sequences were replaced by U+FFFD.
    pub had_errors: bool,
}

/// The largest share of a decoded page that may be U+FFFD or control characters (other than
/// tab, line feed, form feed and carriage return) for it to be text. Pages of real text have
/// next to none; random bytes decoded as windows-1252 have about one in nine, as UTF-8 about
/// one in two.
const MAX_NOT_TEXT_SHARE: f64 = 0.05;

impl DecodedHtml {
    /// Whether the decoded page is text: at most 5% of its characters are U+FFFD or control
    /// characters. Bytes that are not text (binary data labelled HTML, text in a charset it was
    /// not decoded from) are mostly such characters.
    #[must_use]
    pub fn is_text(&self) -> bool {
        let (total, not_text) = text_counts(self.text.as_bytes());
        // Counts of a page held in memory: far below 2^52, exact as f64.
        #[allow(clippy::cast_precision_loss)]
        let share = not_text as f64 / total.max(1) as f64;
        share <= MAX_NOT_TEXT_SHARE
    }
}

/// Of the UTF-8 text `bytes`: how many characters it has, and how many of them are U+FFFD or
/// control characters (`char::is_control`, i.e. U+0000–U+001F and U+007F–U+009F) other than
/// tab, line feed, form feed and carriage return.
///
/// Counted on the bytes, without decoding: a character is a byte that is not a continuation
/// byte; the controls are ASCII bytes or the two bytes `C2 80`–`C2 9F`; U+FFFD is `EF BF BD`.
/// The one loop over all bytes vectorises; the rarer lead bytes are found with `memchr`.
fn text_counts(bytes: &[u8]) -> (usize, usize) {
    let (mut continuation, mut ascii_controls) = (0, 0);
    // Per chunk of 255 bytes, the counts fit in a byte: byte-wide lanes, which vectorise.
    for chunk in bytes.chunks(255) {
        let (c, a) = chunk.iter().fold((0_u8, 0_u8), |(c, a), &b| {
            let control = (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0C | b'\r')) || b == 0x7F;
            (c + u8::from(b & 0xC0 == 0x80), a + u8::from(control))
        });
        continuation += usize::from(c);
        ascii_controls += usize::from(a);
    }
    let c1_controls = memchr::memchr_iter(0xC2, bytes)
        .filter(|&i| matches!(bytes.get(i + 1), Some(0x80..=0x9F)))
        .count();
    let replacements = memchr::memmem::find_iter(bytes, "\u{FFFD}".as_bytes()).count();
    (
        bytes.len() - continuation,
        ascii_controls + c1_controls + replacements,
    )
}

/// Decodes an HTML body to UTF-8, choosing its encoding from, in order: a byte order mark, the
/// charset of `http_content_type`, a `<meta>` declaration, detection, and windows-1252.
///
/// Labels are resolved as the WHATWG Encoding Standard says, so `ISO-8859-1` and `ascii` mean
/// windows-1252. Labels that resolve to the `replacement` encoding (such as `ISO-2022-KR`) and
/// unknown labels are skipped rather than trusted. Malformed sequences are replaced, never fatal.
///
/// A declared encoding (HTTP or `<meta>`) is implausible for the bytes when decoding with it
/// replaces at least 4 malformed sequences and they are at least a quarter of the non-ASCII
/// characters it gives (windows-1252 or Shift_JIS text labelled UTF-8, say): the body is then
/// decoded with what detection guesses, if that replaces fewer sequences, and the source is
/// [`CharsetSource::Detected`]. A page of real text in its declared encoding with a few stray
/// bytes keeps it.
#[must_use]
pub fn decode_html(body: &[u8], http_content_type: Option<&str>) -> DecodedHtml {
    decode_html_with_tld(body, http_content_type, None)
}

/// [`decode_html`] with the top-level domain the page came from, which helps detection choose
/// between encodings of the same script. `tld` may be the label (`"jp"`) or the whole host
/// (`"www.example.co.jp"`); one whose last label is not a plain ASCII DNS label is ignored.
#[must_use]
pub fn decode_html_with_tld(
    body: &[u8],
    http_content_type: Option<&str>,
    tld: Option<&str>,
) -> DecodedHtml {
    let (encoding, source, bom_len) = resolve(body, http_content_type, tld);
    let (text, had_errors) = encoding.decode_without_bom_handling(&body[bom_len..]);
    let declared = matches!(source, CharsetSource::Http | CharsetSource::Meta);
    if had_errors && declared {
        let replaced = Replacements::count(&text);
        if replaced.make_implausible() {
            let (guess, _) = detect(body, tld);
            let (redetected, errors) = guess.decode_without_bom_handling(body);
            if guess != encoding && Replacements::count(&redetected).replaced < replaced.replaced {
                return DecodedHtml {
                    text: redetected.into_owned(),
                    encoding: guess,
                    source: CharsetSource::Detected,
                    had_errors: errors,
                };
            }
        }
    }
    DecodedHtml {
        text: text.into_owned(),
        encoding,
        source,
        had_errors,
    }
}

/// The U+FFFD characters of a decoded text, among its non-ASCII characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Replacements {
    replaced: usize,
    non_ascii: usize,
}

impl Replacements {
    fn count(text: &str) -> Self {
        let mut counts = Self {
            replaced: 0,
            non_ascii: 0,
        };
        for c in text.chars().filter(|c| !c.is_ascii()) {
            counts.non_ascii += 1;
            counts.replaced += usize::from(c == char::REPLACEMENT_CHARACTER);
        }
        counts
    }

    /// Whether this many replacements make the encoding implausible for the bytes: at least 4,
    /// and at least a quarter of the non-ASCII characters.
    fn make_implausible(self) -> bool {
        self.replaced >= 4 && self.replaced * 4 >= self.non_ascii
    }
}

/// The encoding to decode `body` with, its source, and the length of the BOM to skip.
fn resolve(
    body: &[u8],
    http_content_type: Option<&str>,
    tld: Option<&str>,
) -> (&'static Encoding, CharsetSource, usize) {
    if let Some((encoding, bom_len)) = Encoding::for_bom(body) {
        return (encoding, CharsetSource::Bom, bom_len);
    }
    let from_http = http_content_type
        .and_then(charset_param)
        .and_then(|label| Encoding::for_label(label.as_bytes()));
    if let Some(encoding) = from_http.filter(|e| is_usable(e) && is_plausible(e, body)) {
        return (encoding, CharsetSource::Http, 0);
    }
    if let Some(encoding) = prescan(body).filter(|e| is_usable(e) && is_plausible(e, body)) {
        return (encoding, CharsetSource::Meta, 0);
    }
    let (encoding, source) = detect(body, tld);
    (encoding, source, 0)
}

/// Whether a label's encoding can decode text; `replacement` only yields U+FFFD.
fn is_usable(encoding: &'static Encoding) -> bool {
    encoding != REPLACEMENT
}

/// How many leading bytes [`is_plausible`] looks at.
const PLAUSIBILITY_SAMPLE: usize = 4096;

/// Whether a declared encoding can be the body's. UTF-16 without a byte order mark is
/// implausible for a body with (almost) no NUL bytes: HTML markup is ASCII, which UTF-16 writes
/// with a NUL byte per character, so ASCII labelled UTF-16 would decode to CJK-looking garbage.
fn is_plausible(encoding: &'static Encoding, body: &[u8]) -> bool {
    if encoding != UTF_16LE && encoding != UTF_16BE {
        return true;
    }
    let sample = &body[..body.len().min(PLAUSIBILITY_SAMPLE)];
    let nuls = memchr::memchr_iter(0, sample).count();
    nuls * 8 >= sample.len()
}

/// Detection with `chardetng`, or the default when the body gives nothing to detect from.
fn detect(body: &[u8], tld: Option<&str>) -> (&'static Encoding, CharsetSource) {
    let mut detector = EncodingDetector::new();
    let saw_non_ascii = detector.feed(body, true);
    let tld = tld.and_then(dns_label);
    let guess = detector.guess(tld.as_deref().map(str::as_bytes), true);
    if saw_non_ascii || guess == ISO_2022_JP {
        (guess, CharsetSource::Detected)
    } else {
        (WINDOWS_1252, CharsetSource::Default)
    }
}

/// The last label of `host` lower-cased when it is a plain DNS label, as `chardetng` requires.
fn dns_label(host: &str) -> Option<String> {
    let host = host.trim().trim_end_matches('.');
    let label = host.rsplit('.').next().unwrap_or(host);
    let valid = !label.is_empty()
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    valid.then(|| label.to_ascii_lowercase())
}

#[cfg(test)]
#[path = "charset_tests.rs"]
mod tests;

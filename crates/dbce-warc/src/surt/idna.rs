//! Non-ASCII host names to ASCII, as Python's `idna` codec (IDNA 2003: RFC 3490 ToASCII with
//! RFC 3491 nameprep) encodes them for `surt`.
//!
//! Nameprep is approximated with the standard library's lowercase mapping (plus the few
//! mappings where full case folding differs) and NFKC; prohibited characters are checked with
//! RFC 3454's tables, and the bidi rule with table D.1 and letters standing in for table D.2.
//! Labels that may still differ are rare: those with characters new since Unicode 3.2, and
//! right-to-left labels with left-to-right characters that are not letters.

use unicode_normalization::UnicodeNormalization as _;
use unicode_normalization::char::{decompose_canonical, is_combining_mark};

/// ASCII form of a host with non-ASCII bytes (invalid UTF-8 sequences are dropped first), or
/// `None` where Python raises, in which case the host is kept as it is.
pub(super) fn to_ascii(host: &[u8]) -> Option<Vec<u8>> {
    let text: String = host.utf8_chunks().map(|chunk| chunk.valid()).collect();
    if text.is_ascii() {
        let labels: Vec<&str> = text.split('.').collect();
        let (last, init) = labels.split_last()?;
        let bad = init.iter().any(|l| !(1..64).contains(&l.len())) || last.len() >= 64;
        return (!bad).then(|| text.into_bytes());
    }
    let mut labels: Vec<&str> = text
        .split(['.', '\u{3002}', '\u{ff0e}', '\u{ff61}'])
        .collect();
    let trailing_dot = labels.last() == Some(&"");
    if trailing_dot {
        labels.pop();
    }
    let mut out = Vec::with_capacity(text.len() + 8);
    for (i, label) in labels.into_iter().enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        out.extend_from_slice(&label_to_ascii(label)?);
    }
    if trailing_dot {
        out.push(b'.');
    }
    Some(out)
}

/// RFC 3490 ToASCII of one label, with `UseSTD3ASCIIRules` off.
fn label_to_ascii(label: &str) -> Option<Vec<u8>> {
    let label = if label.is_ascii() {
        label.to_owned()
    } else {
        nameprep(label)?
    };
    let ascii = if label.is_ascii() {
        label.into_bytes()
    } else if label.starts_with("xn--") {
        return None;
    } else {
        format!("xn--{}", punycode(&label)?).into_bytes()
    };
    (1..64).contains(&ascii.len()).then_some(ascii)
}

fn nameprep(label: &str) -> Option<String> {
    let mapped = fold(label.chars().filter(|&c| !maps_to_nothing(c)));
    // Folding again after NFKC stands in for B.2's extra mappings of characters whose
    // compatibility form is uppercase (`ℌ` → `h`).
    let prepared: String = fold(mapped.nfkc()).nfkc().collect();
    if prepared.chars().any(is_prohibited) || !passes_bidi_rule(&prepared) {
        return None;
    }
    Some(prepared)
}

/// Lowercase mapping with the full case folding exceptions B.2 follows: `ß` → `ss`, `ς` → `σ`
/// and the iota subscript (alone or in a precomposed Greek letter) → `ι`.
fn fold(chars: impl Iterator<Item = char>) -> String {
    let mut out = String::new();
    for c in chars {
        match c {
            'ß' => out.push_str("ss"),
            'ς' => out.push('σ'),
            '\u{345}' => out.push('ι'),
            '\u{1f80}'..='\u{1ffc}' => {
                decompose_canonical(c, |part| {
                    if part == '\u{345}' {
                        out.push('ι');
                    } else {
                        out.extend(part.to_lowercase());
                    }
                });
            }
            _ => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// RFC 3454 table B.1: soft hyphen, joiners, variation selectors and the like.
fn maps_to_nothing(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{34f}' | '\u{1806}' | '\u{180b}'..='\u{180d}' | '\u{200b}'..='\u{200d}'
        | '\u{2060}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}')
}

/// RFC 3454 tables C.1.2 and C.2.2 to C.9, as nameprep prohibits them.
fn is_prohibited(c: char) -> bool {
    let code = u32::from(c);
    matches!(c,
        // C.1.2 non-ASCII spaces
        '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200b}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
        // C.2.2 non-ASCII controls
        | '\u{80}'..='\u{9f}' | '\u{6dd}' | '\u{70f}' | '\u{180e}' | '\u{200c}' | '\u{200d}'
        | '\u{2028}' | '\u{2029}' | '\u{2060}'..='\u{2063}' | '\u{206a}'..='\u{206f}'
        | '\u{feff}' | '\u{fff9}'..='\u{fffc}' | '\u{1d173}'..='\u{1d17a}'
        // C.3 private use, C.6 inappropriate for plain text, C.7 ideographic description
        | '\u{e000}'..='\u{f8ff}' | '\u{f0000}'..='\u{ffffd}' | '\u{100000}'..='\u{10fffd}'
        | '\u{fffd}' | '\u{2ff0}'..='\u{2ffb}'
        // C.8 change display properties, C.9 tagging characters
        | '\u{340}' | '\u{341}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{e0001}' | '\u{e0020}'..='\u{e007f}')
        // C.4 non-characters
        || (0xfdd0..=0xfdef).contains(&code)
        || code & 0xfffe == 0xfffe
}

/// RFC 3454 section 6: a label with right-to-left letters has no left-to-right letters and
/// starts and ends with a right-to-left letter.
fn passes_bidi_rule(label: &str) -> bool {
    if !label.chars().any(is_right_to_left) {
        return true;
    }
    let first_and_last = label.chars().next().is_some_and(is_right_to_left)
        && label.chars().next_back().is_some_and(is_right_to_left);
    first_and_last && !label.chars().any(is_left_to_right)
}

/// RFC 3454 table D.1: characters of bidi class R or AL in Unicode 3.2 (generated with
/// Python's `stringprep.in_table_d1`).
const RIGHT_TO_LEFT: &[(char, char)] = &[
    ('\u{5be}', '\u{5be}'),
    ('\u{5c0}', '\u{5c0}'),
    ('\u{5c3}', '\u{5c3}'),
    ('\u{5d0}', '\u{5ea}'),
    ('\u{5f0}', '\u{5f4}'),
    ('\u{61b}', '\u{61b}'),
    ('\u{61f}', '\u{61f}'),
    ('\u{621}', '\u{63a}'),
    ('\u{640}', '\u{64a}'),
    ('\u{66d}', '\u{66f}'),
    ('\u{671}', '\u{6d5}'),
    ('\u{6dd}', '\u{6dd}'),
    ('\u{6e5}', '\u{6e6}'),
    ('\u{6fa}', '\u{6fe}'),
    ('\u{700}', '\u{70d}'),
    ('\u{710}', '\u{710}'),
    ('\u{712}', '\u{72c}'),
    ('\u{780}', '\u{7a5}'),
    ('\u{7b1}', '\u{7b1}'),
    ('\u{200f}', '\u{200f}'),
    ('\u{fb1d}', '\u{fb1d}'),
    ('\u{fb1f}', '\u{fb28}'),
    ('\u{fb2a}', '\u{fb36}'),
    ('\u{fb38}', '\u{fb3c}'),
    ('\u{fb3e}', '\u{fb3e}'),
    ('\u{fb40}', '\u{fb41}'),
    ('\u{fb43}', '\u{fb44}'),
    ('\u{fb46}', '\u{fbb1}'),
    ('\u{fbd3}', '\u{fd3d}'),
    ('\u{fd50}', '\u{fd8f}'),
    ('\u{fd92}', '\u{fdc7}'),
    ('\u{fdf0}', '\u{fdfc}'),
    ('\u{fe70}', '\u{fe74}'),
    ('\u{fe76}', '\u{fefc}'),
];

fn is_right_to_left(c: char) -> bool {
    RIGHT_TO_LEFT
        .iter()
        .any(|&(first, last)| (first..=last).contains(&c))
}

/// Letters of other scripts, standing in for table D.2 (bidi class L).
fn is_left_to_right(c: char) -> bool {
    c.is_alphabetic() && !is_combining_mark(c) && !is_right_to_left(c)
}

/// RFC 3492 Punycode of a label (lowercase digits, basic code points first).
fn punycode(label: &str) -> Option<String> {
    const BASE: u32 = 36;
    let input: Vec<u32> = label.chars().map(u32::from).collect();
    let mut out: String = label.chars().filter(char::is_ascii).collect();
    let basic = u32::try_from(out.len()).ok()?;
    if basic > 0 {
        out.push('-');
    }
    let (mut n, mut delta, mut bias, mut handled) = (0x80u32, 0u32, 72u32, basic);
    while (handled as usize) < input.len() {
        let next = input.iter().copied().filter(|&c| c >= n).min()?;
        delta = delta.checked_add((next - n).checked_mul(handled + 1)?)?;
        n = next;
        for &c in &input {
            if c < n {
                delta = delta.checked_add(1)?;
            } else if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = k.saturating_sub(bias).clamp(1, 26);
                    if q < t {
                        break;
                    }
                    out.push(punycode_digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(punycode_digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n += 1;
    }
    Some(out)
}

fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / 700 } else { delta / 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > (35 * 26) / 2 {
        delta /= 35;
        k += 36;
    }
    k + 36 * delta / (delta + 38)
}

fn punycode_digit(d: u32) -> char {
    let d = u8::try_from(d).unwrap_or(0);
    char::from(if d < 26 { b'a' + d } else { b'0' + d - 26 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ascii(host: &str) -> Option<String> {
        to_ascii(host.as_bytes()).map(|v| String::from_utf8(v).unwrap())
    }

    #[test]
    fn punycode_matches_rfc_3492_samples() {
        assert_eq!(punycode("bücher").as_deref(), Some("bcher-kva"));
        assert_eq!(punycode("例え").as_deref(), Some("r8jz45g"));
        assert_eq!(punycode("пример").as_deref(), Some("e1afmkfd"));
    }

    #[test]
    fn labels_are_nameprepped() {
        assert_eq!(ascii("BÜCHER.de").as_deref(), Some("xn--bcher-kva.de"));
        assert_eq!(ascii("straße.de").as_deref(), Some("strasse.de"));
        assert_eq!(ascii("ｅｘａｍｐｌｅ.com").as_deref(), Some("example.com"));
        assert_eq!(
            ascii("例え。テスト").as_deref(),
            Some("xn--r8jz45g.xn--zckzah")
        );
    }

    #[test]
    fn invalid_labels_are_refused() {
        assert_eq!(ascii("bücher..de"), None);
        assert_eq!(ascii("\u{e000}.com"), None);
        assert_eq!(ascii("aא.com"), None);
        assert_eq!(ascii(&"ü".repeat(70)), None);
    }
}

//! The HTML standard's "prescan a byte stream to determine its encoding" (§13.2.3.2), which finds
//! `<meta charset>` and `<meta http-equiv=content-type content="…charset=…">`.

use std::ops::ControlFlow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// How many leading bytes the prescan reads, as the standard encourages.
pub(crate) const PRESCAN_BYTES: usize = 1024;

/// The encoding declared by a `<meta>` element in the first [`PRESCAN_BYTES`] of `bytes`.
///
/// A tag cut off by the end of those bytes ends the prescan without a result. A declared UTF-16
/// is reported as UTF-8 and `x-user-defined` as windows-1252, as the standard requires.
pub(crate) fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let input = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    let mut scanner = Scanner { input, pos: 0 };
    while scanner.pos < input.len() {
        if let ControlFlow::Break(encoding) = scanner.step()? {
            return Some(encoding);
        }
        scanner.pos += 1;
    }
    None
}

/// The prescan's position pointer over its input.
struct Scanner<'a> {
    input: &'a [u8],
    pos: usize,
}

/// An attribute's lower-cased name and value.
type Attribute = (Vec<u8>, Vec<u8>);

/// ASCII whitespace as the prescan knows it: tab, LF, FF, CR and space.
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | b' ')
}

impl Scanner<'_> {
    fn byte(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    /// One step of the prescan at the current position: `None` when the input ran out,
    /// `Break` with the declared encoding, or `Continue` to move on to the next byte.
    fn step(&mut self) -> Option<ControlFlow<&'static Encoding>> {
        let rest = &self.input[self.pos..];
        if rest.starts_with(b"<!--") {
            let end = memchr::memmem::find(&rest[2..], b"-->")?;
            self.pos += 2 + end + 2;
        } else if rest.len() > 5 && rest[..5].eq_ignore_ascii_case(b"<meta") {
            if is_space(rest[5]) || rest[5] == b'/' {
                self.pos += 5;
                return self.meta();
            }
            self.skip_tag()?;
        } else if is_tag_start(rest) {
            self.skip_tag()?;
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            self.pos += memchr::memchr(b'>', rest)?;
        }
        Some(ControlFlow::Continue(()))
    }

    /// Skips a tag's name and attributes, leaving the position at its `>`.
    fn skip_tag(&mut self) -> Option<()> {
        while !is_space(self.byte()?) && self.byte()? != b'>' {
            self.pos += 1;
        }
        while self.attribute()?.is_some() {}
        Some(())
    }

    /// Reads the attributes of a `<meta>` element and decides what it declares.
    fn meta(&mut self) -> Option<ControlFlow<&'static Encoding>> {
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut got_pragma = false;
        let mut need_pragma = None;
        let mut charset: Option<Option<&'static Encoding>> = None;
        while let Some((name, value)) = self.attribute()? {
            if seen.contains(&name) {
                continue;
            }
            match name.as_slice() {
                b"http-equiv" => got_pragma |= value == b"content-type",
                b"content" if charset.is_none() => {
                    if let Some(encoding) = charset_from_content(&value) {
                        charset = Some(Some(encoding));
                        need_pragma = Some(true);
                    }
                }
                b"charset" => {
                    charset = Some(Encoding::for_label(&value));
                    need_pragma = Some(false);
                }
                _ => {}
            }
            seen.push(name);
        }
        let declared = match (need_pragma, charset) {
            (Some(true), _) if !got_pragma => None,
            (Some(_), Some(Some(encoding))) => Some(encoding),
            _ => None,
        };
        Some(declared.map_or(ControlFlow::Continue(()), |e| {
            ControlFlow::Break(for_meta(e))
        }))
    }

    /// "Get an attribute": `Some(None)` at the end of the tag, `None` when the input ran out.
    fn attribute(&mut self) -> Option<Option<Attribute>> {
        while is_space(self.byte()?) || self.byte()? == b'/' {
            self.pos += 1;
        }
        if self.byte()? == b'>' {
            return Some(None);
        }
        let mut name = Vec::new();
        loop {
            match self.byte()? {
                b'=' if !name.is_empty() => break,
                b if is_space(b) => {
                    self.skip_spaces()?;
                    if self.byte()? != b'=' {
                        return Some(Some((name, Vec::new())));
                    }
                    break;
                }
                b'/' | b'>' => return Some(Some((name, Vec::new()))),
                b => name.push(b.to_ascii_lowercase()),
            }
            self.pos += 1;
        }
        self.pos += 1;
        let value = self.attribute_value()?;
        Some(Some((name, value)))
    }

    /// The value after an attribute's `=`, quoted or not, lower-cased.
    fn attribute_value(&mut self) -> Option<Vec<u8>> {
        self.skip_spaces()?;
        let mut value = Vec::new();
        let first = self.byte()?;
        if first == b'"' || first == b'\'' {
            loop {
                self.pos += 1;
                match self.byte()? {
                    b if b == first => {
                        self.pos += 1;
                        return Some(value);
                    }
                    b => value.push(b.to_ascii_lowercase()),
                }
            }
        }
        loop {
            match self.byte()? {
                b if is_space(b) || b == b'>' => return Some(value),
                b => value.push(b.to_ascii_lowercase()),
            }
            self.pos += 1;
        }
    }

    fn skip_spaces(&mut self) -> Option<()> {
        while is_space(self.byte()?) {
            self.pos += 1;
        }
        Some(())
    }
}

/// `<` or `</` followed by an ASCII letter.
fn is_tag_start(rest: &[u8]) -> bool {
    let name = rest.strip_prefix(b"</").or_else(|| rest.strip_prefix(b"<"));
    name.and_then(|n| n.first())
        .is_some_and(u8::is_ascii_alphabetic)
}

/// The standard's overrides for encodings a `<meta>` may not select.
fn for_meta(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else if encoding == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        encoding
    }
}

/// "Extracting a character encoding from a meta element", given its `content` attribute.
fn charset_from_content(content: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    loop {
        let found = content[pos..]
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        pos += found + 7;
        pos += content[pos..].iter().take_while(|b| is_space(**b)).count();
        if content.get(pos) != Some(&b'=') {
            continue;
        }
        pos += 1;
        pos += content[pos..].iter().take_while(|b| is_space(**b)).count();
        let rest = &content[pos..];
        let label = match *rest.first()? {
            quote @ (b'"' | b'\'') => &rest[1..1 + memchr::memchr(quote, &rest[1..])?],
            _ => {
                let end = rest.iter().position(|b| is_space(*b) || *b == b';');
                &rest[..end.unwrap_or(rest.len())]
            }
        };
        return Encoding::for_label(label);
    }
}

#[cfg(test)]
#[path = "prescan_tests.rs"]
mod tests;

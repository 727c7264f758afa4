//! Character references (§13.2.5.72–80), as html5ever's `CharRefTokenizer` reads them: the
//! same states, the same characters consumed and given back, the same parse errors.
//!
//! Named references are matched the way html5ever does, one character at a time against
//! `html5ever::data::NAMED_ENTITIES` (every entity name and every prefix of one), which gives
//! the longest entity name on a path of prefixes: `&notin;` is `∉`, `&notit;` is `¬it;`.

use std::borrow::Cow;

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use html5ever::tokenizer::TokenSink;

use super::Tokenizer;

/// What a character reference stands for: up to two characters; none means a literal `&`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CharRef {
    pub(crate) chars: [char; 2],
    pub(crate) num_chars: u8,
}

impl CharRef {
    const EMPTY: CharRef = CharRef {
        chars: ['\0', '\0'],
        num_chars: 0,
    };

    fn one(c: char) -> CharRef {
        CharRef {
            chars: [c, '\0'],
            num_chars: 1,
        }
    }
}

/// Where reading a reference got to.
pub(crate) enum Status {
    /// More input is needed.
    Stuck,
    /// One step done; go on.
    Progress,
    Done(CharRef),
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Begin,
    Octothorpe,
    Numeric(u32),
    NumericSemicolon,
    Named,
    BogusName,
}

/// A character reference being read; the name read so far is the tokenizer's
/// `char_ref_name`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CharRefState {
    step: Step,
    in_attribute: bool,
    num: u32,
    num_too_big: bool,
    seen_digit: bool,
    hex_marker: Option<char>,
    /// The longest entity matched so far, and the length of the name it matched.
    name_match: Option<(u32, u32)>,
    name_len: usize,
}

impl CharRefState {
    pub(crate) fn new(in_attribute: bool) -> Self {
        Self {
            step: Step::Begin,
            in_attribute,
            num: 0,
            num_too_big: false,
            seen_digit: false,
            hex_marker: None,
            name_match: None,
            name_len: 0,
        }
    }
}

fn is_ascii_alnum(c: char) -> bool {
    c.is_ascii_alphanumeric()
}

impl<Sink: TokenSink> Tokenizer<Sink> {
    /// One step of the reference `cr`.
    pub(crate) fn char_ref_step(&mut self, cr: &mut CharRefState) -> Status {
        match cr.step {
            Step::Begin => match self.peek() {
                Some(c) if c.is_ascii_alphanumeric() && self.on_fast_path() => {
                    match self.named_with_semicolon() {
                        Some(char_ref) => Status::Done(char_ref),
                        None => {
                            cr.step = Step::Named;
                            self.char_ref_name.clear();
                            Status::Progress
                        }
                    }
                }
                Some(c) if is_ascii_alnum(c) => {
                    cr.step = Step::Named;
                    self.char_ref_name.clear();
                    Status::Progress
                }
                Some('#') => {
                    self.discard_char();
                    cr.step = Step::Octothorpe;
                    Status::Progress
                }
                Some(_) => Status::Done(CharRef::EMPTY),
                None => Status::Stuck,
            },
            Step::Octothorpe => {
                match self.peek() {
                    Some(c @ ('x' | 'X')) => {
                        self.discard_char();
                        cr.hex_marker = Some(c);
                        cr.step = Step::Numeric(16);
                    }
                    Some(_) => {
                        cr.hex_marker = None;
                        cr.step = Step::Numeric(10);
                    }
                    None => return Status::Stuck,
                }
                Status::Progress
            }
            Step::Numeric(base) => {
                let Some(c) = self.peek() else {
                    return Status::Stuck;
                };
                match c.to_digit(base) {
                    Some(n) => {
                        self.discard_char();
                        cr.num = cr.num.wrapping_mul(base);
                        if cr.num > 0x10FFFF {
                            // The value is invalid whatever follows; digits are still read.
                            cr.num_too_big = true;
                        }
                        cr.num = cr.num.wrapping_add(n);
                        cr.seen_digit = true;
                        Status::Progress
                    }
                    None if !cr.seen_digit => self.unconsume_numeric(cr),
                    None => {
                        cr.step = Step::NumericSemicolon;
                        Status::Progress
                    }
                }
            }
            Step::NumericSemicolon => {
                match self.peek() {
                    Some(';') => self.discard_char(),
                    Some(_) => self.emit_error(Cow::Borrowed(
                        "Semicolon missing after numeric character reference",
                    )),
                    None => return Status::Stuck,
                }
                self.finish_numeric(cr)
            }
            Step::Named => {
                // Raw characters (no newline normalisation), so they can be given back as read.
                let Some(c) = self.peek() else {
                    return Status::Stuck;
                };
                self.discard_char();
                self.char_ref_name.push(c);
                match NAMED_ENTITIES.get(self.char_ref_name.as_str()) {
                    Some(&m) => {
                        if m.0 != 0 {
                            // A whole name; a longer one may follow.
                            cr.name_match = Some(m);
                            cr.name_len = self.char_ref_name.len();
                        }
                        Status::Progress
                    }
                    None => self.finish_named(cr, Some(c)),
                }
            }
            Step::BogusName => {
                let Some(c) = self.peek() else {
                    return Status::Stuck;
                };
                self.discard_char();
                self.char_ref_name.push(c);
                if is_ascii_alnum(c) {
                    return Status::Progress;
                }
                if c == ';' {
                    self.emit_name_error();
                }
                self.unconsume_name();
                Status::Done(CharRef::EMPTY)
            }
        }
    }

    /// A whole entity name ending in `;` straight from the input (`&amp;`, `&nbsp;`): what
    /// reading it one character at a time gives (every prefix of an entity name is one too,
    /// and none continues past `;`), in one lookup. `None` when the name is not one or the
    /// character after it (which html5ever reads, and gives back, before it decides) is not
    /// there yet.
    fn named_with_semicolon(&mut self) -> Option<CharRef> {
        /// Longer than the longest entity name.
        const MAX: usize = 40;
        let bytes = self.available();
        let len = bytes
            .iter()
            .take(MAX)
            .position(|b| !b.is_ascii_alphanumeric())?;
        if bytes[len] != b';' || len + 1 >= bytes.len() {
            return None;
        }
        let name = &self.available_str()[..=len];
        let &(c1, c2) = NAMED_ENTITIES.get(name)?;
        let first = char::from_u32(c1).filter(|_| c1 != 0)?;
        // html5ever reads the next character too and gives it back: it is read again on its
        // own (text is cut before it).
        let next = self.available_str()[len + 1..].chars().next()?;
        self.advance(len + 1 + next.len_utf8());
        self.push_front(next.encode_utf8(&mut [0; 4]));
        self.ignore_lf = false;
        Some(match char::from_u32(c2) {
            Some(second) if c2 != 0 => CharRef {
                chars: [first, second],
                num_chars: 2,
            },
            _ => CharRef::one(first),
        })
    }

    /// The reference `cr` at the end of the input.
    pub(crate) fn char_ref_eof(&mut self, cr: &mut CharRefState) -> CharRef {
        loop {
            let status = match cr.step {
                Step::Begin => Status::Done(CharRef::EMPTY),
                Step::Numeric(_) if !cr.seen_digit => self.unconsume_numeric(cr),
                Step::Numeric(_) | Step::NumericSemicolon => {
                    self.emit_error(Cow::Borrowed("EOF in numeric character reference"));
                    self.finish_numeric(cr)
                }
                Step::Named => self.finish_named(cr, None),
                Step::BogusName => {
                    self.unconsume_name();
                    Status::Done(CharRef::EMPTY)
                }
                Step::Octothorpe => {
                    self.push_front("#");
                    self.emit_error(Cow::Borrowed("EOF after '#' in character reference"));
                    Status::Done(CharRef::EMPTY)
                }
            };
            match status {
                Status::Done(char_ref) => return char_ref,
                Status::Stuck => return CharRef::EMPTY,
                Status::Progress => {}
            }
        }
    }

    fn unconsume_numeric(&mut self, cr: &CharRefState) -> Status {
        let mut back = String::from("#");
        back.extend(cr.hex_marker);
        self.push_front(&back);
        self.emit_error(Cow::Borrowed("Numeric character reference without digits"));
        Status::Done(CharRef::EMPTY)
    }

    fn finish_numeric(&mut self, cr: &CharRefState) -> Status {
        let num = cr.num;
        let (c, error) = match num {
            n if n > 0x10FFFF || cr.num_too_big => ('\u{fffd}', true),
            0x00 | 0xD800..=0xDFFF => ('\u{fffd}', true),
            0x80..=0x9F => match C1_REPLACEMENTS[(num - 0x80) as usize] {
                Some(c) => (c, true),
                None => (char::from_u32(num).unwrap_or('\u{fffd}'), true),
            },
            0x01..=0x08 | 0x0B | 0x0D..=0x1F | 0x7F | 0xFDD0..=0xFDEF => {
                (char::from_u32(num).unwrap_or('\u{fffd}'), true)
            }
            n if (n & 0xFFFE) == 0xFFFE => (char::from_u32(n).unwrap_or('\u{fffd}'), true),
            n => (char::from_u32(n).unwrap_or('\u{fffd}'), false),
        };
        if error {
            self.emit_error(Cow::Borrowed("Invalid numeric character reference"));
        }
        Status::Done(CharRef::one(c))
    }

    fn emit_name_error(&mut self) {
        self.emit_error(Cow::Borrowed("Invalid character reference"));
    }

    /// Gives back every character of the name read.
    fn unconsume_name(&mut self) {
        let name = std::mem::take(&mut self.char_ref_name);
        self.push_front(&name);
        self.char_ref_name = name;
        self.char_ref_name.clear();
    }

    fn finish_named(&mut self, cr: &mut CharRefState, end_char: Option<char>) -> Status {
        let Some((c1, c2)) = cr.name_match else {
            match end_char {
                Some(c) if is_ascii_alnum(c) => {
                    // Read on to the end of the name, to know whether it ends with `;` (an error).
                    cr.step = Step::BogusName;
                    return Status::Progress;
                }
                Some(';') if self.char_ref_name.len() > 1 => self.emit_name_error(),
                _ => {}
            }
            self.unconsume_name();
            return Status::Done(CharRef::EMPTY);
        };
        // A whole name matched, perhaps followed by characters read while a longer one could
        // still match (`&noti` after `&not`).
        let name_len = cr.name_len;
        let name = self.char_ref_name.as_bytes();
        let last_matched = name[name_len - 1];
        let next_after = self.char_ref_name[name_len..].chars().next();
        let unconsume_all = match (cr.in_attribute, last_matched, next_after) {
            (_, b';', _) => false,
            (true, _, Some('=')) => true,
            (true, _, Some(c)) if is_ascii_alnum(c) => true,
            _ => {
                self.emit_error(Cow::Borrowed(
                    "Character reference does not end with semicolon",
                ));
                false
            }
        };
        if unconsume_all {
            self.unconsume_name();
            return Status::Done(CharRef::EMPTY);
        }
        let name = std::mem::take(&mut self.char_ref_name);
        self.push_front(&name[name_len..]);
        self.char_ref_name = name;
        self.char_ref_name.clear();
        self.ignore_lf = false;
        let first = char::from_u32(c1).unwrap_or('\u{fffd}');
        Status::Done(match char::from_u32(c2) {
            Some(second) if c2 != 0 => CharRef {
                chars: [first, second],
                num_chars: 2,
            },
            _ => CharRef::one(first),
        })
    }
}

//! [`Tokenizer`]: html5ever's tokenizer state machine over the bytes of one input.
//!
//! The states, their transitions and the parse errors they emit are html5ever 0.40's
//! (`html5ever::tokenizer`), arm for arm, including where it departs from the specification
//! (which errors it reports without `exact_errors`, CDATA text held back until `]]>`, a NUL in
//! CDATA, a U+FEFF dropped at the start of each chunk). What differs is how characters are
//! read: where html5ever pops one `char` at a time and pushes it onto a tendril, the states
//! that read runs (text, tag and attribute names, attribute values, comments) find the end of
//! the run with `memchr` or a byte table and take it as a slice of the input. Text and
//! attribute values that are one slice of the input are handed to the sink as tendrils sharing
//! the input's buffer, without a copy.
//!
//! As in html5ever, the input is read through a queue: characters given back by a character
//! reference that did not match (and the look-ahead of `<!--`, `<!DOCTYPE`, `PUBLIC`,
//! `SYSTEM` and `<![CDATA[` cut by the end of a chunk) are read again before the input.

mod char_ref;

use std::borrow::Cow;
use std::mem;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::{
    AttrValueKind, DoctypeIdKind, RawKind, ScriptEscapeKind, State,
};
use html5ever::tokenizer::{Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{Attribute, LocalName, QualName, ns};

use crate::atoms::AtomCache;
use crate::span::SpanBuf;
use char_ref::{CharRef, CharRefState, Status};

use AttrValueKind::{DoubleQuoted, SingleQuoted, Unquoted};
use DoctypeIdKind::{Public, System};
use RawKind::{Rawtext, Rcdata, ScriptData, ScriptDataEscaped};
use ScriptEscapeKind::{DoubleEscaped, Escaped};

/// The line number passed with every token: lines are not counted (html5ever's tree builder
/// only passes them on to `TreeSink::set_current_line`, and does not for line 1).
const LINE: u64 = 1;

/// How a run of bytes outside a [`StopSet`] is found, besides `\r` and NUL.
#[derive(Clone, Copy)]
enum Find {
    One(u8),
    Two(u8, u8),
    Table,
}

/// The bytes that end a run in a state html5ever reads with `pop_except_from`: always `\r` and
/// NUL (they are rewritten) and the state's own, all ASCII.
#[derive(Clone, Copy)]
struct StopSet {
    mask: u128,
    find: Find,
}

const fn mask_of(bytes: &[u8]) -> u128 {
    let mut mask = (1 << b'\r') | 1;
    let mut i = 0;
    while i < bytes.len() {
        mask |= 1 << bytes[i];
        i += 1;
    }
    mask
}

impl StopSet {
    const fn new(bytes: &[u8], find: Find) -> Self {
        Self {
            mask: mask_of(bytes),
            find,
        }
    }

    fn contains(self, b: u8) -> bool {
        b < 128 && (self.mask >> b) & 1 == 1
    }
}

const DATA: StopSet = StopSet::new(b"<&", Find::Two(b'<', b'&'));
const RAWTEXT: StopSet = StopSet::new(b"<", Find::One(b'<'));
const PLAINTEXT: StopSet = StopSet::new(b"\n", Find::One(b'\n'));
const SCRIPT_ESCAPED: StopSet = StopSet::new(b"-<", Find::Two(b'-', b'<'));
const ATTR_DOUBLE: StopSet = StopSet::new(b"\"&", Find::Two(b'"', b'&'));
const ATTR_SINGLE: StopSet = StopSet::new(b"'&", Find::Two(b'\'', b'&'));
const ATTR_UNQUOTED: StopSet = StopSet::new(b"\t\n\x0C &>", Find::Table);

/// Bytes that end a tag name: whitespace, `/`, `>`, NUL and `\r`.
const TAG_NAME_END: u8 = 1;
/// Bytes that end or are an error in an attribute name.
const ATTR_NAME_END: u8 = 2;
/// Bytes that end a run of comment text.
const COMMENT_END: u8 = 4;
/// Bytes that end a run of bogus comment text.
const BOGUS_COMMENT_END: u8 = 8;
/// Bytes that end a run of CDATA.
const CDATA_END: u8 = 16;

/// For each byte, the runs it ends (`TAG_NAME_END`…).
static ENDS: [u8; 256] = {
    let mut table = [0; 256];
    let sets: [(u8, &[u8]); 5] = [
        (TAG_NAME_END, b"\t\n\x0C />"),
        (ATTR_NAME_END, b"\t\n\x0C />=\"'<"),
        (COMMENT_END, b"<-"),
        (BOGUS_COMMENT_END, b">"),
        (CDATA_END, b"]"),
    ];
    let mut i = 0;
    while i < sets.len() {
        let (flag, bytes) = sets[i];
        table[b'\r' as usize] |= flag;
        table[0] |= flag;
        let mut j = 0;
        while j < bytes.len() {
            table[bytes[j] as usize] |= flag;
            j += 1;
        }
        i += 1;
    }
    table
};

/// What `pop_except_from` took from the queue.
enum Popped {
    /// One character of the set (or, on html5ever's slow path, any character).
    Char(char),
    /// Input bytes `a..b`, none in the set.
    Run(usize, usize),
    /// Given-back bytes `a..b` of the queue's front, none in the set.
    Front(usize, usize),
}

fn lower_ascii_letter(c: char) -> Option<char> {
    c.is_ascii_alphabetic().then(|| c.to_ascii_lowercase())
}

/// Reads the next character, or suspends the state machine (returns `false` from `step`).
macro_rules! get_char {
    ($me:ident) => {
        match $me.get_char() {
            Some(c) => c,
            None => return false,
        }
    };
}

/// Looks for `$pat` (ASCII case-insensitively when `$ci`), or suspends.
macro_rules! eat {
    ($me:ident, $pat:expr, $ci:expr) => {
        match $me.eat($pat, $ci) {
            Some(matched) => matched,
            None => return false,
        }
    };
}

/// The HTML5 tokenizer over one input, driving a [`TokenSink`] such as html5ever's
/// `TreeBuilder`; it gives the sink the tokens html5ever's `Tokenizer` (default options) gives,
/// in the same order, and honours what the sink answers (raw text, PLAINTEXT, CDATA).
///
/// The input is fed in steps, [`Tokenizer::feed_to`] making its first bytes available, as
/// html5ever is fed chunks: between steps the caller may look at the sink and stop early,
/// then [`Tokenizer::end`] ends the input where feeding stopped. Fed in the same chunks,
/// both tokenizers give the same tokens, where html5ever departs from the specification too:
///
/// - parse errors are those html5ever reports without `exact_errors` (none for `"`, `'`, `<`,
///   `=` or `` ` `` in an unquoted attribute value, for example), with other messages;
/// - a U+FEFF is dropped where a chunk starts, not only where the input does, and where the
///   input goes on after a tag the sink answered with `Script` or `EncodingIndicator` (where
///   html5ever's `feed` returns and is called again); the tokenizer does not stop there;
/// - CDATA text is held back until `]]>` (or a NUL, emitted as a `NullCharacterToken` after it);
/// - character tokens are cut where html5ever cuts them (a newline that starts a run of text
///   is a token of its own, each character of a reference is one, text given back by a
///   reference that did not match starts a new one…), as the tree builder counts some parse
///   errors per token, except in raw text (`<script>`, `<style>`, `<title>`…), where
///   html5ever also sends each newline on its own and this tokenizer whole runs: the tree
///   builder, in its "text" mode there, appends them to one text.
///
/// Line numbers are not counted: every token comes with line 1 (html5ever's tree builder only
/// passes them on to `TreeSink::set_current_line`).
pub struct Tokenizer<Sink> {
    sink: Sink,
    input: StrTendril,
    /// Next byte of the input to read.
    pos: usize,
    /// Bytes of the input fed so far.
    avail: usize,
    at_eof: bool,
    /// Characters given back, read before `input[pos..]`: `front[front_pos..]`.
    front: String,
    front_pos: usize,
    /// The first `\r` and the first NUL at or after `pos` (or the input's length).
    cr_at: usize,
    nul_at: usize,

    state: State,
    /// Read `current_char` again.
    reconsume: bool,
    current_char: char,
    /// The last character read was a `\r`: a `\n` right after it is dropped.
    pub(crate) ignore_lf: bool,
    char_ref: Option<CharRefState>,
    pub(crate) char_ref_name: String,

    /// Characters to emit as one token, before any other token.
    text: SpanBuf,
    tag_kind: TagKind,
    tag_name: String,
    tag_self_closing: bool,
    tag_had_duplicate_attributes: bool,
    tag_attrs: Vec<Attribute>,
    attr_name: String,
    attr_value: SpanBuf,
    comment: SpanBuf,
    doctype: Doctype,
    /// For "appropriate end tag".
    last_start_tag_name: Option<LocalName>,
    atoms: AtomCache,
    /// The specification's temporary buffer; also holds the look-ahead cut by a chunk's end.
    temp_buf: String,
}

impl<Sink: TokenSink> Tokenizer<Sink> {
    /// A tokenizer of `input` into `sink`, in the data state. Nothing is read before
    /// [`Tokenizer::feed_to`]. Tokens share `input`'s buffer.
    pub fn new(sink: Sink, input: StrTendril) -> Self {
        let mut tokenizer = Tokenizer {
            sink,
            input,
            pos: 0,
            avail: 0,
            at_eof: false,
            front: String::new(),
            front_pos: 0,
            cr_at: 0,
            nul_at: 0,
            state: State::Data,
            reconsume: false,
            current_char: '\0',
            ignore_lf: false,
            char_ref: None,
            char_ref_name: String::new(),
            text: SpanBuf::default(),
            tag_kind: TagKind::StartTag,
            tag_name: String::new(),
            tag_self_closing: false,
            tag_had_duplicate_attributes: false,
            tag_attrs: Vec::new(),
            attr_name: String::new(),
            attr_value: SpanBuf::default(),
            comment: SpanBuf::default(),
            doctype: Doctype::default(),
            last_start_tag_name: None,
            atoms: AtomCache::default(),
            temp_buf: String::new(),
        };
        tokenizer.cr_at = tokenizer.find_from(b'\r', 0);
        tokenizer.nul_at = tokenizer.find_from(b'\0', 0);
        tokenizer
    }

    /// The sink.
    pub fn sink(&self) -> &Sink {
        &self.sink
    }

    /// The sink, once the tokenizer is done with it.
    pub fn into_sink(self) -> Sink {
        self.sink
    }

    /// Makes the input's first `end` bytes available (rounded down to a character boundary)
    /// and tokenizes as far as they go, as html5ever's `feed` does with one more chunk: a
    /// token cut by `end` waits for the next call or for [`Tokenizer::end`]. Like html5ever,
    /// a U+FEFF at the start of what each call adds is dropped (a byte order mark at the start
    /// of the input; html5ever also drops one at the start of every chunk).
    pub fn feed_to(&mut self, end: usize) {
        let end = self.input.floor_char_boundary(end.min(self.input.len()));
        if end <= self.avail {
            return;
        }
        self.avail = end;
        self.discard_bom();
        self.run();
    }

    /// Ends the input after the bytes fed so far: tokens cut there are finished or dropped as
    /// at the end of a document, the sink gets its `EOFToken`, then `TokenSink::end`.
    pub fn end(&mut self) {
        if let Some(mut cr) = self.char_ref.take() {
            let char_ref = self.char_ref_eof(&mut cr);
            self.process_char_ref(char_ref);
        }
        self.at_eof = true;
        self.run();
        while self.eof_step() {}
        self.flush_text();
        self.sink.end();
    }

    // Reading.

    /// Position of the first byte `b` at or after `from`, or the input's length.
    fn find_from(&self, b: u8, from: usize) -> usize {
        let bytes = self.input.as_bytes();
        memchr::memchr(b, &bytes[from..]).map_or(bytes.len(), |i| from + i)
    }

    #[inline]
    fn has_front(&self) -> bool {
        self.front_pos < self.front.len()
    }

    /// Puts `s` in front of everything still to read.
    pub(crate) fn push_front(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if !self.has_front() {
            self.front.clear();
            self.front.push_str(s);
            self.front_pos = 0;
            return;
        }
        let mut front = String::with_capacity(s.len() + self.front.len() - self.front_pos);
        front.push_str(s);
        front.push_str(&self.front[self.front_pos..]);
        self.front = front;
        self.front_pos = 0;
    }

    /// The next character of the queue, without newline normalisation.
    fn peek_raw(&self) -> Option<char> {
        if self.has_front() {
            return self.front[self.front_pos..].chars().next();
        }
        if self.pos < self.avail {
            return self.input[self.pos..].chars().next();
        }
        None
    }

    /// The next byte of the queue.
    #[inline]
    fn next_byte(&self) -> Option<u8> {
        if self.has_front() {
            return Some(self.front.as_bytes()[self.front_pos]);
        }
        self.input.as_bytes()[..self.avail].get(self.pos).copied()
    }

    /// Takes the next character of the queue, without newline normalisation.
    fn next_raw(&mut self) -> Option<char> {
        if self.has_front() {
            let c = self.front[self.front_pos..].chars().next()?;
            self.front_pos += c.len_utf8();
            return Some(c);
        }
        if self.pos < self.avail {
            let b = self.input.as_bytes()[self.pos];
            let c = if b < 0x80 {
                char::from(b)
            } else {
                self.input[self.pos..].chars().next()?
            };
            self.pos += c.len_utf8();
            return Some(c);
        }
        None
    }

    /// html5ever's `peek`: the character to reconsume, or the next raw one.
    pub(crate) fn peek(&self) -> Option<char> {
        if self.reconsume {
            Some(self.current_char)
        } else {
            self.peek_raw()
        }
    }

    /// html5ever's `discard_char`: drops what [`Self::peek`] gave.
    pub(crate) fn discard_char(&mut self) {
        if self.reconsume {
            self.reconsume = false;
        } else {
            self.next_raw();
        }
    }

    /// `\r` read: it becomes `\n`, and a `\n` right after it is dropped.
    fn preprocess(&mut self, mut c: char) -> char {
        if c == '\r' {
            self.ignore_lf = true;
            c = '\n';
        }
        self.current_char = c;
        c
    }

    /// html5ever's `get_char`: the next input character, newlines normalised.
    fn get_char(&mut self) -> Option<char> {
        if self.reconsume {
            self.reconsume = false;
            return Some(self.current_char);
        }
        let mut c = self.next_raw()?;
        if self.ignore_lf {
            self.ignore_lf = false;
            if c == '\n' {
                c = self.next_raw()?;
            }
        }
        Some(self.preprocess(c))
    }

    /// The end of the run starting at `pos` of input bytes outside `set` (html5ever's
    /// `pop_except_from` on a chunk).
    fn scan(&mut self, set: StopSet) -> usize {
        if self.cr_at < self.pos {
            self.cr_at = self.find_from(b'\r', self.pos);
        }
        if self.nul_at < self.pos {
            self.nul_at = self.find_from(b'\0', self.pos);
        }
        let limit = self.avail.min(self.cr_at).min(self.nul_at);
        let hay = &self.input.as_bytes()[self.pos..limit];
        let found = match set.find {
            Find::One(a) => memchr::memchr(a, hay),
            Find::Two(a, b) => memchr::memchr2(a, b, hay),
            Find::Table => hay.iter().position(|&b| set.contains(b)),
        };
        found.map_or(limit, |i| self.pos + i)
    }

    /// html5ever's `pop_except_from`: one character of `set`, or a run of characters outside
    /// it; on the slow path (a character to reconsume, or a `\n` to drop) one character,
    /// whatever it is. In the data state (`newline_alone`) html5ever's SIMD path takes a run
    /// through newlines, but a newline that comes first on its own.
    fn pop_except_from(&mut self, set: StopSet, newline_alone: bool) -> Option<Popped> {
        if self.reconsume || self.ignore_lf {
            return self.get_char().map(Popped::Char);
        }
        if newline_alone && self.next_byte() == Some(b'\n') {
            self.next_raw();
            self.current_char = '\n';
            return Some(Popped::Char('\n'));
        }
        if self.has_front() {
            let rest = &self.front.as_bytes()[self.front_pos..];
            let n = rest
                .iter()
                .position(|&b| set.contains(b))
                .unwrap_or(rest.len());
            if n > 0 {
                let a = self.front_pos;
                self.front_pos += n;
                return Some(Popped::Front(a, a + n));
            }
            let c = self.next_raw()?;
            return Some(Popped::Char(self.preprocess(c)));
        }
        if self.pos >= self.avail {
            return None;
        }
        let end = self.scan(set);
        if end > self.pos {
            let a = self.pos;
            self.pos = end;
            return Some(Popped::Run(a, end));
        }
        let c = char::from(self.input.as_bytes()[self.pos]);
        self.pos += 1;
        Some(Popped::Char(self.preprocess(c)))
    }

    /// html5ever's `eat`: whether the next characters are `pat` (ASCII case-insensitively
    /// when `ci`), consuming them if so; `None` when the input fed so far is too short to
    /// tell, the characters read then kept in `temp_buf` for the next try.
    fn eat(&mut self, pat: &str, ci: bool) -> Option<bool> {
        if self.ignore_lf {
            self.ignore_lf = false;
            if self.peek() == Some('\n') {
                self.discard_char();
            }
        }
        let stash = mem::take(&mut self.temp_buf);
        self.push_front(&stash);
        self.temp_buf = stash;
        self.temp_buf.clear();

        let front = &self.front.as_bytes()[self.front_pos..];
        let main = &self.input.as_bytes()[self.pos..self.avail];
        for (k, &p) in pat.as_bytes().iter().enumerate() {
            let b = match front.get(k) {
                Some(&b) => b,
                None => match main.get(k - front.len()) {
                    Some(&b) => b,
                    None if self.at_eof => return Some(false),
                    None => {
                        let front_len = front.len();
                        self.temp_buf.push_str(&self.front[self.front_pos..]);
                        self.temp_buf.push_str(&self.input[self.pos..self.avail]);
                        self.front_pos += front_len;
                        self.pos = self.avail;
                        return None;
                    }
                },
            };
            if !(b == p || ci && b.eq_ignore_ascii_case(&p)) {
                return Some(false);
            }
        }
        let from_front = pat.len().min(front.len());
        self.front_pos += from_front;
        self.pos += pat.len() - from_front;
        Some(true)
    }

    /// After a chunk starts (and after a `<script>` end tag or a charset `<meta>`, where
    /// html5ever's `feed` returns and is called again), a U+FEFF first in the queue is dropped.
    fn discard_bom(&mut self) {
        if self.peek_raw() == Some('\u{feff}') {
            self.next_raw();
        }
    }

    // Emitting.

    /// Sends `token` (after any pending text).
    fn process(&mut self, token: Token) -> TokenSinkResult<Sink::Handle> {
        self.flush_text();
        self.sink.process_token(token, LINE)
    }

    /// Sends a token the sink has no say on (html5ever asserts it answers `Continue`).
    fn process_and_continue(&mut self, token: Token) {
        let _ = self.process(token);
    }

    #[inline]
    fn flush_text(&mut self) {
        if !self.text.is_empty() {
            let text = self.text.take(&self.input);
            let _ = self.sink.process_token(Token::CharacterTokens(text), LINE);
        }
    }

    pub(crate) fn emit_error(&mut self, error: Cow<'static, str>) {
        self.process_and_continue(Token::ParseError(error));
    }

    fn bad_char_error(&mut self) {
        self.emit_error(Cow::Borrowed("Bad character"));
    }

    fn bad_eof_error(&mut self) {
        self.emit_error(Cow::Borrowed("Unexpected EOF"));
    }

    /// Whether character tokens may be merged: in the raw text states, which the tree builder
    /// switches the tokenizer to only as it enters its "text" insertion mode, where it appends
    /// them to one text however they are cut. Elsewhere they are cut where html5ever cuts them,
    /// as the tree builder may count one parse error per token (text in a table, say).
    #[inline]
    fn merges_text(&self) -> bool {
        matches!(
            self.state,
            State::RawData(_)
                | State::RawLessThanSign(_)
                | State::RawEndTagOpen(_)
                | State::RawEndTagName(_)
                | State::ScriptDataEscapeStart(_)
                | State::ScriptDataEscapeStartDash
                | State::ScriptDataEscapedDash(_)
                | State::ScriptDataEscapedDashDash(_)
                | State::ScriptDataDoubleEscapeEnd
        )
    }

    /// After text was added: sent as a token of its own where html5ever sends one.
    #[inline]
    fn text_added(&mut self) {
        if !self.merges_text() {
            self.flush_text();
        }
    }

    /// One character as text; NUL as html5ever's `NullCharacterToken`.
    fn emit_char(&mut self, c: char) {
        if c == '\0' {
            self.process_and_continue(Token::NullCharacterToken);
        } else {
            self.text.push_char(&self.input, c);
            self.text_added();
        }
    }

    /// Input bytes `a..b` as text.
    #[inline]
    fn emit_run(&mut self, a: usize, b: usize) {
        self.text.push_span(&self.input, a, b);
        self.text_added();
    }

    /// Given-back bytes `a..b` as text.
    fn emit_front(&mut self, a: usize, b: usize) {
        self.text.push_str(&self.input, &self.front[a..b]);
        self.text_added();
    }

    /// The temporary buffer as text; html5ever emits it as a token of its own even when empty.
    fn emit_temp_buf(&mut self) {
        if self.temp_buf.is_empty() && self.text.is_empty() {
            self.process_and_continue(Token::CharacterTokens(StrTendril::new()));
        } else {
            self.text.push_str(&self.input, &self.temp_buf);
            self.text_added();
        }
        self.temp_buf.clear();
    }

    fn emit_eof(&mut self) {
        self.process_and_continue(Token::EOFToken);
    }

    fn emit_comment(&mut self) {
        let comment = self.comment.take(&self.input);
        self.process_and_continue(Token::CommentToken(comment));
    }

    fn emit_doctype(&mut self) {
        let doctype = mem::take(&mut self.doctype);
        self.process_and_continue(Token::DoctypeToken(doctype));
    }

    /// Emits the current tag and switches to the state the sink asks for (else data).
    fn emit_tag(&mut self) -> bool {
        self.state = State::Data;
        self.finish_attribute();
        let name = self.atoms.get(&self.tag_name);
        self.tag_name.clear();
        match self.tag_kind {
            TagKind::StartTag => self.last_start_tag_name = Some(name.clone()),
            TagKind::EndTag => {
                if !self.tag_attrs.is_empty() {
                    self.emit_error(Cow::Borrowed("Attributes on an end tag"));
                }
                if self.tag_self_closing {
                    self.emit_error(Cow::Borrowed("Self-closing end tag"));
                }
            }
        }
        let token = Token::TagToken(Tag {
            kind: self.tag_kind,
            name,
            self_closing: self.tag_self_closing,
            attrs: mem::take(&mut self.tag_attrs),
            had_duplicate_attributes: self.tag_had_duplicate_attributes,
        });
        match self.process(token) {
            TokenSinkResult::Continue => {}
            TokenSinkResult::Plaintext => self.state = State::Plaintext,
            TokenSinkResult::RawData(kind) => self.state = State::RawData(kind),
            TokenSinkResult::Script(_) | TokenSinkResult::EncodingIndicator(_) => {
                // html5ever's `feed` returns here and is called again on the same queue.
                self.discard_bom();
            }
        }
        true
    }

    fn discard_tag(&mut self) {
        self.tag_name.clear();
        self.tag_self_closing = false;
        self.tag_had_duplicate_attributes = false;
        self.tag_attrs.clear();
    }

    fn create_tag(&mut self, kind: TagKind, c: char) {
        self.discard_tag();
        self.tag_name.push(c);
        self.tag_kind = kind;
    }

    fn have_appropriate_end_tag(&self) -> bool {
        self.last_start_tag_name
            .as_ref()
            .is_some_and(|last| self.tag_kind == TagKind::EndTag && *self.tag_name == **last)
    }

    fn create_attribute(&mut self, c: char) {
        self.finish_attribute();
        self.attr_name.push(c);
    }

    fn finish_attribute(&mut self) {
        if self.attr_name.is_empty() {
            return;
        }
        let name = self.atoms.get(&self.attr_name);
        self.attr_name.clear();
        if self.tag_attrs.iter().any(|a| a.name.local == name) {
            self.emit_error(Cow::Borrowed("Duplicate attribute"));
            self.tag_had_duplicate_attributes = true;
            self.attr_value.clear();
        } else {
            let value = self.attr_value.take(&self.input);
            self.tag_attrs.push(Attribute {
                // The tree builder adjusts the namespace in foreign elements.
                name: QualName::new(None, ns!(), name),
                value,
            });
        }
    }

    fn push_value_char(&mut self, c: char) {
        self.attr_value.push_char(&self.input, c);
    }

    fn push_comment_char(&mut self, c: char) {
        self.comment.push_char(&self.input, c);
    }

    fn push_comment_str(&mut self, s: &str) {
        self.comment.push_str(&self.input, s);
    }

    fn doctype_id(&mut self, kind: DoctypeIdKind) -> &mut Option<StrTendril> {
        match kind {
            Public => &mut self.doctype.public_id,
            System => &mut self.doctype.system_id,
        }
    }

    fn push_doctype_name(&mut self, c: char) {
        option_push(&mut self.doctype.name, c);
    }

    fn push_doctype_id(&mut self, kind: DoctypeIdKind, c: char) {
        option_push(self.doctype_id(kind), c);
    }

    fn clear_doctype_id(&mut self, kind: DoctypeIdKind) {
        let id = self.doctype_id(kind);
        match id {
            Some(s) => s.clear(),
            None => *id = Some(StrTendril::new()),
        }
    }

    fn create_doctype(&mut self) {
        self.doctype = Doctype::default();
    }

    fn force_quirks(&mut self) {
        self.doctype.force_quirks = true;
    }

    fn start_char_ref(&mut self) {
        let in_attribute = matches!(self.state, State::AttributeValue(_));
        self.char_ref = Some(CharRefState::new(in_attribute));
    }

    fn process_char_ref(&mut self, char_ref: CharRef) {
        let CharRef {
            mut chars,
            mut num_chars,
        } = char_ref;
        if num_chars == 0 {
            chars[0] = '&';
            num_chars = 1;
        }
        for &c in &chars[..usize::from(num_chars)] {
            if let State::AttributeValue(_) = self.state {
                self.push_value_char(c);
            } else {
                self.emit_char(c);
            }
        }
    }

    fn reconsume_in(&mut self, state: State) -> bool {
        self.reconsume = true;
        self.state = state;
        true
    }

    #[inline]
    fn to(&mut self, state: State) -> bool {
        self.state = state;
        true
    }

    // Running.

    /// Steps until the input fed so far is used up.
    fn run(&mut self) {
        loop {
            let progress = match self.char_ref {
                Some(cr) => self.run_char_ref(cr),
                None => self.step(),
            };
            if !progress {
                break;
            }
        }
        // Like html5ever's queue when it returns, everything fed has been read.
        debug_assert!(!self.has_front() && self.pos == self.avail);
        self.front.clear();
        self.front_pos = 0;
        self.flush_text();
    }

    /// Steps the character reference `cr` until it is done (`true`) or needs more input.
    fn run_char_ref(&mut self, mut cr: CharRefState) -> bool {
        loop {
            match self.char_ref_step(&mut cr) {
                Status::Done(char_ref) => {
                    self.char_ref = None;
                    self.process_char_ref(char_ref);
                    return true;
                }
                Status::Stuck => {
                    self.char_ref = Some(cr);
                    return false;
                }
                Status::Progress => {}
            }
        }
    }

    /// Runs the current state until it switches (`true`) or the input runs out (`false`).
    #[inline(always)]
    fn step(&mut self) -> bool {
        match self.state {
            State::Data => loop {
                if self.on_fast_path() && self.pos < self.avail {
                    // html5ever's SIMD data state, on the input.
                    match self.input.as_bytes()[self.pos] {
                        b'\n' => {
                            self.pos += 1;
                            self.current_char = '\n';
                            self.emit_char('\n');
                            continue;
                        }
                        b'<' => return self.tag_open(),
                        b'&' => {
                            self.pos += 1;
                            self.current_char = '&';
                            self.start_char_ref();
                            return true;
                        }
                        b'\r' | b'\0' => {}
                        _ => {
                            let (a, b) = (self.pos, self.scan(DATA));
                            self.pos = b;
                            self.emit_run(a, b);
                            continue;
                        }
                    }
                }
                match self.pop_except_from(DATA, true) {
                    None => return false,
                    Some(Popped::Char('&')) => {
                        self.start_char_ref();
                        return true;
                    }
                    Some(Popped::Char('<')) => return self.to(State::TagOpen),
                    Some(Popped::Char('\0')) => {
                        self.bad_char_error();
                        self.emit_char('\0');
                    }
                    Some(popped) => self.emit_popped(popped),
                }
            },
            State::RawData(Rcdata) => loop {
                match self.pop_except_from(DATA, false) {
                    None => return false,
                    Some(Popped::Char('&')) => {
                        self.start_char_ref();
                        return true;
                    }
                    Some(Popped::Char('<')) => return self.to(State::RawLessThanSign(Rcdata)),
                    Some(Popped::Char('\0')) => {
                        self.bad_char_error();
                        self.emit_char('\u{fffd}');
                    }
                    Some(popped) => self.emit_popped(popped),
                }
            },
            State::RawData(kind @ (Rawtext | ScriptData)) => loop {
                match self.pop_except_from(RAWTEXT, false) {
                    None => return false,
                    Some(Popped::Char('<')) => return self.to(State::RawLessThanSign(kind)),
                    Some(Popped::Char('\0')) => {
                        self.bad_char_error();
                        self.emit_char('\u{fffd}');
                    }
                    Some(popped) => self.emit_popped(popped),
                }
            },
            State::Plaintext => loop {
                match self.pop_except_from(PLAINTEXT, false) {
                    None => return false,
                    Some(Popped::Char('\0')) => {
                        self.bad_char_error();
                        self.emit_char('\u{fffd}');
                    }
                    Some(popped) => self.emit_popped(popped),
                }
            },
            State::TagOpen => match get_char!(self) {
                '!' => self.to(State::MarkupDeclarationOpen),
                '/' => self.to(State::EndTagOpen),
                c if c.is_ascii_alphabetic() => {
                    self.create_tag(TagKind::StartTag, c.to_ascii_lowercase());
                    self.to(State::TagName)
                }
                '?' => {
                    self.bad_char_error();
                    self.comment.clear();
                    self.reconsume_in(State::BogusComment)
                }
                _ => {
                    self.bad_char_error();
                    self.emit_char('<');
                    self.reconsume_in(State::Data)
                }
            },
            State::EndTagOpen => match get_char!(self) {
                c if c.is_ascii_alphabetic() => {
                    self.create_tag(TagKind::EndTag, c.to_ascii_lowercase());
                    self.to(State::TagName)
                }
                '>' => {
                    self.bad_char_error();
                    self.to(State::Data)
                }
                _ => {
                    self.bad_char_error();
                    self.comment.clear();
                    self.reconsume_in(State::BogusComment)
                }
            },
            State::TagName => loop {
                self.take_name_run(TAG_NAME_END, NameBuf::Tag);
                match get_char!(self) {
                    '\t' | '\n' | '\x0C' | ' ' => return self.to(State::BeforeAttributeName),
                    '/' => return self.to(State::SelfClosingStartTag),
                    '>' => return self.emit_tag(),
                    '\0' => {
                        self.bad_char_error();
                        self.tag_name.push('\u{fffd}');
                    }
                    c => self.tag_name.push(c.to_ascii_lowercase()),
                }
            },
            State::RawLessThanSign(ScriptDataEscaped(Escaped)) => match get_char!(self) {
                '/' => {
                    self.temp_buf.clear();
                    self.to(State::RawEndTagOpen(ScriptDataEscaped(Escaped)))
                }
                c => match lower_ascii_letter(c) {
                    Some(lower) => {
                        self.temp_buf.clear();
                        self.temp_buf.push(lower);
                        self.emit_char('<');
                        self.emit_char(c);
                        self.to(State::ScriptDataEscapeStart(DoubleEscaped))
                    }
                    None => {
                        self.emit_char('<');
                        self.reconsume_in(State::RawData(ScriptDataEscaped(Escaped)))
                    }
                },
            },
            State::RawLessThanSign(ScriptDataEscaped(DoubleEscaped)) => match get_char!(self) {
                '/' => {
                    self.temp_buf.clear();
                    self.emit_char('/');
                    self.to(State::ScriptDataDoubleEscapeEnd)
                }
                _ => self.reconsume_in(State::RawData(ScriptDataEscaped(DoubleEscaped))),
            },
            State::RawLessThanSign(kind) => match get_char!(self) {
                '/' => {
                    self.temp_buf.clear();
                    self.to(State::RawEndTagOpen(kind))
                }
                '!' if kind == ScriptData => {
                    self.emit_char('<');
                    self.emit_char('!');
                    self.to(State::ScriptDataEscapeStart(Escaped))
                }
                _ => {
                    self.emit_char('<');
                    self.reconsume_in(State::RawData(kind))
                }
            },
            State::RawEndTagOpen(kind) => {
                let c = get_char!(self);
                if c.is_ascii_alphabetic() {
                    self.create_tag(TagKind::EndTag, c.to_ascii_lowercase());
                    self.temp_buf.push(c);
                    self.to(State::RawEndTagName(kind))
                } else {
                    self.emit_char('<');
                    self.emit_char('/');
                    self.reconsume_in(State::RawData(kind))
                }
            }
            State::RawEndTagName(kind) => loop {
                let c = get_char!(self);
                if self.have_appropriate_end_tag() {
                    match c {
                        '\t' | '\n' | '\x0C' | ' ' => {
                            self.temp_buf.clear();
                            return self.to(State::BeforeAttributeName);
                        }
                        '/' => {
                            self.temp_buf.clear();
                            return self.to(State::SelfClosingStartTag);
                        }
                        '>' => {
                            self.temp_buf.clear();
                            return self.emit_tag();
                        }
                        _ => {}
                    }
                }
                match lower_ascii_letter(c) {
                    Some(lower) => {
                        self.tag_name.push(lower);
                        self.temp_buf.push(c);
                    }
                    None => {
                        self.discard_tag();
                        self.emit_char('<');
                        self.emit_char('/');
                        self.emit_temp_buf();
                        return self.reconsume_in(State::RawData(kind));
                    }
                }
            },
            State::RawData(ScriptDataEscaped(kind)) => loop {
                match self.pop_except_from(SCRIPT_ESCAPED, false) {
                    None => return false,
                    Some(Popped::Char('-')) => {
                        self.emit_char('-');
                        return self.to(State::ScriptDataEscapedDash(kind));
                    }
                    Some(Popped::Char('<')) => {
                        if kind == DoubleEscaped {
                            self.emit_char('<');
                        }
                        return self.to(State::RawLessThanSign(ScriptDataEscaped(kind)));
                    }
                    Some(Popped::Char('\0')) => {
                        self.bad_char_error();
                        self.emit_char('\u{fffd}');
                    }
                    Some(popped) => self.emit_popped(popped),
                }
            },
            State::ScriptDataEscapeStart(Escaped) => match get_char!(self) {
                '-' => {
                    self.emit_char('-');
                    self.to(State::ScriptDataEscapeStartDash)
                }
                _ => self.reconsume_in(State::RawData(ScriptData)),
            },
            State::ScriptDataEscapeStartDash => match get_char!(self) {
                '-' => {
                    self.emit_char('-');
                    self.to(State::ScriptDataEscapedDashDash(Escaped))
                }
                _ => self.reconsume_in(State::RawData(ScriptData)),
            },
            State::ScriptDataEscapedDash(kind) => match get_char!(self) {
                '-' => {
                    self.emit_char('-');
                    self.to(State::ScriptDataEscapedDashDash(kind))
                }
                '<' => {
                    if kind == DoubleEscaped {
                        self.emit_char('<');
                    }
                    self.to(State::RawLessThanSign(ScriptDataEscaped(kind)))
                }
                '\0' => {
                    self.bad_char_error();
                    self.emit_char('\u{fffd}');
                    self.to(State::RawData(ScriptDataEscaped(kind)))
                }
                c => {
                    self.emit_char(c);
                    self.to(State::RawData(ScriptDataEscaped(kind)))
                }
            },
            State::ScriptDataEscapedDashDash(kind) => loop {
                match get_char!(self) {
                    '-' => self.emit_char('-'),
                    '<' => {
                        if kind == DoubleEscaped {
                            self.emit_char('<');
                        }
                        return self.to(State::RawLessThanSign(ScriptDataEscaped(kind)));
                    }
                    '>' => {
                        self.emit_char('>');
                        return self.to(State::RawData(ScriptData));
                    }
                    '\0' => {
                        self.bad_char_error();
                        self.emit_char('\u{fffd}');
                        return self.to(State::RawData(ScriptDataEscaped(kind)));
                    }
                    c => {
                        self.emit_char(c);
                        return self.to(State::RawData(ScriptDataEscaped(kind)));
                    }
                }
            },
            // Double escape start and end: the same steps, the escape kinds swapped.
            state @ (State::ScriptDataEscapeStart(DoubleEscaped)
            | State::ScriptDataDoubleEscapeEnd) => {
                let (current, after_script) = if state == State::ScriptDataDoubleEscapeEnd {
                    (DoubleEscaped, Escaped)
                } else {
                    (Escaped, DoubleEscaped)
                };
                loop {
                    match get_char!(self) {
                        c @ ('\t' | '\n' | '\x0C' | ' ' | '/' | '>') => {
                            let kind = if self.temp_buf == "script" {
                                after_script
                            } else {
                                current
                            };
                            self.emit_char(c);
                            return self.to(State::RawData(ScriptDataEscaped(kind)));
                        }
                        c => match lower_ascii_letter(c) {
                            Some(lower) => {
                                self.temp_buf.push(lower);
                                self.emit_char(c);
                            }
                            None => {
                                return self
                                    .reconsume_in(State::RawData(ScriptDataEscaped(current)));
                            }
                        },
                    }
                }
            }
            State::BeforeAttributeName => loop {
                match get_char!(self) {
                    '\t' | '\n' | '\x0C' | ' ' => {}
                    '/' => return self.to(State::SelfClosingStartTag),
                    '>' => return self.emit_tag(),
                    '\0' => {
                        self.bad_char_error();
                        self.create_attribute('\u{fffd}');
                        return self.to(State::AttributeName);
                    }
                    c => match lower_ascii_letter(c) {
                        Some(lower) => {
                            self.create_attribute(lower);
                            return self.to(State::AttributeName);
                        }
                        None => {
                            if matches!(c, '"' | '\'' | '<' | '=') {
                                self.bad_char_error();
                            }
                            self.create_attribute(c);
                            return self.to(State::AttributeName);
                        }
                    },
                }
            },
            State::AttributeName => loop {
                self.take_name_run(ATTR_NAME_END, NameBuf::Attr);
                match get_char!(self) {
                    '\t' | '\n' | '\x0C' | ' ' => return self.to(State::AfterAttributeName),
                    '/' => return self.to(State::SelfClosingStartTag),
                    '>' => return self.emit_tag(),
                    '=' => return self.to(State::BeforeAttributeValue),
                    '\0' => {
                        self.bad_char_error();
                        self.attr_name.push('\u{fffd}');
                    }
                    c => match lower_ascii_letter(c) {
                        Some(lower) => self.attr_name.push(lower),
                        None => {
                            if matches!(c, '"' | '\'' | '<') {
                                self.bad_char_error();
                            }
                            self.attr_name.push(c);
                        }
                    },
                }
            },
            State::AfterAttributeName => loop {
                match get_char!(self) {
                    '\t' | '\n' | '\x0C' | ' ' => {}
                    '/' => return self.to(State::SelfClosingStartTag),
                    '=' => return self.to(State::BeforeAttributeValue),
                    '>' => return self.emit_tag(),
                    '\0' => {
                        self.bad_char_error();
                        self.create_attribute('\u{fffd}');
                        return self.to(State::AttributeName);
                    }
                    c => match lower_ascii_letter(c) {
                        Some(lower) => {
                            self.create_attribute(lower);
                            return self.to(State::AttributeName);
                        }
                        None => {
                            if matches!(c, '"' | '\'' | '<') {
                                self.bad_char_error();
                            }
                            self.create_attribute(c);
                            return self.to(State::AttributeName);
                        }
                    },
                }
            },
            State::BeforeAttributeValue => loop {
                let Some(c) = self.peek() else {
                    return false;
                };
                match c {
                    '\t' | '\n' | '\r' | '\x0C' | ' ' => self.discard_char(),
                    '"' => {
                        self.discard_char();
                        return self.to(State::AttributeValue(DoubleQuoted));
                    }
                    '\'' => {
                        self.discard_char();
                        return self.to(State::AttributeValue(SingleQuoted));
                    }
                    '>' => {
                        self.discard_char();
                        self.bad_char_error();
                        return self.emit_tag();
                    }
                    _ => return self.to(State::AttributeValue(Unquoted)),
                }
            },
            State::AttributeValue(kind @ (DoubleQuoted | SingleQuoted)) => {
                let (set, quote) = if kind == DoubleQuoted {
                    (ATTR_DOUBLE, '"')
                } else {
                    (ATTR_SINGLE, '\'')
                };
                loop {
                    match self.pop_except_from(set, false) {
                        None => return false,
                        Some(Popped::Char(c)) if c == quote => {
                            return self.to(State::AfterAttributeValueQuoted);
                        }
                        Some(Popped::Char('&')) => {
                            self.start_char_ref();
                            return true;
                        }
                        Some(Popped::Char('\0')) => {
                            self.bad_char_error();
                            self.push_value_char('\u{fffd}');
                        }
                        Some(popped) => self.push_value_popped(popped),
                    }
                }
            }
            State::AttributeValue(Unquoted) => loop {
                match self.pop_except_from(ATTR_UNQUOTED, false) {
                    None => return false,
                    Some(Popped::Char('\t' | '\n' | '\x0C' | ' ')) => {
                        return self.to(State::BeforeAttributeName);
                    }
                    Some(Popped::Char('&')) => {
                        self.start_char_ref();
                        return true;
                    }
                    Some(Popped::Char('>')) => return self.emit_tag(),
                    Some(Popped::Char('\0')) => {
                        self.bad_char_error();
                        self.push_value_char('\u{fffd}');
                    }
                    Some(Popped::Char(c)) => {
                        if matches!(c, '"' | '\'' | '<' | '=' | '`') {
                            self.bad_char_error();
                        }
                        self.push_value_char(c);
                    }
                    Some(popped) => self.push_value_popped(popped),
                }
            },
            State::AfterAttributeValueQuoted => match get_char!(self) {
                '\t' | '\n' | '\x0C' | ' ' => self.to(State::BeforeAttributeName),
                '/' => self.to(State::SelfClosingStartTag),
                '>' => self.emit_tag(),
                _ => {
                    self.bad_char_error();
                    self.reconsume_in(State::BeforeAttributeName)
                }
            },
            State::SelfClosingStartTag => match get_char!(self) {
                '>' => {
                    self.tag_self_closing = true;
                    self.emit_tag()
                }
                _ => {
                    self.bad_char_error();
                    self.reconsume_in(State::BeforeAttributeName)
                }
            },
            State::BogusComment => loop {
                self.take_comment_run(BOGUS_COMMENT_END);
                match get_char!(self) {
                    '>' => {
                        self.emit_comment();
                        return self.to(State::Data);
                    }
                    '\0' => {
                        self.bad_char_error();
                        self.push_comment_char('\u{fffd}');
                    }
                    c => self.push_comment_char(c),
                }
            },
            State::MarkupDeclarationOpen => {
                if eat!(self, "--", false) {
                    self.comment.clear();
                    return self.to(State::CommentStart);
                }
                if eat!(self, "doctype", true) {
                    return self.to(State::Doctype);
                }
                self.flush_text();
                if self
                    .sink
                    .adjusted_current_node_present_but_not_in_html_namespace()
                    && eat!(self, "[CDATA[", false)
                {
                    self.temp_buf.clear();
                    return self.to(State::CdataSection);
                }
                self.bad_char_error();
                self.comment.clear();
                self.to(State::BogusComment)
            }
            State::CommentStart => match get_char!(self) {
                '-' => self.to(State::CommentStartDash),
                '>' => {
                    self.bad_char_error();
                    self.emit_comment();
                    self.to(State::Data)
                }
                '\0' => {
                    self.bad_char_error();
                    self.push_comment_char('\u{fffd}');
                    self.to(State::Comment)
                }
                c => {
                    self.push_comment_char(c);
                    self.to(State::Comment)
                }
            },
            State::CommentStartDash => match get_char!(self) {
                '-' => self.to(State::CommentEnd),
                '>' => {
                    self.bad_char_error();
                    self.emit_comment();
                    self.to(State::Data)
                }
                '\0' => {
                    self.bad_char_error();
                    self.push_comment_str("-\u{fffd}");
                    self.to(State::Comment)
                }
                c => {
                    self.push_comment_char('-');
                    self.push_comment_char(c);
                    self.to(State::Comment)
                }
            },
            State::Comment => loop {
                self.take_comment_run(COMMENT_END);
                match get_char!(self) {
                    '<' => {
                        self.push_comment_char('<');
                        return self.to(State::CommentLessThanSign);
                    }
                    '-' => return self.to(State::CommentEndDash),
                    '\0' => {
                        self.bad_char_error();
                        self.push_comment_char('\u{fffd}');
                    }
                    c => self.push_comment_char(c),
                }
            },
            State::CommentLessThanSign => loop {
                match get_char!(self) {
                    '!' => {
                        self.push_comment_char('!');
                        return self.to(State::CommentLessThanSignBang);
                    }
                    '<' => self.push_comment_char('<'),
                    _ => return self.reconsume_in(State::Comment),
                }
            },
            State::CommentLessThanSignBang => match get_char!(self) {
                '-' => self.to(State::CommentLessThanSignBangDash),
                _ => self.reconsume_in(State::Comment),
            },
            State::CommentLessThanSignBangDash => match get_char!(self) {
                '-' => self.to(State::CommentLessThanSignBangDashDash),
                _ => self.reconsume_in(State::CommentEndDash),
            },
            State::CommentLessThanSignBangDashDash => match get_char!(self) {
                '>' => self.reconsume_in(State::CommentEnd),
                _ => {
                    self.bad_char_error();
                    self.reconsume_in(State::CommentEnd)
                }
            },
            State::CommentEndDash => match get_char!(self) {
                '-' => self.to(State::CommentEnd),
                '\0' => {
                    self.bad_char_error();
                    self.push_comment_str("-\u{fffd}");
                    self.to(State::Comment)
                }
                c => {
                    self.push_comment_char('-');
                    self.push_comment_char(c);
                    self.to(State::Comment)
                }
            },
            State::CommentEnd => loop {
                match get_char!(self) {
                    '>' => {
                        self.emit_comment();
                        return self.to(State::Data);
                    }
                    '!' => return self.to(State::CommentEndBang),
                    '-' => self.push_comment_char('-'),
                    _ => {
                        self.push_comment_str("--");
                        return self.reconsume_in(State::Comment);
                    }
                }
            },
            State::CommentEndBang => match get_char!(self) {
                '-' => {
                    self.push_comment_str("--!");
                    self.to(State::CommentEndDash)
                }
                '>' => {
                    self.bad_char_error();
                    self.emit_comment();
                    self.to(State::Data)
                }
                '\0' => {
                    self.bad_char_error();
                    self.push_comment_str("--!\u{fffd}");
                    self.to(State::Comment)
                }
                c => {
                    self.push_comment_str("--!");
                    self.push_comment_char(c);
                    self.to(State::Comment)
                }
            },
            State::Doctype => match get_char!(self) {
                '\t' | '\n' | '\x0C' | ' ' => self.to(State::BeforeDoctypeName),
                '>' => self.reconsume_in(State::BeforeDoctypeName),
                _ => {
                    self.bad_char_error();
                    self.reconsume_in(State::BeforeDoctypeName)
                }
            },
            State::BeforeDoctypeName => loop {
                match get_char!(self) {
                    '\t' | '\n' | '\x0C' | ' ' => {}
                    '\0' => {
                        self.bad_char_error();
                        self.create_doctype();
                        self.push_doctype_name('\u{fffd}');
                        return self.to(State::DoctypeName);
                    }
                    '>' => {
                        self.bad_char_error();
                        self.create_doctype();
                        self.force_quirks();
                        self.emit_doctype();
                        return self.to(State::Data);
                    }
                    c => {
                        self.create_doctype();
                        self.push_doctype_name(c.to_ascii_lowercase());
                        return self.to(State::DoctypeName);
                    }
                }
            },
            State::DoctypeName => loop {
                match get_char!(self) {
                    '\t' | '\n' | '\x0C' | ' ' => {
                        self.temp_buf.clear();
                        return self.to(State::AfterDoctypeName);
                    }
                    '>' => {
                        self.emit_doctype();
                        return self.to(State::Data);
                    }
                    '\0' => {
                        self.bad_char_error();
                        self.push_doctype_name('\u{fffd}');
                    }
                    c => self.push_doctype_name(c.to_ascii_lowercase()),
                }
            },
            State::AfterDoctypeName => loop {
                if eat!(self, "public", true) {
                    return self.to(State::AfterDoctypeKeyword(Public));
                }
                if eat!(self, "system", true) {
                    return self.to(State::AfterDoctypeKeyword(System));
                }
                match get_char!(self) {
                    '\t' | '\n' | '\x0C' | ' ' => {}
                    '>' => {
                        self.emit_doctype();
                        return self.to(State::Data);
                    }
                    _ => {
                        self.bad_char_error();
                        self.force_quirks();
                        return self.reconsume_in(State::BogusDoctype);
                    }
                }
            },
            State::AfterDoctypeKeyword(kind) => match get_char!(self) {
                '\t' | '\n' | '\x0C' | ' ' => self.to(State::BeforeDoctypeIdentifier(kind)),
                '"' => {
                    self.bad_char_error();
                    self.clear_doctype_id(kind);
                    self.to(State::DoctypeIdentifierDoubleQuoted(kind))
                }
                '\'' => {
                    self.bad_char_error();
                    self.clear_doctype_id(kind);
                    self.to(State::DoctypeIdentifierSingleQuoted(kind))
                }
                '>' => {
                    self.bad_char_error();
                    self.force_quirks();
                    self.emit_doctype();
                    self.to(State::Data)
                }
                _ => {
                    self.bad_char_error();
                    self.force_quirks();
                    self.reconsume_in(State::BogusDoctype)
                }
            },
            State::BeforeDoctypeIdentifier(kind) => loop {
                match get_char!(self) {
                    '\t' | '\n' | '\x0C' | ' ' => {}
                    '"' => {
                        self.clear_doctype_id(kind);
                        return self.to(State::DoctypeIdentifierDoubleQuoted(kind));
                    }
                    '\'' => {
                        self.clear_doctype_id(kind);
                        return self.to(State::DoctypeIdentifierSingleQuoted(kind));
                    }
                    '>' => {
                        self.bad_char_error();
                        self.force_quirks();
                        self.emit_doctype();
                        return self.to(State::Data);
                    }
                    _ => {
                        self.bad_char_error();
                        self.force_quirks();
                        return self.reconsume_in(State::BogusDoctype);
                    }
                }
            },
            State::DoctypeIdentifierDoubleQuoted(kind) => loop {
                match get_char!(self) {
                    '"' => return self.to(State::AfterDoctypeIdentifier(kind)),
                    '\0' => {
                        self.bad_char_error();
                        self.push_doctype_id(kind, '\u{fffd}');
                    }
                    '>' => {
                        self.bad_char_error();
                        self.force_quirks();
                        self.emit_doctype();
                        return self.to(State::Data);
                    }
                    c => self.push_doctype_id(kind, c),
                }
            },
            State::DoctypeIdentifierSingleQuoted(kind) => loop {
                match get_char!(self) {
                    '\'' => return self.to(State::AfterDoctypeIdentifier(kind)),
                    '\0' => {
                        self.bad_char_error();
                        self.push_doctype_id(kind, '\u{fffd}');
                    }
                    '>' => {
                        self.bad_char_error();
                        self.force_quirks();
                        self.emit_doctype();
                        return self.to(State::Data);
                    }
                    c => self.push_doctype_id(kind, c),
                }
            },
            State::AfterDoctypeIdentifier(Public) => match get_char!(self) {
                '\t' | '\n' | '\x0C' | ' ' => {
                    self.to(State::BetweenDoctypePublicAndSystemIdentifiers)
                }
                '>' => {
                    self.emit_doctype();
                    self.to(State::Data)
                }
                '"' => {
                    self.bad_char_error();
                    self.clear_doctype_id(System);
                    self.to(State::DoctypeIdentifierDoubleQuoted(System))
                }
                '\'' => {
                    self.bad_char_error();
                    self.clear_doctype_id(System);
                    self.to(State::DoctypeIdentifierSingleQuoted(System))
                }
                _ => {
                    self.bad_char_error();
                    self.force_quirks();
                    self.reconsume_in(State::BogusDoctype)
                }
            },
            State::BetweenDoctypePublicAndSystemIdentifiers => loop {
                match get_char!(self) {
                    '\t' | '\n' | '\x0C' | ' ' => {}
                    '>' => {
                        self.emit_doctype();
                        return self.to(State::Data);
                    }
                    '"' => {
                        self.clear_doctype_id(System);
                        return self.to(State::DoctypeIdentifierDoubleQuoted(System));
                    }
                    '\'' => {
                        self.clear_doctype_id(System);
                        return self.to(State::DoctypeIdentifierSingleQuoted(System));
                    }
                    _ => {
                        self.bad_char_error();
                        self.force_quirks();
                        return self.reconsume_in(State::BogusDoctype);
                    }
                }
            },
            State::AfterDoctypeIdentifier(System) => loop {
                match get_char!(self) {
                    '\t' | '\n' | '\x0C' | ' ' => {}
                    '>' => {
                        self.emit_doctype();
                        return self.to(State::Data);
                    }
                    _ => {
                        self.bad_char_error();
                        return self.reconsume_in(State::BogusDoctype);
                    }
                }
            },
            State::BogusDoctype => loop {
                match get_char!(self) {
                    '>' => {
                        self.emit_doctype();
                        return self.to(State::Data);
                    }
                    '\0' => self.bad_char_error(),
                    _ => {}
                }
            },
            State::CdataSection => loop {
                self.take_cdata_run();
                match get_char!(self) {
                    ']' => return self.to(State::CdataSectionBracket),
                    '\0' => {
                        self.emit_temp_buf();
                        self.emit_char('\0');
                    }
                    c => self.temp_buf.push(c),
                }
            },
            State::CdataSectionBracket => match get_char!(self) {
                ']' => self.to(State::CdataSectionEnd),
                _ => {
                    self.temp_buf.push(']');
                    self.reconsume_in(State::CdataSection)
                }
            },
            State::CdataSectionEnd => loop {
                match get_char!(self) {
                    ']' => self.temp_buf.push(']'),
                    '>' => {
                        self.emit_temp_buf();
                        return self.to(State::Data);
                    }
                    _ => {
                        self.temp_buf.push_str("]]");
                        return self.reconsume_in(State::CdataSection);
                    }
                }
            },
        }
    }

    /// A run html5ever's `pop_except_from` gave: text.
    fn emit_popped(&mut self, popped: Popped) {
        match popped {
            Popped::Char(c) => self.emit_char(c),
            Popped::Run(a, b) => self.emit_run(a, b),
            Popped::Front(a, b) => self.emit_front(a, b),
        }
    }

    /// A run html5ever's `pop_except_from` gave: attribute value.
    fn push_value_popped(&mut self, popped: Popped) {
        match popped {
            Popped::Char(c) => self.push_value_char(c),
            Popped::Run(a, b) => self.attr_value.push_span(&self.input, a, b),
            Popped::Front(a, b) => self.attr_value.push_str(&self.input, &self.front[a..b]),
        }
    }

    /// `<` in the data state, on the fast path: a start or end tag whose name starts right
    /// after it goes to [`Self::tag_fast`], anything else to the tag open state.
    fn tag_open(&mut self) -> bool {
        let bytes = &self.input.as_bytes()[self.pos..self.avail];
        let (kind, first, len) = match bytes {
            [_, b, ..] if b.is_ascii_alphabetic() => (TagKind::StartTag, *b, 2),
            [_, b'/', b, ..] if b.is_ascii_alphabetic() => (TagKind::EndTag, *b, 3),
            _ => {
                self.pos += 1;
                self.current_char = '<';
                return self.to(State::TagOpen);
            }
        };
        self.pos += len;
        self.create_tag(kind, char::from(first.to_ascii_lowercase()));
        self.tag_fast()
    }

    /// The next input byte, if fed.
    #[inline]
    fn byte(&self) -> Option<u8> {
        self.input.as_bytes()[..self.avail].get(self.pos).copied()
    }

    /// Skips whitespace where the tag states ignore it, `\r` (and a `\n` after it) included
    /// when the byte after it is there; gives the byte after it, if fed.
    fn skip_space(&mut self) -> Option<u8> {
        loop {
            match self.byte()? {
                b'\t' | b'\n' | b'\x0C' | b' ' => self.pos += 1,
                b'\r' => match self.input.as_bytes()[..self.avail].get(self.pos + 1)? {
                    b'\n' => self.pos += 2,
                    _ => self.pos += 1,
                },
                b => return Some(b),
            }
        }
    }

    /// Leaves the tag fast path: the state machine goes on in `state` from `pos`.
    #[inline]
    fn bail(&mut self, state: State) -> bool {
        self.to(state)
    }

    /// The tag name, attribute and self-closing states straight through, from the tag name
    /// state, on the fast path: what the states do on the bytes they meet, without going back
    /// to the state machine between them. Anything else (a parse error, NUL, a character
    /// reference, `\r` where it matters, the end of what was fed) leaves the tag to the state
    /// machine in the state the tag got to.
    fn tag_fast(&mut self) -> bool {
        self.take_name_run(TAG_NAME_END, NameBuf::Tag);
        match self.byte() {
            Some(b'\t' | b'\n' | b'\x0C' | b' ') => self.pos += 1,
            Some(b'/') => return self.self_closing_fast(),
            Some(b'>') => {
                self.pos += 1;
                return self.emit_tag();
            }
            _ => return self.bail(State::TagName),
        }
        'attribute: loop {
            // Before attribute name.
            match self.skip_space() {
                Some(b'/') => return self.self_closing_fast(),
                Some(b'>') => {
                    self.pos += 1;
                    return self.emit_tag();
                }
                Some(b) if b.is_ascii() && !matches!(b, b'\0' | b'"' | b'\'' | b'<' | b'=') => {
                    self.pos += 1;
                    self.create_attribute(char::from(b.to_ascii_lowercase()));
                }
                _ => return self.bail(State::BeforeAttributeName),
            }
            // Attribute name, and after attribute name.
            loop {
                self.take_name_run(ATTR_NAME_END, NameBuf::Attr);
                match self.byte() {
                    Some(b'\t' | b'\n' | b'\x0C' | b' ') => self.pos += 1,
                    Some(b'/') => return self.self_closing_fast(),
                    Some(b'>') => {
                        self.pos += 1;
                        return self.emit_tag();
                    }
                    Some(b'=') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return self.bail(State::AttributeName),
                }
                match self.skip_space() {
                    Some(b'/') => return self.self_closing_fast(),
                    Some(b'=') => {
                        self.pos += 1;
                        break;
                    }
                    Some(b'>') => {
                        self.pos += 1;
                        return self.emit_tag();
                    }
                    Some(b) if b.is_ascii() && !matches!(b, b'\0' | b'"' | b'\'' | b'<') => {
                        self.pos += 1;
                        self.create_attribute(char::from(b.to_ascii_lowercase()));
                    }
                    _ => return self.bail(State::AfterAttributeName),
                }
            }
            // Before attribute value: html5ever peeks and drops whitespace, `\r` raw.
            while let Some(b'\t' | b'\n' | b'\r' | b'\x0C' | b' ') = self.byte() {
                self.pos += 1;
            }
            let (kind, set) = match self.byte() {
                Some(b'"') => (DoubleQuoted, ATTR_DOUBLE),
                Some(b'\'') => (SingleQuoted, ATTR_SINGLE),
                Some(b) if b != b'>' => (Unquoted, ATTR_UNQUOTED),
                _ => return self.bail(State::BeforeAttributeValue),
            };
            if kind != Unquoted {
                self.pos += 1;
            }
            let end = self.scan(set);
            self.attr_value.push_span(&self.input, self.pos, end);
            self.pos = end;
            let stop = self.byte();
            if kind == Unquoted {
                match stop {
                    Some(b'\t' | b'\n' | b'\x0C' | b' ') => {
                        self.pos += 1;
                        continue 'attribute;
                    }
                    Some(b'>') => {
                        self.pos += 1;
                        return self.emit_tag();
                    }
                    _ => return self.bail(State::AttributeValue(Unquoted)),
                }
            }
            let quote = if kind == DoubleQuoted { b'"' } else { b'\'' };
            if stop != Some(quote) {
                return self.bail(State::AttributeValue(kind));
            }
            self.pos += 1;
            // After attribute value (quoted).
            match self.byte() {
                Some(b'\t' | b'\n' | b'\x0C' | b' ') => self.pos += 1,
                Some(b'/') => return self.self_closing_fast(),
                Some(b'>') => {
                    self.pos += 1;
                    return self.emit_tag();
                }
                _ => return self.bail(State::AfterAttributeValueQuoted),
            }
        }
    }

    /// `/` in a tag: `/>` closes it, anything else is the self-closing start tag state's.
    fn self_closing_fast(&mut self) -> bool {
        self.pos += 1;
        if self.byte() == Some(b'>') {
            self.pos += 1;
            self.tag_self_closing = true;
            return self.emit_tag();
        }
        self.bail(State::SelfClosingStartTag)
    }

    /// The input fed and not read yet (what follows anything given back).
    pub(crate) fn available(&self) -> &[u8] {
        &self.input.as_bytes()[self.pos..self.avail]
    }

    /// [`Self::available`] as text.
    pub(crate) fn available_str(&self) -> &str {
        &self.input[self.pos..self.avail]
    }

    /// Reads `n` bytes of the input, which must end on a character boundary.
    pub(crate) fn advance(&mut self, n: usize) {
        self.pos += n;
    }

    /// Whether the next bytes can be read as a run straight from the input: no character to
    /// reconsume, no `\n` to drop, nothing given back.
    #[inline]
    pub(crate) fn on_fast_path(&self) -> bool {
        !self.reconsume && !self.ignore_lf && !self.has_front()
    }

    /// The input bytes from `pos` up to the first byte that ends `run` (one of `TAG_NAME_END`…),
    /// or the end of what was fed.
    fn run_end(&self, run: u8) -> usize {
        let bytes = &self.input.as_bytes()[self.pos..self.avail];
        bytes
            .iter()
            .position(|&b| ENDS[usize::from(b)] & run != 0)
            .map_or(self.avail, |i| self.pos + i)
    }

    /// In the tag name and attribute name states: appends the run of characters that need no
    /// decision, ASCII letters lowered, as the states would one by one.
    fn take_name_run(&mut self, run: u8, buf: NameBuf) {
        if !self.on_fast_path() {
            return;
        }
        let end = self.run_end(run);
        if end == self.pos {
            return;
        }
        let run = &self.input[self.pos..end];
        let name = match buf {
            NameBuf::Tag => &mut self.tag_name,
            NameBuf::Attr => &mut self.attr_name,
        };
        let from = name.len();
        name.push_str(run);
        name[from..].make_ascii_lowercase();
        self.pos = end;
    }

    /// In the comment and bogus comment states: appends the run of characters the state
    /// appends one by one.
    fn take_comment_run(&mut self, run: u8) {
        if !self.on_fast_path() {
            return;
        }
        let end = self.run_end(run);
        if end > self.pos {
            self.comment.push_span(&self.input, self.pos, end);
            self.pos = end;
        }
    }

    /// In the CDATA section state: appends to the temporary buffer the run of characters the
    /// state appends one by one.
    fn take_cdata_run(&mut self) {
        if !self.on_fast_path() {
            return;
        }
        let end = self.run_end(CDATA_END);
        if end > self.pos {
            self.temp_buf.push_str(&self.input[self.pos..end]);
            self.pos = end;
        }
    }

    /// One step at the end of the input (html5ever's `eof_step`); `false` once the
    /// `EOFToken` is sent.
    fn eof_step(&mut self) -> bool {
        match self.state {
            State::Data | State::RawData(Rcdata | Rawtext | ScriptData) | State::Plaintext => {
                self.emit_eof();
                return false;
            }
            State::TagName
            | State::RawData(ScriptDataEscaped(_))
            | State::BeforeAttributeName
            | State::AttributeName
            | State::AfterAttributeName
            | State::AttributeValue(_)
            | State::AfterAttributeValueQuoted
            | State::SelfClosingStartTag
            | State::ScriptDataEscapedDash(_)
            | State::ScriptDataEscapedDashDash(_) => {
                self.bad_eof_error();
                self.state = State::Data;
            }
            State::BeforeAttributeValue => {
                self.reconsume_in(State::AttributeValue(Unquoted));
            }
            State::TagOpen => {
                self.bad_eof_error();
                self.emit_char('<');
                self.state = State::Data;
            }
            State::EndTagOpen => {
                self.bad_eof_error();
                self.emit_char('<');
                self.emit_char('/');
                self.state = State::Data;
            }
            State::RawLessThanSign(ScriptDataEscaped(DoubleEscaped)) => {
                self.state = State::RawData(ScriptDataEscaped(DoubleEscaped));
            }
            State::RawLessThanSign(kind) => {
                self.emit_char('<');
                self.state = State::RawData(kind);
            }
            State::RawEndTagOpen(kind) => {
                self.emit_char('<');
                self.emit_char('/');
                self.state = State::RawData(kind);
            }
            State::RawEndTagName(kind) => {
                self.emit_char('<');
                self.emit_char('/');
                self.emit_temp_buf();
                self.state = State::RawData(kind);
            }
            State::ScriptDataEscapeStart(kind) => {
                self.state = State::RawData(ScriptDataEscaped(kind));
            }
            State::ScriptDataEscapeStartDash => self.state = State::RawData(ScriptData),
            State::ScriptDataDoubleEscapeEnd => {
                self.state = State::RawData(ScriptDataEscaped(DoubleEscaped));
            }
            State::CommentStart
            | State::CommentStartDash
            | State::Comment
            | State::CommentEndDash
            | State::CommentEnd
            | State::CommentEndBang => {
                self.bad_eof_error();
                self.emit_comment();
                self.state = State::Data;
            }
            State::CommentLessThanSign | State::CommentLessThanSignBang => {
                self.reconsume_in(State::Comment);
            }
            State::CommentLessThanSignBangDash => {
                self.reconsume_in(State::CommentEndDash);
            }
            State::CommentLessThanSignBangDashDash => {
                self.reconsume_in(State::CommentEnd);
            }
            State::Doctype | State::BeforeDoctypeName => {
                self.bad_eof_error();
                self.create_doctype();
                self.force_quirks();
                self.emit_doctype();
                self.state = State::Data;
            }
            State::DoctypeName
            | State::AfterDoctypeName
            | State::AfterDoctypeKeyword(_)
            | State::BeforeDoctypeIdentifier(_)
            | State::DoctypeIdentifierDoubleQuoted(_)
            | State::DoctypeIdentifierSingleQuoted(_)
            | State::AfterDoctypeIdentifier(_)
            | State::BetweenDoctypePublicAndSystemIdentifiers => {
                self.bad_eof_error();
                self.force_quirks();
                self.emit_doctype();
                self.state = State::Data;
            }
            State::BogusDoctype => {
                self.emit_doctype();
                self.state = State::Data;
            }
            State::BogusComment => {
                self.emit_comment();
                self.state = State::Data;
            }
            State::MarkupDeclarationOpen => {
                self.bad_char_error();
                self.state = State::BogusComment;
            }
            State::CdataSection => {
                self.emit_temp_buf();
                self.bad_eof_error();
                self.state = State::Data;
            }
            State::CdataSectionBracket => {
                self.temp_buf.push(']');
                self.state = State::CdataSection;
            }
            State::CdataSectionEnd => {
                self.temp_buf.push_str("]]");
                self.state = State::CdataSection;
            }
        }
        true
    }
}

/// Which name a run of name characters goes to.
#[derive(Clone, Copy)]
enum NameBuf {
    Tag,
    Attr,
}

fn option_push(opt: &mut Option<StrTendril>, c: char) {
    match opt {
        Some(s) => s.push_char(c),
        None => *opt = Some(StrTendril::from_char(c)),
    }
}

#[cfg(test)]
mod tests {
    use crate::parity::{Feed, Recorded, compare, tokens};

    /// Both tokenizers agree on `input` fed in chunks of every size up to 8 bytes and whole,
    /// and ended after every chunk.
    fn same_everywhere(input: &str) {
        for chunk in [1, 2, 3, 4, 5, 7, 8, 1 << 20] {
            let chunks = input.len().div_ceil(chunk);
            let stops = std::iter::once(None).chain((1..chunks.min(64)).map(Some));
            for stop_after in stops {
                for scripting in [true, false] {
                    let feed = Feed {
                        chunk,
                        stop_after,
                        scripting,
                    };
                    if let Err(e) = compare(input, &feed) {
                        panic!("{input:?} {feed:?}: {e}");
                    }
                }
            }
        }
    }

    /// The tokens of `input`, adjacent character tokens merged.
    fn whole(input: &str) -> Vec<Recorded> {
        merged(tokens(input, &Feed::default()))
    }

    /// `tokens`, adjacent character tokens merged.
    fn merged(tokens: Vec<Recorded>) -> Vec<Recorded> {
        let mut merged: Vec<Recorded> = Vec::new();
        for token in tokens {
            match (merged.last_mut(), token) {
                (Some(Recorded::Chars(run)), Recorded::Chars(more)) => run.push_str(&more),
                (_, token) => merged.push(token),
            }
        }
        merged
    }

    fn chars(s: &str) -> Recorded {
        Recorded::Chars(s.to_owned())
    }

    fn errors(tokens: &[Recorded]) -> usize {
        tokens.iter().filter(|t| **t == Recorded::Error).count()
    }

    #[test]
    fn character_references_in_text() {
        for input in [
            "a &amp; b &lt;&gt;&quot;&apos;&nbsp;",
            "&notin; &notit; &not &noti &not; &notin",
            "&amp &ampx &amp; &AMP; &Amp; &zz; &zz &; & &# &#; &#x; &#X41; &#x41 &#65 &#65;",
            "&#0; &#x80; &#x81; &#x9F; &#xD800; &#x110000; &#99999999999; &#x0D; &#x0B; &#xFFFE;",
            "&#1114111; &#xFDD0; &#127; &#x7f;x",
            "&CounterClockwiseContourIntegral; &acE; &NotEqualTilde; &fjlig;",
            "&am",
            "&",
            "&#",
            "&#x",
            "&#12",
            "&#x1g",
            "&x",
            "&amp;\r\n",
        ] {
            same_everywhere(input);
        }
        assert_eq!(whole("x&notin;y")[0], chars("x\u{2209}y"));
        assert_eq!(
            whole("x&notit;")[..3],
            [chars("x"), Recorded::Error, chars("\u{ac}it;")]
        );
        assert_eq!(whole("&#x80;")[..2], [Recorded::Error, chars("\u{20ac}")]);
        assert_eq!(whole("&#x81;")[..2], [Recorded::Error, chars("\u{81}")]);
        assert_eq!(whole("&#0;")[..2], [Recorded::Error, chars("\u{fffd}")]);
        assert_eq!(whole("&acE;")[0], chars("\u{223e}\u{333}"));
    }

    #[test]
    fn character_references_in_attributes() {
        for input in [
            "<a href='?a=1&not=2&amp=3&ampx&amp;y&notin;&noti'>",
            "<a title=\"&lt;&#60;&#x3c;&lt\" data-x=&amp;&ampz&amp=&gt>x</a>",
            "<a b='&zz;' c=&#x26;&#>",
            "<a b=&amp",
            "<a b='&no",
        ] {
            same_everywhere(input);
        }
        let Recorded::Tag { attrs, .. } = &whole("<a href='?a=1&not=2&amp;b&notx'>")[0] else {
            panic!("no tag");
        };
        assert_eq!(attrs[0].1, "?a=1&not=2&b&notx");
    }

    #[test]
    fn raw_text_and_script_states() {
        for input in [
            "<title>a &amp; </titl></title >b",
            "<textarea>\r\n x</textarea/><textarea>y</TEXTAREA a=b>",
            "<style>a<b </style x></style>",
            "<script>if (a<b && c</d) {}</script>",
            "<script><!-- x --></script>",
            "<script><!--<script>x</script>y</script>z--></script>",
            "<script><!--<script></script ></script>",
            "<script><!-- a --!> -- <- <!-- </script>",
            "<script><!--<SCRIPT>--></script>",
            "<script><!--<scr\0ipt>\0-\0--\0<\0</script>",
            "<script>\0</script>",
            "<script><!--",
            "<script><!--<script",
            "<script><!--<script>",
            "<script></scr",
            "<script><!--<script></script",
            "<script><!-",
            "<script><!--<script>-",
            "<script><!--<script>--",
            "<script><!--<script><",
            "<script><!--<script></",
            "<xmp><b></xmp>",
            "<iframe><p></iframe>",
            "<noembed>a</noembed>",
            "<noframes><b></noframes>",
            "<noscript><b>x</b></noscript>",
            "<plaintext>a</plaintext><b>\0\r\n",
            // The tree builder counts an error per character token here.
            "<table><plaintext>\n<p>x\n\ny\r\nz",
        ] {
            same_everywhere(input);
        }
    }

    #[test]
    fn comments() {
        for input in [
            "<!-->",
            "<!--->",
            "<!---->",
            "<!-- a -- b --!>",
            "<!--a--!-->",
            "<!--<!--x-->",
            "<!--<!-->",
            "<!--<!---->",
            "<!--<!--->",
            "<!-- \0 -\0 --\0 --!\0 -->",
            "<!--",
            "<!-",
            "<!",
            "<!-- a",
            "<!-- a -",
            "<!-- a --",
            "<!-- a --!",
            "<!--<",
            "<!--<!",
            "<!--<!-",
            "<!--<!--",
            "<!--\r\n\r-->",
            "<?xml version='1.0'?>",
            "</ x>",
            "</>",
            "</",
            "<!x>",
            "<!DOCTYP>",
            "<! -->",
            "a<b",
            "a < b",
            "<",
            "<\0",
            "</\0>",
            "<a\0b c\0d=\0>",
        ] {
            same_everywhere(input);
        }
        assert_eq!(
            whole("<!-->")[..2],
            [Recorded::Error, Recorded::Comment(String::new())]
        );
    }

    #[test]
    fn doctypes() {
        for input in [
            "<!DOCTYPE html>",
            "<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\">",
            "<!DOCTYPE html SYSTEM 'about:legacy-compat'>",
            "<!DOCTYPE html PUBLIC'x''y'>",
            "<!DOCTYPE html PUBLIC \"x\"'y'>",
            "<!DOCTYPE html public>",
            "<!DOCTYPE html system \"x>",
            "<!DOCTYPE html bogus x>",
            "<!DOCTYPE>",
            "<!DOCTYPEhtml>",
            "<!DOCTYPE \0>",
            "<!DOCTYPE html\r\nPUBLIC\r\n'a'\r\n'b'>",
            "<!DOCTYPE",
            "<!DOCTYPE ",
            "<!DOCTYPE h",
            "<!DOCTYPE h ",
            "<!DOCTYPE h P",
            "<!DOCTYPE h PUBLIC",
            "<!DOCTYPE h PUBLIC ",
            "<!DOCTYPE h PUBLIC \"a",
            "<!DOCTYPE h PUBLIC \"a\"",
            "<!DOCTYPE h PUBLIC \"a\" ",
            "<!DOCTYPE h PUBLIC \"a\" 'b",
            "<!DOCTYPE h SYSTEM 'b' ",
            "<!DOCTYPE h SYSTEM 'b' x",
            "<!DOCTYPE h x",
            "<!DOCTYPE h SYSTEM\0'\0'>",
        ] {
            same_everywhere(input);
        }
        assert_eq!(
            whole("<!DOCTYPE HTML>")[0],
            Recorded::Doctype(Some("html".to_owned()), None, None, false)
        );
    }

    #[test]
    fn cdata_in_foreign_content_only() {
        for input in [
            "<svg><![CDATA[a<b]]]>c]]></svg>",
            "<math><![CDATA[x]] ]>y]]>z",
            "<svg><![CDATA[]]></svg>",
            "<svg><![CDATA[\0a\0]]>",
            "<p><![CDATA[x]]></p>",
            "<svg><![cdata[x]]>",
            "<svg><![CDATA[",
            "<svg><![CDATA[x",
            "<svg><![CDATA[x]",
            "<svg><![CDATA[x]]",
            "<svg><![CD",
            "<svg><foreignObject><![CDATA[x]]></svg>",
            "<pre><svg></svg>\nx</pre>",
        ] {
            same_everywhere(input);
        }
        assert_eq!(
            whole("<svg><![CDATA[a<b]]></svg>")[1],
            chars("a<b"),
            "in SVG, CDATA is text"
        );
        assert!(
            matches!(&whole("<p><![CDATA[x]]></p>")[2], Recorded::Comment(c) if c == "[CDATA[x]]"),
            "in HTML, a bogus comment"
        );
    }

    #[test]
    fn tags_and_attributes() {
        for input in [
            "<DIV Class=A ID='b' data-X=\"c\" hidden>x</DIV>",
            "<a b c=d e = 'f' g=\"h\"/>",
            "<a/b/c>",
            "<a b='c'd>",
            "<a =b>",
            "<a \"b'c<d=e>",
            "<a b=c\"d'e<f=g`h>",
            "<a a=1 A=2 a='3'>",
            "</a b=c>",
            "</a/>",
            "<br/ >",
            "<a b=>",
            "<a b= >",
            "<a b='x'/>",
            "<a\r\nb\rc\r\n=\r\nd\r>",
            "<a b=\r\n'c'>",
            "<a",
            "<a ",
            "<a b",
            "<a b ",
            "<a b=",
            "<a b='",
            "<a b='c'",
            "<a b=c",
            "<a/",
            "<a b='c' ",
            "<ab\u{e9}c d\u{e9}=\u{e9}>",
            "<\u{e9}>",
            "<a b=\0>",
            "<meta charset=utf-8>\u{feff}x",
            "<script></script>\u{feff}x",
            "<head><meta http-equiv=content-type content='text/html; charset=x'>\u{feff}y",
        ] {
            same_everywhere(input);
        }
        assert_eq!(
            whole("<a a=1 A=2>")[..2],
            [
                Recorded::Error,
                Recorded::Tag {
                    start: true,
                    name: "a".to_owned(),
                    self_closing: false,
                    attrs: vec![("a".to_owned(), "1".to_owned())],
                    had_duplicate_attributes: true,
                }
            ]
        );
    }

    #[test]
    fn newlines_nul_and_byte_order_marks() {
        for input in [
            "a\r\nb\rc\n\rd\r\r\ne\r",
            "\r\n\r\n",
            "<pre>\r\nx</pre>",
            "<pre>\n\nx</pre>",
            "<textarea>\r\n\r\nx</textarea>",
            "<listing>\rx</listing>",
            "a\0b",
            "\0",
            "<p>\0</p>",
            "\u{feff}a\u{feff}b",
            "\u{feff}",
            "<title>\0\r\n</title>",
            "<pre>&#10;x</pre>",
            "<pre>\0\nx</pre>",
            "<pre>&amp;\nx</pre>",
        ] {
            same_everywhere(input);
        }
        assert_eq!(whole("a\r\nb\rc")[0], chars("a\nb\nc"));
        let nul = whole("a\0b");
        assert_eq!(
            nul[..4],
            [chars("a"), Recorded::Error, Recorded::Null, chars("b")]
        );
        let cut = tokens("a\r\nbc\n\nd<p>\ne&amp;", &Feed::default());
        let texts = ["a", "\n", "b", "c\n\nd", "\n", "e", "&"].map(chars);
        assert_eq!(cut[..4], texts[..4], "cut where html5ever cuts");
        assert_eq!(cut[5..8], texts[4..]);
        assert_eq!(
            errors(&whole("<p>a</b>")),
            0,
            "tree builder errors are not tokens"
        );
    }

    #[test]
    fn end_of_input_in_every_state() {
        // Every prefix of a page that goes through most states ends the input in one of them.
        let page = "<!DOCTYPE html PUBLIC \"a\" 'b'><html><!-- c -- d --!><title>t &amp; u</title>\
                    <script><!--<script>x</script>--></script><style>s</style>\
                    <p id=a class='b c' data-d=\"e&amp;f\" hidden/>x &notin; &#x41; &#65 y\
                    <svg><![CDATA[z]]></svg><?pi?></p></ br><plaintext>w";
        for end in (0..=page.len()).filter(|&i| page.is_char_boundary(i)) {
            same_everywhere(&page[..end]);
        }
    }

    #[test]
    fn tokens_left_for_the_next_chunk_are_not_lost() {
        let feed = Feed {
            chunk: 1,
            ..Feed::default()
        };
        let html = "<p title=\"x&amp;y\">a&notin;b</p><!--c-->";
        assert_eq!(merged(tokens(html, &feed)), whole(html));
    }

    /// Random inputs: pieces of markup ([`crate::parity::MARKUP_PIECES`]) and arbitrary characters.
    fn html() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            3 => proptest::sample::select(crate::parity::MARKUP_PIECES).prop_map(str::to_owned),
            1 => any::<char>().prop_map(String::from),
        ];
        proptest::collection::vec(piece, 0..48).prop_map(|pieces| pieces.concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(2000))]

        #[test]
        fn random_html_gives_the_same_tokens(
            input in html(),
            chunk in proptest::prop_oneof![1usize..12, proptest::strategy::Just(1 << 20)],
            stop_after in proptest::option::of(1usize..40),
            scripting: bool,
        ) {
            let feed = Feed { chunk, stop_after, scripting };
            if let Err(e) = compare(&input, &feed) {
                proptest::prop_assert!(false, "{input:?} {feed:?}: {e}");
            }
        }
    }
}

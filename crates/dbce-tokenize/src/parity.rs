//! html5ever's tokenizer and [`Tokenizer`] side by side (feature `parity`): both drive an
//! html5ever `TreeBuilder` over the same input, fed in the same chunks, and the tokens each
//! gives the tree builder are recorded and compared.
//!
//! The tree builder answers both tokenizers (raw text after `<title>`, `<script>`…, PLAINTEXT,
//! CDATA in foreign content), so the comparison covers the states a real parse reaches. It
//! builds no tree: its sink only keeps element names.
//!
//! ```
//! use dbce_tokenize::parity::{Feed, compare};
//!
//! let feed = Feed { chunk: 3, ..Feed::default() };
//! assert!(compare("<p title='a&amp;b'>x&notin;y<!-- c --></p>", &feed).is_ok());
//! ```

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, QualName, local_name, ns};

use crate::Tokenizer;

/// Pieces of markup that random pages for the parity tests are made of: tags that switch the
/// tokenizer's state (raw text, PLAINTEXT, foreign content), comment, DOCTYPE and CDATA
/// delimiters, character references and their prefixes, quotes, line breaks, NUL and U+FEFF.
pub const MARKUP_PIECES: &[&str] = &[
    "<p>",
    "</p>",
    "<div class=\"x\">",
    "<a href='y'>",
    "<b>",
    "</b>",
    "<i>",
    "<table>",
    "<tr>",
    "<td>",
    "</table>",
    "<pre>",
    "</pre>",
    "<textarea>",
    "</textarea>",
    "<title>",
    "</title>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<svg>",
    "</svg>",
    "<math>",
    "<mi>",
    "<annotation-xml encoding=text/html>",
    "<foreignObject>",
    "<plaintext>",
    "<xmp>",
    "</xmp>",
    "<noscript>",
    "</noscript>",
    "<template>",
    "</template>",
    "<select>",
    "<option>",
    "<frameset>",
    "<iframe>",
    "</iframe>",
    "<meta charset=utf-8>",
    "<head>",
    "<body>",
    "<html>",
    "<![CDATA[",
    "]]>",
    "<!--",
    "-->",
    "--!>",
    "<!DOCTYPE html>",
    "<!doctype",
    " PUBLIC ",
    " SYSTEM ",
    "\"",
    "'",
    "=",
    "&",
    "&amp;",
    "&notin;",
    "&not",
    "&noti",
    "&#",
    "&#x",
    "41",
    "9F",
    ";",
    "\r",
    "\n",
    "\r\n",
    "\0",
    "\u{feff}",
    " ",
    "\t",
    "/",
    ">",
    "<",
    "</",
    "!",
    "-",
    "--",
    "?",
    "]",
    "a",
    "B",
    "script",
    "x",
    "\u{e9}",
    "\u{1f600}",
    "`",
    "</div>",
    "</a>",
    "&#x80;",
    "text",
];

/// A token as the tree builder received it. Adjacent character tokens are merged in raw text
/// (from a start tag the tree builder answered with a raw text state to the next tag), where
/// the tree builder appends them to one text however they are cut, except that an empty one
/// starting a run is kept apart (it takes the "drop the newline after `<textarea>`" turn).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// Text.
    Chars(String),
    /// `NullCharacterToken`.
    Null,
    /// A start or end tag.
    Tag {
        /// Start tag.
        start: bool,
        /// Its name.
        name: String,
        /// `<… />`.
        self_closing: bool,
        /// Attribute names and values, in order.
        attrs: Vec<(String, String)>,
        /// Whether duplicate attributes were dropped.
        had_duplicate_attributes: bool,
    },
    /// A comment.
    Comment(String),
    /// A DOCTYPE: name, public id, system id, force-quirks.
    Doctype(Option<String>, Option<String>, Option<String>, bool),
    /// The end of the input.
    Eof,
    /// A parse error (the message is not compared).
    Error,
}

/// How both tokenizers are fed.
#[derive(Debug, Clone)]
pub struct Feed {
    /// Bytes per chunk (rounded to character boundaries as `dbce_dom` does).
    pub chunk: usize,
    /// End the input after this many chunks, as a parse stopped by a limit does.
    pub stop_after: Option<usize>,
    /// The tree builder's `scripting_enabled`.
    pub scripting: bool,
}

impl Default for Feed {
    fn default() -> Self {
        Self {
            chunk: 16 * 1024,
            stop_after: None,
            scripting: true,
        }
    }
}

/// The first difference between the two token streams.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("token {index} differs: html5ever {theirs:?}, dbce-tokenize {ours:?}")]
pub struct Mismatch {
    /// Index in the recorded streams.
    pub index: usize,
    /// What html5ever's tokenizer gave (`None`: its stream ended).
    pub theirs: Option<Box<Recorded>>,
    /// What [`Tokenizer`] gave.
    pub ours: Option<Box<Recorded>>,
}

/// Compares the token streams of both tokenizers on `input`; returns how many tokens (as
/// recorded) both gave.
///
/// # Errors
///
/// [`Mismatch`] at the first token that differs.
pub fn compare(input: &str, feed: &Feed) -> Result<usize, Mismatch> {
    let theirs = html5ever_tokens(input, feed);
    let ours = tokens(input, feed);
    let index = theirs.iter().zip(&ours).take_while(|(a, b)| a == b).count();
    if index == theirs.len() && index == ours.len() {
        return Ok(index);
    }
    Err(Mismatch {
        index,
        theirs: theirs.get(index).cloned().map(Box::new),
        ours: ours.get(index).cloned().map(Box::new),
    })
}

/// The chunk ends `dbce_dom` feeds `input` in, `feed.chunk` bytes each at character
/// boundaries, up to `feed.stop_after` chunks.
fn chunk_ends(input: &str, feed: &Feed) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut fed = 0;
    while fed < input.len() && feed.stop_after.is_none_or(|n| ends.len() < n) {
        let end = input
            .floor_char_boundary(fed + feed.chunk.max(1))
            .max(fed + 1);
        fed = input.ceil_char_boundary(end);
        ends.push(fed);
    }
    ends
}

fn tree_builder(feed: &Feed) -> Recorder<TreeBuilder<Handle, NameSink>> {
    let opts = TreeBuilderOpts {
        scripting_enabled: feed.scripting,
        drop_doctype: true,
        ..TreeBuilderOpts::default()
    };
    Recorder::new(TreeBuilder::new(NameSink::default(), opts))
}

/// The tokens html5ever's `Tokenizer` gives a tree builder on `input`.
pub fn html5ever_tokens(input: &str, feed: &Feed) -> Vec<Recorded> {
    let tokenizer =
        html5ever::tokenizer::Tokenizer::new(tree_builder(feed), TokenizerOpts::default());
    let queue = BufferQueue::default();
    let mut fed = 0;
    for end in chunk_ends(input, feed) {
        queue.push_back(StrTendril::from_slice(&input[fed..end]));
        fed = end;
        // As html5ever's driver does: fed again after a `<script>` or a charset.
        while !matches!(tokenizer.feed(&queue), html5ever::TokenizerResult::Done) {}
    }
    tokenizer.end();
    tokenizer.sink.tokens.take()
}

/// The tokens [`Tokenizer`] gives a tree builder on `input`.
pub fn tokens(input: &str, feed: &Feed) -> Vec<Recorded> {
    let mut tokenizer = Tokenizer::new(tree_builder(feed), StrTendril::from_slice(input));
    for end in chunk_ends(input, feed) {
        tokenizer.feed_to(end);
    }
    tokenizer.end();
    tokenizer.into_sink().tokens.take()
}

/// A [`TokenSink`] recording the tokens it passes on.
struct Recorder<S> {
    inner: S,
    tokens: RefCell<Vec<Recorded>>,
    /// The last token was a character token.
    in_chars: Cell<bool>,
    /// In raw text: the last tag was answered with a raw text state.
    in_raw_text: Cell<bool>,
}

impl<S> Recorder<S> {
    fn new(inner: S) -> Self {
        Self {
            inner,
            tokens: RefCell::new(Vec::new()),
            in_chars: Cell::new(false),
            in_raw_text: Cell::new(false),
        }
    }

    fn record(&self, token: &Token) {
        let mut tokens = self.tokens.borrow_mut();
        let recorded = match token {
            Token::CharacterTokens(text) => {
                let was_in_chars = self.in_chars.replace(true) && self.in_raw_text.get();
                match tokens.last_mut() {
                    Some(Recorded::Chars(run)) if was_in_chars && !run.is_empty() => {
                        run.push_str(text);
                        return;
                    }
                    Some(Recorded::Chars(_)) if was_in_chars && text.is_empty() => return,
                    _ => Recorded::Chars(text.to_string()),
                }
            }
            Token::NullCharacterToken => Recorded::Null,
            Token::TagToken(tag) => Recorded::Tag {
                start: tag.kind == TagKind::StartTag,
                name: tag.name.to_string(),
                self_closing: tag.self_closing,
                attrs: tag
                    .attrs
                    .iter()
                    .map(|a| (a.name.local.to_string(), a.value.to_string()))
                    .collect(),
                had_duplicate_attributes: tag.had_duplicate_attributes,
            },
            Token::CommentToken(text) => Recorded::Comment(text.to_string()),
            Token::DoctypeToken(d) => Recorded::Doctype(
                d.name.as_ref().map(ToString::to_string),
                d.public_id.as_ref().map(ToString::to_string),
                d.system_id.as_ref().map(ToString::to_string),
                d.force_quirks,
            ),
            Token::EOFToken => Recorded::Eof,
            Token::ParseError(_) => Recorded::Error,
        };
        if !matches!(token, Token::CharacterTokens(_)) {
            self.in_chars.set(false);
        }
        tokens.push(recorded);
    }
}

impl<S: TokenSink> TokenSink for Recorder<S> {
    type Handle = S::Handle;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<S::Handle> {
        self.record(&token);
        let tag = matches!(token, Token::TagToken(_));
        let result = self.inner.process_token(token, line_number);
        if tag {
            self.in_raw_text
                .set(matches!(result, TokenSinkResult::RawData(_)));
        }
        result
    }

    fn end(&self) {
        self.inner.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.inner
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// An element as [`NameSink`] knows it.
#[derive(Clone)]
struct Handle {
    id: usize,
    name: Rc<QualName>,
    integration_point: bool,
}

/// A [`TreeSink`] that builds no tree: it numbers nodes and keeps element names, all the
/// tree builder asks of it.
#[derive(Default)]
struct NameSink {
    next_id: Cell<usize>,
}

impl NameSink {
    fn node(&self, name: QualName, integration_point: bool) -> Handle {
        let id = self.next_id.get() + 1;
        self.next_id.set(id);
        Handle {
            id,
            name: Rc::new(name),
            integration_point,
        }
    }
}

fn no_name() -> QualName {
    QualName::new(None, ns!(), local_name!(""))
}

impl TreeSink for NameSink {
    type Handle = Handle;
    type Output = ();
    type ElemName<'a> = &'a QualName;

    fn finish(self) {}

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        Handle {
            id: 0,
            name: Rc::new(no_name()),
            integration_point: false,
        }
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> &'a QualName {
        &target.name
    }

    fn create_element(&self, name: QualName, _: Vec<Attribute>, flags: ElementFlags) -> Handle {
        self.node(name, flags.mathml_annotation_xml_integration_point)
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        self.node(no_name(), false)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        self.node(no_name(), false)
    }

    fn append(&self, _parent: &Handle, _child: NodeOrText<Handle>) {}

    fn append_based_on_parent_node(&self, _: &Handle, _: &Handle, _: NodeOrText<Handle>) {}

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, _target: &Handle) -> Handle {
        self.node(no_name(), false)
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.id == y.id
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, _sibling: &Handle, _new_node: NodeOrText<Handle>) {}

    fn add_attrs_if_missing(&self, _target: &Handle, _attrs: Vec<Attribute>) {}

    fn remove_from_parent(&self, _target: &Handle) {}

    fn reparent_children(&self, _node: &Handle, _new_parent: &Handle) {}

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        handle.integration_point
    }
}

//! A byte-oriented HTML5 tokenizer (WHATWG HTML §13.2.5) that drives html5ever's tree builder.
//!
//! html5ever's tokenizer reads tags, attribute names and values, comments and character
//! references one `char` at a time, pushing each onto a tendril (servo/html5ever#286); on our
//! pages it was about a third of the parse. [`Tokenizer`] is the same state machine, state for
//! state and parse error for parse error, but it reads runs of bytes: `memchr` finds the end
//! of a run of text or of an attribute value, a byte table the end of a tag or attribute name,
//! and the run is taken as one slice of the input (text and attribute values without a copy).
//!
//! It drives any [`html5ever::tokenizer::TokenSink`], in particular html5ever's
//! [`html5ever::tree_builder::TreeBuilder`], so the tree is still built by html5ever:
//!
//! ```
//! use std::cell::Cell;
//! use html5ever::tendril::StrTendril;
//! use html5ever::tokenizer::{Token, TokenSink, TokenSinkResult};
//! use dbce_tokenize::Tokenizer;
//!
//! /// Counts start tags.
//! struct Tags(Cell<usize>);
//!
//! impl TokenSink for Tags {
//!     type Handle = ();
//!     fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
//!         if let Token::TagToken(tag) = token {
//!             self.0.set(self.0.get() + usize::from(tag.kind == html5ever::tokenizer::StartTag));
//!         }
//!         TokenSinkResult::Continue
//!     }
//! }
//!
//! let html = "<p class=a>one &amp; <b>two</b></p>";
//! let mut tokenizer = Tokenizer::new(Tags(Cell::new(0)), StrTendril::from_slice(html));
//! tokenizer.feed_to(html.len());
//! tokenizer.end();
//! assert_eq!(tokenizer.sink().0.get(), 2);
//! ```
//!
//! The token stream is html5ever 0.40's with its default options (`exact_errors` off, a
//! leading U+FEFF dropped), quirks included; [`Tokenizer`] lists them, and `parity` (feature
//! `parity`) compares the two tokenizers on any input.

mod atoms;
#[cfg(any(test, feature = "parity"))]
pub mod parity;
mod span;
mod tokenizer;

pub use tokenizer::Tokenizer;

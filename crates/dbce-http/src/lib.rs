//! Turns the block of a WARC response record into the page's HTML as UTF-8: HTTP status and
//! headers, transfer and content decoding, charset resolution.
//!
//! Three steps, each usable alone:
//!
//! 1. [`parse_response`] splits a block into an [`HttpResponse`]: version, status, reason,
//!    [`Headers`](dbce_warc::Headers) and the still-encoded body. A block that is not an HTTP
//!    response gives [`HttpError::NotHttp`].
//! 2. [`decode_body`] undoes `Transfer-Encoding: chunked` and the content codings
//!    ([`ContentCoding`]) into a [`DecodedBody`], whose [`DecodeReport`] tells which fallbacks
//!    were taken for damaged or mislabelled bodies. Output is bounded by [`HttpLimits`].
//! 3. [`decode_html`] chooses the page's encoding as the HTML standard does (byte order mark,
//!    HTTP charset, `<meta>` prescan, then detection; see [`CharsetSource`]) and returns the text
//!    as a [`DecodedHtml`].
//!
//! [`is_html`] tells HTML pages from other payloads. All failures are [`HttpError`] values.
//!
//! ```
//! use dbce_http::{CharsetSource, HttpLimits, decode_body, decode_html, is_html, parse_response};
//!
//! let block = b"HTTP/1.1 200 OK\r\n\
//!     Content-Type: text/html; charset=ISO-8859-1\r\n\
//!     Transfer-Encoding: chunked\r\n\
//!     \r\n\
//!     7\r\n<p>caf\xe9\r\n0\r\n\r\n";
//! let limits = HttpLimits::default();
//! let response = parse_response(block, &limits)?;
//! assert_eq!(response.status, 200);
//!
//! let body = decode_body(&response, &limits)?;
//! assert!(body.report.is_clean());
//! assert!(is_html(response.content_type(), &body.bytes));
//!
//! let html = decode_html(&body.bytes, response.content_type());
//! assert_eq!(html.text, "<p>café");
//! assert_eq!(html.encoding, encoding_rs::WINDOWS_1252);
//! assert_eq!(html.source, CharsetSource::Http);
//! # Ok::<(), dbce_http::HttpError>(())
//! ```
#![deny(missing_docs)]

mod body;
mod charset;
mod coding;
mod decompress;
mod error;
mod limits;
mod mime;
mod prescan;
mod response;
mod sniff;
mod transfer;

pub use body::{CodingStep, DecodeReport, DecodedBody, decode_body};
pub use charset::{CharsetSource, DecodedHtml, decode_html, decode_html_with_tld};
pub use coding::{CodingStatus, ContentCoding};
pub use error::HttpError;
pub use limits::HttpLimits;
pub use response::{HttpResponse, HttpVersion, parse_response};
pub use sniff::is_html;
pub use transfer::TransferOutcome;

//! A captured page as dbce's stages know it: its HTML from an archive record, its identity,
//! site, capture time, source and signature.
//!
//! [`captured_html`] turns a WARC `response` or `resource` record into a [`CapturedHtml`]
//! (URL, [`SiteKey`], [`Timestamp`], the HTML decoded to UTF-8) or says why it is no page
//! ([`NotAPage`]). [`PageRef`] is everything later stages need of a page without rereading the
//! archive: its [`PageId`] (from the `WARC-Record-ID`), URL, site, capture time, payload digest
//! ([`PayloadDigest`]), where its record lies ([`Source`] in input file [`FileId`]), its MinHash
//! signature and its page type. Stage `read` makes them; every later stage and the report read
//! them. [`PageFetcher`] reads a page's record back from its archive by that locator (a record
//! inside a whole-file gzip member by its decompressed stream offset).
//!
//! ```
//! use dbce_page::{PageId, SiteKey, Timestamp};
//!
//! assert_eq!(SiteKey::of_host("www.bbc.co.uk").0, "bbc.co.uk");
//! let captured = Timestamp::from_warc_date("2024-05-01T12:00:00Z").unwrap();
//! assert_eq!(captured.iso8601(), "2024-05-01T12:00:00Z");
//! let id = PageId::from_record_id("<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>");
//! assert_eq!(id.to_string().len(), 32);
//! ```
#![deny(missing_docs)]

mod fetch;
mod html;
mod page;

pub use fetch::{PageFetcher, RefetchError};
pub use html::{CapturedHtml, NotAPage, captured_html};
pub use page::{FileId, PageId, PageRef, PayloadDigest, SiteKey, Source, Timestamp, position};

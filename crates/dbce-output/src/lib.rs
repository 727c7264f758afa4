//! The records a run writes: the JSONL record of a page, its WARC conversion record, the
//! `warcinfo` record and CDXJ lines.
//!
//! [`TextRecord::of`] turns an annotated page into the line of `text/part-PART.jsonl.gz`
//! (`docs/formats.md`), which the Python package and the report build too.
//! [`conversion_record`] makes the page's text a WARC `conversion` record that refers to the
//! source record, [`Warcinfo`] heads a part's WARC file, and [`cdxj_line`] indexes a
//! written conversion record as cdxj-indexer would. Record ids are version-5 UUIDs of names
//! ([`record_id`]), so reruns write the same bytes. Stage `finish` writes the files, one part
//! per partition; [`merge_sorted_lines`] merges the parts' sorted CDXJ into one index.
//!
//! ```
//! let id = dbce_output::record_id("<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>");
//! assert_eq!(id, "<urn:uuid:4fb7bd3f-799c-5aeb-bf04-43f87d5421af>");
//! let info = dbce_output::Warcinfo::new("part-00000.warc.gz", "fingerprint").record();
//! assert_eq!(info.fields.get("WARC-Filename"), Some("part-00000.warc.gz"));
//! ```
#![deny(missing_docs)]

mod merge;
mod text;
mod warc;

pub use merge::{MergeError, merge_sorted_lines};
pub use text::{CrossMember, RunCounts, SourceCoordinates, TextRecord};
pub use warc::{Warcinfo, cdxj_line, conversion_record, record_id};

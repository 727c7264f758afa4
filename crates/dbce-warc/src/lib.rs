//! WARC and ARC records and CDX(J) lines: streaming read with exact file offsets, write, record
//! locators.
//!
//! The principal types are [`WarcReader`], which reads uncompressed, gzip (per record or whole
//! file) and zstd archives and yields [`Entry`] values — a [`Record`] with its
//! [`RecordLocator`] in the file, or a [`Skip`] saying what was wrong and where — and
//! [`WarcWriter`], which writes WARC/1.1 records one gzip member each.
//!
//! ```
//! use dbce_warc::{Entry, Headers, NewRecord, ReaderConfig, RecordType, WarcReader, WarcWriter};
//!
//! let mut writer = WarcWriter::new(Vec::new());
//! let mut fields = Headers::new();
//! fields.push("WARC-Record-ID", "<urn:uuid:00000000-0000-0000-0000-000000000001>");
//! fields.push("WARC-Date", "2024-01-01T00:00:00Z");
//! fields.push("Content-Type", "text/plain");
//! writer.write_record(&NewRecord { record_type: RecordType::Resource, fields, block: b"hi".to_vec() })?;
//! let bytes = writer.finish()?;
//!
//! let reader = WarcReader::new(std::io::Cursor::new(bytes), ReaderConfig::default())?;
//! for entry in reader {
//!     match entry? {
//!         Entry::Record(record) => assert_eq!(record.body.bytes(), Some(&b"hi"[..])),
//!         Entry::Skip(skip) => panic!("unexpected skip: {skip}"),
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod arc;
mod cdx;
mod config;
pub mod digest;
mod error;
mod headers;
mod input;
mod reader;
mod record;
mod stream;
mod surt;
mod writer;

pub use cdx::{CDX11_HEADER, CdxError, CdxLine, INDEXED_TYPES};
pub use config::ReaderConfig;
pub use digest::DigestCheck;
pub use error::{Error, ReadWarning, Skip, SkipKind, SkipReason};
pub use headers::{HeaderError, Headers};
pub use reader::{Digests, Entry, WarcReader};
pub use record::{ArchiveFormat, Body, Record, RecordHeader, RecordLocator, RecordType};
pub use stream::Compression;
pub use surt::surt;
pub use writer::{NewRecord, WarcWriter};

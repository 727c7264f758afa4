//! Writing WARC/1.1 records, one gzip member each.

use std::io::{self, Write};

use flate2::Compression;
use flate2::write::GzEncoder;
use sha1::{Digest as _, Sha1};

use crate::{Headers, RecordLocator, RecordType, digest};

/// A record to be written: its type, its header fields and its block.
///
/// The writer adds `WARC-Type`, `Content-Length` and `WARC-Block-Digest` itself (and
/// `WARC-Payload-Digest` for `response`, `request` and `revisit` records holding an HTTP
/// message), replacing any given values. The caller gives at least `WARC-Record-ID` and
/// `WARC-Date`.
#[derive(Debug, Clone)]
pub struct NewRecord {
    /// The record type.
    pub record_type: RecordType,
    /// Header fields other than those the writer computes.
    pub fields: Headers,
    /// The record block.
    pub block: Vec<u8>,
}

impl NewRecord {
    /// The `response` record of an HTML page as a server sends it (`HTTP/1.1 200 OK`,
    /// `Content-Type: text/html; charset=utf-8`, the body's length), captured from `uri` at
    /// `date` (a `WARC-Date`) and named `record_id`.
    pub fn html_response(record_id: &str, date: &str, uri: &str, html: &[u8]) -> Self {
        let mut block = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\
             Content-Length: {}\r\n\r\n",
            html.len()
        )
        .into_bytes();
        block.extend_from_slice(html);
        let mut fields = Headers::new();
        fields.push("WARC-Record-ID", record_id);
        fields.push("WARC-Date", date);
        fields.push("WARC-Target-URI", uri);
        fields.push("Content-Type", "application/http; msgtype=response");
        Self {
            record_type: RecordType::Response,
            fields,
            block,
        }
    }
}

/// Writes WARC/1.1 records to `W`, each as its own gzip member, and reports where each went.
#[derive(Debug)]
pub struct WarcWriter<W: Write> {
    inner: W,
    position: u64,
    level: Compression,
    scratch: Vec<u8>,
}

impl<W: Write> WarcWriter<W> {
    /// A writer at offset 0 of `inner`, with gzip level 6.
    pub fn new(inner: W) -> Self {
        Self::with_level(inner, 6)
    }

    /// A writer with gzip compression `level` (0–9).
    pub fn with_level(inner: W, level: u32) -> Self {
        Self {
            inner,
            position: 0,
            level: Compression::new(level.min(9)),
            scratch: Vec::new(),
        }
    }

    /// Appends one record and returns its locator in the output.
    ///
    /// # Errors
    /// Fails when writing to the underlying writer fails.
    pub fn write_record(&mut self, record: &NewRecord) -> io::Result<RecordLocator> {
        let mut fields = Headers::new();
        fields.push("WARC-Type", record.record_type.as_str());
        for (name, value) in record.fields.iter() {
            if !is_computed(name) {
                fields.push(name, value);
            }
        }
        let mut block_hash = Sha1::new();
        block_hash.update(&record.block);
        fields.push(
            "WARC-Block-Digest",
            format!(
                "sha1:{}",
                data_encoding::BASE32.encode(&block_hash.finalize())
            ),
        );
        if let Some(payload) = carries_http(record)
            .then(|| digest::http_payload(&record.block))
            .flatten()
        {
            fields.push("WARC-Payload-Digest", digest::sha1_label(payload));
        }
        fields.push("Content-Length", record.block.len().to_string());

        self.scratch.clear();
        let mut encoder = GzEncoder::new(std::mem::take(&mut self.scratch), self.level);
        write!(encoder, "WARC/1.1\r\n{fields}\r\n")?;
        encoder.write_all(&record.block)?;
        encoder.write_all(b"\r\n\r\n")?;
        let member = encoder.finish()?;
        self.inner.write_all(&member)?;
        let locator = RecordLocator {
            offset: self.position,
            length: member.len() as u64,
            shared: false,
        };
        self.position += member.len() as u64;
        self.scratch = member;
        Ok(locator)
    }

    /// Bytes written so far.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Flushes and returns the underlying writer.
    ///
    /// # Errors
    /// Fails when flushing fails.
    pub fn finish(mut self) -> io::Result<W> {
        self.inner.flush()?;
        Ok(self.inner)
    }
}

fn is_computed(name: &str) -> bool {
    [
        "WARC-Type",
        "Content-Length",
        "WARC-Block-Digest",
        "WARC-Payload-Digest",
    ]
    .iter()
    .any(|n| n.eq_ignore_ascii_case(name))
}

fn carries_http(record: &NewRecord) -> bool {
    matches!(
        record.record_type,
        RecordType::Response | RecordType::Request | RecordType::Revisit
    ) && record
        .fields
        .get("Content-Type")
        .is_some_and(crate::record::is_http_content_type)
}

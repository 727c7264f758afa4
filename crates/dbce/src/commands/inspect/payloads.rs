//! What the HTTP responses of an archive hold: statuses, HTML pages, charsets, decoding trouble.

use std::collections::BTreeMap;

use dbce_http::{HttpLimits, decode_body, decode_html, is_html, parse_response};
use dbce_warc::{Record, RecordType};
use serde::Serialize;

/// Counts over the `response` records that carry an HTTP message.
#[derive(Debug, Default, Serialize)]
pub(crate) struct PayloadCounts {
    /// Responses by status class (`2xx`, `3xx`, …).
    statuses: BTreeMap<String, u64>,
    /// Responses that are HTML pages.
    html: u64,
    /// HTML pages by the encoding they were decoded from.
    encodings: BTreeMap<String, u64>,
    /// HTML pages by where their encoding came from (bom, http, meta, detected, default).
    charset_sources: BTreeMap<String, u64>,
    /// HTML pages with bytes invalid in their encoding (replaced by U+FFFD).
    malformed_text: u64,
    /// Responses whose transfer or content coding needed a fallback.
    decoding_fallbacks: u64,
    /// Responses that could not be parsed or decoded, by error.
    errors: BTreeMap<String, u64>,
}

impl PayloadCounts {
    /// Adds `record` if it is an HTTP response.
    pub(crate) fn add(&mut self, record: &Record, limits: &HttpLimits) {
        let Some(block) = record.body.bytes() else {
            return;
        };
        if record.header.record_type != RecordType::Response || !record.header.is_http_message() {
            return;
        }
        let response = match parse_response(block, limits) {
            Ok(response) => response,
            Err(error) => return self.error(&error),
        };
        *self
            .statuses
            .entry(format!("{}xx", response.status / 100))
            .or_default() += 1;
        let body = match decode_body(&response, limits) {
            Ok(body) => body,
            Err(error) => return self.error(&error),
        };
        self.decoding_fallbacks += u64::from(!body.report.is_clean());
        if !is_html(response.content_type(), &body.bytes) {
            return;
        }
        let page = decode_html(&body.bytes, response.content_type());
        self.html += 1;
        *self
            .encodings
            .entry(page.encoding.name().to_owned())
            .or_default() += 1;
        let source = format!("{:?}", page.source).to_lowercase();
        *self.charset_sources.entry(source).or_default() += 1;
        self.malformed_text += u64::from(page.had_errors);
    }

    fn error(&mut self, error: &dbce_http::HttpError) {
        *self.errors.entry(error.to_string()).or_default() += 1;
    }

    /// Writes the counts as indented text.
    pub(crate) fn print(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        writeln!(out, "  http responses by status: {:?}", self.statuses)?;
        writeln!(out, "  html pages: {}", self.html)?;
        writeln!(out, "    encodings: {:?}", self.encodings)?;
        writeln!(out, "    charset from: {:?}", self.charset_sources)?;
        writeln!(out, "    with malformed text: {}", self.malformed_text)?;
        writeln!(out, "  decoding fallbacks: {}", self.decoding_fallbacks)?;
        for (error, count) in &self.errors {
            writeln!(out, "  unreadable http: {error}: {count}")?;
        }
        Ok(())
    }
}

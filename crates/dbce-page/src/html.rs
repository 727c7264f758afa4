//! From an archive record to a page's HTML text, or the reason it is not a page.

use dbce_http::{HttpLimits, decode_body, decode_html_with_tld, is_html, parse_response};
use dbce_warc::{Record, RecordType};

use crate::page::{SiteKey, Timestamp};

/// Why a record is not a page; stage reports count it as a skip reason of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAPage {
    /// Not a `response` (or `resource`) record.
    RecordType,
    /// The record has no usable `WARC-Target-URI`.
    BadUri,
    /// The record has no usable `WARC-Date`.
    BadDate,
    /// The block is not a readable HTTP response.
    BadHttp,
    /// The HTTP status is not 2xx.
    HttpStatus,
    /// The body could not be decoded (a content coding this crate cannot undo).
    BadBody,
    /// The payload is not HTML.
    NotHtml,
    /// The payload decodes to characters that are mostly not text (U+FFFD, control
    /// characters): binary data or text in a charset it does not say.
    NotText,
    /// The block was not kept by the reader.
    NoBody,
}

/// A captured HTML page, decoded to text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapturedHtml {
    /// The captured URL.
    pub url: String,
    /// Its site.
    pub site: SiteKey,
    /// The capture time.
    pub captured: Timestamp,
    /// The HTML, decoded to UTF-8.
    pub html: String,
    /// Whether undoing a content coding stopped at `read.max-decoded-bytes`, so that `html` is
    /// the page's first part.
    pub cut_at_decoded_limit: bool,
}

/// The HTML page in `record`, if it holds one.
///
/// # Errors
/// Returns why the record is not a page.
pub fn captured_html(record: &Record, limits: &HttpLimits) -> Result<CapturedHtml, NotAPage> {
    let record_type = &record.header.record_type;
    if !matches!(record_type, RecordType::Response | RecordType::Resource) {
        return Err(NotAPage::RecordType);
    }
    let uri = record.header.target_uri().ok_or(NotAPage::BadUri)?;
    let url = url::Url::parse(uri.trim()).map_err(|_| NotAPage::BadUri)?;
    let host = url
        .host_str()
        .filter(|h| !h.is_empty())
        .ok_or(NotAPage::BadUri)?;
    let site = SiteKey::of_host(host);
    let tld = host.rsplit('.').next();
    let date = record.header.date().ok_or(NotAPage::BadDate)?;
    let captured = Timestamp::from_warc_date(date).ok_or(NotAPage::BadDate)?;
    let block = record.body.bytes().ok_or(NotAPage::NoBody)?;
    let mut cut_at_decoded_limit = false;
    let html = if record.header.is_http_message() {
        let response = parse_response(block, limits).map_err(|_| NotAPage::BadHttp)?;
        if !(200..300).contains(&response.status) {
            return Err(NotAPage::HttpStatus);
        }
        let body = decode_body(&response, limits).map_err(|_| NotAPage::BadBody)?;
        cut_at_decoded_limit = body.report.reached_limit();
        if !is_html(response.content_type(), &body.bytes) {
            return Err(NotAPage::NotHtml);
        }
        decode_html_with_tld(&body.bytes, response.content_type(), tld)
    } else {
        if !is_html(record.header.content_type(), block) {
            return Err(NotAPage::NotHtml);
        }
        decode_html_with_tld(block, record.header.content_type(), tld)
    };
    if !html.is_text() {
        return Err(NotAPage::NotText);
    }
    let html = html.text;
    Ok(CapturedHtml {
        url: uri.trim().to_owned(),
        site,
        captured,
        html,
        cut_at_decoded_limit,
    })
}

#[cfg(test)]
mod tests {
    use dbce_warc::{Entry, Headers, NewRecord, ReaderConfig, WarcReader, WarcWriter};

    use super::*;

    fn response(body: &[u8]) -> Record {
        response_with(body, "Content-Type: text/html\r\n")
    }

    /// A response record of `body` with the HTTP header lines `fields`.
    fn response_with(body: &[u8], fields_http: &str) -> Record {
        let mut fields = Headers::new();
        fields.push(
            "WARC-Record-ID",
            "<urn:uuid:00000000-0000-0000-0000-000000000001>",
        );
        fields.push("WARC-Date", "2024-05-01T12:00:00Z");
        fields.push("WARC-Target-URI", "http://example.com/");
        fields.push("Content-Type", "application/http; msgtype=response");
        let head = format!(
            "HTTP/1.1 200 OK\r\n{fields_http}Content-Length: {}\r\n\r\n",
            body.len()
        );
        let block = [head.as_bytes(), body].concat();
        let mut writer = WarcWriter::new(Vec::new());
        writer
            .write_record(&NewRecord {
                record_type: RecordType::Response,
                fields,
                block,
            })
            .unwrap();
        let bytes = writer.finish().unwrap();
        let mut reader =
            WarcReader::new(std::io::Cursor::new(bytes), ReaderConfig::default()).unwrap();
        match reader.next_entry().unwrap() {
            Some(Entry::Record(record)) => record,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bytes_that_are_not_text_are_no_page() {
        let mut body = b"<html><body>".to_vec();
        body.extend((0..2000_u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
        let record = response(&body);
        assert_eq!(
            captured_html(&record, &HttpLimits::default()),
            Err(NotAPage::NotText)
        );
        let page = response(b"<html><body><p>A page of text.</p></body></html>");
        assert!(captured_html(&page, &HttpLimits::default()).is_ok());
    }

    /// Bytes that lie about being text: each is read as its real text or skipped as
    /// `not-text`, never kept as garbage.
    #[test]
    fn hostile_text_is_redetected_or_not_text() {
        let limits = HttpLimits::default();
        let text_of = |body: &[u8], content_type: &str| {
            let fields = format!("Content-Type: {content_type}\r\n");
            captured_html(&response_with(body, &fields), &limits).map(|c| c.html)
        };
        // Control characters with a little markup.
        let mut controls = b"<html><body><p>".to_vec();
        controls.extend((0..3000_u32).map(|i| (i % 31) as u8 + 1));
        assert_eq!(text_of(&controls, "text/html"), Err(NotAPage::NotText));
        // Random bytes under a UTF-8 label.
        let random: Vec<u8> = (0..4000_u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
            .collect();
        assert_eq!(
            text_of(&random, "text/html; charset=utf-8"),
            Err(NotAPage::NotText)
        );
        // ASCII labelled UTF-16: read as the ASCII it is.
        let ascii = b"<html><body><p>Plain words, wrongly labelled.</p></body></html>";
        assert_eq!(
            text_of(ascii, "text/html; charset=utf-16le").as_deref(),
            Ok(std::str::from_utf8(ascii).unwrap())
        );
        // windows-1252 labelled UTF-8: re-detected.
        let latin = b"<p>Le caf\xe9 est d\xe9j\xe0 ferm\xe9 et la f\xeate est annul\xe9e.</p>";
        assert_eq!(
            text_of(latin, "text/html; charset=utf-8").as_deref(),
            Ok(
                "<p>Le caf\u{e9} est d\u{e9}j\u{e0} ferm\u{e9} et la f\u{ea}te est annul\u{e9}e.</p>"
            )
        );
    }

    #[test]
    fn a_coded_body_past_the_decoded_limit_is_read_in_part() {
        use std::io::Write as _;
        let page = format!(
            "<html><body>{}</body></html>",
            "<p>Words of a long page.</p>".repeat(4000)
        );
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gzip.write_all(page.as_bytes()).unwrap();
        let record = response_with(
            &gzip.finish().unwrap(),
            "Content-Type: text/html\r\nContent-Encoding: gzip\r\n",
        );
        let limits = HttpLimits {
            max_decoded_bytes: 10_000,
            ..HttpLimits::default()
        };
        let captured = captured_html(&record, &limits).expect("a page");
        assert!(captured.cut_at_decoded_limit);
        assert_eq!(captured.html, page[..10_000]);
        let whole = captured_html(&record, &HttpLimits::default()).expect("a page");
        assert!(!whole.cut_at_decoded_limit);
        assert_eq!(whole.html, page);
    }
}

//! From an archive record to a page's HTML text, or the reason it is not a page.

use dbce_http::{HttpLimits, decode_body, decode_html_with_tld, is_html, parse_response};
use dbce_warc::{Record, RecordType};

use crate::page::{SiteKey, Timestamp};

/// Why a record is not a page. [`NotAPage::reason`] names it in stage reports.
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
    /// The body could not be decoded (unknown coding, too large once decoded).
    BadBody,
    /// The payload is not HTML.
    NotHtml,
    /// The block was not kept by the reader.
    NoBody,
}

impl NotAPage {
    /// The reason's name in reports.
    pub fn reason(self) -> &'static str {
        match self {
            Self::RecordType => "not-a-capture",
            Self::BadUri => "bad-target-uri",
            Self::BadDate => "bad-warc-date",
            Self::BadHttp => "bad-http",
            Self::HttpStatus => "http-status-not-2xx",
            Self::BadBody => "undecodable-body",
            Self::NotHtml => "not-html",
            Self::NoBody => "no-body",
        }
    }
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
    let html = if record.header.is_http_message() {
        let response = parse_response(block, limits).map_err(|_| NotAPage::BadHttp)?;
        if !(200..300).contains(&response.status) {
            return Err(NotAPage::HttpStatus);
        }
        let body = decode_body(&response, limits).map_err(|_| NotAPage::BadBody)?;
        if !is_html(response.content_type(), &body.bytes) {
            return Err(NotAPage::NotHtml);
        }
        decode_html_with_tld(&body.bytes, response.content_type(), tld).text
    } else {
        if !is_html(record.header.content_type(), block) {
            return Err(NotAPage::NotHtml);
        }
        decode_html_with_tld(block, record.header.content_type(), tld).text
    };
    Ok(CapturedHtml {
        url: uri.trim().to_owned(),
        site,
        captured,
        html,
    })
}

//! The ground-truth file: one JSON object per response record, in archive order.

use serde::{Deserialize, Serialize};

/// What kind of resource a response holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PageKind {
    /// An article page.
    Article,
    /// A home or section page listing articles.
    Index,
    /// A page of a forum thread (`--forums`).
    Forum,
    /// Anything else: redirects, robots.txt, stylesheets, images, JSON.
    Other,
}

/// The ground truth of one response record (one line of the truth file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TruthRecord {
    /// `WARC-Record-ID` of the response record.
    pub id: String,
    /// `WARC-Target-URI`.
    pub url: String,
    /// `WARC-Date`.
    pub date: String,
    /// The site's key, e.g. `harbor-courier`.
    pub site: String,
    /// The template's label, `site/name@vN`; `None` for non-HTML resources.
    pub template: Option<String>,
    /// What the resource is.
    pub kind: PageKind,
    /// 0-based number of this capture among the URL's captures.
    pub capture: u32,
    /// How many captures the URL has in the archive.
    pub captures: u32,
    /// HTTP status code.
    pub status: u16,
    /// Whether this is an HTML page with ground truth (`content`, `boilerplate`, `comments`).
    pub html: bool,
    /// The HTTP `Content-Type` media type, without parameters; `None` when the response has none.
    pub content_type: Option<String>,
    /// The declared charset of HTML pages (HTTP header and `<meta>` agree).
    pub charset: Option<String>,
    /// `chunked` when the response used chunked transfer coding.
    pub transfer_encoding: Option<String>,
    /// `gzip` when the response body is gzip-encoded.
    pub content_encoding: Option<String>,
    /// The main content: one block per line, in document order (see `docs/synth.md`).
    pub content: String,
    /// Every boilerplate string on the page, once each, in document order.
    pub boilerplate: Vec<String>,
    /// The user comments section's entries (author and date line, then text); not content.
    pub comments: Vec<String>,
}

impl TruthRecord {
    /// The content lines.
    pub fn content_lines(&self) -> impl Iterator<Item = &str> {
        self.content.split('\n').filter(|line| !line.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_lowercase_and_lines_split() {
        assert_eq!(
            serde_json::to_string(&PageKind::Index).unwrap(),
            "\"index\""
        );
        let record = TruthRecord {
            id: "<urn:uuid:x>".into(),
            url: "https://a.example/".into(),
            date: "2023-01-02T00:00:00Z".into(),
            site: "a".into(),
            template: None,
            kind: PageKind::Other,
            capture: 0,
            captures: 1,
            status: 200,
            html: false,
            content_type: Some("text/css".into()),
            charset: None,
            transfer_encoding: None,
            content_encoding: None,
            content: "one\ntwo".into(),
            boilerplate: vec![],
            comments: vec![],
        };
        assert_eq!(record.content_lines().collect::<Vec<_>>(), ["one", "two"]);
        let line = serde_json::to_string(&record).unwrap();
        assert_eq!(serde_json::from_str::<TruthRecord>(&line).unwrap(), record);
    }
}

//! Why an item did not go out of a stage, one name each: the names `read/skips`, stage reports
//! and `report.json` hold.

use std::fmt;
use std::str::FromStr;

use dbce_page::NotAPage;
use dbce_warc::SkipKind;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Why an item did not go out of a stage. Its `Display` is its one spelling: its serde form,
/// what it parses from, and the order of reports' counts by reason.
///
/// ```
/// use dbce_pipeline::SkipReason;
///
/// let reason: SkipReason = "alone-in-bucket".parse()?;
/// assert_eq!(reason, SkipReason::AloneInBucket);
/// assert_eq!(serde_json::to_string(&reason)?, r#""alone-in-bucket""#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SkipReason {
    /// `read`: bytes the archive reader could not read as a record (`warc:` and the reader's
    /// name for why, e.g. `warc:truncated-record`).
    Warc(SkipKind),
    /// `read`: not a `response` (or `resource`) record.
    NotACapture,
    /// `read`: the record has no usable `WARC-Target-URI`.
    BadTargetUri,
    /// `read`: the record has no usable `WARC-Date`.
    BadWarcDate,
    /// `read`: the block is not a readable HTTP response.
    BadHttp,
    /// `read`: the HTTP status is not 2xx.
    HttpStatusNot2xx,
    /// `read`: the body could not be decoded (a content coding that cannot be undone).
    UndecodableBody,
    /// `read`: the payload is not HTML.
    NotHtml,
    /// `read`: the payload decodes to characters that are mostly not text.
    NotText,
    /// `read`: the block was not kept by the reader.
    NoBody,
    /// `read`: the HTML has more nodes than the parser's limit.
    HtmlTooManyNodes,
    /// `read`: the HTML could not be parsed.
    HtmlUnparsable,
    /// `group`: a page's band row seen again in the same bucket.
    DuplicateRow,
    /// `group`: a bucket with one page only, so no partner for it.
    AloneInBucket,
    /// `annotate`: another copy of a record already taken (same record id).
    DuplicateRecord,
    /// A page's file is not among the run's inputs.
    RefetchNoSuchFile,
    /// A page's file cannot be opened or read at the record's offset.
    RefetchIo,
    /// No record with the page's id starts at its offset.
    RefetchNotAtOffset,
    /// A page's record no longer decodes as an HTML page.
    RefetchNotAPage,
    /// A page reads back, but its words are not those the run labelled.
    RefetchRunsDoNotFit,
    /// `annotate`: stage `read` saved no DOM for the page.
    StoredDomMissing,
    /// `annotate`: the DOM stage `read` saved for the page does not decode.
    StoredDomDamaged,
}

impl From<&dbce_warc::SkipReason> for SkipReason {
    fn from(reason: &dbce_warc::SkipReason) -> Self {
        Self::Warc(reason.kind())
    }
}

impl From<&dbce_dom::DomError> for SkipReason {
    fn from(error: &dbce_dom::DomError) -> Self {
        match error {
            dbce_dom::DomError::TooManyNodes { .. } => Self::HtmlTooManyNodes,
            _ => Self::HtmlUnparsable,
        }
    }
}

impl From<NotAPage> for SkipReason {
    fn from(not: NotAPage) -> Self {
        match not {
            NotAPage::RecordType => Self::NotACapture,
            NotAPage::BadUri => Self::BadTargetUri,
            NotAPage::BadDate => Self::BadWarcDate,
            NotAPage::BadHttp => Self::BadHttp,
            NotAPage::HttpStatus => Self::HttpStatusNot2xx,
            NotAPage::BadBody => Self::UndecodableBody,
            NotAPage::NotHtml => Self::NotHtml,
            NotAPage::NotText => Self::NotText,
            NotAPage::NoBody => Self::NoBody,
        }
    }
}

/// The prefix of the archive reader's reasons.
const WARC_PREFIX: &str = "warc:";

impl SkipReason {
    /// Every reason but the reader's, which [`SkipKind::ALL`] lists.
    const OTHERS: [Self; 21] = [
        Self::NotACapture,
        Self::BadTargetUri,
        Self::BadWarcDate,
        Self::BadHttp,
        Self::HttpStatusNot2xx,
        Self::UndecodableBody,
        Self::NotHtml,
        Self::NotText,
        Self::NoBody,
        Self::HtmlTooManyNodes,
        Self::HtmlUnparsable,
        Self::DuplicateRow,
        Self::AloneInBucket,
        Self::DuplicateRecord,
        Self::RefetchNoSuchFile,
        Self::RefetchIo,
        Self::RefetchNotAtOffset,
        Self::RefetchNotAPage,
        Self::RefetchRunsDoNotFit,
        Self::StoredDomMissing,
        Self::StoredDomDamaged,
    ];

    /// Every reason.
    pub fn all() -> impl Iterator<Item = Self> {
        SkipKind::ALL
            .into_iter()
            .map(Self::Warc)
            .chain(Self::OTHERS)
    }

    /// Its name in skip logs and reports (e.g. `not-html`) in two parts: a prefix, `warc:` for
    /// the reader's reasons and empty for the others, and the rest.
    fn name_parts(self) -> (&'static str, &'static str) {
        let name = match self {
            Self::Warc(skip) => return (WARC_PREFIX, skip.name()),
            Self::NotACapture => "not-a-capture",
            Self::BadTargetUri => "bad-target-uri",
            Self::BadWarcDate => "bad-warc-date",
            Self::BadHttp => "bad-http",
            Self::HttpStatusNot2xx => "http-status-not-2xx",
            Self::UndecodableBody => "undecodable-body",
            Self::NotHtml => "not-html",
            Self::NotText => "not-text",
            Self::NoBody => "no-body",
            Self::HtmlTooManyNodes => "html-too-many-nodes",
            Self::HtmlUnparsable => "html-unparsable",
            Self::DuplicateRow => "duplicate-row",
            Self::AloneInBucket => "alone-in-bucket",
            Self::DuplicateRecord => "duplicate-record",
            Self::RefetchNoSuchFile => "refetch-no-such-file",
            Self::RefetchIo => "refetch-io",
            Self::RefetchNotAtOffset => "refetch-not-at-offset",
            Self::RefetchNotAPage => "refetch-not-a-page",
            Self::RefetchRunsDoNotFit => "refetch-runs-do-not-fit",
            Self::StoredDomMissing => "stored-dom-missing",
            Self::StoredDomDamaged => "stored-dom-damaged",
        };
        ("", name)
    }

    /// Its name's bytes.
    fn name_bytes(self) -> impl Iterator<Item = u8> {
        let (prefix, rest) = self.name_parts();
        prefix.bytes().chain(rest.bytes())
    }

    /// Whether the archive reader could not read something (a `warc:` reason): damage in an
    /// input file rather than a record that is not a page.
    pub fn is_unreadable_input(self) -> bool {
        matches!(self, Self::Warc(_))
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (prefix, rest) = self.name_parts();
        f.write_str(prefix)?;
        f.write_str(rest)
    }
}

/// A name that is no [`SkipReason`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown skip reason {0:?}")]
pub struct UnknownSkipReason(pub String);

impl FromStr for SkipReason {
    type Err = UnknownSkipReason;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        let found = match name.strip_prefix(WARC_PREFIX) {
            Some(rest) => SkipKind::from_name(rest).map(Self::Warc),
            None => Self::OTHERS
                .into_iter()
                .find(|reason| reason.name_parts().1 == name),
        };
        found.ok_or_else(|| UnknownSkipReason(name.to_owned()))
    }
}

/// By name, so that counts by reason keep the order of their names.
impl Ord for SkipReason {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.name_bytes().cmp(other.name_bytes())
    }
}

impl PartialOrd for SkipReason {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Serialize for SkipReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SkipReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::*;

    #[test]
    fn every_name_is_one_reasons_and_reads_back() {
        let names: BTreeSet<String> = SkipReason::all().map(|r| r.to_string()).collect();
        assert_eq!(names.len(), SkipReason::all().count());
        for reason in SkipReason::all() {
            assert_eq!(reason.to_string().parse::<SkipReason>(), Ok(reason));
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(serde_json::from_str::<SkipReason>(&json).unwrap(), reason);
        }
        assert!("warc:".parse::<SkipReason>().is_err());
        assert!("no-such-reason".parse::<SkipReason>().is_err());
    }

    #[test]
    fn reader_reasons_keep_the_readers_names() {
        let reader = dbce_warc::SkipReason::Garbage { length: 12 };
        let reason = SkipReason::from(&reader);
        assert_eq!(reason.to_string(), "warc:garbage");
        assert!(reason.is_unreadable_input());
        assert!(!SkipReason::NotHtml.is_unreadable_input());
    }

    #[test]
    fn counts_by_reason_are_in_the_order_of_their_names() {
        let counts: BTreeMap<SkipReason, u64> = [
            (SkipReason::NotHtml, 1),
            (SkipReason::AloneInBucket, 2),
            (SkipReason::Warc(SkipKind::Garbage), 3),
            (SkipReason::HttpStatusNot2xx, 4),
        ]
        .into();
        let json = serde_json::to_string(&counts).unwrap();
        assert_eq!(
            json,
            r#"{"alone-in-bucket":2,"http-status-not-2xx":4,"not-html":1,"warc:garbage":3}"#
        );
        assert_eq!(
            serde_json::from_str::<BTreeMap<_, _>>(&json).unwrap(),
            counts
        );
    }
}

//! The index's fields: their names, options, and the schema built from them.

use std::path::Path;

use tantivy::DateTime;
use tantivy::schema::{
    DateOptions, DateTimePrecision, FAST, Field, IndexRecordOption, STORED, STRING, Schema, TEXT,
    TextFieldIndexing, TextOptions,
};
use tantivy::time::OffsetDateTime;
use tantivy::time::format_description::well_known::Rfc3339;

use crate::IndexError;
use crate::analyser::CJK;

/// Name of the `seq` field, which fast-field readers address by name.
pub(crate) const SEQ: &str = "seq";

/// The fields of a dbce index, resolved against its schema.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    /// `id`: the WARC-Record-ID, untokenised and stored.
    pub(crate) id: Field,
    /// `url`: untokenised and stored.
    pub(crate) url: Field,
    /// `site`: the registrable domain, untokenised and stored, so `site:example.com` filters.
    pub(crate) site: Field,
    /// `date`: the WARC-Date as a date (seconds), indexed, fast and stored, for ranges.
    pub(crate) date: Field,
    /// `warc_date`: the WARC-Date as written, stored only.
    pub(crate) warc_date: Field,
    /// `lang`: the page's language (ISO 639-3), untokenised and stored, so `lang:jpn` filters.
    pub(crate) lang: Field,
    /// `title`: tokenised (tantivy's `default`: Unicode words, lowercased) and stored, for
    /// pages in languages written with spaces.
    pub(crate) title: Field,
    /// `text`: like `title`.
    pub(crate) text: Field,
    /// `title_cjk`: tokenised with the n-gram analyser [`CJK`] and stored, for pages in
    /// languages written without spaces (`crate::analyser`).
    pub(crate) title_cjk: Field,
    /// `text_cjk`: like `title_cjk`.
    pub(crate) text_cjk: Field,
    /// `file`: the source archive as given, stored only.
    pub(crate) file: Field,
    /// `offset`: the source record's offset in `file`, stored.
    pub(crate) offset: Field,
    /// `length`: the source record's length, stored.
    pub(crate) length: Field,
    /// `seq`: the page's position in the build input, fast only. Equal scores rank in its
    /// order, whatever segments the pages fell into.
    pub(crate) seq: Field,
}

impl Fields {
    /// The schema of a new index and its fields.
    pub(crate) fn schema() -> (Schema, Self) {
        let mut builder = Schema::builder();
        let date = DateOptions::default()
            .set_indexed()
            .set_fast()
            .set_stored()
            .set_precision(DateTimePrecision::Seconds);
        let cjk = TextOptions::default().set_stored().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(CJK)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        );
        let fields = Self {
            id: builder.add_text_field("id", STRING | STORED),
            url: builder.add_text_field("url", STRING | STORED),
            site: builder.add_text_field("site", STRING | STORED),
            date: builder.add_date_field("date", date),
            warc_date: builder.add_text_field("warc_date", STORED),
            lang: builder.add_text_field("lang", STRING | STORED),
            title: builder.add_text_field("title", TEXT | STORED),
            text: builder.add_text_field("text", TEXT | STORED),
            title_cjk: builder.add_text_field("title_cjk", cjk.clone()),
            text_cjk: builder.add_text_field("text_cjk", cjk),
            file: builder.add_text_field("file", STORED),
            offset: builder.add_u64_field("offset", STORED),
            length: builder.add_u64_field("length", STORED),
            seq: builder.add_u64_field(SEQ, FAST),
        };
        (builder.build(), fields)
    }

    /// The fields of an existing index at `dir`.
    pub(crate) fn resolve(schema: &Schema, dir: &Path) -> Result<Self, IndexError> {
        let field = |name: &'static str| {
            schema.get_field(name).map_err(|_| IndexError::Schema {
                dir: dir.to_owned(),
                field: name,
            })
        };
        Ok(Self {
            id: field("id")?,
            url: field("url")?,
            site: field("site")?,
            date: field("date")?,
            warc_date: field("warc_date")?,
            lang: field("lang")?,
            title: field("title")?,
            text: field("text")?,
            title_cjk: field("title_cjk")?,
            text_cjk: field("text_cjk")?,
            file: field("file")?,
            offset: field("offset")?,
            length: field("length")?,
            seq: field(SEQ)?,
        })
    }
}

/// Parses a WARC-Date (RFC 3339 / ISO 8601 with a time zone, e.g. `2024-05-01T12:00:00Z`,
/// optionally with fractional seconds as WARC 1.1 allows, or a date alone, `2024-05-01`, read
/// as midnight UTC). `None` for anything else.
pub(crate) fn parse_date(text: &str) -> Option<DateTime> {
    let text = text.trim();
    let parsed = OffsetDateTime::parse(text, &Rfc3339).ok().or_else(|| {
        // W3C-DTF's reduced precision, which some writers use for the day alone.
        let full = format!("{text}T00:00:00Z");
        (text.len() == 10)
            .then(|| OffsetDateTime::parse(&full, &Rfc3339).ok())
            .flatten()
    })?;
    DateTime::try_from_utc(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warc_dates_parse_to_seconds_since_the_epoch() {
        let secs = |text| parse_date(text).map(DateTime::into_timestamp_secs);
        assert_eq!(secs("2024-05-01T12:00:00Z"), Some(1_714_564_800));
        assert_eq!(secs("2024-05-01T12:00:00.123456Z"), Some(1_714_564_800));
        assert_eq!(secs("2024-05-01T14:00:00+02:00"), Some(1_714_564_800));
        assert_eq!(secs("2024-05-01"), Some(1_714_521_600));
        assert_eq!(secs("1970-01-01T00:00:00Z"), Some(0));
    }

    #[test]
    fn malformed_dates_are_none() {
        for text in [
            "",
            "yesterday",
            "2024-13-01T00:00:00Z",
            "20240501120000",
            "2024-05",
        ] {
            assert_eq!(parse_date(text), None, "{text:?}");
        }
    }

    #[test]
    fn names_match_the_schema() {
        let (schema, _) = Fields::schema();
        let names: Vec<_> = schema.fields().map(|(_, entry)| entry.name()).collect();
        let expected = [
            "id",
            "url",
            "site",
            "date",
            "warc_date",
            "lang",
            "title",
            "text",
            "title_cjk",
            "text_cjk",
            "file",
            "offset",
            "length",
            "seq",
        ];
        assert_eq!(names, expected);
        assert!(Fields::resolve(&schema, Path::new("x")).is_ok());
    }
}

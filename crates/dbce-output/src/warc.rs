//! The WARC records and CDXJ lines of a run's output: a `warcinfo` record per part, a
//! `conversion` record per page, and the CDXJ line that indexes it.

use dbce_warc::{CdxLine, Headers, NewRecord, RecordLocator, RecordType};

use crate::text::TextRecord;

/// A `<urn:uuid:…>` record id: the version-5 UUID of `name` in the URL namespace, so reruns
/// write the same id and anyone can recompute it (Python: `uuid.uuid5(uuid.NAMESPACE_URL, name)`).
pub fn record_id(name: &str) -> String {
    let uuid = uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes());
    format!("<urn:uuid:{uuid}>")
}

/// The `warcinfo` record that heads the output WARC `filename`, whose conversion records are
/// those of `pages`, each given by its source record's id and capture date (ISO 8601), and
/// whose run had the configuration fingerprint `fingerprint`. Its id is the UUID of
/// `dbce-warcinfo`, the file name and the source ids of its records; its date the latest
/// capture among them, so reruns write the same bytes. The dbce version it names is the
/// workspace's (every crate has it).
pub fn warcinfo_record(filename: &str, fingerprint: &str, pages: &[(&str, &str)]) -> NewRecord {
    let mut name = format!("dbce-warcinfo {filename}");
    for (record_id, _) in pages {
        name.push(' ');
        name.push_str(record_id);
    }
    let date = pages
        .iter()
        .map(|&(_, date)| date)
        .max()
        .unwrap_or_default();
    let mut fields = Headers::new();
    fields.push("WARC-Record-ID", record_id(&name));
    fields.push("WARC-Date", date);
    fields.push("WARC-Filename", filename);
    fields.push("Content-Type", "application/warc-fields");
    let block = format!(
        "software: dbce/{}\r\n\
         format: WARC File Format 1.1\r\n\
         conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n\
         description: main content of archived HTML pages, one conversion record per page, by Diff-Based Content Extraction\r\n\
         dbce-config-fingerprint: {fingerprint}\r\n",
        env!("CARGO_PKG_VERSION")
    );
    NewRecord {
        record_type: RecordType::Warcinfo,
        fields,
        block: block.into_bytes(),
    }
}

/// The `conversion` record of a page's text. Its id is the UUID of the source record's id, so
/// reruns write identical bytes.
pub fn conversion_record(record: &TextRecord, warcinfo_id: &str) -> NewRecord {
    let mut fields = Headers::new();
    fields.push("WARC-Record-ID", record_id(&record.id));
    fields.push("WARC-Date", record.date.clone());
    fields.push("WARC-Target-URI", record.url.clone());
    fields.push("WARC-Refers-To", record.id.clone());
    fields.push("WARC-Warcinfo-ID", warcinfo_id);
    fields.push("Content-Type", "text/plain; charset=utf-8");
    NewRecord {
        record_type: RecordType::Conversion,
        fields,
        block: record.text.as_bytes().to_vec(),
    }
}

/// A CDXJ line for a conversion record (cdxj-indexer's layout; it does not index conversion
/// records itself).
pub fn cdxj_line(record: &TextRecord, locator: RecordLocator, filename: &str) -> String {
    let line = CdxLine {
        key: dbce_warc::surt(&record.url),
        timestamp: record.date.chars().filter(char::is_ascii_digit).collect(),
        url: Some(record.url.clone()),
        mime: Some("text/plain".to_owned()),
        status: None,
        digest: None,
        length: locator.length,
        offset: locator.offset,
        filename: filename.to_owned(),
    };
    line.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_ids_are_pythons_uuid5_of_the_name() {
        // Python: uuid.uuid5(uuid.NAMESPACE_URL, "<urn:uuid:a9c51e3e-…>")
        assert_eq!(
            record_id("<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>"),
            "<urn:uuid:4fb7bd3f-799c-5aeb-bf04-43f87d5421af>"
        );
    }

    #[test]
    fn the_warcinfo_record_is_dated_by_its_latest_capture_and_named_by_its_pages() {
        let pages = [
            ("<urn:a>", "2024-01-02T00:00:00Z"),
            ("<urn:b>", "2024-03-01T00:00:00Z"),
        ];
        let info = warcinfo_record("part-00000.warc.gz", "f1", &pages);
        assert_eq!(info.fields.get("WARC-Date"), Some("2024-03-01T00:00:00Z"));
        let block = String::from_utf8(info.block.clone()).unwrap();
        assert!(block.contains("dbce-config-fingerprint: f1\r\n"), "{block}");
        let other = warcinfo_record("part-00000.warc.gz", "f1", &pages[..1]);
        assert_ne!(
            info.fields.get("WARC-Record-ID"),
            other.fields.get("WARC-Record-ID")
        );
    }
}

//! The WARC records and CDXJ lines of a run's output: a `warcinfo` record per part, a
//! `conversion` record per page, and the CDXJ line that indexes it.

use dbce_warc::{CdxLine, Headers, NewRecord, RecordLocator, RecordType};
use sha1::{Digest as _, Sha1};

use crate::text::TextRecord;

/// A `<urn:uuid:…>` record id: the version-5 UUID of `name` in the URL namespace, so reruns
/// write the same id and anyone can recompute it (Python: `uuid.uuid5(uuid.NAMESPACE_URL, name)`).
pub fn record_id(name: &str) -> String {
    let uuid = uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes());
    format!("<urn:uuid:{uuid}>")
}

/// The `warcinfo` record that heads an output WARC, built from its pages one at a time (in
/// the order of their conversion records, each given by its source record's id and capture
/// date, ISO 8601), so a part of any size needs no list of them. Its id is the
/// UUID of `dbce-warcinfo`, the file name and the source ids of its records (as
/// [`record_id`] of that name; the SHA-1 is taken as the name streams by); its date the latest
/// capture among them, so reruns write the same bytes. The dbce version it names is the
/// workspace's (every crate has it).
pub struct Warcinfo {
    filename: String,
    fingerprint: String,
    /// The SHA-1 of the URL namespace and the name so far.
    name: Sha1,
    /// The latest capture date so far.
    date: String,
}

impl Warcinfo {
    /// The record of `filename`, for a run with configuration fingerprint `fingerprint`, before
    /// any page.
    pub fn new(filename: &str, fingerprint: &str) -> Self {
        let mut name = Sha1::new();
        name.update(uuid::Uuid::NAMESPACE_URL.as_bytes());
        name.update(format!("dbce-warcinfo {filename}").as_bytes());
        Self {
            filename: filename.to_owned(),
            fingerprint: fingerprint.to_owned(),
            name,
            date: String::new(),
        }
    }

    /// Adds the page whose source record is `record_id`, captured at `date`.
    pub fn add(&mut self, record_id: &str, date: &str) {
        self.name.update(b" ");
        self.name.update(record_id.as_bytes());
        if date > self.date.as_str() {
            date.clone_into(&mut self.date);
        }
    }

    /// The record.
    pub fn record(self) -> NewRecord {
        let digest: [u8; 20] = self.name.finalize().into();
        let mut bytes = [0; 16];
        bytes.copy_from_slice(&digest[..16]);
        let uuid = uuid::Builder::from_sha1_bytes(bytes).into_uuid();
        let mut fields = Headers::new();
        fields.push("WARC-Record-ID", format!("<urn:uuid:{uuid}>"));
        fields.push("WARC-Date", self.date);
        fields.push("WARC-Filename", self.filename);
        fields.push("Content-Type", "application/warc-fields");
        let block = format!(
            "software: dbce/{}\r\n\
             format: WARC File Format 1.1\r\n\
             conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n\
             description: main content of archived HTML pages, one conversion record per page, by Diff-Based Content Extraction\r\n\
             dbce-config-fingerprint: {}\r\n",
            env!("CARGO_PKG_VERSION"),
            self.fingerprint
        );
        NewRecord {
            record_type: RecordType::Warcinfo,
            fields,
            block: block.into_bytes(),
        }
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
        let warcinfo = |pages: &[(&str, &str)]| {
            let mut warcinfo = Warcinfo::new("part-00000.warc.gz", "f1");
            pages.iter().for_each(|(id, date)| warcinfo.add(id, date));
            warcinfo.record()
        };
        let info = warcinfo(&pages);
        assert_eq!(info.fields.get("WARC-Date"), Some("2024-03-01T00:00:00Z"));
        let block = String::from_utf8(info.block.clone()).unwrap();
        assert!(block.contains("dbce-config-fingerprint: f1\r\n"), "{block}");
        // Hashed as the pages stream by, the id is the UUID of the whole name.
        assert_eq!(
            info.fields.get("WARC-Record-ID"),
            Some(record_id("dbce-warcinfo part-00000.warc.gz <urn:a> <urn:b>").as_str())
        );
        let other = warcinfo(&pages[..1]);
        assert_ne!(
            info.fields.get("WARC-Record-ID"),
            other.fields.get("WARC-Record-ID")
        );
    }
}

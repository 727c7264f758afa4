//! Valid gzip-per-record archives with fuzzer-chosen damage: every record is read at its
//! locator or reported at its member's offset, whatever the damage.
#![no_main]

use libfuzzer_sys::fuzz_target;

use dbce_warc::{Entry, Headers, NewRecord, ReaderConfig, RecordType, WarcReader, WarcWriter};

fn archive(count: usize) -> (Vec<u8>, Vec<dbce_warc::RecordLocator>) {
    let mut writer = WarcWriter::new(Vec::new());
    let locators = (0..count)
        .map(|n| {
            let mut fields = Headers::new();
            fields.push("WARC-Record-ID", format!("<urn:uuid:{n}>"));
            fields.push("WARC-Date", "2020-01-01T00:00:00Z");
            let block = format!("record {n} ").repeat(n + 1).into_bytes();
            writer
                .write_record(&NewRecord { record_type: RecordType::Resource, fields, block })
                .expect("in memory")
        })
        .collect();
    (writer.finish().expect("in memory"), locators)
}

fuzz_target!(|damage: Vec<(u16, u8)>| {
    let (mut bytes, locators) = archive(5);
    for (at, xor) in damage {
        let at = usize::from(at) % bytes.len();
        bytes[at] ^= xor;
    }
    let reader = WarcReader::new(std::io::Cursor::new(bytes), ReaderConfig::default()).expect("in memory");
    let entries: Vec<Entry> = reader.map(|e| e.expect("in memory")).collect();
    for locator in &locators {
        let accounted = entries.iter().any(|entry| match entry {
            Entry::Record(record) => record.locator == *locator,
            Entry::Skip(skip) => skip.offset == locator.offset,
        });
        assert!(accounted, "record at {} neither read nor reported", locator.offset);
    }
});

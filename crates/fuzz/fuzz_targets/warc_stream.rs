//! Arbitrary bytes through the WARC/ARC reader: it must end without panicking, and never
//! report more records and skips than there are bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let config = dbce_warc::ReaderConfig {
        max_record_size: 1 << 16,
        max_header_size: 4096,
        verify_digests: true,
        ..Default::default()
    };
    let reader = dbce_warc::WarcReader::new(std::io::Cursor::new(data), config).expect("in memory");
    let mut entries = 0usize;
    for entry in reader {
        entry.expect("reading from memory cannot fail");
        entries += 1;
        assert!(entries <= data.len() + 1);
    }
});

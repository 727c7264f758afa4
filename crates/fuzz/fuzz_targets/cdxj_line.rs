//! Arbitrary text as a CDXJ line: no panic, and a line that reads writes back to a line that
//! reads the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

use dbce_warc::CdxLine;

fuzz_target!(|line: &str| {
    let Ok(parsed) = line.parse::<CdxLine>() else {
        return;
    };
    let written = parsed.to_string();
    let again: CdxLine = written
        .parse()
        .unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
    assert_eq!(again, parsed);
    let _ = parsed.to_cdx11();
});

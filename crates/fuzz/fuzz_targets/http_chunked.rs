//! The chunked transfer decoder, two ways: arbitrary bytes as a chunked body (no panic, the
//! decoded body is never longer than the coded one), and arbitrary chunks encoded as a server
//! would (decoding gives them back).
#![no_main]

use libfuzzer_sys::fuzz_target;

use dbce_http::{HttpLimits, TransferOutcome, decode_body, parse_response};

const HEAD: &[u8] = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";

/// The decoded body of `body` sent with `Transfer-Encoding: chunked`, and what undoing it did.
fn dechunked(body: &[u8]) -> (Vec<u8>, TransferOutcome) {
    let block = [HEAD, body].concat();
    let limits = HttpLimits::default();
    let response = parse_response(&block, &limits).expect("a valid head");
    let decoded = decode_body(&response, &limits).expect("no content coding to fail");
    (decoded.bytes.into_owned(), decoded.report.transfer)
}

fuzz_target!(|input: (Vec<Vec<u8>>, &[u8])| {
    let (chunks, raw) = input;
    let (decoded, _) = dechunked(raw);
    assert!(decoded.len() <= raw.len(), "dechunking grew {} bytes to {}", raw.len(), decoded.len());

    let mut body = Vec::new();
    for chunk in chunks.iter().filter(|c| !c.is_empty()) {
        body.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        body.extend_from_slice(chunk);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"0\r\n\r\n");
    let (decoded, outcome) = dechunked(&body);
    assert_eq!(decoded, chunks.concat(), "{outcome:?}");
});

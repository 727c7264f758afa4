//! Arbitrary bytes as the block of a response record through the HTTP head parser and the body
//! decoder: no panic, the body is the block's tail, and a decoded body never outgrows the limit.
#![no_main]

use libfuzzer_sys::fuzz_target;

use dbce_http::{HttpLimits, decode_body, parse_response};

fuzz_target!(|block: &[u8]| {
    let limits = HttpLimits {
        max_header_bytes: 4096,
        max_decoded_bytes: 1 << 16,
    };
    let Ok(response) = parse_response(block, &limits) else {
        return;
    };
    assert!(block.ends_with(response.body), "the body is the block's tail");
    assert!((100..=999).contains(&response.status) || response.status < 100);
    let _ = response.content_type();
    if let Ok(body) = decode_body(&response, &limits) {
        let coded = !body.report.codings.is_empty();
        assert!(
            !coded || body.bytes.len() as u64 <= limits.max_decoded_bytes.max(response.body.len() as u64),
            "decoded {} bytes past the limit",
            body.bytes.len()
        );
    }
});

//! Arbitrary text through dbce-tokenize's tokenizer and html5ever's, side by side, both
//! driving html5ever's tree builder and fed in the same chunks: the tokens they give it must
//! be the same. The first two bytes choose the chunk size, where the input ends (as a parse
//! stopped by a limit ends it) and scripting.
#![no_main]

use libfuzzer_sys::fuzz_target;

use dbce_tokenize::parity::{Feed, compare};

fuzz_target!(|data: &[u8]| {
    let [how, end, rest @ ..] = data else {
        return;
    };
    let html = String::from_utf8_lossy(rest);
    let feed = Feed {
        chunk: if how & 0x80 == 0 {
            usize::from(how & 0x7f) + 1
        } else {
            16 * 1024
        },
        stop_after: (end & 0x80 != 0).then_some(usize::from(end & 0x3f) + 1),
        scripting: end & 0x40 == 0,
    };
    if let Err(mismatch) = compare(&html, &feed) {
        panic!("{feed:?}: {mismatch}");
    }
});

//! Arbitrary text through SURT canonicalisation: no panic, and the key of a URL does not
//! depend on the case of its scheme and host.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|url: &str| {
    let key = dbce_warc::surt(url);
    assert_eq!(key, dbce_warc::surt(url), "deterministic");
    if let Some((scheme, rest)) = url.split_once("://") {
        let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let shouted = format!(
            "{}://{}{}",
            scheme.to_ascii_uppercase(),
            rest[..host_end].to_ascii_uppercase(),
            &rest[host_end..]
        );
        assert_eq!(dbce_warc::surt(&shouted), key, "{url:?} against {shouted:?}");
    }
});

//! Arbitrary text through SURT canonicalisation: no panic, the same key every time, and the key
//! of an HTTP(S) URL with a plain DNS host does not depend on the case of its scheme and host.
//! (Python's `surt` keeps the case of a URL whose host it cannot parse, such as `[:`, and so
//! does [`dbce_warc::surt`]: the property is checked only where the host is plain.)
#![no_main]

use libfuzzer_sys::fuzz_target;

/// Whether `authority` is a DNS name (letters, digits, `-`, `.`, with a letter or digit: Python
/// drops a host of dots and keeps the scheme's case), with an optional port from 0 to 65535.
fn plain_host(authority: &str) -> bool {
    let (host, port) = authority.split_once(':').unwrap_or((authority, "0"));
    let label = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'.';
    let port_number = port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok();
    host.bytes().any(|b| b.is_ascii_alphanumeric()) && host.bytes().all(label) && port_number
}

fuzz_target!(|url: &str| {
    let key = dbce_warc::surt(url);
    assert_eq!(key, dbce_warc::surt(url), "deterministic");
    let web = |scheme: &str| ["http", "https"].iter().any(|s| s.eq_ignore_ascii_case(scheme));
    let Some((scheme, rest)) = url.split_once("://").filter(|(scheme, _)| web(scheme)) else {
        return;
    };
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    if !plain_host(&rest[..host_end]) {
        return;
    }
    let shouted = format!(
        "{}://{}{}",
        scheme.to_ascii_uppercase(),
        rest[..host_end].to_ascii_uppercase(),
        &rest[host_end..]
    );
    assert_eq!(dbce_warc::surt(&shouted), key, "{url:?} against {shouted:?}");
});

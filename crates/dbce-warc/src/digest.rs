//! `WARC-Block-Digest` and `WARC-Payload-Digest`: computing and checking `sha1:` digests.

use sha1::{Digest as _, Sha1};

/// The outcome of checking one digest field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DigestCheck {
    /// The record has no such field.
    Absent,
    /// The digest matches the bytes.
    Valid,
    /// The digest does not match the bytes.
    Mismatch,
    /// The algorithm is not supported or the value is not well-formed.
    Unverifiable,
}

/// The sha1 of `bytes` as a `sha1:` + base32 label, the form WARC writers use.
pub fn sha1_label(bytes: &[u8]) -> String {
    format!(
        "sha1:{}",
        data_encoding::BASE32.encode(&Sha1::digest(bytes))
    )
}

/// The 20 bytes of a `sha1:` digest field value (base32, hex or base64), or `None` if the
/// algorithm is another or the value is not well-formed.
pub fn sha1_value(field: &str) -> Option<[u8; 20]> {
    let (algorithm, value) = field.trim().split_once(':')?;
    if !algorithm.eq_ignore_ascii_case("sha1") {
        return None;
    }
    let decoded = match value.len() {
        32 => data_encoding::BASE32.decode(value.to_ascii_uppercase().as_bytes()),
        40 => data_encoding::HEXLOWER_PERMISSIVE.decode(value.as_bytes()),
        28 => data_encoding::BASE64.decode(value.as_bytes()),
        _ => return None,
    };
    decoded.ok()?.try_into().ok()
}

/// Checks a digest field value (`sha1:` with a base32, hex or base64 value) against `bytes`.
pub fn check(field: Option<&str>, bytes: &[u8]) -> DigestCheck {
    let Some(field) = field else {
        return DigestCheck::Absent;
    };
    match sha1_value(field) {
        Some(expected) if expected[..] == Sha1::digest(bytes)[..] => DigestCheck::Valid,
        Some(_) => DigestCheck::Mismatch,
        None => DigestCheck::Unverifiable,
    }
}

/// The payload of an HTTP message block: the bytes after the header block's blank line, or
/// `None` if the block has no complete header block.
pub fn http_payload(block: &[u8]) -> Option<&[u8]> {
    let end = memchr::memmem::find(block, b"\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| memchr::memmem::find(block, b"\n\n").map(|i| i + 2))?;
    Some(&block[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha1_labels_check_in_both_encodings() {
        let label = sha1_label(b"hello");
        assert_eq!(label, "sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N");
        assert_eq!(check(Some(&label), b"hello"), DigestCheck::Valid);
        assert_eq!(
            check(
                Some("sha1:aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d"),
                b"hello"
            ),
            DigestCheck::Valid
        );
        assert_eq!(check(Some(&label), b"hellO"), DigestCheck::Mismatch);
        assert_eq!(
            check(Some("sha1:2jmj7l5rSw0yVb/vlWAYkK/YBwk="), b""),
            DigestCheck::Valid
        );
        assert_eq!(check(Some("md5:abc"), b"hello"), DigestCheck::Unverifiable);
        assert_eq!(check(None, b"hello"), DigestCheck::Absent);
    }

    #[test]
    fn sha1_values_decode_every_encoding_to_the_same_bytes() {
        let hex = sha1_value("sha1:aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d").unwrap();
        assert_eq!(sha1_value(&sha1_label(b"hello")), Some(hex));
        assert_eq!(hex[..], Sha1::digest(b"hello")[..]);
        assert_eq!(sha1_value("sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2"), None);
        assert_eq!(sha1_value("sha256:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N"), None);
        assert_eq!(sha1_value("VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N"), None);
    }

    #[test]
    fn payload_follows_the_blank_line() {
        assert_eq!(
            http_payload(b"HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody"),
            Some(&b"body"[..])
        );
        assert_eq!(http_payload(b"HTTP/1.1 200 OK\r\n"), None);
    }
}

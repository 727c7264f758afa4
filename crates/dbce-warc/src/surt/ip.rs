//! Hosts that are IPv4 addresses in another notation, rewritten as dotted quads
//! (`attemptIPFormats` of `surt`'s Google canonicalizer).

/// The dotted quad a numeric host stands for, or `None` if it is not one.
///
/// A host of digits only is a 32-bit number (larger ones are masked to their low 32 bits, as
/// `surt` does for old ARC files). A host of one to four dot-separated digit groups is resolved
/// by Python with `gethostbyname`, which for these reads it as `inet_aton` does: a leading `0`
/// means octal, and the last group fills the remaining bytes (`127.1` is `127.0.0.1`). Groups
/// that `inet_aton` rejects leave the host unchanged, as the failing name lookup does.
pub(super) fn attempt_ip_formats(host: &[u8]) -> Option<Vec<u8>> {
    if !host.is_empty() && host.iter().all(u8::is_ascii_digit) {
        let value = host.iter().fold(0u32, |value, &digit| {
            value.wrapping_mul(10).wrapping_add(u32::from(digit - b'0'))
        });
        return Some(dotted(value));
    }
    let groups: Vec<&[u8]> = host.split(|&b| b == b'.').collect();
    let looks_numeric = groups.len() <= 4
        && groups
            .iter()
            .all(|g| !g.is_empty() && g.iter().all(u8::is_ascii_digit));
    let octal = groups
        .iter()
        .all(|g| g.iter().all(|b| (b'0'..=b'7').contains(b)));
    let first = groups.first().and_then(|g| g.first());
    let resolved = looks_numeric && (first != Some(&b'0') || octal);
    if !resolved {
        return None;
    }
    inet_aton(&groups).map(dotted)
}

/// `inet_aton` of groups of digits: decimal, or octal with a leading `0`.
fn inet_aton(groups: &[&[u8]]) -> Option<u32> {
    let values = groups
        .iter()
        .map(|group| parse_group(group))
        .collect::<Option<Vec<u64>>>()?;
    let (last, init) = values.split_last()?;
    let mut address: u64 = 0;
    for (i, &value) in init.iter().enumerate() {
        if value > 255 {
            return None;
        }
        address |= value << (24 - 8 * i);
    }
    let last_bits = 32 - 8 * init.len();
    if *last >= 1u64 << last_bits {
        return None;
    }
    u32::try_from(address | last).ok()
}

fn parse_group(group: &[u8]) -> Option<u64> {
    let (digits, radix) = match group {
        [b'0', rest @ ..] => (rest, 8),
        _ => (group, 10),
    };
    digits.iter().try_fold(0u64, |value, &digit| {
        let digit = char::from(digit).to_digit(radix)?;
        value
            .checked_mul(u64::from(radix))?
            .checked_add(u64::from(digit))
    })
}

fn dotted(value: u32) -> Vec<u8> {
    let [a, b, c, d] = value.to_be_bytes();
    format!("{a}.{b}.{c}.{d}").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(host: &str) -> Option<String> {
        attempt_ip_formats(host.as_bytes()).map(|v| String::from_utf8(v).unwrap())
    }

    #[test]
    fn numeric_hosts_become_dotted_quads() {
        assert_eq!(ip("3232235777").as_deref(), Some("192.168.1.1"));
        assert_eq!(ip("4294967297").as_deref(), Some("0.0.0.1"));
        assert_eq!(ip("127.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(ip("1.010.0.1").as_deref(), Some("1.8.0.1"));
        assert_eq!(ip("010.1.1.1").as_deref(), Some("8.1.1.1"));
        assert_eq!(ip("1.2.65535").as_deref(), Some("1.2.255.255"));
    }

    #[test]
    fn other_hosts_are_left_alone() {
        for host in [
            "",
            "1.2.3.256",
            "1.2.65536",
            "1.2.3.4.5",
            "08.1.1.1",
            "1.09.1.1",
            "a.b",
            "1..2",
        ] {
            assert_eq!(ip(host), None, "{host}");
        }
    }
}

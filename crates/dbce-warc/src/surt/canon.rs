//! The two canonicalizers `surt` applies by default, one after the other: the Google one
//! (percent-encoding, IDNA, IP addresses, dot segments) and the Internet Archive one
//! (lowercasing, `www` and default ports, session ids, query order).

use super::{Url, idna, ip, session};

/// `GoogleURLCanonicalizer.canonicalize`.
pub(super) fn google(url: &mut Url) {
    if !url.query.is_empty() {
        url.query = escape_once(&unescape_repeatedly(&url.query));
    }
    if !url.host.is_empty() {
        url.host = google_host(&url.host);
    }
    let path = unescape_repeatedly(&url.path);
    // Without a host the path is free-form (`mailto:`, `urn:`), not a directory path.
    let path = if url.host.is_empty() {
        path
    } else {
        normalize_path(&path)
    };
    url.path = escape_once(&path);
}

fn google_host(host: &[u8]) -> Vec<u8> {
    let mut host = unescape_repeatedly(host);
    if !host.is_ascii()
        && let Some(ascii) = idna::to_ascii(&host)
    {
        host = ascii;
    }
    let host = replace_double_dots(&host);
    let host = trim_dots(&host);
    ip::attempt_ip_formats(host).unwrap_or_else(|| escape_once(&host.to_ascii_lowercase()))
}

/// `IAURLCanonicalizer.canonicalize` with its default options.
pub(super) fn internet_archive(url: &mut Url) {
    url.host.make_ascii_lowercase();
    if url.scheme != b"dns" {
        url.host = strip_www(&url.host).to_vec();
    }
    if url.port == Some(default_port(&url.scheme)) {
        url.port = None;
    }
    if !url.path.is_empty() {
        url.path.make_ascii_lowercase();
        url.path = session::strip_from_path(&url.path);
        if url.path.len() > 1 && url.path.ends_with(b"/") {
            url.path.pop();
        }
    }
    if !url.query.is_empty() {
        let mut query = session::strip_from_query(&url.query);
        query.make_ascii_lowercase();
        url.query = sort_query(&query);
    }
}

/// Percent-encodes every byte outside printable ASCII, and space, `#` and `%`
/// (`escapeOnce`: `quote_from_bytes` with all printable ASCII but those safe).
pub(super) fn escape_once(bytes: &[u8]) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = Vec::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_graphic() && b != b'#' && b != b'%' {
            out.push(b);
        } else {
            out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        }
    }
    out
}

/// Decodes `%XX` escapes until none is left (`unescapeRepeatedly`); a `%` not followed by two
/// hex digits stays.
pub(super) fn unescape_repeatedly(bytes: &[u8]) -> Vec<u8> {
    let mut current = bytes.to_vec();
    loop {
        let next = unquote(&current);
        if next == current {
            return current;
        }
        current = next;
    }
}

fn unquote(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let decoded = match bytes.get(i..i + 3) {
            Some([b'%', hi, lo]) => hex_value(*hi).zip(hex_value(*lo)),
            _ => None,
        };
        match decoded {
            Some((hi, lo)) => {
                out.push(hi << 4 | lo);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    out
}

fn hex_value(digit: u8) -> Option<u8> {
    char::from(digit)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

/// Resolves `.` and `..` segments and drops empty ones but the last (`normalizePath`); a `..`
/// above the root is kept.
fn normalize_path(path: &[u8]) -> Vec<u8> {
    if path.is_empty() {
        return b"/".to_vec();
    }
    let mut kept: Vec<&[u8]> = Vec::new();
    for segment in path.split(|&b| b == b'/').skip(1) {
        match segment {
            b"." => {}
            b".." if !kept.is_empty() => {
                kept.pop();
            }
            _ => kept.push(segment),
        }
    }
    let mut out = b"/".to_vec();
    if let Some((last, init)) = kept.split_last() {
        for segment in init.iter().filter(|s| !s.is_empty()) {
            out.extend_from_slice(segment);
            out.push(b'/');
        }
        out.extend_from_slice(last);
    }
    out
}

/// `host.replace(b'..', b'.')`: one left-to-right pass, so `...` becomes `..`.
fn replace_double_dots(host: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(host.len());
    let mut i = 0;
    while i < host.len() {
        out.push(host[i]);
        i += if host[i..].starts_with(b"..") { 2 } else { 1 };
    }
    out
}

fn trim_dots(host: &[u8]) -> &[u8] {
    let start = host.iter().position(|&b| b != b'.').unwrap_or(host.len());
    let end = host
        .iter()
        .rposition(|&b| b != b'.')
        .map_or(start, |i| i + 1);
    &host[start..end]
}

/// Drops a leading `www.`, `www2.`, `www123.` (`massageHost`).
fn strip_www(host: &[u8]) -> &[u8] {
    let Some(rest) = host.strip_prefix(b"www") else {
        return host;
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    rest[digits..].strip_prefix(b".").unwrap_or(host)
}

/// The port a scheme implies; 0 (which never survives parsing) for schemes other than HTTP(S).
fn default_port(scheme: &[u8]) -> u16 {
    match scheme.to_ascii_lowercase().as_slice() {
        b"http" => 80,
        b"https" => 443,
        _ => 0,
    }
}

/// Sorts `&`-separated arguments as Python sorts `(name,)` / `(name, value)` tuples
/// (`alphaReorderQuery`): by name, an argument without `=` before one with.
fn sort_query(query: &[u8]) -> Vec<u8> {
    if query.len() <= 1 {
        return query.to_vec();
    }
    let mut args: Vec<(&[u8], Option<&[u8]>)> = query
        .split(|&b| b == b'&')
        .map(|arg| match arg.iter().position(|&b| b == b'=') {
            Some(eq) => (&arg[..eq], Some(&arg[eq + 1..])),
            None => (arg, None),
        })
        .collect();
    args.sort();
    let mut out = Vec::with_capacity(query.len());
    for (i, (name, value)) in args.into_iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(name);
        if let Some(value) = value {
            out.push(b'=');
            out.extend_from_slice(value);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_round_trips_through_unescaping() {
        assert_eq!(escape_once(b"a b#%\x7f\xc3\xa9~"), b"a%20b%23%25%7F%C3%A9~");
        assert_eq!(unescape_repeatedly(b"%2541%zz%4"), b"A%zz%4");
        assert_eq!(unescape_repeatedly(b"%%41"), b"%A");
    }

    #[test]
    fn paths_are_normalized() {
        assert_eq!(normalize_path(b""), b"/");
        assert_eq!(normalize_path(b"/a/./b/../c/"), b"/a/c/");
        assert_eq!(normalize_path(b"/../a//b"), b"/../a/b");
        assert_eq!(normalize_path(b"/a/.."), b"/");
    }

    #[test]
    fn hosts_lose_www_and_extra_dots() {
        assert_eq!(strip_www(b"www12.e.com"), b"e.com");
        assert_eq!(strip_www(b"wwwx.e.com"), b"wwwx.e.com");
        assert_eq!(strip_www(b"www"), b"www");
        assert_eq!(replace_double_dots(b"a...b....c"), b"a..b..c");
        assert_eq!(trim_dots(b"..a.b."), b"a.b");
    }

    #[test]
    fn query_arguments_sort_like_python_tuples() {
        assert_eq!(sort_query(b"b=2&a=1&a"), b"a&a=1&b=2");
        assert_eq!(sort_query(b"a-b&a=1"), b"a=1&a-b");
        assert_eq!(sort_query(b"&"), b"&");
    }
}

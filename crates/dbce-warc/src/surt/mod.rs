//! SURT keys: URLs canonicalized and rewritten host-first so that captures of one site sort
//! together, exactly as the Python `surt` package (0.3) writes them by default.
//!
//! The steps are those of `surt.surt(url)`: parse the URL leniently ([`Url::parse`]), apply the
//! Google canonicalizer then the Internet Archive one ([`canon`]), and write the host reversed
//! with `,` between labels, then `)` and the path and query.

mod canon;
mod idna;
mod ip;
mod session;

/// The SURT key of `url`, as `surt.surt(url)` computes it and cdxj-indexer uses it.
///
/// For example `http://www.Example.com:80/a/../B/?b=2&a=1#top` becomes
/// `com,example)/b?a=1&b=2`: the scheme, `www.`, the default port, the fragment and a trailing
/// slash are dropped, dot segments resolved, host, path and query lowercased, query arguments
/// sorted and percent-encoding normalised. An empty URL gives `-`, one starting with
/// `filedesc` is returned as is, and so is a URL Python's parser rejects (a port that is not a
/// number from 0 to 65535, or nothing but blanks), as cdxj-indexer does.
///
/// ```
/// assert_eq!(dbce_warc::surt("http://www.Example.com:80/a/../B/?b=2&a=1#top"), "com,example)/b?a=1&b=2");
/// assert_eq!(dbce_warc::surt("dns:example.com"), "dns:example.com");
/// ```
pub fn surt(url: &str) -> String {
    if url.is_empty() {
        return "-".to_owned();
    }
    if url.starts_with("filedesc") {
        return url.to_owned();
    }
    match Url::parse(url.as_bytes()) {
        Some(mut parsed) => {
            canon::google(&mut parsed);
            canon::internet_archive(&mut parsed);
            String::from_utf8_lossy(&parsed.to_surt()).into_owned()
        }
        None => url.to_owned(),
    }
}

/// A URL split as `surt`'s `handyurl` splits it. Empty fields stand for Python's `None`: the
/// parser never produces an empty path or query, and an empty host is treated as none.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Url {
    scheme: Vec<u8>,
    host: Vec<u8>,
    port: Option<u16>,
    path: Vec<u8>,
    query: Vec<u8>,
}

impl Url {
    /// Parses `url` as `handyurl.parse` does, or `None` where Python raises.
    fn parse(url: &[u8]) -> Option<Self> {
        let url = python_strip(url);
        let mut url: Vec<u8> = url
            .iter()
            .copied()
            .filter(|b| !matches!(b, b'\n' | b'\r' | b'\t'))
            .collect();
        if url.is_empty() {
            return None;
        }
        if scheme_len(&url).is_none() {
            url.splice(0..0, *b"http://");
        }
        let url = collapse_protocols(&url);
        let scheme_len = scheme_len(url)?;
        let (netloc, path, query) = split_rest(&url[scheme_len + 1..]);
        let netloc = trim_end(netloc, b':');
        let (host, port) = host_and_port(netloc)?;
        let scheme = url[..scheme_len].to_vec();
        let (host, path) = if scheme.starts_with(b"http") && host.is_empty() && !path.is_empty() {
            // `http:////host/path` and `http:host/path`: the host is the first path segment.
            let path = &path[path.iter().take_while(|&&b| b == b'/').count()..];
            let (host, rest) = split_at_byte(path, b'/');
            (host.to_vec(), [&b"/"[..], rest].concat())
        } else {
            (host.to_vec(), path.to_vec())
        };
        Some(Self {
            scheme,
            host,
            port,
            path,
            query: query.to_vec(),
        })
    }

    /// The SURT form without scheme, as `handyurl.geturl_bytes(surt=True, with_scheme=False)`.
    fn to_surt(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.host.len() + self.path.len() + self.query.len() + 8);
        if self.host.is_empty() {
            out.extend_from_slice(&self.scheme);
            out.push(b':');
        } else {
            for (i, label) in self.host.split(|&b| b == b'.').rev().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(label);
            }
            if let Some(port) = self.port {
                out.extend_from_slice(format!(":{port}").as_bytes());
            }
            out.push(b')');
        }
        if !self.path.is_empty() {
            out.extend_from_slice(&self.path);
        } else if !self.query.is_empty() {
            out.push(b'/');
        }
        if !self.query.is_empty() {
            out.push(b'?');
            out.extend_from_slice(&self.query);
        }
        out
    }
}

/// `bytes.strip()`: removes ASCII whitespace, vertical tab included, from both ends.
fn python_strip(bytes: &[u8]) -> &[u8] {
    let blank = |b: &u8| matches!(b, b' ' | b'\t'..=b'\r');
    let start = bytes.iter().position(|b| !blank(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !blank(b))
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}

/// The length of the scheme if `url` starts with one and a colon (`[a-zA-Z][a-zA-Z0-9+.-]*:`).
fn scheme_len(url: &[u8]) -> Option<usize> {
    if !url.first()?.is_ascii_alphabetic() {
        return None;
    }
    let len = url
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))?;
    (url[len] == b':').then_some(len)
}

/// Keeps only the last of repeated leading `http://` / `https://` (`http://https://x`).
fn collapse_protocols(url: &[u8]) -> &[u8] {
    let mut last = 0;
    let mut position = 0;
    loop {
        let rest = &url[position..];
        let len = if rest.starts_with(b"http://") {
            7
        } else if rest.starts_with(b"https://") {
            8
        } else {
            return &url[last..];
        };
        last = position;
        position += len;
    }
}

/// Splits what follows the scheme's colon into network location, path and query; the
/// fragment is dropped.
fn split_rest(rest: &[u8]) -> (&[u8], &[u8], &[u8]) {
    let (netloc, rest) = match rest.strip_prefix(b"//") {
        Some(rest) => {
            let end = rest
                .iter()
                .position(|b| b"/?#".contains(b))
                .unwrap_or(rest.len());
            rest.split_at(end)
        }
        None => (&b""[..], rest),
    };
    let (rest, _fragment) = split_at_byte(rest, b'#');
    let (path, query) = split_at_byte(rest, b'?');
    (netloc, path, query)
}

/// The host and port of a network location, as `urllib`'s `hostname` and `port` (before
/// lowercasing), or `None` where `port` raises. Port 0 counts as no port.
fn host_and_port(netloc: &[u8]) -> Option<(&[u8], Option<u16>)> {
    let hostinfo = match netloc.iter().rposition(|&b| b == b'@') {
        Some(at) => &netloc[at + 1..],
        None => netloc,
    };
    let (host, port) = match split_once(hostinfo, b'[') {
        Some((_, bracketed)) => {
            let (host, after) = split_at_byte(bracketed, b']');
            (host, split_at_byte(after, b':').1)
        }
        None => split_at_byte(hostinfo, b':'),
    };
    if port.is_empty() {
        return Some((host, None));
    }
    if !port.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let port = port.iter().try_fold(0u16, |value, &digit| {
        value.checked_mul(10)?.checked_add(u16::from(digit - b'0'))
    })?;
    Some((host, (port != 0).then_some(port)))
}

/// Python's `bytes.partition(sep)` without the separator: everything after the first `sep`
/// is the second part, which is empty when there is none.
fn split_at_byte(bytes: &[u8], sep: u8) -> (&[u8], &[u8]) {
    split_once(bytes, sep).unwrap_or((bytes, &[]))
}

fn split_once(bytes: &[u8], sep: u8) -> Option<(&[u8], &[u8])> {
    let at = bytes.iter().position(|&b| b == sep)?;
    Some((&bytes[..at], &bytes[at + 1..]))
}

/// `bytes.rstrip(byte)`.
fn trim_end(bytes: &[u8], byte: u8) -> &[u8] {
    let end = bytes.iter().rposition(|&b| b != byte).map_or(0, |i| i + 1);
    &bytes[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[url, key]` pairs written by `scripts/cdx-fixtures.py` with Python's `surt` package.
    const PYTHON_CASES: &str = include_str!("../../../../testdata/cdx/surt.jsonl");

    #[test]
    fn keys_match_python_surt() {
        let mut failures = Vec::new();
        let mut count = 0;
        for line in PYTHON_CASES.lines() {
            let [url, expected]: [String; 2] = serde_json::from_str(line).unwrap();
            count += 1;
            let actual = surt(&url);
            if actual != expected {
                failures.push(format!("{url:?}: expected {expected:?}, got {actual:?}"));
            }
        }
        assert!(count > 100, "only {count} cases");
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn urls_split_like_handyurl() {
        let url = Url::parse(b" http://https://u@Example.com:8080/a/b?x=1#f ").unwrap();
        assert_eq!(url.scheme, b"https");
        assert_eq!(url.host, b"Example.com");
        assert_eq!(url.port, Some(8080));
        assert_eq!(url.path, b"/a/b");
        assert_eq!(url.query, b"x=1");
        assert_eq!(Url::parse(b"http://e.com:99999/"), None);
        assert_eq!(Url::parse(b"   "), None);
    }

    #[test]
    fn surt_keys_put_the_host_first() {
        assert_eq!(surt(""), "-");
        assert_eq!(surt("filedesc://x.arc"), "filedesc://x.arc");
        assert_eq!(
            surt("http://a.b.example.org:8080/x?b&a"),
            "org,example,b,a:8080)/x?a&b"
        );
        assert_eq!(surt("http://e.com:nan/"), "http://e.com:nan/");
    }
}

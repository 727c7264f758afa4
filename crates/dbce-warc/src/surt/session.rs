//! Session ids removed from paths and queries, as `surt`'s `URLRegexTransformer` removes them.
//!
//! Each Python pattern is `^(.*)TOKEN(?:&(.*))?$` (queries) or `^(.*/)TOKEN([^?]+\.aspx.*)$`
//! (paths), matched case-insensitively; the greedy `(.*)` means the rightmost place where the
//! token fits wins. A token matcher here returns the token's length at the start of its input.

/// Returns the length of a session token at the start of the input, if there is one.
type Token = fn(&[u8]) -> Option<usize>;

/// `stripQuerySessionID`: drops `jsessionid=…`, `phpsessid=…`, `sid=…`, `ASPSESSIONID…=…` and
/// `cfid=…&cftoken=…` arguments (each pattern once, in that order).
pub(super) fn strip_from_query(query: &[u8]) -> Vec<u8> {
    let tokens: [Token; 5] = [jsessionid, phpsessid, sid, aspsessionid, cfid];
    let mut query = query.to_vec();
    for token in tokens {
        let found = (0..=query.len()).rev().find_map(|start| {
            let end = start + token(&query[start..])?;
            (end == query.len() || query[end] == b'&').then_some((start, end))
        });
        if let Some((start, end)) = found {
            let rest = query.get(end + 1..).unwrap_or_default();
            query = [&query[..start], rest].concat();
        }
    }
    query
}

/// `stripPathSessionID`: drops an ASP.NET session segment (`/(S(…))/` or `/(…)/`) before a
/// path ending in an `.aspx` page.
pub(super) fn strip_from_path(path: &[u8]) -> Vec<u8> {
    let path = strip_path_token(path, nested_segment);
    strip_path_token(&path, plain_segment)
}

fn strip_path_token(path: &[u8], token: Token) -> Vec<u8> {
    let slashes = path.iter().enumerate().rev().filter(|&(_, &b)| b == b'/');
    for (slash, _) in slashes {
        let start = slash + 1;
        let Some(len) = token(&path[start..]) else {
            continue;
        };
        let rest = &path[start + len..];
        if is_aspx_page(rest) {
            return [&path[..start], rest].concat();
        }
    }
    path.to_vec()
}

/// `[^?]+\.aspx.*`: `.aspx` after at least one byte, with no `?` before it.
fn is_aspx_page(rest: &[u8]) -> bool {
    let end = rest.iter().position(|&b| b == b'?').unwrap_or(rest.len());
    (1..end).any(|i| {
        rest.get(i..i + 5)
            .is_some_and(|s| s.eq_ignore_ascii_case(b".aspx"))
    })
}

/// `\((?:[a-z]\([0-9a-z]{24}\))+\)/`, e.g. `(S(0123456789abcdefghijklmn))/`.
fn nested_segment(bytes: &[u8]) -> Option<usize> {
    let mut rest = bytes.strip_prefix(b"(")?;
    let mut units = 0;
    while let Some(after) = nested_unit(rest) {
        rest = after;
        units += 1;
    }
    let rest = rest.strip_prefix(b")/").filter(|_| units > 0)?;
    Some(bytes.len() - rest.len())
}

fn nested_unit(bytes: &[u8]) -> Option<&[u8]> {
    let rest = class(bytes, 1, u8::is_ascii_alphabetic)?;
    let rest = rest.strip_prefix(b"(")?;
    class(rest, 24, u8::is_ascii_alphanumeric)?.strip_prefix(b")")
}

/// `\([0-9a-z]{24}\)/`.
fn plain_segment(bytes: &[u8]) -> Option<usize> {
    let rest = bytes.strip_prefix(b"(")?;
    let rest = class(rest, 24, u8::is_ascii_alphanumeric)?.strip_prefix(b")/")?;
    Some(bytes.len() - rest.len())
}

fn jsessionid(bytes: &[u8]) -> Option<usize> {
    named_id(bytes, b"jsessionid=")
}

fn phpsessid(bytes: &[u8]) -> Option<usize> {
    named_id(bytes, b"phpsessid=")
}

fn sid(bytes: &[u8]) -> Option<usize> {
    named_id(bytes, b"sid=")
}

/// `NAME[0-9a-zA-Z]{32}`.
fn named_id(bytes: &[u8], name: &[u8]) -> Option<usize> {
    let rest = literal(bytes, name)?;
    let rest = class(rest, 32, u8::is_ascii_alphanumeric)?;
    Some(bytes.len() - rest.len())
}

/// `ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24}`.
fn aspsessionid(bytes: &[u8]) -> Option<usize> {
    let rest = literal(bytes, b"aspsessionid")?;
    let rest = class(rest, 8, u8::is_ascii_alphabetic)?.strip_prefix(b"=")?;
    let rest = class(rest, 24, u8::is_ascii_alphabetic)?;
    Some(bytes.len() - rest.len())
}

/// `cfid=[^&]+&cftoken=[^&]+`.
fn cfid(bytes: &[u8]) -> Option<usize> {
    let rest = not_ampersands(literal(bytes, b"cfid=")?)?;
    let rest = not_ampersands(literal(rest, b"&cftoken=")?)?;
    Some(bytes.len() - rest.len())
}

/// What follows `name` (compared case-insensitively) at the start of `bytes`.
fn literal<'a>(bytes: &'a [u8], name: &[u8]) -> Option<&'a [u8]> {
    let head = bytes.get(..name.len())?;
    head.eq_ignore_ascii_case(name)
        .then(|| &bytes[name.len()..])
}

/// What follows `count` bytes of a class at the start of `bytes`.
fn class(bytes: &[u8], count: usize, member: fn(&u8) -> bool) -> Option<&[u8]> {
    let head = bytes.get(..count)?;
    head.iter().all(member).then(|| &bytes[count..])
}

/// What follows one or more bytes other than `&`.
fn not_ampersands(bytes: &[u8]) -> Option<&[u8]> {
    let len = bytes.iter().take_while(|&&b| b != b'&').count();
    (len > 0).then(|| &bytes[len..])
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "0123456789abcdef0123456789ABCDEF";

    #[test]
    fn query_session_ids_are_dropped_with_their_ampersand() {
        let query = format!("a=1&jsessionid={ID}&b=2");
        assert_eq!(strip_from_query(query.as_bytes()), b"a=1&b=2");
        let query = format!("a=1&JSESSIONID={ID}");
        assert_eq!(strip_from_query(query.as_bytes()), b"a=1&");
        let query = format!("a=1&jsessionid={ID}x");
        assert_eq!(strip_from_query(query.as_bytes()), query.as_bytes());
        assert_eq!(strip_from_query(b"x&cfid=1&cftoken=2&y"), b"x&y");
    }

    #[test]
    fn the_rightmost_session_id_is_dropped() {
        let query = format!("sid={ID}&sid={ID}");
        assert_eq!(
            strip_from_query(query.as_bytes()),
            format!("sid={ID}&").as_bytes()
        );
    }

    #[test]
    fn path_session_segments_go_before_aspx_pages() {
        let segment = "(abcdefghijklmnopqrstuvwx)";
        let path = format!("/a/(s{segment})/b/page.aspx");
        assert_eq!(strip_from_path(path.as_bytes()), b"/a/b/page.aspx");
        let path = format!("/a/{segment}/page.aspx?x");
        assert_eq!(strip_from_path(path.as_bytes()), b"/a/page.aspx?x");
        let path = format!("/a/{segment}/page.html");
        assert_eq!(strip_from_path(path.as_bytes()), path.as_bytes());
        let path = format!("/a/{segment}/?.aspx");
        assert_eq!(strip_from_path(path.as_bytes()), path.as_bytes());
    }
}

//! The two pieces of a `Content-Type` value this crate needs: the essence and the charset.

/// The MIME type essence (`type/subtype`, lower-cased) of a `Content-Type` value; `None` when it
/// has no `/` with a non-empty type and subtype.
pub(crate) fn essence(content_type: &str) -> Option<String> {
    let essence = content_type.split(';').next()?.trim();
    let (kind, subtype) = essence.split_once('/')?;
    if kind.trim().is_empty() || subtype.trim().is_empty() {
        return None;
    }
    Some(essence.to_ascii_lowercase())
}

/// The value of the `charset` parameter of a `Content-Type` value, unquoted.
pub(crate) fn charset_param(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim();
        let unquoted = value
            .strip_prefix('"')
            .map_or(value, |inner| inner.split('"').next().unwrap_or(inner));
        Some(unquoted.trim()).filter(|v| !v.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn essence_is_lower_cased_without_parameters() {
        assert_eq!(
            essence("Text/HTML; charset=utf-8").as_deref(),
            Some("text/html")
        );
        assert_eq!(
            essence(" application/xhtml+xml ").as_deref(),
            Some("application/xhtml+xml")
        );
        assert_eq!(essence("html"), None);
        assert_eq!(essence("text/"), None);
        assert_eq!(essence(""), None);
    }

    #[test]
    fn charset_is_found_quoted_or_not() {
        assert_eq!(charset_param("text/html; charset=UTF-8"), Some("UTF-8"));
        assert_eq!(
            charset_param("text/html;foo=bar; CHARSET = \"koi8-r\" ;x"),
            Some("koi8-r")
        );
        assert_eq!(
            charset_param("text/html; charset=\"unterminated"),
            Some("unterminated")
        );
        assert_eq!(charset_param("text/html; charset="), None);
        assert_eq!(charset_param("text/html"), None);
        assert_eq!(charset_param("charset=utf-8"), None);
    }
}

use encoding_rs::{EUC_JP, ISO_8859_2, KOI8_R, SHIFT_JIS, UTF_8, WINDOWS_1251, WINDOWS_1252};

use super::*;

fn scan(html: &str) -> Option<&'static str> {
    prescan(html.as_bytes()).map(Encoding::name)
}

#[test]
fn finds_meta_charset() {
    assert_eq!(
        scan("<!doctype html><html><head><meta charset=utf-8>"),
        Some("UTF-8")
    );
    assert_eq!(scan("<META CHARSET=\"Shift_JIS\">"), Some(SHIFT_JIS.name()));
    assert_eq!(scan("<meta/charset='koi8-r'/>"), Some(KOI8_R.name()));
    assert_eq!(scan("<meta\n\tcharset = euc-jp >"), Some(EUC_JP.name()));
}

#[test]
fn finds_charset_in_http_equiv_content() {
    let html = r#"<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">"#;
    assert_eq!(scan(html), Some(WINDOWS_1251.name()));
    let reversed = "<meta content='text/html;charset=\"iso-8859-2\"' http-equiv=content-type>";
    assert_eq!(scan(reversed), Some(ISO_8859_2.name()));
    let spaced = "<meta http-equiv=content-type content=\"text/html; CHARSET = koi8-r ; x\">";
    assert_eq!(scan(spaced), Some(KOI8_R.name()));
}

#[test]
fn content_without_http_equiv_is_ignored() {
    assert_eq!(scan(r#"<meta content="text/html; charset=koi8-r">"#), None);
    let wrong_pragma = r#"<meta http-equiv="refresh" content="0; charset=koi8-r">"#;
    assert_eq!(scan(wrong_pragma), None);
}

#[test]
fn comment_hides_a_meta() {
    let html = "<!-- <meta charset=koi8-r> --><meta charset=euc-jp>";
    assert_eq!(scan(html), Some(EUC_JP.name()));
    assert_eq!(scan("<!--> <meta charset=koi8-r>"), Some(KOI8_R.name()));
    assert_eq!(scan("<!-- unterminated <meta charset=koi8-r>"), None);
}

#[test]
fn attribute_values_in_other_tags_do_not_count() {
    let html = r#"<div title='<meta charset=koi8-r>'></div><meta charset="euc-jp">"#;
    assert_eq!(scan(html), Some(EUC_JP.name()));
    let html = "<?xml version='1.0'?><!DOCTYPE html></p><meta charset=koi8-r>";
    assert_eq!(scan(html), Some(KOI8_R.name()));
    assert_eq!(scan("<metadata charset=koi8-r>"), None);
}

#[test]
fn odd_quoting_and_duplicate_attributes() {
    assert_eq!(
        scan("<meta charset=\"koi8-r' x>"),
        None,
        "quote never closed"
    );
    assert_eq!(
        scan("<meta charset=koi8-r charset=euc-jp>"),
        Some(KOI8_R.name())
    );
    assert_eq!(scan("<meta =charset charset=koi8-r>"), Some(KOI8_R.name()));
    assert_eq!(
        scan("<meta charset='koi8-r\"'>"),
        None,
        "label with a quote is unknown"
    );
    let unmatched = "<meta http-equiv=content-type content='charset=\"koi8-r'>";
    assert_eq!(scan(unmatched), None);
}

#[test]
fn first_usable_declaration_wins() {
    let html = "<meta charset=bogus><meta charset=koi8-r><meta charset=euc-jp>";
    assert_eq!(scan(html), Some(KOI8_R.name()));
}

#[test]
fn utf16_means_utf8_and_user_defined_means_windows_1252() {
    assert_eq!(scan("<meta charset=utf-16le>"), Some(UTF_8.name()));
    assert_eq!(scan("<meta charset=UTF-16>"), Some(UTF_8.name()));
    assert_eq!(
        scan("<meta charset=x-user-defined>"),
        Some(WINDOWS_1252.name())
    );
}

#[test]
fn only_the_first_1024_bytes_are_scanned() {
    let padding = " ".repeat(PRESCAN_BYTES - "<meta charset=koi8-r>".len());
    assert_eq!(
        scan(&format!("{padding}<meta charset=koi8-r>")),
        Some(KOI8_R.name())
    );
    assert_eq!(
        scan(&format!(" {padding}<meta charset=koi8-r>")),
        None,
        "cut off tag"
    );
    assert_eq!(
        scan(&format!("{padding}{padding}<meta charset=koi8-r>")),
        None
    );
}

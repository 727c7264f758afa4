use encoding_rs::{KOI8_R, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1251};

use super::*;

const JAPANESE: &str = "日本語のウェブページです。これは文字コードの判定を試すための文章で、\
                        ひらがなとカタカナと漢字が混ざっています。東京は晴れ、大阪は雨でした。";
const RUSSIAN: &str = "Это обычная русская веб-страница. Здесь написан текст для проверки \
                       определения кодировки: погода в Москве сегодня хорошая, а в Петербурге идёт \
                       дождь. Мы читаем новости и пишем письма друзьям.";

fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable);
    bytes.into_owned()
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = if big_endian {
        vec![0xfe, 0xff]
    } else {
        vec![0xff, 0xfe]
    };
    for unit in text.encode_utf16() {
        out.extend(if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        });
    }
    out
}

#[test]
fn bom_beats_every_other_source() {
    let body = b"\xef\xbb\xbf<meta charset=koi8-r>caf\xc3\xa9";
    let html = decode_html(body, Some("text/html; charset=windows-1252"));
    assert_eq!(
        (html.text.as_str(), html.encoding, html.source),
        ("<meta charset=koi8-r>café", UTF_8, CharsetSource::Bom)
    );
    for (big_endian, encoding) in [(false, UTF_16LE), (true, UTF_16BE)] {
        let html = decode_html(
            &utf16("<p>日本</p>", big_endian),
            Some("text/html; charset=utf-8"),
        );
        assert_eq!(
            (html.text.as_str(), html.encoding, html.source),
            ("<p>日本</p>", encoding, CharsetSource::Bom)
        );
    }
}

#[test]
fn http_charset_decodes_windows_1252_and_beats_meta() {
    let body = b"<meta charset=utf-8><p>caf\xe9 \x80 \x93quoted\x94</p>";
    let html = decode_html(body, Some("text/html; charset=windows-1252"));
    assert_eq!(html.text, "<meta charset=utf-8><p>café € “quoted”</p>");
    assert_eq!(
        (html.encoding, html.source, html.had_errors),
        (WINDOWS_1252, CharsetSource::Http, false)
    );
}

#[test]
fn iso_8859_1_label_means_windows_1252() {
    let html = decode_html(b"\x80 caf\xe9", Some("text/html; charset=\"ISO-8859-1\""));
    assert_eq!(
        (html.text.as_str(), html.encoding),
        ("€ café", WINDOWS_1252)
    );
    let html = decode_html(b"<meta charset=latin1>\x80", None);
    assert_eq!(
        (html.text.as_str(), html.encoding, html.source),
        ("<meta charset=latin1>€", WINDOWS_1252, CharsetSource::Meta)
    );
}

#[test]
fn unknown_and_replacement_labels_are_skipped() {
    let body = encode("<meta charset=koi8-r><p>Привет</p>", KOI8_R);
    for content_type in [
        "text/html; charset=no-such-charset",
        "text/html; charset=iso-2022-kr",
        "text/html",
    ] {
        let html = decode_html(&body, Some(content_type));
        assert_eq!(
            (html.text.as_str(), html.source),
            ("<meta charset=koi8-r><p>Привет</p>", CharsetSource::Meta),
            "{content_type}"
        );
    }
}

#[test]
fn detects_shift_jis() {
    let body = encode(
        &format!("<html><body><p>{JAPANESE}</p></body></html>"),
        SHIFT_JIS,
    );
    let html = decode_html(&body, Some("text/html"));
    assert_eq!(
        (html.encoding, html.source),
        (SHIFT_JIS, CharsetSource::Detected)
    );
    assert!(html.text.contains(JAPANESE));
}

#[test]
fn detects_cyrillic_with_and_without_a_tld_hint() {
    let body = encode(&format!("<p>{RUSSIAN}</p>"), WINDOWS_1251);
    for tld in [
        None,
        Some("ru"),
        Some("www.Example.RU."),
        Some("bad label!"),
    ] {
        let html = decode_html_with_tld(&body, None, tld);
        assert_eq!(
            (html.encoding, html.source),
            (WINDOWS_1251, CharsetSource::Detected),
            "{tld:?}"
        );
        assert!(html.text.contains(RUSSIAN));
    }
}

#[test]
fn detects_undeclared_utf8_and_iso_2022_jp() {
    let html = decode_html(format!("<p>{RUSSIAN}</p>").as_bytes(), None);
    assert_eq!(
        (html.encoding, html.source),
        (UTF_8, CharsetSource::Detected)
    );
    let body = encode(JAPANESE, encoding_rs::ISO_2022_JP);
    assert!(body.is_ascii());
    let html = decode_html(&body, None);
    assert_eq!(
        (html.text.as_str(), html.source),
        (JAPANESE, CharsetSource::Detected)
    );
}

#[test]
fn ascii_body_falls_back_to_windows_1252() {
    let html = decode_html(b"<html><p>plain ASCII</p></html>", Some("text/html"));
    assert_eq!(
        (html.encoding, html.source, html.had_errors),
        (WINDOWS_1252, CharsetSource::Default, false)
    );
    assert_eq!(decode_html(b"", None).source, CharsetSource::Default);
}

#[test]
fn malformed_bytes_are_replaced_and_reported() {
    let html = decode_html(b"<p>ok \xff\xfe bad</p>", Some("text/html; charset=utf-8"));
    assert_eq!(html.text, "<p>ok \u{fffd}\u{fffd} bad</p>");
    assert!(html.had_errors);
}

#[test]
fn dns_labels_are_validated() {
    assert_eq!(dns_label("JP").as_deref(), Some("jp"));
    assert_eq!(dns_label("example.co.uk").as_deref(), Some("uk"));
    assert_eq!(dns_label("xn--p1ai").as_deref(), Some("xn--p1ai"));
    assert_eq!(dns_label("рф"), None);
    assert_eq!(dns_label(""), None);
}

#[test]
fn ascii_labelled_utf_16_is_not_decoded_as_utf_16() {
    let body = b"<html><body><p>Plain ASCII text, labelled UTF-16 by mistake.</p></body></html>";
    for label in ["utf-16", "utf-16le", "utf-16be"] {
        let html = decode_html(body, Some(&format!("text/html; charset={label}")));
        assert_eq!(html.text.as_bytes(), &body[..], "{label}");
        assert_ne!(html.source, CharsetSource::Http);
        assert!(html.is_text());
    }
}

#[test]
fn utf_16_without_bom_is_still_taken_from_its_label() {
    let text = "<p>Hello</p>";
    let body: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let html = decode_html(&body, Some("text/html; charset=utf-16le"));
    assert_eq!(
        (html.text.as_str(), html.source),
        (text, CharsetSource::Http)
    );
}

#[test]
fn random_bytes_are_not_text() {
    // A fixed pseudo-random sequence (xorshift), as binary data labelled HTML would be.
    let mut state = 0x2545_f491_u32;
    let body: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state.to_le_bytes()[0]
        })
        .collect();
    for content_type in [None, Some("text/html; charset=utf-8")] {
        assert!(
            !decode_html(&body, content_type).is_text(),
            "{content_type:?}"
        );
    }
    let page = decode_html(RUSSIAN.as_bytes(), Some("text/html; charset=utf-8"));
    assert!(page.is_text());
}

#[test]
fn text_implausible_for_its_declared_charset_is_redetected() {
    let french = "<p>Le caf\u{e9} est d\u{e9}j\u{e0} ferm\u{e9}, la f\u{ea}te a \u{e9}t\u{e9} \
                  annul\u{e9}e et l'\u{e9}t\u{e9} se termine \u{e0} No\u{eb}l.</p>";
    let cases = [
        (encode(french, WINDOWS_1252), "utf-8", french),
        (encode(JAPANESE, SHIFT_JIS), "utf-8", JAPANESE),
        (encode(RUSSIAN, WINDOWS_1251), "utf-8", RUSSIAN),
    ];
    for (body, label, text) in cases {
        for (http, meta) in [
            (Some(format!("text/html; charset={label}")), String::new()),
            (None, format!("<meta charset={label}>")),
        ] {
            let body = [meta.as_bytes(), &body].concat();
            let html = decode_html(&body, http.as_deref());
            assert_eq!(html.text, format!("{meta}{text}"), "{label} {http:?}");
            assert_eq!(html.source, CharsetSource::Detected);
            assert!(!html.had_errors);
            assert!(html.is_text());
        }
    }
}

#[test]
fn real_text_with_a_few_stray_bytes_keeps_its_declared_charset() {
    let mut body = RUSSIAN.as_bytes().to_vec();
    body.extend_from_slice(b" \xff\xfe\xfd\xfc\xfb ");
    let html = decode_html(&body, Some("text/html; charset=utf-8"));
    assert_eq!((html.encoding, html.source), (UTF_8, CharsetSource::Http));
    assert!(html.text.starts_with(RUSSIAN));
    assert!(html.had_errors);
}

/// `text_counts` as the characters count them: the definition it must agree with.
fn text_counts_by_chars(text: &str) -> (usize, usize) {
    let not_text = text
        .chars()
        .filter(|&c| {
            (c.is_control() && !matches!(c, '\t' | '\n' | '\u{c}' | '\r'))
                || c == char::REPLACEMENT_CHARACTER
        })
        .count();
    (text.chars().count(), not_text)
}

use proptest::strategy::Strategy as _;

proptest::proptest! {
    #[test]
    fn text_counts_agree_with_the_characters(
        text in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::char::any(),
                proptest::char::range('\u{0}', '\u{ff}'),
                proptest::sample::select(vec!['\u{fffd}', '\u{c2}', '\u{9f}', '\u{a0}', '\u{7f}', '\u{fffc}', '\u{bffd}']),
            ],
            0..200,
        ).prop_map(|chars| chars.into_iter().collect::<String>())
    ) {
        proptest::prop_assert_eq!(text_counts(text.as_bytes()), text_counts_by_chars(&text));
    }
}

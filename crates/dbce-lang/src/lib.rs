//! The language of a cleaned page's text, and whether its script puts spaces between words.
//!
//! [`detect`] identifies the language with whatlang (trigram profiles of 69 languages, chosen
//! after their script; `docs/formats.md` gives the comparison with lingua measured for dbce):
//! an ISO 639-3 code such as `eng`, `deu`, `jpn` or `cmn` (Mandarin) and whatlang's
//! confidence. [`writes_words_apart`] tells the full-text index which analyser a language
//! needs: words between spaces, or character n-grams for Chinese, Japanese, Korean, Thai,
//! Khmer and Burmese, whose words are not (or not reliably) separated by spaces.
//!
//! ```
//! let lang = dbce_lang::detect("Der Hafen liegt still, die Schiffe warten auf die Flut.").unwrap();
//! assert_eq!(lang.code, "deu");
//! assert!(dbce_lang::writes_words_apart(lang.code));
//!
//! let lang = dbce_lang::detect("港の近くで新しい図書館が開館しました。").unwrap();
//! assert_eq!(lang.code, "jpn");
//! assert!(!dbce_lang::writes_words_apart(lang.code));
//!
//! assert_eq!(dbce_lang::detect("12345 -- !!"), None);
//! ```
#![deny(missing_docs)]

/// The most bytes of a text that [`detect`] reads: the language of a page is settled long
/// before, and the cost stays bounded for very long pages.
pub const MAX_BYTES: usize = 8 << 10;

/// Languages whose script does not separate words with spaces (or, for Korean, separates
/// phrases with their particles attached), by ISO 639-3 code: Mandarin, Japanese, Korean, Thai,
/// Khmer, Burmese.
const UNSPACED: [&str; 6] = ["cmn", "jpn", "kor", "tha", "khm", "mya"];

/// The language of a text. Stored (serde) as its code and confidence; a code whatlang does
/// not know is refused when read back.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Language {
    /// ISO 639-3 code (whatlang's): `eng`, `deu`, `fra`, `rus`, `jpn`, `cmn`, …
    pub code: &'static str,
    /// whatlang's confidence in `code`, in `[0, 1]`: near 1 for a page of prose, low for a few
    /// words or text in closely related languages.
    pub confidence: f32,
}

/// The language of `text` (its first [`MAX_BYTES`] bytes), or `None` when it has no letters
/// of a script whatlang knows (empty, digits and punctuation only).
pub fn detect(text: &str) -> Option<Language> {
    let info = whatlang::detect(prefix(text, MAX_BYTES))?;
    Some(Language {
        code: info.lang().code(),
        // whatlang's confidence is in [0, 1]; f32 is plenty for a JSON field.
        #[allow(clippy::cast_possible_truncation)]
        confidence: info.confidence() as f32,
    })
}

/// The language of a page whose content is `text` and whose title is `title`: of its text, or
/// of its title when the text is blank.
pub fn detect_page(text: &str, title: &str) -> Option<Language> {
    detect(if text.trim().is_empty() { title } else { text })
}

/// [`Language`] as stored, before its code is checked.
#[derive(serde::Deserialize)]
struct StoredLanguage {
    code: String,
    confidence: f32,
}

impl<'de> serde::Deserialize<'de> for Language {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let stored = StoredLanguage::deserialize(deserializer)?;
        let lang = whatlang::Lang::from_code(stored.code.as_str()).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown language code {:?}", stored.code))
        })?;
        Ok(Language {
            code: lang.code(),
            confidence: stored.confidence,
        })
    }
}

/// Whether the language of ISO 639-3 `code` separates words with spaces, so an index can
/// split its text at spaces and punctuation; `false` for Mandarin, Japanese, Korean, Thai,
/// Khmer and Burmese. Unknown codes count as spaced.
pub fn writes_words_apart(code: &str) -> bool {
    !UNSPACED.contains(&code)
}

/// The longest prefix of `text` of at most `max` bytes that ends on a character boundary.
fn prefix(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_language_reads_back_and_an_unknown_code_is_refused() {
        let lang = detect("The council met on Tuesday to discuss the new harbour.").unwrap();
        let json = serde_json::to_string(&lang).unwrap();
        assert_eq!(serde_json::from_str::<Language>(&json).unwrap(), lang);
        let unknown = r#"{"code":"xyz","confidence":0.5}"#;
        assert!(serde_json::from_str::<Language>(unknown).is_err());
    }

    #[test]
    fn a_page_without_text_takes_its_title_language() {
        let title = "Der Hafen liegt still, die Schiffe warten auf die Flut.";
        assert_eq!(detect_page(" \n", title).unwrap().code, "deu");
        let text = "The council met on Tuesday to discuss the new harbour.";
        assert_eq!(detect_page(text, title).unwrap().code, "eng");
        assert_eq!(detect_page("", ""), None);
    }

    #[test]
    fn prose_in_each_language_of_the_generator_is_recognised() {
        let cases = [
            (
                "eng",
                "The council met on Tuesday to discuss the new harbour and its ferries.",
            ),
            (
                "deu",
                "Der Rat hat am Dienstag über den neuen Hafen und seine Fähren beraten.",
            ),
            (
                "fra",
                "Le conseil s'est réuni mardi pour discuter du nouveau port et de ses bacs.",
            ),
            (
                "rus",
                "Совет собрался во вторник, чтобы обсудить новую гавань и её паромы.",
            ),
            (
                "jpn",
                "議会は火曜日に新しい港とフェリーについて話し合いました。",
            ),
            ("cmn", "议会星期二开会讨论了新的港口和渡轮的问题。"),
        ];
        for (code, text) in cases {
            let lang = detect(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(lang.code, code, "{text}");
            assert!((0.0..=1.0).contains(&lang.confidence));
        }
    }

    #[test]
    fn text_without_letters_has_no_language() {
        assert_eq!(detect(""), None);
        assert_eq!(detect("  \n 2024-05-01 12:00 — 42 %"), None);
    }

    #[test]
    fn only_the_first_bytes_are_read_and_never_mid_character() {
        assert_eq!(prefix("abc", 10), "abc");
        assert_eq!(prefix("日本語", 4), "日");
        assert_eq!(prefix("日本語", 6), "日本");
        let long = format!(
            "{}{}",
            "港の近くで新しい図書館が開館しました。".repeat(400),
            "the end"
        );
        assert!(long.len() > MAX_BYTES);
        assert_eq!(detect(&long).map(|l| l.code), Some("jpn"));
    }

    #[test]
    fn unspaced_scripts_are_told_apart() {
        for code in UNSPACED {
            assert!(!writes_words_apart(code));
        }
        for code in ["eng", "deu", "rus", "ara", "hin", "vie", "xyz"] {
            assert!(writes_words_apart(code));
        }
    }
}

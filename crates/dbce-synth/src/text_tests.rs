use std::collections::HashSet;

use super::*;
use crate::lang::Language;
use crate::seed::{Stream, rng};

#[test]
fn names_are_injective_and_long_enough() {
    for language in Language::ALL {
        let lang = language.data();
        let mut seen = HashSet::new();
        for id in (0..20_000).chain([u64::from(u32::MAX), name_id(4095, 1 << 20, 255)]) {
            let n = name(lang, id);
            assert!(n.chars().count() >= 3, "{n}");
            assert!(seen.insert(n.clone()), "{n} repeats");
        }
    }
}

/// A list word that could be read as a name would break the uniqueness argument.
#[test]
fn no_list_word_is_spelled_like_a_name() {
    for language in Language::ALL {
        let lang = language.data();
        for word in lang.function.iter().chain(&lang.words) {
            let lower = word.to_lowercase();
            if lang.spaced {
                assert!(
                    !is_syllable_chain(&lower, &lang.syllables),
                    "{}: {word}",
                    lang.tag
                );
            } else {
                let syllable = |c: char| lang.syllables.iter().any(|s| s.starts_with(c));
                assert!(!word.chars().any(syllable), "{}: {word}", lang.tag);
            }
        }
    }
}

fn is_syllable_chain(word: &str, syllables: &[String]) -> bool {
    let mut rest = word;
    let mut count = 0;
    while !rest.is_empty() {
        match syllables.iter().find(|s| rest.starts_with(s.as_str())) {
            Some(s) => rest = &rest[s.len()..],
            None => return false,
        }
        count += 1;
    }
    count >= 3
}

#[test]
fn drafts_carry_the_name_and_an_optional_typo() {
    let lang = Language::English.data();
    let mut r = rng(3, Stream::Body, &[]);
    let draft = Draft::new(&mut r, lang, 2..=3, 8..=12)
        .with_name(&mut r)
        .with_typo(&mut r);
    assert!(draft.has_typo());
    let clean = draft.write(lang, "Karomilu", false, true);
    let typo = draft.write(lang, "Karomilu", true, true);
    assert!(clean.contains("Karomilu") && typo.contains("Karomilu"));
    assert!(
        clean.ends_with('.') && clean.starts_with(char::is_uppercase),
        "{clean}"
    );
    assert_ne!(clean, typo);
    assert_eq!(clean.len(), typo.len());
    assert!(!clean.contains("  ") && !clean.contains(" ,"), "{clean}");
}

#[test]
fn japanese_is_written_without_spaces() {
    let lang = Language::Japanese.data();
    let mut r = rng(4, Stream::Body, &[]);
    let text = Draft::new(&mut r, lang, 2..=2, 5..=8)
        .with_name(&mut r)
        .write(lang, "カキク", false, true);
    assert!(
        !text.contains(' ') && text.ends_with('。') && text.contains("カキク"),
        "{text}"
    );
}

#[test]
fn slugs_are_ascii() {
    assert_eq!(
        slug("Größere Brücke für Köln eröffnet", 4),
        "groessere-bruecke-fuer-koeln"
    );
    assert_eq!(slug("L'école du maire, déjà", 9), "lecole-du-maire-deja");
    assert_eq!(slug("Москва", 3), "");
}

//! Languages: embedded word lists, the syllables of made-up names, and interface strings.

mod ui;

use std::sync::LazyLock;

pub(crate) use ui::Ui;

use crate::clock::Timestamp;

/// A language pages can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Language {
    English,
    German,
    French,
    Russian,
    Japanese,
}

/// Everything text generation needs to know about a language.
#[derive(Debug)]
pub(crate) struct Lang {
    /// BCP 47 tag, for `<html lang>` and `Accept-Language`.
    pub(crate) tag: &'static str,
    /// Short, frequent words (articles, prepositions, particles).
    pub(crate) function: Vec<&'static str>,
    /// Nouns, verbs and adjectives.
    pub(crate) words: Vec<&'static str>,
    /// Whether words are separated by spaces.
    pub(crate) spaced: bool,
    /// A dash between clauses, where the language and its sites' charsets have one.
    pub(crate) dash: Option<&'static str>,
    /// The units made-up names are spelled with; see [`crate::text::name`].
    pub(crate) syllables: Vec<String>,
    /// Fixed interface strings.
    pub(crate) ui: &'static Ui,
}

static LANGS: LazyLock<[Lang; 5]> = LazyLock::new(|| {
    let latin = syllables("bdfgklmnprstvz", "aeiou");
    [
        Lang {
            dash: Some("—"),
            ..lang("en", include_str!("words/en.txt"), latin.clone(), &ui::EN)
        },
        Lang {
            dash: Some("–"),
            ..lang("de", include_str!("words/de.txt"), latin.clone(), &ui::DE)
        },
        lang("fr", include_str!("words/fr.txt"), latin, &ui::FR),
        Lang {
            dash: Some("—"),
            ..lang(
                "ru",
                include_str!("words/ru.txt"),
                syllables("бвгдзклмнпрстф", "аеиоу"),
                &ui::RU,
            )
        },
        Lang {
            spaced: false,
            ..lang("ja", include_str!("words/ja.txt"), kana(), &ui::JA)
        },
    ]
});

impl Language {
    /// Every language, for tests that go through all of them.
    #[cfg(test)]
    pub(crate) const ALL: [Language; 5] = [
        Language::English,
        Language::German,
        Language::French,
        Language::Russian,
        Language::Japanese,
    ];

    /// The language's data.
    pub(crate) fn data(self) -> &'static Lang {
        &LANGS[self as usize]
    }
}

impl Lang {
    /// A date in this language, with the time of day if `time` is set.
    pub(crate) fn date(&self, at: Timestamp, time: bool) -> String {
        let c = at.civil();
        let month = self.ui.months[c.month as usize - 1];
        let mut out = match self.tag {
            "de" => format!("{}. {} {}", c.day, month, c.year),
            "ja" => format!("{}年{}月{}日", c.year, c.month, c.day),
            _ => format!("{} {} {}", c.day, month, c.year),
        };
        if time {
            let (before, between, after) = self.ui.clock;
            out.push_str(&format!(
                "{before}{:02}{between}{:02}{after}",
                c.hour, c.minute
            ));
        }
        out
    }
}

fn lang(tag: &'static str, list: &'static str, syllables: Vec<String>, ui: &'static Ui) -> Lang {
    let mut function = Vec::new();
    let mut words = Vec::new();
    let mut seen_separator = false;
    for line in list.lines().filter(|l| !l.starts_with('#')) {
        if line.trim() == "--" {
            seen_separator = true;
            continue;
        }
        let target = if seen_separator {
            &mut words
        } else {
            &mut function
        };
        target.extend(line.split_whitespace());
    }
    Lang {
        tag,
        function,
        words,
        spaced: true,
        dash: None,
        syllables,
        ui,
    }
}

fn syllables(consonants: &str, vowels: &str) -> Vec<String> {
    consonants
        .chars()
        .flat_map(|c| vowels.chars().map(move |v| format!("{c}{v}")))
        .collect()
}

fn kana() -> Vec<String> {
    "カキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモラリルレロガギグゲゴバビブベボ"
        .chars()
        .map(String::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::EPOCH;

    #[test]
    fn word_lists_are_loaded() {
        for language in Language::ALL {
            let data = language.data();
            assert!(data.function.len() >= 12, "{}", data.tag);
            assert!(
                data.words.len() >= 130,
                "{}: {}",
                data.tag,
                data.words.len()
            );
            assert!(data.syllables.len() >= 45, "{}", data.tag);
        }
    }

    #[test]
    fn dates_are_localised() {
        let at = EPOCH.plus(9 * 3600 + 41 * 60);
        assert_eq!(
            Language::English.data().date(at, true),
            "2 January 2023, 09:41"
        );
        assert_eq!(Language::German.data().date(at, false), "2. Januar 2023");
        assert_eq!(
            Language::French.data().date(at, true),
            "2 janvier 2023 à 09h41"
        );
        assert_eq!(Language::Japanese.data().date(at, false), "2023年1月2日");
    }
}

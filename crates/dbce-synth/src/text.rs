//! Pseudo-prose from the embedded word lists, and made-up names that make every content block
//! unique.
//!
//! Every content block carries exactly one name, spelled from the block's coordinates
//! (site, article, block) by an injective encoding over syllables that no list word is built
//! from. Two blocks with different coordinates therefore can never be the same text.

use std::ops::RangeInclusive;

use rand::Rng as _;

use crate::lang::Lang;
use crate::seed::Rng;

/// Stands for a comma in a draft.
const COMMA: &str = ",";
/// Stands for the language's dash in a draft.
const DASH: &str = "--";

/// The coordinates of a content block, packed so that small coordinates give short names.
pub(crate) fn name_id(site: u32, article: u32, block: u32) -> u64 {
    let mut mixed = 0u64;
    for bit in 0..32 {
        mixed |= u64::from((article >> bit) & 1) << (2 * bit);
        mixed |= u64::from((site >> bit) & 1) << (2 * bit + 1);
    }
    u64::from(block) + 256 * mixed
}

/// Multiplier that shuffles names within a length; coprime to every syllable count used.
const SCRAMBLE: u128 = 1_000_003;

/// The name for `id`: capitalised, injective in `id`. The first `n³` ids (`n` syllables) get
/// three syllables, the next `n⁴` four, and so on; within a length the ids are shuffled by a
/// bijection so neighbouring ids do not give look-alike names.
pub(crate) fn name(lang: &Lang, id: u64) -> String {
    let base = lang.syllables.len() as u128;
    let (mut rest, mut length, mut tier) = (u128::from(id), 3, base.pow(3));
    while rest >= tier {
        rest -= tier;
        length += 1;
        tier *= base;
    }
    let mut n = (rest * SCRAMBLE + 7) % tier;
    let mut out = String::with_capacity(length * 4);
    for i in 0..length {
        #[allow(clippy::cast_possible_truncation)]
        let syllable = &lang.syllables[(n % base) as usize];
        n /= base;
        if i == 0 {
            push_capitalised(&mut out, syllable);
        } else {
            out.push_str(syllable);
        }
    }
    out
}

/// Sentences of list words, with an optional slot for a name and an optional typo.
#[derive(Debug, Clone)]
pub(crate) struct Draft {
    words: Vec<&'static str>,
    /// One past the last word of each sentence.
    ends: Vec<usize>,
    /// Sentence and position within it where the name goes.
    name: Option<(usize, usize)>,
    /// The word that gets a typo.
    typo: Option<usize>,
}

impl Draft {
    /// `sentences` sentences of `words` list words each (commas and dashes not counted).
    pub(crate) fn new(
        rng: &mut Rng,
        lang: &Lang,
        sentences: RangeInclusive<usize>,
        words: RangeInclusive<usize>,
    ) -> Self {
        let count = rng.random_range(sentences);
        let mut draft = Self {
            words: Vec::with_capacity(count * 24),
            ends: Vec::with_capacity(count),
            name: None,
            typo: None,
        };
        for _ in 0..count {
            let length = rng.random_range(words.clone());
            sentence(rng, lang, length, &mut draft.words);
            draft.ends.push(draft.words.len());
        }
        draft
    }

    /// Reserves a place for the block's name.
    pub(crate) fn with_name(mut self, rng: &mut Rng) -> Self {
        let s = rng.random_range(0..self.ends.len());
        let position = rng.random_range(0..=self.sentence(s).len());
        self.name = Some((s, position));
        self
    }

    /// Picks a word that can carry a typo (two letters swapped), if there is one.
    pub(crate) fn with_typo(mut self, rng: &mut Rng) -> Self {
        let candidates: Vec<usize> = (0..self.words.len())
            .filter(|&w| swapped(self.words[w]).is_some())
            .collect();
        if !candidates.is_empty() {
            self.typo = Some(candidates[rng.random_range(0..candidates.len())]);
        }
        self
    }

    /// Whether a typo was placed.
    pub(crate) fn has_typo(&self) -> bool {
        self.typo.is_some()
    }

    /// The text, with `name` in its slot, the typo if `typo`, and a full stop after each
    /// sentence if `stops`.
    pub(crate) fn write(&self, lang: &Lang, name: &str, typo: bool, stops: bool) -> String {
        let mut out = String::with_capacity(self.words.len() * 8 + name.len());
        let typo_at = self.typo.filter(|_| typo);
        let typo_word = typo_at
            .and_then(|w| swapped(self.words[w]))
            .unwrap_or_default();
        for s in 0..self.ends.len() {
            let start = if s == 0 { 0 } else { self.ends[s - 1] };
            let length = self.ends[s] - start;
            let tokens = (0..=length).flat_map(|p| {
                let name = (self.name == Some((s, p))).then_some(name);
                let word = (p < length).then(|| {
                    if typo_at == Some(start + p) {
                        typo_word.as_str()
                    } else {
                        self.words[start + p]
                    }
                });
                name.into_iter().chain(word)
            });
            if s > 0 && lang.spaced {
                out.push(' ');
            }
            join_sentence(&mut out, lang, tokens, stops);
        }
        out
    }

    fn sentence(&self, s: usize) -> &[&'static str] {
        let start = if s == 0 { 0 } else { self.ends[s - 1] };
        &self.words[start..self.ends[s]]
    }
}

/// A few list words run together without a name, for ads, blurbs and comments.
pub(crate) fn prose(
    rng: &mut Rng,
    lang: &Lang,
    sentences: RangeInclusive<usize>,
    words: RangeInclusive<usize>,
    stops: bool,
) -> String {
    Draft::new(rng, lang, sentences, words).write(lang, "", false, stops)
}

/// ASCII-only URL slug of `text`: lower case, accents folded, at most `words` words.
pub(crate) fn slug(text: &str, words: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace().take(words) {
        let start = out.len();
        if start > 0 {
            out.push('-');
        }
        let before = out.len();
        for c in word.chars() {
            fold_into(&mut out, c);
        }
        if out.len() == before {
            out.truncate(start);
        }
    }
    out
}

fn fold_into(out: &mut String, c: char) {
    let lower = c.to_lowercase().next().unwrap_or(c);
    let folded = match lower {
        'ä' => "ae",
        'ö' => "oe",
        'ü' => "ue",
        'ß' => "ss",
        'à' | 'â' | 'á' => "a",
        'é' | 'è' | 'ê' | 'ë' => "e",
        'î' | 'ï' => "i",
        'ô' => "o",
        'ù' | 'û' => "u",
        'ç' => "c",
        c if c.is_ascii_alphanumeric() => {
            out.push(c);
            return;
        }
        _ => return,
    };
    out.push_str(folded);
}

/// Appends a sentence of `words` list words (plus function words and punctuation) to `out`.
fn sentence(rng: &mut Rng, lang: &Lang, words: usize, out: &mut Vec<&'static str>) {
    for i in 0..words {
        out.push(lang.words[rng.random_range(0..lang.words.len())]);
        if i + 1 == words {
            break;
        }
        let roll = rng.random_range(0..100);
        if roll < 45 {
            out.push(lang.function[rng.random_range(0..lang.function.len())]);
        } else if roll < 50 && i > 1 {
            out.push(if roll < 48 || lang.dash.is_none() {
                COMMA
            } else {
                DASH
            });
        }
    }
}

fn join_sentence<'a>(
    out: &mut String,
    lang: &Lang,
    tokens: impl Iterator<Item = &'a str>,
    stop: bool,
) {
    for (i, token) in tokens.enumerate() {
        match (token, lang.spaced) {
            (COMMA, true) => out.push(','),
            (COMMA, false) => out.push('、'),
            (DASH, _) => {
                out.push(' ');
                out.push_str(lang.dash.unwrap_or("-"));
                out.push(' ');
            }
            _ => {
                let after_dash = out.ends_with(' ');
                if i > 0 && lang.spaced && !after_dash {
                    out.push(' ');
                }
                if i == 0 {
                    push_capitalised(out, token);
                } else {
                    out.push_str(token);
                }
            }
        }
    }
    if stop {
        out.push(if lang.spaced { '.' } else { '。' });
    }
}

fn push_capitalised(out: &mut String, word: &str) {
    let mut chars = word.chars();
    if let Some(first) = chars.next() {
        out.extend(first.to_uppercase());
        out.push_str(chars.as_str());
    }
}

/// `word` with its second and third letters swapped, if that changes it.
fn swapped(word: &str) -> Option<String> {
    let mut chars: Vec<char> = word.chars().collect();
    if chars.len() < 4 || chars[1] == chars[2] {
        return None;
    }
    chars.swap(1, 2);
    Some(chars.into_iter().collect())
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;

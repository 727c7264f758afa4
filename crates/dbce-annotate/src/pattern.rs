//! Bit patterns and their classification: the tables of thesis Appendix B.
//!
//! A cross has up to five members, in the order ([`CrossRole`]) `cur`, `up`, `down`, `prev`,
//! `next`. The cross's own [`Bits`] say which members exist; a text run's bits say in which of
//! them the matcher found the run (`cur` always). The pair is a [`BitPattern`];
//! [`classify`] looks it up in the appendix's tables and returns [`PatternClass::Invalid`] for a
//! pattern they do not list.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A member of a cross (thesis §2.3, "Cross Construction").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CrossRole {
    /// The page being annotated.
    Cur,
    /// The most similar page of the template with another URL path.
    Up,
    /// The second most similar page of the template with another URL path.
    Down,
    /// The nearest earlier capture of the same URL path.
    Prev,
    /// The nearest later capture of the same URL path.
    Next,
}

impl CrossRole {
    /// All roles, in bit order.
    pub const ALL: [CrossRole; 5] = [Self::Cur, Self::Up, Self::Down, Self::Prev, Self::Next];

    /// The role's name as it is serialised: `cur`, `up`, `down`, `prev`, `next`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Cur => "cur",
            Self::Up => "up",
            Self::Down => "down",
            Self::Prev => "prev",
            Self::Next => "next",
        }
    }

    fn mask(self) -> u8 {
        0b10000 >> (self as u8)
    }
}

/// A set of cross roles, written as the thesis writes it: `(cur, up, down, prev, next)`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct Bits(u8);

impl Bits {
    /// The set of `roles`.
    pub fn of(roles: &[CrossRole]) -> Self {
        Self(roles.iter().fold(0, |bits, role| bits | role.mask()))
    }

    /// The set from the thesis's tuple notation: `[1, 1, 0, 0, 0]` is `cur` and `up`.
    pub const fn from_tuple(t: [u8; 5]) -> Self {
        Self((t[0] & 1) << 4 | (t[1] & 1) << 3 | (t[2] & 1) << 2 | (t[3] & 1) << 1 | (t[4] & 1))
    }

    /// Whether `role` is in the set.
    pub fn contains(self, role: CrossRole) -> bool {
        self.0 & role.mask() != 0
    }

    /// The set with `role` added.
    #[must_use]
    pub fn with(self, role: CrossRole) -> Self {
        Self(self.0 | role.mask())
    }

    /// Whether every role of `self` is in `other`.
    pub fn is_subset_of(self, other: Bits) -> bool {
        self.0 & !other.0 == 0
    }
}

impl Bits {
    /// The set as five digits in role order, `11000` for `cur` and `up`: for class names.
    pub fn code(self) -> String {
        CrossRole::ALL
            .iter()
            .map(|&r| if self.contains(r) { '1' } else { '0' })
            .collect()
    }
}

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bits: Vec<String> = CrossRole::ALL
            .iter()
            .map(|&r| u8::from(self.contains(r)).to_string())
            .collect();
        write!(f, "({})", bits.join(", "))
    }
}

/// The cross's members and the members a text run was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BitPattern {
    /// Which members the cross has.
    pub cross: Bits,
    /// Which members the run occurs in.
    pub run: Bits,
}

/// What the bit patterns say of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PatternClass {
    /// `dbce-class-content`.
    Content,
    /// `dbce-class-bp`: boilerplate.
    Boilerplate,
    /// Not listed in Appendix B.
    Invalid,
}

/// What to make of [`PatternClass::Invalid`] (thesis test cases T001 and T002).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InvalidMode {
    /// T001: keep `invalid` for a later classifier to decide.
    #[default]
    Keep,
    /// T002: `invalid` runs are boilerplate.
    AsBoilerplate,
}

use PatternClass::{Boilerplate as B, Content as C};

/// The rows of Appendix B, Tables B.1–B.5: cross bits, run bits, class.
pub const APPENDIX_B: [([u8; 5], [u8; 5], PatternClass); 28] = [
    // Table B.1: crosses with two entries.
    ([1, 1, 0, 0, 0], [1, 0, 0, 0, 0], C),
    ([1, 1, 0, 0, 0], [1, 1, 0, 0, 0], B),
    // Table B.2: three entries (v1).
    ([1, 1, 1, 0, 0], [1, 0, 0, 0, 0], C),
    ([1, 1, 1, 0, 0], [1, 0, 1, 0, 0], B),
    ([1, 1, 1, 0, 0], [1, 1, 0, 0, 0], B),
    ([1, 1, 1, 0, 0], [1, 1, 1, 0, 0], B),
    // Table B.3: three entries (v2).
    ([1, 1, 0, 0, 1], [1, 0, 0, 0, 0], B),
    ([1, 1, 0, 0, 1], [1, 0, 0, 0, 1], C),
    ([1, 1, 0, 0, 1], [1, 1, 0, 0, 0], B),
    ([1, 1, 0, 0, 1], [1, 1, 0, 0, 1], B),
    ([1, 1, 0, 1, 0], [1, 0, 0, 0, 0], B),
    ([1, 1, 0, 1, 0], [1, 0, 0, 1, 0], C),
    ([1, 1, 0, 1, 0], [1, 1, 0, 0, 0], B),
    ([1, 1, 0, 1, 0], [1, 1, 0, 1, 0], B),
    // Table B.4: up to four entries.
    ([1, 1, 0, 1, 1], [1, 0, 0, 0, 0], B),
    ([1, 1, 0, 1, 1], [1, 0, 0, 0, 1], B),
    ([1, 1, 0, 1, 1], [1, 0, 0, 1, 0], B),
    ([1, 1, 0, 1, 1], [1, 0, 0, 1, 1], C),
    ([1, 1, 0, 1, 1], [1, 1, 0, 0, 0], B),
    ([1, 1, 0, 1, 1], [1, 1, 0, 0, 1], B),
    ([1, 1, 0, 1, 1], [1, 1, 0, 1, 0], B),
    ([1, 1, 0, 1, 1], [1, 1, 0, 1, 1], B),
    // Table B.5: up to five entries.
    ([1, 1, 1, 0, 1], [1, 0, 0, 0, 1], C),
    ([1, 1, 1, 0, 1], [1, 1, 1, 0, 1], B),
    ([1, 1, 1, 1, 0], [1, 0, 0, 1, 0], C),
    ([1, 1, 1, 1, 0], [1, 1, 1, 1, 0], B),
    ([1, 1, 1, 1, 1], [1, 0, 0, 1, 1], C),
    ([1, 1, 1, 1, 1], [1, 1, 1, 1, 1], B),
];

/// The class Appendix B gives `pattern`, or [`PatternClass::Invalid`] if it lists none.
pub fn classify(pattern: BitPattern) -> PatternClass {
    APPENDIX_B
        .iter()
        .find(|(cross, run, _)| {
            Bits::from_tuple(*cross) == pattern.cross && Bits::from_tuple(*run) == pattern.run
        })
        .map_or(PatternClass::Invalid, |&(_, _, class)| class)
}

/// [`classify`], with `invalid` resolved as `mode` says.
pub fn classify_with(pattern: BitPattern, mode: InvalidMode) -> PatternClass {
    match (classify(pattern), mode) {
        (PatternClass::Invalid, InvalidMode::AsBoilerplate) => PatternClass::Boilerplate,
        (class, _) => class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use CrossRole::{Cur, Down, Next, Prev, Up};

    #[test]
    fn role_names_are_their_serialised_form() {
        for role in CrossRole::ALL {
            let json = serde_json::to_string(&role).unwrap();
            assert_eq!(json, format!("\"{}\"", role.name()));
        }
    }

    fn pattern(cross: [u8; 5], run: [u8; 5]) -> BitPattern {
        BitPattern {
            cross: Bits::from_tuple(cross),
            run: Bits::from_tuple(run),
        }
    }

    /// Every row of Tables B.1–B.5, one assertion each, written out as the thesis prints them.
    #[test]
    fn every_appendix_row() {
        let rows: [(&str, &str, PatternClass); 28] = [
            ("11000", "10000", C),
            ("11000", "11000", B),
            ("11100", "10000", C),
            ("11100", "10100", B),
            ("11100", "11000", B),
            ("11100", "11100", B),
            ("11001", "10000", B),
            ("11001", "10001", C),
            ("11001", "11000", B),
            ("11001", "11001", B),
            ("11010", "10000", B),
            ("11010", "10010", C),
            ("11010", "11000", B),
            ("11010", "11010", B),
            ("11011", "10000", B),
            ("11011", "10001", B),
            ("11011", "10010", B),
            ("11011", "10011", C),
            ("11011", "11000", B),
            ("11011", "11001", B),
            ("11011", "11010", B),
            ("11011", "11011", B),
            ("11101", "10001", C),
            ("11101", "11101", B),
            ("11110", "10010", C),
            ("11110", "11110", B),
            ("11111", "10011", C),
            ("11111", "11111", B),
        ];
        let bits = |s: &str| {
            let mut t = [0; 5];
            s.bytes().zip(&mut t).for_each(|(b, slot)| *slot = b - b'0');
            t
        };
        for (cross, run, class) in rows {
            assert_eq!(
                classify(pattern(bits(cross), bits(run))),
                class,
                "{cross} {run}"
            );
        }
    }

    #[test]
    fn unlisted_patterns_are_invalid_or_boilerplate_in_t002() {
        // In a full cross, a run found in `up` and `prev` only is not listed.
        let odd = pattern([1, 1, 1, 1, 1], [1, 1, 0, 1, 0]);
        assert_eq!(classify(odd), PatternClass::Invalid);
        assert_eq!(classify_with(odd, InvalidMode::Keep), PatternClass::Invalid);
        assert_eq!(
            classify_with(odd, InvalidMode::AsBoilerplate),
            PatternClass::Boilerplate
        );
        // A cross without `up` is not a cross.
        assert_eq!(
            classify(pattern([1, 0, 0, 1, 0], [1, 0, 0, 1, 0])),
            PatternClass::Invalid
        );
    }

    #[test]
    fn rows_are_unique_and_runs_lie_within_their_cross() {
        for (i, (cross, run, _)) in APPENDIX_B.iter().enumerate() {
            let (cross, run) = (Bits::from_tuple(*cross), Bits::from_tuple(*run));
            assert!(run.contains(Cur) && cross.contains(Cur) && cross.contains(Up));
            assert!(run.is_subset_of(cross), "row {i}: {run} not within {cross}");
            let same = APPENDIX_B
                .iter()
                .filter(|(c, r, _)| Bits::from_tuple(*c) == cross && Bits::from_tuple(*r) == run)
                .count();
            assert_eq!(same, 1, "row {i} repeated");
        }
    }

    #[test]
    fn bits_print_and_build_like_the_thesis() {
        let bits = Bits::of(&[Cur, Up, Next]);
        assert_eq!(bits.to_string(), "(1, 1, 0, 0, 1)");
        assert_eq!(bits, Bits::from_tuple([1, 1, 0, 0, 1]));
        assert_eq!(
            Bits::of(&[Cur]).with(Down).with(Prev),
            Bits::from_tuple([1, 0, 1, 1, 0])
        );
    }
}

//! What to generate: the run's parameters and their limits.

use crate::Error;

/// Parameters of a generated archive. Everything but `threads` changes the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Seed every random choice derives from. By default, 1.
    pub seed: u64,
    /// Number of sites (1–4096); site `i` follows the `i % 6`-th site profile. By default, 5.
    pub sites: u32,
    /// Number of HTML URLs (article and index pages) over all sites, split evenly; at least
    /// three per site. Non-HTML resources come on top. By default, 100.
    pub pages: u32,
    /// Most captures of one URL (1–12). Index pages get this many; articles one to this many,
    /// `n` with weight `1/n`. By default, 4.
    pub captures_max: u32,
    /// gzip level of the WARC members (0–9). By default, 1 (fast; 6 gives files about a fifth
    /// smaller and takes about 1.7 times as long).
    pub level: u32,
    /// Worker threads; 0 lets rayon decide. The output does not depend on it. By default, 0.
    pub threads: usize,
    /// Whether every site also hosts a forum: `pages / sites / 8` threads (at least 2) on top
    /// of `pages`, each over two to four pages that all repeat the first post. By default,
    /// false (the archive is then what it was before forums existed, byte for byte).
    pub forums: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            seed: 1,
            sites: 5,
            pages: 100,
            captures_max: 4,
            level: 1,
            threads: 0,
            forums: false,
        }
    }
}

impl Config {
    /// Checks the limits documented on each field.
    ///
    /// # Errors
    /// [`Error::Config`] naming the first parameter out of range.
    pub fn validate(&self) -> Result<(), Error> {
        let fail = |parameter, reason| Err(Error::Config { parameter, reason });
        if !(1..=4096).contains(&self.sites) {
            return fail("sites", "must be between 1 and 4096");
        }
        if self.pages < 3 * self.sites {
            return fail("pages", "must be at least three per site");
        }
        if !(1..=12).contains(&self.captures_max) {
            return fail("captures-max", "must be between 1 and 12");
        }
        if self.level > 9 {
            return fail("level", "must be between 0 and 9");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_checked() {
        assert!(Config::default().validate().is_ok());
        let bad = Config {
            pages: 5,
            sites: 2,
            ..Config::default()
        };
        assert!(matches!(
            bad.validate(),
            Err(Error::Config {
                parameter: "pages",
                ..
            })
        ));
        let bad = Config {
            captures_max: 0,
            ..Config::default()
        };
        assert!(matches!(
            bad.validate(),
            Err(Error::Config {
                parameter: "captures-max",
                ..
            })
        ));
    }
}

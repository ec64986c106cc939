//! Seed ranges as users write them: `0..100` (100 seeds, 0–99), `1..=50`, or a single `17`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A non-empty, inclusive range of game seeds, of at most [`SeedRange::MAX_LEN`] seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SeedRange {
    first: u64,
    last: u64,
}

impl SeedRange {
    /// The most seeds a range holds: ten million (a suite plays each against every opponent;
    /// at tens of thousands of games a second that is minutes to hours of games, and a range
    /// beyond it is a typo, not a plan).
    pub const MAX_LEN: u64 = 10_000_000;

    /// Seeds `first..=last`; `None` when empty or longer than [`SeedRange::MAX_LEN`].
    pub fn new(first: u64, last: u64) -> Option<SeedRange> {
        (first <= last && last - first < Self::MAX_LEN).then_some(SeedRange { first, last })
    }

    /// The first seed.
    pub fn first(&self) -> u64 {
        self.first
    }

    /// The default suite: 100 seeds, 0–99.
    pub fn default_suite() -> SeedRange {
        SeedRange { first: 0, last: 99 }
    }

    /// Whether `seed` is in the range.
    pub fn contains(&self, seed: u64) -> bool {
        (self.first..=self.last).contains(&seed)
    }

    /// The seeds, in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + use<> {
        self.first..=self.last
    }

    /// How many seeds.
    pub fn len(&self) -> u64 {
        self.last - self.first + 1
    }

    /// Always false: ranges are never empty.
    pub fn is_empty(&self) -> bool {
        false
    }
}

impl Default for SeedRange {
    fn default() -> Self {
        SeedRange::default_suite()
    }
}

/// Why a seed range did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad seed range `{text}`: {reason} (expected `A..B` for A to B-1, `A..=B`, or one seed `N`)"
)]
pub struct SeedRangeError {
    text: String,
    reason: &'static str,
}

impl FromStr for SeedRange {
    type Err = SeedRangeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |reason| SeedRangeError { text: text.to_owned(), reason };
        let number = |s: &str| s.trim().parse::<u64>().map_err(|_| err("not a whole number"));
        let trimmed = text.trim();
        let (first, last) = if let Some((a, b)) = trimmed.split_once("..=") {
            (number(a)?, number(b)?)
        } else if let Some((a, b)) = trimmed.split_once("..") {
            let end = number(b)?;
            (number(a)?, end.checked_sub(1).ok_or_else(|| err("the range is empty"))?)
        } else {
            let seed = number(trimmed)?;
            (seed, seed)
        };
        if first > last {
            return Err(err("the range is empty"));
        }
        SeedRange::new(first, last).ok_or_else(|| err("more than 10,000,000 seeds"))
    }
}

impl fmt::Display for SeedRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}..={}", self.first, self.last)
        }
    }
}

impl Serialize for SeedRange {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SeedRange {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_follow_rust_syntax() {
        assert_eq!("0..100".parse::<SeedRange>().unwrap().len(), 100);
        assert_eq!("1..=50".parse::<SeedRange>().unwrap().len(), 50);
        let one: SeedRange = "17".parse().unwrap();
        assert_eq!(one.iter().collect::<Vec<_>>(), vec![17]);
        assert_eq!(one.to_string(), "17");
        assert_eq!("3..6".parse::<SeedRange>().unwrap().to_string(), "3..=5");
    }

    #[test]
    fn bad_ranges_say_what_was_expected() {
        for bad in ["", "a..b", "5..5", "9..=2", "0..0", "-1..3", "0..=18446744073709551615"] {
            let err = bad.parse::<SeedRange>().unwrap_err().to_string();
            assert!(err.contains("expected `A..B`"), "{bad}: {err}");
        }
        let huge = "0..300000000".parse::<SeedRange>().unwrap_err().to_string();
        assert!(huge.contains("more than 10,000,000 seeds"), "{huge}");
        assert_eq!("5..10000005".parse::<SeedRange>().unwrap().len(), SeedRange::MAX_LEN);
        assert!(SeedRange::new(0, u64::MAX).is_none());
    }
}

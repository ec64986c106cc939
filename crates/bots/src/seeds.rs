//! Seed ranges as users write them: `0..100` (100 seeds, 0–99), `1..=50`, or a single `17`;
//! and shards of them, `I/N`: the I-th of N consecutive blocks of a range.

use std::fmt;
use std::str::FromStr;

use botlens_engine::text::clipped;
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

/// The most shards a run is split into.
pub const MAX_SHARDS: u64 = 100_000;

/// One of `count` shards of a run: the `index`-th (from 0) block of its seeds (a suite's, a
/// comparison's, a round robin's), played apart and merged (`botlens_harness::shard`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u64,
    /// How many shards the suite is split into.
    pub count: u64,
}

/// Why a shard cannot be named so.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not `I/N` with whole numbers.
    #[error("shard `{0}`: expected I/N, the I-th of N shards counted from 0 (e.g. 0/4 … 3/4)")]
    Syntax(String),
    /// `I` not below `N`, or `N` 0 or too large.
    #[error(
        "shard {index}/{count}: shards are counted from 0, so the last of {count} is {last}/{count} (and at most {MAX_SHARDS} shards)",
        last = count.saturating_sub(1)
    )]
    OutOfRange {
        /// The index given.
        index: u64,
        /// The count given.
        count: u64,
    },
    /// `auto` with no scheduler's variables in the environment.
    #[error(
        "--shard auto: no shard index in the environment (SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT, as in a Slurm job array; or JOB_COMPLETION_INDEX, as in a Kubernetes Indexed Job, with the count given: --shard auto/N)"
    )]
    NoScheduler,
    /// A scheduler's variable that is not a number.
    #[error("--shard auto: {name}=`{value}` is not a whole number")]
    BadVariable {
        /// The variable.
        name: &'static str,
        /// Its value, clipped.
        value: String,
    },
}

impl Shard {
    /// Shard `index` of `count`, checked.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if count == 0 || count > MAX_SHARDS || index >= count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// The shard a command line names: `I/N`; or `auto` (a Slurm job array's task: its
    /// `SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN` of `SLURM_ARRAY_TASK_COUNT`) or `auto/N`
    /// (a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`, else a Slurm task's index, of `N`),
    /// the variables read from `env`.
    pub fn parse(text: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
        let number = |name: &'static str| -> Result<Option<u64>, ShardError> {
            let Some(value) = env(name) else { return Ok(None) };
            value
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| ShardError::BadVariable { name, value: clipped(&value, 40) })
        };
        let slurm_index = || -> Result<Option<u64>, ShardError> {
            let Some(id) = number("SLURM_ARRAY_TASK_ID")? else { return Ok(None) };
            Ok(Some(id.saturating_sub(number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0))))
        };
        let syntax = || ShardError::Syntax(clipped(text, 40));
        match text.split_once('/') {
            None if text == "auto" => {
                let (Some(index), Some(count)) =
                    (slurm_index()?, number("SLURM_ARRAY_TASK_COUNT")?)
                else {
                    return Err(ShardError::NoScheduler);
                };
                Shard::new(index, count)
            }
            Some(("auto", count)) => {
                let count = count.parse().map_err(|_| syntax())?;
                let index = match number("JOB_COMPLETION_INDEX")? {
                    Some(index) => index,
                    None => slurm_index()?.ok_or(ShardError::NoScheduler)?,
                };
                Shard::new(index, count)
            }
            Some((index, count)) => Shard::new(
                index.parse().map_err(|_| syntax())?,
                count.parse().map_err(|_| syntax())?,
            ),
            None => Err(syntax()),
        }
    }

    /// This shard's block of `seeds`: the offset of its first seed and how many it has (none
    /// when there are fewer seeds than shards). The blocks of `0/N` … `N-1/N` are consecutive,
    /// cover the range and differ in length by one at most.
    pub fn block(&self, seeds: SeedRange) -> (u64, u64) {
        let at = |index: u64| {
            (u128::from(seeds.len()) * u128::from(index) / u128::from(self.count)) as u64
        };
        let start = at(self.index);
        (start, at(self.index + 1) - start)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `I/N` only (no environment is read).
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        Shard::parse(text, &|_| None)
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

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| vars.iter().find(|(key, _)| *key == name).map(|(_, value)| value.to_string())
    }

    #[test]
    fn shards_are_named_by_hand_or_by_the_scheduler() {
        let none = env(&[]);
        assert_eq!(Shard::parse("2/5", &none), Ok(Shard { index: 2, count: 5 }));
        assert_eq!(
            Shard::parse("5/5", &none).unwrap_err().to_string(),
            "shard 5/5: shards are counted from 0, so the last of 5 is 4/5 (and at most 100000 shards)"
        );
        assert!(matches!(Shard::parse("a/b", &none), Err(ShardError::Syntax(_))));
        assert!(matches!(Shard::parse("0/0", &none), Err(ShardError::OutOfRange { .. })));
        assert_eq!(Shard::parse("auto", &none), Err(ShardError::NoScheduler));
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ]);
        assert_eq!(Shard::parse("auto", &slurm), Ok(Shard { index: 6, count: 8 }));
        let kubernetes = env(&[("JOB_COMPLETION_INDEX", "3")]);
        assert_eq!(Shard::parse("auto/4", &kubernetes), Ok(Shard { index: 3, count: 4 }));
        assert_eq!(
            Shard::parse("auto/4", &slurm),
            Err(ShardError::OutOfRange { index: 6, count: 4 })
        );
        let bad = env(&[("JOB_COMPLETION_INDEX", "x\u{1b}[2J")]);
        assert_eq!(
            Shard::parse("auto/4", &bad).unwrap_err().to_string(),
            "--shard auto: JOB_COMPLETION_INDEX=`x\\u{1b}[2J` is not a whole number"
        );
    }

    #[test]
    fn the_blocks_of_the_shards_cover_the_seeds_once_in_order() {
        for (seeds, count) in [(100, 7), (3, 5), (10_000_000, 3), (1, 1)] {
            let range = SeedRange::new(40, 40 + seeds - 1).unwrap();
            let mut next = 0;
            for index in 0..count {
                let (start, len) = Shard { index, count }.block(range);
                assert_eq!(start, next, "{seeds} seeds in {count}");
                assert!(len.abs_diff(seeds / count) <= 1);
                next += len;
            }
            assert_eq!(next, seeds);
        }
    }
}

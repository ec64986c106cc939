//! The bot's result on each seed against one opponent, one byte per seed, so that two runs can
//! be compared seed by seed afterwards (the Elo verdict of `botlens run --baseline`, `watch`
//! and the editor's code lens).
//!
//! Only the first [`OUTCOMES_KEPT`] seeds of a suite are kept (the figures of a report count
//! every game; only this list stops): memory stays flat however many games a suite plays.
//!
//! # JSON (`outcomes` of a report's opponent row)
//!
//! `{"first_seed": 0, "seat0": "WLDW-…", "seat1": "…"}`: one character per seed from
//! `first_seed` on, `W` won, `L` lost, `D` drawn (puzzles: `W` solved), `-` not played;
//! `seat0` the games with the bot in seat 0, `seat1` (paired runs only, else absent) those with
//! the bot in seat 1.

use std::fmt;

use botlens_engine::{Seat, SeatResult};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most seeds per opponent whose outcomes a suite keeps: the first 100,000 (100 kB per
/// opponent at most).
pub const OUTCOMES_KEPT: u64 = 100_000;

/// Results per seed (see the module docs): a byte per seed, two bits per seat (0 not played,
/// 1 lost, 2 drawn, 3 won).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Outcomes {
    first_seed: u64,
    bytes: Vec<u8>,
}

/// The two bits of a result.
fn code(result: SeatResult) -> u8 {
    match result {
        SeatResult::Loss => 1,
        SeatResult::Draw => 2,
        SeatResult::Win => 3,
    }
}

impl Outcomes {
    /// Room for `seeds` seeds from `first_seed` on (at most [`OUTCOMES_KEPT`]), none played.
    pub fn new(first_seed: u64, seeds: u64) -> Outcomes {
        Outcomes { first_seed, bytes: vec![0; seeds.min(OUTCOMES_KEPT) as usize] }
    }

    /// Records the result of the game on `seed` with the bot in `seat` (0 or 1); a seed beyond
    /// the room is not kept.
    pub fn record(&mut self, seed: u64, seat: Seat, result: SeatResult) {
        if let Some(byte) = self.index(seed).and_then(|i| self.bytes.get_mut(i)) {
            *byte |= code(result) << (2 * seat);
        }
    }

    /// The result on `seed` with the bot in `seat`, when it was played and kept.
    pub fn get(&self, seed: u64, seat: Seat) -> Option<SeatResult> {
        let byte = *self.bytes.get(self.index(seed)?)?;
        match (byte >> (2 * seat)) & 3 {
            1 => Some(SeatResult::Loss),
            2 => Some(SeatResult::Draw),
            3 => Some(SeatResult::Win),
            _ => None,
        }
    }

    fn index(&self, seed: u64) -> Option<usize> {
        usize::try_from(seed.checked_sub(self.first_seed)?).ok()
    }

    /// The seeds there is room for, in order.
    pub fn seeds(&self) -> std::ops::Range<u64> {
        self.first_seed..self.first_seed + self.bytes.len() as u64
    }

    /// Adds the results `other` holds (other games of the same seeds, or of some of them: a
    /// shard's) to these; `false`, and nothing added, when it holds seeds these have no room
    /// for.
    pub fn merge(&mut self, other: &Outcomes) -> bool {
        let (mine, theirs) = (self.seeds(), other.seeds());
        let inside = theirs.is_empty() || (mine.start <= theirs.start && theirs.end <= mine.end);
        if !inside {
            return false;
        }
        let offset = (theirs.start.saturating_sub(mine.start) as usize).min(self.bytes.len());
        for (byte, their) in self.bytes[offset..].iter_mut().zip(&other.bytes) {
            *byte |= their;
        }
        true
    }

    /// The results of the seeds in `seeds` only (those there is room for).
    pub fn within(&self, seeds: std::ops::Range<u64>) -> Outcomes {
        let held = self.seeds();
        let (start, end) = (seeds.start.max(held.start), seeds.end.min(held.end));
        if start >= end {
            return Outcomes { first_seed: seeds.start, bytes: Vec::new() };
        }
        let offset = (start - held.start) as usize;
        let bytes = self.bytes[offset..offset + (end - start) as usize].to_vec();
        Outcomes { first_seed: start, bytes }
    }

    /// Whether no seed is held (a report saved before outcomes were kept).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Whether any game with the bot in seat 1 was recorded (a paired run).
    pub fn has_seat_1(&self) -> bool {
        self.bytes.iter().any(|b| b >> 2 != 0)
    }

    /// One seat's results as text: `W`, `L`, `D` or `-` per seed.
    fn seat_text(&self, seat: Seat) -> String {
        let seeds = self.seeds();
        seeds
            .map(|seed| match self.get(seed, seat) {
                Some(SeatResult::Win) => 'W',
                Some(SeatResult::Loss) => 'L',
                Some(SeatResult::Draw) => 'D',
                None => '-',
            })
            .collect()
    }
}

/// Prints the number of seeds held, not every byte.
impl fmt::Debug for Outcomes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Outcomes({:?})", self.seeds())
    }
}

/// The JSON form; see the module docs.
#[derive(Serialize, Deserialize)]
struct Text {
    first_seed: u64,
    seat0: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seat1: Option<String>,
}

impl Serialize for Outcomes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Text {
            first_seed: self.first_seed,
            seat0: self.seat_text(0),
            seat1: self.has_seat_1().then(|| self.seat_text(1)),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Outcomes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = Text::deserialize(deserializer)?;
        let seat1 = text.seat1.unwrap_or_default();
        let seeds = text.seat0.len().max(seat1.len()) as u64;
        if seeds > OUTCOMES_KEPT {
            return Err(D::Error::custom(format!("outcomes of more than {OUTCOMES_KEPT} seeds")));
        }
        let mut outcomes = Outcomes::new(text.first_seed, seeds);
        for (seat, results) in [(0, &text.seat0), (1, &seat1)] {
            for (seed, c) in outcomes.seeds().zip(results.chars()) {
                let result = match c {
                    'W' => SeatResult::Win,
                    'L' => SeatResult::Loss,
                    'D' => SeatResult::Draw,
                    '-' => continue,
                    other => {
                        return Err(D::Error::custom(format!(
                            "outcome `{other}`: expected W, L, D or -"
                        )));
                    }
                };
                outcomes.record(seed, seat, result);
            }
        }
        Ok(outcomes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SeatResult::{Draw, Loss, Win};

    #[test]
    fn results_are_kept_per_seed_and_seat_and_read_back_from_json() {
        let mut outcomes = Outcomes::new(10, 4);
        outcomes.record(10, 0, Win);
        outcomes.record(11, 0, Loss);
        outcomes.record(13, 0, Draw);
        assert_eq!(
            (outcomes.get(10, 0), outcomes.get(12, 0), outcomes.get(9, 0)),
            (Some(Win), None, None)
        );
        assert!(!outcomes.has_seat_1());
        let json = serde_json::to_value(&outcomes).unwrap();
        assert_eq!(json, serde_json::json!({"first_seed": 10, "seat0": "WL-D"}));
        assert_eq!(serde_json::from_value::<Outcomes>(json).unwrap(), outcomes);
        outcomes.record(12, 1, Win);
        assert_eq!((outcomes.get(12, 1), outcomes.get(12, 0)), (Some(Win), None));
        let json = serde_json::to_value(&outcomes).unwrap();
        assert_eq!(json["seat1"], "--W-");
        assert_eq!(serde_json::from_value::<Outcomes>(json).unwrap(), outcomes);
        let bad = serde_json::json!({"first_seed": 0, "seat0": "WX"});
        let error = serde_json::from_value::<Outcomes>(bad).unwrap_err().to_string();
        assert!(error.contains("outcome `X`"), "{error}");
    }

    #[test]
    fn only_the_first_seeds_are_kept() {
        let mut outcomes = Outcomes::new(0, OUTCOMES_KEPT * 10);
        assert_eq!(outcomes.seeds(), 0..OUTCOMES_KEPT);
        outcomes.record(OUTCOMES_KEPT, 0, Win);
        assert_eq!(outcomes.get(OUTCOMES_KEPT, 0), None);
        outcomes.record(OUTCOMES_KEPT - 1, 0, Win);
        assert_eq!(outcomes.get(OUTCOMES_KEPT - 1, 0), Some(Win));
        let huge =
            serde_json::json!({"first_seed": 0, "seat0": "-".repeat(OUTCOMES_KEPT as usize + 1)});
        assert!(serde_json::from_value::<Outcomes>(huge).is_err());
    }

    #[test]
    fn the_outcomes_of_some_seeds_merge_into_those_of_all() {
        let mut all = Outcomes::new(10, 6);
        let mut part = Outcomes::new(10, 6);
        part.record(12, 0, Win);
        part.record(13, 1, Loss);
        let part = part.within(12..14);
        assert_eq!(part.seeds(), 12..14);
        assert!(all.merge(&part));
        assert_eq!((all.get(12, 0), all.get(13, 1), all.get(11, 0)), (Some(Win), Some(Loss), None));
        assert!(all.merge(&Outcomes::new(0, 0)), "no seeds merge anywhere");
        assert!(!all.merge(&Outcomes::new(14, 5)), "seeds beyond the room");
        assert_eq!(all.within(40..50).seeds(), 40..40);
    }
}

//! Two players compared through the same games against others: A and B each play the same
//! unit (one game, or one pair of games with the seats swapped, against the same opponent on
//! the same seed and seat), and each unit counts A's points minus B's.
//!
//! # The formula
//!
//! A unit of g games a side (g = 1 or 2) in which A scored a points and B scored b scores
//!
//! x = ½ + (a − b)/(2g), in [0, 1], in steps of 1/(4g);
//!
//! for g = 1 the five values 0, ¼, ½, ¾, 1, for g = 2 the nine values k/8. Equal players give
//! E[x] = ½. The tally is a sample of x, so the mean, the 95 % interval of the mean, the LOS
//! Φ((x̄ − ½)/(σ/√N)) and the GSPRT are those of the other tallies (N the units, σ² the
//! empirical variance of x).
//!
//! Its Elo is the difference D between two players placed D/2 above and D/2 below the common
//! opponent: they score 1/(1 + 10^(−D/800)) and 1/(1 + 10^(D/800)) per game, whose difference
//! makes the mean unit score x̄ = 1/(1 + 10^(−D/800)). So D = 2·(−400·log₁₀(1/x̄ − 1)), the
//! interval's ends are mapped the same way, and an SPRT hypothesis "D = eloⱼ" is the mean
//! 1/(1 + 10^(−eloⱼ/800)). Near an even opponent this is the head-to-head Elo difference; against
//! a much weaker or stronger opponent both players' scores bunch up and the figure shrinks
//! (such an opponent tells the two apart less well), which the interval shows.
//!
//! Its normalized Elo is doubled the same way: 2·(800/ln 10)·(x̄ − ½)/(σ·√g), a unit standing
//! for g games between A and B (botlens's extension: fishtest defines normalized Elo for games
//! and pairs, g = 1 and 2, without the doubling). The cutechess-cli line's `DrawRatio` is the
//! share of units that came out even.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::elo::Los;
use crate::sample::{PAIR_DIFFERENCE_POINTS, PAIR_POINTS, Sample};
use crate::tally::{GameResult, Tally, sample_of, sealed};

/// A tally of compared units by A's points minus B's (see the module docs).
///
/// ```
/// use botlens_stats::{Differences, GameResult::*, Tally};
///
/// let mut units = Differences::of_pairs();
/// units.record(&[Win, Win], &[Win, Loss]); // A 2 points, B 1: +1
/// units.record(&[Draw, Loss], &[Draw, Loss]); // equal: 0
/// assert_eq!(units.to_string(), "Diff(-2..+2): [0, 0, 0, 0, 1, 0, 1, 0, 0]");
/// assert_eq!((units.units(), units.games()), (2, 4));
/// assert_eq!(units.score(), Some(0.625));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Differences {
    /// Games each side plays per unit: 1, or 2 (a pair with the seats swapped).
    pub games_per_unit: u8,
    /// Units by A's points minus B's, in half points from −g to +g: entry k is a difference of
    /// (k − 2g)/2 points (`4g + 1` entries).
    pub counts: Vec<u64>,
}

impl Differences {
    /// An empty tally of units of one game a side.
    pub fn of_games() -> Differences {
        Differences { games_per_unit: 1, counts: vec![0; 5] }
    }

    /// An empty tally of units of a game pair a side.
    pub fn of_pairs() -> Differences {
        Differences { games_per_unit: 2, counts: vec![0; 9] }
    }

    /// Counts one unit: A's results and B's in its games, in the same order.
    ///
    /// # Panics
    ///
    /// If `a` or `b` does not hold [`Differences::games_per_unit`] results: a caller's bug.
    pub fn record(&mut self, a: &[GameResult], b: &[GameResult]) {
        let g = usize::from(self.games_per_unit);
        assert!(a.len() == g && b.len() == g, "a unit is {g} games a side");
        let half = |results: &[GameResult]| -> usize {
            results.iter().map(|r| usize::from(r.half_points())).sum()
        };
        self.counts[2 * g + half(a) - half(b)] += 1;
    }

    /// Adds another tally of the same unit size.
    ///
    /// # Panics
    ///
    /// If the unit sizes differ: a caller's bug.
    pub fn merge(&mut self, other: &Differences) {
        assert_eq!(self.games_per_unit, other.games_per_unit, "units of different sizes");
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
    }

    /// The units counted.
    pub fn units(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The share of units in which A and B scored the same: the `DrawRatio` of the
    /// cutechess-cli line of a gauntlet, where a unit is a game between A and B; `None` without
    /// units.
    pub fn draw_ratio(&self) -> Option<f64> {
        let units = self.units();
        let even = self.counts[self.counts.len() / 2];
        (units > 0).then(|| even as f64 / units as f64)
    }

    /// The same units from B's side: the counts reversed.
    pub fn swapped(&self) -> Differences {
        let mut counts = self.counts.clone();
        counts.reverse();
        Differences { games_per_unit: self.games_per_unit, counts }
    }
}

impl Tally for Differences {
    /// The games each side played: units × games per unit.
    fn games(&self) -> u64 {
        self.units() * u64::from(self.games_per_unit)
    }

    /// Φ((x̄ − ½)/(σ/√N)) over the units' scores x (see the module docs), every empty outcome
    /// counted 10⁻³; `None` below [`MIN_SAMPLES`](crate::MIN_SAMPLES) units.
    fn los(&self) -> Los {
        Los::from_sample(&sample_of(self))
    }
}

impl sealed::Sealed for Differences {
    fn sample(&self) -> Sample {
        let points: &'static [f64] =
            if self.games_per_unit == 1 { &PAIR_POINTS } else { &PAIR_DIFFERENCE_POINTS };
        Sample::scaled(points, &self.counts, f64::from(self.games_per_unit), 2.0)
    }
}

/// Prints the counts as `Diff(-1..+1): [0, 3, 50, 4, 1]` (one game a side) or
/// `Diff(-2..+2): […]` (nine entries, pairs), from the most negative difference up.
impl fmt::Display for Differences {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts: Vec<String> = self.counts.iter().map(u64::to_string).collect();
        let g = self.games_per_unit;
        write!(f, "Diff(-{g}..+{g}): [{}]", counts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EloEstimate;
    use crate::Sprt;
    use crate::elo::{elo_to_score, score_to_elo};
    use crate::normalized::NELO_PER_T;
    use GameResult::{Draw, Loss, Win};

    #[test]
    fn units_land_on_their_difference_in_half_points() {
        let mut games = Differences::of_games();
        for (a, b) in [(Win, Loss), (Win, Draw), (Draw, Draw), (Loss, Win), (Loss, Loss)] {
            games.record(&[a], &[b]);
        }
        assert_eq!(games.counts, [1, 0, 2, 1, 1]);
        let mut pairs = Differences::of_pairs();
        pairs.record(&[Win, Win], &[Loss, Loss]);
        pairs.record(&[Loss, Draw], &[Win, Win]);
        // +2 points, and ½ − 2 = −1½ points.
        assert_eq!(pairs.counts, [0, 1, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(pairs.swapped().counts, [1, 0, 0, 0, 0, 0, 0, 1, 0]);
        let mut total = pairs.clone();
        total.merge(&pairs);
        assert_eq!((total.units(), total.games()), (4, 8));
    }

    #[test]
    fn the_elo_is_twice_that_of_the_mean_unit_score() {
        // 40 units +1, 20 units −1, 40 even (one game a side), and two at each extreme:
        // x̄ = (2·0 + 18·¼ + 40·½ + 38·¾ + 2·1)/100 = 0.55; D = 2·(−400·log₁₀(1/0.55 − 1))
        // = 69.72. σ² = 0.02·0.55² + 0.18·0.3² + 0.4·0.05² + 0.38·0.2² + 0.02·0.45² = 0.0425,
        // the score interval 0.55 ± 1.96·√(0.0425/100).
        let units = Differences { games_per_unit: 1, counts: vec![2, 18, 40, 38, 2] };
        let EloEstimate::Estimate(interval) = units.elo() else { panic!("{:?}", units.elo()) };
        assert!((interval.elo - 2.0 * score_to_elo(0.55)).abs() < 1e-9);
        assert!((interval.elo - 69.72).abs() < 0.005, "{interval:?}");
        let margin = 1.959_963_984_540_054 * (0.0425f64 / 100.0).sqrt();
        assert!((interval.lower.unwrap() - 2.0 * score_to_elo(0.55 - margin)).abs() < 1e-9);
        assert!((interval.upper.unwrap() - 2.0 * score_to_elo(0.55 + margin)).abs() < 1e-9);
        // Two players 60 Elo apart around an even opponent: their scores per game differ by
        // E(30) − E(−30), and that difference, halved, puts x̄ at E(30).
        let gap = elo_to_score(30.0) - elo_to_score(-30.0);
        assert!((0.5 + gap / 2.0 - elo_to_score(30.0)).abs() < 1e-12);
        let los = units.los().0.unwrap();
        assert!(los > 0.99, "{los}");
        // Normalized: doubled too, t = 0.05/√0.0425 per unit of one game a side.
        let nelo = units.normalized_elo().nelo().unwrap();
        assert!((nelo - 2.0 * NELO_PER_T * 0.05 / 0.0425f64.sqrt()).abs() < 1e-9, "{nelo}");
        assert_eq!(units.draw_ratio(), Some(0.4));
    }

    #[test]
    fn the_sprt_tests_the_elo_of_the_difference() {
        // The LLR changes sign where the estimate crosses the middle of the bounds: positive
        // for bounds centred a little below D (the estimate, twice the Elo of the mean score),
        // negative for bounds centred a little above. (Were the bounds read on the score's own
        // Elo scale, D/2, both would be negative.)
        let units =
            Differences { games_per_unit: 2, counts: vec![0, 0, 100, 600, 2000, 700, 130, 0, 0] };
        let d = 2.0 * score_to_elo(units.score().unwrap());
        assert!((d - 7.874).abs() < 0.001, "{d}");
        let below = Sprt::logistic(d - 4.0, d + 2.0).unwrap().llr(&units);
        let above = Sprt::logistic(d - 2.0, d + 4.0).unwrap().llr(&units);
        assert!(below > 0.0 && above < 0.0, "{below} {above}");
        assert_eq!(Sprt::logistic(0.0, 10.0).unwrap().llr(&Differences::of_pairs()), 0.0);
    }

    #[test]
    fn the_edges_say_why_they_have_no_number() {
        assert_eq!(Differences::of_games().elo(), EloEstimate::NoGames);
        assert_eq!(Differences::of_games().draw_ratio(), None);
        let few = Differences { games_per_unit: 2, counts: vec![0, 0, 0, 0, 1, 0, 3, 0, 0] };
        assert_eq!(few.elo(), EloEstimate::TooFewGames { games: 8, needed: 40 });
        let all_better = Differences { games_per_unit: 1, counts: vec![0, 0, 0, 0, 20] };
        assert_eq!(all_better.elo(), EloEstimate::AllWon { games: 20 });
        // Every unit even: the spread of the empty outcomes' 10⁻³ alone, doubled.
        let even = Differences { games_per_unit: 1, counts: vec![0, 0, 20, 0, 0] };
        assert_eq!(even.elo().to_string(), "Elo difference: 0.0 ± 3.4 (95%)");
        assert_eq!(even.los().0, Some(0.5));
        assert_eq!(even.draw_ratio(), Some(1.0));
        assert_eq!(even.to_string(), "Diff(-1..+1): [0, 0, 20, 0, 0]");
    }

    #[test]
    #[should_panic(expected = "a unit is 2 games a side")]
    fn a_unit_of_the_wrong_size_is_a_bug() {
        Differences::of_pairs().record(&[Win], &[Loss]);
    }
}

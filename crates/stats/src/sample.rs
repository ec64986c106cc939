//! A tally seen as a sample of scores: how many games (or game pairs, or compared units) scored
//! each possible number of points per game. The Elo estimates, the LOS and the SPRT all work on
//! this one form, so every tally shares their maths.

/// Points per game a single game can score: a loss, a draw, a win.
pub const GAME_POINTS: [f64; 3] = [0.0, 0.5, 1.0];

/// Points per game a pair of games can score: its total (0, ½, 1, 1½ or 2) halved.
pub const PAIR_POINTS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The scores of a unit of game pairs compared side by side ([`crate::Differences`]): ½ plus
/// a difference of −2 to 2 points (by halves) over 4, that is k/8 for k = 0 to 8.
pub const PAIR_DIFFERENCE_POINTS: [f64; 9] =
    [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0];

/// What fishtest counts for an outcome nobody scored (`LLRcalc.regularize`): every probability
/// the statistics work with must be positive.
pub const EMPTY_COUNT: f64 = 1e-3;

/// The fewest samples (games of a trinomial tally, pairs of a pentanomial one, units of
/// differences) for which the 95 % interval, the LOS and the normalized Elo are given; below it
/// they say "too few games". See [`crate::EloEstimate`] for why 20.
pub const MIN_SAMPLES: u64 = 20;

/// Where a sample stands before any estimate is made of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// No samples.
    Empty,
    /// Fewer than [`MIN_SAMPLES`] samples.
    TooFew,
    /// Every sample scored full points.
    AllWon,
    /// Every sample scored nothing.
    AllLost,
    /// Enough samples, not all at one end.
    Spread,
}

/// Counts of samples (games, or game pairs) by the points per game each scored.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The possible points per game, ascending from 0 to 1.
    pub points: &'static [f64],
    /// How many samples scored each of `points` (after [`Sample::regularized`], not whole).
    pub counts: Vec<f64>,
    /// Elo per unit of [`crate::score_to_elo`] of the mean: 1 when the score is A's against B;
    /// 2 for compared units, whose mean is the score of a player half the Elo difference above
    /// a common opponent (see [`crate::Differences`]).
    pub elo_scale: f64,
    /// Games one sample stands for, on the scale of a game between A and B: 1 for a game, 2
    /// for a pair, g for a unit of g games a side. A sample's variance is that of a score per
    /// game averaged over this many games, so the variance of one game is it times this
    /// ([`Sample::per_game_deviation`]).
    pub games_per_sample: f64,
}

impl Sample {
    /// A sample of `counts`, one per entry of `points`, on the head-to-head Elo scale, each
    /// sample `games_per_sample` games.
    pub fn new(points: &'static [f64], counts: &[u64], games_per_sample: f64) -> Sample {
        Sample::scaled(points, counts, games_per_sample, 1.0)
    }

    /// A sample of `counts` whose Elo is `elo_scale` times that of its mean score.
    pub fn scaled(
        points: &'static [f64],
        counts: &[u64],
        games_per_sample: f64,
        elo_scale: f64,
    ) -> Sample {
        // u64 → f64 is exact up to 2^53 games, far beyond any suite.
        let counts = counts.iter().map(|&c| c as f64).collect();
        Sample { points, counts, elo_scale, games_per_sample }
    }

    /// The Elo difference the mean score `s` stands for: `elo_scale`·[`score_to_elo`](crate::score_to_elo)(s).
    pub fn elo_of(&self, s: f64) -> f64 {
        self.elo_scale * crate::score_to_elo(s)
    }

    /// The mean score an Elo difference `elo` stands for, the inverse of [`Sample::elo_of`].
    pub fn score_of(&self, elo: f64) -> f64 {
        crate::elo_to_score(elo / self.elo_scale)
    }

    /// N, the number of samples.
    pub fn total(&self) -> f64 {
        self.counts.iter().sum()
    }

    /// The empirical frequencies p̂ᵢ = nᵢ/N (all zero when N = 0).
    pub fn frequencies(&self) -> Vec<f64> {
        let total = self.total();
        self.counts.iter().map(|&c| if total > 0.0 { c / total } else { 0.0 }).collect()
    }

    /// The mean score per game, s = Σ p̂ᵢ·aᵢ (0 when N = 0).
    pub fn mean(&self) -> f64 {
        self.frequencies().iter().zip(self.points).map(|(p, a)| p * a).sum()
    }

    /// The k-th central moment of one sample's score, Σ p̂ᵢ·(aᵢ − s)ᵏ.
    pub fn central_moment(&self, k: i32) -> f64 {
        let mean = self.mean();
        self.frequencies().iter().zip(self.points).map(|(p, a)| p * (a - mean).powi(k)).sum()
    }

    /// The variance of one sample's score, σ² = Σ p̂ᵢ·(aᵢ − s)², from the empirical
    /// distribution (per game for games, per pair for pairs).
    pub fn variance(&self) -> f64 {
        self.central_moment(2)
    }

    /// The standard deviation of one game's score that the sample's variance stands for,
    /// √(σ²·games per sample): fishtest's `sigma_pg` (√σ² for games, √(2σ²) for pairs).
    pub fn per_game_deviation(&self) -> f64 {
        (self.variance() * self.games_per_sample).sqrt()
    }

    /// The same sample with every empty count replaced by [`EMPTY_COUNT`], as fishtest
    /// regularizes a tally before every statistic it computes of it (`LLRcalc.regularize`):
    /// the maximum-likelihood distributions of the SPRT must give every outcome some
    /// probability, and the interval of a sample that scored one value has some width.
    pub fn regularized(&self) -> Sample {
        let counts = self.counts.iter().map(|&c| if c == 0.0 { EMPTY_COUNT } else { c }).collect();
        Sample { counts, ..self.clone() }
    }

    /// Where the sample stands: empty, too small, all at one end, or spread.
    pub fn extent(&self) -> Extent {
        let total = self.total();
        let last = self.counts.len() - 1;
        if total == 0.0 {
            Extent::Empty
        } else if total < MIN_SAMPLES as f64 {
            Extent::TooFew
        } else if self.counts[last] == total {
            Extent::AllWon
        } else if self.counts[0] == total {
            Extent::AllLost
        } else {
            Extent::Spread
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_variance_are_those_of_the_empirical_distribution() {
        // 34 wins, 21 losses, 45 draws: s = (34 + 22.5)/100; σ² by hand:
        // 0.34·0.435² + 0.21·0.565² + 0.45·0.065² = 0.133275.
        let sample = Sample::new(&GAME_POINTS, &[21, 45, 34], 1.0);
        assert_eq!(sample.total(), 100.0);
        assert!((sample.mean() - 0.565).abs() < 1e-15);
        assert!((sample.variance() - 0.133_275).abs() < 1e-13);
        assert!((sample.per_game_deviation() - 0.133_275f64.sqrt()).abs() < 1e-15);
        let pairs = Sample::new(&PAIR_POINTS, &[1, 10, 20, 15, 4], 2.0);
        assert!((pairs.per_game_deviation() - (2.0 * pairs.variance()).sqrt()).abs() < 1e-15);
    }

    #[test]
    fn an_empty_sample_has_no_spread_and_regularizing_fills_every_outcome() {
        let empty = Sample::new(&PAIR_POINTS, &[0; 5], 2.0);
        assert_eq!((empty.total(), empty.mean(), empty.variance()), (0.0, 0.0, 0.0));
        let regularized = Sample::new(&PAIR_POINTS, &[0, 3, 0, 0, 7], 2.0).regularized();
        assert_eq!(regularized.counts, vec![1e-3, 3.0, 1e-3, 1e-3, 7.0]);
    }

    #[test]
    fn the_extent_says_what_a_sample_can_support() {
        let extent = |counts: &[u64]| Sample::new(&GAME_POINTS, counts, 1.0).extent();
        assert_eq!(extent(&[0, 0, 0]), Extent::Empty);
        assert_eq!(extent(&[0, 19, 0]), Extent::TooFew);
        assert_eq!(extent(&[0, 0, 20]), Extent::AllWon);
        assert_eq!(extent(&[20, 0, 0]), Extent::AllLost);
        assert_eq!(extent(&[0, 20, 0]), Extent::Spread);
        assert_eq!(extent(&[1, 0, 19]), Extent::Spread);
    }
}

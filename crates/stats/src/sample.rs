//! A tally seen as a sample of scores: how many games (or game pairs, or compared units) scored
//! each possible number of points per game. The Elo estimate, the pentanomial LOS and the SPRT
//! all work on this one form, so every tally shares their maths.

/// Points per game a single game can score: a loss, a draw, a win.
pub const GAME_POINTS: [f64; 3] = [0.0, 0.5, 1.0];

/// Points per game a pair of games can score: its total (0, ½, 1, 1½ or 2) halved.
pub const PAIR_POINTS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The scores of a unit of game pairs compared side by side ([`crate::Differences`]): ½ plus
/// a difference of −2 to 2 points (by halves) over 4, that is k/8 for k = 0 to 8.
pub const PAIR_DIFFERENCE_POINTS: [f64; 9] =
    [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0];

/// Counts of samples (games, or game pairs) by the points per game each scored.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The possible points per game, ascending from 0 to 1.
    pub points: &'static [f64],
    /// How many samples scored each of `points`.
    pub counts: Vec<f64>,
    /// Elo per unit of [`crate::score_to_elo`] of the mean: 1 when the score is A's against B;
    /// 2 for compared units, whose mean is the score of a player half the Elo difference above
    /// a common opponent (see [`crate::Differences`]).
    pub elo_scale: f64,
}

impl Sample {
    /// A sample of `counts`, one per entry of `points`, on the head-to-head Elo scale.
    pub fn new(points: &'static [f64], counts: &[u64]) -> Sample {
        Sample::scaled(points, counts, 1.0)
    }

    /// A sample of `counts` whose Elo is `elo_scale` times that of its mean score.
    pub fn scaled(points: &'static [f64], counts: &[u64], elo_scale: f64) -> Sample {
        // u64 → f64 is exact up to 2^53 games, far beyond any suite.
        Sample { points, counts: counts.iter().map(|&c| c as f64).collect(), elo_scale }
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

    /// The variance of one sample's score, σ² = Σ p̂ᵢ·(aᵢ − s)², from the empirical
    /// distribution (per game for games, per pair for pairs).
    pub fn variance(&self) -> f64 {
        let mean = self.mean();
        self.frequencies().iter().zip(self.points).map(|(p, a)| p * (a - mean).powi(2)).sum()
    }

    /// The same sample with every empty count replaced by 10⁻³, as fishtest regularizes a tally
    /// before its log-likelihood ratio: the maximum-likelihood distributions it compares must give
    /// every outcome some probability.
    pub fn regularized(&self) -> Sample {
        let counts = self.counts.iter().map(|&c| if c == 0.0 { 1e-3 } else { c }).collect();
        Sample { points: self.points, counts, elo_scale: self.elo_scale }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_variance_are_those_of_the_empirical_distribution() {
        // 34 wins, 21 losses, 45 draws: s = (34 + 22.5)/100; σ² by hand:
        // 0.34·0.435² + 0.21·0.565² + 0.45·0.065² = 0.133275.
        let sample = Sample::new(&GAME_POINTS, &[21, 45, 34]);
        assert_eq!(sample.total(), 100.0);
        assert!((sample.mean() - 0.565).abs() < 1e-15);
        assert!((sample.variance() - 0.133_275).abs() < 1e-13);
    }

    #[test]
    fn an_empty_sample_has_no_spread_and_regularizing_fills_every_outcome() {
        let empty = Sample::new(&PAIR_POINTS, &[0; 5]);
        assert_eq!((empty.total(), empty.mean(), empty.variance()), (0.0, 0.0, 0.0));
        let regularized = Sample::new(&PAIR_POINTS, &[0, 3, 0, 0, 7]).regularized();
        assert_eq!(regularized.counts, vec![1e-3, 3.0, 1e-3, 1e-3, 7.0]);
    }
}

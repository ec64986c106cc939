//! The Elo difference between two players with its 95 % interval, and the likelihood of
//! superiority (LOS), from what a tally says about the score.
//!
//! Elo here is logistic Elo, the scale of cutechess-cli, fishtest's "logistic" model and
//! fastchess's `Elo:`: a player who scores s points per game is −400·log₁₀(1/s − 1) Elo above
//! the opponent. Normalized Elo is not offered.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::format::fixed;
use crate::normal::{Z_95, phi};
use crate::sample::Sample;

/// The logistic Elo difference of a player who scores `s` points per game (0 < s < 1):
/// −400·log₁₀(1/s − 1). Infinite at s = 0 and s = 1; [`EloEstimate`] never shows those.
///
/// ```
/// let elo = botlens_stats::score_to_elo(0.75);
/// assert!((elo - 190.85).abs() < 0.01);
/// ```
pub fn score_to_elo(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// The expected score per game of a player `elo` logistic Elo above the opponent:
/// 1/(1 + 10^(−elo/400)), the inverse of [`score_to_elo`].
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// What a tally says about the Elo difference of A over B.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EloEstimate {
    /// No games yet: nothing to estimate.
    NoGames,
    /// A won every game: the estimate is +∞, which no finite number states.
    AllWon {
        /// The games played.
        games: u64,
    },
    /// A lost every game: the estimate is −∞.
    AllLost {
        /// The games played.
        games: u64,
    },
    /// A finite estimate with its 95 % interval.
    Estimate(EloInterval),
}

/// A finite Elo estimate and its 95 % interval.
///
/// The interval is that of the score, s ± 1.96·σ/√N (σ² the empirical variance of one sample's
/// score, N the samples: games, or game pairs), with its two ends mapped through
/// [`score_to_elo`], as cutechess-cli, fishtest and fastchess compute it; it is therefore
/// asymmetric around the estimate. An end of the score interval at or past 0 or 1 has no Elo:
/// that end is `None`, unbounded.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EloInterval {
    /// The estimate: the Elo of the observed score.
    pub elo: f64,
    /// The interval's lower end; `None` when it is unbounded (−∞).
    pub lower: Option<f64>,
    /// The interval's upper end; `None` when it is unbounded (+∞).
    pub upper: Option<f64>,
}

impl EloInterval {
    /// The half-width (upper − lower)/2 that `±` prints, when both ends are finite.
    pub fn plus_minus(&self) -> Option<f64> {
        Some((self.upper? - self.lower?) / 2.0)
    }
}

impl EloEstimate {
    /// The estimate, when it is finite.
    pub fn elo(&self) -> Option<f64> {
        match self {
            EloEstimate::Estimate(interval) => Some(interval.elo),
            _ => None,
        }
    }

    /// The estimate from `sample`, of `games` games in all.
    pub(crate) fn of(sample: &Sample, games: u64) -> EloEstimate {
        let total = sample.total();
        if total == 0.0 {
            return EloEstimate::NoGames;
        }
        let score = sample.mean();
        if score >= 1.0 {
            return EloEstimate::AllWon { games };
        }
        if score <= 0.0 {
            return EloEstimate::AllLost { games };
        }
        let margin = Z_95 * (sample.variance() / total).sqrt();
        let (low, high) = (score - margin, score + margin);
        EloEstimate::Estimate(EloInterval {
            elo: sample.elo_of(score),
            lower: (low > 0.0).then(|| sample.elo_of(low)),
            upper: (high < 1.0).then(|| sample.elo_of(high)),
        })
    }
}

/// Prints `Elo difference: 45.4 ± 30.2 (95%)`; an interval with an unbounded end as
/// `Elo difference: 511.5 (95%: 302.1 to +inf)`; and `Elo difference: none (no games)`,
/// `Elo difference: +inf (all 10 games won)`, `Elo difference: -inf (all 10 games lost)`.
impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Elo difference: ")?;
        match self {
            EloEstimate::NoGames => f.write_str("none (no games)"),
            EloEstimate::AllWon { games } => write!(f, "+inf (all {games} games won)"),
            EloEstimate::AllLost { games } => write!(f, "-inf (all {games} games lost)"),
            EloEstimate::Estimate(interval) => match interval.plus_minus() {
                Some(pm) => write!(f, "{} ± {} (95%)", fixed(interval.elo, 1), fixed(pm, 1)),
                None => {
                    let end = |end: Option<f64>, infinite| end.map_or(infinite, |e| fixed(e, 1));
                    let lower = end(interval.lower, "-inf".to_owned());
                    let upper = end(interval.upper, "+inf".to_owned());
                    write!(f, "{} (95%: {lower} to {upper})", fixed(interval.elo, 1))
                }
            },
        }
    }
}

/// The likelihood of superiority: the probability that A is the stronger player, `None` when
/// the tally has no evidence either way.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Los(pub Option<f64>);

impl Los {
    /// LOS from decisive games, the conventional formula for unpaired games (as cutechess-cli
    /// computes it): Φ((W − L)/√(W + L)), draws ignored; `None` without a decisive game.
    pub(crate) fn from_wins_and_losses(wins: u64, losses: u64) -> Los {
        let decisive = (wins + losses) as f64;
        Los((decisive > 0.0).then(|| phi((wins as f64 - losses as f64) / decisive.sqrt())))
    }

    /// LOS from a sample's mean and variance, as fishtest and fastchess compute it for pairs:
    /// Φ((s − ½)/(σ/√N)). With zero variance (every pair scored the same) it is 1 above ½, 0
    /// below, and `None` at ½ or without samples.
    pub(crate) fn from_sample(sample: &Sample) -> Los {
        let total = sample.total();
        let (score, error) = (sample.mean(), (sample.variance() / total).sqrt());
        Los(match () {
            _ if total == 0.0 => None,
            _ if error > 0.0 => Some(phi((score - 0.5) / error)),
            _ if score > 0.5 => Some(1.0),
            _ if score < 0.5 => Some(0.0),
            _ => None,
        })
    }
}

/// Prints `LOS: 99.6 %`, or `LOS: none (no evidence either way)`.
impl fmt::Display for Los {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(p) => write!(f, "LOS: {} %", fixed(100.0 * p, 1)),
            None => f.write_str("LOS: none (no evidence either way)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::GAME_POINTS;

    #[test]
    fn score_and_elo_are_inverse_and_odd_around_a_half() {
        for elo in [-600.0, -45.4, 0.0, 1.0, 190.0, 800.0] {
            assert!((score_to_elo(elo_to_score(elo)) - elo).abs() < 1e-9, "{elo}");
        }
        assert!((score_to_elo(0.75) + score_to_elo(0.25)).abs() < 1e-12);
        assert_eq!(score_to_elo(0.5), 0.0);
        assert!(score_to_elo(0.5).is_sign_positive());
    }

    #[test]
    fn an_interval_reaching_past_a_full_score_is_unbounded_at_that_end() {
        // 9 wins and a draw: s = 0.95, σ² = 0.9·0.05² + 0.1·0.45² = 0.0225, and
        // s ± 1.96·√(0.0225/10) = 0.857 … 1.043: the upper end is past 1, the lower one is
        // −400·log₁₀(1/0.857 − 1) = 311.1 Elo.
        let estimate = EloEstimate::of(&Sample::new(&GAME_POINTS, &[0, 1, 9]), 10);
        let EloEstimate::Estimate(interval) = estimate else { panic!("{estimate:?}") };
        assert!((interval.elo - 511.5).abs() < 0.05, "{interval:?}");
        assert_eq!(interval.upper, None);
        assert!((interval.lower.unwrap() - 311.1).abs() < 0.05, "{interval:?}");
        assert_eq!(interval.plus_minus(), None);
        assert_eq!(estimate.to_string(), "Elo difference: 511.5 (95%: 311.1 to +inf)");
    }

    #[test]
    fn los_without_evidence_is_none_and_prints_so() {
        assert_eq!(Los::from_wins_and_losses(0, 0), Los(None));
        assert_eq!(Los::from_sample(&Sample::new(&GAME_POINTS, &[0, 0, 0])), Los(None));
        assert_eq!(Los::from_sample(&Sample::new(&GAME_POINTS, &[0, 12, 0])), Los(None));
        assert_eq!(Los::from_sample(&Sample::new(&GAME_POINTS, &[0, 0, 3])), Los(Some(1.0)));
        assert_eq!(Los(None).to_string(), "LOS: none (no evidence either way)");
        assert_eq!(Los(Some(0.995_68)).to_string(), "LOS: 99.6 %");
    }
}

//! Normalized Elo, fishtest's default scale: the score's distance from ½ in standard deviations
//! of one game's score, times 800/ln 10 (M. Van den Bergh, "Normalized Elo" and "Comments on
//! normalized Elo"; fishtest's `LLRcalc.nelo_divided_by_nt`).
//!
//! With t = (s − ½)/σ the t-value of one sample (σ² its variance, every empty outcome counted
//! 10⁻³ as for the other figures) and g the games a sample stands for (1 for a game, 2 for a
//! pair), the estimate is 800/ln 10 · t/√g, so t/√g is the t-value per game; its 95 % interval
//! is ±1.96 times the delta-method standard error of t, √(max(0, 1 − t·γ₁ + t²(γ₂ + 2)/4)/N)
//! (γ₁ the skewness, γ₂ the excess kurtosis of the sample), scaled the same way: fishtest's
//! `nElo: X ± Y (95%)`. Near 0 a normalized Elo is about the logistic one divided by twice σ
//! per game, so it does not move with the draw rate. For compared units
//! ([`crate::Differences`]) both are doubled, as their logistic Elo is.
//!
//! The same gates as [`crate::EloEstimate`]: no figure without games, with too few, or with
//! every sample at one end.

use std::f64::consts::LN_10;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::elo::needed_games;
use crate::format::fixed;
use crate::normal::Z_95;
use crate::sample::{Extent, Sample};

/// 800/ln 10 = 347.4…: normalized Elo per unit of t-value per game (fishtest's
/// `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / LN_10;

/// What a tally says about the normalized Elo difference of A over B.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NormalizedElo {
    /// No games yet.
    NoGames,
    /// Fewer than [`MIN_SAMPLES`](crate::MIN_SAMPLES) samples.
    TooFewGames {
        /// The games played.
        games: u64,
        /// The fewest games a figure is given for.
        needed: u64,
    },
    /// A won every game: +∞.
    AllWon {
        /// The games played.
        games: u64,
    },
    /// A lost every game: −∞.
    AllLost {
        /// The games played.
        games: u64,
    },
    /// A finite estimate.
    Estimate {
        /// The normalized Elo of A over B.
        nelo: f64,
        /// The 95 % interval's half-width (symmetric).
        plus_minus: f64,
    },
}

impl NormalizedElo {
    /// The estimate, when it is finite.
    pub fn nelo(&self) -> Option<f64> {
        match self {
            NormalizedElo::Estimate { nelo, .. } => Some(*nelo),
            _ => None,
        }
    }

    /// The estimate from `sample`, of `games` games in all.
    pub(crate) fn of(sample: &Sample, games: u64) -> NormalizedElo {
        match sample.extent() {
            Extent::Empty => NormalizedElo::NoGames,
            Extent::TooFew => NormalizedElo::TooFewGames { games, needed: needed_games(sample) },
            Extent::AllWon => NormalizedElo::AllWon { games },
            Extent::AllLost => NormalizedElo::AllLost { games },
            Extent::Spread => {
                let sample = sample.regularized();
                let variance = sample.variance();
                let skewness = sample.central_moment(3) / variance.powf(1.5);
                let excess_kurtosis = sample.central_moment(4) / (variance * variance) - 3.0;
                let t = (sample.mean() - 0.5) / variance.sqrt();
                let t_variance =
                    (1.0 - t * skewness + 0.25 * t * t * (excess_kurtosis + 2.0)).max(0.0);
                let scale = sample.elo_scale * NELO_PER_T / sample.games_per_sample.sqrt();
                NormalizedElo::Estimate {
                    nelo: scale * t + 0.0,
                    plus_minus: scale * Z_95 * (t_variance / sample.total()).sqrt(),
                }
            }
        }
    }
}

/// Prints fishtest's `nElo: 12.3 ± 4.5 (95%)`; without a figure `nElo: none (no games)`,
/// `nElo: none (too few games: 6, at least 40 needed)`, `nElo: +inf (all 10 games won)`.
impl fmt::Display for NormalizedElo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("nElo: ")?;
        match self {
            NormalizedElo::NoGames => f.write_str("none (no games)"),
            NormalizedElo::TooFewGames { games, needed } => {
                write!(f, "none (too few games: {games}, at least {needed} needed)")
            }
            NormalizedElo::AllWon { games } => write!(f, "+inf (all {games} games won)"),
            NormalizedElo::AllLost { games } => write!(f, "-inf (all {games} games lost)"),
            NormalizedElo::Estimate { nelo, plus_minus } => {
                write!(f, "{} ± {} (95%)", fixed(*nelo, 1), fixed(*plus_minus, 1))
            }
        }
    }
}

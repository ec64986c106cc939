//! What this crate refuses, and why: input that has no statistics.

use std::fmt;

/// Input the statistics cannot use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StatsError {
    /// Paired samples of different lengths: every value needs its partner.
    LengthMismatch {
        /// How many values the first sample has.
        first: usize,
        /// How many values the second sample has.
        second: usize,
    },
    /// A value that is NaN or infinite.
    NotFinite {
        /// Its index in the input.
        index: usize,
        /// The value.
        value: f64,
    },
    /// SPRT bounds that are not two finite Elo values with `elo0 < elo1`.
    EloBounds {
        /// The bound of H0.
        elo0: f64,
        /// The bound of H1.
        elo1: f64,
    },
    /// SPRT error rates outside `0 < α`, `0 < β`, `α + β < 1`.
    ErrorRates {
        /// The false-positive rate α.
        alpha: f64,
        /// The false-negative rate β.
        beta: f64,
    },
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StatsError::LengthMismatch { first, second } => write!(
                f,
                "paired samples differ in length: {first} values against {second}; every value \
                 needs its partner"
            ),
            StatsError::NotFinite { index, value } => {
                write!(f, "value {index} is {value}: only finite numbers can be compared")
            }
            StatsError::EloBounds { elo0, elo1 } => write!(
                f,
                "SPRT bounds elo0 = {elo0}, elo1 = {elo1}: they must be finite, with elo0 below \
                 elo1"
            ),
            StatsError::ErrorRates { alpha, beta } => write!(
                f,
                "SPRT error rates alpha = {alpha}, beta = {beta}: each must be above 0, and \
                 together below 1"
            ),
        }
    }
}

impl std::error::Error for StatsError {}

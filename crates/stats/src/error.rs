//! What this crate refuses, and why: input that has no statistics.

use std::fmt;

use crate::elo::EloModel;

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
    /// SPRT bounds that are not two finite Elo values within the model's limit
    /// ([`crate::bound_limit`]) with `elo0 < elo1`.
    EloBounds {
        /// The bound of H0.
        elo0: f64,
        /// The bound of H1.
        elo1: f64,
        /// The scale of the bounds.
        model: EloModel,
    },
    /// SPRT error rates outside `0 < α`, `0 < β`, `α + β < 1`.
    ErrorRates {
        /// The false-positive rate α.
        alpha: f64,
        /// The false-negative rate β.
        beta: f64,
    },
    /// Ratings asked of fewer than two players.
    TooFewPlayers {
        /// How many there are.
        players: usize,
    },
    /// A score naming a player out of range, or a player against itself.
    BadPair {
        /// The score's index in the input.
        index: usize,
        /// The scoring player.
        player: usize,
        /// The opponent.
        opponent: usize,
        /// How many players there are.
        players: usize,
    },
    /// A score with points outside 0 to its games (or not a number).
    BadPoints {
        /// The score's index in the input.
        index: usize,
        /// The points.
        points: f64,
        /// The games.
        games: u64,
    },
    /// A negative or non-finite number of virtual draws.
    VirtualDraws {
        /// The number.
        value: f64,
    },
    /// Players not all connected by games: their ratings have no common scale.
    Unconnected,
    /// Scores whose likelihood has its maximum at infinity (a player won every game).
    NoMaximum,
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
            StatsError::EloBounds { elo0, elo1, model } => write!(
                f,
                "SPRT bounds elo0 = {elo0}, elo1 = {elo1}: they must be finite, within ±{} \
                 {model} Elo, with elo0 below elo1",
                crate::bound_limit(model)
            ),
            StatsError::ErrorRates { alpha, beta } => write!(
                f,
                "SPRT error rates alpha = {alpha}, beta = {beta}: each must be above 0, and \
                 together below 1"
            ),
            StatsError::TooFewPlayers { players } => {
                write!(f, "{players} player(s): ratings need at least two")
            }
            StatsError::BadPair { index, player, opponent, players } => write!(
                f,
                "score {index} is of player {player} against {opponent}: there are {players} \
                 players (0 to {}), and nobody plays themself",
                players.saturating_sub(1)
            ),
            StatsError::BadPoints { index, points, games } => {
                write!(f, "score {index} has {points} points in {games} games")
            }
            StatsError::VirtualDraws { value } => {
                write!(f, "{value} virtual draws: they must be a finite number, 0 or more")
            }
            StatsError::Unconnected => f.write_str(
                "the players are not all connected by games: their ratings have no common scale",
            ),
            StatsError::NoMaximum => f.write_str(
                "the ratings have no finite maximum-likelihood value (someone won every game)",
            ),
        }
    }
}

impl std::error::Error for StatsError {}

//! The statistics of "is my new build better?": the numbers chess-engine testers
//! (cutechess-cli, fishtest, fastchess) read off a match between two players A and B, for game
//! bots, and the paired tests for one-player games measured in numbers.
//!
//! - Results and tallies: [`GameResult`] (from A's point of view), [`Trinomial`] (wins, losses,
//!   draws of unpaired games) and [`Pentanomial`] (pairs of games on one seed with the seats
//!   swapped, counted by the pair's points 0, ½, 1, 1½, 2). [`Differences`] compares A and B
//!   through the same games against others, unit by unit (A's points minus B's). All are a
//!   [`Tally`].
//! - [`Tally::elo`]: the logistic Elo difference with its 95 % interval ([`EloEstimate`]),
//!   [`Tally::normalized_elo`]: the normalized Elo, fishtest's default scale
//!   ([`NormalizedElo`]), and [`Tally::los`]: the likelihood of superiority ([`Los`]); all as
//!   fishtest computes them, every empty outcome counted 10⁻³, and none below
//!   [`MIN_SAMPLES`] samples ("too few games").
//! - [`Sprt`]: the sequential probability ratio test between two Elo bounds, logistic or
//!   normalized ([`EloModel`]), with its log-likelihood ratio and [`Verdict`], and once it
//!   stops, fishtest's bias-corrected estimate ([`Sprt::estimate`]).
//! - [`fit_ratings`]: Bradley–Terry ratings of several players from their pair-wise scores
//!   ([`PairScore`]), by maximum likelihood, each [`Rating`] with its 95 % interval.
//! - [`sign_test`] and [`wilcoxon_signed_rank`]: paired comparison of numbers (steps per
//!   Klotski layout), with [`paired_differences`] to form the pairs.
//!
//! Every result is `Serialize`, holds no NaN or infinity (what has no finite value is an
//! `Option` or an enum variant that says why), and prints the way testers read it, with
//! cutechess-cli's own lines in [`CutechessElo`] and [`CutechessSprt`]:
//!
//! ```
//! use botlens_stats::{CutechessElo, CutechessSprt, Sprt, Tally, Trinomial};
//!
//! let games = Trinomial::new(136, 96, 111);
//! assert_eq!(games.score_line("new", "old").to_string(),
//!            "Score of new vs old: 136 - 96 - 111  [0.558] 343");
//! assert_eq!(games.elo().to_string(), "Elo difference: 40.7 ± 30.4 (95%)");
//! assert_eq!(games.los().to_string(), "LOS: 99.6 %");
//! let sprt = Sprt::logistic(0.0, 10.0)?.test(&games);
//! assert_eq!(sprt.to_string(), "LLR: 1.49 (-2.94, 2.94) [0.00, 10.00]");
//! let cutechess = CutechessElo::new(games.elo(), games.los(), games.draw_ratio());
//! assert_eq!(cutechess.to_string(),
//!            "Elo difference: 40.7 +/- 30.4, LOS: 99.6 %, DrawRatio: 32.4 %");
//! assert_eq!(CutechessSprt(sprt).to_string(), "SPRT: llr 1.49 (50.7%), lbound -2.94, ubound 2.94");
//! # Ok::<(), botlens_stats::StatsError>(())
//! ```
//!
//! Pure functions of their input: no I/O, no clocks, no threads, no randomness.

mod cutechess;
mod difference;
mod elo;
mod error;
mod format;
mod mle;
mod normal;
mod normalized;
mod paired;
mod ratings;
mod sample;
mod sprt;
mod sprt_estimate;
mod tally;

pub use cutechess::{CutechessElo, CutechessSprt};
pub use difference::Differences;
pub use elo::{EloEstimate, EloInterval, EloModel, Los, elo_to_score, score_to_elo};
pub use error::StatsError;
pub use normalized::{NELO_PER_T, NormalizedElo};
pub use paired::{
    SignTest, WILCOXON_EXACT_MAX_N, Wilcoxon, WilcoxonMethod, paired_differences, sign_test,
    wilcoxon_signed_rank,
};
pub use ratings::{PairScore, Rating, fit_ratings};
pub use sample::{EMPTY_COUNT, MIN_SAMPLES};
pub use sprt::{
    DEFAULT_ERROR_RATE, MAX_LOGISTIC_BOUND, MAX_NORMALIZED_BOUND, Sprt, SprtResult, Verdict,
    bound_limit,
};
pub use sprt_estimate::{SEARCH_LIMIT, SprtEstimate};
pub use tally::{GameResult, Pentanomial, ScoreLine, Tally, Trinomial};

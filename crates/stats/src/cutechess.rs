//! The lines cutechess-cli prints for a match, in its exact form, so that the tools that read
//! cutechess-cli's output (fishtest's worker of the cutechess era, chess-tuning-tools, the
//! regular expressions of engine authors' scripts) read botlens's too. cutechess-cli's own
//! source is the reference: `Tournament::results()` prints
//!
//! - `Elo difference: 24.4 +/- 27.2, LOS: 96.0 %, DrawRatio: 68.0 %` (each figure to one
//!   decimal, Qt's `'f'` format), and
//! - `SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted` (the LLR and the
//!   bounds to three significant digits, Qt's `'g'` format, the LLR as a share of the upper
//!   bound to one decimal; ` - H0 was accepted`, ` - H1 was accepted` or nothing).
//!
//! The score line, `Score of A vs B: W - L - D  [0.565] N`, is [`crate::ScoreLine`].
//!
//! The figures are botlens's own, so both lines agree with the lines botlens prints after
//! them: the Elo and its `+/-` are fishtest's ([`crate::EloInterval::margin`]: an unbounded
//! end counts at fishtest's cap), the LOS is the tally's; cutechess-cli computes them from W, L
//! and D only, with an approximate Φ⁻¹. Where there is no figure, the line has what
//! cutechess-cli prints for a figure it cannot compute: `inf` for a clean sweep's Elo and
//! `nan` for the rest, which no tool reads as a number.

use std::fmt;

use crate::elo::{EloEstimate, Los};
use crate::format::{fixed, general};
use crate::sprt::{SprtResult, Verdict};

/// cutechess-cli's Elo line; see the module docs.
///
/// ```
/// use botlens_stats::{CutechessElo, Tally, Trinomial};
///
/// let games = Trinomial::new(39, 25, 136);
/// let line = CutechessElo::new(games.elo(), games.los(), games.draw_ratio());
/// assert_eq!(line.to_string(), "Elo difference: 24.4 +/- 27.2, LOS: 96.0 %, DrawRatio: 68.0 %");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CutechessElo {
    elo: EloEstimate,
    los: Los,
    draw_ratio: Option<f64>,
}

impl CutechessElo {
    /// The line of an estimate, its LOS and the share of draws (`None` without games).
    pub fn new(elo: EloEstimate, los: Los, draw_ratio: Option<f64>) -> CutechessElo {
        CutechessElo { elo, los, draw_ratio }
    }
}

impl fmt::Display for CutechessElo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one_decimal = |x: Option<f64>| x.map_or("nan".to_owned(), |x| fixed(x, 1));
        let (elo, margin) = match self.elo {
            EloEstimate::Estimate(interval) => (fixed(interval.elo, 1), fixed(interval.margin, 1)),
            EloEstimate::AllWon { .. } => ("inf".to_owned(), "nan".to_owned()),
            EloEstimate::AllLost { .. } => ("-inf".to_owned(), "nan".to_owned()),
            EloEstimate::NoGames | EloEstimate::TooFewGames { .. } => {
                ("nan".to_owned(), "nan".to_owned())
            }
        };
        write!(
            f,
            "Elo difference: {elo} +/- {margin}, LOS: {} %, DrawRatio: {} %",
            one_decimal(self.los.0.map(|p| 100.0 * p)),
            one_decimal(self.draw_ratio.map(|r| 100.0 * r))
        )
    }
}

/// cutechess-cli's SPRT line; see the module docs.
///
/// ```
/// use botlens_stats::{CutechessSprt, Pentanomial, Sprt};
///
/// let result = Sprt::logistic(-0.25, 1.25)?.test(&Pentanomial::new([292, 5905, 28939, 6129, 299]));
/// assert_eq!(CutechessSprt(result).to_string(),
///            "SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted");
/// # Ok::<(), botlens_stats::StatsError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CutechessSprt(pub SprtResult);

impl fmt::Display for CutechessSprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let SprtResult { llr, lower_bound, upper_bound, verdict, .. } = self.0;
        write!(
            f,
            "SPRT: llr {} ({}%), lbound {}, ubound {}",
            general(llr, 3),
            fixed(llr / upper_bound * 100.0, 1),
            general(lower_bound, 3),
            general(upper_bound, 3)
        )?;
        match verdict {
            Verdict::H0Accepted => f.write_str(" - H0 was accepted"),
            Verdict::H1Accepted => f.write_str(" - H1 was accepted"),
            Verdict::Continue => Ok(()),
        }
    }
}

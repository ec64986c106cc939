//! The Elo difference between two players with its 95 % interval, and the likelihood of
//! superiority (LOS), from what a tally says about the score, as fishtest computes them
//! (`stat_util.get_elo`).
//!
//! Elo here is logistic Elo, the scale of cutechess-cli, fishtest's "logistic" model and
//! fastchess's `Elo:`: a player who scores s points per game is −400·log₁₀(1/s − 1) Elo above
//! the opponent. Normalized Elo, fishtest's default scale, is [`crate::NormalizedElo`]; an
//! SPRT's bounds may be in either ([`EloModel`]).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::format::fixed;
use crate::normal::{Z_95, phi};
use crate::sample::{EMPTY_COUNT, Extent, MIN_SAMPLES, Sample};

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

/// The Elo of score `s` read as fishtest reads it: `s` taken as at least 0.001 and at most
/// 0.999, so the figure stays within ±1199.9 ([`score_to_elo`] of 0.999).
fn capped_elo(s: f64) -> f64 {
    score_to_elo(s.clamp(EMPTY_COUNT, 1.0 - EMPTY_COUNT))
}

/// The scale an Elo difference is stated in: of an estimate, or of an SPRT's bounds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EloModel {
    /// Logistic Elo: the score s of the stronger player is 1/(1 + 10^(−Elo/400)). The scale of
    /// cutechess-cli, fastchess's default and fishtest's "logistic"; the default here, as
    /// most bot authors and cutechess-cli's users read Elo on it.
    #[default]
    Logistic,
    /// Normalized Elo: (s − ½)/σ scaled by 800/ln 10, σ the standard deviation of one game's
    /// score; the same figure whatever the draw rate (fishtest's default, M. Van den Bergh,
    /// "Normalized Elo"). See [`crate::NormalizedElo`].
    Normalized,
}

/// Reads `logistic` or `normalized`.
impl FromStr for EloModel {
    type Err = String;

    fn from_str(text: &str) -> Result<EloModel, String> {
        match text {
            "logistic" => Ok(EloModel::Logistic),
            "normalized" => Ok(EloModel::Normalized),
            other => Err(format!("unknown Elo model `{other}`: logistic or normalized")),
        }
    }
}

/// Prints `logistic` or `normalized`.
impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        })
    }
}

/// What a tally says about the Elo difference of A over B.
///
/// # Empty outcomes and small samples
///
/// Before anything is computed, every outcome nobody scored counts 10⁻³ (fishtest's
/// `regularize`), so a tally of one pair, or of draws only, has an interval of some width; and
/// a score is read as at least 0.001 and at most 0.999 (fishtest's `elo`), so no figure is
/// beyond ±1199.9 Elo. Two cases fishtest gives figures for have none here:
///
/// - Fewer than [`MIN_SAMPLES`](crate::MIN_SAMPLES) samples (games, pairs or units):
///   [`EloEstimate::TooFewGames`], and the LOS is `None`. The interval is the normal
///   approximation of the mean's distribution, which a few samples do not support: one pair
///   scoring 1½ gives fishtest's 189.7 ± 56.0 with a LOS of 100.0 %. In a seeded simulation
///   (`tests/simulation.rs`) fishtest's nominal 95 % interval covers the true score at least
///   90 % of the time from 20 pairs on, for pair distributions from drawish to lopsided, but
///   as little as 88 % with 10 pairs and 83 % with 5: 20 is where the figures start to mean
///   about what they say.
/// - Every sample at one end: [`EloEstimate::AllWon`] or [`EloEstimate::AllLost`]: fishtest's
///   figure is its cap, 1199.8 ± 0.0 for 100 pairs won, a zero-width interval that says
///   nothing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EloEstimate {
    /// No games yet: nothing to estimate.
    NoGames,
    /// Fewer than [`MIN_SAMPLES`](crate::MIN_SAMPLES) samples: a figure would mean nothing
    /// (see above).
    TooFewGames {
        /// The games played.
        games: u64,
        /// The fewest games a figure is given for.
        needed: u64,
    },
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

/// A finite Elo estimate and its 95 % interval, fishtest's (`stat_util.get_elo`).
///
/// The interval is that of the score, s ± 1.96·σ/√N (σ² the empirical variance of one sample's
/// score, N the samples: games, or game pairs, every empty outcome counted 10⁻³), with its two
/// ends mapped through [`score_to_elo`], as cutechess-cli, fishtest and fastchess compute it;
/// it is therefore asymmetric around the estimate. An end of the score interval at or past
/// 0.001 or 0.999 is beyond the scale: that end is `None`, unbounded (fishtest puts it at its
/// cap, ±1199.9, which [`EloInterval::margin`] follows).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(from = "SavedInterval")]
pub struct EloInterval {
    /// The estimate: the Elo of the observed score.
    pub elo: f64,
    /// The interval's lower end; `None` when it is unbounded (−∞).
    pub lower: Option<f64>,
    /// The interval's upper end; `None` when it is unbounded (+∞).
    pub upper: Option<f64>,
    /// fishtest's `elo95`, the half-width (upper − lower)/2 with an unbounded end at fishtest's
    /// cap, ±1199.9 (twice that for compared units): [`EloInterval::plus_minus`] when both ends
    /// are finite. What the cutechess-cli line prints, as the tools that read it expect a
    /// number.
    pub margin: f64,
}

/// An [`EloInterval`] as JSON holds it; `margin` is absent from reports saved before it was
/// recorded (paired runs' pentanomials, on the head-to-head scale), and is then fishtest's
/// margin of the ends.
#[derive(Deserialize)]
struct SavedInterval {
    elo: f64,
    lower: Option<f64>,
    upper: Option<f64>,
    margin: Option<f64>,
}

impl From<SavedInterval> for EloInterval {
    fn from(saved: SavedInterval) -> EloInterval {
        let SavedInterval { elo, lower, upper, margin } = saved;
        let cap = capped_elo(1.0);
        let margin = margin.unwrap_or((upper.unwrap_or(cap) - lower.unwrap_or(-cap)) / 2.0);
        EloInterval { elo, lower, upper, margin }
    }
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
        match sample.extent() {
            Extent::Empty => EloEstimate::NoGames,
            Extent::TooFew => EloEstimate::TooFewGames { games, needed: needed_games(sample) },
            Extent::AllWon => EloEstimate::AllWon { games },
            Extent::AllLost => EloEstimate::AllLost { games },
            Extent::Spread => {
                let sample = sample.regularized();
                let (score, error) = (sample.mean(), standard_error(&sample));
                let (low, high) = (score - Z_95 * error, score + Z_95 * error);
                let elo = |s: f64| sample.elo_scale * capped_elo(s);
                EloEstimate::Estimate(EloInterval {
                    elo: elo(score),
                    lower: (low > EMPTY_COUNT).then(|| elo(low)),
                    upper: (high < 1.0 - EMPTY_COUNT).then(|| elo(high)),
                    margin: (elo(high) - elo(low)) / 2.0,
                })
            }
        }
    }
}

/// The games [`MIN_SAMPLES`] samples of `sample` are.
pub(crate) fn needed_games(sample: &Sample) -> u64 {
    MIN_SAMPLES * sample.games_per_sample as u64
}

/// σ/√N of a (regularized) sample: the standard error of its mean score.
fn standard_error(sample: &Sample) -> f64 {
    (sample.variance() / sample.total()).sqrt()
}

/// Prints `Elo difference: 45.4 ± 30.2 (95%)`; an interval with an unbounded end as
/// `Elo difference: 511.5 (95%: 302.1 to +inf)`; and `Elo difference: none (no games)`,
/// `Elo difference: none (too few games: 6, at least 40 needed)`,
/// `Elo difference: +inf (all 10 games won)`, `Elo difference: -inf (all 10 games lost)`.
impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Elo difference: ")?;
        match self {
            EloEstimate::NoGames => f.write_str("none (no games)"),
            EloEstimate::TooFewGames { games, needed } => {
                write!(f, "none (too few games: {games}, at least {needed} needed)")
            }
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

/// The likelihood of superiority: the probability that A is the stronger player, `None` with
/// fewer than [`MIN_SAMPLES`](crate::MIN_SAMPLES) samples (too few games for it to mean
/// anything: one pair gives fishtest's 100.0 %).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Los(pub Option<f64>);

impl Los {
    /// LOS from decisive games, the conventional formula for unpaired games (as cutechess-cli
    /// computes it): Φ((W − L)/√(W + L)), draws ignored, and ½ without a decisive game (as
    /// fishtest's formula gives for draws only); `None` below `MIN_SAMPLES` games.
    pub(crate) fn from_wins_and_losses(wins: u64, losses: u64, draws: u64) -> Los {
        let decisive = (wins + losses) as f64;
        Los(match () {
            _ if wins + losses + draws < MIN_SAMPLES => None,
            _ if decisive == 0.0 => Some(0.5),
            _ => Some(phi((wins as f64 - losses as f64) / decisive.sqrt())),
        })
    }

    /// LOS from a sample's mean and variance, as fishtest and fastchess compute it for pairs:
    /// Φ((s − ½)/(σ/√N)), every empty outcome counted 10⁻³ (so σ > 0); `None` below
    /// `MIN_SAMPLES` samples.
    pub(crate) fn from_sample(sample: &Sample) -> Los {
        if sample.total() < MIN_SAMPLES as f64 {
            return Los(None);
        }
        let sample = sample.regularized();
        Los(Some(phi((sample.mean() - 0.5) / standard_error(&sample))))
    }
}

/// Prints `LOS: 99.6 %`, or `LOS: none (too few games)`.
impl fmt::Display for Los {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(p) => write!(f, "LOS: {} %", fixed(100.0 * p, 1)),
            None => f.write_str("LOS: none (too few games)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::{GAME_POINTS, PAIR_POINTS};

    fn pairs(counts: [u64; 5]) -> Sample {
        Sample::new(&PAIR_POINTS, &counts, 2.0)
    }

    fn interval(sample: &Sample) -> EloInterval {
        match EloEstimate::of(sample, 0) {
            EloEstimate::Estimate(interval) => interval,
            other => panic!("no finite estimate of {sample:?}: {other:?}"),
        }
    }

    fn assert_close(actual: f64, expected: f64, what: &str) {
        let error = (actual - expected).abs() / expected.abs().max(1.0);
        assert!(error < 1e-9, "{what}: {actual}, fishtest {expected} (relative error {error:e})");
    }

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
    fn pentanomials_with_empty_outcomes_give_fishtests_figures() {
        // (counts, Elo, elo95, LOS) as fishtest's own `stat_util.get_elo` returns them (run on
        // fishtest's server/fishtest/stats code with SciPy 1.17): empty buckets, draws only,
        // lopsided tallies with an end past the cap, and Stockfish's STC test of PR 3273.
        let cases: [([u64; 5], f64, f64, f64); 12] = [
            (
                [0, 3, 10, 20, 7],
                142.036_579_037_737_1,
                52.602_985_837_098_22,
                0.999_999_998_795_270_6,
            ),
            (
                [0, 0, 200, 0, 0],
                -7.714_619_732_426_294e-14,
                0.170_236_917_528_477_03,
                0.499_999_999_999_822_8,
            ),
            ([0, 0, 0, 3, 27], 635.909_923_847_705_2, 347.827_286_423_482_7, 1.0),
            (
                [1, 10, 20, 15, 4],
                38.373_188_856_697_9,
                45.242_532_400_362_18,
                0.954_076_780_521_552_4,
            ),
            ([4, 3, 34, 42, 117], 276.995_150_723_239_5, 40.899_068_736_150_4, 1.0),
            ([0, 5, 30, 40, 25], 157.652_765_609_032_37, 35.635_642_332_018_31, 1.0),
            (
                [0, 0, 20, 0, 0],
                -7.714_619_732_426_294e-14,
                1.702_076_290_318_279_8,
                0.499_999_999_999_964_6,
            ),
            ([0, 0, 0, 1, 99], 1_038.833_997_923_845_6, 175.205_969_125_895_93, 1.0),
            ([2, 0, 0, 0, 30], 470.314_949_783_913_4, 446.782_427_192_818, 1.0),
            (
                [0, 1, 19, 0, 0],
                -8.677_706_363_534_964,
                16.693_077_626_457_296,
                0.153_846_582_246_341_23,
            ),
            ([10, 0, 0, 0, 10], 0.0, 163.295_457_723_686_13, 0.5),
            (
                [292, 5905, 28939, 6129, 299],
                0.994_729_757_644_491_9,
                0.982_902_197_637_255_1,
                0.976_347_820_471_504_7,
            ),
        ];
        for (counts, elo, elo95, los) in cases {
            let sample = pairs(counts);
            let interval = interval(&sample);
            assert_close(interval.elo, elo, &format!("Elo of {counts:?}"));
            assert_close(interval.margin, elo95, &format!("elo95 of {counts:?}"));
            assert_close(Los::from_sample(&sample).0.unwrap(), los, &format!("LOS of {counts:?}"));
            if let Some(plus_minus) = interval.plus_minus() {
                assert_close(plus_minus, elo95, &format!("± of {counts:?}"));
            }
        }
    }

    #[test]
    fn draws_only_have_an_interval_from_the_empty_outcomes_alone() {
        // 20 pairs drawn 1–1 (fishtest's derivation, by hand): the four empty outcomes count
        // 10⁻³ each, N = 20.004, s = ½, σ² = 10⁻³·(¼ + 1/16 + 1/16 + ¼)/20.004 = 3.1244e-5,
        // s ± 1.96·√(σ²/N) = ½ ± 0.0024494, −400·log₁₀(1/0.5024494 − 1) = 1.7021 Elo.
        let interval = interval(&pairs([0, 0, 20, 0, 0]));
        let variance = 1e-3 * (0.25 + 0.0625 + 0.0625 + 0.25) / 20.004;
        let end = score_to_elo(0.5 + Z_95 * (variance / 20.004f64).sqrt());
        assert_close(interval.upper.unwrap(), end, "upper end");
        assert_close(interval.lower.unwrap(), -end, "lower end");
        assert_eq!(EloEstimate::Estimate(interval).to_string(), "Elo difference: 0.0 ± 1.7 (95%)");
        assert_eq!(Los::from_sample(&pairs([0, 0, 20, 0, 0])).to_string(), "LOS: 50.0 %");
    }

    #[test]
    fn an_end_past_fishtests_cap_is_unbounded_but_counts_at_the_cap_in_the_margin() {
        // 27 pairs won twice, 3 won 1½–½: s = 0.9749, and s + 1.96·σ/√N = 1.0018 is past 0.999.
        let interval = interval(&pairs([0, 0, 0, 3, 27]));
        assert_eq!((interval.upper, interval.plus_minus()), (None, None));
        let lower = interval.lower.unwrap();
        assert_close(interval.margin, (score_to_elo(0.999) - lower) / 2.0, "margin");
        assert_eq!(
            EloEstimate::Estimate(interval).to_string(),
            format!("Elo difference: 635.9 (95%: {} to +inf)", fixed(lower, 1))
        );
    }

    #[test]
    fn a_tiny_sample_has_no_figure_and_says_so() {
        // One pair, 1½–½: fishtest gives 189.7 ± 56.0 with a LOS of 100.0 %, which one pair
        // cannot support; two games drawn (one pair, or two unpaired games): 0 ± 34.0.
        for (sample, games, needed) in [
            (pairs([0, 0, 0, 1, 0]), 2, 40),
            (pairs([0, 0, 1, 0, 0]), 2, 40),
            (Sample::new(&GAME_POINTS, &[0, 2, 0], 1.0), 2, 20),
            (pairs([0, 0, 0, 0, 19]), 38, 40),
        ] {
            let estimate = EloEstimate::of(&sample, games);
            assert_eq!(estimate, EloEstimate::TooFewGames { games, needed });
            assert_eq!(
                estimate.to_string(),
                format!("Elo difference: none (too few games: {games}, at least {needed} needed)")
            );
            assert_eq!(Los::from_sample(&sample), Los(None));
        }
        assert_eq!(Los(None).to_string(), "LOS: none (too few games)");
        assert_eq!(Los::from_wins_and_losses(1, 0, 1), Los(None));
        assert_eq!(Los::from_wins_and_losses(0, 0, 20), Los(Some(0.5)));
    }

    #[test]
    fn a_sweep_has_no_finite_estimate_where_fishtest_gives_a_zero_width_one() {
        // fishtest: 100 pairs won give 1199.8 ± 0.0, its cap.
        assert_eq!(
            EloEstimate::of(&pairs([0, 0, 0, 0, 100]), 200),
            EloEstimate::AllWon { games: 200 }
        );
        assert_eq!(
            EloEstimate::of(&pairs([100, 0, 0, 0, 0]), 200),
            EloEstimate::AllLost { games: 200 }
        );
        assert_eq!(Los::from_sample(&pairs([0, 0, 0, 0, 100])), Los(Some(1.0)));
    }

    #[test]
    fn estimates_saved_without_a_margin_read_back_with_fishtests() {
        let saved = r#"{"kind": "estimate", "elo": 635.9, "lower": 506.4, "upper": null}"#;
        let EloEstimate::Estimate(interval) = serde_json::from_str(saved).unwrap() else {
            panic!("an estimate")
        };
        assert_close(interval.margin, (score_to_elo(0.999) - 506.4) / 2.0, "margin");
        let estimate = EloEstimate::of(&pairs([0, 3, 10, 20, 7]), 80);
        let json = serde_json::to_string(&estimate).unwrap();
        assert_eq!(serde_json::from_str::<EloEstimate>(&json).unwrap(), estimate);
    }

    #[test]
    fn elo_models_read_and_print_their_names() {
        assert_eq!("normalized".parse(), Ok(EloModel::Normalized));
        assert_eq!("logistic".parse::<EloModel>().map(|m| m.to_string()), Ok("logistic".into()));
        assert!("bayes".parse::<EloModel>().unwrap_err().contains("logistic or normalized"));
        assert_eq!(EloModel::default(), EloModel::Logistic);
    }
}

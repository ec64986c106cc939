//! The sequential probability ratio test: is A at least `elo1` stronger than B, or at most
//! `elo0`? Play on until the log-likelihood ratio of the tally leaves the bounds that α and β
//! set.
//!
//! The test is the generalized SPRT (GSPRT) as fishtest computes it (M. Van den Bergh,
//! "Comments on normalized Elo", and his note on the maximum-likelihood estimate of a
//! multinomial with a given expectation): the same computation for a trinomial tally (a sample
//! of games, scoring 0, ½ or 1), a pentanomial one (a sample of game pairs, scoring 0, ¼, ½, ¾
//! or 1 per game) and compared units. The bounds are logistic Elo by default, as cutechess-cli
//! and fastchess take them, or normalized Elo, fishtest's default ([`EloModel`]); the LLR is
//! fishtest's `LLR_logistic` or `LLR_normalized` accordingly.
//!
//! An SPRT that stops early leaves the plain estimate biased (it stops when the results run
//! high or low); [`Sprt::estimate`] gives fishtest's bias-corrected one.

use std::fmt;

use serde::Serialize;

use crate::elo::EloModel;
use crate::error::StatsError;
use crate::format::fixed;
use crate::mle;
use crate::normalized::NELO_PER_T;
use crate::sample::Sample;
use crate::tally::{Tally, sample_of};

/// α and β unless [`Sprt::with_error_rates`] says otherwise: 5 % each, fishtest's and
/// cutechess-cli's default.
pub const DEFAULT_ERROR_RATE: f64 = 0.05;

/// The largest logistic Elo a bound may be, either way: the range fishtest's bias-corrected
/// estimate searches; beyond it a mean score is within 0.3 % of 0 or 1 (and past about 6,500
/// no longer distinguishable from them in floating point).
pub const MAX_LOGISTIC_BOUND: f64 = 1000.0;

/// The largest normalized Elo a bound may be, either way: fishtest's maximum-likelihood
/// iteration starts from the uniform distribution, from which t-values much beyond 0.9 a pair
/// (some 230 normalized Elo) cannot be reached; an SPRT between bounds that far apart has no
/// use anyway (fishtest takes at most 10).
pub const MAX_NORMALIZED_BOUND: f64 = 200.0;

/// An SPRT of H0: "A is `elo0` Elo above B" against H1: "A is `elo1` above B", in the Elo of
/// its [`EloModel`], with false-positive rate α (accepting H1 when H0 holds) and
/// false-negative rate β.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: EloModel,
}

impl Sprt {
    /// A test between logistic Elo bounds `elo0 < elo1`, each within
    /// ±[`MAX_LOGISTIC_BOUND`], with α = β = 0.05.
    ///
    /// ```
    /// use botlens_stats::{Pentanomial, Sprt, Verdict};
    ///
    /// let sprt = Sprt::logistic(0.0, 10.0)?;
    /// let result = sprt.test(&Pentanomial::new([10, 90, 200, 150, 50]));
    /// assert_eq!(result.to_string(), "LLR: 7.81 (-2.94, 2.94) [0.00, 10.00]");
    /// assert_eq!(result.verdict, Verdict::H1Accepted);
    /// # Ok::<(), botlens_stats::StatsError>(())
    /// ```
    pub fn logistic(elo0: f64, elo1: f64) -> Result<Sprt, StatsError> {
        Sprt::new(EloModel::Logistic, elo0, elo1)
    }

    /// A test between normalized Elo bounds `elo0 < elo1`, each within
    /// ±[`MAX_NORMALIZED_BOUND`], with α = β = 0.05: fishtest's `--sprt elo0=0 elo1=2`.
    ///
    /// ```
    /// use botlens_stats::{Pentanomial, Sprt};
    ///
    /// let sprt = Sprt::normalized(0.0, 2.0)?;
    /// let result = sprt.test(&Pentanomial::new([292, 5905, 28939, 6129, 299]));
    /// assert_eq!(result.to_string(), "LLR: 1.91 (-2.94, 2.94) [0.00, 2.00]");
    /// # Ok::<(), botlens_stats::StatsError>(())
    /// ```
    pub fn normalized(elo0: f64, elo1: f64) -> Result<Sprt, StatsError> {
        Sprt::new(EloModel::Normalized, elo0, elo1)
    }

    /// A test between bounds `elo0 < elo1` in `model`'s Elo, with α = β = 0.05.
    pub fn new(model: EloModel, elo0: f64, elo1: f64) -> Result<Sprt, StatsError> {
        let limit = bound_limit(model);
        let within = |elo: f64| elo.is_finite() && elo.abs() <= limit;
        if !(within(elo0) && within(elo1) && elo0 < elo1) {
            return Err(StatsError::EloBounds { elo0, elo1, model });
        }
        Ok(Sprt { elo0, elo1, alpha: DEFAULT_ERROR_RATE, beta: DEFAULT_ERROR_RATE, model })
    }

    /// The same test with error rates `alpha` and `beta`: each above 0, together below 1.
    pub fn with_error_rates(self, alpha: f64, beta: f64) -> Result<Sprt, StatsError> {
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(StatsError::ErrorRates { alpha, beta });
        }
        Ok(Sprt { alpha, beta, ..self })
    }

    /// The bound of H0, in the model's Elo.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// The bound of H1, in the model's Elo.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// The scale of the bounds.
    pub fn model(&self) -> EloModel {
        self.model
    }

    /// The false-positive rate α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The false-negative rate β.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// Wald's lower bound A = ln(β/(1 − α)): an LLR at or below it accepts H0 (−2.94 for the
    /// default rates).
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Wald's upper bound B = ln((1 − β)/α): an LLR at or above it accepts H1 (2.94 for the
    /// default rates).
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The generalized log-likelihood ratio of `tally` for H1 against H0, as fishtest computes
    /// it: with every empty count replaced by 10⁻³ (fishtest's regularization), p̂ the observed
    /// frequencies of the N samples,
    ///
    /// LLR = N · Σᵢ p̂ᵢ · ln(p⁽¹⁾ᵢ / p⁽⁰⁾ᵢ),
    ///
    /// where p⁽ʲ⁾ is the maximum-likelihood distribution under hypothesis j given the observed
    /// one. Logistic bounds make H_j "the mean score is sⱼ = 1/(1 + 10^(−eloⱼ/400))":
    /// p⁽ʲ⁾ᵢ = p̂ᵢ / (1 + θ·(aᵢ − sⱼ)), θ the root of Σᵢ p̂ᵢ·(aᵢ − sⱼ)/(1 + θ·(aᵢ − sⱼ)) = 0
    /// (fishtest's `LLR_logistic`). Normalized bounds make it "the t-value (s − ½)/σ is
    /// tⱼ = eloⱼ·√g/(800/ln 10)" (g the games a sample stands for), found by fishtest's
    /// fixed-point iteration (`LLR_normalized`). 0 without games.
    pub fn llr(&self, tally: &impl Tally) -> f64 {
        let sample = sample_of(tally);
        if sample.total() == 0.0 {
            return 0.0;
        }
        let sample = sample.regularized();
        let observed = sample.frequencies();
        let under = |elo: f64| match self.model {
            EloModel::Logistic => mle::with_mean(sample.points, &observed, sample.score_of(elo)),
            EloModel::Normalized => {
                mle::with_t_value(sample.points, &observed, 0.5, t_value_of(&sample, elo))
            }
        };
        let (Some(h0), Some(h1)) = (under(self.elo0), under(self.elo1)) else {
            unreachable!("bounds within the model's limit have a maximum-likelihood distribution")
        };
        let mean: f64 = (0..observed.len()).map(|i| observed[i] * (h1[i].ln() - h0[i].ln())).sum();
        sample.total() * mean
    }

    /// The approximation of [`Sprt::llr`] from the sample's mean s and variance σ² alone (the
    /// LLR as a Brownian motion; Van den Bergh's note on the GSPRT approximation, fishtest's
    /// `LLR_alt2`): N·(s₁ − s₀)·(2s − s₀ − s₁)/(2σ²), on the same regularized sample, with sⱼ
    /// the mean score of bound j (logistic: 1/(1 + 10^(−eloⱼ/400)); normalized:
    /// ½ + eloⱼ/(800/ln 10)·σ per game). Close to the exact value when the
    /// bounds are a few Elo apart; the verdict uses the exact one.
    pub fn approximate_llr(&self, tally: &impl Tally) -> f64 {
        let sample = sample_of(tally);
        if sample.total() == 0.0 {
            return 0.0;
        }
        let sample = sample.regularized();
        let (s0, s1) = self.bound_scores(&sample);
        let (score, variance) = (sample.mean(), sample.variance());
        sample.total() * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    /// The mean scores per game that the bounds stand for on `sample` (regularized): logistic,
    /// 1/(1 + 10^(−elo/400)); normalized, ½ + elo/(800/ln 10)·σ per game (fishtest's
    /// `sprt.elo_to_score`), σ per game from the sample.
    pub(crate) fn bound_scores(&self, sample: &Sample) -> (f64, f64) {
        let score = |elo: f64| match self.model {
            EloModel::Logistic => sample.score_of(elo),
            EloModel::Normalized => {
                0.5 + elo / (sample.elo_scale * NELO_PER_T) * sample.per_game_deviation()
            }
        };
        (score(self.elo0), score(self.elo1))
    }

    /// The LLR of `tally` against the bounds: H1 accepted at or above the upper bound, H0 at or
    /// below the lower one, otherwise play on.
    pub fn test(&self, tally: &impl Tally) -> SprtResult {
        let llr = self.llr(tally);
        let (lower_bound, upper_bound) = (self.lower_bound(), self.upper_bound());
        let verdict = if llr >= upper_bound {
            Verdict::H1Accepted
        } else if llr <= lower_bound {
            Verdict::H0Accepted
        } else {
            Verdict::Continue
        };
        SprtResult {
            llr,
            lower_bound,
            upper_bound,
            elo0: self.elo0,
            elo1: self.elo1,
            elo_model: self.model,
            verdict,
        }
    }
}

/// The largest bound, either way, of `model`.
pub fn bound_limit(model: EloModel) -> f64 {
    match model {
        EloModel::Logistic => MAX_LOGISTIC_BOUND,
        EloModel::Normalized => MAX_NORMALIZED_BOUND,
    }
}

/// The t-value of one sample of `sample` that normalized Elo `elo` stands for:
/// elo·√g/(scale·800/ln 10).
fn t_value_of(sample: &Sample, elo: f64) -> f64 {
    elo * sample.games_per_sample.sqrt() / (sample.elo_scale * NELO_PER_T)
}

/// Where an SPRT stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The LLR is between the bounds: play more games.
    Continue,
    /// H0 accepted: A is not `elo1` stronger than B (at most `elo0`, at error rate β).
    H0Accepted,
    /// H1 accepted: A is `elo1` stronger than B (at least `elo0`, at error rate α).
    H1Accepted,
}

/// Prints `continue`, `H0 accepted` or `H1 accepted`.
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Continue => "continue",
            Verdict::H0Accepted => "H0 accepted",
            Verdict::H1Accepted => "H1 accepted",
        })
    }
}

/// An SPRT's state for one tally.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SprtResult {
    /// The log-likelihood ratio of H1 against H0 ([`Sprt::llr`]).
    pub llr: f64,
    /// The bound that accepts H0, ln(β/(1 − α)).
    pub lower_bound: f64,
    /// The bound that accepts H1, ln((1 − β)/α).
    pub upper_bound: f64,
    /// The Elo of H0.
    pub elo0: f64,
    /// The Elo of H1.
    pub elo1: f64,
    /// The scale of `elo0` and `elo1`.
    pub elo_model: EloModel,
    /// Where the test stands.
    pub verdict: Verdict,
}

/// Prints fastchess's line, `LLR: 1.23 (-2.94, 2.94) [0.00, 10.00]`: the LLR, the bounds,
/// the Elo of H0 and H1.
impl fmt::Display for SprtResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LLR: {} ({}, {}) [{}, {}]",
            fixed(self.llr, 2),
            fixed(self.lower_bound, 2),
            fixed(self.upper_bound, 2),
            fixed(self.elo0, 2),
            fixed(self.elo1, 2)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::{Pentanomial, Trinomial};

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt::logistic(elo0, elo1).unwrap()
    }

    /// `llr` rounded to two decimals, as fishtest and fastchess print it.
    fn printed(llr: f64) -> String {
        format!("{llr:.2}")
    }

    #[test]
    fn pentanomial_llr_matches_fishtest_on_stockfish_tests() {
        // Stockfish pull request 3273 (December 2020), as fishtest reported it in the commit:
        // STC "LLR: 2.95 (-2.94,2.94) {-0.25,1.25}" with "Ptnml(0-2): 292, 5905, 28939, 6129,
        // 299", and LTC "LLR: 2.92 (-2.94,2.94) {0.25,1.25}" with "Ptnml(0-2): 5, 418, 6043,
        // 506, 12" (braces: logistic Elo bounds).
        let stc = Pentanomial::new([292, 5905, 28939, 6129, 299]);
        assert_eq!(printed(sprt(-0.25, 1.25).llr(&stc)), "2.95");
        let ltc = Pentanomial::new([5, 418, 6043, 506, 12]);
        let result = sprt(0.25, 1.25).test(&ltc);
        assert_eq!(printed(result.llr), "2.92");
        assert_eq!(result.verdict, Verdict::Continue, "2.92 is still below 2.944");
    }

    #[test]
    fn llr_matches_fastchess_unit_tests() {
        // fastchess's SPRT tests of its logistic model (which follows fishtest's): trinomial
        // W/L/D 21404/21184/40708 in [0.5, 2.5] gives −1.57, 57433/57030/106593 in [0, 2]
        // gives −2.59; pentanomial [223, 9863, 20279 + 1000, 10037, 246] in [0.5, 2.5] gives
        // −3.07, [871, 26175, 55003 + 980, 26678, 821] in [0, 2] gives −4.98.
        let games = [
            (Trinomial::new(21404, 21184, 40708), 0.5, 2.5, "-1.57"),
            (Trinomial::new(57433, 57030, 106593), 0.0, 2.0, "-2.59"),
        ];
        for (tally, elo0, elo1, expected) in games {
            assert_eq!(printed(sprt(elo0, elo1).llr(&tally)), expected, "{tally:?}");
        }
        let pairs = [
            (Pentanomial::new([223, 9863, 21279, 10037, 246]), 0.5, 2.5, "-3.07"),
            (Pentanomial::new([871, 26175, 55983, 26678, 821]), 0.0, 2.0, "-4.98"),
        ];
        for (tally, elo0, elo1, expected) in pairs {
            assert_eq!(printed(sprt(elo0, elo1).llr(&tally)), expected, "{tally:?}");
        }
    }

    #[test]
    fn the_mean_variance_approximation_stays_close_for_narrow_bounds() {
        let stc = Pentanomial::new([292, 5905, 28939, 6129, 299]);
        let test = sprt(-0.25, 1.25);
        let (exact, approximate) = (test.llr(&stc), test.approximate_llr(&stc));
        // fishtest's own LLR_alt2 of this tally: 2.9508 against the exact 2.9504.
        assert!((approximate - 2.9508).abs() < 0.000_1, "{approximate}");
        assert!((exact - approximate).abs() < 0.001);
    }

    #[test]
    fn the_bounds_are_walds() {
        let test = sprt(0.0, 10.0);
        assert!((test.lower_bound() + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((test.upper_bound() - 2.944_438_979_166_44).abs() < 1e-12);
        let skewed = test.with_error_rates(0.01, 0.1).unwrap();
        assert!((skewed.lower_bound() - (0.1f64 / 0.99).ln()).abs() < 1e-15);
        assert!((skewed.upper_bound() - 90f64.ln()).abs() < 1e-15);
        assert_eq!(
            (skewed.alpha(), skewed.beta(), skewed.elo0(), skewed.elo1()),
            (0.01, 0.1, 0.0, 10.0)
        );
    }

    #[test]
    fn strong_evidence_stops_the_test_both_ways() {
        let test = sprt(0.0, 10.0);
        let stronger = test.test(&Pentanomial::new([10, 90, 200, 150, 50]));
        assert_eq!(stronger.verdict, Verdict::H1Accepted, "{stronger}");
        let weaker = test.test(&Pentanomial::new([50, 150, 200, 90, 10]));
        assert_eq!(weaker.verdict, Verdict::H0Accepted, "{weaker}");
        let crushed = test.test(&Trinomial::new(0, 300, 0));
        assert_eq!(crushed.verdict, Verdict::H0Accepted, "{crushed}");
        let crushing = test.test(&Trinomial::new(300, 0, 0));
        assert_eq!(crushing.verdict, Verdict::H1Accepted, "{crushing}");
        let early = test.test(&Trinomial::new(6, 4, 10));
        assert_eq!(early.verdict, Verdict::Continue, "{early}");
        assert_eq!(early.verdict.to_string(), "continue");
        assert_eq!(weaker.verdict.to_string(), "H0 accepted");
    }

    #[test]
    fn normalized_llr_matches_fishtest() {
        // (counts, nElo bounds, LLR) as fishtest's own `LLRcalc.LLR_normalized` returns them
        // (run on fishtest's code with SciPy 1.17): Stockfish tests, empty outcomes, draws
        // only, one pair, and unpaired games.
        let pairs: [([u64; 5], f64, f64, f64); 8] = [
            ([292, 5905, 28939, 6129, 299], 0.0, 2.0, 1.914_657_349_513_744_7),
            ([5, 418, 6043, 506, 12], 0.5, 2.5, 1.859_615_911_983_976_4),
            ([39, 2226, 31451, 2412, 40], 0.764, 3.439, 2.162_940_869_584_568),
            ([0, 3, 10, 20, 7], 0.0, 10.0, 0.983_981_599_203_870_4),
            ([0, 0, 20, 0, 0], 0.0, 5.0, -0.006_124_895_716_113_749),
            ([1, 10, 20, 15, 4], -5.0, 5.0, 0.477_280_718_797_444_4),
            ([0, 0, 0, 0, 104], 0.0, 5.0, 2.094_954_527_648_188),
            ([0, 1, 0, 0, 0], 0.0, 2.0, -0.005_789_657_170_331_836),
        ];
        for (counts, elo0, elo1, expected) in pairs {
            let llr = Sprt::normalized(elo0, elo1).unwrap().llr(&Pentanomial::new(counts));
            assert!((llr - expected).abs() < 1e-9, "{counts:?}: {llr}, fishtest {expected}");
        }
        let games = [
            (Trinomial::new(21404, 21184, 40708), 0.5, 2.5, -0.298_984_889_652_110_45),
            (Trinomial::new(30, 10, 20), 0.0, 20.0, 1.312_267_975_048_573_3),
        ];
        for (tally, elo0, elo1, expected) in games {
            let llr = Sprt::normalized(elo0, elo1).unwrap().llr(&tally);
            assert!((llr - expected).abs() < 1e-9, "{tally:?}: {llr}, fishtest {expected}");
        }
        let result = Sprt::normalized(0.0, 2.0).unwrap().test(&Pentanomial::new([0, 0, 0, 0, 0]));
        assert_eq!(result.elo_model, EloModel::Normalized);
    }

    #[test]
    fn logistic_llr_with_empty_outcomes_matches_fishtest() {
        // fishtest's `LLRcalc.LLR_logistic` on the same tallies.
        let cases: [([u64; 5], f64, f64, f64); 4] = [
            ([0, 3, 10, 20, 7], 0.0, 10.0, 1.134_585_060_381_805_3),
            ([0, 0, 20, 0, 0], 0.0, 5.0, -0.283_681_179_046_896_94),
            ([0, 0, 0, 0, 104], 0.0, 5.0, 1.485_939_568_525_428_6),
            ([0, 1, 0, 0, 0], 0.0, 2.0, -0.005_778_826_488_815_973),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let llr = sprt(elo0, elo1).llr(&Pentanomial::new(counts));
            assert!((llr - expected).abs() < 1e-9, "{counts:?}: {llr}, fishtest {expected}");
        }
    }

    #[test]
    fn no_games_is_no_evidence() {
        let result = sprt(0.0, 5.0).test(&Pentanomial::default());
        assert_eq!((result.llr, result.verdict), (0.0, Verdict::Continue));
        assert_eq!(sprt(0.0, 5.0).approximate_llr(&Trinomial::default()), 0.0);
        assert_eq!(result.to_string(), "LLR: 0.00 (-2.94, 2.94) [0.00, 5.00]");
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert_eq!(
            Sprt::logistic(5.0, 0.0),
            Err(StatsError::EloBounds { elo0: 5.0, elo1: 0.0, model: EloModel::Logistic })
        );
        assert!(Sprt::logistic(0.0, 0.0).is_err());
        assert!(Sprt::logistic(0.0, 1000.0).is_ok() && Sprt::logistic(0.0, 1000.5).is_err());
        let far = Sprt::normalized(0.0, 250.0).unwrap_err();
        assert_eq!(
            far.to_string(),
            "SPRT bounds elo0 = 0, elo1 = 250: they must be finite, within ±200 normalized Elo, \
             with elo0 below elo1"
        );
        assert!(Sprt::logistic(f64::NAN, 1.0).is_err());
        assert!(Sprt::logistic(0.0, f64::INFINITY).is_err());
        let test = sprt(0.0, 5.0);
        assert!(test.with_error_rates(0.0, 0.05).is_err());
        assert!(test.with_error_rates(0.05, f64::NAN).is_err());
        let error = test.with_error_rates(0.6, 0.5).unwrap_err();
        assert_eq!(
            error.to_string(),
            "SPRT error rates alpha = 0.6, beta = 0.5: each must be above 0, and together below 1"
        );
    }

    #[test]
    fn results_serialize_with_their_verdict() {
        let result = sprt(0.0, 10.0).test(&Trinomial::new(300, 0, 0));
        let json = serde_json::to_value(result).unwrap();
        assert_eq!(json["verdict"], "h1_accepted");
        assert_eq!(json["elo1"], 10.0);
        assert_eq!(json["elo_model"], "logistic");
        assert!(json["llr"].as_f64().unwrap() > json["upper_bound"].as_f64().unwrap());
    }
}

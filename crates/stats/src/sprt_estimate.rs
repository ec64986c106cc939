//! The Elo estimate of an SPRT, corrected for the test's stopping rule, as fishtest computes it
//! (`sprt.py`, class `sprt`, and `brownian.py`; M. Van den Bergh's median-unbiased estimator).
//!
//! A test that stops as soon as its LLR crosses a bound stops more often right after a run of
//! luck, so the plain estimate of a stopped test is biased away from the middle of the bounds.
//! fishtest models the LLR as a Brownian motion with drift μ and variance σ² per sample,
//!
//! μ = (s − (s₀ + s₁)/2)·(s₁ − s₀)/v,  σ² = (s₁ − s₀)²/v,
//!
//! (s the true mean score, sⱼ the bounds' mean scores, v the sample's variance, every empty
//! outcome counted 10⁻³: `LLR_drift_variance_alt2`), observed at "time" T = N with value
//! y = N·μ̂ (μ̂ at the observed s); a y past a bound is put on it and T shortened to where the
//! line through the origin meets it. For a true logistic Elo e, the probability that the test
//! ends with an outcome worse than the observed one (a fail sooner, a pass later) is that of
//! the motion leaving [a, b] (Wald's bounds) below the point (T, y), from Siegmund's formula
//! (Sequential Analysis, Corollary 8.33) as fishtest writes it: a series in sin/cos terms, or
//! Siegmund's approximation when the series would converge slowly. The estimate is the e where
//! that probability is ½ (median-unbiased), the 95 % interval the e where it is 2.5 % and
//! 97.5 %, each found by bisection over [−1000, 1000] (fishtest's Brent search, widened as it
//! widens), and the LOS is the probability at e = 0.
//!
//! The estimate is logistic Elo for either model of bounds (fishtest's `outcome_prob` reads its
//! argument as logistic Elo). fishtest warns that the method is exact for small Elo
//! differences only; for large ones the figure has a qualitative meaning.

use std::f64::consts::PI;
use std::fmt;

use serde::Serialize;

use crate::format::fixed;
use crate::normal::phi;
use crate::sample::{Extent, Sample};
use crate::sprt::Sprt;
use crate::tally::{Tally, sample_of};

/// The widest range of Elo the estimate is looked for in, either way: fishtest's.
pub const SEARCH_LIMIT: f64 = 1000.0;

/// fishtest's bias-corrected estimate of a test, in logistic Elo; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SprtEstimate {
    /// The median-unbiased estimate.
    pub elo: f64,
    /// The 95 % interval's lower end.
    pub lower: f64,
    /// The 95 % interval's upper end.
    pub upper: f64,
    /// The probability that A is the stronger, given the test's outcome.
    pub los: f64,
}

impl Sprt {
    /// fishtest's bias-corrected Elo estimate of this test on `tally` (`stat_util.SPRT_elo`):
    /// what to read instead of the plain estimate once the test has stopped. `None` where the
    /// plain estimate has no figure either (no games, too few, or all won or lost), and where
    /// the computation gives no finite figure.
    ///
    /// ```
    /// use botlens_stats::{Pentanomial, Sprt};
    ///
    /// let sprt = Sprt::logistic(0.0, 10.0)?;
    /// let estimate = sprt.estimate(&Pentanomial::new([10, 90, 200, 150, 50])).unwrap();
    /// assert_eq!(estimate.to_string(),
    ///            "Elo (bias-corrected as fishtest does): 47.2 (95%: 22.9 to 72.0), LOS: 100.0 %");
    /// # Ok::<(), botlens_stats::StatsError>(())
    /// ```
    pub fn estimate(&self, tally: &impl Tally) -> Option<SprtEstimate> {
        let sample = sample_of(tally);
        if sample.extent() != Extent::Spread {
            return None;
        }
        let sample = sample.regularized();
        let state = State::new(self, &sample);
        let estimate = SprtEstimate {
            elo: state.lower_confidence_bound(0.5),
            lower: state.lower_confidence_bound(0.025),
            upper: state.lower_confidence_bound(0.975),
            los: state.outcome_probability(0.0).clamp(0.0, 1.0),
        };
        [estimate.elo, estimate.lower, estimate.upper, estimate.los]
            .iter()
            .all(|x| x.is_finite())
            .then_some(estimate)
    }
}

/// A test's observed state as fishtest's `sprt.set_state` makes it.
struct State<'a> {
    sprt: &'a Sprt,
    sample: &'a Sample,
    /// The bounds' mean scores.
    scores: (f64, f64),
    /// The sample's variance.
    variance: f64,
    /// The observed LLR (Brownian approximation), put on a bound it passed.
    llr: f64,
    /// The time at which the motion is at `llr`.
    time: f64,
}

impl<'a> State<'a> {
    fn new(sprt: &'a Sprt, sample: &'a Sample) -> State<'a> {
        let scores = sprt.bound_scores(sample);
        let variance = sample.variance();
        let samples = sample.total();
        let (drift, _) = drift_and_variance(scores, variance, sample.mean());
        let (a, b) = (sprt.lower_bound(), sprt.upper_bound());
        let (mut llr, mut time) = (samples * drift, samples);
        if llr < a {
            (time, llr) = (a / drift, a);
        } else if llr > b {
            (time, llr) = (b / drift, b);
        }
        State { sprt, sample, scores, variance, llr, time }
    }

    /// The probability, were the true logistic Elo `elo`, of an outcome worse than the
    /// observed one (fishtest's `outcome_prob`).
    fn outcome_probability(&self, elo: f64) -> f64 {
        let (drift, variance) =
            drift_and_variance(self.scores, self.variance, self.sample.score_of(elo));
        let motion = Brownian {
            lower: self.sprt.lower_bound(),
            upper: self.sprt.upper_bound(),
            drift,
            variance,
        };
        motion.outcome_cdf(self.time, self.llr)
    }

    /// The largest Elo at which the observed outcome has probability below `p` of being bettered
    /// (fishtest's `lower_cb`): the root of P(worse outcome) = 1 − p, looked for between the
    /// middle of the bounds ± 30 times their distance, doubled until the root is inside or the
    /// range reaches ±[`SEARCH_LIMIT`] (then the limit on the side the root is beyond).
    fn lower_confidence_bound(&self, p: f64) -> f64 {
        let (elo0, elo1) = (self.sprt.elo0(), self.sprt.elo1());
        let (middle, distance) = ((elo0 + elo1) / 2.0, elo1 - elo0);
        let f = |elo: f64| self.outcome_probability(elo) - (1.0 - p);
        let mut widths = 30.0;
        loop {
            let low = (middle - widths * distance).max(-SEARCH_LIMIT);
            let high = (middle + widths * distance).min(SEARCH_LIMIT);
            let (f_low, f_high) = (f(low), f(high));
            if f_low.signum() != f_high.signum() || f_low == 0.0 || f_high == 0.0 {
                return bisect(f, low, high, f_low);
            }
            if low > -SEARCH_LIMIT || high < SEARCH_LIMIT {
                widths *= 2.0;
            } else {
                return if f_low > 0.0 { high } else { low };
            }
        }
    }
}

/// The drift and variance per sample of the LLR when the true mean score is `score`
/// (fishtest's `LLR_drift_variance_alt2`).
fn drift_and_variance(scores: (f64, f64), variance: f64, score: f64) -> (f64, f64) {
    let (s0, s1) = scores;
    ((score - (s0 + s1) / 2.0) * (s1 - s0) / variance, (s1 - s0).powi(2) / variance)
}

/// The root of `f` between `low` and `high` (where `f` changes sign; `f_low` its value at
/// `low`), by bisection down to adjacent floating-point numbers.
fn bisect(f: impl Fn(f64) -> f64, mut low: f64, mut high: f64, f_low: f64) -> f64 {
    if f_low == 0.0 {
        return low;
    }
    let rising = f_low < 0.0;
    loop {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            return middle;
        }
        let value = f(middle);
        if value == 0.0 {
            return middle;
        }
        if (value < 0.0) == rising {
            low = middle;
        } else {
            high = middle;
        }
    }
}

/// A Brownian motion with `drift` and `variance` per unit of time, started at 0 between the
/// absorbing bounds `lower` < 0 < `upper` (fishtest's `Brownian`).
struct Brownian {
    lower: f64,
    upper: f64,
    drift: f64,
    variance: f64,
}

impl Brownian {
    /// The probability that the motion passes to the right of (`time`, `value`), the time axis
    /// drawn vertically (fishtest's `outcome_cdf`): the outcomes worse than the one at (`time`,
    /// `value`), as the module docs say; the series when it converges fast, Siegmund's
    /// approximation otherwise.
    fn outcome_cdf(&self, time: f64, value: f64) -> f64 {
        let width = self.upper - self.lower;
        let gamma = self.drift / self.variance;
        if self.variance * time / (width * width) < 1e-2 || (gamma * width).abs() > 15.0 {
            self.siegmund(time, value)
        } else {
            self.series(time, value)
        }
    }

    /// The exact value as a series over n of e^(−λₙT) terms (fishtest's `outcome_cdf_alt1`):
    /// with the bounds shifted to [0, A], A = b − a, start x = −a, γ = μ/σ²,
    /// λₙ = (nπ/A)²σ²/2 + μ²/(2σ²), summed until a term is below 10⁻⁹, plus the probability of
    /// leaving through the lower bound at all.
    fn series(&self, time: f64, value: f64) -> f64 {
        let width = self.upper - self.lower;
        let start = -self.lower;
        let value = value - self.lower;
        let gamma = self.drift / self.variance;
        let lambda =
            |n: f64| (n * PI / width).powi(2) * self.variance / 2.0 + gamma * self.drift / 2.0;
        let lambda_1 = lambda(1.0);
        let leading = (-lambda_1 * time - start * gamma + value * gamma).exp();
        let mut sum = 0.0;
        // The terms fall like e^(−n²); a bound on their number keeps a pathological input from
        // looping.
        for n in 1..10_000u32 {
            let n = f64::from(n);
            let decay = (-(lambda(n) - lambda_1) * time).exp();
            let primitive = sine_primitive(n, gamma, width, value);
            sum += decay * primitive * (n * PI * start / width).sin();
            if (leading * decay * primitive).abs() <= 1e-9 {
                break;
            }
        }
        let exits_low = if gamma * width > 30.0 {
            (-2.0 * gamma * start).exp()
        } else if (gamma * width).abs() < 1e-8 {
            (width - start) / width
        } else {
            (1.0 - (2.0 * gamma * (width - start)).exp()) / (1.0 - (2.0 * gamma * width).exp())
        };
        exits_low + leading * sum
    }

    /// Siegmund's approximation (fishtest's `outcome_cdf_alt2`), with the asymptotic expansion
    /// of Φ where e^(2γ·bound)·Φ(z) would overflow.
    fn siegmund(&self, time: f64, value: f64) -> f64 {
        let spread = (time * self.variance).sqrt();
        let offset = self.drift * time;
        let gamma = self.drift / self.variance;
        let (a, b) = (self.lower, self.upper);
        let z = (value - offset) / spread;
        let z_a = (-value + offset + 2.0 * a) / spread;
        let z_b = (value - offset - 2.0 * b) / spread;
        let reflected = |bound: f64, z: f64| {
            if gamma * bound >= 5.0 {
                -(-z * z / 2.0 + 2.0 * gamma * bound).exp() / (2.0 * PI).sqrt()
                    * (1.0 / z - 1.0 / z.powi(3))
            } else {
                (2.0 * gamma * bound).exp() * phi(z)
            }
        };
        phi(z) + reflected(a, z_a) - reflected(b, z_b)
    }
}

/// A primitive of e^(γy)·sin(nπy/A), times 2/A·e^(−γy), at y (fishtest's `U`).
fn sine_primitive(n: f64, gamma: f64, width: f64, y: f64) -> f64 {
    let angle = PI * n * y / width;
    (2.0 * width * gamma * angle.sin() - 2.0 * PI * n * angle.cos())
        / (width * width * gamma * gamma + PI * PI * n * n)
}

/// Prints `Elo (bias-corrected as fishtest does): 47.2 (95%: 22.9 to 72.0), LOS: 100.0 %`.
impl fmt::Display for SprtEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Elo (bias-corrected as fishtest does): {} (95%: {} to {}), LOS: {} %",
            fixed(self.elo, 1),
            fixed(self.lower, 1),
            fixed(self.upper, 1),
            fixed(100.0 * self.los, 1)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::{Pentanomial, Trinomial};

    #[test]
    fn the_estimate_matches_fishtests_sprt_elo() {
        // (pairs, bounds, model, Elo, 95 % interval, LOS) as fishtest's own
        // `stat_util.SPRT_elo` returns them (run on fishtest's code with SciPy 1.17): its own
        // examples, tests stopped either way, one with empty outcomes, and fastchess's.
        let logistic = |elo0, elo1| Sprt::logistic(elo0, elo1).unwrap();
        let normalized = |elo0, elo1| Sprt::normalized(elo0, elo1).unwrap();
        let cases = [
            (
                [39, 2226, 31451, 2412, 40],
                logistic(0.2, 0.9),
                [0.865_182_788_259_953_9, 0.168_307_059_121_705_9, 1.540_599_335_507_394_8],
                0.992_001_665_063_120_4,
            ),
            (
                [39, 2226, 31451, 2412, 40],
                normalized(0.764, 3.439),
                [0.865_159_853_452_627_7, 0.168_271_352_516_427_89, 1.540_582_687_935_260_2],
                0.991_999_367_451_901_8,
            ),
            (
                [10, 90, 200, 150, 50],
                logistic(0.0, 10.0),
                [47.244_789_710_896_43, 22.855_343_390_658_756, 72.018_986_455_174_57],
                0.999_928_281_302_631_7,
            ),
            (
                [50, 150, 200, 90, 10],
                logistic(0.0, 10.0),
                [-47.242_215_239_302_29, -74.709_739_636_423_35, -20.281_820_167_768_547],
                0.000_288_753_202_129_288_23,
            ),
            (
                [0, 0, 5, 30, 65],
                logistic(0.0, 10.0),
                [377.007_285_545_809_3, 253.631_660_012_555_3, 710.466_797_232_139_7],
                1.0,
            ),
            (
                [1, 10, 20, 15, 4],
                normalized(0.0, 5.0),
                [38.373_188_856_697_794, -6.217_752_710_338_589, 84.267_312_090_385_79],
                0.954_076_780_521_552_1,
            ),
            (
                [871, 26175, 55983, 26678, 821],
                logistic(0.0, 2.0),
                [0.900_315_746_264_557_9, -0.326_057_147_082_479_57, 2.241_457_611_189_386_2],
                0.929_831_503_378_432,
            ),
            (
                [223, 9863, 21279, 10037, 246],
                normalized(0.5, 2.5),
                [0.917_047_766_041_209_9, -0.289_992_201_022_283_96, 2.123_781_259_782_411_7],
                0.931_782_852_603_632_7,
            ),
        ];
        for (counts, sprt, [elo, lower, upper], los) in cases {
            let estimate = sprt.estimate(&Pentanomial::new(counts)).unwrap();
            for (actual, expected, what) in [
                (estimate.elo, elo, "Elo"),
                (estimate.lower, lower, "lower end"),
                (estimate.upper, upper, "upper end"),
                (estimate.los, los, "LOS"),
            ] {
                assert!(
                    (actual - expected).abs() < 1e-8 * expected.abs().max(1.0),
                    "{what} of {counts:?}: {actual}, fishtest {expected}"
                );
            }
        }
    }

    #[test]
    fn no_figure_means_no_estimate() {
        let sprt = Sprt::logistic(0.0, 10.0).unwrap();
        assert_eq!(sprt.estimate(&Pentanomial::default()), None);
        assert_eq!(sprt.estimate(&Pentanomial::new([0, 0, 0, 2, 3])), None, "too few pairs");
        assert_eq!(sprt.estimate(&Trinomial::new(300, 0, 0)), None, "a sweep");
        let estimate = sprt.estimate(&Trinomial::new(300, 100, 100)).unwrap();
        assert!(estimate.elo > 100.0 && estimate.los > 0.99, "{estimate:?}");
    }
}

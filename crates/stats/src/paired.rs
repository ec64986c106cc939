//! Paired comparison of numbers: two players measured on the same cases (Klotski's steps per
//! layout, one number per layout and player), compared through the differences of each pair
//! with the sign test and the Wilcoxon signed-rank test.
//!
//! Both tests are two-sided and drop zero differences (a tie says nothing about which is
//! larger); both report the median of all the differences, zeros included, as the size of the
//! effect. Which direction is better is the caller's: for steps, lower is.

use std::fmt;

use serde::Serialize;

use crate::error::StatsError;
use crate::format::{p_value, short};
use crate::normal::two_sided_tail;

/// The largest number of non-zero differences for which [`wilcoxon_signed_rank`] computes the
/// exact distribution; above it, the normal approximation. At 25 the approximation (with the
/// tie and continuity corrections) is within 0.007 of the exact p-value, and within 0.002
/// where that is below 0.1.
pub const WILCOXON_EXACT_MAX_N: usize = 25;

/// The differences `first[i] − second[i]` of two paired samples, checked: the same length and
/// finite values.
///
/// ```
/// let steps_new = [81.0, 90.0, 102.0];
/// let steps_old = [81.0, 95.0, 101.0];
/// let differences = botlens_stats::paired_differences(&steps_new, &steps_old)?;
/// assert_eq!(differences, [0.0, -5.0, 1.0]);
/// # Ok::<(), botlens_stats::StatsError>(())
/// ```
pub fn paired_differences(first: &[f64], second: &[f64]) -> Result<Vec<f64>, StatsError> {
    if first.len() != second.len() {
        return Err(StatsError::LengthMismatch { first: first.len(), second: second.len() });
    }
    check_finite(first)?;
    check_finite(second)?;
    Ok(first.iter().zip(second).map(|(a, b)| a - b).collect())
}

/// The sign test of paired differences.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SignTest {
    /// The non-zero differences, n = positive + negative.
    pub n: u64,
    /// The differences above zero: the statistic, Binomial(n, ½) if neither side is larger.
    pub positive: u64,
    /// The differences below zero.
    pub negative: u64,
    /// The zero differences, dropped.
    pub zeros: u64,
    /// The exact two-sided p-value, min(1, 2·P(X ≤ min(positive, negative))) for X ~
    /// Binomial(n, ½); 1 when n = 0.
    pub p_value: f64,
    /// The median of all the differences; `None` without any.
    pub median_difference: Option<f64>,
}

/// The sign test (exact binomial, two-sided) of paired `differences`: do positive and negative
/// differences come equally often? Zero differences are dropped.
///
/// ```
/// // Zar's example of the sign test: hind and fore leg lengths of ten deer, 8 differences
/// // positive and 2 negative; two-sided p = 2·(1 + 10 + 45)/2¹⁰.
/// let hind = [142.0, 140.0, 144.0, 144.0, 142.0, 146.0, 149.0, 150.0, 142.0, 148.0];
/// let fore = [138.0, 136.0, 147.0, 139.0, 143.0, 141.0, 143.0, 145.0, 136.0, 146.0];
/// let differences = botlens_stats::paired_differences(&hind, &fore)?;
/// let test = botlens_stats::sign_test(&differences)?;
/// assert_eq!((test.positive, test.negative), (8, 2));
/// assert!((test.p_value - 0.109375).abs() < 1e-12);
/// # Ok::<(), botlens_stats::StatsError>(())
/// ```
pub fn sign_test(differences: &[f64]) -> Result<SignTest, StatsError> {
    check_finite(differences)?;
    let positive = differences.iter().filter(|&&d| d > 0.0).count() as u64;
    let negative = differences.iter().filter(|&&d| d < 0.0).count() as u64;
    let n = positive + negative;
    let p_value = (2.0 * binomial_half_cdf(positive.min(negative), n)).min(1.0);
    Ok(SignTest {
        n,
        positive,
        negative,
        zeros: differences.len() as u64 - n,
        p_value,
        median_difference: median(differences),
    })
}

/// P(X ≤ k) for X ~ Binomial(n, ½), k ≤ n/2: the terms C(n, i)/2ⁿ summed from i = k down
/// (each the one above times i/(n − i + 1)) until they no longer count; C(n, k) in logarithms,
/// so large n neither overflows nor loses the tail.
fn binomial_half_cdf(k: u64, n: u64) -> f64 {
    let ln_choose: f64 = (1..=k).map(|j| ((n - k + j) as f64 / j as f64).ln()).sum();
    let mut term = (ln_choose - n as f64 * std::f64::consts::LN_2).exp();
    let mut sum = term;
    for i in (1..=k).rev() {
        term *= i as f64 / (n - i + 1) as f64;
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
    }
    sum
}

/// How a Wilcoxon p-value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WilcoxonMethod {
    /// From the exact distribution of W+ over the 2ⁿ equally likely sign patterns of the ranks
    /// (tied ranks included as they are): n ≤ [`WILCOXON_EXACT_MAX_N`].
    Exact,
    /// From the normal approximation: n > [`WILCOXON_EXACT_MAX_N`].
    Normal {
        /// z = sign(W+ − μ)·max(|W+ − μ| − ½, 0)/σ, positive when W+ is above its mean.
        z: f64,
    },
}

/// The Wilcoxon signed-rank test of paired differences.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Wilcoxon {
    /// The non-zero differences, ranked.
    pub n: u64,
    /// The zero differences, dropped.
    pub zeros: u64,
    /// The statistic W+: the sum of the ranks of the positive differences (R's `V`).
    pub w_plus: f64,
    /// The sum of the ranks of the negative differences, n(n + 1)/2 − W+.
    pub w_minus: f64,
    /// The two-sided p-value; 1 when n = 0.
    pub p_value: f64,
    /// How the p-value was computed.
    pub method: WilcoxonMethod,
    /// The median of all the differences; `None` without any.
    pub median_difference: Option<f64>,
}

/// The Wilcoxon signed-rank test (two-sided) of paired `differences`: are they centred on zero?
///
/// Zero differences are dropped; the others are ranked by absolute value, 1 for the smallest,
/// tied values sharing the average of their ranks; W+ sums the ranks of the positive ones. For
/// n ≤ [`WILCOXON_EXACT_MAX_N`] the p-value is exact: min(1, 2·min(P(W ≤ W+), P(W ≥ W+))) over
/// the 2ⁿ sign patterns of the ranks. Above, it is the normal approximation with mean
/// μ = n(n + 1)/4, variance σ² = n(n + 1)(2n + 1)/24 − Σ(t³ − t)/48 (t the size of each group
/// of tied ranks) and a continuity correction of ½: p = 2·(1 − Φ(|z|)) with z as
/// [`WilcoxonMethod::Normal`] gives it.
///
/// ```
/// // Darwin's Zea mays data as Fisher analysed it (The Design of Experiments, 1935): the
/// // height differences of 15 pairs of crossed and self-fertilized plants, in eighths of an
/// // inch. The exact two-sided p-value is 0.041259765625 (SciPy's wilcoxon example).
/// let differences = [6.0, 8.0, 14.0, 16.0, 23.0, 24.0, 28.0, 29.0, 41.0, -48.0, 49.0, 56.0,
///     60.0, -67.0, 75.0];
/// let test = botlens_stats::wilcoxon_signed_rank(&differences)?;
/// assert_eq!((test.w_plus, test.w_minus), (96.0, 24.0));
/// assert_eq!(test.p_value, 0.041259765625);
/// # Ok::<(), botlens_stats::StatsError>(())
/// ```
pub fn wilcoxon_signed_rank(differences: &[f64]) -> Result<Wilcoxon, StatsError> {
    check_finite(differences)?;
    let nonzero: Vec<f64> = differences.iter().copied().filter(|&d| d != 0.0).collect();
    let n = nonzero.len();
    // Ranks doubled, so that shared ranks (halves) stay integers.
    let (doubled_ranks, tie_groups) = doubled_ranks(&nonzero);
    let doubled_w_plus: u64 =
        nonzero.iter().zip(&doubled_ranks).filter(|(d, _)| **d > 0.0).map(|(_, r)| r).sum();
    let w_plus = doubled_w_plus as f64 / 2.0;
    let n_f = n as f64;
    let w_minus = n_f * (n_f + 1.0) / 2.0 - w_plus;
    let (p_value, method) = if n <= WILCOXON_EXACT_MAX_N {
        (exact_signed_rank_p(&doubled_ranks, doubled_w_plus), WilcoxonMethod::Exact)
    } else {
        let mean = n_f * (n_f + 1.0) / 4.0;
        let ties: f64 = tie_groups.iter().map(|&t| (t as f64).powi(3) - t as f64).sum();
        let variance = n_f * (n_f + 1.0) * (2.0 * n_f + 1.0) / 24.0 - ties / 48.0;
        let distance = ((w_plus - mean).abs() - 0.5).max(0.0);
        let z = (w_plus - mean).signum() * distance / variance.sqrt() + 0.0;
        (two_sided_tail(z), WilcoxonMethod::Normal { z })
    };
    Ok(Wilcoxon {
        n: n as u64,
        zeros: (differences.len() - n) as u64,
        w_plus,
        w_minus,
        p_value,
        method,
        median_difference: median(differences),
    })
}

/// Twice the rank of each value's absolute value (1 for the smallest; a group of ties shares
/// the average of its ranks), and the size of each group of ties.
fn doubled_ranks(values: &[f64]) -> (Vec<u64>, Vec<u64>) {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].abs().total_cmp(&values[j].abs()));
    let mut ranks = vec![0; values.len()];
    let mut groups = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let size = order[start..]
            .iter()
            .take_while(|&&i| values[i].abs() == values[order[start]].abs())
            .count();
        // Ranks start + 1 ..= start + size average to (2·start + size + 1)/2.
        for &i in &order[start..start + size] {
            ranks[i] = (2 * start + size + 1) as u64;
        }
        groups.push(size as u64);
        start += size;
    }
    (ranks, groups)
}

/// The exact two-sided p-value of a doubled W+ of `observed`: the number of sign patterns
/// reaching each doubled rank sum, counted by dynamic programming over the ranks, each pattern
/// of probability 2⁻ⁿ.
fn exact_signed_rank_p(doubled_ranks: &[u64], observed: u64) -> f64 {
    let total: u64 = doubled_ranks.iter().sum();
    let mut ways = vec![0.0f64; total as usize + 1];
    ways[0] = 1.0;
    let mut reach = 0;
    for &rank in doubled_ranks {
        let rank = rank as usize;
        reach += rank;
        for sum in (rank..=reach).rev() {
            ways[sum] += ways[sum - rank];
        }
    }
    let patterns: f64 = ways.iter().sum();
    let at_most: f64 = ways[..=observed as usize].iter().sum();
    let at_least: f64 = ways[observed as usize..].iter().sum();
    (2.0 * at_most.min(at_least) / patterns).min(1.0)
}

/// The median of `values` (the mean of the middle two for an even count); `None` when empty.
fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        len if len % 2 == 1 => Some(sorted[middle]),
        _ => Some((sorted[middle - 1] + sorted[middle]) / 2.0),
    }
}

/// Refuses NaN and infinite values, naming the first.
fn check_finite(values: &[f64]) -> Result<(), StatsError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(StatsError::NotFinite { index, value: values[index] }),
        None => Ok(()),
    }
}

/// The median as printed: `, median difference 4.5`, or nothing without differences.
fn median_suffix(median: Option<f64>) -> String {
    median.map_or(String::new(), |m| format!(", median difference {}", short(m)))
}

/// Prints `Sign test: 8 positive, 2 negative, 0 zero, p = 0.1094 (two-sided), median
/// difference 4.5`.
impl fmt::Display for SignTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Sign test: {} positive, {} negative, {} zero, {} (two-sided){}",
            self.positive,
            self.negative,
            self.zeros,
            p_value(self.p_value),
            median_suffix(self.median_difference)
        )
    }
}

/// Prints `Wilcoxon signed-rank: W+ = 40, n = 9, p = 0.0391 (two-sided, exact), median
/// difference 0.49`; for the approximation `(two-sided, normal approximation, z = 3.43)`.
impl fmt::Display for Wilcoxon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let method = match self.method {
            WilcoxonMethod::Exact => "exact".to_owned(),
            WilcoxonMethod::Normal { z } => format!("normal approximation, z = {z:.2}"),
        };
        write!(
            f,
            "Wilcoxon signed-rank: W+ = {}, n = {}, {} (two-sided, {method}){}",
            short(self.w_plus),
            self.n,
            p_value(self.p_value),
            median_suffix(self.median_difference)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sign_test_matches_textbook_examples() {
        // Hollander and Wolfe's Example 3.5: 21 positive differences of 25, one-sided
        // P = 0.00046; two-sided 2·(1 + 25 + 300 + 2300 + 12650)/2²⁵.
        let differences: Vec<f64> = (0..25).map(|i| if i < 21 { 1.5 } else { -0.5 }).collect();
        let test = sign_test(&differences).unwrap();
        assert_eq!((test.n, test.positive, test.negative, test.zeros), (25, 21, 4, 0));
        assert!((test.p_value - 0.000_910_520_553_588_867_2).abs() < 1e-15, "{test:?}");
        assert_eq!(test.median_difference, Some(1.5));
        // Many pairs: 4,900 of 10,000 below, 5,100 above: p = 2·Σᵢ≤₄₉₀₀ C(10⁴, i)/2¹⁰⁰⁰⁰,
        // summed in exact integers: 0.046585527704947.
        let many: Vec<f64> = (0..10_000).map(|i| if i < 5_100 { 1.0 } else { -1.0 }).collect();
        let test = sign_test(&many).unwrap();
        assert!((test.p_value - 0.046_585_527_704_947_39).abs() < 1e-12, "{test:?}");
    }

    #[test]
    fn the_sign_test_drops_ties_and_is_symmetric() {
        let differences = [0.0, 2.0, 0.0, -1.0, 3.0, 5.0];
        let test = sign_test(&differences).unwrap();
        assert_eq!((test.n, test.positive, test.negative, test.zeros), (4, 3, 1, 2));
        // 2·(1 + 4)/2⁴.
        assert_eq!(test.p_value, 0.625);
        let negated: Vec<f64> = differences.iter().map(|d| -d).collect();
        let mirrored = sign_test(&negated).unwrap();
        assert_eq!((mirrored.positive, mirrored.negative, mirrored.p_value), (1, 3, 0.625));
        assert_eq!(test.median_difference, Some(1.0));
        assert_eq!(mirrored.median_difference, Some(-1.0));
        let nothing = sign_test(&[0.0, 0.0]).unwrap();
        assert_eq!((nothing.n, nothing.p_value), (0, 1.0));
        assert_eq!(sign_test(&[]).unwrap().median_difference, None);
    }

    #[test]
    #[allow(clippy::approx_constant, reason = "3.14 is a patient's score, not π")]
    fn the_exact_wilcoxon_test_matches_textbook_examples() {
        // R's wilcox.test example (Hollander and Wolfe, 1973, p. 29f): Hamilton depression
        // scale of 9 patients at the first and second visit; V = 40, one-sided p = 0.01953,
        // two-sided 2·10/2⁹.
        let first = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30];
        let second = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
        let differences = paired_differences(&first, &second).unwrap();
        let test = wilcoxon_signed_rank(&differences).unwrap();
        assert_eq!((test.n, test.w_plus, test.w_minus), (9, 40.0, 5.0));
        assert_eq!(test.method, WilcoxonMethod::Exact);
        assert_eq!(test.p_value, 0.039_062_5);
        assert_eq!(
            test.to_string(),
            "Wilcoxon signed-rank: W+ = 40, n = 9, p = 0.0391 (two-sided, exact), median \
             difference 0.49"
        );
        // Zar's deer (see `sign_test`), with tied ranks: |d| = 4, 4, 3, 5, 1, 5, 6, 5, 6, 2 rank
        // 4.5, 4.5, 3, 7, 1, 7, 9.5, 7, 9.5, 2; the negative ones (3 and 1) give W− = 4. Counted
        // over all 2¹⁰ sign patterns of those ranks, 6 reach W+ ≥ 51: p = 12/1024.
        let deer = [4.0, 4.0, -3.0, 5.0, -1.0, 5.0, 6.0, 5.0, 6.0, 2.0];
        let test = wilcoxon_signed_rank(&deer).unwrap();
        assert_eq!((test.w_plus, test.w_minus), (51.0, 4.0));
        assert_eq!(test.p_value, 0.011_718_75);
    }

    #[test]
    fn above_the_exact_limit_the_normal_approximation_corrects_for_ties_and_continuity() {
        // 1..=30 with 3, 7, 12, 18 and 25 negative: W+ = 465 − 65 = 400, μ = 232.5,
        // σ² = 30·31·61/24 = 2363.75, z = (167.5 − 0.5)/48.618 = 3.4349, p = 0.00059274.
        let differences: Vec<f64> = (1..=30)
            .map(|i| if [3, 7, 12, 18, 25].contains(&i) { -f64::from(i) } else { f64::from(i) })
            .collect();
        let test = wilcoxon_signed_rank(&differences).unwrap();
        let WilcoxonMethod::Normal { z } = test.method else { panic!("{test:?}") };
        assert_eq!(test.w_plus, 400.0);
        assert!((z - 3.434_912_672_267_315).abs() < 1e-12, "{z}");
        assert!((test.p_value - 0.000_592_744_808_853_060_7).abs() < 1e-14, "{test:?}");
        assert_eq!(
            test.to_string(),
            "Wilcoxon signed-rank: W+ = 400, n = 30, p = 0.0006 (two-sided, normal approximation, \
             z = 3.43), median difference 13.5"
        );
        // 26 values with two groups of four ties: |d| = 1 (×4, rank 2.5), 2 (×4, rank 6.5),
        // 3..=20 (ranks 9..=26); negative: one 1, two 2s, 5 and 10, W− = 2.5 + 13 + 11 + 16.
        // σ² = 26·27·53/24 − 2·(4³ − 4)/48 = 1547.75, z = (133 − 0.5)/39.342 = 3.3679.
        let mut tied = vec![-1.0, 1.0, 1.0, 1.0, -2.0, -2.0, 2.0, 2.0];
        tied.extend((3..=20).map(|v| if v == 5 || v == 10 { -f64::from(v) } else { f64::from(v) }));
        let test = wilcoxon_signed_rank(&tied).unwrap();
        assert_eq!((test.n, test.w_plus, test.w_minus), (26, 308.5, 42.5));
        let WilcoxonMethod::Normal { z } = test.method else { panic!("{test:?}") };
        assert!((z - 3.367_948_732_177_303).abs() < 1e-12, "{z}");
        assert!((test.p_value - 0.000_757_296_769_786_206_2).abs() < 1e-14, "{test:?}");
    }

    #[test]
    fn the_switch_to_the_approximation_is_at_the_limit() {
        let ramp = |n: usize| -> Vec<f64> {
            (1..=n).map(|i| if i % 3 == 0 { -(i as f64) } else { i as f64 }).collect()
        };
        let at_limit = wilcoxon_signed_rank(&ramp(WILCOXON_EXACT_MAX_N)).unwrap();
        let past_limit = wilcoxon_signed_rank(&ramp(WILCOXON_EXACT_MAX_N + 1)).unwrap();
        assert_eq!(at_limit.method, WilcoxonMethod::Exact);
        assert!(matches!(past_limit.method, WilcoxonMethod::Normal { .. }));
        // Zeros do not count towards n.
        let mut padded = ramp(WILCOXON_EXACT_MAX_N);
        padded.extend([0.0; 10]);
        let padded = wilcoxon_signed_rank(&padded).unwrap();
        assert_eq!((padded.n, padded.zeros, padded.method), (25, 10, WilcoxonMethod::Exact));
        assert_eq!(padded.p_value, at_limit.p_value);
    }

    #[test]
    fn wilcoxon_without_differences_has_no_evidence() {
        let test = wilcoxon_signed_rank(&[0.0, -0.0]).unwrap();
        assert_eq!((test.n, test.zeros, test.w_plus, test.p_value), (0, 2, 0.0, 1.0));
        assert_eq!(test.median_difference, Some(0.0));
        let empty = wilcoxon_signed_rank(&[]).unwrap();
        assert_eq!((empty.p_value, empty.median_difference), (1.0, None));
        assert_eq!(
            empty.to_string(),
            "Wilcoxon signed-rank: W+ = 0, n = 0, p = 1.0000 (two-sided, exact)"
        );
    }

    #[test]
    fn bad_input_is_refused_with_its_place() {
        assert_eq!(
            paired_differences(&[1.0, 2.0], &[1.0]),
            Err(StatsError::LengthMismatch { first: 2, second: 1 })
        );
        let error = paired_differences(&[1.0, 2.0], &[1.0, f64::INFINITY]).unwrap_err();
        assert_eq!(error.to_string(), "value 1 is inf: only finite numbers can be compared");
        assert!(matches!(sign_test(&[1.0, f64::NAN]), Err(StatsError::NotFinite { index: 1, .. })));
        assert!(matches!(wilcoxon_signed_rank(&[f64::NAN]), Err(StatsError::NotFinite { .. })));
    }

    #[test]
    fn results_print_in_one_line() {
        let test = sign_test(&[4.0, 4.0, -3.0, 5.0, -1.0, 5.0, 6.0, 5.0, 6.0, 2.0]).unwrap();
        assert_eq!(
            test.to_string(),
            "Sign test: 8 positive, 2 negative, 0 zero, p = 0.1094 (two-sided), median \
             difference 4.5"
        );
        let json = serde_json::to_value(wilcoxon_signed_rank(&[1.0; 30]).unwrap()).unwrap();
        assert_eq!(json["method"]["kind"], "normal");
        assert_eq!(json["n"], 30);
    }
}

//! The maximum-likelihood distributions the generalized SPRT compares: of all distributions on
//! a sample's outcomes, the likeliest given the observed frequencies under a constraint on
//! the mean score (logistic Elo) or on the t-value (normalized Elo). M. Van den Bergh's
//! derivations, as fishtest computes them (`LLRcalc.MLE_expected`, `LLRcalc.MLE_t_value`).

/// The root θ of the secular equation Σᵢ p̂ᵢ·dᵢ/(1 + θ·dᵢ) = 0 on (−1/max d, −1/min d), where
/// every 1 + θ·dᵢ stays positive and the left side falls strictly from +∞ to −∞; found by
/// bisection down to adjacent floating-point numbers. `None` when the offsets `d` do not
/// straddle 0 (then there is no root: fishtest raises an error).
fn secular_root(offsets: &[f64], observed: &[f64]) -> Option<f64> {
    let highest = offsets.iter().copied().fold(f64::MIN, f64::max);
    let lowest = offsets.iter().copied().fold(f64::MAX, f64::min);
    if !(highest > 0.0 && lowest < 0.0) {
        return None;
    }
    let slope = |theta: f64| -> f64 {
        offsets.iter().zip(observed).map(|(d, p)| p * d / (1.0 + theta * d)).sum()
    };
    let (mut low, mut high) = (-1.0 / highest, -1.0 / lowest);
    loop {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            return Some(middle);
        }
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
}

/// The distribution with mean `mean` of greatest likelihood given `observed` (frequencies of
/// `points`, all positive): p̂ᵢ/(1 + θ·(aᵢ − mean)), θ the secular root. `None` when `mean` is
/// not strictly between the lowest and highest points.
pub(crate) fn with_mean(points: &[f64], observed: &[f64], mean: f64) -> Option<Vec<f64>> {
    let offsets: Vec<f64> = points.iter().map(|a| a - mean).collect();
    let theta = secular_root(&offsets, observed)?;
    Some(offsets.iter().zip(observed).map(|(d, p)| p / (1.0 + theta * d)).collect())
}

/// Iterations of [`with_t_value`] at most, and the change in every probability below which it
/// stops early: fishtest's.
const T_VALUE_ITERATIONS: usize = 10;
const T_VALUE_TOLERANCE: f64 = 1e-9;

/// The distribution whose t-value (μ − `reference`)/σ is `t`, of greatest likelihood given
/// `observed` (frequencies of `points`, all positive), by fishtest's fixed-point iteration
/// (Van den Bergh, "Comments on normalized Elo", section 4.1): from the uniform distribution,
/// each step takes the current μ and σ and solves the secular equation with offsets
/// dᵢ = aᵢ − reference − t·σ·(1 + ((μ − aᵢ)/σ)²)/2, giving p̂ᵢ/(1 + θ·dᵢ); at most ten steps,
/// fewer once no probability moves by 10⁻⁹. A later step whose offsets do not straddle 0 ends
/// the iteration at the distribution before it (where fishtest raises an error); `None` when the
/// first one's do not, which depends only on `points` and `t`: from the uniform distribution,
/// the offset of the highest point is positive for t-values up to about 0.9 on pairs' points
/// and 1 on games' (the limit [`crate::MAX_NORMALIZED_BOUND`] keeps them within).
pub(crate) fn with_t_value(
    points: &[f64],
    observed: &[f64],
    reference: f64,
    t: f64,
) -> Option<Vec<f64>> {
    let mut current = vec![1.0 / points.len() as f64; points.len()];
    for step in 0..T_VALUE_ITERATIONS {
        let mean: f64 = current.iter().zip(points).map(|(p, a)| p * a).sum();
        let variance: f64 = current.iter().zip(points).map(|(p, a)| p * (a - mean).powi(2)).sum();
        let sigma = variance.sqrt();
        let offsets: Vec<f64> = points
            .iter()
            .map(|a| a - reference - t * sigma * (1.0 + ((mean - a) / sigma).powi(2)) / 2.0)
            .collect();
        let Some(theta) = secular_root(&offsets, observed) else {
            return (step > 0).then_some(current);
        };
        let next: Vec<f64> =
            offsets.iter().zip(observed).map(|(d, p)| p / (1.0 + theta * d)).collect();
        let moved = next.iter().zip(&current).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        current = next;
        if moved < T_VALUE_TOLERANCE {
            break;
        }
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constrained_distributions_meet_their_constraint() {
        let points = [0.0, 0.25, 0.5, 0.75, 1.0];
        let observed = [0.1, 0.2, 0.4, 0.2, 0.1];
        let p = with_mean(&points, &observed, 0.55).unwrap();
        let mean: f64 = p.iter().zip(points).map(|(p, a)| p * a).sum();
        assert!((mean - 0.55).abs() < 1e-12, "{p:?}");
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let p = with_t_value(&points, &observed, 0.5, 0.2).unwrap();
        let mean: f64 = p.iter().zip(points).map(|(p, a)| p * a).sum();
        let variance: f64 = p.iter().zip(points).map(|(p, a)| p * (a - mean).powi(2)).sum();
        assert!(((mean - 0.5) / variance.sqrt() - 0.2).abs() < 1e-6, "{p:?}");
        assert_eq!(with_mean(&points, &observed, 1.0), None, "no mean at an end");
    }
}

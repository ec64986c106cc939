//! Properties of the statistics over arbitrary tallies and samples: more wins never lower the
//! Elo estimate, swapping the players mirrors everything, no output is ever NaN or infinite,
//! and the exact Wilcoxon p-value is what counting every sign pattern gives.

use botlens_stats::{
    EloEstimate, Los, NormalizedElo, Pentanomial, Sprt, Tally, Trinomial, WilcoxonMethod,
    sign_test, wilcoxon_signed_rank,
};
use proptest::prelude::*;

/// An estimate placed on one line: all lost below every finite value, all won above.
fn position(estimate: EloEstimate) -> Option<f64> {
    match estimate {
        EloEstimate::NoGames | EloEstimate::TooFewGames { .. } => None,
        EloEstimate::AllLost { .. } => Some(f64::NEG_INFINITY),
        EloEstimate::AllWon { .. } => Some(f64::INFINITY),
        EloEstimate::Estimate(interval) => Some(interval.elo),
    }
}

/// Every number an estimate, a LOS and an SPRT result hold is finite, and probabilities lie in
/// [0, 1]; the interval holds its estimate.
fn assert_finite(tally: &impl Tally) {
    if let EloEstimate::Estimate(interval) = tally.elo() {
        assert!(interval.elo.is_finite(), "{interval:?}");
        for end in [interval.lower, interval.upper].into_iter().flatten() {
            assert!(end.is_finite(), "{interval:?}");
        }
        assert!(interval.lower.is_none_or(|low| low <= interval.elo + 1e-9), "{interval:?}");
        assert!(interval.upper.is_none_or(|high| high >= interval.elo - 1e-9), "{interval:?}");
    }
    if let NormalizedElo::Estimate { nelo, plus_minus } = tally.normalized_elo() {
        assert!(nelo.is_finite() && plus_minus.is_finite() && plus_minus >= 0.0);
    }
    if let Los(Some(los)) = tally.los() {
        assert!((0.0..=1.0).contains(&los), "{los}");
    }
    for sprt in [Sprt::logistic(-5.0, 5.0).unwrap(), Sprt::normalized(-5.0, 5.0).unwrap()] {
        let result = sprt.test(tally);
        assert!(result.llr.is_finite(), "{result:?}");
        assert!(sprt.approximate_llr(tally).is_finite());
        if let Some(estimate) = sprt.estimate(tally) {
            assert!(
                estimate.lower <= estimate.elo && estimate.elo <= estimate.upper,
                "{estimate:?}"
            );
            assert!((0.0..=1.0).contains(&estimate.los), "{estimate:?}");
        }
    }
}

/// The exact two-sided Wilcoxon p-value by brute force: the ranks found by counting, every
/// one of the 2ⁿ sign patterns tried.
fn brute_force_wilcoxon(differences: &[f64]) -> f64 {
    let nonzero: Vec<f64> = differences.iter().copied().filter(|&d| d != 0.0).collect();
    let rank = |x: f64| {
        let below = nonzero.iter().filter(|d| d.abs() < x.abs()).count() as f64;
        let equal = nonzero.iter().filter(|d| d.abs() == x.abs()).count() as f64;
        below + (equal + 1.0) / 2.0
    };
    let ranks: Vec<f64> = nonzero.iter().map(|&d| rank(d)).collect();
    let observed: f64 = nonzero.iter().zip(&ranks).filter(|(d, _)| **d > 0.0).map(|(_, r)| r).sum();
    let patterns = 1u32 << nonzero.len();
    let (mut at_most, mut at_least) = (0u32, 0u32);
    for pattern in 0..patterns {
        let sum: f64 = (0..ranks.len()).filter(|i| pattern >> i & 1 == 1).map(|i| ranks[i]).sum();
        at_most += u32::from(sum <= observed + 1e-9);
        at_least += u32::from(sum >= observed - 1e-9);
    }
    (2.0 * f64::from(at_most.min(at_least)) / f64::from(patterns)).min(1.0)
}

fn trinomial() -> impl Strategy<Value = Trinomial> {
    (0..400u64, 0..400u64, 0..400u64).prop_map(|(w, l, d)| Trinomial::new(w, l, d))
}

fn pentanomial() -> impl Strategy<Value = Pentanomial> {
    prop::array::uniform5(0..300u64).prop_map(Pentanomial::new)
}

proptest! {
    #[test]
    fn more_wins_never_lower_the_elo_estimate(games in trinomial()) {
        let before = position(games.elo());
        let one_more_win = Trinomial { wins: games.wins + 1, ..games };
        prop_assert!(position(one_more_win.elo()) >= before);
        if games.losses > 0 {
            let loss_turned_win =
                Trinomial { wins: games.wins + 1, losses: games.losses - 1, ..games };
            prop_assert!(position(loss_turned_win.elo()) >= before);
        }
    }

    #[test]
    fn a_better_pair_never_lowers_the_elo_estimate(pairs in pentanomial(), from in 0..4usize) {
        prop_assume!(pairs.counts[from] > 0);
        let mut better = pairs;
        better.counts[from] -= 1;
        better.counts[from + 1] += 1;
        prop_assert!(position(better.elo()) >= position(pairs.elo()));
    }

    #[test]
    fn swapping_the_players_negates_elo_and_mirrors_los(
        games in trinomial(),
        pairs in pentanomial(),
    ) {
        let mirrored = |a: EloEstimate, b: EloEstimate| match (position(a), position(b)) {
            (Some(x), Some(y)) if x.is_finite() => (x + y).abs() < 1e-9,
            (x, y) => x.map(|x| -x) == y,
        };
        prop_assert!(mirrored(games.elo(), games.swapped().elo()));
        prop_assert!(mirrored(pairs.elo(), pairs.swapped().elo()));
        for (los, swapped) in [
            (games.los(), games.swapped().los()),
            (pairs.los(), pairs.swapped().los()),
        ] {
            match (los.0, swapped.0) {
                (Some(p), Some(q)) => prop_assert!((p + q - 1.0).abs() < 1e-12),
                (p, q) => prop_assert!(p.is_none() && q.is_none()),
            }
        }
    }

    #[test]
    fn no_output_is_ever_nan_or_infinite(games in trinomial(), pairs in pentanomial()) {
        assert_finite(&games);
        assert_finite(&pairs);
    }

    #[test]
    fn normalized_bounds_up_to_their_limit_always_have_an_llr(
        pairs in pentanomial(),
        games in trinomial(),
        elo0 in -200.0..199.0f64,
        width in 0.5..50.0f64,
    ) {
        let sprt = Sprt::normalized(elo0, (elo0 + width).min(200.0)).unwrap();
        prop_assert!(sprt.llr(&pairs).is_finite());
        prop_assert!(sprt.llr(&games).is_finite());
        let far = Sprt::logistic(elo0 * 5.0, (elo0 + width).min(200.0) * 5.0).unwrap();
        prop_assert!(far.llr(&pairs).is_finite());
    }

    #[test]
    fn the_exact_wilcoxon_p_value_is_what_counting_gives(
        differences in prop::collection::vec(-4i8..=4, 0..12),
    ) {
        let differences: Vec<f64> = differences.into_iter().map(f64::from).collect();
        let test = wilcoxon_signed_rank(&differences).unwrap();
        prop_assert_eq!(test.method, WilcoxonMethod::Exact);
        prop_assert!((test.p_value - brute_force_wilcoxon(&differences)).abs() < 1e-12);
        let n = test.n as f64;
        prop_assert!((test.w_plus + test.w_minus - n * (n + 1.0) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn paired_tests_ignore_the_direction_of_the_differences(
        differences in prop::collection::vec(-1000.0..1000.0f64, 0..60),
    ) {
        let negated: Vec<f64> = differences.iter().map(|d| -d).collect();
        let (sign, sign_negated) = (sign_test(&differences).unwrap(), sign_test(&negated).unwrap());
        prop_assert!((0.0..=1.0).contains(&sign.p_value));
        prop_assert!((sign.p_value - sign_negated.p_value).abs() < 1e-12);
        let (rank, rank_negated) =
            (wilcoxon_signed_rank(&differences).unwrap(), wilcoxon_signed_rank(&negated).unwrap());
        prop_assert!((0.0..=1.0).contains(&rank.p_value));
        prop_assert!((rank.p_value - rank_negated.p_value).abs() < 1e-12);
        prop_assert_eq!(rank.w_plus, rank_negated.w_minus);
    }
}

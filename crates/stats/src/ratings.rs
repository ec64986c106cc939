//! Ratings of several players from their pair-wise scores: the Bradley–Terry model on the
//! logistic Elo scale, fitted by maximum likelihood, with 95 % intervals from the observed
//! Fisher information.
//!
//! # The model
//!
//! Player i, rated rᵢ, scores Eᵢⱼ = 1/(1 + 10^((rⱼ − rᵢ)/400)) points per game against player
//! j ([`elo_to_score`]). Given Sᵢⱼ points of i in Nᵢⱼ games against j (a draw is half a point
//! each), the log-likelihood is Σ over pairs of Sᵢⱼ·ln Eᵢⱼ + (Nᵢⱼ − Sᵢⱼ)·ln(1 − Eᵢⱼ): each
//! game's score is read as a Bernoulli trial with draws as half wins (a quasi-likelihood: no
//! separate draw model). Its gradient is c·Σⱼ (Sᵢⱼ − Nᵢⱼ·Eᵢⱼ) with
//! c = ln 10/400; the maximum is where every player's points equal its expected points.
//!
//! **Anchoring**: only differences are identified, so the ratings are fixed to a mean of 0.
//!
//! **Virtual draws**: a player who won every game has no finite maximum. [`fit_ratings`] adds
//! `virtual_draws` drawn games to every pair that played (half a point each way), which keeps
//! every rating finite and pulls ratings towards each other by little once real games
//! outnumber them; 0 fits the data alone and refuses data without a finite maximum.
//!
//! **Intervals**: the observed Fisher information I (Iᵢᵢ = c²·Σⱼ Nᵢⱼ·Eᵢⱼ·(1 − Eᵢⱼ), Iᵢⱼ =
//! −c²·Nᵢⱼ·Eᵢⱼ·(1 − Eᵢⱼ), virtual games included) at the maximum, inverted on the ratings of
//! mean 0: the covariance is (I + J/n)⁻¹ − J/n, J the n × n matrix of ones. Each rating's
//! interval is rᵢ ± 1.96·σᵢ with σᵢ² that covariance's diagonal: the uncertainty of a rating
//! against the field's mean. It counts every game as an independent Bernoulli trial: draws
//! (which vary less than a coin flip) and pairs that cancel the seat's advantage (each seed
//! twice, seats swapped) make the true spread smaller, so the interval errs wide.

use serde::Serialize;

use crate::elo::elo_to_score;
use crate::error::StatsError;
use crate::normal::Z_95;

/// The points one player scored against another.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PairScore {
    /// The scoring player's index.
    pub player: usize,
    /// The opponent's index.
    pub opponent: usize,
    /// The player's points (a win 1, a draw ½).
    pub points: f64,
    /// The games they played.
    pub games: u64,
}

/// One player's fitted rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rating {
    /// The rating in logistic Elo, the field's mean being 0.
    pub elo: f64,
    /// Its standard error σ (from the observed Fisher information).
    pub error: f64,
    /// The 95 % interval's lower end, elo − 1.96·σ.
    pub lower: f64,
    /// The 95 % interval's upper end, elo + 1.96·σ.
    pub upper: f64,
}

/// c = ln 10/400: the derivative of a score's log-odds by the Elo difference.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// Newton steps at most; the fit converges within a few dozen.
const MAX_STEPS: usize = 200;

/// Ratings beyond this are the fit running off to infinity (data without a finite maximum).
const MAX_ELO: f64 = 4000.0;

/// Fits Bradley–Terry ratings (mean 0) to `scores` among `players` players, with
/// `virtual_draws` drawn games added to every pair that played; see the module docs.
///
/// A pair may appear in either order or several times: its points and games add up. Refused:
/// fewer than two players, a score naming a player out of range or a player against itself,
/// points outside 0 to the games, a negative or non-finite `virtual_draws`, players not
/// connected by games, and (without virtual draws) data whose maximum is at infinity.
///
/// ```
/// use botlens_stats::{PairScore, fit_ratings};
///
/// // 0 scores 75 % against 1 in 100 games: 190.8 Elo apart, ±95.4 around the mean.
/// let pair = PairScore { player: 0, opponent: 1, points: 75.0, games: 100 };
/// let ratings = fit_ratings(2, &[pair], 0.0)?;
/// assert!((ratings[0].elo - 95.4).abs() < 0.05 && (ratings[1].elo + 95.4).abs() < 0.05);
/// # Ok::<(), botlens_stats::StatsError>(())
/// ```
pub fn fit_ratings(
    players: usize,
    scores: &[PairScore],
    virtual_draws: f64,
) -> Result<Vec<Rating>, StatsError> {
    if players < 2 {
        return Err(StatsError::TooFewPlayers { players });
    }
    if !virtual_draws.is_finite() || virtual_draws < 0.0 {
        return Err(StatsError::VirtualDraws { value: virtual_draws });
    }
    // points[i][j]: i's points against j; games[i][j] = games[j][i].
    let mut points = vec![vec![0.0; players]; players];
    let mut games = vec![vec![0.0; players]; players];
    for (index, score) in scores.iter().enumerate() {
        let (i, j) = (score.player, score.opponent);
        let total = score.games as f64;
        if i >= players || j >= players || i == j {
            return Err(StatsError::BadPair { index, player: i, opponent: j, players });
        }
        if !(0.0..=total).contains(&score.points) {
            return Err(StatsError::BadPoints { index, points: score.points, games: score.games });
        }
        points[i][j] += score.points;
        points[j][i] += total - score.points;
        games[i][j] += total;
        games[j][i] += total;
    }
    for i in 0..players {
        for j in 0..players {
            if games[i][j] > 0.0 {
                points[i][j] += virtual_draws / 2.0;
                games[i][j] += virtual_draws;
            }
        }
    }
    if !connected(&games) {
        return Err(StatsError::Unconnected);
    }
    let mut ratings = vec![0.0; players];
    let mut likelihood = log_likelihood(&ratings, &points, &games);
    for _ in 0..MAX_STEPS {
        let (gradient, information) = derivatives(&ratings, &points, &games);
        // Connected players have an invertible centred information unless ratings run off.
        let step = solve(&centred(&information), &gradient).ok_or(StatsError::NoMaximum)?;
        // Newton's step, halved until the likelihood does not fall (it is concave).
        let mut scale = 1.0;
        let (next, next_likelihood) = loop {
            let next: Vec<f64> = ratings.iter().zip(&step).map(|(r, s)| r + scale * s).collect();
            let value = log_likelihood(&next, &points, &games);
            if value >= likelihood || scale < 1e-6 {
                break (next, value);
            }
            scale /= 2.0;
        };
        let moved = ratings.iter().zip(&next).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        (ratings, likelihood) = (next, next_likelihood);
        if ratings.iter().any(|r| r.abs() > MAX_ELO) {
            return Err(StatsError::NoMaximum);
        }
        if moved < 1e-9 {
            let (_, information) = derivatives(&ratings, &points, &games);
            let covariance = covariance(&information).ok_or(StatsError::NoMaximum)?;
            return Ok(ratings
                .iter()
                .enumerate()
                .map(|(i, &elo)| {
                    let error = covariance[i][i].max(0.0).sqrt();
                    let elo = elo + 0.0;
                    Rating { elo, error, lower: elo - Z_95 * error, upper: elo + Z_95 * error }
                })
                .collect());
        }
    }
    Err(StatsError::NoMaximum)
}

/// Whether every player is reached from player 0 through pairs that played.
fn connected(games: &[Vec<f64>]) -> bool {
    let mut seen = vec![false; games.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for (j, &n) in games[i].iter().enumerate() {
            if n > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().all(|&s| s)
}

/// The log-likelihood of `ratings` (each pair counted once).
fn log_likelihood(ratings: &[f64], points: &[Vec<f64>], games: &[Vec<f64>]) -> f64 {
    let mut sum = 0.0;
    for i in 0..ratings.len() {
        for j in i + 1..ratings.len() {
            if games[i][j] > 0.0 {
                let e = elo_to_score(ratings[i] - ratings[j]);
                sum += points[i][j] * e.ln() + points[j][i] * (1.0 - e).ln();
            }
        }
    }
    sum
}

/// The gradient of the log-likelihood and the observed Fisher information at `ratings`.
fn derivatives(
    ratings: &[f64],
    points: &[Vec<f64>],
    games: &[Vec<f64>],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = ratings.len();
    let mut gradient = vec![0.0; n];
    let mut information = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                let e = elo_to_score(ratings[i] - ratings[j]);
                gradient[i] += C * (points[i][j] - games[i][j] * e);
                let w = C * C * games[i][j] * e * (1.0 - e);
                information[i][i] += w;
                information[i][j] -= w;
            }
        }
    }
    (gradient, information)
}

/// I + J/n: the information made invertible on ratings of mean 0 (its inverse keeps steps
/// and covariances of sum 0 when the gradient sums to 0).
fn centred(information: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = information.len() as f64;
    information.iter().map(|row| row.iter().map(|x| x + 1.0 / n).collect()).collect()
}

/// The covariance of ratings of mean 0: (I + J/n)⁻¹ − J/n.
fn covariance(information: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = information.len();
    let centred = centred(information);
    let columns: Option<Vec<Vec<f64>>> = (0..n)
        .map(|k| solve(&centred, &(0..n).map(|i| f64::from(u8::from(i == k))).collect::<Vec<_>>()))
        .collect();
    let columns = columns?;
    Some((0..n).map(|i| (0..n).map(|j| columns[j][i] - 1.0 / n as f64).collect()).collect())
}

/// x with A·x = b, by Gaussian elimination with partial pivoting; `None` when A is singular.
fn solve(matrix: &[Vec<f64>], rhs: &[f64]) -> Option<Vec<f64>> {
    let n = rhs.len();
    let mut a: Vec<Vec<f64>> =
        matrix.iter().zip(rhs).map(|(row, &b)| row.iter().copied().chain([b]).collect()).collect();
    for column in 0..n {
        let pivot =
            (column..n).max_by(|&x, &y| a[x][column].abs().total_cmp(&a[y][column].abs()))?;
        if a[pivot][column].abs() < 1e-300 {
            return None;
        }
        a.swap(column, pivot);
        let pivot_row = a[column].clone();
        for (index, row) in a.iter_mut().enumerate() {
            if index != column {
                let factor = row[column] / pivot_row[column];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(column) {
                    *x -= factor * p;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(player: usize, opponent: usize, points: f64, games: u64) -> PairScore {
        PairScore { player, opponent, points, games }
    }

    #[test]
    fn three_players_in_a_consistent_chain_get_their_exact_ratings() {
        // 0 scores 75 % against 1 and 1 75 % against 2: 190.85 Elo apart each
        // (−400·log₁₀(1/0.75 − 1)), so 0 is 381.70 above 2 and expected to score
        // 1/(1 + 10^(−381.70/400)) = 0.9 against it, as it does. Every player's points are
        // its expected points: the maximum is at +190.85, 0, −190.85 (mean 0).
        let scores = [pair(0, 1, 7.5, 10), pair(1, 2, 7.5, 10), pair(2, 0, 1.0, 10)];
        let ratings = fit_ratings(3, &scores, 0.0).unwrap();
        for (rating, expected) in ratings.iter().zip([190.85, 0.0, -190.85]) {
            assert!((rating.elo - expected).abs() < 0.01, "{ratings:?}");
        }
        // The middle player's variance: with w = 10·c²·E(1 − E) per pair (E(1 − E) = 0.1875,
        // 0.1875 and 0.09), the information is 10·c²·[[.2775, −.1875, −.09], [−.1875, .375,
        // −.1875], [−.09, −.1875, .2775]]. Its inverse on ratings of mean 0, applied to
        // (−⅓, ⅔, −⅓), is a·(1, −2, 1) (by symmetry) with 10·c²·a·0.5625 = −⅓, so
        // σ² = −2a = 2/(3·10·c²·0.5625) = 3576.6 and σ = 59.80.
        assert!((ratings[1].error - 59.80).abs() < 0.01, "{ratings:?}");
        assert!((ratings[0].error - ratings[2].error).abs() < 1e-9);
        assert!((ratings[1].upper - Z_95 * 59.80).abs() < 0.05);
    }

    #[test]
    fn two_players_reproduce_the_elo_difference_and_its_error() {
        // 100 games at 75 %: 190.85 Elo apart. The difference's standard error is
        // 1/(c·√(N·s(1 − s))) = 1/(0.0057565·4.3301) = 40.12, each rating's (against the mean
        // of the two) half of it, 20.06.
        let ratings = fit_ratings(2, &[pair(1, 0, 25.0, 100)], 0.0).unwrap();
        assert!((ratings[0].elo - 95.42).abs() < 0.01 && (ratings[1].elo + 95.42).abs() < 0.01);
        assert!((ratings[0].error - 20.06).abs() < 0.01, "{ratings:?}");
    }

    #[test]
    fn a_clean_sweep_needs_virtual_draws_to_stay_finite() {
        let sweep = [pair(0, 1, 10.0, 10), pair(1, 2, 5.0, 10), pair(0, 2, 10.0, 10)];
        assert_eq!(fit_ratings(3, &sweep, 0.0), Err(StatsError::NoMaximum));
        let ratings = fit_ratings(3, &sweep, 1.0).unwrap();
        assert!(ratings[0].elo > 300.0 && ratings[0].elo.is_finite(), "{ratings:?}");
        assert!((ratings[1].elo - ratings[2].elo).abs() < 1e-6, "1 and 2 drew level");
        let sum: f64 = ratings.iter().map(|r| r.elo).sum();
        assert!(sum.abs() < 1e-9, "anchored at mean 0: {sum}");
    }

    #[test]
    fn bad_input_is_refused() {
        assert_eq!(fit_ratings(1, &[], 1.0), Err(StatsError::TooFewPlayers { players: 1 }));
        assert!(matches!(
            fit_ratings(2, &[pair(0, 2, 1.0, 2)], 1.0),
            Err(StatsError::BadPair { index: 0, .. })
        ));
        assert!(matches!(
            fit_ratings(2, &[pair(1, 1, 1.0, 2)], 1.0),
            Err(StatsError::BadPair { .. })
        ));
        assert!(fit_ratings(2, &[pair(0, 1, 3.0, 2)], 1.0).is_err());
        assert_eq!(
            fit_ratings(3, &[pair(0, 1, 1.0, 2)], 1.0),
            Err(StatsError::Unconnected),
            "2 played nobody"
        );
    }

    /// SplitMix64: a tiny seeded generator.
    fn uniform(state: &mut u64) -> f64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn a_seeded_simulation_recovers_known_ratings_within_their_intervals() {
        // Four players with known ratings (mean 0), 2,000 games a pair, a fifth of them drawn.
        let truth = [150.0, 50.0, -60.0, -140.0];
        let mut state = 15;
        let mut scores = Vec::new();
        for i in 0..truth.len() {
            for j in i + 1..truth.len() {
                let win = elo_to_score(truth[i] - truth[j]) - 0.1;
                let mut points = 0.0;
                for _ in 0..2000 {
                    let u = uniform(&mut state);
                    points += if u < win {
                        1.0
                    } else if u < win + 0.2 {
                        0.5
                    } else {
                        0.0
                    };
                }
                scores.push(pair(i, j, points, 2000));
            }
        }
        let ratings = fit_ratings(truth.len(), &scores, 1.0).unwrap();
        for (rating, truth) in ratings.iter().zip(truth) {
            assert!(rating.error > 3.0 && rating.error < 10.0, "{rating:?}");
            assert!((rating.elo - truth).abs() < 3.0 * rating.error, "{rating:?} vs {truth}");
        }
    }
}

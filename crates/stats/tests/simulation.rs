//! The SPRT keeps its promises: over many simulated tests with a known true Elo difference, H1
//! is accepted at about α when the truth is `elo0` and H0 at about β when it is `elo1`, for
//! paired head-to-head games (a pentanomial) and for two players compared through a common
//! opponent (differences). Seeded and deterministic: the same figures on every run.

use botlens_stats::{Differences, GameResult, Pentanomial, Sprt, Tally, Verdict, elo_to_score};

/// SplitMix64: a tiny seeded generator, so the simulation needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A game won with probability `win` and drawn with probability `draw`.
    fn game(&mut self, win: f64, draw: f64) -> GameResult {
        let u = self.next();
        if u < win {
            GameResult::Win
        } else if u < win + draw {
            GameResult::Draw
        } else {
            GameResult::Loss
        }
    }
}

/// The bounds of every simulated test: wide, so each test ends within a few thousand games.
const ELO0: f64 = 0.0;
const ELO1: f64 = 30.0;
/// Tests per scenario.
const TESTS: u32 = 400;
/// Units added between two looks at the LLR, as `botlens compare` plays batches.
const BATCH: u32 = 10;
/// Draws per game: some, as in Tic-tac-toe between good bots.
const DRAW: f64 = 0.2;

/// Win probability of a player `elo` above its opponent when draws come `DRAW` of the time:
/// its expected score E(elo) = win + DRAW/2.
fn win_probability(elo: f64) -> f64 {
    elo_to_score(elo) - DRAW / 2.0
}

/// Runs `TESTS` SPRTs of units from `unit`, returning how often each verdict came and the mean
/// number of games a side.
fn simulate<T: Tally + Clone>(
    empty: T,
    seed: u64,
    mut unit: impl FnMut(&mut T, &mut Rng),
) -> (f64, f64, f64) {
    let sprt = Sprt::logistic(ELO0, ELO1).unwrap();
    let mut rng = Rng(seed);
    let (mut h0, mut h1, mut games) = (0u32, 0u32, 0u64);
    for _ in 0..TESTS {
        let mut tally = empty.clone();
        let verdict = loop {
            for _ in 0..BATCH {
                unit(&mut tally, &mut rng);
            }
            let verdict = sprt.test(&tally).verdict;
            if verdict != Verdict::Continue {
                break verdict;
            }
        };
        games += tally.games();
        match verdict {
            Verdict::H0Accepted => h0 += 1,
            _ => h1 += 1,
        }
    }
    let rate = |n: u32| f64::from(n) / f64::from(TESTS);
    (rate(h0), rate(h1), games as f64 / f64::from(TESTS))
}

/// Paired games between A and B, `elo` apart.
fn head_to_head(elo: f64, seed: u64) -> (f64, f64, f64) {
    let win = win_probability(elo);
    simulate(Pentanomial::default(), seed, |pairs, rng| {
        let (first, second) = (rng.game(win, DRAW), rng.game(win, DRAW));
        pairs.record(first, second);
    })
}

/// A and B, `elo` apart, each `elo`/2 from a common opponent, one game a side per unit.
fn through_an_opponent(elo: f64, seed: u64) -> (f64, f64, f64) {
    let (win_a, win_b) = (win_probability(elo / 2.0), win_probability(-elo / 2.0));
    simulate(Differences::of_games(), seed, |units, rng| {
        let (a, b) = (rng.game(win_a, DRAW), rng.game(win_b, DRAW));
        units.record(&[a], &[b]);
    })
}

/// The error rates come out near the nominal 5 %: within 3.5 percentage points (the standard
/// error of a rate near 5 % over 400 tests is 1.1 points; looking only every few units makes
/// the real rates a little lower than nominal, never higher).
fn assert_near_nominal(rate: f64, what: &str) {
    assert!(rate <= 0.085, "{what}: {rate}");
    assert!(rate >= 0.015, "{what}: {rate} is far below nominal: is the test too cautious?");
}

#[test]
fn head_to_head_error_rates_are_alpha_and_beta() {
    let (_, false_positive, games_at_0) = head_to_head(ELO0, 1);
    let (false_negative, _, games_at_1) = head_to_head(ELO1, 2);
    assert_near_nominal(false_positive, "H1 accepted at elo0");
    assert_near_nominal(false_negative, "H0 accepted at elo1");
    // Halfway between the bounds the test takes longest; at either bound it stops sooner.
    let (_, _, games_between) = head_to_head((ELO0 + ELO1) / 2.0, 3);
    assert!(games_between > games_at_0 && games_between > games_at_1);
}

#[test]
fn comparisons_through_an_opponent_keep_alpha_and_beta() {
    let (_, false_positive, _) = through_an_opponent(ELO0, 4);
    let (false_negative, _, _) = through_an_opponent(ELO1, 5);
    assert_near_nominal(false_positive, "H1 accepted at elo0");
    assert_near_nominal(false_negative, "H0 accepted at elo1");
    // Far beyond the bounds the verdict is all but certain.
    let (weaker, _, _) = through_an_opponent(-60.0, 6);
    let (_, stronger, _) = through_an_opponent(90.0, 7);
    assert!(weaker > 0.99 && stronger > 0.99, "{weaker} {stronger}");
}

//! Game results and the tallies they add up to: a trinomial tally (wins, losses, draws) for
//! unpaired games and a pentanomial tally for paired ones, each with its Elo estimate and LOS.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::elo::{EloEstimate, Los};
use crate::format::fixed;
use crate::normalized::NormalizedElo;
use crate::sample::{GAME_POINTS, PAIR_POINTS, Sample};

/// The result of one game from A's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// A won: 1 point.
    Win,
    /// A drew: ½ point.
    Draw,
    /// A lost: 0 points.
    Loss,
}

impl GameResult {
    /// A's points: 1, ½ or 0.
    pub fn points(self) -> f64 {
        f64::from(self.half_points()) / 2.0
    }

    /// The same game from B's point of view.
    pub fn flipped(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }

    /// A's points doubled: 2, 1 or 0.
    pub(crate) fn half_points(self) -> u8 {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }
}

/// What every kind of tally answers. Sealed: implemented by [`Trinomial`], [`Pentanomial`] and
/// [`Differences`](crate::Differences) only, so that code generic over a tally (an SPRT, a
/// report) takes any of them.
pub trait Tally: sealed::Sealed {
    /// The games played.
    fn games(&self) -> u64;

    /// The score s, A's mean points per game; `None` without games.
    fn score(&self) -> Option<f64> {
        let sample = self.sample();
        (sample.total() > 0.0).then(|| sample.mean())
    }

    /// The logistic Elo difference of A over B with its 95 % interval (see [`EloEstimate`] and
    /// [`crate::EloInterval`] for the formula). The variance behind the interval is that of one
    /// sample: of a game for a [`Trinomial`], of a game pair for a [`Pentanomial`].
    ///
    /// ```
    /// use botlens_stats::{EloEstimate, Pentanomial, Tally, Trinomial};
    ///
    /// let pairs = Pentanomial::new([4, 3, 34, 42, 117]);
    /// assert_eq!(pairs.elo().to_string(), "Elo difference: 277.0 ± 40.9 (95%)");
    /// assert_eq!(Trinomial::new(30, 0, 0).elo(), EloEstimate::AllWon { games: 30 });
    /// ```
    fn elo(&self) -> EloEstimate {
        EloEstimate::of(&self.sample(), self.games())
    }

    /// The normalized Elo difference of A over B with its 95 % interval, fishtest's default
    /// scale (see [`NormalizedElo`] for the formula).
    ///
    /// ```
    /// use botlens_stats::{Pentanomial, Tally};
    ///
    /// let pairs = Pentanomial::new([4, 3, 34, 42, 117]);
    /// assert_eq!(pairs.normalized_elo().to_string(), "nElo: 345.2 ± 73.3 (95%)");
    /// ```
    fn normalized_elo(&self) -> NormalizedElo {
        NormalizedElo::of(&self.sample(), self.games())
    }

    /// The likelihood of superiority of A over B.
    fn los(&self) -> Los;
}

/// The sample behind `tally`, for the crate's own statistics.
pub(crate) fn sample_of(tally: &impl Tally) -> Sample {
    tally.sample()
}

pub(crate) mod sealed {
    /// Gives a tally's counts as a [`Sample`](crate::sample::Sample); private, which seals
    /// [`Tally`](super::Tally).
    pub trait Sealed {
        fn sample(&self) -> crate::sample::Sample;
    }
}

/// A tally of unpaired games: A's wins, losses and draws.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Trinomial {
    /// Games A won.
    pub wins: u64,
    /// Games A lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
}

impl Trinomial {
    /// A tally of `wins`, `losses` and `draws`, in cutechess-cli's order.
    pub fn new(wins: u64, losses: u64, draws: u64) -> Trinomial {
        Trinomial { wins, losses, draws }
    }

    /// Counts one more game.
    pub fn record(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// A's points: W + D/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The same games from B's point of view: wins and losses swapped.
    pub fn swapped(&self) -> Trinomial {
        Trinomial { wins: self.losses, losses: self.wins, draws: self.draws }
    }

    /// The share of games drawn (cutechess-cli's `DrawRatio`); `None` without games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.draws as f64 / games as f64)
    }

    /// The cutechess-cli line for this tally, A named `a` and B `b`:
    /// `Score of a vs b: 34 - 21 - 45  [0.565] 100` (W − L − D, the score to three decimals,
    /// the games; `[none]` for the score without games).
    ///
    /// ```
    /// use botlens_stats::Trinomial;
    ///
    /// let line = Trinomial::new(34, 21, 45).score_line("new", "old").to_string();
    /// assert_eq!(line, "Score of new vs old: 34 - 21 - 45  [0.565] 100");
    /// ```
    pub fn score_line<'a>(&'a self, a: &'a str, b: &'a str) -> ScoreLine<'a> {
        ScoreLine { tally: self, a, b }
    }
}

impl Tally for Trinomial {
    fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Φ((W − L)/√(W + L)), the conventional LOS of unpaired games (cutechess-cli's): draws
    /// carry no information about who is stronger; ½ without a decisive game, `None` below
    /// [`MIN_SAMPLES`](crate::MIN_SAMPLES) games.
    ///
    /// ```
    /// use botlens_stats::{Tally, Trinomial};
    ///
    /// let los = Trinomial::new(136, 96, 111).los();
    /// assert_eq!(los.to_string(), "LOS: 99.6 %");
    /// ```
    fn los(&self) -> Los {
        Los::from_wins_and_losses(self.wins, self.losses, self.draws)
    }
}

impl sealed::Sealed for Trinomial {
    fn sample(&self) -> Sample {
        Sample::new(&GAME_POINTS, &[self.losses, self.draws, self.wins], 1.0)
    }
}

/// cutechess-cli's score line; see [`Trinomial::score_line`].
#[derive(Debug, Clone, Copy)]
pub struct ScoreLine<'a> {
    tally: &'a Trinomial,
    a: &'a str,
    b: &'a str,
}

impl fmt::Display for ScoreLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Trinomial { wins, losses, draws } = *self.tally;
        let score = self.tally.score().map_or("none".to_owned(), |s| fixed(s, 3));
        let games = self.tally.games();
        write!(
            f,
            "Score of {} vs {}: {wins} - {losses} - {draws}  [{score}] {games}",
            self.a, self.b
        )
    }
}

/// A tally of game pairs. A pair is one seed played twice with the seats swapped; it scores
/// A 0, ½, 1, 1½ or 2 points, and the tally counts pairs by that total, as fishtest's
/// pentanomial does: `[LL, LD+DL, LW+WL+DD, DW+WD, WW]`.
///
/// Pairing pays off through the variance: the two games of a pair share their seed, so their
/// results are correlated, and the variance of a pair's score is smaller than two independent
/// games would give. The Elo interval and the LOS of this tally use that per-pair variance.
///
/// ```
/// use botlens_stats::{GameResult::*, Pentanomial, Tally};
///
/// let mut pairs = Pentanomial::default();
/// pairs.record(Win, Draw);
/// pairs.record(Loss, Win);
/// assert_eq!(pairs.to_string(), "Ptnml(0-2): [0, 0, 1, 1, 0]");
/// assert_eq!(pairs.games(), 4);
/// assert_eq!(pairs.score(), Some(0.625));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Pentanomial {
    /// Pairs by A's points in the pair, 0, ½, 1, 1½, 2: `[LL, LD+DL, LW+WL+DD, DW+WD, WW]`.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// A tally of `counts`, pairs by A's points in the pair (0, ½, 1, 1½, 2).
    pub fn new(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Counts one more pair: A's results in its two games, in either order.
    pub fn record(&mut self, first: GameResult, second: GameResult) {
        self.counts[usize::from(first.half_points() + second.half_points())] += 1;
    }

    /// The pairs played.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The same pairs from B's point of view: the counts reversed.
    pub fn swapped(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }
}

impl Tally for Pentanomial {
    fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Φ((s − ½)/(σ/√N)) with σ² the variance of a pair's score and N the pairs, as fishtest
    /// and fastchess compute it (every empty outcome counted 10⁻³). `None` below
    /// [`MIN_SAMPLES`](crate::MIN_SAMPLES) pairs.
    fn los(&self) -> Los {
        Los::from_sample(&sample_of(self))
    }
}

impl sealed::Sealed for Pentanomial {
    fn sample(&self) -> Sample {
        Sample::new(&PAIR_POINTS, &self.counts, 2.0)
    }
}

/// Prints fastchess's line, `Ptnml(0-2): [1, 10, 20, 15, 4]`.
impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.counts;
        write!(f, "Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::EloInterval;
    use crate::normalized::NormalizedElo;

    /// The estimate's Elo and ± half-width, failing on any other variant.
    fn elo_and_margin(tally: &impl Tally) -> (f64, f64) {
        match tally.elo() {
            EloEstimate::Estimate(interval @ EloInterval { elo, .. }) => {
                (elo, interval.plus_minus().expect("a bounded interval"))
            }
            other => panic!("no finite estimate: {other:?}"),
        }
    }

    fn assert_near(actual: f64, expected: f64, within: f64, what: &str) {
        assert!((actual - expected).abs() <= within, "{what}: {actual}, expected {expected}");
    }

    #[test]
    fn trinomial_elo_and_los_match_cutechess_output() {
        // cutechess-cli's own lines for two matches (a chess engine's published test log):
        // "Score of AntaresCpp0.06 vs AntaresCpp0.05: 39 - 25 - 136 [0.535]" with
        // "Elo difference: 24.4 +/- 27.2, LOS: 96.0 %", and "Lynx0.11.0 vs SebLagueEngine:
        // 41 - 48 - 11" with "Elo difference: -24.4 +/- 65.0, LOS: 22.9 %". (cutechess-cli
        // approximates Φ⁻¹(0.975), so its ± can differ from the exact one in the last digit:
        // 65.1 here against its 65.0.)
        let antares = Trinomial::new(39, 25, 136);
        let (elo, margin) = elo_and_margin(&antares);
        assert_near(elo, 24.4, 0.05, "Elo");
        assert_near(margin, 27.2, 0.05, "±");
        assert_eq!(antares.los().to_string(), "LOS: 96.0 %");
        let lynx = Trinomial::new(41, 48, 11);
        assert_near(lynx.elo().elo().unwrap(), -24.4, 0.05, "Elo");
        assert_eq!(lynx.los().to_string(), "LOS: 22.9 %");
    }

    #[test]
    fn trinomial_elo_matches_fastchess_unit_tests() {
        // fastchess's tests of its WDL Elo model: 136 wins, 96 losses, 111 draws give
        // 40.70 ± 30.43 (its LOS, 99.60 %, comes from the score's variance; this crate's
        // trinomial LOS is the conventional Φ((W − L)/√(W + L)) = 99.57 %).
        let games = Trinomial::new(136, 96, 111);
        let (elo, margin) = elo_and_margin(&games);
        assert_near(elo, 40.70, 0.005, "Elo");
        assert_near(margin, 30.43, 0.005, "±");
        assert_near(games.los().0.unwrap(), 0.995_68, 0.000_01, "LOS");
    }

    #[test]
    fn pentanomial_elo_and_los_match_fastchess() {
        // fastchess's tests of its pentanomial Elo model, [LL, LD, WL+DD, WD, WW] with its
        // Elo, ± and LOS; and fastchess output quoted on Chess Stack Exchange ("Meaning of
        // output from fast-chess engine testing suite"): Ptnml(0-2): [4, 3, 34, 42, 117],
        // "Elo: 277.00 +/- 40.90", "LOS: 100.00 %".
        let cases = [
            ([34, 54, 63, 64, 75], 55.58, 27.65, Some(100.00)),
            ([332, 433, 498, 333, 334], -8.64, 10.33, Some(5.05)),
            ([7895, 8757, 5685, 568, 9999], -21.04, 2.95, None),
            ([4, 3, 34, 42, 117], 277.00, 40.90, Some(100.00)),
        ];
        for (counts, expected_elo, expected_margin, expected_los) in cases {
            let pairs = Pentanomial::new(counts);
            let (elo, margin) = elo_and_margin(&pairs);
            assert_near(elo, expected_elo, 0.005, &format!("Elo of {counts:?}"));
            assert_near(margin, expected_margin, 0.005, &format!("± of {counts:?}"));
            if let Some(los) = expected_los {
                assert_near(100.0 * pairs.los().0.unwrap(), los, 0.005, "LOS");
            }
        }
    }

    #[test]
    fn pairing_narrows_the_interval_when_the_pair_games_agree() {
        // The same 400 games, 200 won and 200 lost. Unpaired, each game varies by ½ around the
        // mean: s = ½ ± 1.96·0.5/√400 = ½ ± 0.049, ±34.2 Elo. Paired so that each pair split
        // 1–1, the pairs vary only by the 10⁻³ counted for each empty outcome: fishtest's
        // ±0.170 Elo.
        let (_, unpaired) = elo_and_margin(&Trinomial::new(200, 200, 0));
        let (_, paired) = elo_and_margin(&Pentanomial::new([0, 0, 200, 0, 0]));
        assert_near(unpaired, 34.16, 0.005, "unpaired ±");
        assert_near(paired, 0.170_236_917_528_477, 1e-12, "paired ±");
        // Paired so that every pair is WW or LL, the pairs vary as much as the games: wider.
        let (_, extreme) = elo_and_margin(&Pentanomial::new([100, 0, 0, 0, 100]));
        assert!(extreme > unpaired, "{extreme} against {unpaired}");
    }

    #[test]
    fn the_edges_have_no_number_and_say_why() {
        let none = Trinomial::default();
        assert_eq!(none.elo(), EloEstimate::NoGames);
        assert_eq!(none.normalized_elo(), NormalizedElo::NoGames);
        assert_eq!(none.score(), None);
        assert_eq!(none.los().0, None);
        assert_eq!(none.draw_ratio(), None);
        assert_eq!(none.elo().to_string(), "Elo difference: none (no games)");
        assert_eq!(none.score_line("A", "B").to_string(), "Score of A vs B: 0 - 0 - 0  [none] 0");

        let all_won = Trinomial::new(20, 0, 0);
        assert_eq!(all_won.elo(), EloEstimate::AllWon { games: 20 });
        assert_eq!(all_won.normalized_elo(), NormalizedElo::AllWon { games: 20 });
        assert_eq!(all_won.elo().to_string(), "Elo difference: +inf (all 20 games won)");
        assert_eq!(all_won.normalized_elo().to_string(), "nElo: +inf (all 20 games won)");
        // Φ(20/√20) = Φ(4.472) = 0.999996.
        assert_near(all_won.los().0.unwrap(), 0.999_996_1, 0.000_000_1, "LOS");
        let all_lost = all_won.swapped();
        assert_eq!(all_lost.elo().to_string(), "Elo difference: -inf (all 20 games lost)");

        let pairs_won = Pentanomial::new([0, 0, 0, 0, 20]);
        assert_eq!(pairs_won.elo(), EloEstimate::AllWon { games: 40 });
        assert_eq!(pairs_won.los().0, Some(1.0));
        assert_eq!(Pentanomial::default().elo(), EloEstimate::NoGames);
        assert_eq!(Pentanomial::default().los().0, None);

        // A few pairs: too few games for any figure.
        let few = Pentanomial::new([0, 0, 0, 1, 0]);
        assert_eq!(few.elo(), EloEstimate::TooFewGames { games: 2, needed: 40 });
        assert_eq!(few.normalized_elo(), NormalizedElo::TooFewGames { games: 2, needed: 40 });
        assert_eq!(
            few.normalized_elo().to_string(),
            "nElo: none (too few games: 2, at least 40 needed)"
        );
        assert_eq!(few.los().to_string(), "LOS: none (too few games)");

        // All draws: a score of exactly ½ whose spread is the empty outcomes' 10⁻³ alone;
        // no decisive game, so an even LOS.
        let draws = Trinomial::new(0, 0, 24);
        assert_eq!(draws.elo().to_string(), "Elo difference: 0.0 ± 1.3 (95%)");
        assert_eq!(draws.los().to_string(), "LOS: 50.0 %");
        assert_eq!(draws.draw_ratio(), Some(1.0));
    }

    #[test]
    fn normalized_elo_matches_fishtests_formula() {
        // (tally, nElo, ±) from fishtest's own formulas (`template_helpers`: the t-value of the
        // regularized sample, its delta-method variance 1 − t·γ₁ + t²(γ₂ + 2)/4, scaled by
        // 800/ln 10, over √2 for pairs), run on fishtest's code with SciPy 1.17.
        let pairs: [([u64; 5], f64, f64); 6] = [
            ([0, 3, 10, 20, 7], 231.800_753_963_997_75, 100.291_943_701_515_44),
            ([0, 0, 200, 0, 0], 0.0, 34.047_721_253_084_07),
            ([1, 10, 20, 15, 4], 58.568_507_209_702_56, 68.763_749_512_381_71),
            ([4, 3, 34, 42, 117], 345.169_743_661_612_76, 73.260_576_819_023_24),
            ([0, 1, 19, 0, 0], -56.032_963_548_075_514, 59.036_980_040_740_81),
            ([292, 5905, 28939, 6129, 299], 2.390_270_543_259_008, 2.361_878_635_192_274_7),
        ];
        for (counts, nelo, plus_minus) in pairs {
            let NormalizedElo::Estimate { nelo: n, plus_minus: pm } =
                Pentanomial::new(counts).normalized_elo()
            else {
                panic!("no estimate of {counts:?}")
            };
            assert_near(n, nelo, 1e-9 * nelo.abs().max(1.0), &format!("nElo of {counts:?}"));
            assert_near(pm, plus_minus, 1e-9 * plus_minus, &format!("± of {counts:?}"));
        }
        let games = [
            (Trinomial::new(136, 96, 111), 49.768_415_381_022_194, 37.384_511_401_589_3),
            (Trinomial::new(39, 25, 136), 43.325_954_243_416_014, 48.290_246_292_196_75),
        ];
        for (tally, nelo, plus_minus) in games {
            let NormalizedElo::Estimate { nelo: n, plus_minus: pm } = tally.normalized_elo() else {
                panic!("no estimate of {tally:?}")
            };
            assert_near(n, nelo, 1e-9 * nelo, &format!("nElo of {tally:?}"));
            assert_near(pm, plus_minus, 1e-9 * plus_minus, &format!("± of {tally:?}"));
        }
    }

    #[test]
    fn unpaired_games_give_fishtests_elo_and_elo95() {
        // fishtest's `get_elo([L, D, W])`: Elo and elo95 (its LOS of unpaired games is not
        // cutechess-cli's, which this tally keeps).
        for (games, elo, elo95) in [
            (Trinomial::new(136, 96, 111), 40.702_458_186_527_075, 30.427_217_943_600_99),
            (Trinomial::new(39, 25, 136), 24.360_331_652_509_81, 27.218_560_777_752_867),
            (Trinomial::new(19, 0, 1), 636.078_754_198_109, 379.033_607_276_755_1),
            (Trinomial::new(17, 3, 0), 301.307_225_382_173_4, 528.991_538_204_206_6),
        ] {
            let EloEstimate::Estimate(interval) = games.elo() else { panic!("{games:?}") };
            assert_near(interval.elo, elo, 1e-9 * elo, &format!("Elo of {games:?}"));
            assert_near(interval.margin, elo95, 1e-9 * elo95, &format!("elo95 of {games:?}"));
        }
    }

    /// Asserts that `swapped` (the same games from B's side) has the negated estimate, the
    /// interval mirrored, and the complementary LOS.
    fn assert_mirrored(original: &impl Tally, swapped: &impl Tally) {
        let (EloEstimate::Estimate(a), EloEstimate::Estimate(b)) = (original.elo(), swapped.elo())
        else {
            panic!("finite estimates expected");
        };
        assert!((a.elo + b.elo).abs() < 1e-9, "{a:?} {b:?}");
        assert!((a.lower.unwrap() + b.upper.unwrap()).abs() < 1e-9, "{a:?} {b:?}");
        assert!((a.upper.unwrap() + b.lower.unwrap()).abs() < 1e-9, "{a:?} {b:?}");
        let (Los(Some(p)), Los(Some(q))) = (original.los(), swapped.los()) else {
            panic!("LOS expected");
        };
        assert!((p + q - 1.0).abs() < 1e-12, "{p} {q}");
    }

    #[test]
    fn swapping_a_and_b_negates_elo_and_mirrors_los() {
        let games = Trinomial::new(34, 21, 45);
        assert_mirrored(&games, &games.swapped());
        let pairs = Pentanomial::new([1, 10, 20, 15, 4]);
        assert_mirrored(&pairs, &pairs.swapped());
    }

    #[test]
    fn results_add_up_into_the_tallies_and_print_as_testers_read_them() {
        let mut games = Trinomial::default();
        let mut pairs = Pentanomial::default();
        use GameResult::{Draw, Loss, Win};
        for (first, second) in [(Win, Win), (Win, Draw), (Draw, Win), (Loss, Win), (Draw, Draw)] {
            games.record(first);
            games.record(second);
            pairs.record(first, second);
        }
        assert_eq!(games, Trinomial::new(5, 1, 4));
        assert_eq!(games.points(), 7.0);
        assert_eq!(pairs.counts, [0, 0, 2, 2, 1]);
        assert_eq!(pairs.pairs(), 5);
        assert_eq!((games.score(), pairs.score()), (Some(0.7), Some(0.7)));
        assert_eq!(pairs.to_string(), "Ptnml(0-2): [0, 0, 2, 2, 1]");
        assert_eq!(pairs.swapped().counts, [1, 2, 2, 0, 0]);
        assert_eq!(
            Trinomial::new(34, 21, 45).score_line("A", "B").to_string(),
            "Score of A vs B: 34 - 21 - 45  [0.565] 100"
        );
        assert_eq!([Win, Draw, Loss].map(GameResult::points), [1.0, 0.5, 0.0]);
        assert_eq!([Win, Draw, Loss].map(GameResult::flipped), [Loss, Draw, Win]);
    }

    #[test]
    fn tallies_serialize_as_fishtest_stores_them() {
        let json = serde_json::to_string(&Pentanomial::new([1, 10, 20, 15, 4])).unwrap();
        assert_eq!(json, "[1,10,20,15,4]");
        let json = serde_json::to_string(&Trinomial::new(3, 2, 1)).unwrap();
        assert_eq!(json, r#"{"wins":3,"losses":2,"draws":1}"#);
        let back: Trinomial = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Trinomial::new(3, 2, 1));
        let estimate = serde_json::to_value(Trinomial::new(0, 0, 0).elo()).unwrap();
        assert_eq!(estimate, serde_json::json!({"kind": "no_games"}));
        let estimate = serde_json::to_value(Trinomial::new(19, 0, 1).elo()).unwrap();
        assert_eq!(estimate["kind"], "estimate");
        assert_eq!(estimate["upper"], serde_json::Value::Null);
        assert!(estimate["lower"].as_f64().unwrap() > 300.0);
        assert!(estimate["margin"].as_f64().unwrap() > 300.0);
        let few = serde_json::to_value(Trinomial::new(2, 1, 0).elo()).unwrap();
        assert_eq!(few, serde_json::json!({"kind": "too_few_games", "games": 3, "needed": 20}));
    }
}

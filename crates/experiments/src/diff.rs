//! `botlens diff A B`: where do two builds' games part? Both play the same opponent on the
//! same seed in the same seat; games are deterministic, so they are equal move for move until
//! the bots choose differently. This finds that first divergent move.
//!
//! - One seed ([`diff_game`]): both moves there, the board before it (the game's own text
//!   rendering), each side's log lines on that move, and how each game ended.
//! - Many seeds ([`diff_seeds`]): how many games diverge at each move (a histogram), and which
//!   divergences changed the result (won → lost, …), with the first seeds of each.
//!
//! The games are played through the harness's suites, keeping their traces, in batches of
//! [`BATCH_SEEDS`] seeds: each batch's traces are compared game by game and dropped, so memory
//! stays flat however many seeds are asked for. The figures depend only on the bots, the
//! opponent, the seat and the seeds, never on the number of worker threads.
//!
//! # JSON (`botlens diff --json`)
//!
//! One seed ([`GameDiff`]):
//!
//! | field | meaning |
//! |---|---|
//! | `a`, `b` | the two bots as named |
//! | `opponent`, `seat`, `seed` | the game both played |
//! | `divergence` | null when the games are the same move for move; else `index` (the move, 1-based, every seat's counted), `board` (before it, the game's text rendering), `a` and `b` (each side's move, null when its game had ended: `seat`, `action`, `logs[]`) |
//! | `a_ending`, `b_ending` | how each game ended: `result` (`win`, `loss`, `draw`), `moves`, `reason` |
//!
//! Many seeds ([`SeedsDiff`]):
//!
//! | field | meaning |
//! |---|---|
//! | `a`, `b`, `opponent`, `seat` | as above |
//! | `seeds` | the seed range, e.g. `0..=99` |
//! | `identical` | seeds whose two games are the same move for move |
//! | `histogram` | divergent games by the move they part at, `{"12": 3, …}` |
//! | `flips[]` | results that changed: `a` and `b` (`won`, `drawn`, `lost`), `count`, `seeds` (the smallest, at most [`FLIP_SEEDS_LISTED`]) |

use std::collections::BTreeMap;
use std::fmt::Write as _;

use botlens_engine::text::{printable, printable_lines};
use botlens_engine::{
    Game, Judgement, MatchRecord, MoveRecord, Seat, SeatResult, Trace, TraceError,
};
use botlens_games::{GameVisitor, Scored};
use botlens_sandbox::Sandbox;
use serde::Serialize;
use serde_json::Value;

use crate::compare::{self, CompareError, Event, PreparedSide, Side};
use botlens_bots::caps::LimitCaps;
use botlens_harness::analyze;
use botlens_harness::pipeline::RunOptions;
use botlens_harness::suite::{self, KeepTraces, Suite, SuiteError};
use botlens_harness::{CancelToken, SeedRange};

/// Seeds per batch of [`diff_seeds`]: both sides' traces of one batch are held at once.
pub const BATCH_SEEDS: u64 = 100;

/// The seeds listed per kind of changed result (the smallest; the count is always exact).
pub const FLIP_SEEDS_LISTED: usize = 10;

/// The widest histogram: beyond this many moves, moves are grouped in ranges.
pub const HISTOGRAM_ROWS: usize = 20;

/// What to play: the opponent, the seat of the two bots, the seeds and limits.
#[derive(Debug, Clone)]
pub struct DiffOptions {
    /// The opponent (a reference player; Klotski: a board).
    pub opponent: String,
    /// The seeds (one for [`diff_game`]).
    pub seeds: SeedRange,
    /// The bots' seat: 0, or 1 (two-player games).
    pub seat: Seat,
    /// Turn cap instead of the projects'.
    pub max_turns: Option<u32>,
    /// Worker threads; 0 means one per core.
    pub jobs: usize,
    /// The user's caps on the limits the builds' projects may ask for.
    pub caps: LimitCaps,
}

/// Why two builds could not be diffed.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// A side could not be named, built or paired with the other.
    #[error(transparent)]
    Compare(#[from] CompareError),
    /// A suite failed.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// A trace did not decode (it cannot, as the harness wrote it: a bug).
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// A seat the game does not have.
    #[error("--seat {seat}: {game} has seats 0 to {last}")]
    BadSeat {
        /// The seat asked for.
        seat: Seat,
        /// The game.
        game: &'static str,
        /// Its last seat.
        last: Seat,
    },
    /// Cancelled.
    #[error("diff cancelled")]
    Cancelled,
}

/// How one side's game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// The bot's result.
    pub result: SeatResult,
    /// Moves played, both seats.
    pub moves: usize,
    /// Why, as the game says (`fleet sunk`, `three in a row: row 0`).
    pub reason: String,
}

/// One side's move where the games part.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideMove {
    /// The seat that moved.
    pub seat: Seat,
    /// The action as the game writes it, or `no action`; a failing move says how it failed.
    pub action: String,
    /// The lines the moving player logged on this move.
    pub logs: Vec<String>,
    /// What the game's oracle says of the move, when it judges it (a legal move): `drawn →
    /// lost: a blunder costing 1 outcome`, `drawn → drawn`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged: Option<String>,
    /// What the move cost against the oracle's best, in its unit (0: as good as the best).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
}

/// Where two games part.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Divergence {
    /// The move (1-based, every seat's counted).
    pub index: usize,
    /// The board before it, the same in both games.
    pub board: String,
    /// A's move; `None` when A's game had already ended.
    pub a: Option<SideMove>,
    /// B's move; `None` when B's game had already ended.
    pub b: Option<SideMove>,
    /// Which side's decision the game's oracle judges worse there, and what it would play:
    /// `B's move was worse, by 1 outcome; the oracle plays mark(1, 0)`; `None` when it judges
    /// them alike or cannot judge both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
}

/// Two builds' games on one seed.
#[derive(Debug, Clone, Serialize)]
pub struct GameDiff {
    /// A, as named.
    pub a: String,
    /// B, as named.
    pub b: String,
    /// The opponent.
    pub opponent: String,
    /// The bots' seat.
    pub seat: Seat,
    /// The seed.
    pub seed: u64,
    /// Where the games part; `None` when they are the same move for move.
    pub divergence: Option<Divergence>,
    /// How A's game ended.
    pub a_ending: Ending,
    /// How B's game ended.
    pub b_ending: Ending,
}

/// Seeds whose result went from one to another (A's result, then B's).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Flips {
    /// How many.
    pub count: u64,
    /// The smallest of them, at most [`FLIP_SEEDS_LISTED`].
    pub seeds: Vec<u64>,
}

/// Two builds' games over many seeds.
#[derive(Debug, Clone, Serialize)]
pub struct SeedsDiff {
    /// A, as named.
    pub a: String,
    /// B, as named.
    pub b: String,
    /// The opponent.
    pub opponent: String,
    /// The bots' seat.
    pub seat: Seat,
    /// The seeds played.
    pub seeds: SeedRange,
    /// Seeds whose two games are the same move for move.
    pub identical: u64,
    /// Divergent games by the move they part at (in JSON an object keyed by the move).
    pub histogram: BTreeMap<usize, u64>,
    /// Seeds by (A's result, B's result), results that differ only (in JSON a list of
    /// `{"a", "b", "count", "seeds"}`, A's and B's results `won`, `drawn` or `lost`).
    #[serde(serialize_with = "flips_as_list")]
    pub flips: BTreeMap<(Outcome, Outcome), Flips>,
}

/// The changed results as a list, since JSON keys are strings.
fn flips_as_list<S: serde::Serializer>(
    flips: &BTreeMap<(Outcome, Outcome), Flips>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Flip<'a> {
        a: Outcome,
        b: Outcome,
        #[serde(flatten)]
        flips: &'a Flips,
    }
    serializer.collect_seq(flips.iter().map(|(&(a, b), flips)| Flip { a, b, flips }))
}

/// A result, ordered best first, for listing changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Won (a puzzle: solved).
    Won,
    /// Drawn.
    Drawn,
    /// Lost (a puzzle: not solved).
    Lost,
}

impl From<SeatResult> for Outcome {
    fn from(result: SeatResult) -> Outcome {
        match result {
            SeatResult::Win => Outcome::Won,
            SeatResult::Draw => Outcome::Drawn,
            SeatResult::Loss => Outcome::Lost,
        }
    }
}

impl Outcome {
    fn word(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Drawn => "drawn",
            Outcome::Lost => "lost",
        }
    }
}

/// Two prepared sides and what they play.
struct Prepared {
    a: PreparedSide,
    b: PreparedSide,
    options: DiffOptions,
}

/// Builds (or loads) both sides for `options`, checking that they are two bots of one game and
/// that the seat exists.
fn prepare(
    sandbox: &Sandbox,
    a: &Side,
    b: &Side,
    options: &DiffOptions,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<Prepared, DiffError> {
    let game = compare::common_game(a, b)?;
    let last = if game.is_puzzle() { 0 } else { 1 };
    if options.seat > last {
        return Err(DiffError::BadSeat { seat: options.seat, game: game.name(), last });
    }
    let run = RunOptions {
        opponents: Some(vec![options.opponent.clone()]),
        seeds: Some(options.seeds),
        max_turns: options.max_turns,
        jobs: options.jobs,
        paired: options.seat == 1,
        caps: options.caps.clone(),
        ..RunOptions::default()
    };
    let prepared_a = compare::prepare_side(sandbox, a, &run, events, cancel)?;
    let prepared_b = compare::prepare_side(sandbox, b, &run, events, cancel)?;
    compare::check_pair(&prepared_a, &prepared_b)?;
    Ok(Prepared { a: prepared_a, b: prepared_b, options: options.clone() })
}

/// One played game of a side: its result and trace.
struct Played {
    result: SeatResult,
    trace: Trace,
}

impl Played {
    fn ending(&self) -> Ending {
        Ending {
            result: self.result,
            moves: self.trace.moves.len(),
            reason: printable(&self.trace.outcome.reason).into_owned(),
        }
    }
}

impl Prepared {
    /// Plays `seeds` with one side, keeping every trace; the games of the bots' seat, by seed.
    fn play(
        &self,
        side: &PreparedSide,
        seeds: SeedRange,
        cancel: &CancelToken,
    ) -> Result<Vec<Played>, DiffError> {
        let suite = Suite {
            seeds,
            jobs: self.options.jobs,
            keep_traces: KeepTraces::All,
            trace_dir: None,
            ..side.suite.clone()
        };
        let results = suite::run_suite(&suite, &|_, _| {}, cancel)?;
        if results.cancelled {
            return Err(DiffError::Cancelled);
        }
        Ok(results
            .kept
            .into_iter()
            .filter(|game| game.bot_seat == self.options.seat)
            .filter_map(|game| Some(Played { result: game.result, trace: game.trace? }))
            .collect())
    }

    /// Both sides' games on `seeds`, seed by seed.
    fn play_both(
        &self,
        seeds: SeedRange,
        cancel: &CancelToken,
    ) -> Result<Vec<(Played, Played)>, DiffError> {
        let a = self.play(&self.a, seeds, cancel)?;
        let b = self.play(&self.b, seeds, cancel)?;
        Ok(a.into_iter().zip(b).collect())
    }
}

/// Whether two recorded moves are the same choice: the same seat, action and failing or not.
fn same_move(a: &MoveRecord<Value, Value>, b: &MoveRecord<Value, Value>) -> bool {
    a.seat == b.seat && a.action == b.action && a.failure.is_some() == b.failure.is_some()
}

/// The index (0-based) of the first move at which two games differ, or at which one has ended
/// and the other not; `None` when they are the same move for move.
pub fn first_divergence(a: &Trace, b: &Trace) -> Option<usize> {
    (0..a.moves.len().max(b.moves.len())).find(|&i| match (a.moves.get(i), b.moves.get(i)) {
        (Some(x), Some(y)) => !same_move(x, y),
        _ => true,
    })
}

/// Plays A and B on the one seed of `options` and describes where their games part.
pub fn diff_game(
    sandbox: &Sandbox,
    a: &Side,
    b: &Side,
    options: &DiffOptions,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<GameDiff, DiffError> {
    let seed = options.seeds.first();
    let options =
        DiffOptions { seeds: SeedRange::new(seed, seed).expect("one seed"), ..options.clone() };
    let prepared = prepare(sandbox, a, b, &options, events, cancel)?;
    let (game_a, game_b) =
        prepared.play_both(options.seeds, cancel)?.pop().expect("one game per side");
    let divergence = match first_divergence(&game_a.trace, &game_b.trace) {
        Some(at) => Some(prepared.a.suite.game.visit(Describe {
            a: &game_a.trace,
            b: &game_b.trace,
            at,
        })?),
        None => None,
    };
    Ok(GameDiff {
        a: a.label.clone(),
        b: b.label.clone(),
        opponent: options.opponent.clone(),
        seat: options.seat,
        seed,
        divergence,
        a_ending: game_a.ending(),
        b_ending: game_b.ending(),
    })
}

/// Plays A and B on every seed of `options`, batch by batch, and adds up where and with what
/// effect their games part.
pub fn diff_seeds(
    sandbox: &Sandbox,
    a: &Side,
    b: &Side,
    options: &DiffOptions,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<SeedsDiff, DiffError> {
    let prepared = prepare(sandbox, a, b, options, events, cancel)?;
    let mut diff = SeedsDiff {
        a: a.label.clone(),
        b: b.label.clone(),
        opponent: options.opponent.clone(),
        seat: options.seat,
        seeds: options.seeds,
        identical: 0,
        histogram: BTreeMap::new(),
        flips: BTreeMap::new(),
    };
    let (first, count) = (options.seeds.first(), options.seeds.len());
    let mut done = 0;
    while done < count {
        let size = BATCH_SEEDS.min(count - done);
        let start = first + done;
        let batch = SeedRange::new(start, start + size - 1).expect("a batch is a short range");
        for (seed, (game_a, game_b)) in batch.iter().zip(prepared.play_both(batch, cancel)?) {
            diff.add(seed, &game_a, &game_b);
        }
        done += size;
    }
    Ok(diff)
}

impl SeedsDiff {
    /// Counts the two games of `seed`.
    fn add(&mut self, seed: u64, a: &Played, b: &Played) {
        match first_divergence(&a.trace, &b.trace) {
            None => self.identical += 1,
            Some(at) => *self.histogram.entry(at + 1).or_default() += 1,
        }
        let (from, to) = (Outcome::from(a.result), Outcome::from(b.result));
        if from != to {
            let flips = self.flips.entry((from, to)).or_default();
            flips.count += 1;
            if flips.seeds.len() < FLIP_SEEDS_LISTED {
                flips.seeds.push(seed);
            }
        }
    }

    /// The games that diverge.
    pub fn divergent(&self) -> u64 {
        self.histogram.values().sum()
    }

    /// The histogram's rows: (first move, last move, games), consecutive moves grouped so that
    /// there are at most [`HISTOGRAM_ROWS`] rows, from move 1 to the last divergence.
    pub fn rows(&self) -> Vec<(usize, usize, u64)> {
        let Some(&last) = self.histogram.keys().next_back() else { return Vec::new() };
        let width = last.div_ceil(HISTOGRAM_ROWS);
        (0..last.div_ceil(width))
            .map(|row| {
                let (from, to) = (row * width + 1, (row + 1) * width);
                (from, to.min(last), self.histogram.range(from..=to).map(|(_, n)| n).sum())
            })
            .collect()
    }

    /// The summary for a terminal: the histogram as text bars and the changed results.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let games = self.seeds.len();
        let _ = writeln!(
            out,
            "{} vs {}: against {}, seat {}, seeds {}: {games} games each",
            self.a, self.b, self.opponent, self.seat, self.seeds
        );
        let _ = writeln!(
            out,
            "  {} the same move for move, {} diverge",
            self.identical,
            self.divergent()
        );
        let rows = self.rows();
        if !rows.is_empty() {
            let _ = writeln!(out, "\nfirst divergence, by move:");
            let most = rows.iter().map(|r| r.2).max().unwrap_or(1).max(1);
            let label = |(from, to, _): &(usize, usize, u64)| {
                if from == to { format!("{from}") } else { format!("{from}-{to}") }
            };
            let width = rows.iter().map(|r| label(r).len()).max().unwrap_or(1);
            for row in &rows {
                let bar = if row.2 == 0 { 0 } else { (row.2 * 40).div_ceil(most) as usize };
                let _ = writeln!(
                    out,
                    "  move {:>width$} {:<40} {}",
                    label(row),
                    "█".repeat(bar),
                    row.2
                );
            }
        }
        let _ = writeln!(out, "\nresults that changed ({} → {}):", self.a, self.b);
        if self.flips.is_empty() {
            let _ = writeln!(out, "  none: every seed has the same result");
        }
        for ((from, to), flips) in &self.flips {
            let listed: Vec<String> = flips.seeds.iter().map(u64::to_string).collect();
            let more = if flips.count > flips.seeds.len() as u64 { ", …" } else { "" };
            let _ = writeln!(
                out,
                "  {} → {}: {} (seeds {}{more})",
                from.word(),
                to.word(),
                flips.count,
                listed.join(", ")
            );
        }
        printable_lines(&out).into_owned()
    }
}

impl GameDiff {
    /// The diff for a terminal: where the games part, both moves (judged by the game's oracle,
    /// and which was worse), the board there, each side's log lines, and how each game ended.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "{} vs {}: against {}, seat {}, seed {}: ",
            self.a, self.b, self.opponent, self.seat, self.seed
        );
        match &self.divergence {
            None => {
                let _ = writeln!(
                    out,
                    "the games are the same move for move ({} moves)",
                    self.a_ending.moves
                );
            }
            Some(divergence) => {
                let index = divergence.index;
                let _ = writeln!(out, "the games part at move {index}\n");
                for (name, side) in [(&self.a, &divergence.a), (&self.b, &divergence.b)] {
                    let _ = match side {
                        Some(side) => {
                            let judged = side
                                .judged
                                .as_ref()
                                .map_or_else(String::new, |j| format!(" ({j})"));
                            writeln!(
                                out,
                                "  {name}: seat {} plays {}{judged}",
                                side.seat, side.action
                            )
                        }
                        None => writeln!(out, "  {name}: the game had ended"),
                    };
                }
                if let Some(verdict) = &divergence.verdict {
                    let _ = writeln!(out, "  {verdict}");
                }
                let _ = writeln!(out, "\nthe board before move {index}:");
                for line in divergence.board.lines() {
                    let _ = writeln!(out, "  {line}");
                }
                for (name, side) in [(&self.a, &divergence.a), (&self.b, &divergence.b)] {
                    let Some(side) = side else { continue };
                    let _ = writeln!(out, "\n{name} logged on move {index}:");
                    if side.logs.is_empty() {
                        let _ = writeln!(out, "  (nothing)");
                    }
                    for line in &side.logs {
                        let _ = writeln!(out, "  {line}");
                    }
                }
            }
        }
        let _ = writeln!(out, "\nhow the games ended:");
        for (name, ending) in [(&self.a, &self.a_ending), (&self.b, &self.b_ending)] {
            let _ = writeln!(
                out,
                "  {name}: {} in {} moves ({})",
                Outcome::from(ending.result).word(),
                ending.moves,
                ending.reason
            );
        }
        printable_lines(&out).into_owned()
    }
}

/// Describes the move at index `at` of two traces of one game, and the board before it.
struct Describe<'a> {
    a: &'a Trace,
    b: &'a Trace,
    at: usize,
}

impl GameVisitor for Describe<'_> {
    type Output = Result<Divergence, TraceError>;

    fn visit<G: Scored>(self) -> Self::Output {
        let (a, b) = (self.a.decode::<G>()?, self.b.decode::<G>()?);
        let before = a.state_after(self.at);
        let oracle = G::oracle(&a.initial).ok();
        let judge = |record: &MatchRecord<G>| {
            let played = record.moves.get(self.at)?;
            let (Some(action), Some(_)) = (&played.action, &played.response) else { return None };
            Some(oracle.as_ref()?.judge(&before, played.seat, action))
        };
        let (judged_a, judged_b) = (judge(&a), judge(&b));
        let verdict = match (&judged_a, &judged_b, &oracle) {
            (Some(x), Some(y), Some(oracle)) if x.cost != y.cost => {
                let (worse, by) =
                    if x.cost > y.cost { ("A", x.cost - y.cost) } else { ("B", y.cost - x.cost) };
                Some(format!(
                    "{worse}'s move was worse, by {}; the oracle plays {}",
                    analyze::amount(by, oracle.unit()),
                    x.best
                ))
            }
            _ => None,
        };
        let mistake = oracle.as_ref().map_or("", |oracle| oracle.mistake());
        let unit = oracle.as_ref().map_or("", |oracle| oracle.unit());
        let with = |side: Option<SideMove>, judged: Option<Judgement<G::Action>>| {
            side.map(|mut side| {
                if let Some(judged) = judged {
                    let cost = match judged.is_mistake() {
                        true => {
                            format!(": a {mistake} costing {}", analyze::amount(judged.cost, unit))
                        }
                        false => String::new(),
                    };
                    side.judged = Some(
                        printable(&format!("{} → {}{cost}", judged.before, judged.after))
                            .into_owned(),
                    );
                    side.cost = Some(judged.cost);
                }
                side
            })
        };
        Ok(Divergence {
            index: self.at + 1,
            board: printable_lines(&before.render()).into_owned(),
            a: with(side_move(&a, self.at), judged_a),
            b: with(side_move(&b, self.at), judged_b),
            verdict: verdict.map(|v| printable(&v).into_owned()),
        })
    }
}

/// Move `at` of a game, as [`SideMove`] shows it.
fn side_move<G: Game>(record: &MatchRecord<G>, at: usize) -> Option<SideMove> {
    let played = record.moves.get(at)?;
    let mut action =
        played.action.as_ref().map_or_else(|| "no action".to_owned(), ToString::to_string);
    if let Some(failure) = &played.failure {
        let _ = write!(action, " ✗ {}: {}", failure.kind, failure.message);
    }
    Some(SideMove {
        seat: played.seat,
        action: printable(&action).into_owned(),
        logs: played.logs.iter().map(|line| printable(line).into_owned()).collect(),
        judged: None,
        cost: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(name: &str) -> Side {
        Side::parse(name, Some("tictactoe")).unwrap()
    }

    fn options(seeds: &str, seat: Seat) -> DiffOptions {
        DiffOptions {
            opponent: "random".into(),
            seeds: seeds.parse().unwrap(),
            seat,
            max_turns: None,
            jobs: 2,
            caps: LimitCaps::default(),
        }
    }

    fn sandbox() -> Sandbox {
        botlens_harness::pipeline::sandbox().unwrap()
    }

    fn quiet(_: Event<'_>) {}

    /// `diff_game` of Tic-tac-toe players `a` and `b` against random.
    fn one_game(a: &str, b: &str, seed: &str, seat: Seat) -> Result<GameDiff, DiffError> {
        let options = options(seed, seat);
        diff_game(&sandbox(), &side(a), &side(b), &options, &quiet, &CancelToken::new())
    }

    #[test]
    fn one_seed_shows_both_moves_the_board_and_the_endings() {
        let diff = one_game("perfect", "random", "5", 0).unwrap();
        let divergence = diff.divergence.as_ref().expect("perfect and random part");
        let (a, b) = (divergence.a.as_ref().unwrap(), divergence.b.as_ref().unwrap());
        assert_ne!(a.action, b.action);
        assert_eq!((a.seat, b.seat), (0, 0), "the bots' moves part, not the opponent's");
        // Before the bots' first different move, both games are the same.
        let moves_before = divergence.index - 1;
        assert!(divergence.board.lines().count() >= 3, "{}", divergence.board);
        let text = diff.render();
        assert!(text.contains(&format!("the games part at move {}", divergence.index)), "{text}");
        assert!(text.contains(&format!("perfect: seat 0 plays {}", a.action)), "{text}");
        assert!(text.contains(&format!("the board before move {}:", moves_before + 1)), "{text}");
        assert!(text.contains("how the games ended:\n  perfect: "), "{text}");
        // In seat 1, the same opponent and seed; the other seat's game.
        let seat1 = one_game("perfect", "random", "5", 1).unwrap();
        let moved = seat1.divergence.unwrap();
        assert_eq!(moved.a.unwrap().seat, 1);
    }

    #[test]
    fn where_the_games_part_the_oracle_judges_both_moves_and_names_the_worse() {
        // The first seed on which random's different move is a blunder perfect's is not.
        let (diff, divergence) = (0..40)
            .find_map(|seed| {
                let diff = one_game("perfect", "random", &seed.to_string(), 0).ok()?;
                let divergence = diff.divergence.clone()?;
                (divergence.b.as_ref()?.cost? > 0.0).then_some((diff, divergence))
            })
            .expect("random blunders where it parts from perfect on some seed");
        let (a, b) = (divergence.a.as_ref().unwrap(), divergence.b.as_ref().unwrap());
        assert_eq!(a.cost, Some(0.0), "perfect's move is the oracle's equal");
        let judged = b.judged.as_deref().unwrap();
        assert!(
            judged.contains(": a blunder costing 1 outcome")
                || judged.contains(": a blunder costing 2 outcomes"),
            "{judged}"
        );
        let verdict = divergence.verdict.as_deref().unwrap();
        assert!(verdict.starts_with("B's move was worse, by "), "{verdict}");
        assert!(verdict.contains("; the oracle plays mark("), "{verdict}");
        let text = diff.render();
        assert!(text.contains(&format!("random: seat 0 plays {} ({judged})", b.action)), "{text}");
        assert!(text.contains(&format!("  {verdict}\n")), "{text}");
    }

    #[test]
    fn many_seeds_count_divergences_and_changed_results_the_same_with_any_threads() {
        let sandbox = sandbox();
        let cancel = CancelToken::new();
        let run = |jobs| {
            let options = DiffOptions { jobs, ..options("0..=149", 0) };
            diff_seeds(&sandbox, &side("perfect"), &side("random"), &options, &quiet, &cancel)
                .unwrap()
        };
        let diff = run(1);
        assert_eq!(diff.identical + diff.divergent(), 150, "every seed counted once");
        let flipped: u64 = diff.flips.values().map(|f| f.count).sum();
        assert!(flipped > 0, "random loses games perfect wins");
        assert!(diff.flips.keys().all(|(from, to)| from != to));
        for flips in diff.flips.values() {
            assert!(flips.seeds.windows(2).all(|w| w[0] < w[1]) && flips.seeds.len() <= 10);
        }
        let rows = diff.rows();
        assert_eq!(rows.iter().map(|r| r.2).sum::<u64>(), diff.divergent());
        assert_eq!(rows.first().map(|r| r.0), Some(1));
        let other = run(3);
        assert_eq!(
            (other.histogram, other.flips, other.identical),
            (diff.histogram.clone(), diff.flips.clone(), diff.identical)
        );
        let text = diff.render();
        assert!(text.contains("first divergence, by move:\n  move "), "{text}");
        assert!(text.contains("results that changed (perfect → random):\n  "), "{text}");
        assert!(text.contains("won → lost: ") || text.contains("drawn → lost: "), "{text}");
    }

    #[test]
    fn histograms_group_moves_beyond_the_row_limit() {
        let mut diff = SeedsDiff {
            a: "a".into(),
            b: "b".into(),
            opponent: "o".into(),
            seat: 0,
            seeds: "0..10".parse().unwrap(),
            identical: 0,
            histogram: BTreeMap::from([(1, 2), (3, 1), (45, 4)]),
            flips: BTreeMap::new(),
        };
        let rows = diff.rows();
        assert_eq!(rows.len(), 15, "45 moves in rows of 3");
        assert_eq!((rows[0], rows[14]), ((1, 3, 3), (43, 45, 4)));
        diff.histogram = BTreeMap::from([(2, 1), (4, 2)]);
        assert_eq!(diff.rows(), [(1, 1, 0), (2, 2, 1), (3, 3, 0), (4, 4, 2)]);
    }

    #[test]
    fn bad_seats_and_identical_bots_are_refused() {
        let error = one_game("perfect", "random", "1", 2).unwrap_err();
        assert_eq!(error.to_string(), "--seat 2: tictactoe has seats 0 to 1");
        let error = one_game("random", "random", "1", 0).unwrap_err();
        assert!(error.to_string().contains("are the same bot"), "{error}");
    }
}

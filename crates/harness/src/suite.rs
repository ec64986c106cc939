//! Suites: one bot against a list of opponents over a range of seeds, played in parallel.
//!
//! The bot always sits in seat 0, an opponent in seat 1; the game decides from the seed who moves
//! first, so a suite plays both sides. In a puzzle (Klotski) there is no opponent seat: each
//! "opponent" names a board, and the bot is measured against its par.
//!
//! Games are independent, so they are spread over worker threads; results come back in a fixed
//! order (opponent, then seed) whatever the scheduling, so reports are deterministic.
//!
//! Not for: building (see [`crate::build`]) or presenting results (see [`crate::report`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use botlens_engine::{
    Fault, MatchLimits, MatchRecord, Player, PlayerInfo, ReferencePlayer, SeatResult, SeedRng,
    Stream, Trace, runner,
};
use botlens_games::{GameKind, GameVisitor, Scored};
use botlens_sandbox::{BotModule, SandboxLimits};
use serde_json::json;

use crate::{CancelToken, SeedRange};

/// The most worker threads a suite runs: each holds up to two wasm instances at a time, and
/// the sandbox's instance pool has room for many more than twice this.
pub const MAX_JOBS: usize = 256;

/// Who plays a seat: a native reference player by name, or a WebAssembly bot.
#[derive(Debug, Clone)]
pub enum Contender {
    /// A reference player of the game, by name (`hunter`, `perfect`, `optimal`, …); for a
    /// puzzle's opponent list, a board name.
    Reference(String),
    /// A loaded WebAssembly bot.
    Wasm(WasmBot),
}

/// A WebAssembly bot ready to play: its module and where it came from.
#[derive(Debug, Clone)]
pub struct WasmBot {
    /// Display name (the crate name, or the file stem of a `.wasm`).
    pub name: String,
    /// The loaded, compiled module.
    pub module: BotModule,
    /// The project directory or module path, recorded in traces.
    pub source: String,
}

impl Contender {
    /// The display name.
    pub fn name(&self) -> &str {
        match self {
            Contender::Reference(name) => name,
            Contender::Wasm(bot) => &bot.name,
        }
    }

    fn info(&self) -> PlayerInfo {
        match self {
            Contender::Reference(name) => PlayerInfo::reference(name),
            Contender::Wasm(bot) => PlayerInfo {
                name: bot.name.clone(),
                kind: "wasm".into(),
                module_sha256: Some(bot.module.sha256().to_owned()),
                source: Some(bot.source.clone()),
            },
        }
    }

    fn player<G: Scored>(
        &self,
        seed: u64,
        seat: usize,
        limits: &SandboxLimits,
    ) -> Result<Box<dyn Player<G>>, String> {
        match self {
            Contender::Reference(name) => {
                let reference = ReferencePlayer::<G>::find(name)?;
                Ok((reference.create)(SeedRng::new(seed, Stream::Player(seat))))
            }
            Contender::Wasm(bot) => Ok(Box::new(bot.module.player::<G>(seed, seat, limits))),
        }
    }
}

/// Which traces a suite keeps in its results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeepTraces {
    /// Only games the bot lost by a fault (the default: cheap, and all a report points at).
    #[default]
    Failures,
    /// Every game.
    All,
}

/// A suite to play.
#[derive(Debug, Clone)]
pub struct Suite {
    /// The game.
    pub game: GameKind,
    /// The bot under test (seat 0).
    pub bot: Contender,
    /// Opponents (two-player games) or boards (puzzles), by name.
    pub opponents: Vec<Contender>,
    /// Seeds to play against each opponent.
    pub seeds: SeedRange,
    /// Engine limits (turn cap).
    pub limits: MatchLimits,
    /// Sandbox limits for WebAssembly contenders (fuel, memory, …).
    pub sandbox_limits: SandboxLimits,
    /// Worker threads; 0 means one per core; at most [`MAX_JOBS`].
    pub jobs: usize,
    /// Which traces to keep.
    pub keep_traces: KeepTraces,
}

/// One finished game of a suite, from the bot's point of view.
#[derive(Debug, Clone)]
pub struct GameResult {
    /// Index into [`Suite::opponents`].
    pub opponent: usize,
    /// The seed.
    pub seed: u64,
    /// Win, loss or draw (puzzles: win = solved).
    pub result: SeatResult,
    /// The bot's move count (shots, marks, steps).
    pub moves: u32,
    /// The board's par (puzzles: optimal steps), if any.
    pub par: Option<u32>,
    /// Turns played, both seats.
    pub turns: u32,
    /// The fault that lost the game for the bot, if one did.
    pub fault: Option<Fault>,
    /// Turns on which the bot wasted a move (e.g. re-attacks).
    pub wasteful_turns: Vec<u32>,
    /// The trace, when kept (see [`KeepTraces`]).
    pub trace: Option<Trace>,
}

/// Everything a suite produced.
#[derive(Debug, Clone)]
pub struct SuiteResults {
    /// Every game, ordered by opponent then seed.
    pub games: Vec<GameResult>,
    /// Wall-clock time of the whole suite.
    pub duration: Duration,
    /// True when cancelled before every game was played.
    pub cancelled: bool,
}

/// Why a suite could not start.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// An opponent or board name that does not exist, or a bad bot name.
    #[error("{0}")]
    BadContender(String),
}

/// Plays the suite. `progress(done, total)` is called after every game (from worker threads);
/// cancelling stops after the games in flight.
pub fn run_suite(
    suite: &Suite,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &CancelToken,
) -> Result<SuiteResults, SuiteError> {
    suite.game.visit(RunSuite { suite, progress, cancel })
}

struct RunSuite<'a> {
    suite: &'a Suite,
    progress: &'a (dyn Fn(usize, usize) + Sync),
    cancel: &'a CancelToken,
}

impl GameVisitor for RunSuite<'_> {
    type Output = Result<SuiteResults, SuiteError>;

    fn visit<G: Scored>(self) -> Self::Output {
        let suite = self.suite;
        let started = Instant::now();
        validate::<G>(suite)?;
        let jobs: Vec<(usize, u64)> = (0..suite.opponents.len())
            .flat_map(|opponent| suite.seeds.iter().map(move |seed| (opponent, seed)))
            .collect();
        let total = jobs.len();
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let slots: Vec<Mutex<Option<GameResult>>> = (0..total).map(|_| Mutex::new(None)).collect();
        let workers = match suite.jobs {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
        .min(MAX_JOBS)
        .min(total.max(1));

        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    loop {
                        if self.cancel.is_cancelled() {
                            break;
                        }
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(opponent, seed)) = jobs.get(index) else { break };
                        let result = play_one::<G>(suite, opponent, seed);
                        *slots[index].lock().expect("no panics while holding the slot") =
                            Some(result);
                        (self.progress)(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                    }
                });
            }
        });

        let games: Vec<GameResult> = slots
            .into_iter()
            .filter_map(|slot| slot.into_inner().expect("slot lock is never poisoned"))
            .collect();
        Ok(SuiteResults { cancelled: games.len() < total, games, duration: started.elapsed() })
    }
}

fn validate<G: Scored>(suite: &Suite) -> Result<(), SuiteError> {
    if suite.opponents.is_empty() {
        return Err(SuiteError::BadContender("the suite has no opponents".into()));
    }
    let first_seed = suite.seeds.iter().next().unwrap_or_default();
    suite
        .bot
        .player::<G>(first_seed, 0, &suite.sandbox_limits)
        .map_err(SuiteError::BadContender)?;
    for opponent in &suite.opponents {
        check_opponent::<G>(opponent, first_seed, &suite.sandbox_limits)?;
    }
    Ok(())
}

/// Whether `opponent` can sit in seat 1 (or, in a puzzle, names a board).
fn check_opponent<G: Scored>(
    opponent: &Contender,
    seed: u64,
    limits: &SandboxLimits,
) -> Result<(), SuiteError> {
    let checked = if G::OPPONENTS_ARE_BOARDS {
        G::config_for(opponent.name(), seed).map(drop)
    } else {
        opponent.player::<G>(seed, 1, limits).map(drop)
    };
    checked.map_err(SuiteError::BadContender)
}

/// Refuses reference-player or board names that `game` does not have — before anything is
/// built, so a typo in a project's opponents does not wait for cargo.
pub fn check_references(game: GameKind, names: &[String]) -> Result<(), SuiteError> {
    struct Check<'a>(&'a [String]);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), SuiteError>;
        fn visit<G: Scored>(self) -> Self::Output {
            let limits = SandboxLimits::default();
            self.0.iter().try_for_each(|name| {
                check_opponent::<G>(&Contender::Reference(name.clone()), 0, &limits)
            })
        }
    }
    game.visit(Check(names))
}

/// Plays one game of the suite; every failure to set it up becomes a result, never a panic.
fn play_one<G: Scored>(suite: &Suite, opponent_index: usize, seed: u64) -> GameResult {
    let opponent = &suite.opponents[opponent_index];
    let config = if G::OPPONENTS_ARE_BOARDS {
        G::config_for(opponent.name(), seed)
    } else {
        Ok(G::Config::default())
    }
    .expect("validated before the suite started");
    let mut bot = suite
        .bot
        .player::<G>(seed, 0, &suite.sandbox_limits)
        .expect("validated before the suite started");
    let record: MatchRecord<G> = if G::OPPONENTS_ARE_BOARDS {
        runner::play_match::<G>(&config, seed, &mut [bot.as_mut()], &suite.limits)
    } else {
        let mut other = opponent
            .player::<G>(seed, 1, &suite.sandbox_limits)
            .expect("validated before the suite started");
        runner::play_match::<G>(&config, seed, &mut [bot.as_mut(), other.as_mut()], &suite.limits)
    };
    let seats: &[&Contender] =
        if G::OPPONENTS_ARE_BOARDS { &[&suite.bot] } else { &[&suite.bot, opponent] };
    let fault = record.outcome.fault.clone().filter(|f| f.seat == 0);
    let keep = fault.is_some() || suite.keep_traces == KeepTraces::All;
    GameResult {
        opponent: opponent_index,
        seed,
        result: record.result_for(0),
        moves: G::moves(&record, 0),
        par: G::par(&config),
        turns: record.outcome.turns,
        wasteful_turns: record.wasteful_turns(0),
        // Player infos and the trace are built only for a trace that is kept.
        trace: keep.then(|| {
            let infos = seats.iter().map(|seat| seat.info()).collect();
            record.to_trace(infos, trace_limits(suite))
        }),
        fault,
    }
}

fn trace_limits(suite: &Suite) -> serde_json::Value {
    json!({ "engine": suite.limits, "sandbox": suite.sandbox_limits })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(game: GameKind, bot: &str, opponents: &[&str], seeds: &str) -> Suite {
        Suite {
            game,
            bot: Contender::Reference(bot.into()),
            opponents: opponents.iter().map(|o| Contender::Reference((*o).into())).collect(),
            seeds: seeds.parse().unwrap(),
            limits: MatchLimits::default(),
            sandbox_limits: SandboxLimits::default(),
            jobs: 2,
            keep_traces: KeepTraces::Failures,
        }
    }

    #[test]
    fn results_are_ordered_and_deterministic_whatever_the_threads() {
        let spec = suite(GameKind::TicTacToe, "random", &["random", "perfect"], "0..20");
        let a = run_suite(&spec, &|_, _| {}, &CancelToken::new()).unwrap();
        let b = run_suite(&Suite { jobs: 1, ..spec }, &|_, _| {}, &CancelToken::new()).unwrap();
        let key = |r: &SuiteResults| -> Vec<_> {
            r.games.iter().map(|g| (g.opponent, g.seed, g.result, g.moves)).collect()
        };
        assert_eq!(key(&a), key(&b));
        assert_eq!(a.games.len(), 40);
        assert!(a.games.iter().filter(|g| g.opponent == 1).all(|g| g.result != SeatResult::Win));
    }

    #[test]
    fn unknown_names_are_refused_before_playing() {
        let spec = suite(GameKind::Battleships, "hunter", &["nobody"], "0..2");
        let err = run_suite(&spec, &|_, _| {}, &CancelToken::new()).unwrap_err().to_string();
        assert!(err.contains("no reference player `nobody`"), "{err}");
        assert!(err.contains("hunter"), "lists the known names: {err}");
    }

    #[test]
    fn a_cancelled_suite_stops_early() {
        let spec = suite(GameKind::Battleships, "random", &["random"], "0..500");
        let cancel = CancelToken::new();
        let results = run_suite(
            &spec,
            &|done, _| {
                if done >= 5 {
                    cancel.cancel();
                }
            },
            &cancel,
        )
        .unwrap();
        assert!(results.cancelled);
        assert!(results.games.len() < 500);
    }
}

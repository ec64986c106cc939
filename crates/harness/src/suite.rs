//! Suites: one bot against a list of opponents over a range of seeds, played in parallel.
//!
//! The bot sits in seat 0, an opponent in seat 1; the game decides from the seed who moves
//! first, so a suite plays both sides. In a puzzle (Klotski) there is no opponent seat: each
//! "opponent" names a board, and the bot is measured against its par.
//!
//! A paired suite ([`Suite::paired`]) plays each (opponent, seed) twice: once with the bot in
//! seat 0, then with the bot in seat 1. The seed sets up the same game both times (fleets,
//! board, who moves first: seat for seat), and each seat's randomness comes from that seat's
//! streams (`Stream::Player(seat)`, `Stream::BotRandom(seat)`), so in the second game the bot
//! has the first mover the opponent had, and each side the other's luck. Results are counted
//! from the bot's side in both, and the pair's points make the pentanomial of
//! [`crate::tally::OpponentTally::pairs`]. Puzzles have one seat and no pairs.
//!
//! A suite can also play on from a position of a stored game ([`Suite::play_on`]): its games
//! with the bot in the stored game's seat first make that game's moves again, then the bot
//! takes over (see `botlens_engine::opening`).
//!
//! Games are independent, so they are spread over worker threads; each result is tallied as it
//! comes ([`crate::tally`]: sums, minimums and smallest-N lists, the same in any order), so
//! reports are deterministic whatever the scheduling and memory does not grow with the games.
//!
//! Not for: building (see [`botlens_bots::build`]) or presenting results (see [`crate::report`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use botlens_bots::toolchain::Stage;
use botlens_engine::opening::{self, Opening, OpeningError};
use botlens_engine::{
    Fault, MatchLimits, MatchRecord, Player, PlayerInfo, ReferencePlayer, Seat, SeatResult,
    SeedRng, Stream, Trace, runner,
};
use botlens_games::{GameKind, GameVisitor, Scored};
use botlens_sandbox::{BotModule, SandboxLimits};
use serde_json::json;

use crate::tally::{Counted, Position, Tally};
use crate::{CancelToken, SeedRange, traces};
use botlens_bots::Shard;

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

    pub(crate) fn player<G: Scored>(
        &self,
        seed: u64,
        seat: usize,
        limits: &SandboxLimits,
    ) -> Result<Box<dyn Player<G>>, String> {
        self.drawing_player(seed, seat, limits, false)
    }

    /// [`Contender::player`], keeping the marks a WebAssembly bot draws when `drawing`.
    fn drawing_player<G: Scored>(
        &self,
        seed: u64,
        seat: usize,
        limits: &SandboxLimits,
        drawing: bool,
    ) -> Result<Box<dyn Player<G>>, String> {
        match self {
            Contender::Reference(name) => {
                let reference = ReferencePlayer::<G>::find(name)?;
                Ok((reference.create)(SeedRng::new(seed, Stream::Player(seat))))
            }
            Contender::Wasm(bot) => {
                let player = bot.module.player::<G>(seed, seat, limits);
                Ok(Box::new(if drawing { player.drawing() } else { player }))
            }
        }
    }

    /// Whether it is a WebAssembly bot that draws marks (`botlens.draw`).
    fn draws(&self) -> bool {
        matches!(self, Contender::Wasm(bot) if bot.module.draws())
    }
}

/// Which traces a suite keeps in memory, in [`SuiteResults::kept`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeepTraces {
    /// The first game (smallest opponent, then seed) of each failure group: what a report's
    /// replay lines and the editor's hovers point at. The default.
    #[default]
    Failures,
    /// Every game; for small suites only (at most [`MAX_KEPT_GAMES`] games), such as the one
    /// game `botlens replay` plays again. Write big suites' traces to a directory instead
    /// ([`Suite::trace_dir`]).
    All,
}

/// The most games a suite keeps every trace of in memory ([`KeepTraces::All`]).
pub const MAX_KEPT_GAMES: u64 = 1_000;

/// The highest turn cap a suite accepts: a game's record grows with its turns, and every worker
/// holds one game in flight.
pub const MAX_TURN_CAP: u32 = 100_000;

/// A suite to play.
#[derive(Debug, Clone)]
pub struct Suite {
    /// The game.
    pub game: GameKind,
    /// The bot under test (seat 0; in a paired suite, each seat in turn).
    pub bot: Contender,
    /// Opponents (two-player games) or boards (puzzles), by name.
    pub opponents: Vec<Contender>,
    /// Seeds to play against each opponent.
    pub seeds: SeedRange,
    /// Engine limits (turn cap, at most [`MAX_TURN_CAP`]).
    pub limits: MatchLimits,
    /// Sandbox limits for WebAssembly contenders (fuel, memory, …).
    pub sandbox_limits: SandboxLimits,
    /// Worker threads; 0 means one per core; at most [`MAX_JOBS`].
    pub jobs: usize,
    /// Which traces to keep in memory.
    pub keep_traces: KeepTraces,
    /// A directory to write every game's trace into as soon as the game ends (atomically, one
    /// file per game, named by [`traces::file_name`]), so an interrupted suite keeps what it
    /// played.
    pub trace_dir: Option<PathBuf>,
    /// Whether each (opponent, seed) is played twice, the bot in seat 0 and then in seat 1
    /// (see the module docs). Two-player games only.
    pub paired: bool,
    /// A stored game to play on from: the suite's games of its seat make its first moves, then
    /// the bot takes over.
    pub play_on: Option<PlayOn>,
    /// Only these units of the suite, as (opponent index, seed) with the seed in
    /// [`Suite::seeds`], each in both seats when paired (`botlens run --failed`); by default
    /// every opponent on every seed.
    pub only: Option<Vec<(usize, u64)>>,
    /// Only this shard's block of [`Suite::seeds`] ([`crate::shard`]), every opponent on each
    /// of its seeds; by default every seed. Not with `only`.
    pub shard: Option<Shard>,
}

/// A position of a stored game for a bot to play on from (`botlens replay TRACE --from N`).
#[derive(Debug, Clone)]
pub struct PlayOn {
    /// The stored game; its seed and config set up the game again.
    pub trace: Trace,
    /// How many of its moves are made again before the bot takes over.
    pub moves: usize,
    /// The seat the bot takes over.
    pub seat: Seat,
}

impl PlayOn {
    /// The actions the taken-over seat made in the opening.
    fn actions<G: Scored>(&self) -> Result<Vec<G::Action>, OpeningError> {
        opening::opening_actions::<G>(&self.trace, self.seat, self.moves)
    }

    /// The stored game's config.
    fn config<G: Scored>(&self) -> Result<G::Config, String> {
        serde_json::from_value(self.trace.config.clone())
            .map_err(|error| format!("the stored game's config does not fit {}: {error}", G::NAME))
    }
}

impl Suite {
    /// Games per seed and opponent: 2 when paired, else 1.
    pub fn games_per_seed(&self) -> u64 {
        if self.paired { 2 } else { 1 }
    }

    /// How many games the suite plays.
    pub fn total_games(&self) -> u64 {
        let units = match &self.only {
            Some(units) => units.len() as u64,
            None => self.opponents.len() as u64 * self.seeds_played().1,
        };
        units * self.games_per_seed()
    }

    /// The seeds played against each opponent: the offset of the first in [`Suite::seeds`] and
    /// how many (the shard's block, or all of them).
    fn seeds_played(&self) -> (u64, u64) {
        match self.shard {
            Some(shard) => shard.block(self.seeds),
            None => (0, self.seeds.len()),
        }
    }

    /// The `index`-th game of the suite: (opponent index, seed, the bot's seat).
    fn game_at(&self, index: u64) -> Position {
        let per_seed = self.games_per_seed();
        let (unit, bot_seat) = (index / per_seed, (index % per_seed) as Seat);
        let (opponent, seed) = match &self.only {
            Some(units) => units[unit as usize],
            None => {
                let (offset, seeds) = self.seeds_played();
                ((unit / seeds) as usize, self.seeds.first() + offset + unit % seeds)
            }
        };
        (opponent, seed, bot_seat)
    }
}

/// One finished game of a suite, from the bot's point of view.
#[derive(Debug, Clone)]
pub struct GameResult {
    /// Index into [`Suite::opponents`].
    pub opponent: usize,
    /// The seed.
    pub seed: u64,
    /// The bot's seat: 0, or in a paired suite 0 or 1.
    pub bot_seat: Seat,
    /// Win, loss or draw (puzzles: win = solved).
    pub result: SeatResult,
    /// The bot's move count (shots, marks, steps).
    pub moves: u32,
    /// The board's par (puzzles: optimal steps), if any.
    pub par: Option<u32>,
    /// Turns played, both seats.
    pub turns: u32,
    /// Turns the bot played (for a game it lost by a fault, the fault was on the last).
    pub bot_turns: u32,
    /// The fault that lost the game for the bot, if one did.
    pub fault: Option<Fault>,
    /// Turns on which the bot wasted a move (e.g. re-attacks).
    pub wasteful_turns: Vec<u32>,
    /// The trace, when kept (see [`KeepTraces`]).
    pub trace: Option<Trace>,
}

impl GameResult {
    /// Where the game sits in its suite: (opponent, seed, bot seat).
    pub fn position(&self) -> Position {
        (self.opponent, self.seed, self.bot_seat)
    }

    fn counted(&self) -> Counted<'_> {
        Counted {
            at: self.position(),
            result: self.result,
            moves: self.moves,
            turns: self.turns,
            par: self.par,
            fault: self.fault.as_ref(),
            bot_turns: self.bot_turns,
            wasted: self.wasteful_turns.len() as u32,
        }
    }
}

/// Everything a suite produced: its tally, and the games whose traces were kept.
#[derive(Debug, Clone)]
pub struct SuiteResults {
    /// Games played.
    pub played: u64,
    /// What the games add up to (scores per opponent, failure groups).
    pub tally: Tally,
    /// The games kept with their traces ([`KeepTraces`]), ordered by opponent, seed, then the
    /// bot's seat.
    pub kept: Vec<GameResult>,
    /// Wall-clock time of the whole suite.
    pub duration: Duration,
    /// True when cancelled before every game was played.
    pub cancelled: bool,
}

impl SuiteResults {
    /// The kept game against opponent `opponent` (an index into [`Suite::opponents`]) on `seed`
    /// (of a pair, the one with the bot in seat 0).
    pub fn kept_game(&self, opponent: usize, seed: u64) -> Option<&GameResult> {
        self.kept.iter().find(|game| (game.opponent, game.seed) == (opponent, seed))
    }

    /// The kept game at `position` (opponent, seed, bot seat).
    pub fn kept_game_at(&self, position: Position) -> Option<&GameResult> {
        self.kept.iter().find(|game| game.position() == position)
    }
}

/// Why a suite could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// An opponent or board name that does not exist, or a bad bot name.
    #[error("{0}")]
    BadContender(String),
    /// A turn cap of 0 or above [`MAX_TURN_CAP`].
    #[error("a move cap (--max-turns, max_turns) of {0} is out of range 1..={MAX_TURN_CAP}")]
    TurnCap(u32),
    /// Every trace kept in memory for more than [`MAX_KEPT_GAMES`] games.
    #[error(
        "keeping every trace in memory is for suites of at most {MAX_KEPT_GAMES} games, not {0}; write them to a directory instead"
    )]
    TooManyTraces(u64),
    /// A paired suite of a one-player game (a puzzle has no seats to swap).
    #[error("{0} is a one-player puzzle: there are no seats to swap, so games cannot be paired")]
    PairedPuzzle(&'static str),
    /// The stored game of [`Suite::play_on`] cannot be played on from.
    #[error("cannot play on from the stored game: {0}")]
    PlayOn(String),
    /// A trace could not be written into the trace directory; the suite stopped.
    #[error("writing the trace {}: {error}", .path.display())]
    TraceWrite {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
}

/// Refuses a turn cap of 0 or above [`MAX_TURN_CAP`] (`None`, the game's own cap, is fine).
pub fn check_turn_cap(max_turns: Option<u32>) -> Result<(), SuiteError> {
    match max_turns {
        Some(cap) if cap == 0 || cap > MAX_TURN_CAP => Err(SuiteError::TurnCap(cap)),
        _ => Ok(()),
    }
}

/// Refuses `paired` for a one-player game; [`run_suite`] checks it again, front ends may check
/// it before a build.
pub fn check_paired(game: GameKind, paired: bool) -> Result<(), SuiteError> {
    if paired && game.is_puzzle() {
        return Err(SuiteError::PairedPuzzle(game.name()));
    }
    Ok(())
}

/// Plays the suite. `progress(done, total)` is called after every game (from worker threads);
/// cancelling stops after the games in flight. Memory does not grow with the number of games:
/// each result is tallied as it comes and only the traces [`KeepTraces`] asks for stay.
pub fn run_suite(
    suite: &Suite,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &CancelToken,
) -> Result<SuiteResults, SuiteError> {
    run_suite_observed(suite, progress, &|_| {}, cancel)
}

/// [`run_suite`], handing every finished game to `observe` as it ends (from worker threads, in
/// any order), for callers that need more of each game than the tally keeps (`botlens compare`
/// pairs games of two bots by their position).
pub fn run_suite_observed(
    suite: &Suite,
    progress: &(dyn Fn(usize, usize) + Sync),
    observe: &(dyn Fn(&GameResult) + Sync),
    cancel: &CancelToken,
) -> Result<SuiteResults, SuiteError> {
    suite.game.visit(RunSuite { suite, progress, observe, cancel })
}

struct RunSuite<'a> {
    suite: &'a Suite,
    progress: &'a (dyn Fn(usize, usize) + Sync),
    observe: &'a (dyn Fn(&GameResult) + Sync),
    cancel: &'a CancelToken,
}

/// What the workers share: the tally and the kept games, under one lock.
struct Collected {
    tally: Tally,
    kept: BTreeMap<Position, GameResult>,
    played: u64,
    error: Option<SuiteError>,
}

impl Collected {
    fn add(&mut self, game: GameResult, keep: KeepTraces) {
        self.played += 1;
        self.tally.add(game.counted());
        let at = game.position();
        match keep {
            KeepTraces::All => {
                self.kept.insert(at, game);
            }
            KeepTraces::Failures if game.fault.is_some() => {
                self.kept.insert(at, game);
                // Only each group's first game stays.
                let firsts: BTreeSet<Position> = self
                    .tally
                    .groups
                    .values()
                    .chain(self.tally.overflow.values())
                    .map(|group| group.first_at)
                    .collect();
                self.kept.retain(|at, _| firsts.contains(at));
            }
            KeepTraces::Failures => {}
        }
    }
}

impl GameVisitor for RunSuite<'_> {
    type Output = Result<SuiteResults, SuiteError>;

    fn visit<G: Scored>(self) -> Self::Output {
        let suite = self.suite;
        let started = Instant::now();
        validate::<G>(suite)?;
        let total = suite.total_games();
        let next = AtomicU64::new(0);
        let stop = CancelToken::new();
        let collected = Mutex::new(Collected {
            tally: Tally::new(suite.opponents.len(), suite.seeds, suite.paired),
            kept: BTreeMap::new(),
            played: 0,
            error: None,
        });
        let workers = workers(suite, total);

        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    while !self.cancel.is_cancelled() && !stop.is_cancelled() {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= total {
                            break;
                        }
                        let (opponent, seed, bot_seat) = suite.game_at(index);
                        let result =
                            play_one::<G>(suite, opponent, seed, bot_seat, records_marks(suite));
                        (self.observe)(&result);
                        let written = write_trace(suite, &result);
                        let mut shared = collected.lock().unwrap_or_else(|p| p.into_inner());
                        if let Err(error) = written {
                            shared.error.get_or_insert(error);
                            stop.cancel();
                            break;
                        }
                        let result = if suite.trace_dir.is_some() && !keeps(suite, &result) {
                            GameResult { trace: None, ..result }
                        } else {
                            result
                        };
                        shared.add(result, suite.keep_traces);
                        let done = shared.played as usize;
                        drop(shared);
                        (self.progress)(done, total as usize);
                    }
                });
            }
        });

        let mut collected = collected.into_inner().unwrap_or_else(|p| p.into_inner());
        if let Some(error) = collected.error {
            return Err(error);
        }
        if !records_marks(suite) {
            for game in collected.kept.values_mut() {
                record_marks::<G>(suite, game);
            }
        }
        Ok(SuiteResults {
            cancelled: collected.played < total,
            played: collected.played,
            tally: collected.tally,
            kept: collected.kept.into_values().collect(),
            duration: started.elapsed(),
        })
    }
}

/// Whether every game of the suite records the marks its bots draw: when every game's trace is
/// kept. Otherwise only the games kept are played again recording them ([`record_marks`]).
fn records_marks(suite: &Suite) -> bool {
    suite.keep_traces == KeepTraces::All || suite.trace_dir.is_some()
}

/// Gives a kept game's trace the marks its bots drew, by playing it again recording them: the
/// same game, since drawing costs the same fuel recorded or not (only a game with a bot that
/// draws is played again).
fn record_marks<G: Scored>(suite: &Suite, game: &mut GameResult) {
    let opponent = &suite.opponents[game.opponent];
    let draws = suite.bot.draws() || (!G::OPPONENTS_ARE_BOARDS && opponent.draws());
    if game.trace.is_none() || !draws {
        return;
    }
    let again = play_one::<G>(suite, game.opponent, game.seed, game.bot_seat, true);
    debug_assert_eq!(again.fault, game.fault, "a game played again recording marks differs");
    if again.fault == game.fault && again.turns == game.turns {
        game.trace = again.trace;
    }
}

/// Whether a game's trace may stay in memory at all under the suite's policy.
fn keeps(suite: &Suite, game: &GameResult) -> bool {
    suite.keep_traces == KeepTraces::All || game.fault.is_some()
}

/// Writes the game's trace into the suite's trace directory, if it has one.
fn write_trace(suite: &Suite, game: &GameResult) -> Result<(), SuiteError> {
    let (Some(dir), Some(trace)) = (&suite.trace_dir, &game.trace) else { return Ok(()) };
    let name = traces::file_name(suite.opponents[game.opponent].name(), game.seed, game.bot_seat);
    traces::write_atomically(dir, &name, trace)
        .map(drop)
        .map_err(|error| SuiteError::TraceWrite { path: dir.join(name), error })
}

/// Refuses a suite that cannot start: no opponents, a bad turn cap or pairing, too many traces
/// to keep, or a contender that cannot sit in its seat.
pub(crate) fn validate<G: Scored>(suite: &Suite) -> Result<(), SuiteError> {
    if suite.opponents.is_empty() {
        return Err(SuiteError::BadContender("the suite has no opponents".into()));
    }
    check_turn_cap(suite.limits.max_turns)?;
    check_paired(suite.game, suite.paired)?;
    if let Some(units) = &suite.only {
        let outside = units.iter().find(|&&(opponent, seed)| {
            opponent >= suite.opponents.len() || !suite.seeds.contains(seed)
        });
        if let Some((opponent, seed)) = outside {
            return Err(SuiteError::BadContender(format!(
                "the game against opponent {opponent} on seed {seed} is not in the suite ({} opponents, seeds {})",
                suite.opponents.len(),
                suite.seeds
            )));
        }
    }
    if let Some(play_on) = &suite.play_on {
        play_on.actions::<G>().map_err(|error| SuiteError::PlayOn(error.to_string()))?;
        play_on.config::<G>().map_err(SuiteError::PlayOn)?;
    }
    let games = suite.total_games();
    if suite.keep_traces == KeepTraces::All && games > MAX_KEPT_GAMES {
        return Err(SuiteError::TooManyTraces(games));
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

/// Plays one game of the suite, the bot in `bot_seat`; every failure to set it up becomes a
/// result, never a panic.
fn play_one<G: Scored>(
    suite: &Suite,
    opponent_index: usize,
    seed: u64,
    bot_seat: Seat,
    drawing: bool,
) -> GameResult {
    let opponent = &suite.opponents[opponent_index];
    let mut bot = suite
        .bot
        .drawing_player::<G>(seed, bot_seat, &suite.sandbox_limits, drawing)
        .expect("validated before the suite started");
    if let Some(play_on) = suite.play_on.as_ref().filter(|play_on| play_on.seat == bot_seat) {
        let actions = play_on.actions::<G>().expect("validated before the suite started");
        bot = Box::new(Opening::new(actions, bot));
    }
    let (config, record) = play_match(suite, opponent_index, seed, bot_seat, bot.as_mut(), drawing);
    let mut seats: Vec<&Contender> =
        if G::OPPONENTS_ARE_BOARDS { vec![&suite.bot] } else { vec![&suite.bot, opponent] };
    seats.rotate_left(bot_seat);
    let fault = record.outcome.fault.clone().filter(|f| f.seat == bot_seat);
    let keep = fault.is_some() || suite.keep_traces == KeepTraces::All || suite.trace_dir.is_some();
    GameResult {
        opponent: opponent_index,
        seed,
        bot_seat,
        result: record.result_for(bot_seat),
        moves: G::moves(&record, bot_seat),
        par: G::par(&config),
        turns: record.outcome.turns,
        bot_turns: record.moves.iter().filter(|m| m.seat == bot_seat).count() as u32,
        wasteful_turns: record.wasteful_turns(bot_seat),
        // Player infos and the trace are built only for a trace that is kept.
        trace: keep.then(|| {
            let infos = seats.iter().map(|seat| seat.info()).collect();
            record.to_trace(infos, trace_limits(suite))
        }),
        fault,
    }
}

/// Plays one game of a validated suite with `bot` (the suite's bot, or a player made from it)
/// in `bot_seat` against opponent `opponent_index` (or on its board): the game's config and
/// record.
pub(crate) fn play_match<G: Scored>(
    suite: &Suite,
    opponent_index: usize,
    seed: u64,
    bot_seat: Seat,
    bot: &mut dyn Player<G>,
    drawing: bool,
) -> (G::Config, MatchRecord<G>) {
    let opponent = &suite.opponents[opponent_index];
    // Playing on from a stored game: its config, whatever the opponent's name says.
    let config = match suite.play_on.as_ref().filter(|play_on| play_on.seat == bot_seat) {
        Some(play_on) => play_on.config::<G>(),
        None if G::OPPONENTS_ARE_BOARDS => G::config_for(opponent.name(), seed),
        None => Ok(G::Config::default()),
    }
    .expect("validated before the suite started");
    let record = if G::OPPONENTS_ARE_BOARDS {
        runner::play_match::<G>(&config, seed, &mut [bot], &suite.limits)
    } else {
        let mut other = opponent
            .drawing_player::<G>(seed, 1 - bot_seat, &suite.sandbox_limits, drawing)
            .expect("validated before the suite started");
        let players: &mut [&mut dyn Player<G>] =
            if bot_seat == 0 { &mut [bot, other.as_mut()] } else { &mut [other.as_mut(), bot] };
        runner::play_match::<G>(&config, seed, players, &suite.limits)
    };
    (config, record)
}

/// The worker threads for `total` games of `suite`: its `jobs` (0: one per core), at most
/// [`MAX_JOBS`] and no more than the games.
fn workers(suite: &Suite, total: u64) -> usize {
    match suite.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(MAX_JOBS)
    .min(total.max(1) as usize)
}

/// Plays every opponent of `suite` on every seed of it (in that order: opponent, then seed) on
/// its worker threads, each game by `play(opponent, seed)`, telling `progress` of each finished
/// one; stops starting games once `cancel` is cancelled. The results come back in that order
/// whatever the threads, so what is summed from them is the same every run.
pub(crate) fn play_each<T: Send>(
    suite: &Suite,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
    play: impl Fn(usize, u64) -> T + Sync,
) -> Vec<T> {
    let seeds = suite.seeds.len();
    let total = seeds * suite.opponents.len() as u64;
    let next = AtomicU64::new(0);
    let played = Mutex::new(Vec::with_capacity(total as usize));
    std::thread::scope(|scope| {
        for _ in 0..workers(suite, total) {
            scope.spawn(|| {
                while !cancel.is_cancelled() {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= total {
                        break;
                    }
                    let opponent = (index / seeds) as usize;
                    let game = play(opponent, suite.seeds.first() + index % seeds);
                    let mut played = played.lock().unwrap_or_else(|p| p.into_inner());
                    played.push((index, game));
                    let done = played.len();
                    drop(played);
                    progress(Stage::Playing { done, total: total as usize });
                }
            });
        }
    });
    let mut played = played.into_inner().unwrap_or_else(|p| p.into_inner());
    played.sort_by_key(|(index, _)| *index);
    played.into_iter().map(|(_, game)| game).collect()
}

fn trace_limits(suite: &Suite) -> serde_json::Value {
    json!({ "engine": suite.limits, "sandbox": suite.sandbox_limits })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use botlens_stats::Tally as _;

    /// A suite of reference players (two workers, failures' traces kept), for tests here and
    /// in the modules that report on suites.
    pub(crate) fn suite(game: GameKind, bot: &str, opponents: &[&str], seeds: &str) -> Suite {
        Suite {
            game,
            bot: Contender::Reference(bot.into()),
            opponents: opponents.iter().map(|o| Contender::Reference((*o).into())).collect(),
            seeds: seeds.parse().unwrap(),
            limits: MatchLimits::default(),
            sandbox_limits: SandboxLimits::default(),
            jobs: 2,
            keep_traces: KeepTraces::Failures,
            trace_dir: None,
            paired: false,
            play_on: None,
            only: None,
            shard: None,
        }
    }

    fn play(spec: &Suite) -> SuiteResults {
        run_suite(spec, &|_, _| {}, &CancelToken::new()).unwrap()
    }

    #[test]
    fn results_are_the_same_whatever_the_threads() {
        let spec = suite(GameKind::TicTacToe, "random", &["random", "perfect"], "0..20");
        let all = Suite { keep_traces: KeepTraces::All, ..spec.clone() };
        let (a, b) = (play(&all), play(&Suite { jobs: 1, ..all }));
        assert_eq!(a.tally, b.tally);
        let key = |r: &SuiteResults| -> Vec<_> {
            r.kept
                .iter()
                .map(|g| (g.opponent, g.seed, g.result, g.trace.clone().map(|t| t.to_json())))
                .collect()
        };
        assert_eq!(key(&a), key(&b), "every trace kept, in (opponent, seed) order");
        assert_eq!((a.played, a.kept.len()), (40, 40));
        assert_eq!(a.tally.opponents[1].wins, 0, "nobody beats perfect");
        assert!(play(&spec).kept.is_empty(), "no failure, no trace kept by default");
    }

    #[test]
    fn a_suite_of_some_units_plays_those_games_exactly_as_the_whole_suite_does() {
        let whole = Suite {
            keep_traces: KeepTraces::All,
            paired: true,
            ..suite(GameKind::TicTacToe, "random", &["random", "perfect"], "0..20")
        };
        let units = vec![(1, 3), (0, 17), (1, 12)];
        let some = Suite { only: Some(units.clone()), ..whole.clone() };
        let (all, part) = (play(&whole), play(&some));
        assert_eq!(part.played, 6, "each unit in both seats");
        for game in &part.kept {
            assert!(units.contains(&(game.opponent, game.seed)), "{:?}", game.position());
            let same = all.kept_game_at(game.position()).unwrap();
            assert_eq!(
                game.trace.as_ref().map(Trace::to_json),
                same.trace.as_ref().map(Trace::to_json)
            );
        }
        let outside = Suite { only: Some(vec![(0, 20)]), ..whole.clone() };
        let error = run_suite(&outside, &|_, _| {}, &CancelToken::new()).unwrap_err();
        assert!(error.to_string().contains("seed 20 is not in the suite"), "{error}");
        let no_opponent = Suite { only: Some(vec![(2, 1)]), ..whole };
        assert!(run_suite(&no_opponent, &|_, _| {}, &CancelToken::new()).is_err());
    }

    #[test]
    fn a_paired_game_in_seat_1_is_the_game_with_the_players_swapped() {
        let paired = Suite {
            paired: true,
            keep_traces: KeepTraces::All,
            ..suite(GameKind::Battleships, "hunter", &["random"], "0..6")
        };
        let swapped = Suite {
            keep_traces: KeepTraces::All,
            ..suite(GameKind::Battleships, "random", &["hunter"], "0..6")
        };
        let (pairs, other) = (play(&paired), play(&swapped));
        assert_eq!((pairs.played, pairs.kept.len()), (12, 12));
        for seed in 0..6 {
            let first = pairs.kept_game_at((0, seed, 0)).unwrap();
            let second = pairs.kept_game_at((0, seed, 1)).unwrap();
            let mirror = other.kept_game_at((0, seed, 0)).unwrap();
            let trace = |g: &GameResult| g.trace.clone().unwrap();
            assert_eq!(trace(second).to_json(), trace(mirror).to_json(), "seed {seed}");
            assert_eq!(trace(second).players[1].name, "hunter");
            assert_eq!(trace(first).players[0].name, "hunter");
            // The same seed sets up the same game: the same seat moves first, so the bot moves
            // first in exactly one game of the pair.
            assert_eq!(trace(first).first_mover, trace(second).first_mover);
            assert_eq!(trace(first).initial_state, trace(second).initial_state);
            let flipped = match mirror.result {
                SeatResult::Win => SeatResult::Loss,
                SeatResult::Loss => SeatResult::Win,
                SeatResult::Draw => SeatResult::Draw,
            };
            assert_eq!(second.result, flipped, "counted from the bot's side");
        }
    }

    #[test]
    fn paired_suites_count_pairs_and_are_the_same_whatever_the_threads() {
        let spec = Suite {
            paired: true,
            ..suite(GameKind::TicTacToe, "random", &["perfect", "random"], "0..40")
        };
        let (a, b) = (play(&spec), play(&Suite { jobs: 1, ..spec.clone() }));
        assert_eq!(a.tally, b.tally);
        assert_eq!(a.played, 160);
        let row = &a.tally.opponents[1];
        assert_eq!((row.games, row.pairs.pairs()), (80, 40));
        assert_eq!(row.pairs.games(), 80);
        let points = row.wins as f64 + row.draws as f64 / 2.0;
        assert!((row.pairs.score().unwrap() * 80.0 - points).abs() < 1e-9);
        assert!(a.tally.waiting.is_empty(), "every pair is complete");
        assert_eq!(a.tally.opponents[0].wins, 0, "nobody beats perfect, in either seat");
    }

    #[test]
    fn a_puzzle_cannot_be_paired() {
        let spec =
            Suite { paired: true, ..suite(GameKind::Klotski, "optimal", &["hengdaolima"], "0") };
        let err = run_suite(&spec, &|_, _| {}, &CancelToken::new()).unwrap_err().to_string();
        assert_eq!(
            err,
            "klotski is a one-player puzzle: there are no seats to swap, so games cannot be paired"
        );
        assert!(check_paired(GameKind::Klotski, false).is_ok());
        assert!(check_paired(GameKind::TicTacToe, true).is_ok());
    }

    #[test]
    fn unknown_names_and_out_of_range_caps_are_refused_before_playing() {
        let spec = suite(GameKind::Battleships, "hunter", &["nobody"], "0..2");
        let err = run_suite(&spec, &|_, _| {}, &CancelToken::new()).unwrap_err().to_string();
        assert!(err.contains("no reference player `nobody`"), "{err}");
        assert!(err.contains("hunter"), "lists the known names: {err}");
        for cap in [0, MAX_TURN_CAP + 1, u32::MAX] {
            let spec = Suite {
                limits: MatchLimits { max_turns: Some(cap) },
                ..suite(GameKind::Klotski, "optimal", &["hengdaolima"], "0")
            };
            let err = run_suite(&spec, &|_, _| {}, &CancelToken::new()).unwrap_err();
            assert!(matches!(err, SuiteError::TurnCap(c) if c == cap), "{err}");
        }
        let many = Suite {
            keep_traces: KeepTraces::All,
            ..suite(GameKind::TicTacToe, "random", &["random"], "0..1001")
        };
        let err = run_suite(&many, &|_, _| {}, &CancelToken::new()).unwrap_err().to_string();
        assert!(err.contains("at most 1000 games"), "{err}");
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
        assert!(results.played < 500);
    }

    #[test]
    fn every_trace_is_written_as_its_game_ends_and_none_stays_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let spec = Suite {
            trace_dir: Some(dir.path().join("traces")),
            ..suite(GameKind::TicTacToe, "random", &["perfect"], "0..30")
        };
        let results = play(&spec);
        assert!(results.kept.is_empty());
        let files = std::fs::read_dir(dir.path().join("traces")).unwrap().count();
        assert_eq!(files, 30);
        let text = std::fs::read_to_string(
            dir.path().join("traces").join(traces::file_name("perfect", 7, 0)),
        )
        .unwrap();
        assert!(Trace::from_json(&text).is_ok(), "{text}");
        // A directory that cannot be written stops the suite with the file named.
        let blocked =
            Suite { trace_dir: Some(dir.path().join("traces/perfect-seed7.json")), ..spec };
        let err = run_suite(&blocked, &|_, _| {}, &CancelToken::new()).unwrap_err();
        assert!(matches!(err, SuiteError::TraceWrite { .. }), "{err}");
    }

    #[test]
    fn only_the_first_failing_game_of_each_group_keeps_its_trace() {
        let failure = |line| {
            let location =
                botlens_engine::SourceLocation { file: "src/lib.rs".into(), line, column: 1 };
            Fault {
                seat: 0,
                turn: 3,
                failure: botlens_engine::Failure::new(botlens_engine::FailureKind::Panic, "boom")
                    .at(Some(location)),
            }
        };
        let game = |seed: u64, line: Option<u32>| GameResult {
            opponent: 0,
            seed,
            bot_seat: 0,
            result: SeatResult::Loss,
            moves: 1,
            par: None,
            turns: 3,
            bot_turns: 2,
            fault: line.map(failure),
            wasteful_turns: Vec::new(),
            trace: None,
        };
        let mut collected = Collected {
            tally: Tally::new(1, SeedRange::new(0, 9).unwrap(), false),
            kept: BTreeMap::new(),
            played: 0,
            error: None,
        };
        for (seed, line) in [(9, Some(4)), (5, Some(4)), (7, Some(8)), (2, None), (6, Some(4))] {
            collected.add(game(seed, line), KeepTraces::Failures);
        }
        assert_eq!(collected.kept.keys().copied().collect::<Vec<_>>(), [(0, 5, 0), (0, 7, 0)]);
        assert_eq!(collected.played, 5);
    }
}

//! [`WasmPlayer`]: a bot module playing one game, turn by turn, under its limits.
//!
//! Each turn moves the engine's [`Turn`] into the store (so the `act` import can apply the move
//! synchronously), gives the store the turn's fuel and a wall-clock deadline, calls
//! `botlens_play`, and moves the turn back with the fuel used and the output captured. Whatever
//! the bot does, the turn comes back: every way a call can end is turned into a typed, located
//! [`Failure`] of this game.

use std::time::{Duration, Instant};

use botlens_engine::{Failure, FailureKind, Game, Player, Seat, SeedRng, Stream, Turn, TurnCost};
use wasmtime::{Extern, ModuleExport, Store, Trap, TypedFunc, WasmBacktrace};

use crate::backstop::{self, Backstop};
use crate::config::SandboxLimits;
use crate::host::{Host, Limiter, Stop};
use crate::module::{BotModule, Recipe};
use crate::output::Output;
use crate::profile::{FuelProfile, PROFILED_BACKSTOP_FACTOR, Recorder, ScriptSampler};
use crate::stated::{self, Stated};
use crate::text;
use crate::waste::{LocatedMove, MoveLog};

/// A WebAssembly bot in one game; made by [`BotModule::player`].
///
/// Implements [`Player`], so the engine's runner plays it like any other player. Its instance is
/// created on its first turn and dropped with it; make a new player for every game.
///
/// ```no_run
/// # fn demo(bot: &botlens_sandbox::BotModule, opponent: &mut dyn botlens_engine::Player<botlens_tictactoe::TicTacToe>) {
/// use botlens_engine::runner::{self, MatchLimits};
/// use botlens_sandbox::SandboxLimits;
/// use botlens_tictactoe::TicTacToe;
///
/// let seed = 7;
/// let mut wasm = bot.player::<TicTacToe>(seed, 0, &SandboxLimits::default());
/// let record = runner::play_match::<TicTacToe>(&(), seed, &mut [&mut wasm, opponent], &MatchLimits::default());
/// println!("{}", record.outcome.reason);
/// # }
/// ```
pub struct WasmPlayer<G: Game> {
    module: BotModule,
    seat: Seat,
    limits: SandboxLimits,
    /// Fuel spent so far and the wall-clock deadline of a turn.
    meter: Meter,
    state: State<G>,
    /// The source of the bot's WASI random bytes, handed to its store.
    rng: SeedRng,
    /// Wall-clock timings, for `botlens bench` (never part of a trace); kept only when asked
    /// for with [`WasmPlayer::timed`].
    stats: PlayerStats,
    timed: bool,
    /// The fuel profile being recorded, for a player made [`WasmPlayer::profiled`].
    profile: Option<Recorder>,
    /// Where its moves were made, for a player made [`WasmPlayer::locating_wasted`] or
    /// [`WasmPlayer::locating_moves`].
    located: Option<MoveLog>,
    /// Whether it keeps the marks the bot draws ([`WasmPlayer::drawing`]).
    records_marks: bool,
}

/// Where a [`WasmPlayer`]'s wall-clock time went in its game so far. Measurements for
/// `botlens bench`; not deterministic, so never recorded in traces.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayerStats {
    /// Creating the store and instance and running `_initialize` and `botlens_new`.
    pub instantiate: Duration,
    /// Time inside guest calls, instantiation included (so `in_guest - instantiate` is the
    /// turns' own time: bot work, host calls it made, message encoding).
    pub in_guest: Duration,
    /// Turns played.
    pub turns: u32,
}

enum State<G: Game> {
    /// Not instantiated yet (or not instantiable: the failure to report).
    Ready(Result<Recipe<G>, Failure>),
    /// Between turns.
    Running { store: Store<Host<G>>, bot: Started },
    /// The game was lost (or the instance is unusable).
    Finished(Failure),
    /// A turn is under way (seen only if that turn panicked in the host).
    Interrupted,
}

impl<G: Game> std::fmt::Debug for WasmPlayer<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WasmPlayer")
            .field("module", &self.module)
            .field("seat", &self.seat)
            .field("fuel_spent", &self.meter.fuel_spent)
            .finish_non_exhaustive()
    }
}

/// The fuel of one turn, and which budget bounds it.
#[derive(Debug, Clone, Copy)]
struct Budget {
    fuel: u64,
    game_bound: bool,
}

impl BotModule {
    /// A player for one game of `G`, in `seat`, with WASI randomness from `seed`.
    ///
    /// Never fails: if the module cannot be instantiated for these limits (or the limits are
    /// invalid, see [`SandboxLimits::check`]), the player's first turn fails the game with
    /// `bad_module`. The instance is created on the first turn.
    ///
    /// ```no_run
    /// # fn demo(bot: &botlens_sandbox::BotModule) {
    /// use botlens_sandbox::SandboxLimits;
    /// use botlens_tictactoe::TicTacToe;
    ///
    /// let player = bot.player::<TicTacToe>(42, 0, &SandboxLimits::default());
    /// # drop(player);
    /// # }
    /// ```
    pub fn player<G: Game>(&self, seed: u64, seat: Seat, limits: &SandboxLimits) -> WasmPlayer<G> {
        let recipe = limits
            .check()
            .map_err(|message| {
                Failure::new(FailureKind::BadModule, format!("invalid sandbox limits: {message}"))
            })
            .and_then(|()| self.recipe::<G>(limits.stack_bytes))
            .map(|recipe| self.payload_recipe(recipe, limits.stack_bytes));
        WasmPlayer::new(self.clone(), recipe, seed, seat, *limits)
    }
}

impl<G: Game> WasmPlayer<G> {
    pub(crate) fn new(
        module: BotModule,
        recipe: Result<Recipe<G>, Failure>,
        seed: u64,
        seat: Seat,
        limits: SandboxLimits,
    ) -> Self {
        let rng = SeedRng::new(seed, Stream::BotRandom(seat));
        WasmPlayer {
            module,
            seat,
            meter: Meter {
                fuel_spent: 0,
                backstop: Duration::from_millis(limits.wall_clock_ms_per_turn),
                deadline_ticks: backstop::deadline_ticks(Duration::from_millis(
                    limits.wall_clock_ms_per_turn,
                )),
            },
            limits,
            state: State::Ready(recipe),
            rng,
            stats: PlayerStats::default(),
            timed: false,
            profile: None,
            located: None,
            records_marks: false,
        }
    }

    /// The fuel this bot burnt so far in the game.
    ///
    /// ```no_run
    /// # fn demo(player: &botlens_sandbox::WasmPlayer<botlens_tictactoe::TicTacToe>) {
    /// println!("{} fuel so far", player.fuel_spent());
    /// # }
    /// ```
    pub fn fuel_spent(&self) -> u64 {
        self.meter.fuel_spent
    }

    /// Keeps wall-clock timings in [`WasmPlayer::stats`], at the cost of two clock reads per
    /// turn (a tenth of the sandbox's own time per turn): for benchmarks.
    #[must_use]
    pub fn timed(mut self) -> Self {
        self.timed = true;
        self
    }

    /// Records where the bot's fuel goes, sampling its call stack every `interval` epoch checks
    /// (function entries and loop back-edges; at least 1): see [`WasmPlayer::profile`]. Deterministic, like the game: the same module,
    /// seed, seat, limits and interval give the same profile. It costs the game time (every
    /// function entry and loop back-edge calls into the host), so only profiled players pay,
    /// and its backstop is scaled to match: a profiled turn is interrupted (`timeout`) only
    /// once its thread has run 50 times the turn's backstop, in CPU time, so that a
    /// game profiled again on a loaded machine gives the same profile as on an idle one.
    ///
    /// ```no_run
    /// # fn demo(bot: &botlens_sandbox::BotModule) {
    /// use botlens_sandbox::SandboxLimits;
    /// use botlens_tictactoe::TicTacToe;
    ///
    /// let player = bot.player::<TicTacToe>(42, 0, &SandboxLimits::default()).profiled(10_000);
    /// # drop(player);
    /// # }
    /// ```
    #[must_use]
    pub fn profiled(mut self, interval: u64) -> Self {
        self.profile = Some(Recorder::new(interval));
        // The store's deadline stays at "now": every epoch check reaches the sampler, which
        // keeps the backstop itself.
        self.meter.deadline_ticks = 0;
        self
    }

    /// The fuel profile of the turns played so far, turn by turn (the turn that lost the game
    /// included), symbolized with the module's debug information; `None` unless the player
    /// was made [`WasmPlayer::profiled`].
    ///
    /// ```no_run
    /// # fn demo(player: &botlens_sandbox::WasmPlayer<botlens_tictactoe::TicTacToe>) {
    /// if let Some(profile) = player.profile() {
    ///     println!("{} fuel over {} turns", profile.fuel(), profile.turns.len());
    /// }
    /// # }
    /// ```
    pub fn profile(&self) -> Option<FuelProfile> {
        self.profile.as_ref().map(|recorder| recorder.finish(self.module.locator()))
    }

    /// Captures the bot's call stack at each legal move the game calls wasted (a Battleships
    /// re-attack), up to [`MAX_WASTED_LOCATED`](crate::MAX_WASTED_LOCATED) a game: see
    /// [`WasmPlayer::wasted_moves`]. Other players pay nothing for it. A language runner's
    /// moves are located where it says (`botlens.wasted`: its stack is the interpreter's).
    ///
    /// ```no_run
    /// # fn demo(bot: &botlens_sandbox::BotModule) {
    /// use botlens_sandbox::SandboxLimits;
    /// use botlens_battleships::Battleships;
    ///
    /// let player = bot.player::<Battleships>(42, 0, &SandboxLimits::default()).locating_wasted();
    /// # drop(player);
    /// # }
    /// ```
    #[must_use]
    pub fn locating_wasted(mut self) -> Self {
        self.located = Some(MoveLog::default());
        self
    }

    /// Captures the bot's call stack at every legal move it makes, up to
    /// [`MAX_LOCATED_MOVES`](crate::MAX_LOCATED_MOVES) a game: see [`WasmPlayer::located_moves`].
    /// For `botlens analyze`, which judges every move; the game is the same game (a language
    /// runner states each move's place on fuel it is given back).
    ///
    /// ```no_run
    /// # fn demo(bot: &botlens_sandbox::BotModule) {
    /// use botlens_sandbox::SandboxLimits;
    /// use botlens_tictactoe::TicTacToe;
    ///
    /// let player = bot.player::<TicTacToe>(42, 0, &SandboxLimits::default()).locating_moves();
    /// # drop(player);
    /// # }
    /// ```
    #[must_use]
    pub fn locating_moves(mut self) -> Self {
        self.located = Some(MoveLog::every_move());
        self
    }

    /// Keeps the marks the bot draws (`botlens.draw`) on each turn, with the line that drew each,
    /// for a game whose trace is kept. The game is the same either way: a `draw` call costs the
    /// same fuel recorded or not, so the trace differs only by its `drawing` fields.
    ///
    /// ```no_run
    /// # fn demo(bot: &botlens_sandbox::BotModule) {
    /// use botlens_sandbox::SandboxLimits;
    /// use botlens_battleships::Battleships;
    ///
    /// let player = bot.player::<Battleships>(42, 0, &SandboxLimits::default()).drawing();
    /// # drop(player);
    /// # }
    /// ```
    #[must_use]
    pub fn drawing(mut self) -> Self {
        self.records_marks = true;
        self
    }

    /// The wasted moves located so far, in turn order, each with the bot's call stack; empty
    /// unless the player was made [`WasmPlayer::locating_wasted`] (or
    /// [`WasmPlayer::locating_moves`]).
    ///
    /// ```no_run
    /// # fn demo(player: &botlens_sandbox::WasmPlayer<botlens_battleships::Battleships>) {
    /// for wasted in player.wasted_moves() {
    ///     println!("turn {}: {} at {:?}", wasted.turn, wasted.action, wasted.location());
    /// }
    /// # }
    /// ```
    pub fn wasted_moves(&self) -> Vec<LocatedMove> {
        let mut moves = self.located_moves();
        moves.retain(|located| located.wasted);
        moves
    }

    /// The moves located so far, in turn order, each with the bot's call stack: every legal
    /// move for a player made [`WasmPlayer::locating_moves`], the wasted ones for one made
    /// [`WasmPlayer::locating_wasted`], else none.
    pub fn located_moves(&self) -> Vec<LocatedMove> {
        self.located.as_ref().map(MoveLog::moves).unwrap_or_default()
    }

    /// Wall-clock timings of this player so far (all zero unless [`WasmPlayer::timed`]); the
    /// turns played are always counted.
    pub fn stats(&self) -> PlayerStats {
        self.stats
    }

    fn budget(&self) -> Budget {
        let game_left = self.limits.fuel_per_game.saturating_sub(self.meter.fuel_spent);
        Budget {
            fuel: game_left.min(self.limits.fuel_per_turn),
            game_bound: game_left < self.limits.fuel_per_turn,
        }
    }

    fn new_store(&mut self, recipe: &Recipe<G>) -> Store<Host<G>> {
        let memory_cap = usize::try_from(self.limits.memory_bytes).unwrap_or(usize::MAX);
        let mut host = Host::new(
            self.module.encoding(),
            self.rng.clone(),
            Output::new(self.limits.output_bytes_per_turn, self.limits.output_lines_per_turn),
            Limiter { memory_cap, memory_bytes: 0 },
            self.module.locator().clone(),
        );
        host.payload = self.module.payload().cloned();
        host.runner = self.module.is_runner();
        host.located = self.located.clone();
        host.records_marks = self.records_marks;
        host.samples_script = self.profile.is_some() && self.module.profiles_script();
        let mut store = Store::new(recipe.pre.module().engine(), host);
        store.limiter(|host| &mut host.limiter);
        if let Some(recorder) = &self.profile {
            recorder.install(&mut store, self.module.locator().clone());
        } else {
            backstop::install(&mut store, |host| host.backstop.as_ref());
        }
        store
    }

    /// The failure for an error that ended guest code, or `None` if the failure is already on
    /// the turn. `stated`: where the guest said the bot was in the turn, which locates a runner's
    /// trap (where the interpreter last said the bot was: an endless loop's `out_of_fuel`).
    fn failure(
        &self,
        error: &wasmtime::Error,
        budget: Budget,
        stated: Option<&Stated>,
    ) -> Option<Failure> {
        let (kind, message) = if let Some(stop) = error.downcast_ref::<Stop>() {
            match stop {
                Stop::Failed => return None,
                Stop::Exit(_) => (FailureKind::Trap, stop.to_string()),
                Stop::Memory { .. } => (FailureKind::MemoryLimit, stop.to_string()),
            }
        } else if let Some(trap) = error.downcast_ref::<Trap>() {
            match trap {
                Trap::OutOfFuel if budget.game_bound => (
                    FailureKind::OutOfFuel,
                    format!(
                        "out of fuel: the game budget of {} is used up",
                        self.limits.fuel_per_game
                    ),
                ),
                Trap::OutOfFuel => (
                    FailureKind::OutOfFuel,
                    format!(
                        "out of fuel: the turn budget of {} is used up",
                        self.limits.fuel_per_turn
                    ),
                ),
                Trap::StackOverflow => (
                    FailureKind::StackOverflow,
                    format!(
                        "stack overflow: the wasm stack limit is {} bytes",
                        self.limits.stack_bytes
                    ),
                ),
                Trap::Interrupt if self.profile.is_some() => (
                    FailureKind::Timeout,
                    format!(
                        "the profiled turn ran for {} times the backstop of {} ms (in CPU time) \
                         before its fuel ran out",
                        PROFILED_BACKSTOP_FACTOR, self.limits.wall_clock_ms_per_turn
                    ),
                ),
                Trap::Interrupt => (
                    FailureKind::Timeout,
                    format!(
                        "the turn ran past its backstop before its fuel ran out: {} ms of CPU \
                         time (or {} times that by the wall clock, on a starved machine)",
                        self.limits.wall_clock_ms_per_turn,
                        backstop::WALL_FACTOR
                    ),
                ),
                other => {
                    let text = other.to_string();
                    (FailureKind::Trap, text.trim_start_matches("wasm trap: ").to_owned())
                }
            }
        } else {
            (FailureKind::Trap, text::shown_lines(&format!("{error:#}"), text::MAX_MESSAGE_BYTES))
        };
        let failure = Failure::new(kind, message);
        Some(match error.downcast_ref::<WasmBacktrace>() {
            // A runner's wasm functions are the interpreter's, not the bot's.
            _ if self.module.is_runner() => stated::place(stated, failure),
            Some(backtrace) => self.module.locator().place(backtrace, failure),
            None => failure,
        })
    }

    /// Interprets how a turn's guest code ended; `stated` is where the guest said the bot was in
    /// the turn (a runner's `no_move` is located there: the runner names the bot's `play`).
    fn outcome(
        &self,
        result: &wasmtime::Result<()>,
        turn: &Turn<G>,
        budget: Budget,
        stated: Option<&Stated>,
    ) -> Result<(), Failure> {
        match result {
            Ok(()) if turn.has_acted() || turn.failure().is_some() => Ok(()),
            Ok(()) => {
                let failure =
                    Failure::new(FailureKind::NoMove, "`play` returned without making a move");
                Err(if self.module.is_runner() {
                    stated::place(stated, failure)
                } else {
                    failure.at(self.module.locator().play_location())
                })
            }
            Err(error) => self.failure(error, budget, stated).map_or(Ok(()), Err),
        }
    }

    /// Counts a played turn, interprets how its guest code ended, and ends the game here if the
    /// turn lost it (the failure is then kept for any later turn).
    fn finish_turn(
        &mut self,
        result: &wasmtime::Result<()>,
        turn: &Turn<G>,
        budget: Budget,
        stated: Option<&Stated>,
    ) -> Result<(), Failure> {
        self.stats.turns += 1;
        if let Some(recorder) = &self.profile {
            // A runner's trap is in the interpreter's frames: its script's were sampled.
            let trap = result.as_ref().err().and_then(|e| e.downcast_ref::<WasmBacktrace>());
            let trap = trap.filter(|_| !self.module.profiles_script());
            recorder.end_turn(self.meter.fuel_spent, trap, self.module.locator());
        }
        let outcome = self.outcome(result, turn, budget, stated);
        if let Some(failure) = outcome.as_ref().err().or(turn.failure()) {
            self.state = State::Finished(failure.clone());
        }
        outcome
    }
}

/// What a player's turns share: the fuel spent so far in the game and the backstop of a turn.
#[derive(Debug, Clone, Copy)]
struct Meter {
    /// Fuel burnt in earlier turns of this game.
    fuel_spent: u64,
    /// The backstop of a turn, in CPU time (`crate::backstop`).
    backstop: Duration,
    /// Epoch ticks until a turn's store first checks its backstop (0: at every check, for the
    /// profiler).
    deadline_ticks: u64,
}

impl Meter {
    /// Runs `body` as this turn's guest code, with the turn inside the store, and puts
    /// everything back: the turn, its cost and its output.
    fn run<G: Game, R>(
        &mut self,
        store: &mut Store<Host<G>>,
        turn: &mut Turn<G>,
        budget: Budget,
        body: impl FnOnce(&mut Store<Host<G>>) -> wasmtime::Result<R>,
    ) -> wasmtime::Result<R> {
        let ready = store.set_fuel(budget.fuel);
        store.set_epoch_deadline(self.deadline_ticks);
        let host = store.data_mut();
        host.backstop = Some(Backstop::start(self.backstop));
        host.clock.spent_before = self.fuel_spent;
        host.clock.budget = budget.fuel;
        host.begin_turn(turn);

        let result = ready.and_then(|()| body(store));

        let left = store.get_fuel().unwrap_or(0);
        let used = budget.fuel.saturating_sub(left);
        self.fuel_spent += used;
        let host = store.data_mut();
        host.end_turn(turn);
        host.output.flush(|line| turn.log(line));
        let memory = Some(host.limiter.memory_bytes as u64);
        turn.set_cost(TurnCost { fuel: Some(used), memory });
        result
    }
}

/// Fuel a runner's `botlens_where` may burn: enough for the JavaScript runner to write a stack
/// of a thousand frames.
const WHERE_FUEL: u64 = 50_000_000;

/// A started bot: the exports its turns call.
struct Started {
    /// `botlens_play`.
    play: TypedFunc<(), ()>,
    /// A runner's `botlens_where`, if it has one.
    whereabouts: Option<TypedFunc<(), ()>>,
}

impl Started {
    /// Plays a turn, the trap that ends it located ([`located`]).
    fn play<G: Game>(&self, store: &mut Store<Host<G>>) -> wasmtime::Result<()> {
        let result = self.play.call(&mut *store, ());
        located(store, self.whereabouts.as_ref(), result)
    }
}

/// `result` of a runner's call (`botlens_new`, `botlens_play`): when it ended in a trap that left
/// the runner no chance to say where the bot was (the fuel ran out, the stack ran out, the
/// memory limit refused a growth, the interpreter aborted), the runner is asked
/// (`botlens_where`, on fuel of its own, the turn's left as it was), so the failure is located
/// at the bot's line: the loop, the recursion, the allocation, the operation that aborted.
fn located<G: Game>(
    store: &mut Store<Host<G>>,
    whereabouts: Option<&TypedFunc<(), ()>>,
    result: wasmtime::Result<()>,
) -> wasmtime::Result<()> {
    if let (Err(error), Some(whereabouts)) = (&result, whereabouts) {
        let trap = error.downcast_ref::<Trap>();
        let unsaid = matches!(
            trap,
            Some(Trap::StackOverflow | Trap::OutOfFuel | Trap::UnreachableCodeReached)
        ) || matches!(error.downcast_ref::<Stop>(), Some(Stop::Memory { .. }));
        if unsaid {
            let left = store.get_fuel().unwrap_or(0);
            if store.set_fuel(WHERE_FUEL).is_ok() {
                // Best effort: a runner that fails here states nothing.
                let _ = whereabouts.call(&mut *store, ());
            }
            let _ = store.set_fuel(left);
        }
    }
    result
}

/// Instantiates and starts the bot (`_initialize`, or the state `botlens_prepare` left, then
/// `botlens_new`), returning its exports a turn calls.
/// Errors that are not the bot's doing at run time (the module cannot be instantiated) are
/// `bad_module` failures on the turn.
fn start<G: Game>(
    store: &mut Store<Host<G>>,
    recipe: &Recipe<G>,
    seat: Seat,
) -> wasmtime::Result<Started> {
    let instance = recipe.pre.instantiate(&mut *store).map_err(|error| {
        if error.is::<Stop>() || error.is::<Trap>() {
            return error;
        }
        let failure = Failure::new(
            FailureKind::BadModule,
            text::shown_lines(
                &format!("cannot instantiate the module: {error:#}"),
                text::MAX_MESSAGE_BYTES,
            ),
        );
        store.data_mut().turn.fail(failure);
        wasmtime::Error::new(Stop::Failed)
    })?;
    let exports = recipe.exports;
    let func = |store: &mut Store<Host<G>>, export: &ModuleExport| {
        instance
            .get_module_export(&mut *store, export)
            .and_then(Extern::into_func)
            .ok_or_else(|| wasmtime::Error::msg("an export checked at load time is missing"))
    };
    let memory =
        instance.get_module_export(&mut *store, &exports.memory).and_then(Extern::into_memory);
    store.data_mut().memory = memory;
    match (&recipe.snapshot, memory) {
        // A prepared module starts where `botlens_prepare` left it (its `_initialize` ran then),
        // and `botlens_prepare_payload` changed it for the payload.
        (Some(snapshot), Some(memory)) => {
            snapshot.restore(store, &instance, memory)?;
            if let Some(payload_snapshot) = &recipe.payload_snapshot {
                payload_snapshot.restore(store, &instance, memory)?;
            }
        }
        _ => {
            if let Some(initialize) = &exports.initialize {
                func(store, initialize)?.typed::<(), ()>(&*store)?.call(&mut *store, ())?;
            }
        }
    }
    let whereabouts = match &exports.whereabouts {
        Some(export) if store.data().runner => Some(func(store, export)?.typed::<(), ()>(&*store)?),
        _ => None,
    };
    if let (Some(export), Some(memory), true) =
        (&exports.sample, memory, store.data().samples_script)
    {
        let sample = func(store, export)?.typed::<(), i64>(&*store)?;
        store.data_mut().script_sampler = Some(ScriptSampler { sample, memory });
    }
    let new = func(store, &exports.new)?.typed::<i32, ()>(&*store)?;
    let started = new.call(&mut *store, i32::try_from(seat).unwrap_or(i32::MAX));
    located(store, whereabouts.as_ref(), started)?;
    let play = func(store, &exports.play)?.typed::<(), ()>(&*store)?;
    Ok(Started { play, whereabouts })
}

impl<G: Game> Player<G> for WasmPlayer<G> {
    fn play(&mut self, turn: &mut Turn<G>) -> Result<(), Failure> {
        self.module.turn_begins(self.stats.turns + 1, self.seat, turn)?;
        let budget = self.budget();
        if let Some(recorder) = &self.profile {
            let wall_clock = Duration::from_millis(self.limits.wall_clock_ms_per_turn);
            recorder.begin_turn(budget.fuel, self.meter.fuel_spent, wall_clock);
        }
        // The common case, every turn after the first, runs in place: the state is not moved.
        if let State::Running { store, bot } = &mut self.state {
            let clock = self.timed.then(Instant::now);
            let result = self.meter.run(store, turn, budget, |store| bot.play(store));
            self.stats.in_guest += clock.map_or(Duration::ZERO, |clock| clock.elapsed());
            let stated = store.data().stated().cloned();
            return self.finish_turn(&result, turn, budget, stated.as_ref());
        }
        let state = std::mem::replace(&mut self.state, State::Interrupted);
        let recipe = match state {
            State::Running { .. } => unreachable!("handled above"),
            State::Interrupted => {
                return Err(Failure::new(
                    FailureKind::BadModule,
                    "a turn of this player was interrupted",
                ));
            }
            State::Finished(failure) => {
                let again = Failure::new(
                    failure.kind,
                    format!("the bot already lost this game: {}", failure.message),
                );
                self.state = State::Finished(failure);
                return Err(again);
            }
            State::Ready(Err(failure)) => {
                self.state = State::Finished(failure.clone());
                return Err(failure);
            }
            State::Ready(Ok(recipe)) => recipe,
        };
        // The first turn: instantiate and start the bot, then play.
        let clock = self.timed.then(Instant::now);
        let elapsed = || clock.map_or(Duration::ZERO, |clock| clock.elapsed());
        let mut store = self.new_store(&recipe);
        let seat = self.seat;
        let mut instantiated = Duration::ZERO;
        let started = self.meter.run(&mut store, turn, budget, |store| {
            let bot = start(store, &recipe, seat)?;
            instantiated = elapsed();
            bot.play(store)?;
            Ok(bot)
        });
        self.stats.instantiate += instantiated;
        self.stats.in_guest += elapsed();
        let stated = store.data().stated().cloned();
        let result = match started {
            Ok(bot) => {
                self.state = State::Running { store, bot };
                Ok(())
            }
            Err(error) => {
                let failure = Failure::new(FailureKind::BadModule, "the bot did not start");
                self.state = State::Finished(failure);
                Err(error)
            }
        };
        self.finish_turn(&result, turn, budget, stated.as_ref())
    }
}

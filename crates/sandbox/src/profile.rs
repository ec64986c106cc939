//! Deterministic fuel profiles: where a bot's fuel goes, by call stack, turn by turn.
//!
//! Sampling cannot follow a timer and stay deterministic, so it follows the code. wasmtime checks
//! the epoch at every function entry and loop back-edge; a profiled player's store keeps its
//! epoch deadline at "now", so every check calls [`Recorder`]'s callback, which captures the
//! wasm call stack every `interval` checks on average, give or take half of it from a fixed
//! stream (so a loop whose checks repeat with a period dividing the interval is not always
//! caught at the same one), and at a turn's first check. Each sample is then
//! charged fuel: compiled code writes the fuel it burnt back to the store only at calls and
//! returns (a loop without calls keeps it in a register), so the callback charges what the store
//! says was burnt since its last reading to the stacks sampled since, shared by how often each
//! was sampled; what is left at the end of a turn goes to the stacks sampled since the last
//! reading and to the stack of the trap that ended the turn, if any. Every unit of a turn's
//! fuel is charged to some stack, and the same module, seed, seat, limits and interval give the
//! same checks, the same fuel readings at them, and so the same profile, on every run and
//! machine.
//!
//! Sampling follows the stack's depth: capturing a stack walks all of it (about 600 ns a frame),
//! so a sample of more than [`SHALLOW_FRAMES`] frames puts the next off by [`CHECKS_PER_FRAME`]
//! checks per frame past those. A bot spinning under thousands of frames is then profiled about
//! as fast as any other (without this, a `loop br 0` under 5,000 calls took 3 µs per unit of
//! fuel), and the schedule, which depends on nothing but the stacks, is as deterministic as
//! before.
//!
//! A profiled turn has a backstop of its own: the ticker's deadline is not used in a profiled
//! store, so the callback reads the clock itself (at each sample and every [`CLOCK_CHECKS`]
//! checks) and interrupts the turn past it, which the player reports as `timeout` as usual.
//! Profiling makes a turn up to about 25 times slower per unit of fuel than the slowest
//! unprofiled code (a callback at every check: one per unit in `loop br 0`), and a profiled game
//! is usually a game played again to see where its fuel went, so its backstop is
//! [`PROFILED_BACKSTOP_FACTOR`] times the turn's,
//! counted in the time the thread ran (its CPU time), not the time that passed: a replay that
//! a loaded machine slows down is not cut short, and the same game gives the same profile idle
//! and loaded. Fuel still bounds a profiled turn; this only catches what fuel cannot.
//!
//! Stacks are kept raw (function index and code offset per wasm frame) while the game runs and
//! symbolized once, in [`Recorder::finish`], with the module's DWARF: each wasm frame becomes its
//! logical frames (inlined calls included), each named, located when the debug information says,
//! and marked as the bot's own code or not (std, other crates and the SDK are not; see
//! `crate::locate`).
//!
//! The same callback follows the bot's linear memory: when it finds the memory bigger than at
//! the check before, it captures the stack there and charges it the growth in bytes (memory
//! grows only by `memory.grow`, which returns to its caller, so the stack is that of the
//! allocation that grew it, give or take the allocator's own frames). [`FuelProfile::growth`]
//! is the game's growth by stack: which code made the memory as big as it is.
//!
//! A language runner's WebAssembly stack is its interpreter's. A runner that exports
//! `botlens_sample` (docs/abi.md; the Python runner) is asked for its script's frames instead:
//! the callback calls it, with the store's epoch deadline out of reach (wasmtime takes the
//! callback out while it runs, so a check in the call would interrupt it), on fuel of its own
//! that is then put back, and with every host call refused ([`Sampled::set_sampling`]), so the
//! game goes on as if nothing had run. The frames it states are kept by the line that stated
//! them ([`RawFrame::Script`]).
//!
//! Unprofiled players never install the callback: their stores trap at the ticker's deadline
//! as before and pay nothing for profiling.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use botlens_engine::SourceLocation;
use serde::{Deserialize, Serialize};
use wasmtime::{Memory, Store, StoreContextMut, TypedFunc, UpdateDeadline, WasmBacktrace};

use crate::backstop::thread_time;
use crate::locate::Locator;
use crate::stated;

/// Epoch checks between two reads of the clock when no sample is taken.
const CLOCK_CHECKS: u32 = 4096;

/// Frames a sample may have without putting the next off: more than a bot's usual depth.
const SHALLOW_FRAMES: u64 = 64;

/// Where the stream that spreads samples starts ([`Sampler::next_interval`]).
const SPREAD_SEED: u64 = 0x0062_6f74_6c65_6e73;

/// Epoch checks a sample puts the next off by, per frame past [`SHALLOW_FRAMES`]: what
/// capturing a frame costs (about 600 ns) in checks (about 25 ns each), rounded up.
const CHECKS_PER_FRAME: u64 = 32;

/// How many times the turn's wall-clock backstop a profiled turn may run, in CPU time. Profiled,
/// the slowest code takes about 42 ns of CPU per unit of fuel (a loop under thousands of calls;
/// `loop br 0` 24 ns) where unprofiled no code takes much more than 2 ns: a default turn
/// profiled lasts at most about 17 s, and this gives it 500 s.
pub(crate) const PROFILED_BACKSTOP_FACTOR: u32 = 50;

/// The deepest stack a sample keeps: its innermost wasm frames (a runaway recursion's stack
/// would otherwise cost memory with every sample).
const MAX_DEPTH: usize = 512;

/// Fuel a runner's `botlens_sample` may burn at a sample (its own, not the game's): far more
/// than writing the deepest stack Python allows takes.
const SAMPLE_FUEL: u64 = 10_000_000;

/// Epoch ticks beyond now: a deadline that a runner's `botlens_sample` never reaches.
const NO_DEADLINE: u64 = u64::MAX / 2;

/// A frame as captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum RawFrame {
    /// A wasm frame: its function index and code offset in the module.
    Wasm(u32, u32),
    /// A frame a runner stated ([`ScriptSampler`]): its index in [`Sampler::script_frames`].
    Script(u32),
}

/// A language runner's `botlens_sample` in a game's instance, and the memory it writes into:
/// called at a sample, it states the script's frames (docs/abi.md).
#[derive(Clone)]
pub(crate) struct ScriptSampler {
    /// `botlens_sample`.
    pub sample: TypedFunc<(), i64>,
    /// The instance's memory.
    pub memory: Memory,
}

/// A raw stack, innermost frame first.
type RawStack = Box<[RawFrame]>;

/// One frame of a profile's stacks: a function (possibly inlined) and where in it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ProfileFrame {
    /// The function's name, demangled without its hash.
    pub function: String,
    /// The source line, when the module's debug information has one.
    pub location: Option<SourceLocation>,
    /// Whether the frame is the bot's own code (not std, another crate or the SDK).
    pub bot: bool,
}

/// Fuel charged to one call stack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileSample {
    /// Indices into [`FuelProfile::frames`], outermost frame first; empty when the fuel was
    /// burnt where no frame was on the stack to be seen (no wasm frame; for a runner that states
    /// its script's frames, no frame of the script).
    pub stack: Vec<u32>,
    /// Fuel charged to it.
    pub fuel: u64,
}

/// The samples of one turn of the bot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnProfile {
    /// The bot's turn, from 0 (its first turn includes starting the module).
    pub turn: u32,
    /// Fuel the turn burnt: the sum of its samples' fuel.
    pub fuel: u64,
    /// Fuel per distinct stack, in the order of the stacks' frame indices.
    pub samples: Vec<ProfileSample>,
}

/// Memory growth charged to one call stack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrowthSample {
    /// Indices into [`FuelProfile::frames`], outermost frame first.
    pub stack: Vec<u32>,
    /// Bytes the memory grew by there, over the game.
    pub bytes: u64,
}

/// Where a bot's fuel went in one game: its frames and each turn's samples.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FuelProfile {
    /// Epoch checks (function entries and loop back-edges) between two samples.
    pub interval: u64,
    /// Every frame the samples name, each once.
    pub frames: Vec<ProfileFrame>,
    /// The turns the bot played, in order.
    pub turns: Vec<TurnProfile>,
    /// The growth of the bot's linear memory over the game (after its initial size), by the
    /// stack that grew it, in the order of the stacks' frame indices.
    pub growth: Vec<GrowthSample>,
}

impl FuelProfile {
    /// The fuel of every turn.
    pub fn fuel(&self) -> u64 {
        self.turns.iter().map(|turn| turn.fuel).sum()
    }
}

/// What the sampler reads and sets in a profiled store's data.
pub(crate) trait Sampled: 'static {
    /// The bot's memory size in bytes.
    fn memory_bytes(&self) -> u64;
    /// The runner's `botlens_sample`, once the game's instance has one.
    fn script_sampler(&self) -> Option<ScriptSampler>;
    /// Marks a runner's sample as running, or no longer: while it runs, every host call the
    /// guest makes fails (the sample then has no frames), so a sample cannot move, log or draw.
    fn set_sampling(&mut self, sampling: bool);
}

/// A profiled player's sampler, shared between the player and its store's epoch callback.
#[derive(Debug, Clone)]
pub(crate) struct Recorder {
    state: Arc<Mutex<Sampler>>,
}

/// What the callback updates.
#[derive(Debug)]
struct Sampler {
    /// Epoch checks between two samples, on average.
    interval: u64,
    /// The state of the stream that spreads the samples ([`Sampler::next_interval`]).
    spread: u64,
    /// Checks left before the next sample.
    until_sample: u64,
    /// Fuel left as last read (wasm code writes it back to the store at calls and returns).
    fuel_read: u64,
    /// The turn's fuel, and the game's fuel spent before it.
    turn_fuel: u64,
    spent_before: u64,
    /// Epoch checks since the clock was last read.
    clock_checks: u32,
    /// The thread's CPU time past which the turn is interrupted.
    deadline: Duration,
    /// Stacks sampled since the fuel read last moved, with how often each was sampled.
    pending: BTreeMap<RawStack, u64>,
    /// The turn's last sampled stack, if it took one yet.
    last: Option<RawStack>,
    /// The turn's fuel per stack so far.
    current: HashMap<RawStack, u64>,
    /// Finished turns.
    turns: Vec<HashMap<RawStack, u64>>,
    /// Wasm function names, by index, as first seen.
    names: HashMap<u32, String>,
    /// The frames runners stated, each once, and their index by the line that stated them.
    script_frames: Vec<ProfileFrame>,
    script_index: HashMap<Box<[u8]>, u32>,
    /// The bot's memory in bytes at the last check (`None` before the first).
    memory_seen: Option<u64>,
    /// The game's memory growth per stack so far.
    growth: HashMap<RawStack, u64>,
}

fn lock(state: &Mutex<Sampler>) -> MutexGuard<'_, Sampler> {
    // Every update leaves the sampler consistent, so a poisoned lock is still usable.
    state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Recorder {
    /// A sampler that samples the stack every `interval` epoch checks on average (at least 1).
    pub fn new(interval: u64) -> Self {
        let interval = interval.max(1);
        Recorder {
            state: Arc::new(Mutex::new(Sampler {
                interval,
                spread: SPREAD_SEED,
                until_sample: interval,
                fuel_read: 0,
                turn_fuel: 0,
                spent_before: 0,
                clock_checks: 0,
                deadline: Duration::ZERO,
                pending: BTreeMap::new(),
                last: None,
                current: HashMap::new(),
                turns: Vec::new(),
                names: HashMap::new(),
                script_frames: Vec::new(),
                script_index: HashMap::new(),
                memory_seen: None,
                growth: HashMap::new(),
            })),
        }
    }

    /// Makes `store` call the sampler at every epoch check (its deadline must be kept at 0).
    /// Once the game's instance has a runner's [`ScriptSampler`], samples are the script's
    /// frames, not the WebAssembly stack.
    pub fn install<T: Sampled>(&self, store: &mut Store<T>, locator: Arc<Locator>) {
        let state = Arc::clone(&self.state);
        store.epoch_deadline_callback(move |mut context: StoreContextMut<'_, T>| {
            let mut sampler = lock(&state);
            let size = context.data().memory_bytes();
            let grown =
                sampler.memory_seen.and_then(|seen| size.checked_sub(seen)).filter(|&g| g > 0);
            sampler.memory_seen = Some(size);
            let fuel = context.get_fuel().unwrap_or(0);
            // Fuel burnt since the last read is charged to the stacks sampled meanwhile; with
            // none yet, it waits for the next.
            if fuel < sampler.fuel_read && !sampler.pending.is_empty() {
                let burnt = sampler.fuel_read - fuel;
                sampler.fuel_read = fuel;
                sampler.charge_pending(burnt);
            }
            sampler.until_sample = sampler.until_sample.saturating_sub(1);
            sampler.clock_checks += 1;
            let sample = sampler.until_sample == 0 || sampler.last.is_none();
            if sample || grown.is_some() {
                let (stack, put_off) = match context.data().script_sampler() {
                    Some(script) => (sampler.script_stack(&mut context, &script, fuel), 0),
                    None => {
                        let backtrace = WasmBacktrace::capture(&context);
                        let depth = backtrace.frames().len() as u64;
                        let put_off = depth.saturating_sub(SHALLOW_FRAMES) * CHECKS_PER_FRAME;
                        (sampler.raw(&backtrace, &locator), put_off)
                    }
                };
                if let Some(grown) = grown {
                    *sampler.growth.entry(stack.clone()).or_default() += grown;
                }
                if sample {
                    *sampler.pending.entry(stack.clone()).or_default() += 1;
                    sampler.last = Some(stack);
                    sampler.until_sample = sampler.next_interval() + put_off;
                    sampler.clock_checks = CLOCK_CHECKS;
                }
            }
            if sampler.clock_checks >= CLOCK_CHECKS {
                sampler.clock_checks = 0;
                if thread_time() >= sampler.deadline {
                    return Ok(UpdateDeadline::Interrupt);
                }
            }
            Ok(UpdateDeadline::Continue(0))
        });
    }

    /// Starts a turn with `fuel` in the store, `spent` in the game before it and the turn's
    /// wall-clock `backstop`: the turn is interrupted once the thread has run
    /// [`PROFILED_BACKSTOP_FACTOR`] times that long.
    pub fn begin_turn(&self, fuel: u64, spent: u64, backstop: Duration) {
        let mut sampler = lock(&self.state);
        sampler.fuel_read = fuel;
        sampler.turn_fuel = fuel;
        sampler.spent_before = spent;
        sampler.clock_checks = 0;
        sampler.deadline = thread_time() + backstop.saturating_mul(PROFILED_BACKSTOP_FACTOR);
        sampler.pending.clear();
        sampler.current.clear();
        sampler.last = None;
    }

    /// Ends the turn with `spent` in the game so far: the fuel not charged yet goes to the
    /// stacks sampled since the last read and to `trap`'s stack (what ended the turn, if it
    /// carries one), or, with neither, to the turn's last sample (the empty stack if none).
    pub fn end_turn(&self, spent: u64, trap: Option<&WasmBacktrace>, locator: &Locator) {
        let mut sampler = lock(&self.state);
        let used = spent.saturating_sub(sampler.spent_before);
        let left = sampler.turn_fuel.saturating_sub(used);
        let rest = sampler.fuel_read.saturating_sub(left);
        if let Some(backtrace) = trap {
            let stack = sampler.raw(backtrace, locator);
            *sampler.pending.entry(stack).or_default() += 1;
        }
        if sampler.pending.is_empty() {
            let last = sampler.last.take().unwrap_or_default();
            sampler.pending.insert(last, 1);
        }
        sampler.charge_pending(rest);
        let turn = std::mem::take(&mut sampler.current);
        sampler.turns.push(turn);
    }

    /// The profile of the turns so far, symbolized with `locator`.
    pub fn finish(&self, locator: &Locator) -> FuelProfile {
        let sampler = lock(&self.state);
        let debug = locator.debug_info();
        let mut logical: HashMap<RawFrame, Vec<ProfileFrame>> = HashMap::new();
        let mut frames = Interner::default();
        // Each raw stack as frame indices, outermost first, summed by symbolized stack; taken
        // in the raw stacks' order, so frames are numbered the same on every run.
        let mut by_stack = |weights: &HashMap<RawStack, u64>| {
            let mut by_stack: BTreeMap<Vec<u32>, u64> = BTreeMap::new();
            let mut weights: Vec<_> = weights.iter().collect();
            weights.sort_unstable();
            for (raw, weight) in weights {
                let mut stack = Vec::new();
                for &frame in raw.iter().rev() {
                    let symbols = logical.entry(frame).or_insert_with(|| match frame {
                        RawFrame::Wasm(index, offset) => {
                            let name = sampler.names.get(&index).map_or("", String::as_str);
                            symbolize(locator, debug.as_ref(), (index, offset), name)
                        }
                        RawFrame::Script(index) => {
                            sampler.script_frames.get(index as usize).cloned().into_iter().collect()
                        }
                    });
                    // Outermost first: a wasm frame's inlined calls are innermost first.
                    stack.extend(symbols.iter().rev().map(|f| frames.index(f)));
                }
                *by_stack.entry(stack).or_default() += weight;
            }
            by_stack
        };
        let turns = sampler
            .turns
            .iter()
            .enumerate()
            .map(|(turn, samples)| {
                let by_stack = by_stack(samples);
                TurnProfile {
                    turn: turn as u32,
                    fuel: by_stack.values().sum(),
                    samples: by_stack
                        .into_iter()
                        .map(|(stack, fuel)| ProfileSample { stack, fuel })
                        .collect(),
                }
            })
            .collect();
        let growth = by_stack(&sampler.growth)
            .into_iter()
            .map(|(stack, bytes)| GrowthSample { stack, bytes })
            .collect();
        FuelProfile { interval: sampler.interval, frames: frames.frames, turns, growth }
    }
}

impl Sampler {
    /// Checks until the next sample: `interval` give or take half of it, drawn from a fixed
    /// stream (splitmix64 from [`SPREAD_SEED`]), so that code whose checks repeat with a period
    /// dividing the interval (a loop calling a helper: its loop check, the helper's entry, …)
    /// is not always sampled at the same check. The stream depends on nothing but the number
    /// of samples taken, so profiles stay deterministic; an interval of 1 samples every check.
    fn next_interval(&mut self) -> u64 {
        let half = self.interval / 2;
        self.spread = self.spread.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.spread;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        self.interval - half + z % (2 * half + 1)
    }

    /// Shares `fuel` between the pending stacks by how often each was sampled (what does not
    /// divide evenly goes to the first), and clears them.
    fn charge_pending(&mut self, fuel: u64) {
        let pending = std::mem::take(&mut self.pending);
        let samples: u64 = pending.values().sum();
        let mut left = fuel;
        let mut shares: Vec<(RawStack, u64)> = pending
            .into_iter()
            .map(|(stack, count)| {
                let share = (u128::from(fuel) * u128::from(count) / u128::from(samples)) as u64;
                left -= share;
                (stack, share)
            })
            .collect();
        if let Some((_, first)) = shares.first_mut() {
            *first += left;
        }
        for (stack, share) in shares {
            *self.current.entry(stack).or_default() += share;
        }
    }

    /// The raw stack of `backtrace`, each function's name remembered on first sight.
    fn raw(&mut self, backtrace: &WasmBacktrace, locator: &Locator) -> RawStack {
        backtrace
            .frames()
            .iter()
            .filter_map(|frame| {
                let offset = u32::try_from(frame.module_offset()?).ok()?;
                let index = frame.func_index();
                self.names.entry(index).or_insert_with(|| locator.function_name(frame));
                Some(RawFrame::Wasm(index, offset))
            })
            .take(MAX_DEPTH)
            .collect()
    }

    /// The script's stack at this check, as `script` states it (its innermost [`MAX_DEPTH`]
    /// frames; lines that are not frames left out), each frame numbered on first sight. The
    /// call burns fuel of its own: the store's `fuel` is put back after it. It may not call the
    /// host ([`Sampled::set_sampling`]), which would change the game. No epoch check in
    /// it calls the sampler again (wasmtime takes the callback out while it runs, so a check
    /// would interrupt the call instead): its deadline is put past reach, and the callback's
    /// answer sets the game's again.
    fn script_stack<T: Sampled>(
        &mut self,
        context: &mut StoreContextMut<'_, T>,
        script: &ScriptSampler,
        fuel: u64,
    ) -> RawStack {
        context.data_mut().set_sampling(true);
        let called = context.set_fuel(SAMPLE_FUEL).and_then(|()| {
            context.set_epoch_deadline(NO_DEADLINE);
            script.sample.call(&mut *context, ())
        });
        context.data_mut().set_sampling(false);
        // Best effort: fuel was in the store before, so it can be put back.
        let _ = context.set_fuel(fuel);
        let Ok(written) = called else { return RawStack::default() };
        let (address, len) = (written as u32 as usize, (written as u64 >> 32) as usize);
        let memory = script.memory.data(&*context);
        let end = address.saturating_add(len.min(stated::MAX_STACK_BYTES));
        let Some(text) = memory.get(address..end) else { return RawStack::default() };
        text.split(|&byte| byte == b'\n')
            .filter_map(|line| self.script_frame(line).map(RawFrame::Script))
            .take(MAX_DEPTH)
            .collect()
    }

    /// The number of the frame a runner stated as `line`, if it is one: `own<TAB>` (`+` for
    /// the bot's code, `-` for other code) and a frame of a stated stack (docs/abi.md). A frame
    /// of the bot's code without a place is not taken as the bot's: its fuel is on no line.
    fn script_frame(&mut self, line: &[u8]) -> Option<u32> {
        if let Some(&index) = self.script_index.get(line) {
            return Some(index);
        }
        let (own, frame) = std::str::from_utf8(line).ok()?.split_once('\t')?;
        let bot = match own {
            "+" => true,
            "-" => false,
            _ => return None,
        };
        let (function, location) = stated::parse_frame(frame).ok()?;
        let bot = bot && location.is_some();
        let index = self.script_frames.len() as u32;
        self.script_frames.push(ProfileFrame { function, location, bot });
        self.script_index.insert(line.into(), index);
        Some(index)
    }
}

/// A raw frame's logical frames, innermost first: from the DWARF, or the wasm function alone;
/// none for a linker's trampoline ([`is_trampoline`]).
fn symbolize(
    locator: &Locator,
    debug: Option<&crate::dwarf::DebugInfo<'_>>,
    (index, offset): (u32, u32),
    name: &str,
) -> Vec<ProfileFrame> {
    if is_trampoline(name) {
        return Vec::new();
    }
    let logical = debug.map(|debug| locator.logical_frames(debug, index, name, offset as usize));
    match logical {
        Some(frames) if !frames.is_empty() => frames
            .into_iter()
            .map(|f| ProfileFrame {
                function: without_generics(&f.function),
                location: f.location,
                bot: f.bot,
            })
            .collect(),
        // Without DWARF every frame is taken as the bot's, as failures take them.
        _ => vec![ProfileFrame {
            function: without_generics(name),
            location: None,
            bot: debug.is_none(),
        }],
    }
}

/// Whether the wasm function `name` is a linker's trampoline, code of neither the bot nor any
/// library it calls: wasm-ld wraps each export of a WASI command module (a C bot's
/// `botlens_play`) in `botlens_play.command_export`, which runs the constructors and calls it.
/// Profiles leave such frames out (a sample taken in one alone is charged to no frame).
fn is_trampoline(name: &str) -> bool {
    name.ends_with(".command_export")
}

/// A function's name without its generic arguments, which make a flame graph unreadable
/// (`try_fold<core::ops::range::Range<usize>, …>` → `try_fold`); a qualified path's
/// `<T as Trait>` stays.
fn without_generics(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut depth = 0usize;
    let mut previous = ' ';
    for c in name.chars() {
        match c {
            '<' if depth > 0 || previous.is_alphanumeric() || "_}".contains(previous) => depth += 1,
            '>' if depth > 0 && previous != '-' => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(c),
        }
        previous = c;
    }
    out
}

/// Frames numbered in the order first seen.
#[derive(Default)]
struct Interner {
    frames: Vec<ProfileFrame>,
    index: HashMap<ProfileFrame, u32>,
}

impl Interner {
    fn index(&mut self, frame: &ProfileFrame) -> u32 {
        if let Some(&index) = self.index.get(frame) {
            return index;
        }
        let index = self.frames.len() as u32;
        self.frames.push(frame.clone());
        self.index.insert(frame.clone(), index);
        index
    }
}

#[cfg(test)]
mod tests {
    use super::{Recorder, is_trampoline, without_generics};

    #[test]
    fn samples_are_spread_around_the_interval_and_every_check_is_sampled_at_1() {
        let intervals = |interval: u64| {
            let recorder = Recorder::new(interval);
            let mut sampler = super::lock(&recorder.state);
            (0..1000).map(|_| sampler.next_interval()).collect::<Vec<u64>>()
        };
        assert!(intervals(1).iter().all(|&n| n == 1));
        let spread = intervals(1000);
        assert!(spread.iter().all(|n| (500..=1500).contains(n)), "{spread:?}");
        let mean = spread.iter().sum::<u64>() as f64 / spread.len() as f64;
        assert!((950.0..1050.0).contains(&mean), "{mean}");
        // Both parities, so a period-2 pattern of checks is sampled at both of its checks.
        assert!(spread.iter().any(|n| n % 2 == 0) && spread.iter().any(|n| n % 2 == 1));
        assert_eq!(spread, intervals(1000), "the same stream every time");
    }

    #[test]
    fn the_linkers_export_trampolines_are_told_apart() {
        assert!(is_trampoline("botlens_play.command_export"));
        assert!(is_trampoline("botlens_new.command_export"));
        for name in
            ["botlens_play", "command_export", "bot::command_export_all", "__wasm_call_ctors"]
        {
            assert!(!is_trampoline(name), "{name}");
        }
    }

    #[test]
    fn generic_arguments_are_dropped_and_qualified_paths_kept() {
        assert_eq!(
            without_generics("try_fold<core::ops::range::Range<usize>, fn(&u32) -> bool, ()>"),
            "try_fold"
        );
        assert_eq!(without_generics("alloc::vec::Vec<T>::push"), "alloc::vec::Vec::push");
        assert_eq!(
            without_generics("<my_bot::Hunter as botlens_sdk::Bot>::play"),
            "<my_bot::Hunter as botlens_sdk::Bot>::play"
        );
        assert_eq!(without_generics("{closure#1}<burner::Burner>"), "{closure#1}");
    }
}

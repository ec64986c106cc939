//! The host side of one game: the store data every host function sees, and the `botlens`
//! imports (`view`, `act`, `reply`, `log`, `panic`, and for language runners `source`,
//! `position`, `stack` and `wasted`) of ABI version 1; `draw` is `crate::draw`'s.
//!
//! Every pointer and length the bot passes is checked against its memory before use:
//! a bad one ends the game with `malformed_message`, never a host panic. A call that loses the
//! game (illegal or second move, malformed message, panic) records the located failure on the
//! turn and returns [`Stop::Failed`], which unwinds the bot at once.

use std::ops::Range;
use std::sync::Arc;

use botlens_engine::{CallStack, Failure, FailureKind, Game, SeedRng, SourceLocation, Turn};
use botlens_protocol::Encoding;
use wasmtime::{Caller, Extern, Linker, Memory, ResourceLimiter, Trap, WasmBacktrace};

use crate::abi::{HOST_MODULE, LOST};
use crate::backstop::Backstop;
use crate::locate::Locator;
use crate::output::Output;
use crate::profile::{Sampled, ScriptSampler};
use crate::stated::{self, Stated};
use crate::text;
use crate::waste::{LocatedMove, MoveLog};

/// Why the host stopped the bot (carried as the error of the guest call).
#[derive(Debug, thiserror::Error)]
pub(crate) enum Stop {
    /// The bot lost the game; the located failure is already on the turn.
    #[error("the bot lost the game")]
    Failed,
    /// The bot called WASI `proc_exit`.
    #[error("the bot called proc_exit({0})")]
    Exit(i32),
    /// The bot tried to grow its memory past the cap.
    #[error("the bot tried to grow its memory to {desired} bytes; the limit is {cap} bytes")]
    Memory {
        /// The size asked for.
        desired: usize,
        /// The cap.
        cap: usize,
    },
}

/// Refuses growth past the memory cap with a trap, so the failure points at the allocation,
/// and keeps the size granted.
#[derive(Debug)]
pub(crate) struct Limiter {
    pub memory_cap: usize,
    /// Bytes of linear memory granted so far (its initial size, then each growth).
    pub memory_bytes: usize,
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.memory_cap {
            return Err(wasmtime::Error::new(Stop::Memory { desired, cap: self.memory_cap }));
        }
        self.memory_bytes = self.memory_bytes.max(desired);
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= crate::engines::TABLE_ELEMENTS)
    }
}

/// Deterministic time for WASI clocks: one nanosecond per unit of fuel burnt in the game.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FuelClock {
    /// Fuel burnt in earlier turns.
    pub spent_before: u64,
    /// The fuel the store was given at the start of this turn.
    pub budget: u64,
}

impl FuelClock {
    /// Fuel burnt in the game up to now.
    pub fn now<G: Game>(&self, caller: &Caller<'_, Host<G>>) -> u64 {
        let left = caller.get_fuel().unwrap_or(0);
        self.spent_before.saturating_add(self.budget.saturating_sub(left))
    }
}

/// Everything the host functions of one game can reach.
pub(crate) struct Host<G: Game> {
    /// The turn in progress, moved in for the duration of each guest call; between calls, a
    /// placeholder made once per game.
    pub turn: Turn<G>,
    /// The encoding of the bot's messages.
    encoding: Encoding,
    /// The last message handed to the bot (view or response), for `botlens.reply`.
    reply: Reply,
    /// This turn's output.
    pub output: Output,
    /// The bot's WASI randomness, from `Stream::BotRandom(seat)`.
    pub rng: SeedRng,
    /// The instance's exported memory, once instantiated.
    pub memory: Option<Memory>,
    /// The memory cap.
    pub limiter: Limiter,
    /// WASI time.
    pub clock: FuelClock,
    /// Finds the bot's source lines.
    pub locator: Arc<Locator>,
    /// What a language runner is given to run (`botlens.source`).
    pub payload: Option<Arc<[u8]>>,
    /// Whether the module is a language runner: `act` returns [`LOST`] on a losing move.
    pub runner: bool,
    /// Where the guest said the bot was this turn (`botlens.position`, `botlens.stack`).
    stated: Option<Stated>,
    /// What was stated before the latest `position` or `stack` call, while no other host call
    /// has come since: a `draw` right after takes that call's place as its mark's line and puts
    /// this back ([`Host::take_drawing_site`]).
    before_site: Option<Option<Stated>>,
    /// Whether a runner was asked where it made this turn's move (`botlens.wasted`) and has
    /// not yet stated it.
    move_to_locate: bool,
    /// The fuel the store had when a runner was asked to state a move the game did not call
    /// wasted (a player that locates every move): stating it costs the game nothing.
    refund_to: Option<u64>,
    /// Where the moves were made, for a player that locates them.
    pub located: Option<MoveLog>,
    /// The running guest call's backstop (`crate::backstop`), set as each turn begins.
    pub backstop: Option<Backstop>,
    /// Whether `botlens.draw` keeps its marks on the turn ([`crate::draw`]).
    pub records_marks: bool,
    /// Whether the game is profiled and its module a runner that states its script's frames
    /// at the samples ([`crate::BotModule::profiles_script`]).
    pub samples_script: bool,
    /// That runner's `botlens_sample`, once the game's instance has one.
    pub script_sampler: Option<ScriptSampler>,
    /// Whether that sample is running: every host call fails meanwhile ([`charge`]).
    sampling: bool,
}

impl<G: Game> Sampled for Host<G> {
    fn memory_bytes(&self) -> u64 {
        self.limiter.memory_bytes as u64
    }

    fn script_sampler(&self) -> Option<ScriptSampler> {
        self.script_sampler.clone()
    }

    fn set_sampling(&mut self, sampling: bool) {
        self.sampling = sampling;
    }
}

impl<G: Game> Host<G> {
    pub fn new(
        encoding: Encoding,
        rng: SeedRng,
        output: Output,
        limiter: Limiter,
        locator: Arc<Locator>,
    ) -> Self {
        Host {
            turn: Turn::default(),
            encoding,
            reply: Reply::default(),
            output,
            rng,
            memory: None,
            limiter,
            clock: FuelClock::default(),
            locator,
            payload: None,
            runner: false,
            stated: None,
            before_site: None,
            move_to_locate: false,
            refund_to: None,
            located: None,
            backstop: None,
            records_marks: false,
            samples_script: false,
            script_sampler: None,
            sampling: false,
        }
    }

    /// Starts a turn: moves it in (leaving the placeholder this host held in its place); no
    /// reply to repeat yet.
    pub fn begin_turn(&mut self, turn: &mut Turn<G>) {
        std::mem::swap(&mut self.turn, turn);
        self.reply.is_set = false;
        self.stated = None;
        self.before_site = None;
        self.move_to_locate = false;
        self.refund_to = None;
    }

    /// `failure` at the bot's innermost frame on `backtrace` (DWARF is not the bot's in a
    /// runner), else where the guest stated the bot was this turn (with the stack it stated).
    pub fn place(&self, backtrace: &WasmBacktrace, failure: Failure) -> Failure {
        let placed = if self.runner { failure } else { self.locator.place(backtrace, failure) };
        match &self.stated {
            Some(stated) if placed.location.is_none() => stated.place(placed),
            _ => placed,
        }
    }

    /// Where the guest stated the bot was this turn (`botlens.position`, `botlens.stack`).
    pub fn stated(&self) -> Option<&Stated> {
        self.stated.as_ref()
    }

    /// The place a `position` or `stack` call made right before this host call (nothing
    /// between) stated, for a `draw` to take as its mark's line; the place stated before that
    /// call stands again, so a mark's statement locates the mark alone. `None` when the last
    /// host call was another.
    pub fn take_drawing_site(&mut self) -> Option<Option<Stated>> {
        let before = self.before_site.take()?;
        Some(std::mem::replace(&mut self.stated, before))
    }

    /// Whether the player locates this turn's legal move (wasted, or every move) and the game
    /// has not located its most already.
    fn locates_move(&self) -> bool {
        let legal = self.turn.failure().is_none();
        legal && self.located.as_ref().is_some_and(|log| log.wants(self.turn.wasted()))
    }

    /// Keeps this turn's move, made at `stack`, if the player locates it.
    fn log_move(&self, stack: CallStack) {
        let Some(log) = self.located.as_ref().filter(|_| self.locates_move()) else { return };
        let action = self.turn.action().map(ToString::to_string).unwrap_or_default();
        let wasted = self.turn.wasted();
        log.push(LocatedMove { turn: self.turn.number(), action, wasted, stack });
    }

    /// Ends the turn [`Host::begin_turn`] started: moves it back out, and the placeholder in.
    pub fn end_turn(&mut self, turn: &mut Turn<G>) {
        std::mem::swap(&mut self.turn, turn);
    }
}

/// The current reply of a turn: the last message handed to the bot. Its buffer is reused turn
/// after turn.
#[derive(Default)]
struct Reply {
    bytes: Vec<u8>,
    /// Whether there is one in this turn.
    is_set: bool,
}

impl Reply {
    /// Makes the message `write` writes the current reply.
    fn set(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        self.bytes.clear();
        write(&mut self.bytes);
        self.is_set = true;
    }
}

/// Fuel every host call costs, whatever it does (even one that fails at once or is a stub):
/// more than the guest instructions the same wall-clock time buys. The slowest host calls that
/// do no work (the WASI stubs) take about 55 ns, the time the slowest-burning guest loop
/// (`loop br 0`, about 2 ns per unit of fuel on a 2.8 GHz core) burns 27 units in; this is
/// twice that, with margin. See the table in `docs/abi.md`.
pub(crate) const CALL_FUEL: u64 = 60;

/// Fuel `view` and `act` cost on top of [`CALL_FUEL`]: they run the game's code (writing the
/// view, applying the move), about 200 ns for a Tic-tac-toe view.
const GAME_CALL_FUEL: u64 = 250;

/// Bytes of guest memory a host call may touch per unit of fuel it charges on top of
/// [`CALL_FUEL`].
const BYTES_PER_FUEL: u64 = 16;

/// Charges the fuel of a host call that touches `bytes` bytes of guest memory (or writes as
/// many of its own): [`CALL_FUEL`], plus one per [`BYTES_PER_FUEL`] bytes. Host work thus counts
/// like guest work, so a bot cannot escape its budget by making the host work for it. Every
/// host function calls this first.
pub(crate) fn charge<G: Game>(
    caller: &mut Caller<'_, Host<G>>,
    bytes: u64,
) -> wasmtime::Result<()> {
    refuse_while_sampling(caller)?;
    // Any host call but `draw` (which takes it first) ends what a place stated for a mark.
    caller.data_mut().before_site = None;
    burn(caller, CALL_FUEL.saturating_add(bytes / BYTES_PER_FUEL))
}

/// [`charge`] for `view` and `act`, which also run the game's code.
fn charge_game_call<G: Game>(caller: &mut Caller<'_, Host<G>>, bytes: u64) -> wasmtime::Result<()> {
    refuse_while_sampling(caller)?;
    caller.data_mut().before_site = None;
    burn(caller, (CALL_FUEL + GAME_CALL_FUEL).saturating_add(bytes / BYTES_PER_FUEL))
}

/// Fails a host call made by a runner's profile sample (`botlens_sample`), before it changes
/// anything: a sample must leave the game as it was.
pub(crate) fn refuse_while_sampling<G: Game>(caller: &Caller<'_, Host<G>>) -> wasmtime::Result<()> {
    if caller.data().sampling {
        return Err(wasmtime::Error::msg("a runner's botlens_sample called the host"));
    }
    Ok(())
}

/// Charges for `bytes` more bytes a host call touches, once [`charge`] has charged the call.
pub(crate) fn charge_bytes<G: Game>(
    caller: &mut Caller<'_, Host<G>>,
    bytes: u64,
) -> wasmtime::Result<()> {
    burn(caller, bytes / BYTES_PER_FUEL)
}

/// Takes `cost` units of fuel, or all there is left and stops the bot with `out_of_fuel`.
fn burn<G: Game>(caller: &mut Caller<'_, Host<G>>, cost: u64) -> wasmtime::Result<()> {
    // Nothing to take (the reply of a move is a byte or two): the fuel is left unread.
    if cost == 0 {
        return Ok(());
    }
    let left = caller.get_fuel()?;
    if cost > left {
        caller.set_fuel(0)?;
        return Err(wasmtime::Error::new(Trap::OutOfFuel));
    }
    caller.set_fuel(left - cost)
}

/// The byte range `ptr..ptr + len` of guest memory, if it lies inside a memory of `size` bytes.
/// Pointers and lengths are the guest's `i32`s read as unsigned.
pub(crate) fn region(size: usize, ptr: i32, len: i32) -> Option<Range<usize>> {
    let start = ptr as u32 as usize;
    let end = start.checked_add(len as u32 as usize)?;
    (end <= size).then_some(start..end)
}

/// The bot's memory (the `memory` export).
pub(crate) fn memory_of<G: Game>(caller: &mut Caller<'_, Host<G>>) -> wasmtime::Result<Memory> {
    if let Some(memory) = caller.data().memory {
        return Ok(memory);
    }
    // During instantiation (a start function) the handle is not stored yet.
    caller
        .get_export("memory")
        .and_then(Extern::into_memory)
        .ok_or_else(|| wasmtime::Error::msg("the module has no exported memory"))
}

/// Ends the game with `failure`, located at the bot's innermost frame, and returns the error
/// that stops the bot.
pub(crate) fn stop<G: Game>(caller: &mut Caller<'_, Host<G>>, failure: Failure) -> wasmtime::Error {
    let backtrace = WasmBacktrace::capture(&*caller);
    let placed = caller.data().place(&backtrace, failure);
    caller.data_mut().turn.fail(placed);
    wasmtime::Error::new(Stop::Failed)
}

fn malformed<G: Game>(caller: &mut Caller<'_, Host<G>>, message: String) -> wasmtime::Error {
    stop(caller, Failure::new(FailureKind::MalformedMessage, message))
}

/// Copies the current reply to `out_ptr` if it fits in `out_cap` bytes; returns its length.
/// The caller has charged for the reply's bytes ([`charge_reply`], or with the call).
fn deliver<G: Game>(
    caller: &mut Caller<'_, Host<G>>,
    call: &str,
    out_ptr: i32,
    out_cap: i32,
) -> wasmtime::Result<i32> {
    let memory = memory_of(caller)?;
    let (mem, host) = memory.data_and_store_mut(&mut *caller);
    let len = host.reply.bytes.len();
    let in_bounds = if len > out_cap as u32 as usize {
        true // too long for the buffer: nothing is written, the length tells the bot to retry
    } else if let Some(range) = region(mem.len(), out_ptr, len as i32) {
        mem[range].copy_from_slice(&host.reply.bytes);
        true
    } else {
        false
    };
    if !in_bounds {
        let size = mem.len();
        return Err(malformed(
            caller,
            format!(
                "{call}: the output buffer {out_ptr:#x}+{len} is outside the bot's memory of {size} bytes"
            ),
        ));
    }
    i32::try_from(len).map_err(|_| wasmtime::Error::msg("a message longer than 2 GiB"))
}

/// The longest message `act` reads: far longer than any game's action in either encoding, so
/// that what a refused move quotes (its message, the action recorded in the trace) stays small.
/// A longer message is `malformed_message`.
const MAX_ACTION_BYTES: usize = 4096;

/// A short, escaped excerpt of bytes the bot sent, for messages.
fn excerpt(bytes: &[u8]) -> String {
    const MAX: usize = 60;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]);
    let more = if bytes.len() > MAX { "…" } else { "" };
    format!("{text:?}{more}")
}

fn view<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    out_ptr: i32,
    out_cap: i32,
) -> wasmtime::Result<i32> {
    // Writing the view changes nothing but the reply, which a sample must leave as it was; so,
    // once a sample is refused, the call and the view's bytes are charged at once (what the bot
    // has left read and set once rather than twice).
    refuse_while_sampling(&caller)?;
    let host = caller.data_mut();
    host.reply.set(|out| host.turn.write_view(host.encoding, out));
    let bytes = reply_bytes(&caller);
    charge_game_call(&mut caller, bytes)?;
    deliver(&mut caller, "view", out_ptr, out_cap)
}

/// The length of the current reply, for its charge.
fn reply_bytes<G: Game>(caller: &Caller<'_, Host<G>>) -> u64 {
    caller.data().reply.bytes.len() as u64
}

/// Charges for the current reply's bytes, once the call is charged ([`charge_bytes`]).
fn charge_reply<G: Game>(caller: &mut Caller<'_, Host<G>>) -> wasmtime::Result<()> {
    let bytes = reply_bytes(caller);
    charge_bytes(caller, bytes)
}

/// Reads an action in the bot's encoding. JSON: its canonical form fast, any other JSON of the
/// same shape through serde_json (hand-written bots may space or order their fields as they
/// like).
fn read_action<G: Game>(encoding: Encoding, bytes: &[u8]) -> Result<G::Action, String> {
    if let Some(action) = encoding.read(bytes) {
        return Ok(action);
    }
    // The parser's error may quote the whole message (a string where a number belongs).
    let not_an_action = |why: &dyn std::fmt::Display, bytes: String| {
        text::shown(
            &format!("act: not a {} action ({why}): {bytes}", G::NAME),
            text::MAX_MESSAGE_BYTES,
        )
    };
    match encoding {
        Encoding::Json => {
            serde_json::from_slice(bytes).map_err(|error| not_an_action(&error, excerpt(bytes)))
        }
        Encoding::Compact => {
            Err(not_an_action(&"not in the compact encoding the bot declares", hex_excerpt(bytes)))
        }
    }
}

/// A short hexadecimal excerpt of binary bytes the bot sent, for messages.
fn hex_excerpt(bytes: &[u8]) -> String {
    const MAX: usize = 24;
    let mut text: Vec<String> = bytes.iter().take(MAX).map(|b| format!("{b:02x}")).collect();
    if bytes.len() > MAX {
        text.push("…".into());
    }
    format!("{} bytes [{}]", bytes.len(), text.join(" "))
}

fn act<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    msg_ptr: i32,
    msg_len: i32,
    out_ptr: i32,
    out_cap: i32,
) -> wasmtime::Result<i32> {
    charge_game_call(&mut caller, u64::from(msg_len as u32))?;
    if caller.data().runner && caller.data().turn.failure().is_some() {
        return Ok(LOST);
    }
    let memory = memory_of(&mut caller)?;
    let mem = memory.data(&caller);
    let parsed = match region(mem.len(), msg_ptr, msg_len) {
        None => Err(format!(
            "act: the message {msg_ptr:#x}+{} is outside the bot's memory of {} bytes",
            msg_len as u32,
            mem.len()
        )),
        Some(range) if range.len() > MAX_ACTION_BYTES => Err(format!(
            "act: the message of {} is longer than any action may be ({MAX_ACTION_BYTES} bytes): {}",
            text::size(range.len() as u64),
            excerpt(&mem[range])
        )),
        Some(range) => read_action::<G>(caller.data().encoding, &mem[range]),
    };
    let played = parsed.map_err(|message| Failure::new(FailureKind::MalformedMessage, message));
    let host = caller.data_mut();
    match played.and_then(|action| host.turn.act(action)) {
        Ok(response) => {
            let encoding = host.encoding;
            host.reply.set(|out| encoding.write(&response, out));
            note_move(&mut caller);
            charge_reply(&mut caller)?;
            deliver(&mut caller, "act", out_ptr, out_cap)
        }
        Err(failure) if host.runner => {
            // The runner locates the move (`botlens.position`) before it stops.
            host.turn.fail(failure);
            Ok(LOST)
        }
        Err(failure) => Err(stop(&mut caller, failure)),
    }
}

/// Locates the move the bot just made in `caller`'s turn at its DWARF call stack, if the player
/// locates it (a runner's stack is the interpreter's: it states where the bot made the move,
/// `botlens.wasted`).
fn note_move<G: Game>(caller: &mut Caller<'_, Host<G>>) {
    let host = caller.data();
    if host.runner || !host.locates_move() {
        return;
    }
    let backtrace = WasmBacktrace::capture(&*caller);
    let host = caller.data();
    host.log_move(host.locator.stack(&backtrace).bounded());
}

/// `botlens.source`: copies what the runner was given to run, as `view` copies the view; `-1`
/// when the module was given nothing.
fn source<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    out_ptr: i32,
    out_cap: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, 0)?;
    let Some(payload) = caller.data().payload.clone() else { return Ok(-1) };
    charge_bytes(&mut caller, payload.len() as u64)?;
    let memory = memory_of(&mut caller)?;
    let mem = memory.data_mut(&mut caller);
    let len = payload.len();
    if len <= out_cap as u32 as usize {
        let Some(range) = region(mem.len(), out_ptr, len as i32) else {
            let size = mem.len();
            return Err(malformed(
                &mut caller,
                format!(
                    "source: the output buffer {out_ptr:#x}+{len} is outside the bot's memory of {size} bytes"
                ),
            ));
        };
        mem[range].copy_from_slice(&payload);
    }
    i32::try_from(len).map_err(|_| wasmtime::Error::msg("a source longer than 2 GiB"))
}

/// `botlens.position`: the bot's current source position, stated by the guest (a line of 0
/// forgets it). See [`state`] for what it locates.
fn position<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    file_ptr: i32,
    file_len: i32,
    line: i32,
    column: i32,
) -> wasmtime::Result<()> {
    charge(&mut caller, text::MAX_FILE_BYTES as u64)?;
    let memory = memory_of(&mut caller)?;
    let mem = memory.data(&caller);
    let Some(range) = region(mem.len(), file_ptr, file_len) else {
        let size = mem.len();
        return Err(malformed(
            &mut caller,
            format!(
                "position: the file name {file_ptr:#x}+{} is outside the bot's memory of {size} bytes",
                file_len as u32
            ),
        ));
    };
    let file = text::bounded(&mem[range.clone()], range.len() as u64, text::MAX_FILE_BYTES);
    let location = SourceLocation { file, line: line.max(0) as u32, column: column.max(0) as u32 };
    let stated = (line > 0).then_some(Stated { location, stack: None });
    state(caller, stated)
}

/// `botlens.stack`: the bot's call stack, stated by the guest as text (`crate::stated`); it
/// states the position of its innermost frame that has one, as `position` does, and the stack
/// is the call stack of what that locates.
fn stack<G: Game>(mut caller: Caller<'_, Host<G>>, ptr: i32, len: i32) -> wasmtime::Result<()> {
    let bytes = len as u32 as usize;
    charge(&mut caller, bytes.min(stated::MAX_STACK_BYTES) as u64)?;
    if bytes > stated::MAX_STACK_BYTES {
        let max = stated::MAX_STACK_BYTES;
        let message =
            format!("stack: the text of {bytes} bytes is longer than the {max} a stack may have");
        return Err(malformed(&mut caller, message));
    }
    let memory = memory_of(&mut caller)?;
    let mem = memory.data(&caller);
    let parsed = match region(mem.len(), ptr, len) {
        Some(range) => stated::parse_stack(&mem[range]),
        None => Err(format!(
            "stack: the text {ptr:#x}+{bytes} is outside the bot's memory of {} bytes",
            mem.len()
        )),
    };
    match parsed {
        Ok(stack) => state(caller, Stated::from_stack(stack)),
        Err(message) => Err(malformed(&mut caller, message)),
    }
}

/// What a guest's stated place locates. After a runner was asked where it made its move
/// (`botlens.wasted`), the next place it states locates that move and nothing else (on fuel
/// given back, when the game did not call the move wasted). Otherwise
/// it is where the bot is (`None` forgets it): it locates the failures the host finds later in
/// this turn that have no other location (a malformed message, a panic, a runner's trap); when
/// the turn's move has lost (`act` returned [`LOST`]), it locates that failure and ends the game.
fn state<G: Game>(mut caller: Caller<'_, Host<G>>, stated: Option<Stated>) -> wasmtime::Result<()> {
    let host = caller.data_mut();
    if host.turn.failure().is_none() && std::mem::take(&mut host.move_to_locate) {
        host.log_move(stated.map(Stated::into_stack).unwrap_or_default());
        if let Some(fuel) = host.refund_to.take() {
            caller.set_fuel(fuel)?;
        }
        return Ok(());
    }
    let before = std::mem::replace(&mut host.stated, stated);
    host.before_site = Some(before);
    match host.turn.failure().cloned() {
        Some(lost) => Err(stop(&mut caller, Failure { location: None, stack: None, ..lost })),
        None => Ok(()),
    }
}

/// `botlens.wasted`: whether this turn's move was one the game calls wasted (a Battleships
/// re-attack, a Klotski slide straight back), or, for a player that locates every move, any
/// legal move. A runner told so states where it made the move next ([`state`]); for a move the
/// game did not call wasted, the fuel it spends until then is given back, so the game is the
/// one an ordinary player plays.
fn wasted<G: Game>(mut caller: Caller<'_, Host<G>>) -> wasmtime::Result<i32> {
    charge(&mut caller, 0)?;
    let fuel = caller.get_fuel()?;
    let host = caller.data_mut();
    let legal = host.turn.failure().is_none();
    let wasted = host.turn.wasted() && legal;
    let every = legal && host.located.as_ref().is_some_and(MoveLog::is_every_move);
    host.move_to_locate = (wasted || every) && host.runner;
    host.refund_to = (every && !wasted && host.runner).then_some(fuel);
    Ok(i32::from(wasted || every && host.runner))
}

fn reply<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    out_ptr: i32,
    out_cap: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, 0)?;
    if !caller.data().reply.is_set {
        return Ok(-1);
    }
    charge_reply(&mut caller)?;
    deliver(&mut caller, "reply", out_ptr, out_cap)
}

fn log<G: Game>(mut caller: Caller<'_, Host<G>>, ptr: i32, len: i32) -> wasmtime::Result<()> {
    charge(&mut caller, u64::from(len as u32))?;
    let memory = memory_of(&mut caller)?;
    let (mem, host) = memory.data_and_store_mut(&mut caller);
    let size = mem.len();
    match region(size, ptr, len) {
        Some(range) => {
            host.output.log(&mem[range]);
            Ok(())
        }
        None => Err(malformed(
            &mut caller,
            format!(
                "log: the line {ptr:#x}+{} is outside the bot's memory of {size} bytes",
                len as u32
            ),
        )),
    }
}

#[allow(clippy::too_many_arguments)] // the ABI's signature
fn panic<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    msg_ptr: i32,
    msg_len: i32,
    file_ptr: i32,
    file_len: i32,
    line: i32,
    column: i32,
) -> wasmtime::Result<()> {
    let strings = text::MAX_MESSAGE_BYTES + text::MAX_FILE_BYTES;
    charge(&mut caller, strings as u64)?;
    let memory = memory_of(&mut caller)?;
    let mem = memory.data(&caller);
    // Only a bounded prefix of each string is copied, however long the bot says it is.
    let text = |ptr, len, max| {
        region(mem.len(), ptr, len).map(|r| text::bounded(&mem[r.clone()], r.len() as u64, max))
    };
    let message = text(msg_ptr, msg_len, text::MAX_MESSAGE_BYTES)
        .unwrap_or_else(|| "(the panic message is outside the bot's memory)".into());
    let file = text(file_ptr, file_len, text::MAX_FILE_BYTES).unwrap_or_default();

    let backtrace = WasmBacktrace::capture(&caller);
    let host = caller.data();
    // The panic hook's (or the runner's) own idea of where it was.
    let given = (!file.is_empty() && line > 0 && host.locator.is_bot_file(&file))
        .then(|| SourceLocation { file, line: line as u32, column: column.max(0) as u32 });
    let failure = match given {
        // A runner knows the bot's line (and the stack, if it stated one there); its DWARF
        // only knows the runner's.
        Some(given) if host.runner => match host.stated() {
            Some(stated) if stated.location == given => {
                stated.place(Failure::new(FailureKind::Panic, message))
            }
            _ => Failure::new(FailureKind::Panic, message).at(Some(given)),
        },
        given => {
            let placed = host.place(&backtrace, Failure::new(FailureKind::Panic, message.clone()));
            match given {
                // No debug information, but the panic hook knew where it was.
                Some(given) if placed.location.is_none() => {
                    Failure::new(FailureKind::Panic, message).at(Some(given))
                }
                _ => placed,
            }
        }
    };
    caller.data_mut().turn.fail(failure);
    Err(wasmtime::Error::new(Stop::Failed))
}

/// Defines the `botlens` imports in `linker`.
pub(crate) fn add_to_linker<G: Game>(linker: &mut Linker<Host<G>>) -> wasmtime::Result<()> {
    linker.func_wrap(HOST_MODULE, "view", view::<G>)?;
    linker.func_wrap(HOST_MODULE, "act", act::<G>)?;
    linker.func_wrap(HOST_MODULE, "reply", reply::<G>)?;
    linker.func_wrap(HOST_MODULE, "log", log::<G>)?;
    linker.func_wrap(HOST_MODULE, "panic", panic::<G>)?;
    linker.func_wrap(HOST_MODULE, "source", source::<G>)?;
    linker.func_wrap(HOST_MODULE, "position", position::<G>)?;
    linker.func_wrap(HOST_MODULE, "stack", stack::<G>)?;
    linker.func_wrap(HOST_MODULE, "wasted", wasted::<G>)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_checked_as_unsigned_without_overflow() {
        assert_eq!(region(100, 10, 20), Some(10..30));
        assert_eq!(region(100, 90, 10), Some(90..100));
        assert_eq!(region(100, 90, 11), None);
        assert_eq!(region(100, -1, 1), None);
        assert_eq!(region(100, 50, -1), None);
        assert_eq!(region(usize::MAX, -1, -1), Some(0xffff_ffff..0x1_ffff_fffe));
        assert_eq!(region(0, 0, 0), Some(0..0));
    }

    #[test]
    fn binary_excerpts_are_short_hex_with_the_length() {
        assert_eq!(hex_excerpt(&[0, 0xff, 7]), "3 bytes [00 ff 07]");
        assert!(hex_excerpt(&[1; 30]).ends_with("01 …]"));
    }

    #[test]
    fn excerpts_are_short_and_escaped() {
        assert_eq!(excerpt(b"\xff\x01x"), "\"\u{fffd}\\u{1}x\"");
        assert_eq!(excerpt(&[b'a'; 100]).chars().count(), 63);
    }
}

//! Prepared modules: a module that exports `botlens_prepare` (docs/abi.md) is started once, in a
//! store of its own, and the state that call leaves (its linear memory and exported mutable
//! globals) is kept as a [`Snapshot`]; every game then starts from a fresh instance with that
//! state written in, instead of calling `_initialize`. A language runner prepares its engine this
//! way (QuickJS's start-up is about 5 million units of fuel), so no game pays for it.
//!
//! Preparing is not a game: it runs with no turn, no payload, its own fuel
//! ([`PREPARE_FUEL`]), memory cap and wall-clock backstop, a fixed WASI random stream and a clock
//! that starts at zero, so the snapshot of a module is the same on every run and machine (the
//! determinism contract holds: a game's inputs are still the module, game, seed, seat and
//! limits). Its output is dropped. A module that fails to prepare fails every game with
//! `bad_module`, saying why.
//!
//! Only the memory that `botlens_prepare` changed is kept, in 4 KiB runs, and written into each
//! game's instance.
//!
//! Not for: deciding what a module must do in `botlens_prepare` (the ABI does).

use std::sync::Arc;
use std::time::Duration;

use botlens_engine::{Failure, FailureKind, Game, SeedRng, Stream};
use botlens_protocol::Encoding;
use wasmtime::{Extern, InstancePre, Memory, Module, ModuleExport, Mutability, Store, Val};

use crate::backstop::{self, Backstop};
use crate::host::{Host, Limiter};
use crate::locate::Locator;
use crate::output::Output;
use crate::text;

/// Fuel `botlens_prepare` may burn, and `botlens_prepare_payload` for each payload: 1.6 times
/// what the Python runner's `botlens_prepare` needs (6.3·10⁸, always the same: the interpreter,
/// its codecs and the standard library a bot imports), two hundred times what the JavaScript
/// runner's needs; more than a turn's default (4·10⁸), as a payload's start-up may add the same
/// kind of work (the Python runner importing `dataclasses` for a bot that names it, 3·10⁸, and
/// compiling the bot, 1.5·10⁸ for 1,000 lines). Within the backstop below on a loaded machine too
/// (docs/abi.md).
pub(crate) const PREPARE_FUEL: u64 = 1_000_000_000;

/// The memory `botlens_prepare` may grow to: the default per-game cap.
const PREPARE_MEMORY: usize = 256 << 20;

/// The backstop of `botlens_prepare` (in CPU time, `crate::backstop`), should fuel fail to
/// stop it first.
const PREPARE_BACKSTOP: Duration = Duration::from_secs(10);

/// The granularity at which memory changed by `botlens_prepare` is found and kept.
const RUN_BYTES: usize = 4096;

/// The size of a WebAssembly page.
const PAGE_BYTES: usize = 65_536;

/// The state a module's `botlens_prepare` left: what a game's instance is given before
/// `botlens_new`.
#[derive(Debug)]
pub(crate) struct Snapshot {
    /// The memory's size after preparing, in bytes (whole pages).
    memory_bytes: usize,
    /// The memory that differs from a fresh instance's: (offset, bytes), in order, disjoint.
    runs: Vec<(usize, Box<[u8]>)>,
    /// The exported mutable globals and their values after preparing.
    globals: Vec<(String, Number)>,
}

/// A global's value (reference-typed globals are not kept: [`prepare`] refuses them).
#[derive(Debug, Clone, Copy)]
enum Number {
    I32(i32),
    I64(i64),
    F32(u32),
    F64(u64),
}

impl Number {
    fn of(value: &Val) -> Option<Number> {
        match *value {
            Val::I32(n) => Some(Number::I32(n)),
            Val::I64(n) => Some(Number::I64(n)),
            Val::F32(bits) => Some(Number::F32(bits)),
            Val::F64(bits) => Some(Number::F64(bits)),
            _ => None,
        }
    }

    fn val(self) -> Val {
        match self {
            Number::I32(n) => Val::I32(n),
            Number::I64(n) => Val::I64(n),
            Number::F32(bits) => Val::F32(bits),
            Number::F64(bits) => Val::F64(bits),
        }
    }
}

impl Snapshot {
    /// Writes the snapshot into `memory` and the globals of a fresh instance: grows the memory
    /// first (through the store's limiter, so a snapshot bigger than the game's memory cap fails
    /// it with `memory_limit`).
    pub fn restore<G: Game>(
        &self,
        store: &mut Store<Host<G>>,
        instance: &wasmtime::Instance,
        memory: Memory,
    ) -> wasmtime::Result<()> {
        let have = memory.data_size(&*store);
        if self.memory_bytes > have {
            memory.grow(&mut *store, ((self.memory_bytes - have) / PAGE_BYTES) as u64)?;
        }
        let data = memory.data_mut(&mut *store);
        for (offset, run) in &self.runs {
            data[*offset..*offset + run.len()].copy_from_slice(run);
        }
        for (name, value) in &self.globals {
            let global = instance
                .get_global(&mut *store, name)
                .ok_or_else(|| wasmtime::Error::msg("a prepared global is missing"))?;
            global.set(&mut *store, value.val())?;
        }
        Ok(())
    }
}

/// The exports preparing calls: `memory`, `_initialize` if the module has it, and
/// `botlens_prepare`.
pub(crate) struct PrepareExports {
    /// `memory`.
    pub memory: ModuleExport,
    /// `_initialize`, when the module has one.
    pub initialize: Option<ModuleExport>,
    /// `botlens_prepare`.
    pub prepare: ModuleExport,
}

/// A store to prepare a module in: no turn, a fixed random stream, a clock from zero, `fuel` and
/// the backstop, the memory cap of [`PREPARE_MEMORY`].
fn preparing_store<G: Game>(
    pre: &InstancePre<Host<G>>,
    encoding: Encoding,
    locator: &Arc<Locator>,
    runner: bool,
    fuel: u64,
) -> wasmtime::Result<Store<Host<G>>> {
    let mut host = Host::new(
        encoding,
        SeedRng::new(0, Stream::BotRandom(0)),
        Output::new(0, 0),
        Limiter { memory_cap: PREPARE_MEMORY, memory_bytes: 0 },
        locator.clone(),
    );
    host.runner = runner;
    host.clock.budget = fuel;
    let mut store = Store::new(pre.module().engine(), host);
    store.limiter(|host| &mut host.limiter);
    backstop::install(&mut store, |host| host.backstop.as_ref());
    store.data_mut().backstop = Some(Backstop::start(PREPARE_BACKSTOP));
    store.set_epoch_deadline(backstop::deadline_ticks(PREPARE_BACKSTOP));
    store.set_fuel(fuel)?;
    Ok(store)
}

/// Calls the export `export` of `instance`, a function without parameters or results.
fn call_export<G: Game>(
    store: &mut Store<Host<G>>,
    instance: &wasmtime::Instance,
    export: &ModuleExport,
) -> wasmtime::Result<()> {
    let func = instance
        .get_module_export(&mut *store, export)
        .and_then(Extern::into_func)
        .ok_or_else(|| wasmtime::Error::msg("an export checked at load time is missing"))?;
    func.typed::<(), ()>(&*store)?.call(&mut *store, ())
}

/// Why preparing stopped: the fuel ran out, or what the guest said or trapped with.
fn why_stopped<G: Game>(store: &Store<Host<G>>, error: &wasmtime::Error, fuel: u64) -> String {
    let said = store.data().turn.failure().map(|failure| failure.to_string());
    match error.downcast_ref::<wasmtime::Trap>() {
        Some(wasmtime::Trap::OutOfFuel) => format!("it ran out of its {fuel} fuel"),
        _ => said.unwrap_or_else(|| format!("{error:#}")),
    }
}

/// Prepares the module of `pre`: runs `botlens_prepare` (after `_initialize`) and keeps what it
/// left.
pub(crate) fn prepare<G: Game>(
    pre: &InstancePre<Host<G>>,
    exports: &PrepareExports,
    encoding: Encoding,
    locator: &Arc<Locator>,
    runner: bool,
) -> Result<Arc<Snapshot>, Failure> {
    let prepare = &exports.prepare;
    // wasmtime's messages name the module's functions (a trap's backtrace), which it chose.
    let failed = |why: String| {
        let why = text::shown_lines(&why, text::MAX_MESSAGE_BYTES);
        Failure::new(FailureKind::BadModule, format!("the module's botlens_prepare failed: {why}"))
    };
    let mut store = preparing_store(pre, encoding, locator, runner, PREPARE_FUEL)
        .map_err(|error| failed(format!("{error:#}")))?;
    let instance = pre.instantiate(&mut store).map_err(|error| failed(format!("{error:#}")))?;
    let memory = instance
        .get_module_export(&mut store, &exports.memory)
        .and_then(Extern::into_memory)
        .ok_or_else(|| failed("it has no memory".into()))?;
    store.data_mut().memory = Some(memory);
    let fresh = memory.data(&store).to_vec();
    let mut call = |export| call_export(&mut store, &instance, export);
    let called = match &exports.initialize {
        Some(initialize) => call(initialize).and_then(|()| call(prepare)),
        None => call(prepare),
    };
    if let Err(error) = called {
        return Err(failed(why_stopped(&store, &error, PREPARE_FUEL)));
    }
    let globals = globals(pre.module(), &instance, &mut store).map_err(failed)?;
    let prepared = memory.data(&store);
    Ok(Arc::new(Snapshot {
        memory_bytes: prepared.len(),
        runs: changed_runs(&fresh, prepared),
        globals,
    }))
}

/// What preparing a payload needs: the module's memory and `botlens_prepare_payload`, the state
/// `botlens_prepare` left, and the payload.
pub(crate) struct PayloadPreparing<'a> {
    /// `memory`.
    pub memory: ModuleExport,
    /// `botlens_prepare_payload`.
    pub prepare_payload: ModuleExport,
    /// What `botlens_prepare` left.
    pub base: &'a Snapshot,
    /// The payload, which `botlens.source` copies in.
    pub payload: &'a Arc<[u8]>,
}

/// Prepares the module of `pre` for a payload: from the state `botlens_prepare` left, runs
/// `botlens_prepare_payload` with the payload attached ([`PREPARE_FUEL`]) and keeps what
/// it changed, to be written over that state in every game with the payload. An error says why
/// it failed; the games then start from `botlens_prepare`'s state.
pub(crate) fn prepare_payload<G: Game>(
    pre: &InstancePre<Host<G>>,
    preparing: &PayloadPreparing<'_>,
    encoding: Encoding,
    locator: &Arc<Locator>,
    runner: bool,
) -> Result<Arc<Snapshot>, String> {
    let shown = |error: wasmtime::Error| format!("{error:#}");
    let mut store = preparing_store(pre, encoding, locator, runner, PREPARE_FUEL).map_err(shown)?;
    store.data_mut().payload = Some(preparing.payload.clone());
    let instance = pre.instantiate(&mut store).map_err(shown)?;
    let memory = instance
        .get_module_export(&mut store, &preparing.memory)
        .and_then(Extern::into_memory)
        .ok_or("it has no memory")?;
    store.data_mut().memory = Some(memory);
    preparing.base.restore(&mut store, &instance, memory).map_err(shown)?;
    let before = memory.data(&store).to_vec();
    if let Err(error) = call_export(&mut store, &instance, &preparing.prepare_payload) {
        return Err(why_stopped(&store, &error, PREPARE_FUEL));
    }
    let globals = globals(pre.module(), &instance, &mut store)?;
    let prepared = memory.data(&store);
    Ok(Arc::new(Snapshot {
        memory_bytes: prepared.len(),
        runs: changed_runs(&before, prepared),
        globals,
    }))
}

/// The module's exported mutable globals and their values in `instance`.
fn globals<G: Game>(
    module: &Module,
    instance: &wasmtime::Instance,
    store: &mut Store<Host<G>>,
) -> Result<Vec<(String, Number)>, String> {
    let mut kept = Vec::new();
    for export in module.exports() {
        let Some(global) = export.ty().global().cloned() else { continue };
        if global.mutability() != Mutability::Var {
            continue;
        }
        let name = export.name().to_owned();
        let value = instance
            .get_global(&mut *store, &name)
            .map(|global| global.get(&mut *store))
            .ok_or_else(|| format!("its global `{name}` is missing"))?;
        let number = Number::of(&value).ok_or_else(|| {
            format!("its mutable global `{name}` holds a reference, which cannot be kept")
        })?;
        kept.push((name, number));
    }
    Ok(kept)
}

/// The runs of `after` that differ from `before` (zeros past its end), [`RUN_BYTES`] at a time,
/// adjacent ones merged.
fn changed_runs(before: &[u8], after: &[u8]) -> Vec<(usize, Box<[u8]>)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for start in (0..after.len()).step_by(RUN_BYTES) {
        let end = (start + RUN_BYTES).min(after.len());
        let now = &after[start..end];
        let changed = match before.get(start..end) {
            Some(was) => was != now,
            None => {
                let was = before.get(start..).unwrap_or_default();
                now[..was.len()] != *was || now[was.len()..].iter().any(|&byte| byte != 0)
            }
        };
        if !changed {
            continue;
        }
        match runs.last_mut() {
            Some((_, last_end)) if *last_end == start => *last_end = end,
            _ => runs.push((start, end)),
        }
    }
    runs.into_iter().map(|(start, end)| (start, after[start..end].into())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_changed_runs_are_kept_and_adjacent_ones_merge() {
        let before = vec![0u8; RUN_BYTES * 4];
        let mut after = before.clone();
        after[10] = 1; // run 0
        after[RUN_BYTES + 5] = 2; // run 1, adjacent: merged with run 0
        after[RUN_BYTES * 3] = 3; // run 3
        after.extend(vec![0u8; RUN_BYTES]); // grown, still zero: not kept
        after.extend(vec![7u8; 100]); // grown and written: kept
        let runs = changed_runs(&before, &after);
        let spans: Vec<(usize, usize)> = runs.iter().map(|(at, run)| (*at, run.len())).collect();
        assert_eq!(spans, [(0, 2 * RUN_BYTES), (3 * RUN_BYTES, RUN_BYTES), (5 * RUN_BYTES, 100)]);
        assert_eq!(runs[0].1[10], 1);
        assert_eq!(runs[0].1[RUN_BYTES + 5], 2);
        assert!(changed_runs(&before, &before).is_empty());
    }
}

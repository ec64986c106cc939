//! What the sandbox's own steps cost on this CPU, apart from any game and any bot: a fresh
//! instance made and dropped (its memory reset for the next game included), a call into wasm as
//! a turn makes one (the turn's fuel set and read back, its epoch deadline set), and a call from
//! wasm to the host. Every game of a wasm bot pays the first once and the others on every turn,
//! whatever the bot does, so together they are the floor under the cost of a bot's game;
//! `botlens bench` prints them next to its native ÷ wasm ratios.
//!
//! They are measured on the process's engine for bots (pooled instances, fuel, epoch checks:
//! the configuration games run on) with a module of a Rust bot's shape and no work of its own.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use wasmtime::{Func, Instance, Linker, Module, Store};

use crate::SandboxLimits;
use crate::engines::{self, Key};
use crate::error::SandboxError;

/// The module measured: a `botlens new` Rust bot's memory (17 pages, a page of data in it) and
/// table, and an export that returns at once.
const FLOOR_MODULE: &str = r#"
(module
  (memory 17)
  (table 88 funcref)
  (data (i32.const 1048576) "botlens")
  (func (export "turn")))
"#;

/// A module that calls an empty import `n` times. The import is this measurement's own, linked
/// into its own store, not one of the host functions bots import (`docs/abi.md`).
const HOST_CALLS_MODULE: &str = r#"
(module
  (import "floor" "nothing" (func $nothing))
  (func (export "host_calls") (param $n i32)
    (loop $again
      (call $nothing)
      (br_if $again (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))))
"#;

/// Repetitions per round of each step.
const REPEATS: u32 = 20_000;

/// Rounds of each step; the fastest is kept (the one least disturbed by the rest of the machine).
const ROUNDS: usize = 5;

/// What the sandbox's steps cost on this CPU (see the module's documentation), in microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SandboxFloor {
    /// A fresh instance of a module with a Rust bot's memory, made from a pre-linked recipe in a
    /// pooled slot and dropped, which resets its memory for the next game.
    pub instance_us: f64,
    /// A call into wasm that does nothing, with the turn's fuel set before it and read after it
    /// and the epoch deadline set, as every turn is entered.
    pub call_us: f64,
    /// A call from wasm to a host function that does nothing.
    pub host_call_us: f64,
}

impl SandboxFloor {
    /// Measures the three steps, best of a few rounds each (about a tenth of a second in all).
    ///
    /// ```no_run
    /// let floor = botlens_sandbox::SandboxFloor::measure()?;
    /// println!("a fresh instance costs {:.2} µs", floor.instance_us);
    /// # Ok::<(), botlens_sandbox::SandboxError>(())
    /// ```
    pub fn measure() -> Result<SandboxFloor, SandboxError> {
        // What a turn gets by default: its stack cap (the engine) and its fuel.
        let limits = SandboxLimits::default();
        let engine = engines::engine(Key { stack_bytes: limits.stack_bytes, debugger: false })?;
        let turn_fuel = limits.fuel_per_turn;
        let failed = |error: wasmtime::Error| SandboxError::Engine(format!("{error:#}"));
        let new_store = || {
            let mut store = Store::new(&engine, ());
            store.set_epoch_deadline(u64::MAX / 2);
            store.set_fuel(turn_fuel).map(|()| store)
        };

        let module = Module::new(&engine, FLOOR_MODULE).map_err(failed)?;
        let pre = Linker::new(&engine).instantiate_pre(&module).map_err(failed)?;
        let instance = best_of(|| {
            for _ in 0..REPEATS {
                let mut store = new_store()?;
                black_box(pre.instantiate(&mut store)?);
            }
            Ok(())
        })
        .map_err(failed)?;

        let mut store = new_store().map_err(failed)?;
        let running = pre.instantiate(&mut store).map_err(failed)?;
        let turn = running.get_typed_func::<(), ()>(&mut store, "turn").map_err(failed)?;
        let call = best_of(|| {
            for _ in 0..REPEATS {
                store.set_fuel(turn_fuel)?;
                store.set_epoch_deadline(u64::MAX / 2);
                turn.call(&mut store, ())?;
                black_box(store.get_fuel()?);
            }
            Ok(())
        })
        .map_err(failed)?;

        let calling = Module::new(&engine, HOST_CALLS_MODULE).map_err(failed)?;
        let nothing = Func::wrap(&mut store, || {});
        let calling = Instance::new(&mut store, &calling, &[nothing.into()]).map_err(failed)?;
        let host_calls =
            calling.get_typed_func::<i32, ()>(&mut store, "host_calls").map_err(failed)?;
        let calls = i32::try_from(REPEATS).unwrap_or(i32::MAX);
        let host_call = best_of(|| {
            store.set_fuel(turn_fuel)?;
            host_calls.call(&mut store, calls)
        })
        .map_err(failed)?;

        let each = |total: Duration| total.as_secs_f64() * 1e6 / f64::from(REPEATS);
        Ok(SandboxFloor {
            instance_us: each(instance),
            call_us: each(call),
            host_call_us: each(host_call),
        })
    }

    /// The least a game of a wasm bot costs the sandbox: one instance, and `bot_turns` turns
    /// each entered once and making `host_calls_per_turn` host calls (a bot that reads its view
    /// and makes its move makes two).
    ///
    /// ```
    /// let floor = botlens_sandbox::SandboxFloor { instance_us: 2.0, call_us: 0.1, host_call_us: 0.05 };
    /// assert!((floor.per_game_us(10.0, 2.0) - 4.0).abs() < 1e-9);
    /// ```
    pub fn per_game_us(&self, bot_turns: f64, host_calls_per_turn: f64) -> f64 {
        self.instance_us + bot_turns * (self.call_us + host_calls_per_turn * self.host_call_us)
    }
}

/// The fastest of [`ROUNDS`] runs of `round`.
fn best_of(mut round: impl FnMut() -> wasmtime::Result<()>) -> wasmtime::Result<Duration> {
    let mut best = Duration::MAX;
    for _ in 0..ROUNDS {
        let started = Instant::now();
        round()?;
        best = best.min(started.elapsed());
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_step_is_measured_and_the_floor_of_a_game_adds_them_up() {
        let floor = SandboxFloor::measure().expect("the floor module runs");
        for (step, us) in [
            ("instance", floor.instance_us),
            ("call", floor.call_us),
            ("host call", floor.host_call_us),
        ] {
            assert!(us > 0.0 && us.is_finite(), "{step}: {us} µs");
        }
        let game = floor.per_game_us(3.0, 2.0);
        let expected = floor.instance_us + 3.0 * floor.call_us + 6.0 * floor.host_call_us;
        assert!((game - expected).abs() < 1e-9, "{game} vs {expected}");
    }
}

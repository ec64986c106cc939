//! What WebAssembly, epoch checks and fuel metering cost on this CPU, apart from everything else
//! botlens does: a module exporting `setup()` and `turns(n: i32)` (an interpreter playing `n`
//! turns of a bot, say) runs under wasmtime with neither, either and both of them, and the
//! example prints microseconds and fuel per turn, the best of five rounds each.
//!
//! ```text
//! cargo run --release -p botlens-sandbox --example metering_cost -- MODULE.wasm [TURNS]
//! ```
//!
//! `examples/quickjs_turns.c` is such a module: the old arena's new-bot template played by
//! QuickJS (its comment says how to build it natively and for wasm32-wasip1), which is how
//! `docs/performance.md` splits that bot's turn into the interpreter's own time and what the
//! sandbox adds. Fuel is priced here by wasmtime's defaults, not botlens's (`crate::pricing`
//! prices a few slow instructions higher; the interpreter's turn runs almost none of them).
//! The module's imports (WASI's, for a C program built with wasi-libc) are stubbed with zeroes:
//! it must not need them to do its work. Nothing here asserts a figure.

use std::time::Instant;

use wasmtime::{Config, Engine, Linker, Module, Store};

/// Rounds per configuration; the fastest is kept.
const ROUNDS: usize = 5;

fn main() -> wasmtime::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: metering_cost MODULE.wasm [TURNS]";
    let path = args.next().ok_or_else(|| wasmtime::Error::msg(usage))?;
    let turns: i32 = args.next().map_or(Ok(46_000), |n| n.parse())?;
    let bytes = std::fs::read(&path)?;
    println!("{:<24} {:>10} {:>12}", "metering", "µs/turn", "fuel/turn");
    for (label, fuel, epoch) in [
        ("none", false, false),
        ("epoch checks", false, true),
        ("fuel", true, false),
        ("fuel and epoch checks", true, true),
    ] {
        let mut config = Config::new();
        config.consume_fuel(fuel).epoch_interruption(epoch).cranelift_nan_canonicalization(true);
        let engine = Engine::new(&config)?;
        let module = Module::new(&engine, &bytes)?;
        let mut best = f64::MAX;
        let mut fuel_per_turn = None;
        for _ in 0..ROUNDS {
            let mut store = Store::new(&engine, ());
            if fuel {
                store.set_fuel(u64::MAX)?;
            }
            if epoch {
                store.set_epoch_deadline(u64::MAX);
            }
            let mut linker = Linker::new(&engine);
            linker.define_unknown_imports_as_default_values(&mut store, &module)?;
            let instance = linker.instantiate(&mut store, &module)?;
            instance.get_typed_func::<(), i32>(&mut store, "setup")?.call(&mut store, ())?;
            let play = instance.get_typed_func::<i32, i32>(&mut store, "turns")?;
            let before = if fuel { store.get_fuel()? } else { 0 };
            let started = Instant::now();
            play.call(&mut store, turns)?;
            best = best.min(started.elapsed().as_secs_f64() * 1e6 / f64::from(turns));
            if fuel {
                fuel_per_turn = Some((before - store.get_fuel()?) as f64 / f64::from(turns));
            }
        }
        let fuel_text = fuel_per_turn.map_or_else(|| "-".to_owned(), |f| format!("{f:.0}"));
        println!("{label:<24} {best:>10.2} {fuel_text:>12}");
    }
    Ok(())
}

//! `botlens bench`: measured speed, side by side, on this machine.
//!
//! Measures, in one run: games per second for each game with native reference players (the
//! ceiling) and with wasm bots against the same native opponent, on one core (among them a
//! raw-ABI floor bot in WAT: the sandbox's own cost), next to the least ratio the sandbox's own
//! steps allow (the bot's instance, made and dropped, as its own games have it; entering a turn
//! and a host call, measured alone on this CPU, `botlens_sandbox::SandboxFloor`); the cost
//! split of a wasm game
//! (instantiation, time inside the guest per turn, the floor bot's share, host time per turn);
//! module compile time cold, from the disk cache and from memory; the README's main job (the
//! `battleships-hunter` sample's suite) end to end on one core and on all; the save-to-report
//! loop after an edit (cargo build, module compile, games); the bots in JavaScript, C, Zig and
//! AssemblyScript against `random` (games/s, fuel per turn, against the Rust starter); what
//! drawing a heat map every turn costs, its marks recorded and not; what `botlens analyze`
//! costs against `botlens run` on a sample of each game; a
//! JavaScript bot's save → diagnostics loop; peak resident memory; and how busy the machine was
//! (load averages, other processes' share of the CPU), so that a noisy run shows.
//!
//! Ratios (native ÷ wasm, analyze ÷ run, drawing ÷ plain) are of two measurements taken in
//! turn, round by round, in the same run: they hold on a busy or slower machine where the
//! absolute figures (games/s, milliseconds) move.
//!
//! Every figure is a measurement of this run; nothing here asserts a target. The method and the
//! latest figures are in `docs/performance.md`.
//!
//! Not for: correctness (the tests) or profiling individual functions.

mod analysis;
mod drawing;
mod instance;
mod languages;
mod load;
mod measure;
mod report;
mod shared;

pub use botlens_sandbox::SandboxFloor;
pub use load::MachineLoad;
pub use measure::{BenchOptions, run};
pub use report::{
    BenchReport, CompileTimes, DrawingCost, GameSpeed, LangSpeed, LoopLatency, ScriptLatency,
    SuiteScaling, WasmCostSplit,
};

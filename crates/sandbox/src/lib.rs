//! The wasmtime host that runs WebAssembly bots: load, check, compile and cache a bot module,
//! then play it in any game under deterministic limits, with every failure typed and located in
//! the bot's source.
//!
//! This is the only botlens crate that knows wasmtime. It is generic over
//! [`Game`](botlens_engine::Game) and moves the game's messages as JSON, so it knows no game
//! either. The boundary it implements (ABI version [`ABI_VERSION`]) is specified in
//! `docs/abi.md`; the guest side for Rust bots is the `botlens-sdk` crate.
//!
//! # Example
//!
//! ```no_run
//! use botlens_engine::runner::{self, MatchLimits};
//! use botlens_engine::{Game, SeedRng, Stream};
//! use botlens_sandbox::{SandboxLimits, Sandbox, SandboxConfig};
//! use botlens_tictactoe::TicTacToe;
//!
//! let sandbox = Sandbox::new(SandboxConfig {
//!     cache_dir: Some("/home/me/.cache/botlens/modules".into()),
//!     ..SandboxConfig::default()
//! })?;
//! let bot = sandbox.load_file("target/wasm32-wasip1/release/my_bot.wasm")?;
//! let limits = SandboxLimits::default();
//! let reference = TicTacToe::reference_players()[0];
//! for seed in 0..100 {
//!     let mut wasm = bot.player::<TicTacToe>(seed, 0, &limits);
//!     let mut opponent = (reference.create)(SeedRng::new(seed, Stream::Player(1)));
//!     let record = runner::play_match::<TicTacToe>(
//!         &(),
//!         seed,
//!         &mut [&mut wasm, opponent.as_mut()],
//!         &MatchLimits::default(),
//!     );
//!     if let Some(fault) = &record.outcome.fault {
//!         println!("seed {seed}: {}", fault.failure); // e.g. "illegal_move: … at src/lib.rs:42:9"
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Concepts
//!
//! - [`Sandbox`]: one per process, cheap to clone, `Send + Sync`. Holds the module caches
//!   (memory, and disk when [`SandboxConfig::cache_dir`] is set and can be trusted: a private
//!   directory whose entries are authenticated with a per-user key, kept under a size bound)
//!   over the process's wasmtime engines, which instantiate from a pool of reusable slots; the
//!   first sandbox starts one ticker thread for the wall-clock backstop.
//! - [`BotModule`]: a checked, compiled bot. Cheap to clone, `Send + Sync`. Loading checks the
//!   ABI up front and fails with a typed [`LoadError`]; it refuses, before compiling, a module
//!   too large or too costly to compile (size, functions, imports, an estimate of the
//!   compiler's work), and compiles on a helper thread under a 30 s deadline. Compiling happens
//!   once per module hash: about a tenth of a second for a 2.2 MB Rust bot; a disk-cache or
//!   memory-cache hit takes a few milliseconds, mostly hashing the bytes.
//! - [`WasmPlayer`]: the bot in one game, a [`Player`](botlens_engine::Player). Owns a fresh
//!   store and instance, created on its first turn from a pre-linked `InstancePre` in a pooled
//!   slot (about twenty microseconds), dropped with the player. `Send`, not shared.
//! - [`SandboxLimits`]: what a bot may use per game; serialized into traces.
//! - [`FuelProfile`]: where a [`WasmPlayer::profiled`] bot's fuel went, turn by turn: its wasm
//!   stack sampled at epoch checks, every unit of fuel charged to a sampled stack, frames
//!   symbolized with the module's DWARF; deterministic like the game (see `profile.rs`).
//!
//! # Determinism
//!
//! Given the module bytes, the game, the seed, the seat and the limits, a game plays out the same
//! on every run and machine: fuel counts instructions, not time; WASI randomness comes from
//! `SeedRng::new(seed, Stream::BotRandom(seat))`; WASI clocks advance with fuel; floats are
//! NaN-canonicalized; there are no files, environment, arguments or network. Host calls cost
//! fuel in proportion to their work, instructions that take long are priced by their time
//! (`pricing`), and the default fuel per turn runs out within a second even in the
//! slowest-burning loop, so fuel bounds wall time (loads that miss every cache excepted: fuel
//! counts instructions, not memory latency). The only non-deterministic limit is the
//! backstop, counted in the CPU time of the thread that runs the turn (so a loaded machine does
//! not reach it sooner) and set ten times higher or more, which ends a game with `timeout` only if
//! fuel failed to stop it first (`backstop`; the compile deadline, likewise, only fails
//! loading).
//! Everything a bot hands the host is bounded: output per turn in bytes and lines, panic
//! messages, file and function names (cut with a marker giving their size).
//!
//! # Failures
//!
//! Every way a bot can lose by its own fault ends that one game with a
//! [`Failure`](botlens_engine::Failure) whose location is the innermost frame of the bot's own
//! crate (std, core, alloc, other crates and the SDK are skipped): `illegal_move` and
//! `second_move` at the call that made the move, `panic` with its message, `trap`,
//! `out_of_fuel` (turn or game budget), `memory_limit`, `stack_overflow` where execution
//! stopped, `no_move` at the first line of the bot's `play` (found in its DWARF),
//! `malformed_message`, `bad_module`, `timeout`. The host never panics on anything a bot does,
//! and the next game starts from scratch.

mod abi;
mod backstop;
mod cache;
mod config;
mod debugger;
mod draw;
mod dwarf;
mod engines;
mod error;
mod floor;
mod fold;
mod host;
mod imports;
mod locate;
mod module;
mod output;
mod player;
mod pricing;
mod profile;
mod sections;
mod shape;
mod sig;
mod snapshot;
mod srcmap;
mod stated;
mod text;
mod wasi;
mod waste;

pub use abi::ABI_VERSION;
pub use botlens_protocol::Encoding;
pub use config::{SandboxConfig, SandboxLimits};
pub use debugger::replay_asked;
pub use engines::forget_compiled_functions;
pub use error::{LoadError, SandboxError};
pub use floor::SandboxFloor;
pub use module::{BotModule, Sandbox};
pub use player::{PlayerStats, WasmPlayer};
pub use profile::{FuelProfile, GrowthSample, ProfileFrame, ProfileSample, TurnProfile};
pub use waste::{LocatedMove, MAX_LOCATED as MAX_WASTED_LOCATED, MAX_LOCATED_MOVES};

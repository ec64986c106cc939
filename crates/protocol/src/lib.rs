//! The messages that cross the bot boundary: for each game, the action a bot makes, the response
//! the game gives and the view a bot sees at the start of its turn.
//!
//! These types are shared by the game crates (which use them as their `Action`, `Response` and
//! `View`), by the guest SDK (which hands them to bot authors) and by the sandbox (which moves
//! them across the wasm boundary as JSON). Keeping them in one crate is what keeps host and guest
//! in agreement. This crate depends on serde alone, compiles for `wasm32-wasip1`, and holds no
//! rules: legality, scoring and setup live in the game crates.
//!
//! All coordinates are 0-based, `x` the column and `y` the row, row-major in board strings.
//! The JSON shapes are documented on each type and in `docs/abi.md`; [`wire`] writes and reads
//! them by hand, fast, for the wasm boundary.

pub mod battleships;
pub mod klotski;
pub mod tictactoe;
pub mod wire;

//! Game-agnostic core of botlens: what a game is, what a player is, how a match is run and how
//! it is recorded.
//!
//! The flow is one way: a [`Game`] is set up from a seed, the [`runner`] hands each turn to a
//! [`Player`] through a [`Turn`], the turn's single action is applied by the game, and every turn
//! lands in a [`MatchRecord`] that can be written out as a versioned JSON [`Trace`].
//!
//! This crate knows nothing of WebAssembly, of the language server, of the file system or of any
//! particular game: those live in `botlens-sandbox`, `botlens-lsp`, `botlens-harness` and the game
//! crates. It deliberately has no I/O of its own: the one player that talks to a person,
//! [`human`], reads and writes only the reader and writer its caller hands it.
//!
//! # Example
//!
//! With any game `G` and two players (reference opponents come with each game crate):
//!
//! ```text
//! let record = runner::play_match::<G>(&config, seed, &mut [&mut bot, &mut opponent], &MatchLimits::default());
//! let trace = record.to_trace(players, limits_json);   // versioned JSON, byte-identical per seed
//! ```

pub mod drawing;
pub mod failure;
mod game;
pub mod human;
pub mod opening;
pub mod oracle;
pub mod picture;
mod player;
pub mod runner;
pub mod seed;
pub mod stack;
pub mod text;
pub mod trace;
pub mod words;

#[cfg(test)]
mod testing;

pub use drawing::{Colour, Drawing, Mark, Shape};
pub use failure::{Failure, FailureKind, SourceLocation};
pub use game::{Ending, Game, IllegalMove, Seat, SeatResult, Status};
pub use oracle::{GameJudge, Judgement, Oracle};
pub use player::{Player, ReferencePlayer, Turn, TurnCost};
pub use runner::{Fault, MatchLimits, MatchOutcome, MatchRecord, MoveRecord};
pub use seed::{SeedRng, Stream};
pub use stack::{CallStack, Cycle, StackFrame};
pub use trace::{PlayerInfo, TRACE_FORMAT_VERSION, Trace, TraceError};

/// The engine version recorded in every trace; a trace replays exactly only on the same version.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

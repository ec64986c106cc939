//! Klotski (华容道, Huarong Dao) for botlens: the board model and its text format, the bundled
//! layouts, the game as an engine [`Game`](botlens_engine::Game), an optimal solver, a puzzle
//! generator and a human-play session.
//!
//! # Example
//!
//! ```
//! use botlens_klotski::{Count, Layout, bundled, solve};
//!
//! let classic = bundled::find("hengdaolima").expect("bundled");
//! assert_eq!(classic, Layout::default());
//! let solution = solve(&classic, Count::Steps).expect("solvable");
//! assert_eq!(solution.len(), 81);
//! let first = &solution.moves[0];
//! println!("1. {} {:?}", classic.pieces()[first.piece].name, first.path);
//! ```
//!
//! # Concepts
//!
//! - A [`Layout`] is a W×H board (up to 16×16) of rectangular [`Piece`]s, each with a short
//!   code (`cc`) and a display name (`曹操`), and a [`Goal`]: a piece and the top-left cell it
//!   must reach. Coordinates are 0-based, as in the bot protocol. Layouts are data: the text
//!   format ([`Layout::parse`], [`Layout::to_text`], `docs/layouts.md`) lets users add boards
//!   and piece shapes without code.
//! - [`Klotski`] is the game: one seat, `slide(piece, dir)` one cell at a time, counting cell
//!   moves and steps (consecutive slides of one piece are one step). Its reference player is
//!   `optimal`; [`par`] is the optimal number of steps of a layout, cached per layout.
//! - [`solve`] finds optimal solutions under a [`Count`]: steps, cell moves or straight moves.
//! - [`generate`] draws a random solvable layout of the standard piece set from a seed.
//! - [`PlaySession`] is human play as a pure state machine (a line in, text out).
//!
//! This crate does no I/O: the CLI reads layout files and the terminal.

mod format;
mod game;
mod generate;
mod layout;
pub mod oracle;
mod picture;
mod render;
mod session;
mod solver;

pub mod bundled;

pub use game::{Klotski, par, parse_dir};
pub use generate::{GenerateError, generate, max_steps};
pub use layout::{
    Blocked, Goal, Labels, Layout, LayoutError, MAX_CODE_LEN, MAX_NAME_CHARS, MAX_SIDE, Piece,
    RESERVED_CODES, TextPos,
};
pub use oracle::Shortest;
pub use render::{char_width, text_width};
pub use session::PlaySession;
pub use solver::{
    Count, MAX_STATES, Move, Solution, SolveError, count_layouts, reachable, solve, solve_from,
};

//! Tic-tac-toe for botlens: the rules, the board as text, and the reference opponents.
//!
//! [`TicTacToe`] implements [`botlens_engine::Game`]: a 3×3 board, `mark(x, y)` with 0-based
//! column `x` and row `y`, X moves first, three in a row wins, a full board without a line is a
//! draw. The seed decides which seat plays X, so a suite over many seeds plays both sides.
//! [`Game::reference_players`](botlens_engine::Game::reference_players) offers `random` and
//! `perfect` (minimax: never loses).
//!
//! This crate is pure rules: no I/O, no clocks, no global randomness. The messages a bot sees
//! ([`Mark`], [`Marked`], [`TicTacToeView`]) come from `botlens-protocol` and are re-exported.
//!
//! # Example
//!
//! ```
//! use botlens_engine::Game;
//! use botlens_tictactoe::{Mark, TicTacToe};
//!
//! let mut game = TicTacToe::new(&(), 7);
//! let seat = game.to_move();
//! game.apply(seat, &Mark { x: 1, y: 1 }).unwrap();
//! let err = game.apply(1 - seat, &Mark { x: 1, y: 1 }).unwrap_err();
//! assert_eq!(err.to_string(), "square (1, 1) is taken by X");
//! ```

mod board;
mod game;
pub mod oracle;
mod picture;
mod players;
mod text;

pub use botlens_protocol::tictactoe::{Mark, Marked, Side, TicTacToeView};
pub use game::TicTacToe;
pub use oracle::Perfect;

//! Tic-tac-toe for bots: the game marker [`TicTacToe`], its move [`Turn::mark`], and the
//! messages it takes and returns and what the view shows.
//!
//! ```
//! use botlens_sdk::tictactoe::{Side, TicTacToeView};
//!
//! let view = TicTacToeView { board: "X...O....".into(), you: Side::X };
//! assert_eq!(view.at(1, 1), Some(Side::O));
//! assert_eq!(view.at(2, 2), None);
//! ```

pub use botlens_protocol::tictactoe::{Mark, Marked, Side, TicTacToeView};

use crate::turn::{Game, Turn, sealed};

/// Two-player Tic-tac-toe: move with [`Turn::mark`].
///
/// ```no_run
/// # use botlens_sdk::{TicTacToe, Turn};
/// fn play(turn: &mut Turn<TicTacToe>) {
///     turn.mark(1, 1);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicTacToe;

impl sealed::Sealed for TicTacToe {}

impl Game for TicTacToe {
    const NAME: &'static str = "tictactoe";
    type View = TicTacToeView;
    type Action = Mark;
    type Response = Marked;
}

impl Turn<TicTacToe> {
    /// Puts your mark on column `x`, row `y` (both 0–2) and returns the board after it. An
    /// occupied or out-of-range square is an illegal move and loses the game.
    ///
    /// ```no_run
    /// # use botlens_sdk::{TicTacToe, Turn};
    /// fn play(turn: &mut Turn<TicTacToe>) {
    ///     let after = turn.mark(1, 1);
    ///     assert_eq!(after.board.len(), 9);
    /// }
    /// ```
    pub fn mark(&mut self, x: i32, y: i32) -> Marked {
        self.act(Mark { x, y })
    }
}

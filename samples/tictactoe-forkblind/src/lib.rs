//! A Tic-tac-toe bot with a planted strategic mistake (deliberate: a botlens sample).
//!
//! It never makes an illegal move and never fails: `botlens run` finds nothing wrong with it.
//! It takes a winning square at once, blocks a single threat, takes the centre, and then
//! prefers corners to edges. That last rule is blind to forks: as O, after X took two opposite
//! corners around O's centre, a corner lets X threaten two lines at once, and the game is lost
//! two moves later. Only `perfect` finds the fork, on some seeds; `botlens analyze` names the
//! move that lost each of those games and the line that chose it.

use botlens_sdk::tictactoe::Side;
use botlens_sdk::{Bot, Start, TicTacToe, Turn, export};

/// The eight lines of three, as square indices (`y * 3 + x`).
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// The corners, then the edges, in the order the bot tries them.
const CORNERS: [usize; 4] = [0, 2, 6, 8];
const EDGES: [usize; 4] = [1, 3, 5, 7];

/// A board: each square empty or marked by a side.
type Board = [Option<Side>; 9];

/// The free square that completes a line of `side`, if there is one.
fn completing(board: &Board, side: Side) -> Option<usize> {
    LINES
        .iter()
        .filter(|line| line.iter().filter(|&&s| board[s] == Some(side)).count() == 2)
        .find_map(|line| line.iter().copied().find(|&s| board[s].is_none()))
}

/// The first free square of `squares`.
fn first_free(board: &Board, squares: &[usize]) -> Option<usize> {
    squares.iter().copied().find(|&s| board[s].is_none())
}

/// Marks `square`.
fn mark(turn: &mut Turn<TicTacToe>, square: usize) {
    turn.mark((square % 3) as i32, (square / 3) as i32);
}

/// The fork-blind bot.
pub struct Forkblind;

impl Bot for Forkblind {
    type Game = TicTacToe;

    fn new(_start: Start) -> Self {
        Forkblind
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        let view = turn.view();
        let me = view.you;
        let board: Board = std::array::from_fn(|i| view.at(i % 3, i / 3));
        let forced = completing(&board, me)
            .or_else(|| completing(&board, me.other()))
            .or_else(|| first_free(&board, &[4]));
        if let Some(square) = forced {
            mark(turn, square);
        } else if let Some(corner) = first_free(&board, &CORNERS) {
            // botlens analyze finds the losing move on the next line
            mark(turn, corner);
        } else {
            let edge = first_free(&board, &EDGES).expect("the game is on, so a square is free");
            mark(turn, edge);
        }
    }
}

export!(Forkblind);

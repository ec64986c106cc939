//! Tic-tac-toe by minimax: search every continuation, take a move of the best value.
//!
//! Values favour quick wins and slow losses, so the bot wins as soon as it can and, when it
//! cannot win, holds the draw. Among equally good moves it picks with the game's seeded
//! [`Rng`], so its games differ from seed to seed but replay exactly. The whole tree from the
//! empty board is under 550,000 nodes: a few million instructions, far inside a turn's fuel.

use botlens_sdk::tictactoe::Side;
use botlens_sdk::{Bot, Rng, Start, TicTacToe, Turn, export, log};

/// The eight lines of three, as square indices (`y * 3 + x`).
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A board: each square empty or marked by a side.
type Board = [Option<Side>; 9];

/// The side that owns a full line, if any.
fn winner(board: &Board) -> Option<Side> {
    LINES.iter().find_map(|&[a, b, c]| {
        let side = board[a]?;
        (board[b] == Some(side) && board[c] == Some(side)).then_some(side)
    })
}

/// The value of `board` for `mover`, who is about to move: the number of empty squares plus one
/// for a win (a quicker win is worth more), its negation for a loss, 0 for a draw.
fn value(board: &mut Board, mover: Side) -> i32 {
    let empty = board.iter().filter(|s| s.is_none()).count() as i32;
    if let Some(side) = winner(board) {
        return if side == mover { empty + 1 } else { -(empty + 1) };
    }
    let mut best = None;
    for square in 0..9 {
        if board[square].is_none() {
            board[square] = Some(mover);
            let score = -value(board, mover.other());
            board[square] = None;
            best = Some(best.map_or(score, |b: i32| b.max(score)));
        }
    }
    best.unwrap_or(0)
}

/// The squares of the best value for `me` (empty on a full board).
fn best_squares(board: &Board, me: Side) -> Vec<usize> {
    let mut board = *board;
    let mut scored = Vec::new();
    for square in 0..9 {
        if board[square].is_none() {
            board[square] = Some(me);
            scored.push((square, -value(&mut board, me.other())));
            board[square] = None;
        }
    }
    let best = scored.iter().map(|&(_, score)| score).max();
    scored.into_iter().filter(|&(_, score)| Some(score) == best).map(|(square, _)| square).collect()
}

/// The minimax bot.
pub struct Minimax {
    rng: Rng,
}

impl Bot for Minimax {
    type Game = TicTacToe;

    fn new(start: Start) -> Self {
        Minimax { rng: start.rng() }
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        let view = turn.view();
        let me = view.you;
        let board: Board = std::array::from_fn(|i| view.at(i % 3, i / 3));
        let choices = best_squares(&board, me);
        let square = *self.rng.choose(&choices).expect("the game is on, so a square is free");
        log!("{} of {} best squares: {square}", choices.len(), 9 - board.iter().flatten().count());
        turn.mark((square % 3) as i32, (square / 3) as i32);
    }
}

export!(Minimax);

//! A Tic-tac-toe bot that gives up without moving (deliberate: a botlens sample).
//!
//! It scores every free square by the lines through it, takes a winning square at once and
//! blocks a single threat. When the opponent has two threats at once (a fork) one block cannot
//! save the game, so the bot logs that it is lost and returns, forgetting that a turn must
//! still make a move: `no_move`, and the game is lost there and then. Only games where the
//! opponent builds a fork show it, so only some seeds.

use botlens_sdk::tictactoe::Side;
use botlens_sdk::{Bot, Start, TicTacToe, Turn, export, log};

/// The eight lines of three, as square indices (`y * 3 + x`).
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A board: each square empty or marked by a side.
type Board = [Option<Side>; 9];

/// The free squares that would complete a line of `side`.
fn threats(board: &Board, side: Side) -> Vec<usize> {
    let mut squares: Vec<usize> = LINES
        .iter()
        .filter(|line| line.iter().filter(|&&s| board[s] == Some(side)).count() == 2)
        .filter_map(|line| line.iter().copied().find(|&s| board[s].is_none()))
        .collect();
    squares.dedup();
    squares
}

/// How promising a free square is for `me`: each line through it counts for what it may still
/// become (open lines, more so with own marks already in them).
fn score(board: &Board, square: usize, me: Side) -> u32 {
    LINES
        .iter()
        .filter(|line| line.contains(&square))
        .map(|line| {
            let mine = line.iter().filter(|&&s| board[s] == Some(me)).count() as u32;
            let theirs = line.iter().filter(|&&s| board[s] == Some(me.other())).count() as u32;
            if theirs == 0 {
                1 + 2 * mine
            } else if mine == 0 {
                theirs
            } else {
                0
            }
        })
        .sum()
}

/// The forgetful bot.
pub struct Forgetful;

impl Bot for Forgetful {
    type Game = TicTacToe;

    fn new(_start: Start) -> Self {
        Forgetful
    }

    // botlens reports the no_move on the next line
    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        let view = turn.view();
        let me = view.you;
        let board: Board = std::array::from_fn(|i| view.at(i % 3, i / 3));
        let square = if let Some(&win) = threats(&board, me).first() {
            win
        } else {
            let against = threats(&board, me.other());
            match against.as_slice() {
                [] => (0..9)
                    .filter(|&s| board[s].is_none())
                    .max_by_key(|&s| (score(&board, s, me), std::cmp::Reverse(s)))
                    .expect("the game is on, so a square is free"),
                [block] => *block,
                [_, _, ..] => {
                    log!("two threats at {against:?}: the game is lost");
                    return;
                }
            }
        };
        turn.mark((square % 3) as i32, (square / 3) as i32);
    }
}

export!(Forgetful);

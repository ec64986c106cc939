//! A rule-based Tic-tac-toe bot that panics on one opening (deliberate: a botlens sample).
//!
//! Rules, in order: win if a line can be completed; block the opponent's line; as O on the
//! first move, answer X's opening from a small book; else take the centre, a corner, an edge.
//! The book looks X's square up on the ring of eight squares around the centre and `expect`s to
//! find it there. When X opens in the centre it is not on the ring: the bot panics. That takes
//! the bot playing O (the seed decides) against an X that opens in the centre, so only some
//! seeds show it.

use botlens_sdk::tictactoe::{Side, TicTacToeView};
use botlens_sdk::{Bot, Start, TicTacToe, Turn, export, log};

/// The eight lines of three, as square indices (`y * 3 + x`).
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// The centre square.
const CENTRE: usize = 4;

/// The squares around the centre, clockwise from the top-left corner: corners at even
/// positions, edges at odd ones.
const RING: [usize; 8] = [0, 1, 2, 5, 8, 7, 6, 3];

/// The order of preference when no rule applies: centre, corners, edges.
const PREFERENCE: [usize; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

/// The square that completes a line of `side`, if one does.
fn completing(board: &[Option<Side>; 9], side: Side) -> Option<usize> {
    LINES.iter().find_map(|line| {
        let mine = line.iter().filter(|&&s| board[s] == Some(side)).count();
        let free = line.iter().find(|&&s| board[s].is_none());
        if mine == 2 { free.copied() } else { None }
    })
}

/// O's answer to X's first mark on `x_square`: the centre against a corner, the next corner
/// clockwise against an edge.
fn answer_opening(x_square: usize) -> usize {
    // botlens reports the panic on the next line
    let at = RING.iter().position(|&s| s == x_square).expect("X opens on a corner or an edge");
    if at % 2 == 0 { CENTRE } else { RING[(at + 1) % RING.len()] }
}

/// The square to mark.
fn choose(view: &TicTacToeView) -> usize {
    let board: [Option<Side>; 9] = std::array::from_fn(|i| view.at(i % 3, i / 3));
    let me = view.you;
    if let Some(square) = completing(&board, me).or_else(|| completing(&board, me.other())) {
        return square;
    }
    let marked: Vec<usize> = (0..9).filter(|&i| board[i].is_some()).collect();
    if me == Side::O && marked.len() == 1 {
        return answer_opening(marked[0]);
    }
    PREFERENCE
        .into_iter()
        .find(|&s| board[s].is_none())
        .expect("the game is on, so a square is free")
}

/// The rule-based bot.
pub struct Panicky;

impl Bot for Panicky {
    type Game = TicTacToe;

    fn new(_start: Start) -> Self {
        Panicky
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        let square = choose(turn.view());
        log!("marking square {square}");
        turn.mark((square % 3) as i32, (square / 3) as i32);
    }
}

export!(Panicky);

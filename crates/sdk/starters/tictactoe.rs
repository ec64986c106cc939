//! {{name}}: a Tic-tac-toe bot for botlens.
//!
//! It marks the first free square, row by row: legal, but easy to beat. Ideas: win when you can,
//! block the opponent's line, take the centre, or search every continuation (minimax).
//!
//! `botlens run` builds this crate to WebAssembly and plays it against the reference players
//! `random` and `perfect`; the seed decides who plays X (X moves first).

use botlens_sdk::{Bot, Start, TicTacToe, Turn, export, log};

/// The bot. A fresh value is made for every game, so fields hold what it learns in one game.
pub struct MyBot;

impl Bot for MyBot {
    /// The game this bot plays.
    type Game = TicTacToe;

    /// Called once at the start of every game. `start.seat()` is your seat; `start.rng()` gives
    /// random numbers drawn from the game's seed, so a replay makes the same choices.
    fn new(_start: Start) -> Self {
        MyBot
    }

    /// Called once per turn: look at the view, then make exactly one move. Making none, or a
    /// second one, loses the game, as does a panic; botlens reports the line.
    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        let view = turn.view();
        // `view.you` is your side (X or O); `view.at(x, y)` is the side on column x, row y
        // (0–2), if any; `view.board` is the whole board as 9 characters, row by row.
        let me = view.you;
        let free = (0..9).map(|i| (i % 3, i / 3)).find(|&(x, y)| view.at(x, y).is_none());
        let (x, y) = free.expect("botlens asks for a move only while a square is free");
        // The move: it returns only if it was legal (an occupied square loses the game here).
        let after = turn.mark(x as i32, y as i32);
        // Log lines are kept with the turn: `botlens replay` shows them next to the board.
        log!("{} marked {x},{y}; the board is now {}", me.to_char(), after.board);
    }
}

// Makes `MyBot` the entry point of the WebAssembly module.
export!(MyBot);

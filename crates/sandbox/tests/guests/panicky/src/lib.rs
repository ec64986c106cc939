//! Panics on its second turn: the sandbox must report the message and this file's line.

use botlens_sdk::{Bot, Start, TicTacToe, Turn, export};

struct Panicky {
    turns: u32,
}

impl Bot for Panicky {
    type Game = TicTacToe;

    fn new(_start: Start) -> Self {
        Panicky { turns: 0 }
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        self.turns += 1;
        let free = first_free(turn);
        let favourite: Option<usize> = if self.turns < 2 { Some(free) } else { None };
        let i = favourite.expect("no favourite square") as i32; // PANIC
        turn.mark(i % 3, i / 3);
    }
}

fn first_free(turn: &Turn<TicTacToe>) -> usize {
    (0..9).find(|&i| turn.view().at(i % 3, i / 3).is_none()).expect("a free square")
}

export!(Panicky);

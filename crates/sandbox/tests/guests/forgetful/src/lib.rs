//! Forgets to move on its second turn: the sandbox must report `no_move` at `play`.

use botlens_sdk::{Bot, Start, TicTacToe, Turn, export};

struct Forgetful {
    turns: u32,
}

impl Bot for Forgetful {
    type Game = TicTacToe;

    fn new(_start: Start) -> Self {
        Forgetful { turns: 0 }
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        self.turns += 1; // PLAY
        if self.turns == 2 {
            return;
        }
        let i = (0..9).find(|&i| turn.view().at(i % 3, i / 3).is_none()).expect("a free square");
        turn.mark(i as i32 % 3, i as i32 / 3);
    }
}

export!(Forgetful);

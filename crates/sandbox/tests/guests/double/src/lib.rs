//! Marks twice on its second turn: the sandbox must report `second_move` at the second mark.

use botlens_sdk::{Bot, Start, TicTacToe, Turn, export};

struct Double {
    turns: u32,
}

impl Bot for Double {
    type Game = TicTacToe;

    fn new(_start: Start) -> Self {
        Double { turns: 0 }
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        self.turns += 1;
        let free: Vec<i32> =
            (0..9).filter(|&i| turn.view().at(i % 3, i / 3).is_none()).map(|i| i as i32).collect();
        turn.mark(free[0] % 3, free[0] / 3);
        if self.turns == 2 {
            turn.mark(free[1] % 3, free[1] / 3); // SECOND
        }
    }
}

export!(Double);

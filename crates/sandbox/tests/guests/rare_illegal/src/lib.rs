//! Plays random free squares, but in a rare branch (about one move in fifteen) marks off the
//! board: the sandbox must report `illegal_move` at that line, only in the games where it happens.

use botlens_sdk::{Bot, Rng, Start, TicTacToe, Turn, export};

struct RareIllegal {
    rng: Rng,
}

impl Bot for RareIllegal {
    type Game = TicTacToe;

    fn new(start: Start) -> Self {
        RareIllegal { rng: start.rng() }
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        let free: Vec<i32> =
            (0..9).filter(|&i| turn.view().at(i % 3, i / 3).is_none()).map(|i| i as i32).collect();
        let pick = free[self.rng.index(free.len())];
        if self.rng.below(15) == 0 {
            turn.mark(3, pick / 3); // ILLEGAL
        } else {
            turn.mark(pick % 3, pick / 3);
        }
    }
}

export!(RareIllegal);

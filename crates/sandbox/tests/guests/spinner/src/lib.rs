//! Loops forever on its second turn: the sandbox must stop it with `out_of_fuel`, inside the loop.

use botlens_sdk::{Bot, Start, TicTacToe, Turn, export};

struct Spinner {
    turns: u32,
}

impl Bot for Spinner {
    type Game = TicTacToe;

    fn new(_start: Start) -> Self {
        Spinner { turns: 0 }
    }

    // Kept unformatted: the test expects the whole loop on the line marked SPIN.
    #[rustfmt::skip]
    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        self.turns += 1;
        let mut spins: u64 = 0;
        while self.turns >= 2 { spins = std::hint::black_box(spins.wrapping_add(1)); } // SPIN
        let i = (0..9).find(|&i| turn.view().at(i % 3, i / 3).is_none()).expect("a free square");
        turn.mark(i as i32 % 3, i as i32 / 3);
    }
}

export!(Spinner);

//! Fires at a uniformly random square it knows nothing about: the wasm twin of the reference
//! `random` Battleships player, for the speed comparison.

use botlens_sdk::battleships::Target;
use botlens_sdk::{Battleships, Bot, Rng, Start, Turn, export};

struct Random {
    rng: Rng,
    unknown: Vec<i32>,
}

impl Bot for Random {
    type Game = Battleships;

    fn new(start: Start) -> Self {
        Random { rng: start.rng(), unknown: Vec::with_capacity(100) }
    }

    fn play(&mut self, turn: &mut Turn<Battleships>) {
        let view = turn.view();
        self.unknown.clear();
        self.unknown.extend(
            (0..100).filter(|&i| view.target(i % 10, i / 10) == Target::Unknown).map(|i| i as i32),
        );
        let square = self.unknown[self.rng.index(self.unknown.len())];
        turn.attack(square % 10, square / 10);
    }
}

export!(Random);

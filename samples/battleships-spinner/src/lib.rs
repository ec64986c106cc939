//! A parity-hunting Battleships bot with an endless loop (deliberate: a botlens sample).
//!
//! Every ship of two squares or more covers a square of each checkerboard colour, so the bot
//! hunts on one colour only (chosen by its seeded [`Rng`]): from a random square it walks on to
//! the next square of that colour worth a shot. Around a hit it shoots the free neighbours.
//! The fleet also has two patrols of a single square, which may sit on the other colour; the bot
//! knows, and hunts everywhere once a patrol is all that is left. But it checks for *one*
//! patrol: when both patrols are left on the other colour and every square of its own colour is
//! spent, no square is huntable and the walk never ends, until the turn's fuel runs out
//! (`out_of_fuel`). Only some seeds show it.

use botlens_sdk::battleships::{BOARD_SIZE, BattleshipsView, ShipKind, Target};
use botlens_sdk::{Battleships, Bot, Rng, Start, Turn, export};

const N: usize = BOARD_SIZE;

/// Whether a ship may be on `(x, y)`: nothing known there and no sunk ship beside it.
fn worth_a_shot(view: &BattleshipsView, x: usize, y: usize) -> bool {
    let near = |c: usize| c.saturating_sub(1)..=(c + 1).min(N - 1);
    let beside_sunk = near(x).any(|nx| near(y).any(|ny| view.target(nx, ny) == Target::Sunk));
    view.target(x, y) == Target::Unknown && !beside_sunk
}

/// A free square beside a hit of a ship still afloat, if there is one.
fn target(view: &BattleshipsView) -> Option<(usize, usize)> {
    let hits =
        (0..N * N).map(|i| (i % N, i / N)).filter(|&(x, y)| view.target(x, y) == Target::Hit);
    hits.flat_map(|(x, y)| [(x + 1, y), (x.wrapping_sub(1), y), (x, y + 1), (x, y.wrapping_sub(1))])
        .find(|&(x, y)| x < N && y < N && worth_a_shot(view, x, y))
}

/// The parity hunter.
pub struct Spinner {
    rng: Rng,
    /// The checkerboard colour hunted: squares with `(x + y) % 2 == colour`.
    colour: usize,
}

impl Spinner {
    /// A square to hunt on: the first huntable one from a random start, in reading order.
    fn hunt(&mut self, view: &BattleshipsView) -> (usize, usize) {
        // A lone patrol may be on either colour: then every square is worth hunting.
        let everywhere = view.enemy_ships_left == [ShipKind::Patrol];
        let huntable: [bool; N * N] = std::array::from_fn(|i| {
            let (x, y) = (i % N, i / N);
            (everywhere || (x + y) % 2 == self.colour) && worth_a_shot(view, x, y)
        });
        let mut square = self.rng.index(N * N);
        // botlens reports the out_of_fuel on the next line
        while !huntable[square] {
            square = (square + 1) % (N * N);
        }
        (square % N, square / N)
    }
}

impl Bot for Spinner {
    type Game = Battleships;

    fn new(start: Start) -> Self {
        let mut rng = start.rng();
        let colour = rng.index(2);
        Spinner { rng, colour }
    }

    fn play(&mut self, turn: &mut Turn<Battleships>) {
        let (x, y) = match target(turn.view()) {
            Some(square) => square,
            None => self.hunt(turn.view()),
        };
        turn.attack(x as i32, y as i32);
    }
}

export!(Spinner);

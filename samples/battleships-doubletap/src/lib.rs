//! A hunt-and-target Battleships bot that moves twice in one turn (deliberate: a botlens sample).
//!
//! It hunts at random among the squares a ship may still be on and shoots around hits. For the
//! endgame it has a shortcut: when only one enemy ship is left and it is wounded, the bot fires
//! at every free square around the wound in the same turn, to finish it at once. But a turn is
//! exactly one move: the second `attack` is a `second_move` and loses the game. The last ship
//! has to be one of two squares or more, wounded by the bot before it sinks, so only some seeds
//! show it.

use botlens_sdk::battleships::{BOARD_SIZE, BattleshipsView, Target};
use botlens_sdk::{Battleships, Bot, Rng, Start, Turn, export, log};

const N: usize = BOARD_SIZE;

/// A square of the grid.
type Square = (usize, usize);

/// The squares one step from `(x, y)` along each axis, inside the grid.
fn beside((x, y): Square) -> impl Iterator<Item = Square> {
    [(x + 1, y), (x.wrapping_sub(1), y), (x, y + 1), (x, y.wrapping_sub(1))]
        .into_iter()
        .filter(|&(x, y)| x < N && y < N)
}

/// What the bot reads from the view.
struct Board<'a> {
    view: &'a BattleshipsView,
}

impl Board<'_> {
    fn is(&self, (x, y): Square, target: Target) -> bool {
        self.view.target(x, y) == target
    }

    /// Whether a ship may be on `square`: nothing known there and no sunk ship next to it.
    fn open(&self, square: Square) -> bool {
        let (x, y) = square;
        let diagonals = [(x + 1, y + 1), (x + 1, y.wrapping_sub(1)), (x.wrapping_sub(1), y + 1)]
            .into_iter()
            .chain([(x.wrapping_sub(1), y.wrapping_sub(1))])
            .filter(|&(x, y)| x < N && y < N);
        let touches_sunk = beside(square).chain(diagonals).any(|s| self.is(s, Target::Sunk));
        self.is(square, Target::Unknown) && !touches_sunk
    }

    /// Squares with hits of ships still afloat.
    fn hits(&self) -> Vec<Square> {
        (0..N * N).map(|i| (i % N, i / N)).filter(|&s| self.is(s, Target::Hit)).collect()
    }
}

/// The hunt-and-target bot with the endgame shortcut.
pub struct DoubleTap {
    rng: Rng,
}

impl Bot for DoubleTap {
    type Game = Battleships;

    fn new(start: Start) -> Self {
        DoubleTap { rng: start.rng() }
    }

    fn play(&mut self, turn: &mut Turn<Battleships>) {
        let board = Board { view: turn.view() };
        let hits = board.hits();
        let around: Vec<Square> =
            hits.iter().flat_map(|&hit| beside(hit)).filter(|&s| board.open(s)).collect();
        if board.view.enemy_ships_left.len() == 1 && !around.is_empty() {
            log!("the last ship is wounded: firing all around it");
            for (x, y) in around {
                // botlens reports the second_move on the next line
                turn.attack(x as i32, y as i32);
            }
            return;
        }
        let (x, y) = around.first().copied().unwrap_or_else(|| {
            let open: Vec<Square> =
                (0..N * N).map(|i| (i % N, i / N)).filter(|&s| board.open(s)).collect();
            *self.rng.choose(&open).expect("a ship is afloat, so a square is open")
        });
        turn.attack(x as i32, y as i32);
    }
}

export!(DoubleTap);

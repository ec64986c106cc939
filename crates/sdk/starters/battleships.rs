//! {{name}}: a Battleships bot for botlens.
//!
//! It fires at a random square it knows nothing about. Ideas: after a hit, shoot around it
//! until the ship sinks; skip the squares around a sunk ship (ships never touch, not even
//! diagonally); hunt where the ships still afloat fit best.
//!
//! `botlens run` builds this crate to WebAssembly and plays it against the reference players,
//! from `random` up to `density`; the seed places both fleets and decides who shoots first.

use botlens_sdk::battleships::{BOARD_SIZE, Shot, Target};
use botlens_sdk::{Battleships, Bot, Rng, Start, Turn, export, log};

/// The bot. A fresh value is made for every game, so fields hold what it learns in one game.
pub struct MyBot {
    /// Random numbers drawn from the game's seed: a replay of the game makes the same choices.
    rng: Rng,
}

impl Bot for MyBot {
    /// The game this bot plays.
    type Game = Battleships;

    /// Called once at the start of every game.
    fn new(start: Start) -> Self {
        MyBot { rng: start.rng() }
    }

    /// Called once per turn: look at the view, then make exactly one move. Making none, or a
    /// second one, loses the game, as does a panic; botlens reports the line.
    fn play(&mut self, turn: &mut Turn<Battleships>) {
        let view = turn.view();
        // `view.target(x, y)` is what you know about the enemy square on column x, row y (0–9):
        // unknown, miss, hit, or part of a sunk ship. `view.enemy_ships_left` lists the ships
        // still afloat; `view.own` is your own grid.
        // Try random squares until one is unknown (while a ship is afloat, some square is).
        // Squares are numbered row by row: square `y * 10 + x` is column x of row y.
        let (x, y) = loop {
            let square = self.rng.index(BOARD_SIZE * BOARD_SIZE);
            let (x, y) = (square % BOARD_SIZE, square / BOARD_SIZE);
            if view.target(x, y) == Target::Unknown {
                break (x, y);
            }
        };
        // The move: it returns only if it was legal (x or y outside 0–9 loses the game here).
        match turn.attack(x as i32, y as i32) {
            // A miss passes the turn to the opponent.
            Shot::Miss | Shot::AlreadyAttacked => {}
            // A hit or a sink earns another turn: `play` is called again.
            Shot::Hit => {}
            // Log lines are kept with the turn: `botlens replay` shows them next to the board.
            // Formatting one costs about as much as the rest of a turn, so log what is worth
            // reading in a replay rather than every shot.
            Shot::Sunk { ship } => log!("sank the {} at {x},{y}", ship.kind.name()),
        }
    }
}

// Makes `MyBot` the entry point of the WebAssembly module.
export!(MyBot);

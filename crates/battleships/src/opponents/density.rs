//! `density`: shoots where the most placements of the remaining ships could lie.
//!
//! For every ship afloat, every placement on the grid is counted that is consistent with what
//! is known: it covers no miss, no sunk ship and no square next to a sunk ship (ships never
//! touch), and no outstanding hit lies next to it without being covered by it (a hit beside a
//! ship would be another ship touching it). With hits outstanding only placements covering at
//! least one of them count, which finishes wounded ships first. Each unattacked square scores
//! the number of counted placements over it (times the number of ships of that size afloat);
//! the player shoots a square of highest score, ties broken by its rng.

use botlens_engine::SeedRng;

use super::{Knowledge, Strategy};
use crate::board::{CELLS, GAME_PLACEMENTS, MAX_SHIP, Squares, random_square};

/// Probability-density targeting.
pub(super) struct Density;

impl Strategy for Density {
    fn new(_rng: &mut SeedRng) -> Self {
        Density
    }

    fn choose(&mut self, knowledge: &Knowledge, rng: &mut SeedRng) -> Option<u32> {
        let blocked = knowledge.water | knowledge.sunk;
        let open = knowledge.unknown();
        let hits = knowledge.hits;
        let mut scores = [0u32; CELLS];
        for size in 1..=MAX_SHIP {
            let ships = u32::from(knowledge.afloat[size]);
            if ships == 0 {
                continue;
            }
            for placement in GAME_PLACEMENTS.of(size) {
                let fits = placement.cells & blocked == 0
                    && (hits == 0 || placement.cells & hits != 0)
                    && placement.halo & hits & !placement.cells == 0;
                if fits {
                    for cell in Squares(placement.cells & open) {
                        scores[cell as usize] += ships;
                    }
                }
            }
        }
        let best = scores.iter().copied().max().unwrap_or(0);
        if best == 0 {
            // Nothing consistent is left (only if the knowledge is contradictory): any square
            // that may hold a ship.
            return random_square(open, rng);
        }
        let ties = scores
            .iter()
            .enumerate()
            .filter(|&(_, &score)| score == best)
            .fold(0u128, |mask, (cell, _)| mask | 1 << cell);
        random_square(ties, rng)
    }
}

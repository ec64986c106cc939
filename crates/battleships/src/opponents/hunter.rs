//! `hunter` and `parity`: hunt for ships, then finish off the one found.
//!
//! Hunting shoots a random square that may still hold a ship (not attacked, not next to a sunk
//! ship). Once a hit is outstanding the player targets: it shoots the squares beside the hits,
//! and once two hits line up, only the squares extending that line, until the ship sinks.
//! `parity` hunts only one colour of the checkerboard (chosen at random per game) while every
//! ship afloat is at least two squares long, since such a ship always covers both colours.

use botlens_engine::SeedRng;

use super::{Knowledge, Strategy};
use crate::board::{
    EVEN_SQUARES, FULL, Mask, horizontal_ends, orthogonal, random_square, vertical_ends,
    with_horizontal_neighbour, with_vertical_neighbour,
};

/// The squares worth shooting to finish the ships hit so far.
fn target_squares(knowledge: &Knowledge) -> Mask {
    let hits = knowledge.hits;
    let horizontal = with_horizontal_neighbour(hits);
    let vertical = with_vertical_neighbour(hits);
    let lone = hits & !horizontal & !vertical;
    (horizontal_ends(horizontal) | vertical_ends(vertical) | orthogonal(lone)) & knowledge.unknown()
}

/// Targets outstanding hits if any, otherwise hunts among `hunt`.
fn target_or_hunt(knowledge: &Knowledge, hunt: Mask, rng: &mut SeedRng) -> Option<u32> {
    random_square(target_squares(knowledge), rng).or_else(|| random_square(hunt, rng))
}

/// Hunt uniformly, target the neighbours of hits.
pub(super) struct Hunter;

impl Strategy for Hunter {
    fn new(_rng: &mut SeedRng) -> Self {
        Hunter
    }

    fn choose(&mut self, knowledge: &Knowledge, rng: &mut SeedRng) -> Option<u32> {
        target_or_hunt(knowledge, knowledge.unknown(), rng)
    }
}

/// A hunter that hunts on one checkerboard colour while that cannot miss a ship.
pub(super) struct Parity {
    colour: Mask,
}

impl Strategy for Parity {
    fn new(rng: &mut SeedRng) -> Self {
        Parity { colour: if rng.coin() { EVEN_SQUARES } else { FULL & !EVEN_SQUARES } }
    }

    fn choose(&mut self, knowledge: &Knowledge, rng: &mut SeedRng) -> Option<u32> {
        let unknown = knowledge.unknown();
        let on_colour = unknown & self.colour;
        let hunt =
            if knowledge.largest_afloat() >= 2 && on_colour != 0 { on_colour } else { unknown };
        target_or_hunt(knowledge, hunt, rng)
    }
}

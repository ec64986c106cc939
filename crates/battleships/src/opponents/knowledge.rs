//! What a reference opponent knows about the enemy grid, kept up to date from the answers to its
//! own shots so that choosing a square never allocates.

use botlens_protocol::battleships::{BattleshipsView, Shot, Target};

use crate::board::{CELLS, FULL, MAX_SHIP, Mask, halo, ship_mask};

/// The enemy grid as far as one player knows it, as bitboards.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Knowledge {
    /// Squares this player has attacked.
    pub attacked: Mask,
    /// Hit squares of ships not yet sunk.
    pub hits: Mask,
    /// Squares of sunk ships.
    pub sunk: Mask,
    /// Squares known to be water: misses, and every square touching a sunk ship (ships never
    /// touch).
    pub water: Mask,
    /// Enemy ships afloat, by size (index 0 unused).
    pub afloat: [u8; MAX_SHIP + 1],
}

impl Knowledge {
    /// Everything a view tells: used once, on a player's first turn, so that a player created
    /// in the middle of a game starts from what it can see.
    pub fn from_view(view: &BattleshipsView) -> Knowledge {
        let mut knowledge = Knowledge::default();
        for (cell, c) in view.targets.chars().take(CELLS).enumerate() {
            let square = 1 << cell;
            match Target::from_char(c) {
                Target::Unknown | Target::OffBoard => continue,
                Target::Miss => knowledge.water |= square,
                Target::Hit => knowledge.hits |= square,
                Target::Sunk => knowledge.sunk |= square,
            }
            knowledge.attacked |= square;
        }
        knowledge.water |= halo(knowledge.sunk) & !knowledge.sunk;
        for kind in &view.enemy_ships_left {
            knowledge.afloat[kind.size()] += 1;
        }
        knowledge
    }

    /// Learns from the answer to a shot at square `cell`.
    pub fn record(&mut self, cell: u32, shot: &Shot) {
        let square = 1 << cell;
        self.attacked |= square;
        match shot {
            Shot::Miss => self.water |= square,
            Shot::Hit => self.hits |= square,
            Shot::Sunk { ship } => {
                let size = ship.kind.size();
                let cells =
                    ship_mask(ship.x.into(), ship.y.into(), size, ship.direction).unwrap_or(square);
                self.hits &= !cells;
                self.sunk |= cells;
                self.water |= halo(cells) & !cells;
                self.afloat[size] = self.afloat[size].saturating_sub(1);
            }
            Shot::AlreadyAttacked => {}
        }
    }

    /// Squares not attacked and not known to be water: where ships may still be found.
    pub fn unknown(&self) -> Mask {
        FULL & !self.attacked & !self.water
    }

    /// The size of the largest ship afloat; 0 when none is.
    pub fn largest_afloat(&self) -> usize {
        (1..=MAX_SHIP).rev().find(|&size| self.afloat[size] > 0).unwrap_or(0)
    }
}

//! `random`: shoots uniformly at a square it has not attacked yet.

use botlens_engine::SeedRng;

use super::{Knowledge, Strategy};
use crate::board::{FULL, random_square};

/// Uniform over the squares not yet attacked; never repeats, ignores everything else it knows.
pub(super) struct Random;

impl Strategy for Random {
    fn new(_rng: &mut SeedRng) -> Self {
        Random
    }

    fn choose(&mut self, knowledge: &Knowledge, rng: &mut SeedRng) -> Option<u32> {
        random_square(FULL & !knowledge.attacked, rng)
    }
}

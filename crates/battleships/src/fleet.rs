//! Fleet placement and fleet validation.
//!
//! # How fleets are placed
//!
//! A fleet is drawn uniformly over all legal configurations: every ship horizontal or vertical,
//! inside the grid, no two ships overlapping or touching (diagonals included).
//!
//! The method is rejection sampling of whole fleets. Each ship of [`FLEET`] gets a placement
//! drawn uniformly and independently from all of its placements on the empty grid (a one-square
//! patrol has 100, a carrier 120); if any ship overlaps or touches an earlier one, the whole
//! fleet is thrown away and drawing starts again from the first ship. Every tuple of placements
//! is equally likely to be drawn, so the accepted ones are uniform over legal tuples; and every
//! legal configuration corresponds to the same number of tuples (4: the two cruisers and the two
//! patrols may swap), so configurations are uniform too. Stopping an attempt at its first clash
//! instead of drawing the remaining ships does not change which tuples are accepted, only how
//! quickly the losers are discarded.
//!
//! About 1 attempt in 112 is accepted (0.89 %, measured over 50,000 fleets; the `fleet` tests
//! print it). That is cheap because a rejected attempt costs little: it dies at its first clash
//! (3.3 ships drawn per attempt on average), a clash test is one `u128` AND against the squares
//! the earlier ships claimed, and a draw is a multiply-shift on [`SeedRng::next_u64`] (Lemire's
//! unbiased method, no division). A fleet takes about 370 draws and a few microseconds.
//!
//! Not the same as placing ships one by one, each uniformly among the spots still free: that
//! favours crowded layouts (a configuration whose early ships leave few spots free gets more
//! weight), and the tests check on a small grid, against full enumeration, that this sampler
//! is uniform where that one is not.

use std::fmt;

use botlens_engine::SeedRng;
use botlens_protocol::battleships::{FLEET, Ship, ShipKind};

use crate::board::{GAME_PLACEMENTS, Mask, Placement, Placements, draw, halo, ship_mask};

/// Why a fleet (or a game state loaded from JSON) is not a legal Battleships setup.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The ships are not the standard fleet.
    #[error("a fleet is {}; got {found}", Kinds(&FLEET))]
    WrongShips {
        /// The kinds given, in order.
        found: String,
    },
    /// A ship's `size` does not match its kind.
    #[error("ship {index} ({kind}) has size {size}, but a {kind} has size {expected}")]
    WrongSize {
        /// Position in the fleet list.
        index: usize,
        /// Its kind.
        kind: &'static str,
        /// The size given.
        size: u8,
        /// The size of that kind.
        expected: usize,
    },
    /// A ship sticks out of the 10×10 grid.
    #[error("ship {index} ({kind}) at ({x}, {y}) leaves the 10×10 grid")]
    OffGrid {
        /// Position in the fleet list.
        index: usize,
        /// Its kind.
        kind: &'static str,
        /// Column of its top-left square.
        x: u8,
        /// Row of its top-left square.
        y: u8,
    },
    /// Two ships share a square.
    #[error("ships {first} and {second} overlap")]
    Overlap {
        /// Position of the earlier ship in the fleet list.
        first: usize,
        /// Position of the later ship.
        second: usize,
    },
    /// Two ships touch, side by side or corner to corner.
    #[error("ships {first} and {second} touch (ships need a square of water between them)")]
    Touch {
        /// Position of the earlier ship in the fleet list.
        first: usize,
        /// Position of the later ship.
        second: usize,
    },
    /// The rest of a saved state is malformed (seat to move, grid string, number of players).
    #[error("{0}")]
    State(String),
}

/// Ship kinds as `carrier, warship, …`, for error messages.
struct Kinds<'a>(&'a [ShipKind]);

impl fmt::Display for Kinds<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, kind) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(kind.name())?;
        }
        Ok(())
    }
}

/// Draws placements for ships of `sizes` uniformly over legal (non-touching) configurations of
/// the grid of `table`, into `out` (same length as `sizes`). Returns the number of attempts.
///
/// Loops forever if the ships cannot fit at all; the game's fleet always fits.
pub(crate) fn sample(
    table: &Placements,
    sizes: &[usize],
    rng: &mut SeedRng,
    out: &mut [Placement],
) -> u32 {
    let mut attempts = 0;
    'attempt: loop {
        attempts += 1;
        let mut claimed: Mask = 0;
        for (slot, &size) in out.iter_mut().zip(sizes) {
            let options = table.of(size);
            let placement = options[draw(rng, options.len())];
            if placement.cells & claimed != 0 {
                continue 'attempt;
            }
            claimed |= placement.halo;
            *slot = placement;
        }
        return attempts;
    }
}

/// A uniformly random legal fleet on the game grid, in [`FLEET`] order, with each ship's mask;
/// and the number of attempts it took.
pub(crate) fn random_fleet(rng: &mut SeedRng) -> (Vec<Ship>, Vec<Mask>, u32) {
    let mut placements = [Placement::NONE; FLEET.len()];
    let attempts = sample(&GAME_PLACEMENTS, &FLEET.map(ShipKind::size), rng, &mut placements);
    let ships = FLEET
        .iter()
        .zip(&placements)
        .map(|(&kind, p)| Ship {
            kind,
            size: kind.size() as u8,
            x: p.x,
            y: p.y,
            direction: p.direction,
        })
        .collect();
    (ships, placements.iter().map(|p| p.cells).collect(), attempts)
}

/// Checks that `fleet` is the standard fleet, legally placed on the game grid; returns each
/// ship's mask.
pub(crate) fn validate(fleet: &[Ship]) -> Result<Vec<Mask>, SetupError> {
    let mut given: Vec<ShipKind> = fleet.iter().map(|ship| ship.kind).collect();
    given.sort();
    let mut expected = FLEET.to_vec();
    expected.sort();
    if given != expected {
        let found: Vec<ShipKind> = fleet.iter().map(|ship| ship.kind).collect();
        return Err(SetupError::WrongShips { found: format!("[{}]", Kinds(&found)) });
    }
    let mut masks = Vec::with_capacity(fleet.len());
    for (index, ship) in fleet.iter().enumerate() {
        let (kind, expected) = (ship.kind.name(), ship.kind.size());
        if usize::from(ship.size) != expected {
            return Err(SetupError::WrongSize { index, kind, size: ship.size, expected });
        }
        let mask = ship_mask(ship.x.into(), ship.y.into(), expected, ship.direction)
            .ok_or(SetupError::OffGrid { index, kind, x: ship.x, y: ship.y })?;
        for (first, &earlier) in masks.iter().enumerate() {
            if earlier & mask != 0 {
                return Err(SetupError::Overlap { first, second: index });
            }
            if halo(earlier) & mask != 0 {
                return Err(SetupError::Touch { first, second: index });
            }
        }
        masks.push(mask);
    }
    Ok(masks)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use botlens_engine::Stream;
    use botlens_protocol::battleships::{BOARD_SIZE, Direction};

    use super::*;
    use crate::board::{CELLS, Squares, xy};
    use crate::testing::standard_fleet;

    #[test]
    fn random_fleets_are_always_legal_and_in_fleet_order() {
        for seed in 0..5_000 {
            let mut rng = SeedRng::new(seed, Stream::Setup);
            let (ships, masks, _) = random_fleet(&mut rng);
            assert_eq!(validate(&ships), Ok(masks), "seed {seed}");
            let kinds: Vec<ShipKind> = ships.iter().map(|ship| ship.kind).collect();
            assert_eq!(kinds, FLEET);
        }
    }

    #[test]
    fn acceptance_rate_is_about_one_in_112() {
        let fleets = 50_000;
        let mut rng = SeedRng::new(11, Stream::Setup);
        let attempts: u64 = (0..fleets).map(|_| u64::from(random_fleet(&mut rng).2)).sum();
        let rate = fleets as f64 / attempts as f64;
        println!("fleet placement: {attempts} attempts for {fleets} fleets, acceptance {rate:.4}");
        // The module docs quote this figure; keep them in step.
        assert!((0.0086..0.0092).contains(&rate), "acceptance {rate}");
    }

    /// Every legal fleet of `sizes` on `table`'s grid, each as its ships' cells.
    fn enumerate_legal(table: &Placements, sizes: &[usize]) -> Vec<Vec<Mask>> {
        let fleets = crate::testing::legal_fleets(table, sizes);
        fleets.iter().map(|fleet| fleet.iter().map(|p| p.cells).collect()).collect()
    }

    /// Places ships one after another, each uniformly among the spots still free, starting
    /// over at a dead end: the common, biased method the uniformity check must tell apart.
    fn sequential(table: &Placements, sizes: &[usize], rng: &mut SeedRng) -> Vec<Mask> {
        'attempt: loop {
            let (mut claimed, mut chosen) = (0, Vec::new());
            for &size in sizes {
                let free: Vec<&Placement> =
                    table.of(size).iter().filter(|p| p.cells & claimed == 0).collect();
                if free.is_empty() {
                    continue 'attempt;
                }
                let p = free[rng.below(free.len() as u64) as usize];
                claimed |= p.halo;
                chosen.push(p.cells);
            }
            return chosen;
        }
    }

    /// Pearson's chi-square of `samples` against the uniform distribution over `support`.
    fn chi_square(support: &[Vec<Mask>], samples: &[Vec<Mask>]) -> f64 {
        let mut counts: HashMap<&Vec<Mask>, u64> = support.iter().map(|c| (c, 0)).collect();
        for sample in samples {
            *counts.get_mut(sample).expect("every sample is a legal configuration") += 1;
        }
        let expected = samples.len() as f64 / support.len() as f64;
        counts.values().map(|&n| (n as f64 - expected).powi(2) / expected).sum()
    }

    #[test]
    fn placement_is_uniform_over_legal_configurations_of_a_small_grid() {
        // 5×4 grid, ships 3, 2, 2, 1: few enough configurations to enumerate, crowded enough
        // that the sequential method is visibly biased.
        let table = Placements::new(5, 4);
        let sizes = [3, 2, 2, 1];
        let support = enumerate_legal(&table, &sizes);
        let df = (support.len() - 1) as f64;
        // Far in the upper tail of chi-square(df): a fair sampler passes with overwhelming
        // probability, and the seeds are fixed, so the outcome is reproducible.
        let limit = df + 6.0 * (2.0 * df).sqrt();
        let draws = 40 * support.len();

        let mut rng = SeedRng::new(5, Stream::Setup);
        let mut out = [Placement::NONE; 4];
        let fair: Vec<Vec<Mask>> = (0..draws)
            .map(|_| {
                sample(&table, &sizes, &mut rng, &mut out);
                out.iter().map(|p| p.cells).collect()
            })
            .collect();
        let biased: Vec<Vec<Mask>> =
            (0..draws).map(|_| sequential(&table, &sizes, &mut rng)).collect();
        let (fair, biased) = (chi_square(&support, &fair), chi_square(&support, &biased));
        println!(
            "{} configurations, df {df}, limit {limit:.0}: rejection {fair:.0}, sequential {biased:.0}",
            support.len()
        );
        assert!(fair < limit, "rejection sampling is not uniform: {fair} >= {limit}");
        assert!(biased > limit, "the check cannot tell a biased sampler: {biased} <= {limit}");
    }

    /// A map of squares `(x, y)` of the game grid.
    type Symmetry = fn(usize, usize) -> (usize, usize);

    /// The eight symmetries of the square grid.
    fn symmetries() -> [Symmetry; 8] {
        const L: usize = BOARD_SIZE - 1;
        [
            |x, y| (x, y),
            |x, y| (L - x, y),
            |x, y| (x, L - y),
            |x, y| (L - x, L - y),
            |x, y| (y, x),
            |x, y| (L - y, x),
            |x, y| (y, L - x),
            |x, y| (L - y, L - x),
        ]
    }

    #[test]
    fn square_occupancy_is_symmetric_under_the_grids_symmetries() {
        // Uniform placement is invariant under rotations and reflections of the grid, so squares
        // in one orbit must be occupied equally often. Chi-square within each orbit, pooled.
        let fleets = 20_000;
        let mut occupied = [0u64; CELLS];
        let mut horizontal_carriers = 0;
        let mut rng = SeedRng::new(99, Stream::Setup);
        for _ in 0..fleets {
            let (ships, masks, _) = random_fleet(&mut rng);
            for cell in Squares(masks.iter().fold(0, |all, m| all | m)) {
                occupied[cell as usize] += 1;
            }
            horizontal_carriers += u64::from(ships[0].direction == Direction::Horizontal);
        }
        let mut seen = [false; CELLS];
        let (mut statistic, mut df) = (0.0, 0.0);
        for cell in 0..CELLS {
            if seen[cell] {
                continue;
            }
            let (x, y) = xy(cell as u32);
            let mut orbit: Vec<usize> = symmetries()
                .iter()
                .map(|map| {
                    let (x, y) = map(x, y);
                    y * BOARD_SIZE + x
                })
                .collect();
            orbit.sort();
            orbit.dedup();
            let mean = orbit.iter().map(|&c| occupied[c] as f64).sum::<f64>() / orbit.len() as f64;
            for &c in &orbit {
                seen[c] = true;
                statistic += (occupied[c] as f64 - mean).powi(2) / mean;
            }
            df += (orbit.len() - 1) as f64;
        }
        let limit = df + 6.0 * (2.0 * df).sqrt();
        assert!(statistic < limit, "occupancy not symmetric: chi-square {statistic} >= {limit}");
        // The carrier lies horizontally half the time (transposing the grid swaps the two).
        let share = horizontal_carriers as f64 / fleets as f64;
        let tolerance = 5.0 * (0.25 / fleets as f64).sqrt();
        assert!((share - 0.5).abs() < tolerance, "horizontal carriers: {share}");
        // Edges are favoured: a ship on the rim blocks fewer squares, leaving more ways to
        // place the rest.
        assert!(occupied[0] > occupied[BOARD_SIZE + 1], "{occupied:?}");
    }

    #[test]
    fn validation_names_what_is_wrong() {
        assert!(validate(&standard_fleet()).is_ok());
        let mut fleet = standard_fleet();
        fleet.pop();
        let err = validate(&fleet).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a fleet is carrier, warship, submarine, cruiser, cruiser, patrol, patrol; \
             got [carrier, warship, submarine, cruiser, cruiser, patrol]"
        );
        let mut fleet = standard_fleet();
        fleet[2].size = 4;
        assert_eq!(
            validate(&fleet).unwrap_err().to_string(),
            "ship 2 (submarine) has size 4, but a submarine has size 3"
        );
        let mut fleet = standard_fleet();
        fleet[0].x = 6;
        assert_eq!(
            validate(&fleet).unwrap_err().to_string(),
            "ship 0 (carrier) at (6, 0) leaves the 10×10 grid"
        );
        let mut fleet = standard_fleet();
        (fleet[6].x, fleet[6].y, fleet[6].direction) = (1, 2, Direction::Vertical);
        assert_eq!(validate(&fleet), Err(SetupError::Overlap { first: 1, second: 6 }));
        let mut fleet = standard_fleet();
        (fleet[6].x, fleet[6].y) = (5, 1);
        assert_eq!(validate(&fleet), Err(SetupError::Touch { first: 0, second: 6 }));
    }
}

//! The hit-chance oracle: for every unattacked square, the probability that a ship lies there,
//! given what the shooter knows (its own shots and their answers, the fleet still afloat).
//!
//! Fleets are placed uniformly among legal fleets (`fleet`), so what the shooter knows leaves
//! every legal fleet that agrees with it equally likely: the sunk ships where their answers put
//! them, the ships afloat anywhere that covers no miss, no sunk ship and no square touching one,
//! touches no other ship, covers every hit square not yet sunk, and is not wholly hit (a ship
//! whose every square was hit is sunk). A square's chance is the share of those fleets with a
//! ship on it.
//!
//! The fleets are walked one choice at a time: while a hit is uncovered, which ship covers the
//! lowest such square and where; then each ship left, in order, where. Every fleet is one path,
//! so walking every path counts them exactly; that is done while the walk stays under
//! [`EXACT_NODES`] steps (late in a game, when little is left open). Otherwise paths are drawn,
//! each choice uniform among the legal ones, and each path weighs the product of the numbers of
//! choices it had (Knuth's estimator of a tree's size): the weighted share of paths with a ship
//! on a square estimates its chance, until the paths amount to [`EFFECTIVE_SAMPLES`] fleets.
//! The draws come from the position itself, so the same position is judged the same everywhere.
//!
//! [`HitChance`] judges a shot by the chance it gives up: the best square's chance minus the
//! shot's (a re-attack's is 0), less twice the standard error of that difference when it was
//! estimated (only what the oracle is sure of is charged), in hundredths. When estimated, the
//! best square is picked on one set of draws and weighed on another, so the pick's luck is not
//! charged to the shot. Over a game the costs
//! estimate the hits the shooter left to chance: the shots it wasted.

use botlens_engine::{Game, Judgement, Oracle, Seat, SeedRng, Stream};
use botlens_protocol::battleships::{Attack, BOARD_SIZE};

use crate::Battleships;
use crate::board::{CELLS, GAME_PLACEMENTS, MAX_SHIP, Mask, Placement, Placements};
use crate::opponents::knowledge::Knowledge;

/// The most steps an exact count walks before drawing samples instead.
pub const EXACT_NODES: u32 = 5_000;

/// The effective number of fleets an estimate is drawn until it rests on (Kish's: the squared
/// sum of the draws' weights over the sum of their squares).
pub const EFFECTIVE_SAMPLES: f64 = 300.0;

/// The most paths drawn for one estimate.
pub const MAX_SAMPLES: u32 = 2_000;

/// Paths are drawn in batches of this many between checks of the estimate.
const BATCH: u32 = 100;

/// What a shooter knows of a grid, as masks on the grid of a placement table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Known {
    /// Hit squares of ships not yet sunk.
    pub hits: Mask,
    /// Squares no ship afloat may cover: misses, sunk ships and the squares touching them.
    pub blocked: Mask,
    /// The sizes of the ships afloat, largest first.
    pub afloat: Vec<usize>,
}

impl Known {
    /// What `knowledge` (of the game grid) says.
    fn of(knowledge: &Knowledge) -> Known {
        let mut afloat = Vec::new();
        for size in (1..=MAX_SHIP).rev() {
            afloat.extend(std::iter::repeat_n(size, usize::from(knowledge.afloat[size])));
        }
        Known { hits: knowledge.hits, blocked: knowledge.water | knowledge.sunk, afloat }
    }

    /// A seed drawn from the position itself.
    fn seed(&self) -> u64 {
        let mut seed = (self.hits as u64) ^ ((self.hits >> 64) as u64).rotate_left(17);
        seed ^= ((self.blocked as u64) ^ ((self.blocked >> 64) as u64).rotate_left(29))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for &size in &self.afloat {
            seed = seed.rotate_left(5) ^ size as u64;
        }
        seed
    }

    /// Whether a ship afloat may lie at `p`, given the squares `claimed` by the ships placed
    /// so far (theirs and the squares touching them).
    fn allows(&self, p: &Placement, claimed: Mask) -> bool {
        p.cells & (self.blocked | claimed) == 0
            // Not wholly hit (it would be sunk), and no hit touching it that it does not cover
            // (that hit's ship would touch it).
            && p.cells & !self.hits != 0
            && p.halo & self.hits & !p.cells == 0
    }
}

/// The ships left to place (bits over [`Known::afloat`]) and what the placed ones claim and
/// cover.
#[derive(Debug, Clone, Copy)]
struct Walk {
    left: u32,
    claimed: Mask,
    covered: Mask,
}

impl Walk {
    /// The walk's start: every ship afloat left.
    fn start(known: &Known) -> Walk {
        Walk { left: (1 << known.afloat.len()) - 1, claimed: 0, covered: 0 }
    }

    /// Calls `choice` with each legal next choice, (index into [`Known::afloat`], placement),
    /// until it answers `false`; answers whether it went through them all.
    fn each_choice<'t>(
        &self,
        table: &'t Placements,
        known: &Known,
        mut choice: impl FnMut(usize, &'t Placement) -> bool,
    ) -> bool {
        let uncovered = known.hits & !self.covered;
        if uncovered != 0 {
            // Which ship covers the lowest hit not yet covered, and where.
            let lowest = uncovered & uncovered.wrapping_neg();
            let mut left = self.left;
            while left != 0 {
                let index = left.trailing_zeros() as usize;
                left &= left - 1;
                for p in table.of(known.afloat[index]) {
                    if p.cells & lowest != 0 && known.allows(p, self.claimed) && !choice(index, p) {
                        return false;
                    }
                }
            }
        } else if self.left != 0 {
            // Where the first ship left lies.
            let index = self.left.trailing_zeros() as usize;
            for p in table.of(known.afloat[index]) {
                if known.allows(p, self.claimed) && !choice(index, p) {
                    return false;
                }
            }
        }
        true
    }

    fn take(&self, index: usize, p: &Placement) -> Walk {
        Walk {
            left: self.left & !(1 << index),
            claimed: self.claimed | p.halo,
            covered: self.covered | p.cells,
        }
    }

    /// Whether every ship is placed and every hit covered.
    fn is_fleet(&self, known: &Known) -> bool {
        self.left == 0 && known.hits & !self.covered == 0
    }

    /// One of the legal next choices drawn uniformly, and how many there were (`None` when
    /// none).
    fn draw<'t>(
        &self,
        table: &'t Placements,
        known: &Known,
        rng: &mut SeedRng,
    ) -> Option<(usize, &'t Placement, usize)> {
        let mut choices = 0;
        self.each_choice(table, known, |_, _| {
            choices += 1;
            true
        });
        if choices == 0 {
            return None;
        }
        let mut nth = rng.index(choices);
        let mut drawn = None;
        self.each_choice(table, known, |index, p| {
            if nth == 0 {
                drawn = Some((index, p, choices));
                return false;
            }
            nth -= 1;
            true
        });
        drawn
    }
}

/// Adds `weight` to each square of `covered` and to the total.
fn tally(counts: &mut [f64], total: &mut f64, covered: Mask, weight: f64) {
    *total += weight;
    let mut rest = covered;
    while rest != 0 {
        counts[rest.trailing_zeros() as usize] += weight;
        rest &= rest - 1;
    }
}

/// Counts every fleet below `walk` into `counts`, unless that takes more than `budget` steps
/// (then `false`).
fn count(
    table: &Placements,
    known: &Known,
    walk: &Walk,
    budget: &mut u32,
    counts: &mut [f64],
    total: &mut f64,
) -> bool {
    if walk.left == 0 {
        if walk.is_fleet(known) {
            tally(counts, total, walk.covered, 1.0);
        }
        return true;
    }
    walk.each_choice(table, known, |index, p| {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        count(table, known, &walk.take(index, p), budget, counts, total)
    })
}

/// The chance that a ship covers each square of a grid, as counted or estimated.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Chances {
    /// Per square, the chance; all zero when no fleet agrees with what is known.
    pub chance: Vec<f64>,
    /// The effective number of fleets the estimate rests on (Kish's: the squared sum of the
    /// weights over the sum of their squares); `None` when counted exactly.
    pub sampled: Option<f64>,
}

impl Chances {
    /// The standard error of square `cell`'s chance: 0 when counted exactly.
    pub fn error(&self, cell: usize) -> f64 {
        let p = self.chance[cell];
        self.sampled.map_or(0.0, |n| (p * (1.0 - p) / n.max(1.0)).sqrt())
    }
}

/// The chance that a ship covers each of the `cells` squares of `table`'s grid: counted when
/// that takes at most [`EXACT_NODES`] steps, else estimated from batches of paths until they
/// amount to [`EFFECTIVE_SAMPLES`] fleets (or [`MAX_SAMPLES`] paths are drawn).
pub(crate) fn chances(table: &Placements, known: &Known, cells: usize) -> Chances {
    estimate(table, known, cells, known.seed())
}

/// [`chances`], drawing with `seed` when it must draw.
fn estimate(table: &Placements, known: &Known, cells: usize, seed: u64) -> Chances {
    let start = Walk::start(known);
    let (mut counts, mut total) = (vec![0.0; cells], 0.0);
    let mut budget = EXACT_NODES;
    let exact = count(table, known, &start, &mut budget, &mut counts, &mut total);
    let mut sampled = None;
    if !exact {
        (counts, total) = (vec![0.0; cells], 0.0);
        let mut squares = 0.0;
        let mut rng = SeedRng::new(seed, Stream::Setup);
        for drawn in 1..=MAX_SAMPLES {
            let (mut walk, mut weight) = (start, 1.0);
            while walk.left != 0 {
                let Some((index, p, choices)) = walk.draw(table, known, &mut rng) else {
                    weight = 0.0;
                    break;
                };
                weight *= choices as f64;
                walk = walk.take(index, p);
            }
            if weight > 0.0 && walk.is_fleet(known) {
                tally(&mut counts, &mut total, walk.covered, weight);
                squares += weight * weight;
            }
            let effective = if squares > 0.0 { total * total / squares } else { 0.0 };
            sampled = Some(effective);
            if drawn % BATCH == 0 && effective >= EFFECTIVE_SAMPLES {
                break;
            }
        }
    }
    if total > 0.0 {
        counts.iter_mut().for_each(|count| *count /= total);
    }
    Chances { chance: counts, sampled }
}

/// Battleships' oracle: the hit chance of every square (see the module's documentation).
#[derive(Debug, Clone, Copy, Default)]
pub struct HitChance;

/// A chance in words: `61 %`.
fn percent(chance: f64) -> String {
    format!("{:.0} %", 100.0 * chance)
}

impl Oracle<Battleships> for HitChance {
    fn unit(&self) -> &'static str {
        "shot"
    }

    fn mistake(&self) -> &'static str {
        "long shot"
    }

    fn judge(&self, before: &Battleships, seat: Seat, attack: &Attack) -> Judgement<Attack> {
        let knowledge = Knowledge::from_view(&before.view(seat));
        let known = Known::of(&knowledge);
        // Two estimates from draws of their own: one picks the best square, the other weighs
        // it against the shot, so the best is not the square whose estimate the draws happened
        // to push up (when the chances were counted, both are the count).
        let picking = chances(&GAME_PLACEMENTS, &known, CELLS);
        let weighing = match picking.sampled {
            None => picking.clone(),
            Some(_) => estimate(&GAME_PLACEMENTS, &known, CELLS, !known.seed()),
        };
        let open = |cell: usize| knowledge.attacked & (1 << cell) == 0;
        let best = (0..CELLS)
            .filter(|&cell| open(cell))
            .max_by(|&a, &b| picking.chance[a].total_cmp(&picking.chance[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        let chance = |cell: usize| if open(cell) { weighing.chance[cell] } else { 0.0 };
        let on_board = (0..BOARD_SIZE as i32).contains(&attack.x)
            && (0..BOARD_SIZE as i32).contains(&attack.y);
        let shot = attack.y as usize * BOARD_SIZE + attack.x as usize;
        let (shot_chance, shot_error) =
            if on_board && open(shot) { (chance(shot), weighing.error(shot)) } else { (0.0, 0.0) };
        let error = if shot == best && on_board {
            0.0
        } else {
            2.0 * weighing.error(best).hypot(shot_error)
        };
        // In hundredths: what is left under a percent is no mistake.
        let cost = ((chance(best) - shot_chance - error).max(0.0) * 100.0).round() / 100.0;
        Judgement {
            cost,
            best: Attack { x: (best % BOARD_SIZE) as i32, y: (best / BOARD_SIZE) as i32 },
            before: format!("the best square {} to hit", percent(chance(best))),
            after: format!("this one {}", percent(shot_chance)),
            loses: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::legal_fleets;

    /// A small grid: `width` × `height`, its placement table.
    fn grid(width: usize, height: usize) -> Placements {
        Placements::new(width, height)
    }

    /// What firing at `shots` against `fleet` tells: hits, misses and sunk ships.
    fn known_after(fleet: &[Placement], sizes: &[usize], shots: Mask) -> Known {
        let (mut hits, mut blocked, mut afloat) = (0, 0, Vec::new());
        for (ship, &size) in fleet.iter().zip(sizes) {
            if ship.cells & !shots == 0 {
                blocked |= ship.halo;
            } else {
                hits |= ship.cells & shots;
                afloat.push(size);
            }
        }
        let ships: Mask = fleet.iter().map(|p| p.cells).fold(0, |a, b| a | b);
        blocked |= shots & !ships;
        afloat.sort_unstable_by(|a, b| b.cmp(a));
        Known { hits, blocked, afloat }
    }

    /// The chances by brute force: the share of every legal fleet that agrees with what
    /// `shots` against `truth` told.
    fn brute_force(
        table: &Placements,
        sizes: &[usize],
        truth: &[Placement],
        shots: Mask,
        cells: usize,
    ) -> Vec<f64> {
        let told = known_after(truth, sizes, shots);
        let sunk_of = |fleet: &[Placement]| -> Mask {
            fleet.iter().filter(|p| p.cells & !shots == 0).map(|p| p.cells).fold(0, |a, b| a | b)
        };
        let mut counts = vec![0.0; cells];
        let mut total = 0.0;
        for fleet in legal_fleets(table, sizes) {
            // The same answers to every shot: the same misses, hits and sunk ships.
            let agrees =
                known_after(&fleet, sizes, shots) == told && sunk_of(&fleet) == sunk_of(truth);
            if agrees {
                let covered = fleet.iter().map(|p| p.cells).fold(0, |a, b| a | b);
                tally(&mut counts, &mut total, covered & !sunk_of(truth), 1.0);
            }
        }
        counts.iter().map(|c| c / total).collect()
    }

    #[test]
    fn exact_counts_equal_brute_force_on_small_grids_after_every_kind_of_answer() {
        let (table, sizes, cells) = (grid(5, 5), [3, 2, 2, 1], 25);
        let all = legal_fleets(&table, &sizes);
        assert!(all.len() > 1000, "{} fleets", all.len());
        let mut rng = SeedRng::new(3, Stream::Setup);
        let mut checked = 0;
        for _ in 0..40 {
            let truth = &all[rng.index(all.len())];
            let shots: Mask = (0..cells).filter(|_| rng.below(3) == 0).fold(0, |m, c| m | 1 << c);
            let known = known_after(truth, &sizes, shots);
            let Chances { chance: chances, sampled } = chances(&table, &known, cells);
            assert_eq!(sampled, None, "small enough to count");
            let expected = brute_force(&table, &sizes, truth, shots, cells);
            for cell in 0..cells {
                if shots & (1 << cell) == 0 {
                    assert!(
                        (chances[cell] - expected[cell]).abs() < 1e-9,
                        "cell {cell}: {} vs {}",
                        chances[cell],
                        expected[cell]
                    );
                }
            }
            checked += 1;
        }
        assert_eq!(checked, 40);
    }

    #[test]
    fn samples_come_within_a_few_percent_of_the_exact_chances() {
        // A grid too open to count under the budget, checked against a count with no budget.
        let (table, sizes, cells) = (grid(7, 7), [4, 3, 2, 2, 1], 49);
        let known = Known { hits: 1 << 24, blocked: 1 | 1 << 48, afloat: sizes.to_vec() };
        let estimate = chances(&table, &known, cells);
        let effective = estimate.sampled.expect("more than {EXACT_NODES} steps to count");
        assert!(effective >= EFFECTIVE_SAMPLES, "{effective}");
        let sampled = &estimate.chance;
        let start = Walk::start(&known);
        let (mut counts, mut total) = (vec![0.0; cells], 0.0);
        assert!(count(&table, &known, &start, &mut u32::MAX.clone(), &mut counts, &mut total));
        // Within four standard errors everywhere, and most squares within two.
        let errors: Vec<f64> = (0..cells)
            .filter(|&cell| cell != 24)
            .map(|cell| {
                (sampled[cell] - counts[cell] / total).abs() / estimate.error(cell).max(1e-3)
            })
            .collect();
        assert!(errors.iter().all(|&e| e < 4.0), "{errors:?}");
        let within = errors.iter().filter(|&&e| e < 2.0).count();
        assert!(within * 10 >= errors.len() * 8, "{within} of {} within two errors", errors.len());
        assert_eq!(chances(&table, &known, cells), estimate, "the same draws every time");
    }

    #[test]
    fn before_the_first_shot_the_chances_are_those_of_the_games_own_fleets() {
        // The game's fleets, drawn as a game draws them, against the oracle's estimate for an
        // empty grid.
        let fleets = 20_000;
        let mut rng = SeedRng::new(5, Stream::Setup);
        let mut seen = vec![0u32; CELLS];
        for _ in 0..fleets {
            let (_, masks, _) = crate::fleet::random_fleet(&mut rng);
            for (cell, seen) in seen.iter_mut().enumerate() {
                *seen += u32::from(masks.iter().any(|m| m & (1 << cell) != 0));
            }
        }
        let afloat = botlens_protocol::battleships::FLEET.iter().map(|kind| kind.size());
        let mut afloat: Vec<usize> = afloat.collect();
        afloat.sort_unstable_by(|a, b| b.cmp(a));
        let estimate = chances(&GAME_PLACEMENTS, &Known { hits: 0, blocked: 0, afloat }, CELLS);
        for (cell, &seen) in seen.iter().enumerate() {
            let truth = f64::from(seen) / f64::from(fleets);
            let error =
                estimate.error(cell).hypot((truth * (1.0 - truth) / f64::from(fleets)).sqrt());
            let off = (estimate.chance[cell] - truth).abs();
            assert!(
                off < 4.0 * error,
                "cell {cell}: {} vs {truth} (± {error})",
                estimate.chance[cell]
            );
        }
    }

    #[test]
    fn the_square_beside_a_lone_hit_is_the_best_and_a_far_one_costs_its_chance() {
        let mut game = Battleships::new(&(), 7);
        let seat = game.to_move();
        // Fire until a hit, then judge the squares next to it against one far away.
        let mut rng = SeedRng::new(1, Stream::Player(0));
        loop {
            while game.to_move() != seat {
                // The opponent fires at its first square not yet attacked.
                let other = game.to_move();
                let mut c = 0;
                while game.apply(other, &Attack { x: c % 10, y: c / 10 }).is_err() {
                    c += 1;
                }
            }
            let cell = rng.index(CELLS);
            if Knowledge::from_view(&game.view(seat)).attacked & (1 << cell) != 0 {
                continue;
            }
            let attack = Attack { x: (cell % 10) as i32, y: (cell / 10) as i32 };
            let shot = game.apply(seat, &attack).expect("an unattacked square");
            if matches!(shot, botlens_protocol::battleships::Shot::Hit) {
                let judged = HitChance.judge(&game, seat, &attack);
                let best = judged.best;
                assert_eq!(
                    (best.x - attack.x).abs() + (best.y - attack.y).abs(),
                    1,
                    "{best:?} beside {attack:?}"
                );
                let far = Attack { x: 9 - attack.x, y: 9 - attack.y };
                let far_judged = HitChance.judge(&game, seat, &far);
                assert!(far_judged.cost > 0.1, "{far_judged:?}");
                assert_eq!(HitChance.judge(&game, seat, &best).cost, 0.0);
                return;
            }
        }
    }
}

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
//! so walking every path counts them exactly. A choice is a few word operations: a table
//! holds, for every placement, the placements of each size it rules out. A few paths drawn
//! first estimate the walk's size (Knuth's estimator of a tree's size); when it is likely under
//! [`EXACT_NODES`] steps (late in a game) the fleets are counted. Otherwise paths are drawn,
//! each choice uniform among the legal ones, and each path weighs the product of the numbers of
//! choices it had: the weighted share of paths with a ship on a square estimates its chance.
//!
//! [`HitChance`] judges a shot by the chance it gives up: the best square's chance minus the
//! shot's (a re-attack's is 0), less twice the standard error of that difference when it was
//! estimated (only what the oracle is sure of is charged), in hundredths. When estimated, the
//! best square is picked on one set of draws (until they amount to [`PICKING_SAMPLES`] fleets)
//! and weighed against the shot on another (until the difference's standard error is
//! [`WEIGHING_ERROR`], or the shot is sure to be within what that leaves uncharged), so the
//! pick's luck is not charged to the shot. Over a game the costs estimate the hits the shooter
//! left to chance: the shots it wasted.
//!
//! A game's judge ([`Oracle::game_judge`]) keeps both sets of fleets from one of the shooter's
//! positions to the next and drops those the new answers rule out: a position
//! draws only what the earlier ones no longer cover. The draws are seeded by the game's first
//! position judged, so a game judged from its start is judged the same every time, and a lone
//! position ([`Oracle::judge`]) the same whenever it is judged alone.

use botlens_engine::{Game, GameJudge, Judgement, Oracle, Seat, SeedRng, Stream};
use botlens_protocol::battleships::{Attack, BOARD_SIZE};

use crate::Battleships;
use std::sync::LazyLock;

use crate::board::{CELLS, GAME_PLACEMENTS, MAX_SHIP, Mask, Placement, Placements, draw};
use crate::opponents::knowledge::Knowledge;

/// The most steps an exact count walks before drawing samples instead.
pub const EXACT_NODES: u32 = 5_000;

/// The effective number of fleets (Kish's: the squared sum of their weights over the sum of
/// their squares) the estimate that picks the best square rests on. It only picks: a square a
/// few percent short of the best is nearly as good a pick, and the shot is weighed against it
/// to [`WEIGHING_ERROR`].
pub const PICKING_SAMPLES: f64 = 100.0;

/// The standard error a shot's chance against the best square's is drawn down to.
pub const WEIGHING_ERROR: f64 = 0.04;

/// The most paths drawn for one estimate.
pub const MAX_SAMPLES: u32 = 2_000;

/// Paths drawn before deciding, from the size of the walk they suggest, whether to count.
const PROBE: u32 = 8;

/// Paths are drawn in batches of this many between checks of the estimate.
const BATCH: u32 = 32;

/// What a shooter knows of a grid, as masks on the grid of a placement table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Known {
    /// Hit squares of ships not yet sunk.
    pub hits: Mask,
    /// Squares no ship afloat may cover: misses, sunk ships and the squares touching them.
    pub blocked: Mask,
    /// The sizes of the ships afloat, largest first.
    pub afloat: Vec<usize>,
    /// Per size, the ships afloat of that size, as bits over `afloat`.
    pub ships_of_size: [u32; MAX_SHIP + 1],
    /// The squares attacked.
    pub attacked: Mask,
    /// The squares of the ships sunk.
    pub sunk: Mask,
}

impl Known {
    /// What `knowledge` (of the game grid) says.
    fn of(knowledge: &Knowledge) -> Known {
        let mut afloat = Vec::new();
        for size in (1..=MAX_SHIP).rev() {
            afloat.extend(std::iter::repeat_n(size, usize::from(knowledge.afloat[size])));
        }
        Known {
            attacked: knowledge.attacked,
            sunk: knowledge.sunk,
            ..Known::new(knowledge.hits, knowledge.water | knowledge.sunk, afloat)
        }
    }

    /// What is known from `hits`, `blocked` and the sizes `afloat` (largest first).
    fn new(hits: Mask, blocked: Mask, afloat: Vec<usize>) -> Known {
        let mut ships_of_size = [0; MAX_SHIP + 1];
        for (ship, &size) in afloat.iter().enumerate() {
            ships_of_size[size] |= 1 << ship;
        }
        Known { hits, blocked, afloat, ships_of_size, attacked: 0, sunk: 0 }
    }

    /// In how many orders the walk can place the ships afloat that are alike (it tells the
    /// ships of one size apart, so it reaches each fleet once per order).
    fn orders(&self) -> f64 {
        let factorial = |n: u32| (1..=n).product::<u32>();
        self.ships_of_size.iter().map(|ships| f64::from(factorial(ships.count_ones()))).product()
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

/// Placements of one ship size, one bit per index into [`Placements::of`] (a size has at most
/// 180 placements on a 10×10 grid).
type Set = [u64; SET_WORDS];

const SET_WORDS: usize = 3;

/// The most ships a fleet has.
const MAX_SHIPS: usize = botlens_protocol::battleships::FLEET.len();

/// The placements in both `a` and `b`.
fn both(a: &Set, b: &Set) -> Set {
    std::array::from_fn(|w| a[w] & b[w])
}

/// How many placements `set` holds.
fn size_of(set: &Set) -> u32 {
    set.iter().map(|word| word.count_ones()).sum()
}

/// The index of the `n`-th (0-based) placement of `set`, which holds more than `n`.
fn nth(set: &Set, mut n: u32) -> usize {
    for (w, &word) in set.iter().enumerate() {
        let ones = word.count_ones();
        if n < ones {
            return w * 64 + select(word, n) as usize;
        }
        n -= ones;
    }
    unreachable!("nth beyond the set")
}

/// The position of the `n`-th (0-based) set bit of `word`, which has more than `n`: the byte
/// it lies in from running byte counts (a few word operations, not a loop over the bits), then
/// the bit within that byte.
fn select(word: u64, n: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // Each byte's count of set bits, then each byte's count with all the bytes below it.
    let mut bytes = word - ((word >> 1) & 0x5555_5555_5555_5555);
    bytes = (bytes & 0x3333_3333_3333_3333) + ((bytes >> 2) & 0x3333_3333_3333_3333);
    bytes = (bytes + (bytes >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    let running = bytes.wrapping_mul(ONES);
    // Mark the bytes whose running count exceeds `n` (each count is at most 64, so setting a
    // byte's top bit and taking `n + 1` off never borrows from the next byte); the lowest
    // marked byte holds the bit.
    const TOPS: u64 = 0x8080_8080_8080_8080;
    let beyond = ((running | TOPS) - (u64::from(n) + 1) * ONES) & TOPS;
    let byte = beyond.trailing_zeros() / 8;
    let before = if byte == 0 { 0 } else { (running >> (8 * (byte - 1))) & 0xff };
    let bits = (word >> (8 * byte)) & 0xff;
    8 * byte + u32::from(SELECT_IN_BYTE[bits as usize][(u64::from(n) - before) as usize])
}

/// Per byte value, the position of its `n`-th set bit (0 where it has none).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Calls `each` with every index of `set`, lowest first, until it answers `false`; answers
/// whether it went through them all.
fn each_index(set: &Set, mut each: impl FnMut(usize) -> bool) -> bool {
    for (w, &word) in set.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            if !each(w * 64 + word.trailing_zeros() as usize) {
                return false;
            }
            word &= word - 1;
        }
    }
    true
}

/// A grid's placements with, for each, the placements of every size it rules out (their squares
/// meet its halo), and for each square the placements covering it: a walk's choices are then a
/// few word operations instead of a scan of the table.
pub(crate) struct Tables<'t> {
    placements: &'t Placements,
    /// The grid's squares.
    cells: usize,
    /// Where each size's placements start in `touching`.
    offset: [usize; MAX_SHIP + 1],
    /// Per placement (`offset[size] + index`), per size, the placements it rules out.
    touching: Vec<[Set; MAX_SHIP + 1]>,
    /// Per square, per size, the placements covering it.
    covering: Vec<[Set; MAX_SHIP + 1]>,
}

/// The game grid's tables, built on first use (about a millisecond).
static GAME_TABLES: LazyLock<Tables<'static>> =
    LazyLock::new(|| Tables::new(&GAME_PLACEMENTS, CELLS));

impl<'t> Tables<'t> {
    /// The tables of `placements`, a grid of `cells` squares.
    pub(crate) fn new(placements: &'t Placements, cells: usize) -> Tables<'t> {
        let sizes = 1..=MAX_SHIP;
        let set_of = |size: usize, keep: &dyn Fn(&Placement) -> bool| -> Set {
            let mut set = [0; SET_WORDS];
            for (index, p) in placements.of(size).iter().enumerate() {
                assert!(index < 64 * SET_WORDS, "more placements than a set holds");
                if keep(p) {
                    set[index / 64] |= 1 << (index % 64);
                }
            }
            set
        };
        let mut offset = [0; MAX_SHIP + 1];
        let mut touching = Vec::new();
        for size in sizes.clone() {
            offset[size] = touching.len();
            for p in placements.of(size) {
                touching.push(std::array::from_fn(|other| {
                    if other == 0 {
                        [0; SET_WORDS]
                    } else {
                        set_of(other, &|q| q.cells & p.halo != 0)
                    }
                }));
            }
        }
        let covering = (0..cells)
            .map(|cell| {
                std::array::from_fn(|size| {
                    if size == 0 {
                        [0; SET_WORDS]
                    } else {
                        set_of(size, &|p| p.cells >> cell & 1 == 1)
                    }
                })
            })
            .collect();
        Tables { placements, cells, offset, touching, covering }
    }
}

/// A walk down the tree of fleets: the ships left to place (bits over [`Known::afloat`]), the
/// squares the placed ones cover, and per size the placements still open to a ship afloat (not
/// ruled out by what is known or by the ships placed).
#[derive(Debug, Clone, Copy)]
struct Walk {
    left: u32,
    covered: Mask,
    open: [Set; MAX_SHIP + 1],
}

impl Walk {
    /// The walk's start: every ship afloat left, every placement `known` allows open.
    fn start(tables: &Tables, known: &Known) -> Walk {
        let open = std::array::from_fn(|size| {
            let mut set = [0; SET_WORDS];
            if size > 0 {
                for (index, p) in tables.placements.of(size).iter().enumerate() {
                    if known.allows(p, 0) {
                        set[index / 64] |= 1 << (index % 64);
                    }
                }
            }
            set
        });
        Walk { left: (1 << known.afloat.len()) - 1, covered: 0, open }
    }

    /// The lowest hit square no placed ship covers yet, as a square index.
    fn uncovered_hit(&self, known: &Known) -> Option<usize> {
        let uncovered = known.hits & !self.covered;
        (uncovered != 0).then(|| uncovered.trailing_zeros() as usize)
    }

    /// For each ship that may be placed next (index into [`Known::afloat`]), its open
    /// placements: while a hit is uncovered, every ship left, at the placements covering the
    /// lowest such square; then the first ship left, anywhere open. Every fleet is one path.
    fn each_ship(&self, tables: &Tables, known: &Known, mut each: impl FnMut(usize, Set) -> bool) {
        if let Some(cell) = self.uncovered_hit(known) {
            let mut left = self.left;
            while left != 0 {
                let ship = left.trailing_zeros() as usize;
                left &= left - 1;
                let size = known.afloat[ship];
                if !each(ship, both(&self.open[size], &tables.covering[cell][size])) {
                    return;
                }
            }
        } else if self.left != 0 {
            let ship = self.left.trailing_zeros() as usize;
            each(ship, self.open[known.afloat[ship]]);
        }
    }

    /// Places ship `ship` at its size's placement `index`; answers (size, index).
    #[inline]
    fn place(&mut self, tables: &Tables, known: &Known, ship: usize, index: usize) -> (u8, u8) {
        let size = known.afloat[ship];
        let cells = tables.placements.of(size)[index].cells;
        self.left &= !(1 << ship);
        self.covered |= cells;
        if self.left != 0 {
            // What it rules out matters only to ships still to place.
            let rules_out = tables.touching[tables.offset[size] + index].as_flattened();
            for (open, out) in self.open.as_flattened_mut().iter_mut().zip(rules_out) {
                *open &= !out;
            }
        }
        (size as u8, index as u8)
    }

    /// The walk with ship `ship` placed at its size's placement `index`.
    fn take(&self, tables: &Tables, known: &Known, ship: usize, index: usize) -> Walk {
        let mut walk = *self;
        walk.place(tables, known, ship, index);
        walk
    }

    /// Whether every ship is placed and every hit covered.
    fn is_fleet(&self, known: &Known) -> bool {
        self.left == 0 && known.hits & !self.covered == 0
    }

    /// Places the next ship at one of the legal next choices drawn uniformly; answers how many
    /// there were and the one drawn as (size, index) (`None` when there were none).
    fn draw(
        &mut self,
        tables: &Tables,
        known: &Known,
        rng: &mut SeedRng,
    ) -> Option<(u32, (u8, u8))> {
        if self.uncovered_hit(known).is_none() {
            // One ship to place: count its placements once.
            let ship = self.left.trailing_zeros() as usize;
            let set = self.open[known.afloat[ship]];
            let choices = size_of(&set);
            if choices == 0 {
                return None;
            }
            let n = draw(rng, choices as usize) as u32;
            return Some((choices, self.place(tables, known, ship, nth(&set, n))));
        }
        let mut choices = 0;
        self.each_ship(tables, known, |_, set| {
            choices += size_of(&set);
            true
        });
        if choices == 0 {
            return None;
        }
        let mut n = draw(rng, choices as usize) as u32;
        let mut drawn = None;
        self.each_ship(tables, known, |ship, set| {
            let here = size_of(&set);
            if n < here {
                drawn = Some((ship, nth(&set, n)));
                return false;
            }
            n -= here;
            true
        });
        let (ship, index) = drawn?;
        Some((choices, self.place(tables, known, ship, index)))
    }
}

/// Counts every fleet below `walk` into `counts`, unless that takes more than `budget` steps
/// (then `false`).
fn count(
    tables: &Tables,
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
    let mut whole = true;
    walk.each_ship(tables, known, |ship, set| {
        whole = each_index(&set, |index| {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            count(tables, known, &walk.take(tables, known, ship, index), budget, counts, total)
        });
        whole
    });
    whole
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

/// A fleet one path drew, with the path's weight.
#[derive(Debug, Clone, Copy)]
struct Drawn {
    /// The squares of all its ships.
    covered: Mask,
    /// The product of the numbers of choices along the path, over the number of orders the
    /// ships of equal size could have been placed in (so fleets drawn for positions with
    /// different ships afloat weigh alike).
    weight: f64,
    /// Which of the pool's positions it was drawn for (its batch).
    batch: u32,
    /// Each of its ships as (size, index into [`Placements::of`] that size); the first
    /// `ships`.
    placed: [(u8, u8); MAX_SHIPS],
    ships: u8,
}

impl Drawn {
    /// The squares of its `ship`-th ship.
    fn ship(&self, tables: &Tables, ship: usize) -> Mask {
        let (size, index) = self.placed[ship];
        tables.placements.of(usize::from(size))[usize::from(index)].cells
    }

    /// Whether the fleet, which agreed with what was known before `shots` were fired, agrees
    /// with their answers in `known`: no ship where they missed, a ship not yet wholly hit
    /// where they hit, and where they sank ships those ships exactly (then dropped from it).
    fn agrees(&mut self, tables: &Tables, known: &Known, shots: Mask, newly_sunk: Mask) -> bool {
        let misses = shots & !(known.hits | known.sunk);
        if self.covered & misses != 0 {
            return false;
        }
        let hit = shots & !misses;
        if hit == 0 {
            return true;
        }
        if self.covered & hit != hit {
            return false;
        }
        let (mut kept, mut sunk) = (0, 0);
        for ship in 0..usize::from(self.ships) {
            let cells = self.ship(tables, ship);
            if cells & hit != 0 {
                if cells & !newly_sunk == 0 {
                    // It sank: it lies where the answers say.
                    sunk |= cells;
                    continue;
                }
                if cells & !known.hits != 0 && cells & newly_sunk == 0 {
                    // Hit, and still afloat as the answers say.
                } else {
                    return false;
                }
            }
            self.placed[kept] = self.placed[ship];
            kept += 1;
        }
        if sunk != newly_sunk {
            return false;
        }
        self.ships = kept as u8;
        self.covered &= !sunk;
        true
    }
}

/// Fleets drawn for a game's positions, kept while they agree with what is known: a miss
/// leaves every fleet that has no ship there, so a later position draws only what the earlier
/// ones no longer cover.
///
/// The fleets drawn for one position are a batch. A batch drawn for an earlier position still
/// estimates a later one's chances: its
/// fleets' weights count the earlier position's fleets, of which the later position's are a
/// part, and a fleet is kept exactly when it is one of that part. A fleet that outlived many
/// shots weighs much more than a fresh one (its weight counts all the fleets the shots since
/// ruled out), so the batches are not pooled as they are: each batch's weights are scaled to
/// the number of fleets its survivors amount to (a batch most of whose fleets were dropped
/// says less), and the pool's estimate is the batches' estimates weighed by those numbers.
struct Pool {
    /// In the order drawn (so each batch's are together).
    fleets: Vec<Drawn>,
    /// Positions the pool was brought to so far: the batch drawn now.
    batch: u32,
    rng: SeedRng,
    /// The squares attacked and the ships sunk at the last position the pool was brought to.
    attacked: Mask,
    sunk: Mask,
    /// Each fleet's weight in the pool, kept up to date by [`Pool::reweigh`].
    weights: Vec<f64>,
}

impl Pool {
    /// An empty pool, drawing with `seed`.
    fn new(seed: u64) -> Pool {
        let rng = SeedRng::new(seed, Stream::Setup);
        Pool { fleets: Vec::new(), batch: 0, rng, attacked: 0, sunk: 0, weights: Vec::new() }
    }

    /// Keeps the fleets that agree with `known`; empties the pool first when `known` is not a
    /// later position of the same game (it has not attacked every square the last one had).
    fn bring_to(&mut self, tables: &Tables, known: &Known) {
        if known.attacked & self.attacked != self.attacked {
            self.fleets.clear();
            self.sunk = 0;
        }
        let (shots, newly_sunk) = (known.attacked & !self.attacked, known.sunk & !self.sunk);
        if shots != 0 {
            self.batch += 1;
            self.fleets.retain_mut(|fleet| fleet.agrees(tables, known, shots, newly_sunk));
        }
        (self.attacked, self.sunk) = (known.attacked, known.sunk);
        self.reweigh();
    }

    /// Draws `paths` more paths for `known` (which the pool was brought to) into the pool;
    /// answers the sum, over them, of Knuth's estimate of the walk's size.
    fn draw(&mut self, tables: &Tables, known: &Known, start: &Walk, paths: u32) -> f64 {
        let orders = known.orders();
        let batch = self.batch;
        let mut steps = 0.0;
        for _ in 0..paths {
            let (mut walk, mut weight) = (*start, 1.0);
            let mut fleet =
                Drawn { covered: 0, weight: 0.0, batch, placed: [(0, 0); MAX_SHIPS], ships: 0 };
            while walk.left != 0 {
                let Some((choices, placed)) = walk.draw(tables, known, &mut self.rng) else {
                    break;
                };
                weight *= f64::from(choices);
                steps += weight;
                fleet.placed[usize::from(fleet.ships)] = placed;
                fleet.ships += 1;
            }
            if walk.left == 0 && walk.is_fleet(known) {
                fleet.covered = walk.covered;
                fleet.weight = weight / orders;
                self.fleets.push(fleet);
            }
        }
        self.reweigh();
        steps
    }

    /// Sets each fleet's weight in the pool: its path's weight scaled so that its batch weighs
    /// as many fleets as it amounts to (Kish's effective number: the squared sum of the
    /// batch's weights over the sum of their squares).
    fn reweigh(&mut self) {
        self.weights.clear();
        for batch in self.fleets.chunk_by(|a, b| a.batch == b.batch) {
            let (sum, squares) = batch.iter().fold((0.0, 0.0), |(sum, squares), f| {
                (sum + f.weight, squares + f.weight * f.weight)
            });
            // Every fleet kept weighs something, so `squares` is positive.
            self.weights.extend(batch.iter().map(|f| f.weight * sum / squares));
        }
    }

    /// The effective number of fleets in the pool: the sum of its batches'.
    fn effective(&self) -> f64 {
        self.weights.iter().sum()
    }
}

/// The chance that a ship covers each of the squares of `tables`' grid: counted when that
/// likely takes at most [`EXACT_NODES`] steps, else estimated from the fleets of `pool`
/// (brought to `known`) and as many more drawn into it as it takes for them to amount to
/// `effective` fleets (or [`MAX_SAMPLES`] paths are drawn).
fn estimate(
    tables: &Tables,
    known: &Known,
    start: &Walk,
    pool: &mut Pool,
    effective: f64,
) -> Chances {
    // Knuth's estimate of the walk's size from a few paths: small enough, and it is counted.
    let steps = pool.draw(tables, known, start, PROBE);
    if steps <= f64::from(EXACT_NODES) * f64::from(PROBE) {
        let (mut exact, mut fleets) = (vec![0.0; tables.cells], 0.0);
        let mut budget = EXACT_NODES;
        if count(tables, known, start, &mut budget, &mut exact, &mut fleets) {
            return Chances { chance: shares(exact, fleets), sampled: None };
        }
    }
    let mut drawn = PROBE;
    let mut reached = pool.effective();
    while reached < effective && drawn < MAX_SAMPLES {
        pool.draw(tables, known, start, BATCH);
        drawn += BATCH;
        reached = pool.effective();
    }
    let (mut counts, mut total) = (vec![0.0; tables.cells], 0.0);
    for (fleet, &weight) in pool.fleets.iter().zip(&pool.weights) {
        tally(&mut counts, &mut total, fleet.covered, weight);
    }
    Chances { chance: shares(counts, total), sampled: Some(reached) }
}

/// `counts` over `total` (all zero when `total` is).
fn shares(mut counts: Vec<f64>, total: f64) -> Vec<f64> {
    if total > 0.0 {
        counts.iter_mut().for_each(|count| *count /= total);
    }
    counts
}

/// Two squares' chances and the difference between them, with its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Weighed {
    best: f64,
    shot: f64,
    /// `best - shot`.
    difference: f64,
    /// The standard error of `difference`: 0 when counted.
    error: f64,
}

impl Weighed {
    /// Square `best` against square `shot` (`None`: a square no ship can be on) over the
    /// fleets of `pool`. Both are read off the same fleets, so what the two squares share (a
    /// ship over both) does not add to the error.
    fn over(pool: &Pool, best: usize, shot: Option<usize>) -> Weighed {
        let on = |covered: Mask, cell: Option<usize>| {
            cell.map_or(0.0, |cell| (covered >> cell & 1) as f64)
        };
        // Sums of w, w·b, w·s, w², w²·y and w²·y² with y = b − s for each fleet.
        let (mut total, mut on_best, mut on_shot) = (0.0, 0.0, 0.0);
        let (mut squares, mut squares_y, mut squares_yy) = (0.0, 0.0, 0.0);
        for (fleet, &w) in pool.fleets.iter().zip(&pool.weights) {
            let (b, s) = (on(fleet.covered, Some(best)), on(fleet.covered, shot));
            let y = b - s;
            total += w;
            on_best += w * b;
            on_shot += w * s;
            squares += w * w;
            squares_y += w * w * y;
            squares_yy += w * w * y * y;
        }
        if total == 0.0 {
            return Weighed { best: 0.0, shot: 0.0, difference: 0.0, error: f64::INFINITY };
        }
        let difference = (on_best - on_shot) / total;
        // The delta method's variance of a self-normalized weighted mean: Σ w²(y − d)² / (Σ w)².
        let spread = squares_yy - 2.0 * difference * squares_y + difference * difference * squares;
        Weighed {
            best: on_best / total,
            shot: on_shot / total,
            difference,
            error: spread.max(0.0).sqrt() / total,
        }
    }

    /// Whether the weighing can stop: precise enough, or sure already that the shot is within
    /// what a weighing that precise leaves uncharged (it charges only beyond twice its error).
    fn is_settled(&self) -> bool {
        self.error <= WEIGHING_ERROR || self.difference + 2.0 * self.error <= 2.0 * WEIGHING_ERROR
    }
}

/// Weighs square `best` against square `shot` over the fleets of `pool` (brought to `known`)
/// and as many more drawn into it as it takes for the difference to be settled (or
/// [`MAX_SAMPLES`] paths are drawn).
fn weigh(
    tables: &Tables,
    known: &Known,
    start: &Walk,
    pool: &mut Pool,
    (best, shot): (usize, Option<usize>),
) -> Weighed {
    let mut drawn = 0;
    loop {
        let weighed = Weighed::over(pool, best, shot);
        if weighed.is_settled() || drawn >= MAX_SAMPLES {
            return weighed;
        }
        pool.draw(tables, known, start, BATCH);
        drawn += BATCH;
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
        Pools::default().judge(before, seat, attack)
    }

    fn game_judge(&self) -> Box<dyn GameJudge<Battleships> + '_> {
        Box::new(Pools::default())
    }
}

/// The oracle's square (the unattacked one likeliest to hit; ties: the first) and the chances it
/// was read off, estimated with the fleets of `picking` brought up to what is `known`.
fn pick(
    knowledge: &Knowledge,
    known: &Known,
    start: &Walk,
    picking: &mut Pool,
) -> (usize, Chances) {
    picking.bring_to(&GAME_TABLES, known);
    let chances = estimate(&GAME_TABLES, known, start, picking, PICKING_SAMPLES);
    let best = (0..CELLS)
        .filter(|&cell| knowledge.attacked & (1 << cell) == 0)
        .max_by(|&a, &b| chances.chance[a].total_cmp(&chances.chance[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    (best, chances)
}

/// What one game's judge keeps between moves: per seat, the fleets drawn to pick the best
/// square and those drawn to weigh it against the shot (two pools, so the square picked is not
/// the one whose estimate the draws happened to push up).
#[derive(Default)]
struct Pools {
    seats: [Option<(Pool, Pool)>; 2],
}

impl GameJudge<Battleships> for Pools {
    fn judge(&mut self, before: &Battleships, seat: Seat, attack: &Attack) -> Judgement<Attack> {
        let knowledge = Knowledge::from_view(&before.view(seat));
        let known = Known::of(&knowledge);
        let (picking, weighing) = self.seats[seat % 2]
            .get_or_insert_with(|| (Pool::new(known.seed()), Pool::new(!known.seed())));
        weighing.bring_to(&GAME_TABLES, &known);
        let start = Walk::start(&GAME_TABLES, &known);
        let (best, chances) = pick(&knowledge, &known, &start, picking);
        let open = |cell: usize| knowledge.attacked & (1 << cell) == 0;
        let on_board = (0..BOARD_SIZE as i32).contains(&attack.x)
            && (0..BOARD_SIZE as i32).contains(&attack.y);
        let cell = attack.y as usize * BOARD_SIZE + attack.x as usize;
        // A square attacked before, or off the grid, has no chance.
        let shot = (on_board && open(cell)).then_some(cell);
        let read = |cell: Option<usize>| cell.map_or(0.0, |cell| chances.chance[cell]);
        // Counted chances are exact, and a shot at the square picked costs nothing: then
        // nothing is weighed.
        let weighed = match chances.sampled {
            Some(_) if shot != Some(best) => {
                weigh(&GAME_TABLES, &known, &start, weighing, (best, shot))
            }
            _ => Weighed {
                best: read(Some(best)),
                shot: read(shot),
                difference: read(Some(best)) - read(shot),
                error: 0.0,
            },
        };
        // In hundredths: what is left under a percent is no mistake.
        let cost = ((weighed.difference - 2.0 * weighed.error).max(0.0) * 100.0).round() / 100.0;
        Judgement {
            cost,
            best: Attack { x: (best % BOARD_SIZE) as i32, y: (best / BOARD_SIZE) as i32 },
            before: format!("the best square {} to hit", percent(weighed.best)),
            after: format!("this one {}", percent(weighed.shot)),
            loses: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::legal_fleets;

    /// The chances as [`Oracle::judge`] picks with them, from a fresh pool.
    fn chances(tables: &Tables, known: &Known) -> Chances {
        let start = Walk::start(tables, known);
        estimate(tables, known, &start, &mut Pool::new(known.seed()), 300.0)
    }

    #[test]
    fn select_finds_every_set_bit_of_a_word_in_order() {
        let mut rng = SeedRng::new(9, Stream::Setup);
        for word in [1, u64::MAX, 1 << 63, 0x8000_0000_0000_0001]
            .into_iter()
            .chain((0..2_000).map(|_| rng.next_u64() & rng.next_u64()))
        {
            let positions: Vec<u32> = (0..64).filter(|bit| word >> bit & 1 == 1).collect();
            for (n, &position) in positions.iter().enumerate() {
                assert_eq!(select(word, n as u32), position, "{word:#x}, n = {n}");
            }
        }
    }

    /// The standard error of an estimate's chance of square `cell` (0 when counted).
    fn error(chances: &Chances, cell: usize) -> f64 {
        let p = chances.chance[cell];
        chances.sampled.map_or(0.0, |n| (p * (1.0 - p) / n.max(1.0)).sqrt())
    }

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
        let sunk = fleet.iter().filter(|p| p.cells & !shots == 0).fold(0, |m, p| m | p.cells);
        Known { attacked: shots, sunk, ..Known::new(hits, blocked, afloat) }
    }

    /// `fleet` (ships of `sizes`) as a pool would hold it, weighing 1.
    fn drawn(table: &Placements, sizes: &[usize], fleet: &[Placement]) -> Drawn {
        let mut placed = [(0, 0); MAX_SHIPS];
        for (slot, (p, &size)) in placed.iter_mut().zip(fleet.iter().zip(sizes)) {
            let index = table.of(size).iter().position(|q| q == p).expect("a placement");
            *slot = (size as u8, index as u8);
        }
        let covered = fleet.iter().fold(0, |m, p| m | p.cells);
        Drawn { covered, weight: 1.0, batch: 0, placed, ships: fleet.len() as u8 }
    }

    #[test]
    fn a_kept_fleet_agrees_with_every_answer_exactly_when_it_would_have_answered_the_same() {
        // Shot by shot, a fleet is kept while its answers to every shot so far (miss, hit or
        // sunk, and which ship) are the truth's, as a brute-force comparison says.
        let (table, sizes, cells) = (grid(5, 5), [3, 2, 2, 1], 25);
        let tables = Tables::new(&table, cells);
        let all = legal_fleets(&table, &sizes);
        let mut rng = SeedRng::new(11, Stream::Setup);
        let (mut kept, mut dropped) = (0, 0);
        for _ in 0..30 {
            let truth = &all[rng.index(all.len())];
            let mut order: Vec<usize> = (0..cells).collect();
            for i in (1..cells).rev() {
                order.swap(i, rng.index(i + 1));
            }
            // A sample of fleets followed through the whole game.
            let mut followed: Vec<(Vec<Placement>, Drawn, bool)> = (0..200)
                .map(|_| {
                    let fleet = all[rng.index(all.len())].clone();
                    let drawn = drawn(&table, &sizes, &fleet);
                    (fleet, drawn, true)
                })
                .collect();
            let (mut shots, mut before): (Mask, Known) = (0, known_after(truth, &sizes, 0));
            for &cell in &order {
                shots |= 1 << cell;
                let now = known_after(truth, &sizes, shots);
                let (fired, newly_sunk) =
                    (now.attacked & !before.attacked, now.sunk & !before.sunk);
                for (fleet, drawn, alive) in followed.iter_mut().filter(|f| f.2) {
                    let answers = known_after(fleet, &sizes, shots);
                    let same = answers.hits == now.hits
                        && answers.blocked == now.blocked
                        && answers.sunk == now.sunk
                        && answers.afloat == now.afloat;
                    *alive = drawn.agrees(&tables, &now, fired, newly_sunk);
                    assert_eq!(*alive, same, "{fleet:?} after {shots:#x}");
                    if same {
                        assert_eq!(
                            drawn.covered,
                            fleet.iter().fold(0, |m, p| m | p.cells) & !now.sunk
                        );
                    }
                    if *alive { kept += 1 } else { dropped += 1 }
                }
                before = now;
            }
        }
        assert!(kept > 1_000 && dropped > 1_000, "{kept} kept, {dropped} dropped");
    }

    #[test]
    fn a_pool_carried_through_a_game_estimates_each_position_like_a_count() {
        // A grid too open to count early on, small enough to count every position with no
        // budget; the pool is brought from each shot to the next, as in a game.
        let (table, sizes, cells) = (grid(7, 7), [4, 3, 2, 2, 1], 49);
        let tables = Tables::new(&table, cells);
        let mut rng = SeedRng::new(4, Stream::Setup);
        let everything = Known::new(0, 0, sizes.to_vec());
        let start = Walk::start(&tables, &everything);
        let (mut checked, mut carried, mut squared, mut squares, mut deviations) =
            (0, 0, 0.0, 0, 0);
        for game in 0..3 {
            // A truth drawn as the walk draws, and shots in a random order.
            let mut truth_pool = Pool::new(game);
            truth_pool.draw(&tables, &everything, &start, 1);
            let truth: Vec<Placement> = (0..sizes.len())
                .map(|ship| {
                    let (size, index) = truth_pool.fleets[0].placed[ship];
                    table.of(usize::from(size))[usize::from(index)]
                })
                .collect();
            let truth_sizes: Vec<usize> =
                truth.iter().map(|p| p.cells.count_ones() as usize).collect();
            let mut pool = Pool::new(!game);
            let mut shots = 0;
            for _ in 0..12 {
                let cell = loop {
                    let cell = rng.index(cells);
                    if shots & (1 << cell) == 0 {
                        break cell;
                    }
                };
                shots |= 1 << cell;
                let known = known_after(&truth, &truth_sizes, shots);
                pool.bring_to(&tables, &known);
                carried += usize::from(!pool.fleets.is_empty());
                let start = Walk::start(&tables, &known);
                let estimate = estimate(&tables, &known, &start, &mut pool, 300.0);
                let (mut exact, mut total) = (vec![0.0; cells], 0.0);
                assert!(count(
                    &tables,
                    &known,
                    &start,
                    &mut u32::MAX.clone(),
                    &mut exact,
                    &mut total
                ));
                let exact = shares(exact, total);
                if estimate.sampled.is_none() {
                    assert_eq!(estimate.chance, exact);
                    continue;
                }
                checked += 1;
                for cell in (0..cells).filter(|&cell| shots & (1 << cell) == 0) {
                    let z =
                        (estimate.chance[cell] - exact[cell]) / error(&estimate, cell).max(1e-3);
                    squared += z * z;
                    squares += 1;
                    deviations += usize::from(z.abs() > 4.0);
                }
            }
        }
        assert!(checked >= 10 && carried >= 10, "{checked} sampled, {carried} with fleets kept");
        // No square far off, and the errors as large as the standard errors say (their mean
        // square, in standard errors, near 1: a bias or an understated error would raise it).
        assert!(deviations <= 2, "{deviations} squares beyond four standard errors");
        let mean_square = squared / f64::from(squares);
        assert!(mean_square < 1.5, "mean squared error {mean_square} standard errors");
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
        let tables = Tables::new(&table, cells);
        let all = legal_fleets(&table, &sizes);
        assert!(all.len() > 1000, "{} fleets", all.len());
        let mut rng = SeedRng::new(3, Stream::Setup);
        let mut checked = 0;
        for _ in 0..40 {
            let truth = &all[rng.index(all.len())];
            let shots: Mask = (0..cells).filter(|_| rng.below(3) == 0).fold(0, |m, c| m | 1 << c);
            let known = known_after(truth, &sizes, shots);
            let Chances { chance: chances, sampled } = chances(&tables, &known);
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
        let known = Known::new(1 << 24, 1 | 1 << 48, sizes.to_vec());
        let tables = Tables::new(&table, cells);
        let estimate = chances(&tables, &known);
        let effective = estimate.sampled.expect("more than {EXACT_NODES} steps to count");
        assert!(effective >= PICKING_SAMPLES, "{effective}");
        let sampled = &estimate.chance;
        let start = Walk::start(&tables, &known);
        let (mut counts, mut total) = (vec![0.0; cells], 0.0);
        assert!(count(&tables, &known, &start, &mut u32::MAX.clone(), &mut counts, &mut total));
        // Within four standard errors everywhere, and most squares within two.
        let errors: Vec<f64> = (0..cells)
            .filter(|&cell| cell != 24)
            .map(|cell| {
                (sampled[cell] - counts[cell] / total).abs() / error(&estimate, cell).max(1e-3)
            })
            .collect();
        assert!(errors.iter().all(|&e| e < 4.0), "{errors:?}");
        let within = errors.iter().filter(|&&e| e < 2.0).count();
        assert!(within * 10 >= errors.len() * 8, "{within} of {} within two errors", errors.len());
        assert_eq!(chances(&tables, &known), estimate, "the same draws every time");
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
        let estimate = chances(&GAME_TABLES, &Known::new(0, 0, afloat));
        for (cell, &seen) in seen.iter().enumerate() {
            let truth = f64::from(seen) / f64::from(fleets);
            let error =
                error(&estimate, cell).hypot((truth * (1.0 - truth) / f64::from(fleets)).sqrt());
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

    #[test]
    fn a_game_is_judged_the_same_every_time_and_a_pool_starts_over_on_another_game() {
        use crate::opponents::REFERENCE_PLAYERS;
        use botlens_engine::{MatchLimits, runner::play_match};
        let play = |seed| {
            let mut a = (REFERENCE_PLAYERS[1].create)(SeedRng::new(seed, Stream::Player(0)));
            let mut b = (REFERENCE_PLAYERS[1].create)(SeedRng::new(seed, Stream::Player(1)));
            play_match::<Battleships>(&(), seed, &mut [&mut *a, &mut *b], &MatchLimits::default())
        };
        let judged = |record: &botlens_engine::MatchRecord<Battleships>| {
            let mut judge = HitChance.game_judge();
            let mut position = record.initial.clone();
            let mut judgements = Vec::new();
            for made in &record.moves {
                let action = made.action.as_ref().expect("reference players attack");
                judgements.push(judge.judge(&position, made.seat, action));
                position.apply(made.seat, action).expect("a legal attack");
            }
            judgements
        };
        let game = play(3);
        let first = judged(&game);
        assert_eq!(first, judged(&game), "the same game, judged again");
        assert!(first.iter().any(|j| j.cost > 0.0), "the hunter misses chances");
        // A pool brought to a position of another game (fewer squares attacked) empties.
        let other = play(4);
        let known = |record: &botlens_engine::MatchRecord<Battleships>, moves| {
            Known::of(&Knowledge::from_view(&record.state_after(moves).view(0)))
        };
        let mut pool = Pool::new(1);
        let late = known(&game, 30);
        pool.bring_to(&GAME_TABLES, &late);
        pool.draw(&GAME_TABLES, &late, &Walk::start(&GAME_TABLES, &late), BATCH);
        assert!(!pool.fleets.is_empty());
        pool.bring_to(&GAME_TABLES, &known(&other, 4));
        assert!(pool.fleets.is_empty(), "fleets of another game were kept");
    }

    /// Shoots the oracle's square every turn, as [`pick`] finds it with a pool kept all game.
    struct OracleShooter {
        knowledge: Option<Knowledge>,
        picking: Option<Pool>,
    }

    impl botlens_engine::Player<Battleships> for OracleShooter {
        fn play(
            &mut self,
            turn: &mut botlens_engine::Turn<Battleships>,
        ) -> Result<(), botlens_engine::Failure> {
            let knowledge =
                self.knowledge.get_or_insert_with(|| Knowledge::from_view(&turn.view()));
            let known = Known::of(knowledge);
            let picking = self.picking.get_or_insert_with(|| Pool::new(known.seed()));
            let start = Walk::start(&GAME_TABLES, &known);
            let (best, _) = pick(knowledge, &known, &start, picking);
            let attack = Attack { x: (best % BOARD_SIZE) as i32, y: (best / BOARD_SIZE) as i32 };
            let shot = turn.act(attack)?;
            knowledge.record(best as u32, &shot);
            Ok(())
        }
    }

    #[test]
    fn shooting_the_oracles_square_sinks_a_fleet_in_no_more_shots_than_density() {
        use crate::opponents::REFERENCE_PLAYERS;
        use crate::testing::Idle;
        use botlens_engine::{MatchLimits, Player, runner::play_match};
        const GAMES: u64 = 2_000;
        let density = REFERENCE_PLAYERS.iter().find(|r| r.name == "density").unwrap();
        // Against a player that never sinks anything, a game's length is the shots a player
        // needs to sink a whole fleet; both players face the same fleets (the same seeds).
        let shots = |player: &mut dyn Player<Battleships>, seed| {
            let record = play_match::<Battleships>(
                &(),
                seed,
                &mut [player, &mut Idle],
                &MatchLimits::default(),
            );
            assert_eq!(record.outcome.winner, Some(0), "seed {seed}");
            f64::from(record.last.shots_fired(0))
        };
        let (mut theirs, mut ours) = (Vec::new(), Vec::new());
        for seed in 0..GAMES {
            let mut them = (density.create)(SeedRng::new(seed, Stream::Player(0)));
            theirs.push(shots(them.as_mut(), seed));
            ours.push(shots(&mut OracleShooter { knowledge: None, picking: None }, seed));
        }
        let median = |shots: &[f64]| {
            let mut sorted = shots.to_vec();
            sorted.sort_by(f64::total_cmp);
            sorted[sorted.len() / 2]
        };
        let n = GAMES as f64;
        let gains: Vec<f64> = theirs.iter().zip(&ours).map(|(d, o)| d - o).collect();
        let gain = gains.iter().sum::<f64>() / n;
        let spread = gains.iter().map(|g| (g - gain).powi(2)).sum::<f64>() / (n - 1.0);
        let error = (spread / n).sqrt();
        println!(
            "density: median {} shots, mean {:.2}; the oracle's square: median {}, mean {:.2}; \
             it saves {gain:.2} ± {error:.2} shots a fleet",
            median(&theirs),
            theirs.iter().sum::<f64>() / n,
            median(&ours),
            ours.iter().sum::<f64>() / n,
        );
        // The chances are the exact posterior's; density's per-ship counts only approximate it.
        assert!(
            gain > -2.0 * error,
            "the oracle's square is worse than density's: {gain:.2} ± {error:.2}"
        );
        assert!(
            median(&ours) <= median(&theirs),
            "medians {} and {}",
            median(&ours),
            median(&theirs)
        );
    }
}

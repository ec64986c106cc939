//! A strong Battleships bot: shoot where the most placements of the ships still afloat fit.
//!
//! Every turn the bot reads the enemy grid from the view and counts, for each ship afloat, every
//! placement consistent with it: no miss, no sunk square and no square touching a sunk ship
//! under it (ships never touch, not even diagonally), and no outstanding hit right beside it
//! unless covered by it (that would be another ship touching it). While a ship is wounded only
//! placements through its hits count, so the bot finishes what it started. It fires at the
//! square covered by the most placements, ties broken by the seeded [`Rng`].
//!
//! The bot keeps no state between turns: everything comes from the view, so a replay from any
//! turn behaves the same.

use botlens_sdk::battleships::{BOARD_SIZE, Shot, Target};
use botlens_sdk::{Battleships, Bot, Rng, Start, Turn, export, log};

const N: usize = BOARD_SIZE;

/// The enemy grid as the bot knows it, square by square (`y * 10 + x`).
struct Grid {
    targets: [Target; N * N],
    /// Whether a ship may lie on each square: not shot at, and not touching a sunk ship.
    open: [bool; N * N],
}

impl Grid {
    fn new(targets: [Target; N * N]) -> Grid {
        let at = |x: usize, y: usize| targets[y * N + x];
        let open = std::array::from_fn(|i| {
            let (x, y) = (i % N, i / N);
            match at(x, y) {
                Target::Unknown | Target::Hit => {
                    !neighbours(x, y).any(|(nx, ny)| at(nx, ny) == Target::Sunk)
                }
                Target::Miss | Target::Sunk | Target::OffBoard => false,
            }
        });
        Grid { targets, open }
    }

    fn at(&self, x: usize, y: usize) -> Target {
        self.targets[y * N + x]
    }

    fn open(&self, x: usize, y: usize) -> bool {
        self.open[y * N + x]
    }
}

/// The up to eight squares around `(x, y)`.
fn neighbours(x: usize, y: usize) -> impl Iterator<Item = (usize, usize)> {
    (-1i32..=1)
        .flat_map(move |dy| (-1i32..=1).map(move |dx| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .map(move |(dx, dy)| (x as i32 + dx, y as i32 + dy))
        .filter(|&(nx, ny)| (0..N as i32).contains(&nx) && (0..N as i32).contains(&ny))
        .map(|(nx, ny)| (nx as usize, ny as usize))
}

/// A ship of `size` squares with its top-left square at `(x, y)`.
#[derive(Clone, Copy)]
struct Placement {
    x: usize,
    y: usize,
    size: usize,
    horizontal: bool,
}

impl Placement {
    /// The placement, if the ship fits the grid there.
    fn fitting(x: usize, y: usize, size: usize, horizontal: bool) -> Option<Placement> {
        let (w, h) = if horizontal { (size, 1) } else { (1, size) };
        (x + w <= N && y + h <= N).then_some(Placement { x, y, size, horizontal })
    }

    /// The squares the ship covers.
    fn cells(self) -> impl Iterator<Item = (usize, usize)> {
        (0..self.size)
            .map(move |i| if self.horizontal { (self.x + i, self.y) } else { (self.x, self.y + i) })
    }

    /// Whether the ship covers the square `(x, y)`.
    fn covers(self, (x, y): (usize, usize)) -> bool {
        self.cells().any(|cell| cell == (x, y))
    }
}

/// How many consistent placements cover each square.
fn density(grid: &Grid, afloat: &[usize]) -> [u32; N * N] {
    let wounded = grid.targets.contains(&Target::Hit);
    let mut scores = [0; N * N];
    for &size in afloat {
        // A ship of one square is the same placement either way round: count it once.
        let orientations: &[bool] = if size == 1 { &[true] } else { &[true, false] };
        for &horizontal in orientations {
            for y in 0..N {
                for x in 0..N {
                    let Some(ship) = Placement::fitting(x, y, size, horizontal) else { continue };
                    if !ship.cells().all(|(cx, cy)| grid.open(cx, cy)) {
                        continue;
                    }
                    let covers_hit = ship.cells().any(|(cx, cy)| grid.at(cx, cy) == Target::Hit);
                    let hit_beside = wounded
                        && ship.cells().any(|(cx, cy)| {
                            neighbours(cx, cy)
                                .any(|n| grid.at(n.0, n.1) == Target::Hit && !ship.covers(n))
                        });
                    if hit_beside || (wounded && !covers_hit) {
                        continue;
                    }
                    for (cx, cy) in ship.cells() {
                        if grid.at(cx, cy) == Target::Unknown {
                            scores[cy * N + cx] += 1;
                        }
                    }
                }
            }
        }
    }
    scores
}

/// The density bot.
pub struct Hunter {
    rng: Rng,
}

impl Bot for Hunter {
    type Game = Battleships;

    fn new(start: Start) -> Self {
        Hunter { rng: start.rng() }
    }

    fn play(&mut self, turn: &mut Turn<Battleships>) {
        let view = turn.view();
        let grid = Grid::new(std::array::from_fn(|i| view.target(i % N, i / N)));
        let afloat: Vec<usize> = view.enemy_ships_left.iter().map(|kind| kind.size()).collect();
        let scores = density(&grid, &afloat);
        let best = scores.iter().copied().max().unwrap_or(0);
        let candidates: Vec<usize> = if best > 0 {
            (0..N * N).filter(|&i| scores[i] == best).collect()
        } else {
            // Nothing consistent is left (it cannot happen with honest answers): any unknown square.
            (0..N * N).filter(|&i| grid.targets[i] == Target::Unknown).collect()
        };
        let square =
            *self.rng.choose(&candidates).expect("a ship is afloat, so a square is unknown");
        let (x, y) = (square % N, square / N);
        if let Shot::Sunk { ship } = turn.attack(x as i32, y as i32) {
            log!("sank the {} at {x},{y}", ship.kind.name());
        }
    }
}

export!(Hunter);

//! A density Battleships bot that draws its probability map every turn, with one bug the map
//! shows (deliberate: a botlens sample).
//!
//! Every turn it counts, for each ship afloat, the placements that fit what it knows (no miss,
//! no sunk square and nothing touching a sunk ship under it; while a ship is wounded, only
//! placements through a hit), and fires at the square most placements cover. It draws the counts
//! as a heat map, labels its three best squares with their counts, marks its shot, points an
//! arrow from the hit it is finishing, and states its plan in the status line.
//!
//! The bug: a vertical placement's squares are written `(y + i, x)` where they should be
//! `(x, y + i)` (`src/lib.rs:52`), so every "vertical" ship is a horizontal one at the mirrored
//! place and no vertical placement is ever counted. Hunting still works (horizontal placements
//! cover the board), but once it hits a vertical ship it only looks left and right of the hit;
//! when both sides are misses, no placement through the hit is left, the map is cold everywhere
//! while a ship is afloat, and the bot's `expect` fails: a `panic` at `src/lib.rs:119`. In the
//! replay, the map never shows a vertical streak: around a hit, the squares above and below stay
//! cold.

use botlens_sdk::battleships::{BOARD_SIZE, Target};
use botlens_sdk::draw::{self, Colour};
use botlens_sdk::{Battleships, Bot, Rng, Start, Turn, export};

const N: usize = BOARD_SIZE;

/// The enemy grid as the bot knows it, square by square (`y * 10 + x`).
struct Grid {
    targets: [Target; N * N],
}

impl Grid {
    fn at(&self, x: usize, y: usize) -> Target {
        self.targets[y * N + x]
    }

    /// Whether a ship may lie on `(x, y)`: not a miss or a sunk ship, and not beside a sunk one
    /// (ships never touch, not even diagonally).
    fn open(&self, x: usize, y: usize) -> bool {
        let beside_sunk = (x.saturating_sub(1)..=(x + 1).min(N - 1))
            .flat_map(|nx| (y.saturating_sub(1)..=(y + 1).min(N - 1)).map(move |ny| (nx, ny)))
            .any(|(nx, ny)| self.at(nx, ny) == Target::Sunk);
        matches!(self.at(x, y), Target::Unknown | Target::Hit) && !beside_sunk
    }

    fn hits(&self) -> Vec<(usize, usize)> {
        (0..N * N).filter(|&i| self.targets[i] == Target::Hit).map(|i| (i % N, i / N)).collect()
    }
}

/// The squares a ship of `size` covers from `(x, y)`, if it fits the grid there.
fn placement(x: usize, y: usize, size: usize, horizontal: bool) -> Option<Vec<(usize, usize)>> {
    let cells: Vec<(usize, usize)> =
        (0..size).map(|i| if horizontal { (x + i, y) } else { (y + i, x) }).collect();
    cells.iter().all(|&(cx, cy)| cx < N && cy < N).then_some(cells)
}

/// How many placements of the ships afloat cover each square the bot knows nothing about.
fn density(grid: &Grid, afloat: &[usize]) -> [u32; N * N] {
    let wounded = !grid.hits().is_empty();
    let mut counts = [0; N * N];
    for &size in afloat {
        let orientations: &[bool] = if size == 1 { &[true] } else { &[true, false] };
        for &horizontal in orientations {
            for y in 0..N {
                for x in 0..N {
                    let Some(cells) = placement(x, y, size, horizontal) else { continue };
                    if !cells.iter().all(|&(cx, cy)| grid.open(cx, cy)) {
                        continue;
                    }
                    let through_hit = cells.iter().any(|&(cx, cy)| grid.at(cx, cy) == Target::Hit);
                    if wounded && !through_hit {
                        continue;
                    }
                    for &(cx, cy) in &cells {
                        if grid.at(cx, cy) == Target::Unknown {
                            counts[cy * N + cx] += 1;
                        }
                    }
                }
            }
        }
    }
    counts
}

/// The density bot that draws its map.
pub struct Heatmap {
    rng: Rng,
}

impl Bot for Heatmap {
    type Game = Battleships;

    fn new(start: Start) -> Self {
        Heatmap { rng: start.rng() }
    }

    fn play(&mut self, turn: &mut Turn<Battleships>) {
        let view = turn.view();
        let grid = Grid { targets: std::array::from_fn(|i| view.target(i % N, i / N)) };
        let afloat: Vec<usize> = view.enemy_ships_left.iter().map(|kind| kind.size()).collect();
        let counts = density(&grid, &afloat);

        let map: Vec<f32> = counts.iter().map(|&count| count as f32).collect();
        draw::heat(N as u32, &map);
        let mut ranked: Vec<usize> = (0..N * N).filter(|&i| counts[i] > 0).collect();
        ranked.sort_by_key(|&i| std::cmp::Reverse(counts[i]));
        for &i in ranked.iter().take(3) {
            draw::label((i % N) as i32, (i / N) as i32, &counts[i].to_string(), Colour::WHITE);
        }
        let best = counts.iter().copied().max().unwrap_or(0);
        let hits = grid.hits();
        let mode = if hits.is_empty() { "hunting" } else { "finishing a ship" };
        draw::status(&format!("{mode}: at most {best} placements cover a square"));

        let candidates: Vec<usize> =
            (0..N * N).filter(|&i| best > 0 && counts[i] == best).collect();
        let chosen = self.rng.choose(&candidates);
        // botlens reports the panic on the next line
        let square = *chosen.expect("some placement fits while a ship is afloat");
        let (x, y) = (square % N, square / N);
        draw::cell(x as i32, y as i32, Colour::RED);
        if let Some(&(hx, hy)) = hits.first() {
            draw::arrow((hx as i32, hy as i32), (x as i32, y as i32), Colour::YELLOW);
        }
        turn.attack(x as i32, y as i32);
    }
}

export!(Heatmap);

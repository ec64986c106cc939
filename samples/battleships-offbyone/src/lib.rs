//! A hunt-and-target Battleships bot with an off-by-one bug (deliberate: a botlens sample).
//!
//! It hunts at random among the squares a ship may still be on. Once a ship is hit it shoots
//! around the hit; once two hits line up it extends the line at its ends, at an end where
//! nothing is known yet. The bounds check of the right-hand end is off by one (`hi < N` instead
//! of `hi + 1 < N`), and nothing is known off the grid either (the view says `OffBoard` there;
//! the bot only asks whether it saw a miss or a hit), so when a horizontal ship still afloat
//! reaches the right edge the bot fires at column 10: an illegal move that loses the game. That takes a wounded horizontal ship against the right edge, hit from the middle
//! outwards, so only some seeds show it.

use botlens_sdk::battleships::{BOARD_SIZE, BattleshipsView, Target};
use botlens_sdk::{Battleships, Bot, Rng, Start, Turn, export, log};

const N: usize = BOARD_SIZE;

/// Whether a ship may be on `(x, y)`: nothing is known to be there (no miss, no hit) and no
/// sunk ship is beside it.
fn open(view: &BattleshipsView, x: usize, y: usize) -> bool {
    let beside_sunk = (x.saturating_sub(1)..=x + 1)
        .flat_map(|nx| (y.saturating_sub(1)..=y + 1).map(move |ny| (nx, ny)))
        .any(|(nx, ny)| view.target(nx, ny) == Target::Sunk);
    let known = matches!(view.target(x, y), Target::Miss | Target::Hit | Target::Sunk);
    !known && !beside_sunk
}

/// Where to shoot to finish the ship hit at `(x, y)`: an end of the line of hits through it,
/// or, for a lone hit, a free square beside it.
fn follow_up(view: &BattleshipsView, x: usize, y: usize) -> Option<(usize, usize)> {
    let hit = |x: usize, y: usize| view.target(x, y) == Target::Hit;
    let horizontal = (x > 0 && hit(x - 1, y)) || hit(x + 1, y);
    let vertical = (y > 0 && hit(x, y - 1)) || hit(x, y + 1);
    if horizontal {
        let (mut lo, mut hi) = (x, x);
        while lo > 0 && hit(lo - 1, y) {
            lo -= 1;
        }
        while hi + 1 < N && hit(hi + 1, y) {
            hi += 1;
        }
        if hi < N && open(view, hi + 1, y) {
            return Some((hi + 1, y));
        }
        return (lo > 0 && open(view, lo - 1, y)).then(|| (lo - 1, y));
    }
    if vertical {
        let (mut lo, mut hi) = (y, y);
        while lo > 0 && hit(x, lo - 1) {
            lo -= 1;
        }
        while hi + 1 < N && hit(x, hi + 1) {
            hi += 1;
        }
        if hi + 1 < N && open(view, x, hi + 1) {
            return Some((x, hi + 1));
        }
        return (lo > 0 && open(view, x, lo - 1)).then(|| (x, lo - 1));
    }
    let around = [(x + 1, y), (x.wrapping_sub(1), y), (x, y + 1), (x, y.wrapping_sub(1))];
    around.into_iter().find(|&(nx, ny)| nx < N && ny < N && open(view, nx, ny))
}

/// The hunt-and-target bot.
pub struct OffByOne {
    rng: Rng,
}

impl Bot for OffByOne {
    type Game = Battleships;

    fn new(start: Start) -> Self {
        OffByOne { rng: start.rng() }
    }

    fn play(&mut self, turn: &mut Turn<Battleships>) {
        let view = turn.view();
        let squares = (0..N * N).map(|i| (i % N, i / N));
        let hits: Vec<(usize, usize)> =
            squares.clone().filter(|&(x, y)| view.target(x, y) == Target::Hit).collect();
        let target = hits.iter().find_map(|&(x, y)| follow_up(view, x, y));
        let (x, y) = target.unwrap_or_else(|| {
            let open: Vec<(usize, usize)> = squares.filter(|&(x, y)| open(view, x, y)).collect();
            *self.rng.choose(&open).expect("a ship is afloat, so a square is open")
        });
        // botlens reports the illegal_move on the next line
        let shot = turn.attack(x as i32, y as i32);
        log!("{x},{y}: {shot:?}");
    }
}

export!(OffByOne);

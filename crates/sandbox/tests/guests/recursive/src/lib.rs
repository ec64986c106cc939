//! Recurses through two functions without end on its first turn (`region_size` → `neighbours`
//! → `region_size` …): the sandbox must report a stack overflow at the call that closes the
//! cycle, name the cycle, and keep the frames outside it.

use std::hint::black_box;

use botlens_sdk::{Bot, Start, TicTacToe, Turn, export};

struct Recursive;

impl Bot for Recursive {
    type Game = TicTacToe;

    fn new(_start: Start) -> Self {
        Recursive
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        let size = region_size(black_box(0)); // ENTER
        turn.mark((size % 3) as i32, 0);
    }
}

#[inline(never)]
fn region_size(cell: u64) -> u64 {
    if black_box(cell) == u64::MAX {
        return 0;
    }
    1 + neighbours(cell + 1) // TO_NEIGHBOURS
}

#[inline(never)]
fn neighbours(cell: u64) -> u64 {
    let mut seen = [0u64; 4];
    seen[(cell % 4) as usize] = cell;
    black_box(&mut seen);
    seen[0] + region_size(cell) // BACK_TO_REGION_SIZE
}

export!(Recursive);

//! Burns most of its fuel in `hot` (the loop on the line marked HOT), a tenth as much in `cold`:
//! the fuel profile tests' known answer.

use botlens_sdk::{Bot, Start, TicTacToe, Turn, export};

struct Burner;

/// A sum of squares, `n` rounds on one line.
#[inline(never)]
#[rustfmt::skip]
fn hot(n: u64) -> u64 {
    let mut sum: u64 = 0;
    for i in 0..n { sum = std::hint::black_box(sum.wrapping_add(i.wrapping_mul(i))); } // HOT
    sum
}

/// Work like `hot`'s (not the same, or the linker would fold the two), for a tenth of the rounds.
#[inline(never)]
#[rustfmt::skip]
fn cold(n: u64) -> u64 {
    let mut sum: u64 = 0;
    for i in 0..n { sum = std::hint::black_box(sum ^ i.wrapping_mul(3)); } // COLD
    sum
}

impl Bot for Burner {
    type Game = TicTacToe;

    fn new(_start: Start) -> Self {
        Burner
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        std::hint::black_box(hot(std::hint::black_box(200_000)) ^ cold(std::hint::black_box(20_000)));
        let i = (0..9).find(|&i| turn.view().at(i % 3, i / 3).is_none()).expect("a free square");
        turn.mark(i as i32 % 3, i as i32 / 3);
    }
}

export!(Burner);

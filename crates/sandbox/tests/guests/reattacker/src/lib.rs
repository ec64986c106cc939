//! Sweeps the board square by square, but every fourth turn `again` fires at the last square
//! once more (the line marked AGAIN): a legal, wasted move the wasted-move tests locate.

use botlens_sdk::{Battleships, Bot, Start, Turn, export};

struct Reattacker {
    next: i32,
    turns: u32,
}

impl Reattacker {
    /// Fires at the square fired at last, which is never news.
    #[inline(never)]
    fn again(&mut self, turn: &mut Turn<Battleships>) {
        let last = self.next - 1;
        turn.attack(last % 10, last / 10); // AGAIN
    }
}

impl Bot for Reattacker {
    type Game = Battleships;

    fn new(_start: Start) -> Self {
        Reattacker { next: 0, turns: 0 }
    }

    fn play(&mut self, turn: &mut Turn<Battleships>) {
        self.turns += 1;
        if self.turns % 4 == 0 && self.next > 0 {
            self.again(turn);
            return;
        }
        let square = self.next;
        self.next += 1;
        turn.attack(square % 10, square / 10);
    }
}

export!(Reattacker);

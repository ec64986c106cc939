//! Keeps a growing hoard in a field: every turn `hoard` adds a 256 KiB buffer (the line marked
//! HOARD), and `note` a small string: the memory growth tests' known answer.

use botlens_sdk::{Bot, Start, TicTacToe, Turn, export};

struct Hoarder {
    hoard: Vec<Vec<u8>>,
    notes: Vec<String>,
}

impl Hoarder {
    /// Keeps one more big buffer, touched so it is really there.
    #[inline(never)]
    fn hoard(&mut self) {
        self.hoard.push(std::hint::black_box(vec![1u8; 256 * 1024])); // HOARD
    }

    /// Keeps one more small note.
    #[inline(never)]
    fn note(&mut self, turn: usize) {
        self.notes.push(std::hint::black_box(format!("turn {turn}")));
    }
}

impl Bot for Hoarder {
    type Game = TicTacToe;

    fn new(_start: Start) -> Self {
        Hoarder { hoard: Vec::new(), notes: Vec::new() }
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        self.hoard();
        self.note(self.hoard.len());
        let i = (0..9).find(|&i| turn.view().at(i % 3, i / 3).is_none()).expect("a free square");
        turn.mark(i as i32 % 3, i as i32 / 3);
    }
}

export!(Hoarder);

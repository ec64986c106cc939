//! A legal Tic-tac-toe bot that prints to stdout and stderr, logs (a line without arguments,
//! and one whose value logs while it is formatted), reads the clocks and marks a random free
//! square with its seeded rng: for the determinism, WASI and output-capture tests.

use std::time::{Duration, Instant, SystemTime};

use botlens_sdk::{Bot, Rng, Start, TicTacToe, Turn, export, log};

struct Chatty {
    rng: Rng,
    turns: u32,
}

impl Bot for Chatty {
    type Game = TicTacToe;

    fn new(start: Start) -> Self {
        let mut rng = start.rng();
        // Raw WASI randomness, for the tests to compare across seeds.
        println!("seed bytes {:016x}", rng.next_u64());
        let since_epoch =
            SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).expect("after 1970");
        println!("unix time {}", since_epoch.as_secs());
        Chatty { rng, turns: 0 }
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        self.turns += 1;
        // Think for 20 µs of (fuel) time: terminates, identically on every run.
        let thinking = Instant::now();
        let mut rounds = 0u32;
        while thinking.elapsed() < Duration::from_micros(20) {
            rounds += 1;
        }
        log!("thought for {rounds} rounds");
        let view = turn.view();
        println!("turn {} as {:?} on {}", self.turns, view.you, view.board);
        eprint!("no newline yet");
        let free: Vec<i32> =
            (0..9).filter(|&i| view.at(i % 3, i / 3).is_none()).map(|i| i as i32).collect();
        let pick = free[self.rng.index(free.len())];
        let after = turn.mark(pick % 3, pick / 3);
        log!("marked {pick}, board now {}", after.board);
        log!("a line around {}", Noisy);
        log!("a line without arguments");
    }
}

/// A value that logs a line of its own while it is being formatted into another one.
struct Noisy;

impl std::fmt::Display for Noisy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        log!("formatting {}", 1 + 1);
        f.write_str("a noisy value")
    }
}

export!(Chatty);

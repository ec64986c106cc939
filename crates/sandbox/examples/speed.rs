//! How many Battleships games per second a WebAssembly bot plays, next to the same strategy as a
//! native player. A measurement, not a test:
//!
//! ```text
//! cargo run --release -p botlens-sandbox --example speed [games] [bot.wasm]
//! ```
//!
//! The wasm bot is the `bs_random` test guest (random unknown squares, like the reference
//! `random` player), built here for `wasm32-wasip1`, or any Battleships bot given by path. Each game makes a fresh player, so a fresh
//! store and instance, as the harness does.

use std::time::{Duration, Instant};

use botlens_battleships::Battleships;
use botlens_engine::runner::{self, Limits as TurnCap};
use botlens_engine::{Game, MatchRecord, Player, SeedRng, Stream};
use botlens_sandbox::{Limits, Sandbox, SandboxConfig};

#[path = "../tests/all/guests.rs"]
mod guests;

fn native_random(seed: u64, seat: usize) -> Box<dyn Player<Battleships>> {
    let random =
        Battleships::reference_players().iter().find(|p| p.name == "random").expect("random");
    (random.create)(SeedRng::new(seed, Stream::Player(seat)))
}

/// What a batch of games took.
struct Timing {
    elapsed: Duration,
    turns: usize,
    wasm_turns: usize,
    fuel: u64,
}

/// Plays `games` games made by `game` and returns the time taken, the turns and the fuel.
fn time(games: u64, mut game: impl FnMut(u64) -> MatchRecord<Battleships>) -> Timing {
    let start = Instant::now();
    let mut timing = Timing { elapsed: Duration::ZERO, turns: 0, wasm_turns: 0, fuel: 0 };
    for seed in 0..games {
        let record = game(seed);
        timing.turns += record.moves.len();
        for fuel in record.moves.iter().filter_map(|m| m.cost.fuel) {
            timing.wasm_turns += 1;
            timing.fuel += fuel;
        }
    }
    timing.elapsed = start.elapsed();
    timing
}

fn report(label: &str, games: u64, timing: &Timing) {
    let per_second = games as f64 / timing.elapsed.as_secs_f64();
    let per_game = timing.elapsed.as_micros() as f64 / games as f64;
    let turns = timing.turns as f64 / games as f64;
    let fuel = match timing.wasm_turns {
        0 => String::new(),
        n => format!("  {:>7.0} fuel/wasm turn", timing.fuel as f64 / n as f64),
    };
    println!(
        "{label:<28} {per_second:>7.0} games/s  {per_game:>7.1} µs/game  {turns:>5.1} turns/game{fuel}"
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let games: u64 = std::env::args().nth(1).map(|n| n.parse()).transpose()?.unwrap_or(2000);
    let target_dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tmp/sandbox-guests");
    let wasm = match std::env::args().nth(2) {
        Some(path) => path.into(),
        None => guests::build("bs_random", &target_dir)?,
    };
    let sandbox = Sandbox::new(SandboxConfig::default())?;
    let bot = sandbox.load_file(&wasm)?;
    let limits = Limits::default();
    let cap = TurnCap::default();

    let native = time(games, |seed| {
        let (mut a, mut b) = (native_random(seed, 0), native_random(seed, 1));
        runner::play_match::<Battleships>(&(), seed, &mut [a.as_mut(), b.as_mut()], &cap)
    });
    let wasm_vs_native = time(games, |seed| {
        let mut a = bot.player::<Battleships>(seed, 0, &limits);
        let mut b = native_random(seed, 1);
        runner::play_match::<Battleships>(&(), seed, &mut [&mut a, b.as_mut()], &cap)
    });
    let wasm_vs_wasm = time(games, |seed| {
        let mut a = bot.player::<Battleships>(seed, 0, &limits);
        let mut b = bot.player::<Battleships>(seed, 1, &limits);
        runner::play_match::<Battleships>(&(), seed, &mut [&mut a, &mut b], &cap)
    });

    println!("{games} Battleships games per line, one thread:");
    report("native random vs random", games, &native);
    report("wasm random vs native", games, &wasm_vs_native);
    report("wasm random vs wasm random", games, &wasm_vs_wasm);
    Ok(())
}

//! Wall time per unit of fuel of every instruction class: each class runs in an endless loop
//! (`tests/all/instruction_loops.rs`) as a Tic-tac-toe bot's first turn, once with F and once with
//! 2F fuel, and the difference of the two turns' times over F is its nanoseconds per unit of
//! fuel (instantiation and the loop's setup cancel out): of CPU time (what the code costs when it
//! has a core: the figure of an idle machine) and of wall time (on this machine as loaded as it
//! is). Prints a Markdown table, slowest first, then what the default turn and
//! `botlens_prepare` budgets last at the slowest rates.
//!
//! ```text
//! cargo run --release -p botlens-sandbox --example fuel_rates -- [--fuel F] [--rounds R]
//!     [--all] [--profiled N] [FILTER…]
//! ```
//!
//! `--fuel` defaults to 20,000,000, `--rounds` (the median is kept) to 3; only the 25 slowest
//! classes are listed unless `--all`; a FILTER keeps the classes whose name contains it.
//! `--profiled N` profiles the bot (`WasmPlayer::profiled`, a sample every N epoch checks), to
//! see what profiling costs per unit of fuel. The
//! figures are this machine's and this moment's: run it idle and with the other cores busy
//! (docs/performance.md has both). Nothing here asserts a figure; the budget tests check that
//! each slow class ends `out_of_fuel` under the default limits.

#[path = "../tests/all/instruction_loops.rs"]
mod instruction_loops;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use botlens_engine::runner::{self, MatchLimits};
use botlens_engine::{FailureKind, Game, SeedRng, Stream};
use botlens_sandbox::{BotModule, Sandbox, SandboxConfig, SandboxLimits};
use botlens_tictactoe::TicTacToe;

/// Fuel of `botlens_prepare` (`crate::snapshot::PREPARE_FUEL`, docs/abi.md).
const PREPARE_FUEL: u64 = 300_000_000;

/// Its wall-clock backstop in seconds.
const PREPARE_BACKSTOP_S: f64 = 10.0;

struct Options {
    fuel: u64,
    rounds: usize,
    all: bool,
    /// Profile the bot, sampling every this many epoch checks.
    profiled: Option<u64>,
    filters: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut options =
        Options { fuel: 20_000_000, rounds: 3, all: false, profiled: None, filters: Vec::new() };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| {
            let value = args.next().ok_or(format!("{name} takes a number"))?;
            value
                .replace('_', "")
                .parse::<u64>()
                .map_err(|_| format!("{name} {value}: not a number"))
        };
        match arg.as_str() {
            "--fuel" => options.fuel = number("--fuel")?.max(SandboxLimits::MIN_FUEL),
            "--rounds" => options.rounds = number("--rounds")?.max(1) as usize,
            "--all" => options.all = true,
            "--profiled" => options.profiled = Some(number("--profiled")?),
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => options.filters.push(arg),
        }
    }
    Ok(options)
}

/// Time of the calling thread on a CPU (the game runs on it).
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable timespec; the clock exists on every Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Wall time and CPU time of one measurement.
#[derive(Clone, Copy)]
struct Times {
    wall: Duration,
    cpu: Duration,
}

/// The times of a game whose first turn runs the loop with `fuel`, which must end it
/// `out_of_fuel` (the backstop is an hour).
fn turn(bot: &BotModule, fuel: u64, profiled: Option<u64>) -> Result<Times, String> {
    let limits = SandboxLimits {
        fuel_per_turn: fuel,
        fuel_per_game: fuel,
        wall_clock_ms_per_turn: SandboxLimits::MAX_WALL_CLOCK_MS,
        ..SandboxLimits::default()
    };
    let mut wasm = bot.player::<TicTacToe>(1, 0, &limits);
    if let Some(interval) = profiled {
        wasm = wasm.profiled(interval);
    }
    let random = TicTacToe::reference_players().iter().find(|p| p.name == "random");
    let mut opponent =
        (random.expect("a random player").create)(SeedRng::new(1, Stream::Player(1)));
    let (started, cpu) = (Instant::now(), thread_cpu_time());
    let record = runner::play_match::<TicTacToe>(
        &(),
        1,
        &mut [&mut wasm, opponent.as_mut()],
        &MatchLimits::default(),
    );
    let times = Times { wall: started.elapsed(), cpu: thread_cpu_time().saturating_sub(cpu) };
    match &record.outcome.fault {
        Some(fault) if fault.failure.kind == FailureKind::OutOfFuel => Ok(times),
        Some(fault) => Err(format!("ended {}", fault.failure)),
        None => Err(format!("did not end out of fuel: {}", record.outcome.reason)),
    }
}

/// Nanoseconds per unit of fuel of `bot`'s loop: the median over the rounds of the difference
/// between a turn of 2F and one of F fuel.
fn rate(bot: &BotModule, options: &Options) -> Result<Rate, String> {
    let (fuel, rounds) = (options.fuel, options.rounds);
    let per_fuel = |twice: Duration, once: Duration| {
        twice.saturating_sub(once).as_secs_f64() * 1e9 / fuel as f64
    };
    let (mut wall, mut cpu) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds {
        let once = turn(bot, fuel, options.profiled)?;
        let twice = turn(bot, 2 * fuel, options.profiled)?;
        wall.push(per_fuel(twice.wall, once.wall));
        cpu.push(per_fuel(twice.cpu, once.cpu));
    }
    let median = |mut rates: Vec<f64>| {
        rates.sort_by(f64::total_cmp);
        rates[rates.len() / 2]
    };
    Ok(Rate { cpu: median(cpu), wall: median(wall) })
}

/// Nanoseconds per unit of fuel: on the CPU (what the code costs when it has a core) and of
/// wall time (what it costs on this machine as loaded as it is).
#[derive(Clone, Copy)]
struct Rate {
    cpu: f64,
    wall: f64,
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("fuel_rates: {message}");
            return ExitCode::FAILURE;
        }
    };
    let sandbox = match Sandbox::new(SandboxConfig::default()) {
        Ok(sandbox) => sandbox,
        Err(error) => {
            eprintln!("fuel_rates: {error}");
            return ExitCode::FAILURE;
        }
    };
    let wanted = |name: &str| {
        options.filters.is_empty() || options.filters.iter().any(|f| name.contains(f.as_str()))
    };
    let mut rows = Vec::new();
    let mut failed = false;
    for class in instruction_loops::all().into_iter().filter(|class| wanted(&class.name)) {
        let measured = sandbox
            .load(class.module().as_bytes())
            .map_err(|error| format!("not loaded: {error}"))
            .and_then(|bot| rate(&bot, &options));
        match measured {
            Ok(rate) => {
                eprintln!("{:>8.2} {:>8.2} ns per fuel  {}", rate.cpu, rate.wall, class.name);
                rows.push((rate, class.name));
            }
            Err(message) => {
                eprintln!("{}: {message}", class.name);
                failed = true;
            }
        }
    }
    rows.sort_by(|a, b| b.0.cpu.total_cmp(&a.0.cpu));
    let shown = if options.all { rows.len() } else { rows.len().min(25) };
    println!("| instruction class | ns per unit of fuel, CPU | ns per unit of fuel, wall |");
    println!("|---|---:|---:|");
    for (rate, name) in &rows[..shown] {
        println!("| {name} | {:.2} | {:.2} |", rate.cpu, rate.wall);
    }
    println!();
    println!(
        "{} classes, {} fuel, median of {} rounds; load average {}",
        rows.len(),
        options.fuel,
        options.rounds,
        std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim()
    );
    let slowest = |time: fn(&Rate) -> f64| {
        rows.iter().map(|(rate, name)| (time(rate), name)).max_by(|a, b| a.0.total_cmp(&b.0))
    };
    for (what, time) in [("CPU", (|r: &Rate| r.cpu) as fn(&Rate) -> f64), ("wall", |r| r.wall)] {
        let Some((worst, name)) = slowest(time) else { continue };
        let limits = SandboxLimits::default();
        let turn_s = limits.fuel_per_turn as f64 * worst / 1e9;
        let backstop_s = limits.wall_clock_ms_per_turn as f64 / 1000.0;
        let prepare_s = PREPARE_FUEL as f64 * worst / 1e9;
        println!(
            "slowest by {what} time: {name}, {worst:.2} ns per unit of fuel: a default turn lasts \
             {turn_s:.2} s ({:.1} times within its {backstop_s} s backstop), botlens_prepare \
             {prepare_s:.2} s ({:.1} times within its {PREPARE_BACKSTOP_S} s)",
            backstop_s / turn_s,
            PREPARE_BACKSTOP_S / prepare_s
        );
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

//! The determinism contract: the same seed gives a byte-identical trace, in this process and in
//! another one; WASI randomness follows the seed.

use botlens_engine::{MatchRecord, PlayerInfo, SeedRng, Stream, Trace};
use botlens_sandbox::SandboxLimits;
use botlens_tictactoe::TicTacToe;

use crate::support::{fault, guest, play, wat, wat_bot};

/// The trace of one game of the `chatty` guest (which logs, prints and uses its rng).
fn chatty_trace(seed: u64) -> String {
    let bot = guest("chatty");
    let limits = SandboxLimits::default();
    let record: MatchRecord<TicTacToe> = play(&bot, seed, &limits);
    let wasm = PlayerInfo {
        name: "chatty".into(),
        kind: "wasm".into(),
        module_sha256: Some(bot.sha256().to_owned()),
        source: None,
    };
    let players = vec![wasm, PlayerInfo::reference("random")];
    record.to_trace(players, serde_json::to_value(limits).unwrap()).to_json()
}

/// Set in a child process: write the trace of seed 7 to this file.
const TRACE_OUT: &str = "BOTLENS_SANDBOX_TEST_TRACE_OUT";

#[test]
fn a_trace_round_trips_and_is_written_for_a_parent_process_when_asked() {
    let trace = chatty_trace(7);
    let parsed = Trace::from_json(&trace).expect("the trace reads back");
    assert_eq!(parsed.to_json(), trace);
    assert!(parsed.moves.iter().any(|m| m.cost.fuel.is_some_and(|fuel| fuel > 0)));
    if let Some(path) = std::env::var_os(TRACE_OUT) {
        std::fs::write(path, &trace).expect("write the trace");
    }
}

#[test]
fn the_same_seed_gives_a_byte_identical_trace_in_this_process() {
    for seed in [0, 7, 12345] {
        assert_eq!(chatty_trace(seed), chatty_trace(seed), "seed {seed}");
    }
    assert_ne!(chatty_trace(0), chatty_trace(1));
}

#[test]
fn the_same_seed_gives_a_byte_identical_trace_in_another_process() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("trace.json");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "determinism::a_trace_round_trips_and_is_written_for_a_parent_process_when_asked",
        ])
        .args(["--test-threads", "1", "--quiet"])
        .env(TRACE_OUT, &out)
        .output()
        .expect("run the test binary again");
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stdout));
    let theirs = std::fs::read_to_string(&out).expect("the child wrote its trace");
    assert_eq!(theirs, chatty_trace(7));
}

/// What `chatty` prints first: its SDK rng's first number, seeded from 8 bytes of WASI
/// `random_get`.
fn first_log_line(seed: u64) -> String {
    let record = play(&guest("chatty"), seed, &SandboxLimits::default());
    let first = record.moves.iter().find(|m| m.seat == 0).expect("a bot turn");
    first.logs[0].clone()
}

#[test]
fn wasi_randomness_is_the_bot_random_stream_of_the_seed() {
    for seed in [0, 1, 99] {
        let raw = SeedRng::new(seed, Stream::BotRandom(0)).next_u64();
        let expected = SeedRng::from_state(raw).next_u64();
        assert_eq!(first_log_line(seed), format!("seed bytes {expected:016x}"), "seed {seed}");
    }
    assert_eq!(first_log_line(5), first_log_line(5));
    assert_ne!(first_log_line(5), first_log_line(6));
}

#[test]
fn a_bot_that_burns_its_fuel_fails_identically_on_threads_competing_for_the_cores() {
    // Three games at once on two cores, under the default limits: fuel, not the wall clock,
    // ends each of them, at the same instruction.
    let bot = wat(&wat_bot("(loop $spin (br $spin))", ""));
    let limits = SandboxLimits::default();
    let outcomes: Vec<String> = std::thread::scope(|scope| {
        let games: Vec<_> = (0..3)
            .map(|_| {
                scope.spawn(|| {
                    let record = play(&bot, 9, &limits);
                    let failure = fault(&record).clone();
                    format!("{failure} after {:?} fuel", record.moves.last().unwrap().cost.fuel)
                })
            })
            .collect();
        games.into_iter().map(|game| game.join().expect("a game thread")).collect()
    });
    let expected = format!(
        "out_of_fuel: out of fuel: the turn budget of {0} is used up in wasm function \
         `botlens_play` after Some({0}) fuel",
        limits.fuel_per_turn
    );
    assert_eq!(outcomes, vec![expected; 3]);
}

#[test]
fn a_sandbox_for_debuggers_plays_the_very_same_game_fuel_and_all() {
    let debugging = botlens_sandbox::Sandbox::for_debugger().unwrap();
    let bot = debugging.load(crate::support::guest_bytes("chatty")).unwrap().stopping_at(2, 0);
    let limits = SandboxLimits::default();
    for seed in [0, 7] {
        let under_debugger: MatchRecord<TicTacToe> = play(&bot, seed, &limits);
        let playing: MatchRecord<TicTacToe> = play(&guest("chatty"), seed, &limits);
        assert_eq!(under_debugger.moves, playing.moves, "seed {seed}");
        assert_eq!(under_debugger.outcome, playing.outcome, "seed {seed}");
    }
    assert!(!wat(&wat_bot("", "")).has_variable_info(), "WAT has no DWARF");
}

//! Shared helpers: building the guest bots, a shared sandbox, playing Tic-tac-toe and
//! Battleships games, and a template for hand-written WAT bots.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use botlens_battleships::Battleships;
use botlens_engine::runner::{self, MatchLimits};
use botlens_engine::{Failure, Game, MatchRecord, SeedRng, Stream};
use botlens_sandbox::{BotModule, Sandbox, SandboxConfig, SandboxLimits, WasmPlayer};
use botlens_tictactoe::TicTacToe;

use crate::guests::{self, guests_dir};

/// Where the guests are built: under the workspace's target directory.
fn guests_target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("sandbox-guests")
}

/// Builds every guest (once per test process) and returns their `.wasm` bytes by name.
fn built_guests() -> &'static BTreeMap<String, Vec<u8>> {
    static GUESTS: OnceLock<Result<BTreeMap<String, Vec<u8>>, String>> = OnceLock::new();
    match GUESTS.get_or_init(build_guests) {
        Ok(guests) => guests,
        Err(message) => panic!("{message}"),
    }
}

fn build_guests() -> Result<BTreeMap<String, Vec<u8>>, String> {
    let mut names: Vec<String> = std::fs::read_dir(guests_dir())
        .map_err(|e| format!("cannot list the guests: {e}"))?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().join("Cargo.toml").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut guests = BTreeMap::new();
    for name in names {
        let wasm = guests::build(&name, &guests_target_dir())?;
        let bytes =
            std::fs::read(&wasm).map_err(|e| format!("cannot read {}: {e}", wasm.display()))?;
        guests.insert(name, bytes);
    }
    Ok(guests)
}

/// The built `.wasm` of guest `name`.
pub fn guest_bytes(name: &str) -> &'static [u8] {
    built_guests().get(name).unwrap_or_else(|| panic!("no guest named {name}"))
}

/// The sandbox shared by all tests of this process (memory cache only).
pub fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| Sandbox::new(SandboxConfig::default()).expect("a sandbox"))
}

/// Guest `name`, loaded.
pub fn guest(name: &str) -> BotModule {
    sandbox().load(guest_bytes(name)).unwrap_or_else(|e| panic!("guest {name} does not load: {e}"))
}

/// WAT text, loaded.
pub fn wat(text: &str) -> BotModule {
    sandbox().load(text.as_bytes()).unwrap_or_else(|e| panic!("the WAT bot does not load: {e}"))
}

/// One Battleships game, `wasm` in seat 0 against the reference `random` player.
pub fn play_battleships(wasm: &mut WasmPlayer<Battleships>, seed: u64) -> MatchRecord<Battleships> {
    let random =
        Battleships::reference_players().iter().find(|p| p.name == "random").expect("random");
    let mut opponent = (random.create)(SeedRng::new(seed, Stream::Player(1)));
    runner::play_match::<Battleships>(
        &Default::default(),
        seed,
        &mut [wasm, opponent.as_mut()],
        &MatchLimits::default(),
    )
}

/// One Tic-tac-toe game: the bot in seat 0 against the reference `random` player in seat 1.
pub fn play(bot: &BotModule, seed: u64, limits: &SandboxLimits) -> MatchRecord<TicTacToe> {
    play_tictactoe(&mut bot.player::<TicTacToe>(seed, 0, limits), seed)
}

/// One Tic-tac-toe game: `wasm` in seat 0 against the reference `random` player in seat 1.
pub fn play_tictactoe(wasm: &mut WasmPlayer<TicTacToe>, seed: u64) -> MatchRecord<TicTacToe> {
    let random =
        TicTacToe::reference_players().iter().find(|p| p.name == "random").expect("random");
    let mut opponent = (random.create)(SeedRng::new(seed, Stream::Player(1)));
    runner::play_match::<TicTacToe>(
        &(),
        seed,
        &mut [wasm, opponent.as_mut()],
        &MatchLimits::default(),
    )
}

/// The failure that decided a game, asserting that the bot (seat 0) lost by it.
pub fn fault(record: &MatchRecord<TicTacToe>) -> &Failure {
    let fault = record
        .outcome
        .fault
        .as_ref()
        .unwrap_or_else(|| panic!("no fault: {}", record.outcome.reason));
    assert_eq!(fault.seat, 0, "the bot is at fault");
    assert_eq!(record.outcome.winner, Some(1));
    &fault.failure
}

/// The 1-based line of guest `name`'s `src/lib.rs` that carries the comment `// MARKER`.
pub fn marker_line(name: &str, marker: &str) -> u32 {
    let path = guests_dir().join(name).join("src/lib.rs");
    let source = std::fs::read_to_string(&path).expect("guest source");
    let needle = format!("// {marker}");
    let index = source.lines().position(|line| line.contains(&needle));
    index.unwrap_or_else(|| panic!("no `{needle}` in {}", path.display())) as u32 + 1
}

/// Asserts that a failure is located at guest `name`'s line marked `marker`.
pub fn assert_at(failure: &Failure, name: &str, marker: &str) {
    let location = failure.location.as_ref().unwrap_or_else(|| panic!("no location: {failure}"));
    assert!(location.file.ends_with(&format!("guests/{name}/src/lib.rs")), "{failure}");
    assert_eq!(location.line, marker_line(name, marker), "{failure}");
}

/// A Tic-tac-toe bot in WAT that marks the first free square, with `prelude` run at the start of
/// every turn and `extra` module fields (functions, imports after the standard ones).
pub fn wat_bot(prelude: &str, extra: &str) -> String {
    format!(
        r#"(module
  (import "botlens" "view" (func $view (param i32 i32) (result i32)))
  (import "botlens" "act" (func $act (param i32 i32 i32 i32) (result i32)))
  (import "botlens" "log" (func $log (param i32 i32)))
  {extra}
  (memory (export "memory") 1)
  (@custom "botlens_abi" "1")
  (data (i32.const 256) "{{\"x\":0,\"y\":0}}")
  (func (export "botlens_new") (param $seat i32))
  (func (export "botlens_play")
    (local $i i32)
    {prelude}
    (drop (call $view (i32.const 0) (i32.const 256)))
    (block $found
      (loop $next
        (br_if $found (i32.eq (i32.load8_u offset=10 (local.get $i)) (i32.const 46)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $next (i32.lt_u (local.get $i) (i32.const 9)))))
    (i32.store8 (i32.const 261) (i32.add (i32.const 48) (i32.rem_u (local.get $i) (i32.const 3))))
    (i32.store8 (i32.const 267) (i32.add (i32.const 48) (i32.div_u (local.get $i) (i32.const 3))))
    (drop (call $act (i32.const 256) (i32.const 13) (i32.const 512) (i32.const 256)))))"#
    )
}

/// Asserts that the sandbox still plays a normal game to its end after whatever came before.
pub fn assert_next_game_runs() {
    let good = wat(&wat_bot("", ""));
    let record = play(&good, 3, &SandboxLimits::default());
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    assert!(record.actions_by(0) >= 2);
}

//! Bots that declare the compact encoding (`botlens_encoding` = `compact`) get every message in
//! the compact binary form and must send theirs in it; other bots keep JSON.

use botlens_engine::{FailureKind, Game};
use botlens_sandbox::{Encoding, LoadError, SandboxLimits};

use crate::support::{assert_next_game_runs, play, sandbox, wat, wat_bot};

/// A compact Tic-tac-toe bot in WAT that marks the first free square. The view is the board
/// (a `u32` length 9, then 9 bytes) and the side (one byte); the mark is two `i32`s; the answer
/// is the board after the mark. `action` writes the mark's bytes at 256 and returns their length.
fn compact_bot(action: &str, extra: &str) -> String {
    format!(
        r#"(module
  (import "botlens" "view" (func $view (param i32 i32) (result i32)))
  (import "botlens" "act" (func $act (param i32 i32 i32 i32) (result i32)))
  {extra}
  (memory (export "memory") 1)
  (@custom "botlens_abi" "1")
  (@custom "botlens_encoding" "compact")
  (func $action (param $x i32) (param $y i32) (result i32) {action})
  (func (export "botlens_new") (param $seat i32))
  (func (export "botlens_play")
    (local $i i32)
    (if (i32.ne (call $view (i32.const 0) (i32.const 256)) (i32.const 14)) (then unreachable))
    (if (i32.ne (i32.load (i32.const 0)) (i32.const 9)) (then unreachable))
    (block $found
      (loop $next
        (br_if $found (i32.eq (i32.load8_u offset=4 (local.get $i)) (i32.const 46)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $next (i32.lt_u (local.get $i) (i32.const 9)))))
    (if (i32.ne
          (call $act (i32.const 256)
            (call $action (i32.rem_u (local.get $i) (i32.const 3)) (i32.div_u (local.get $i) (i32.const 3)))
            (i32.const 512) (i32.const 256))
          (i32.const 13))
      (then unreachable))
    (if (i32.ne (i32.load (i32.const 512)) (i32.const 9)) (then unreachable))))"#
    )
}

/// Writes the mark as two little-endian `i32`s.
const COMPACT_MARK: &str = "(i32.store (i32.const 256) (local.get $x))
    (i32.store (i32.const 260) (local.get $y))
    (i32.const 8)";

#[test]
fn a_compact_bot_reads_and_writes_binary_messages_for_whole_games() {
    let bot = wat(&compact_bot(COMPACT_MARK, ""));
    assert_eq!(bot.encoding(), Encoding::Compact);
    for seed in 0..10 {
        let record = play(&bot, seed, &SandboxLimits::default());
        assert!(record.outcome.fault.is_none(), "seed {seed}: {}", record.outcome.reason);
        for turn in record.moves.iter().filter(|m| m.seat == 0) {
            let mark = turn.action.expect("a mark");
            let before = record.state_after(turn.turn as usize - 1).view(0).board;
            let first_free = before.find('.').expect("a free square") as i32;
            assert_eq!((mark.x, mark.y), (first_free % 3, first_free / 3), "seed {seed}");
        }
    }
}

#[test]
fn a_compact_bot_that_sends_json_loses_with_the_bytes_shown() {
    let json = r#"(i32.store8 (i32.const 256) (i32.const 123)) (i32.const 13)"#;
    let record = play(&wat(&compact_bot(json, "")), 11, &SandboxLimits::default());
    let failure = record.outcome.fault.expect("the bot lost").failure;
    assert_eq!(failure.kind, FailureKind::MalformedMessage);
    assert!(
        failure.message.starts_with(
            "act: not a tictactoe action (not in the compact encoding the bot declares): \
             13 bytes [7b 00 00"
        ),
        "{failure}"
    );
    assert_next_game_runs();
}

#[test]
fn a_bot_without_the_section_speaks_json_and_an_unknown_encoding_is_refused() {
    assert_eq!(wat(&wat_bot("", "")).encoding(), Encoding::Json);
    let text = compact_bot(COMPACT_MARK, "").replace(r#""compact")"#, r#""cbor")"#);
    let error = sandbox().load(text.as_bytes()).map(|_| ()).unwrap_err();
    assert!(matches!(&error, LoadError::Encoding { found } if found == "\"cbor\""), "{error}");
}

#[test]
fn a_bot_built_with_the_sdk_declares_the_compact_encoding() {
    assert_eq!(crate::support::guest("chatty").encoding(), Encoding::Compact);
}

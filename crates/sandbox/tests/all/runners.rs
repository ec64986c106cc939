//! The ABI's additions for language runners (`docs/abi.md`): a payload copied in with
//! `botlens.source`, positions and stacks stated with `botlens.position` and `botlens.stack`,
//! `botlens.wasted`, and a `botlens_runner` module, whose losing `act` returns `-2` so that the
//! runner can say where the move was made.

use botlens_battleships::Battleships;
use botlens_engine::{FailureKind, MatchRecord, SourceLocation};
use botlens_sandbox::{BotModule, MAX_WASTED_LOCATED, SandboxLimits};
use serde_json::Value;

use crate::support::{assert_next_game_runs, fault, play, play_battleships, wat, wat_bot};

const RUNNER_IMPORTS: &str = r#"
  (import "botlens" "source" (func $source (param i32 i32) (result i32)))
  (import "botlens" "position" (func $position (param i32 i32 i32 i32)))
  (@custom "botlens_runner" "test")
  (data (i32.const 1024) "bot.js")"#;

/// A runner bot that plays `{"x":1,"y":1}` every turn, so its second move is illegal; after
/// `act`, `after` runs with the result in local `$r`. `extra`: more imports and data.
fn marking_the_centre(extra: &str, after: &str) -> String {
    format!(
        r#"(module
  (import "botlens" "act" (func $act (param i32 i32 i32 i32) (result i32)))
  (import "botlens" "log" (func $log (param i32 i32)))
  {RUNNER_IMPORTS}
  {extra}
  (memory (export "memory") 1)
  (@custom "botlens_abi" "1")
  (data (i32.const 256) "{{\"x\":1,\"y\":1}}")
  (func (export "botlens_new") (param $seat i32))
  (func (export "botlens_play")
    (local $r i32)
    (local.set $r (call $act (i32.const 256) (i32.const 13) (i32.const 512) (i32.const 256)))
    {after}))"#
    )
}

fn at(line: u32, column: u32) -> Option<SourceLocation> {
    Some(SourceLocation { file: "bot.js".into(), line, column })
}

#[test]
fn a_runner_locates_its_losing_move_where_it_says_and_the_game_ends_there() {
    // On -2 the runner states line 7, column 3; a stated position ends the game.
    let after = "(if (i32.eq (local.get $r) (i32.const -2)) (then
        (call $position (i32.const 1024) (i32.const 6) (i32.const 7) (i32.const 3))
        (call $log (i32.const 1024) (i32.const 6))))";
    let record = play(&wat(&marking_the_centre("", after)), 5, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::IllegalMove, "{failure}");
    assert_eq!(failure.location, at(7, 3), "{failure}");
    let logs: Vec<&String> = record.moves.iter().flat_map(|m| &m.logs).collect();
    assert!(logs.is_empty(), "position did not return: {logs:?}");
    assert_next_game_runs();
}

#[test]
fn a_runner_that_returns_after_a_lost_move_loses_unlocated_and_its_moves_count_no_more() {
    // Two more moves after the first: the second loses (`second_move`, -2), the third returns
    // -2 again and changes nothing; the runner then returns without stating a position.
    let again = "(drop (call $act (i32.const 256) (i32.const 13) (i32.const 512) (i32.const 256)))";
    let record =
        play(&wat(&marking_the_centre("", &again.repeat(2))), 5, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::SecondMove, "{failure}");
    assert_eq!(failure.message, "second action mark(1, 1) in one turn (already made mark(1, 1))");
    assert_eq!(failure.location, None, "{failure}");
    assert_next_game_runs();
}

#[test]
fn the_payload_is_copied_in_by_source_and_minus_one_without_one() {
    // The runner logs its payload (at 2048, up to 256 bytes) every turn, or "none".
    let prelude = "(local.set $i (call $source (i32.const 2048) (i32.const 256)))
        (if (i32.ge_s (local.get $i) (i32.const 0))
          (then (call $log (i32.const 2048) (local.get $i)))
          (else (call $log (i32.const 1100) (i32.const 4))))
        (local.set $i (i32.const 0))";
    let extra = format!("{RUNNER_IMPORTS} (data (i32.const 1100) \"none\")");
    let bot = wat(&wat_bot(prelude, &extra));
    let logs = |bot| {
        let record = play(bot, 2, &SandboxLimits::default());
        assert!(record.outcome.fault.is_none(), "{:?}", record.outcome);
        record.moves.iter().find(|m| m.seat == 0).expect("a move").logs.clone()
    };
    assert_eq!(logs(&bot), ["none"]);
    let given = bot.with_payload(b"tictactoe\nbot.js\nfunction Bot() {}".to_vec());
    assert!(given.is_runner() && !given.payload().expect("the payload").is_empty());
    assert_eq!(logs(&given), ["tictactoe", "bot.js", "function Bot() {}"]);
    assert_eq!(given.sha256(), bot.sha256(), "one compiled module serves every payload");
}

#[test]
fn a_stated_position_locates_a_host_found_failure_that_has_no_other_location() {
    // Not a runner and no DWARF: the position stated before a malformed move locates it; a
    // line of 0 forgets it.
    let stated = |line: i32| {
        format!(
            "(call $position (i32.const 1024) (i32.const 6) (i32.const {line}) (i32.const 2))
             (drop (call $act (i32.const 1024) (i32.const 6) (i32.const 512) (i32.const 256)))"
        )
    };
    let extra = r#"(import "botlens" "position" (func $position (param i32 i32 i32 i32)))
        (data (i32.const 1024) "bot.js")"#;
    let record = play(&wat(&wat_bot(&stated(12), extra)), 3, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::MalformedMessage, "{failure}");
    assert_eq!(failure.location, at(12, 2), "{failure}");
    let record = play(&wat(&wat_bot(&stated(0), extra)), 3, &SandboxLimits::default());
    assert_eq!(fault(&record).location, None);
}

/// `text` as the contents of a WAT string: every byte escaped.
fn wat_string(text: &str) -> String {
    text.bytes().map(|b| format!("\\{b:02x}")).collect()
}

/// What `botlens.stack` says: the re-attack in `again`, called from `play`.
const AGAIN: &str = "again\tbot.js\t7\t3\nplay\tbot.js\t12\t5\n";

/// Not a stack: its second line is no frame.
const NOT_A_STACK: &str = "again\tbot.js\t7\t3\nplay bot.js:12:5\n";

/// A Battleships runner that fires at (0, 0) every turn, so every move after its first is a
/// wasted re-attack; when `botlens.wasted` says so, it runs `say` (which may state [`AGAIN`] at
/// 2048, [`NOT_A_STACK`] at 3072, or the file name `bot.js` at 1024), then logs `told` (so a
/// call that stopped the bot shows).
fn reattacking_runner(say: &str) -> BotModule {
    wat(&format!(
        r#"(module
  (import "botlens" "act" (func $act (param i32 i32 i32 i32) (result i32)))
  (import "botlens" "log" (func $log (param i32 i32)))
  (import "botlens" "wasted" (func $wasted (result i32)))
  (import "botlens" "stack" (func $stack (param i32 i32)))
  {RUNNER_IMPORTS}
  (memory (export "memory") 1)
  (@custom "botlens_abi" "1")
  (data (i32.const 256) "{{\"x\":0,\"y\":0}}")
  (data (i32.const 1100) "told")
  (data (i32.const 2048) "{}")
  (data (i32.const 3072) "{}")
  (func (export "botlens_new") (param $seat i32))
  (func (export "botlens_play")
    (drop (call $act (i32.const 256) (i32.const 13) (i32.const 512) (i32.const 256)))
    (if (call $wasted) (then
      {say}
      (call $log (i32.const 1100) (i32.const 4))))))"#,
        wat_string(AGAIN),
        wat_string(NOT_A_STACK),
    ))
}

/// `botlens.stack` of `text`, which [`reattacking_runner`] holds at `at`.
fn stack_at(at: u32, text: &str) -> String {
    format!("(call $stack (i32.const {at}) (i32.const {}))", text.len())
}

#[test]
fn a_runner_locates_its_wasted_moves_with_the_stack_it_states_and_plays_the_same_game() {
    let bot = reattacking_runner(&stack_at(2048, AGAIN));
    let mut located = bot.player::<Battleships>(4, 0, &SandboxLimits::default()).locating_wasted();
    let record = play_battleships(&mut located, 4);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    let wasteful = record.wasteful_turns(0);
    assert!(wasteful.len() > 10, "{wasteful:?}");
    let moves = located.wasted_moves();
    let turns: Vec<u32> = moves.iter().map(|w| w.turn).collect();
    assert_eq!(turns, wasteful[..wasteful.len().min(MAX_WASTED_LOCATED)], "each located");
    for wasted in &moves {
        let frames: Vec<_> =
            wasted.stack.frames.iter().map(|f| (&f.function[..], f.location.clone())).collect();
        assert_eq!(frames, [("again", at(7, 3)), ("play", at(12, 5))], "{wasted:?}");
        assert_eq!(wasted.location(), at(7, 3).as_ref());
        assert_eq!(wasted.action, "attack(0, 0)");
    }
    // The stated stack locates the move only: the bot carries on, and a player that does not
    // locate plays the very same game.
    let told = record.moves.iter().filter(|m| m.logs.iter().any(|l| l == "told")).count();
    assert_eq!(told, wasteful.len(), "stack returned every time");
    let mut plain = bot.player::<Battleships>(4, 0, &SandboxLimits::default());
    let trace =
        |record: MatchRecord<Battleships>| record.to_trace(Vec::new(), Value::Null).to_json();
    let again = trace(play_battleships(&mut plain, 4));
    assert_eq!(again, trace(record), "the same game, fuel and all");
    assert!(plain.wasted_moves().is_empty());
}

#[test]
fn a_runner_asked_for_every_move_states_each_on_fuel_given_back() {
    // Its first move is no re-attack: only a player that locates every move hears `wasted` say
    // 1 for it, and the runner's statement of it costs the game nothing.
    // Stating burns fuel (a fill of 48 KiB) before the stack.
    let burn = "(memory.fill (i32.const 4096) (i32.const 0) (i32.const 49152))";
    let bot = reattacking_runner(&format!("{burn} {}", stack_at(2048, AGAIN)));
    let mut every = bot.player::<Battleships>(4, 0, &SandboxLimits::default()).locating_moves();
    let record = play_battleships(&mut every, 4);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    let located = every.located_moves();
    let legal = record.moves.iter().filter(|m| m.seat == 0 && m.response.is_some()).count();
    assert_eq!(located.len(), legal, "every move");
    assert!(!located[0].wasted && located[1..].iter().all(|m| m.wasted));
    assert_eq!(located[0].location(), at(7, 3).as_ref());
    let mut plain = bot.player::<Battleships>(4, 0, &SandboxLimits::default());
    let again = play_battleships(&mut plain, 4);
    let fuel = |record: &MatchRecord<Battleships>| -> Vec<u64> {
        record.moves.iter().filter(|m| m.seat == 0).filter_map(|m| m.cost.fuel).collect()
    };
    let (located_fuel, plain_fuel) = (fuel(&record), fuel(&again));
    assert_eq!(located_fuel[1..], plain_fuel[1..], "the same fuel after the first move");
    // The first move's statement was given back; its log (`told`) was not.
    let extra = located_fuel[0] - plain_fuel[0];
    let stating = located_fuel[1] - plain_fuel[0];
    assert!(extra < 100 && stating > 1000, "{extra} more for the log, not {stating}");
    let logs = |record: &MatchRecord<Battleships>| -> usize {
        record.moves.iter().filter(|m| m.logs.iter().any(|l| l == "told")).count()
    };
    assert_eq!(logs(&record), logs(&again) + 1, "told once more: the first move");
}

#[test]
fn a_position_stated_after_a_wasted_move_locates_it_at_one_unnamed_frame() {
    let say = "(call $position (i32.const 1024) (i32.const 6) (i32.const 9) (i32.const 4))";
    let mut located = reattacking_runner(say)
        .player::<Battleships>(4, 0, &SandboxLimits::default())
        .locating_wasted();
    let record = play_battleships(&mut located, 4);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    let moves = located.wasted_moves();
    assert!(!moves.is_empty());
    for wasted in &moves {
        let frames: Vec<_> =
            wasted.stack.frames.iter().map(|f| (&f.function[..], f.location.clone())).collect();
        assert_eq!(frames, [("", at(9, 4))], "{wasted:?}");
    }
}

#[test]
fn a_stack_that_is_not_one_is_a_malformed_message_naming_its_line() {
    let bot = reattacking_runner(&stack_at(3072, NOT_A_STACK));
    let mut wasm = bot.player::<Battleships>(4, 0, &SandboxLimits::default());
    let record = play_battleships(&mut wasm, 4);
    let failure = &record.outcome.fault.as_ref().expect("a fault").failure;
    assert_eq!(failure.kind, FailureKind::MalformedMessage, "{failure}");
    assert!(failure.message.contains("stack: line 2 is not `function<TAB>file"), "{failure}");
    assert_next_game_runs();
}

#[test]
fn a_losing_move_is_located_at_the_stated_stack_and_carries_it() {
    // On -2 the runner states a two-frame stack, which ends the game at its innermost frame.
    let after = format!(
        "(if (i32.eq (local.get $r) (i32.const -2)) (then
            (call $stack (i32.const 2048) (i32.const {}))))",
        AGAIN.len()
    );
    let imports = format!(
        r#"(import "botlens" "stack" (func $stack (param i32 i32)))
  (data (i32.const 2048) "{}")"#,
        wat_string(AGAIN)
    );
    let record = play(&wat(&marking_the_centre(&imports, &after)), 5, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::IllegalMove, "{failure}");
    assert_eq!(failure.location, at(7, 3), "{failure}");
    let functions = failure.stack.as_ref().map(|stack| stack.functions());
    assert_eq!(functions, Some(vec!["again", "play"]), "{failure}");
}

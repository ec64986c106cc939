//! Prepared modules (`botlens_prepare`, docs/abi.md): the host calls it once, keeps the memory
//! and exported globals it leaves, and starts every game from them instead of from scratch.

use botlens_engine::FailureKind;
use botlens_sandbox::SandboxLimits;

use crate::support::{assert_next_game_runs, fault, play, wat, wat_bot};

/// Every turn logs five bytes at 2000: what `botlens_prepare` wrote in the first page (`P`),
/// the prepared global (as a digit) when prepared, what it wrote in the page it grew (`G`), the
/// global now, and how often `_initialize` ran (a digit); then the turn changes both the byte at
/// 2000 (`X`) and the global, which the next game must not see.
const LOGGING: &str = "
    (i32.store8 (i32.const 2002) (i32.load8_u (i32.const 65546)))
    (i32.store8 (i32.const 2003) (i32.add (i32.const 48) (global.get $g)))
    (call $log (i32.const 2000) (i32.const 5))
    (global.set $g (i32.add (global.get $g) (i32.const 1)))
    (i32.store8 (i32.const 2000) (i32.const 88))";

/// The module fields: the global, `_initialize` (counting its calls at 2004) and, when
/// `prepare` is given, `botlens_prepare` with that body.
fn fields(prepare: Option<&str>) -> String {
    let prepare = prepare
        .map_or(String::new(), |body| format!(r#"(func (export "botlens_prepare") {body})"#));
    format!(
        r#"(global $g (export "prepared") (mut i32) (i32.const 0))
  (data (i32.const 2004) "0")
  (func $initialize (export "_initialize")
    (i32.store8 (i32.const 2004) (i32.add (i32.load8_u (i32.const 2004)) (i32.const 1))))
  {prepare}"#
    )
}

const PREPARE: &str = r#"
    (i32.store8 (i32.const 2000) (i32.const 80))
    (drop (memory.grow (i32.const 1)))
    (i32.store8 (i32.const 65546) (i32.const 71))
    (global.set $g (i32.add (global.get $g) (i32.const 1)))
    (i32.store8 (i32.const 2001) (i32.add (i32.const 48) (global.get $g)))"#;

/// The logs of the bot's first two turns in game `seed`.
fn first_logs(bot: &botlens_sandbox::BotModule, seed: u64) -> Vec<String> {
    let record = play(bot, seed, &SandboxLimits::default());
    assert!(record.outcome.fault.is_none(), "{:?}", record.outcome);
    record.moves.iter().filter(|m| m.seat == 0).take(2).flat_map(|m| m.logs.clone()).collect()
}

#[test]
fn every_game_starts_from_the_state_botlens_prepare_left_and_initialize_ran_once() {
    let bot = wat(&wat_bot(LOGGING, &fields(Some(PREPARE))));
    for seed in [1, 2, 1] {
        // `_initialize` ran once, before `botlens_prepare`; the global and both pages are the
        // prepared ones in every game, whatever the game before changed.
        assert_eq!(first_logs(&bot, seed), ["P1G11", "X1G21"], "seed {seed}");
    }
}

#[test]
fn without_botlens_prepare_a_game_starts_from_scratch_with_initialize() {
    // Nothing was written at 2000 or in a second page (which does not exist: the load reads 0
    // past the first page only because the bot grows it itself here).
    let grow =
        "(if (i32.lt_u (memory.size) (i32.const 2)) (then (drop (memory.grow (i32.const 1)))))";
    let bot = wat(&wat_bot(&format!("{grow}{LOGGING}"), &fields(None)));
    let expected = ["\0\0\u{0}01", "X\0\u{0}11"];
    assert_eq!(first_logs(&bot, 1), expected);
    assert_eq!(first_logs(&bot, 1), expected, "the next game starts afresh too");
}

#[test]
fn a_botlens_prepare_that_traps_or_never_ends_fails_every_game_saying_why() {
    for (body, why) in [
        ("unreachable", "wasm trap: wasm `unreachable` instruction executed"),
        ("(loop $spin (br $spin))", "it ran out of its 1000000000 fuel"),
        // Instructions that took far longer than their unit of fuel: each loop reached the
        // backstop first, and every game failed with `interrupt` on a loaded machine.
        (
            "(loop $spin (drop (ref.func $initialize)) (br $spin))",
            "it ran out of its 1000000000 fuel",
        ),
        (
            "(loop $spin (memory.fill (i32.const 0) (i32.const 0) (i32.load (i32.const 2008))) (br $spin))",
            "it ran out of its 1000000000 fuel",
        ),
    ] {
        let bot = wat(&wat_bot("", &fields(Some(body))));
        for seed in [1, 2] {
            let failure = fault(&play(&bot, seed, &SandboxLimits::default())).clone();
            assert_eq!(failure.kind, FailureKind::BadModule, "{failure}");
            assert!(
                failure.message.starts_with("the module's botlens_prepare failed: ")
                    && failure.message.contains(why),
                "{failure}"
            );
        }
    }
    assert_next_game_runs();
}

#[test]
fn a_game_whose_memory_cap_is_below_the_prepared_memory_fails_with_memory_limit() {
    let bot = wat(&wat_bot(LOGGING, &fields(Some(PREPARE))));
    let one_page = SandboxLimits { memory_bytes: 65_536, ..SandboxLimits::default() };
    let failure = fault(&play(&bot, 1, &one_page)).clone();
    assert_eq!(failure.kind, FailureKind::MemoryLimit, "{failure}");
    assert!(failure.message.contains("131072 bytes; the limit is 65536 bytes"), "{failure}");
    assert_eq!(first_logs(&bot, 1), ["P1G11", "X1G21"], "with room, it plays");
}

/// A module with `botlens_prepare` (which writes `P` at 2000) and `botlens_prepare_payload` with
/// `body`; every turn logs the two bytes at 3000 and the byte at 2000, then overwrites both
/// (which the next game must not see).
fn payload_bot(body: &str) -> botlens_sandbox::BotModule {
    let logging = "
    (call $log (i32.const 3000) (i32.const 2))
    (call $log (i32.const 2000) (i32.const 1))
    (i32.store8 (i32.const 3000) (i32.const 88))
    (i32.store8 (i32.const 2000) (i32.const 88))";
    let fields = format!(
        r#"(import "botlens" "source" (func $source (param i32 i32) (result i32)))
  (func (export "botlens_prepare") (i32.store8 (i32.const 2000) (i32.const 80)))
  (func (export "botlens_prepare_payload") {body})"#
    );
    wat(&wat_bot(logging, &fields))
}

/// Copies the payload (up to 8 bytes) to 3000.
const COPY_PAYLOAD: &str = "(drop (call $source (i32.const 3000) (i32.const 8)))";

#[test]
fn every_game_with_a_payload_starts_from_the_state_botlens_prepare_payload_left_for_it() {
    let bot = payload_bot(COPY_PAYLOAD);
    let ab = bot.with_payload(&b"ab"[..]);
    let cd = bot.with_payload(&b"cd"[..]);
    for (seed, bot, payload) in [(1, &ab, "ab"), (2, &ab, "ab"), (1, &cd, "cd"), (3, &ab, "ab")] {
        // Over `botlens_prepare`'s state (`P`), whatever the game before changed.
        let expected = [payload, "P", &format!("X{}", &payload[1..]), "X"];
        assert_eq!(first_logs(bot, seed), expected, "seed {seed}, payload {payload}");
    }
    // Without a payload, `botlens_prepare_payload` is not called.
    assert_eq!(first_logs(&bot, 1), ["\0\0", "P", "X\0", "X"]);
}

#[test]
fn a_botlens_prepare_payload_that_fails_leaves_the_games_to_start_from_botlens_prepare() {
    for body in [
        "unreachable",
        "(loop $spin (br $spin))",
        // Wrote the payload, then trapped: nothing of it is kept.
        "(drop (call $source (i32.const 3000) (i32.const 8))) unreachable",
    ] {
        let bot = payload_bot(body).with_payload(&b"ab"[..]);
        for seed in [1, 2] {
            assert_eq!(first_logs(&bot, seed), ["\0\0", "P", "X\0", "X"], "{body}");
        }
    }
    assert_next_game_runs();
}

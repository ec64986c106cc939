//! Fuel decides first: the cheapest loops a bot can write, of guest instructions or of host
//! calls (stubs and failing calls too), run out of their turn's fuel under the default limits
//! well within the wall-clock backstop; modules that would take long to compile are refused
//! before compiling.

use std::time::{Duration, Instant};

use botlens_engine::FailureKind;
use botlens_sandbox::{LoadError, SandboxLimits};

use crate::support::{assert_next_game_runs, fault, play, sandbox, wat, wat_bot};

const WASI: &str = "wasi_snapshot_preview1";

/// Plays `call` in an endless loop under the default limits: the game must end `out_of_fuel`
/// on the first turn, with the whole turn budget burnt, in well under the backstop.
fn burns_out(label: &str, call: &str, extra: &str) {
    let limits = SandboxLimits::default();
    let bot = wat(&wat_bot(&format!("(loop $spin {call} (br $spin))"), extra));
    let started = Instant::now();
    let record = play(&bot, 5, &limits);
    let elapsed = started.elapsed();
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::OutOfFuel, "{label}: {failure}");
    assert!(failure.message.starts_with("out of fuel: the turn budget"), "{label}: {failure}");
    assert_eq!(record.moves.last().unwrap().cost.fuel, Some(limits.fuel_per_turn), "{label}");
    let backstop = Duration::from_millis(limits.wall_clock_ms_per_turn);
    assert!(elapsed < backstop / 2, "{label}: {elapsed:?}, the backstop is {backstop:?}");
}

#[test]
fn an_empty_loop_runs_out_of_fuel_long_before_the_backstop() {
    burns_out("loop br 0", "", "");
    assert_next_game_runs();
}

/// Cheap WASI calls (a stub, failing calls among them): a label, the call, its import.
fn wasi_calls() -> Vec<(&'static str, &'static str, String)> {
    let import = |name: &str, ty: &str| format!(r#"(import "{WASI}" "{name}" (func $f {ty}))"#);
    vec![
        ("sched_yield", "(drop (call $f))", import("sched_yield", "(result i32)")),
        (
            "proc_raise (a stub)",
            "(drop (call $f (i32.const 0)))",
            import("proc_raise", "(param i32) (result i32)"),
        ),
        (
            "poll_oneoff of one clock",
            "(drop (call $f (i32.const 2048) (i32.const 3072) (i32.const 1) (i32.const 4000)))",
            import("poll_oneoff", "(param i32 i32 i32 i32) (result i32)"),
        ),
        (
            "poll_oneoff of nothing (EINVAL)",
            "(drop (call $f (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)))",
            import("poll_oneoff", "(param i32 i32 i32 i32) (result i32)"),
        ),
        (
            "fd_write to a bad fd (EBADF)",
            "(drop (call $f (i32.const 9) (i32.const 0) (i32.const 0) (i32.const 0)))",
            import("fd_write", "(param i32 i32 i32 i32) (result i32)"),
        ),
        (
            "clock_time_get",
            "(drop (call $f (i32.const 1) (i64.const 0) (i32.const 4000)))",
            import("clock_time_get", "(param i32 i64 i32) (result i32)"),
        ),
    ]
}

#[test]
fn loops_of_wasi_calls_run_out_of_fuel_stubs_and_failing_calls_too() {
    for (label, call, extra) in wasi_calls() {
        burns_out(label, call, &extra);
    }
    assert_next_game_runs();
}

#[test]
fn every_cheap_call_costs_at_least_the_documented_base_of_60_fuel() {
    let reply = r#"(import "botlens" "reply" (func $reply (param i32 i32) (result i32)))"#;
    let mut calls = wasi_calls();
    calls.push((
        "reply before view",
        "(drop (call $reply (i32.const 0) (i32.const 256)))",
        reply.into(),
    ));
    calls.push(("log(p, 0)", "(call $log (i32.const 0) (i32.const 0))", String::new()));
    // The fuel of a first turn that makes `calls` calls before its move.
    let turn_fuel = |call: &str, extra: &str, calls: u32| {
        let prelude = format!(
            "(local.set $i (i32.const {calls}))
             (loop $again {call} (br_if $again (local.tee $i (i32.sub (local.get $i) (i32.const 1)))))
             (local.set $i (i32.const 0))"
        );
        let record = play(&wat(&wat_bot(&prelude, extra)), 5, &SandboxLimits::default());
        assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
        record.moves.iter().find(|m| m.seat == 0).unwrap().cost.fuel.unwrap()
    };
    for (label, call, extra) in calls {
        let per_call = (turn_fuel(call, &extra, 1001) - turn_fuel(call, &extra, 1)) / 1000;
        assert!((60..100).contains(&per_call), "{label}: {per_call} fuel per call and loop turn");
    }
}

#[test]
fn loops_of_botlens_calls_run_out_of_fuel() {
    let reply = r#"(import "botlens" "reply" (func $reply (param i32 i32) (result i32)))"#;
    burns_out("reply before view", "(drop (call $reply (i32.const 0) (i32.const 256)))", reply);
    burns_out("log(p, 0)", "(call $log (i32.const 0) (i32.const 0))", "");
    burns_out("view", "(drop (call $view (i32.const 0) (i32.const 256)))", "");
    assert_next_game_runs();
}

#[test]
fn modules_that_would_compile_for_long_are_refused_before_compiling_with_the_limit_named() {
    let refused = |module: String| {
        let bytes = wat::parse_str(module).unwrap();
        let started = Instant::now();
        let error = sandbox().load(&bytes).expect_err("refused");
        assert!(started.elapsed() < Duration::from_secs(2), "refused at once: {error}");
        error
    };
    // 500,000 empty functions: 2 MB that took 35 s and 2.4 GB to compile.
    let error = refused(wat_bot("", &"(func)".repeat(500_000)));
    assert!(
        matches!(error, LoadError::OverLimit { limit: "functions", found: 500_002, max: 20_000 }),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "the module is over botlens's limit on functions: 500002 where at most 20000 is accepted \
         (see docs/abi.md)"
    );
    // 20,000 nested loops (60 KB, 27 s to compile) and 5,000 locals across 5,000 loops (85 KB,
    // 73 s).
    let nested = format!("(func {}{})", "(loop ".repeat(20_000), ")".repeat(20_000));
    let locals = format!("(func (local {}) {})", "i32 ".repeat(5_000), "(loop)".repeat(5_000));
    for extra in [nested, locals] {
        let error = refused(wat_bot("", &extra));
        assert!(
            matches!(error, LoadError::OverLimit { limit: "estimated compile work", .. }),
            "{error}"
        );
    }
    let mut huge = b"\0asm\x01\0\0\0".to_vec();
    huge.resize(65 << 20, 0);
    let error = sandbox().load(&huge).unwrap_err();
    assert!(
        matches!(error, LoadError::OverLimit { limit: "module bytes", found, .. } if found == 65 << 20),
        "{error}"
    );
    assert_next_game_runs();
}

#[test]
fn each_turn_records_the_memory_the_bot_holds_after_it() {
    // One page to start; every turn grows the memory by two pages.
    let growing = wat(&wat_bot("(drop (memory.grow (i32.const 2)))", ""));
    let record = play(&growing, 5, &SandboxLimits::default());
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    let memory: Vec<u64> = record
        .moves
        .iter()
        .filter(|m| m.seat == 0)
        .map(|m| m.cost.memory.expect("a wasm turn records its memory"))
        .collect();
    let page = 64 * 1024;
    let expected: Vec<u64> =
        (0..memory.len() as u64).map(|turn| (1 + 2 * (turn + 1)) * page).collect();
    assert_eq!(memory, expected);
    let native = record.moves.iter().find(|m| m.seat == 1).expect("the opponent moved");
    assert_eq!(native.cost.memory, None, "a native player has no wasm memory");
}

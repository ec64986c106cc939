//! Fuel decides first: the cheapest loops a bot can write, of guest instructions (the priced ones
//! among them, each at its documented price) or of host calls (stubs and failing calls too), run
//! out of their turn's fuel under the default limits, never reaching the wall-clock backstop;
//! modules that would take long to compile are refused before compiling.

use std::time::{Duration, Instant};

use botlens_engine::{FailureKind, Game};
use botlens_sandbox::{Encoding, LoadError, SandboxLimits};
use botlens_tictactoe::TicTacToe;

use crate::instruction_loops::{self, InstructionLoop};
use crate::support::{assert_next_game_runs, fault, play, sandbox, wat, wat_bot};

const WASI: &str = "wasi_snapshot_preview1";

/// Plays `call` in an endless loop under the default limits: the game must end `out_of_fuel`
/// on the first turn, with the whole turn budget burnt, before the backstop.
fn burns_out(label: &str, call: &str, extra: &str) {
    module_burns_out(label, &wat_bot(&format!("(loop $spin {call} (br $spin))"), extra));
}

/// Plays `module`, whose first turn never ends by itself, under the default limits: the game
/// must end `out_of_fuel` on that turn, with the whole turn budget burnt, not `timeout`. How
/// far within the backstop it ends is a measurement (`examples/fuel_rates.rs`), not asserted
/// here: the tests run side by side on a machine whose load is not theirs.
fn module_burns_out(label: &str, module: &str) {
    let limits = SandboxLimits::default();
    let record = play(&wat(module), 5, &limits);
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::OutOfFuel, "{label}: {failure}");
    assert!(failure.message.starts_with("out of fuel: the turn budget"), "{label}: {failure}");
    assert_eq!(record.moves.last().unwrap().cost.fuel, Some(limits.fuel_per_turn), "{label}");
}

#[test]
fn an_empty_loop_runs_out_of_fuel_long_before_the_backstop() {
    burns_out("loop br 0", "", "");
    assert_next_game_runs();
}

#[test]
fn a_turn_that_fuel_does_not_stop_ends_at_its_backstop_in_cpu_time() {
    // More fuel than the loop can burn in the backstop: 50 ms of the thread's CPU time decide.
    let limits = SandboxLimits {
        fuel_per_turn: u64::MAX / 4,
        fuel_per_game: u64::MAX / 2,
        wall_clock_ms_per_turn: 50,
        ..SandboxLimits::default()
    };
    let bot = wat(&wat_bot("(loop $spin (br $spin))", ""));
    let started = Instant::now();
    let record = play(&bot, 5, &limits);
    let elapsed = started.elapsed();
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::Timeout, "{failure}");
    assert_eq!(
        failure.message,
        "the turn ran past its backstop before its fuel ran out: 50 ms of CPU time (or 10 times \
         that by the wall clock, on a starved machine) in wasm function `botlens_play`"
    );
    // At most ten times the backstop by the wall clock (a tick of 10 ms late at each check).
    assert!(elapsed < Duration::from_millis(50 * 10 + 100), "{elapsed:?}");
    assert_next_game_runs();
}

/// The instruction loops (`instruction_loops`) of the instructions that cost more than one unit
/// of fuel (`docs/abi.md`), and of the zero-length bulk operations.
fn priced_loops(names: &[&str]) -> Vec<InstructionLoop> {
    let loops: Vec<InstructionLoop> =
        instruction_loops::all().into_iter().filter(|l| names.contains(&l.name.as_str())).collect();
    assert_eq!(loops.len(), names.len(), "every name is a loop of the catalogue");
    loops
}

#[test]
fn endless_loops_of_runtime_calls_run_out_of_fuel() {
    for class in priced_loops(&[
        "ref.func",
        "memory.fill, 0 bytes",
        "memory.fill, 0 bytes read from memory",
        "memory.copy, 0 bytes read from memory",
        "memory.init, 0 bytes read from memory",
        "memory.grow, 0 pages",
        "table.grow, 0 elements",
        "table.init, 0 elements read from memory",
        "table.copy, 16 elements read from memory",
        "elem.drop",
        "return_call_indirect (a function calling itself)",
    ]) {
        module_burns_out(&class.name, &class.module());
    }
    assert_next_game_runs();
}

#[test]
fn endless_loops_of_float_square_roots_and_divisions_run_out_of_fuel() {
    for class in priced_loops(&[
        "f32.sqrt",
        "f64.sqrt",
        "f32x4.sqrt",
        "f64x2.sqrt",
        "f32.div",
        "f64.div",
        "f32x4.div",
        "f64x2.div",
        "i32x4.trunc_sat_f32x4_s",
        "i32x4.trunc_sat_f32x4_u",
        "i32x4.trunc_sat_f64x2_s_zero",
        "i32x4.trunc_sat_f64x2_u_zero",
        "i32x4.relaxed_trunc_f32x4_s",
        "i32x4.relaxed_trunc_f32x4_u",
        "i32x4.relaxed_trunc_f64x2_s_zero",
        "i32x4.relaxed_trunc_f64x2_u_zero",
    ]) {
        module_burns_out(&class.name, &class.module());
    }
}

#[test]
fn endless_loops_of_float_rounding_and_vector_float_conversions_run_out_of_fuel() {
    for class in priced_loops(&[
        "f32.ceil",
        "f32.floor",
        "f32.trunc",
        "f32.nearest",
        "f64.ceil",
        "f64.floor",
        "f64.trunc",
        "f64.nearest",
        "f32x4.ceil",
        "f32x4.floor",
        "f32x4.trunc",
        "f32x4.nearest",
        "f64x2.ceil",
        "f64x2.floor",
        "f64x2.trunc",
        "f64x2.nearest",
    ]) {
        module_burns_out(&class.name, &class.module());
    }
}

#[test]
fn endless_loops_of_vector_minimums_maximums_and_dot_products_run_out_of_fuel() {
    for class in priced_loops(&[
        "f32x4.min",
        "f32x4.max",
        "f64x2.min",
        "f64x2.max",
        "f32x4.relaxed_min",
        "f32x4.relaxed_max",
        "f64x2.relaxed_min",
        "f64x2.relaxed_max",
        "f32x4.demote_f64x2_zero",
        "f64x2.promote_low_f32x4",
        "i16x8.relaxed_dot_i8x16_i7x16_s",
        "i32x4.relaxed_dot_i8x16_i7x16_add_s",
    ]) {
        module_burns_out(&class.name, &class.module());
    }
}

/// The fuel one run of `code` costs, in a first turn of the catalogue's module (its locals,
/// tables and segments): the difference between running it 101 times and once, less the
/// counting loop's own 5 units per round.
fn fuel_per_run(code: &str) -> u64 {
    let turn_fuel = |runs: u32| {
        let counted = format!(
            "(local.set $p (i32.const {runs}))
             (loop $again {code}
               (br_if $again (local.tee $p (i32.sub (local.get $p) (i32.const 1)))))"
        );
        let record =
            play(&wat(&instruction_loops::module("", &counted)), 5, &SandboxLimits::default());
        assert_eq!(fault(&record).kind, FailureKind::NoMove, "{code}: {}", record.outcome.reason);
        record.moves.iter().find(|m| m.seat == 0).unwrap().cost.fuel.unwrap()
    };
    (turn_fuel(101) - turn_fuel(1)) / 100 - 5
}

#[test]
fn each_priced_instruction_costs_the_fuel_the_docs_give_it() {
    // What `docs/abi.md` gives each (the instruction alone; its operands, one unit each, are
    // added here), with an unpriced instruction and the counting loop itself for reference.
    let get = "(local.get $zero)";
    let three = format!("{get} {get} {get}");
    let prices = [
        ("", 0),
        ("(drop (f64.add (local.get $f64a) (local.get $f64b)))", 2 + 1),
        ("(drop (ref.func $f))", 60),
        (&format!("(memory.fill {three})"), 3 + 160),
        (&format!("(memory.fill {get} {get} (i32.const 100))"), 3 + 160 + 100),
        (&format!("(memory.copy {get} {get} (i32.const 100))"), 3 + 2 + 100),
        (&format!("(memory.init $d {get} {get} (i32.const 100))"), 3 + 2 + 100),
        ("(drop (memory.grow (local.get $zero)))", 1 + 30),
        ("(drop (table.grow $t (local.get $r) (i32.const 3)))", 2 + 20 + 3),
        (&format!("(table.init $t $e {get} {get} (i32.const 5))"), 3 + 8 + 5),
        (&format!("(table.copy $t $t {get} {get} (i32.const 5))"), 3 + 1 + 2 * 5),
        (&format!("(table.fill $t {get} (local.get $r) (i32.const 5))"), 3 + 1 + 5),
        ("(elem.drop $e)", 10),
        ("(drop (f64.sqrt (local.get $f64a)))", 1 + 6),
        ("(drop (f32x4.sqrt (local.get $va)))", 1 + 5),
        ("(drop (f64.div (local.get $f64a) (local.get $f64b)))", 2 + 3),
        ("(drop (i32x4.trunc_sat_f64x2_u_zero (local.get $va)))", 1 + 3),
        ("(drop (f32.nearest (local.get $f32a)))", 1 + 2),
        ("(drop (f64x2.relaxed_max (local.get $va) (local.get $vb)))", 2 + 2),
        ("(drop (f64x2.promote_low_f32x4 (local.get $va)))", 1 + 2),
        // A call of a function that tail-calls `$f` through the table: the call, `$hop`'s entry
        // and its operand, the tail call, `$f`'s entry.
        ("(call $hop)", 1 + 1 + 1 + 2 + 1),
    ];
    for (code, fuel) in prices {
        assert_eq!(fuel_per_run(code), fuel, "{code}");
    }
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

/// The fuel of a first turn that runs `before` once, then `call` `calls` times, then moves.
fn first_turn_fuel(before: &str, call: &str, extra: &str, calls: u32, seed: u64) -> u64 {
    let prelude = format!(
        "{before}
         (local.set $i (i32.const {calls}))
         (loop $again {call} (br_if $again (local.tee $i (i32.sub (local.get $i) (i32.const 1)))))
         (local.set $i (i32.const 0))"
    );
    let record = play(&wat(&wat_bot(&prelude, extra)), seed, &SandboxLimits::default());
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    record.moves.iter().find(|m| m.seat == 0).unwrap().cost.fuel.unwrap()
}

/// `view` costs the base of 60 and the game call's 250, `reply` the base alone, each plus one
/// unit per 16 bytes of the message it copies (docs/abi.md): measured against `log(p, 0)`, which
/// costs the base alone, over a thousand calls of each.
#[test]
fn view_and_reply_charge_their_call_and_the_bytes_of_the_view() {
    let seed = (0..).find(|&s| TicTacToe::new(&(), s).to_move() == 0).expect("a seed");
    let mut view = Vec::new();
    TicTacToe::new(&(), seed).write_view(0, Encoding::Json, &mut view);
    let view_fuel = view.len() as u64 / 16;
    assert!(view_fuel > 0, "a view of {} bytes", view.len());
    let reply = r#"(import "botlens" "reply" (func $reply (param i32 i32) (result i32)))"#;
    let viewed = "(drop (call $view (i32.const 0) (i32.const 256)))";
    let per_call = |call: &str| {
        let fuel = |calls| first_turn_fuel(viewed, call, reply, calls, seed);
        (fuel(1001) - fuel(1)) / 1000
    };
    let base = per_call("(call $log (i32.const 0) (i32.const 0))");
    assert_eq!(per_call(viewed), base + 250 + view_fuel);
    assert_eq!(per_call("(drop (call $reply (i32.const 0) (i32.const 256)))"), base + view_fuel);
    // A buffer too small for the view: nothing is copied, and all of it is charged all the same.
    assert_eq!(per_call("(drop (call $view (i32.const 0) (i32.const 0)))"), base + 250 + view_fuel);
}

#[test]
fn loops_of_botlens_calls_run_out_of_fuel() {
    let reply = r#"(import "botlens" "reply" (func $reply (param i32 i32) (result i32)))"#;
    burns_out("reply before view", "(drop (call $reply (i32.const 0) (i32.const 256)))", reply);
    burns_out("log(p, 0)", "(call $log (i32.const 0) (i32.const 0))", "");
    burns_out("view", "(drop (call $view (i32.const 0) (i32.const 256)))", "");
    let draw = r#"(import "botlens" "draw" (func $draw (param i32 i32 i32 i32 i32 i32 i32 i32)))"#;
    let cell = "(call $draw (i32.const 0) (i32.const 1) (i32.const 1) (i32.const 0) (i32.const 0) \
                (i32.const 0) (i32.const 0) (i32.const 0))";
    burns_out("draw a cell", cell, draw);
    let heat = "(call $draw (i32.const 1) (i32.const 64) (i32.const 0) (i32.const 0) (i32.const 0) \
                (i32.const 0) (i32.const 0) (i32.const 16384))";
    burns_out("draw a 64 × 64 heat map", heat, draw);
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

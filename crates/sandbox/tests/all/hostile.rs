//! Hand-written hostile modules: each loses its one game with a typed failure, the host neither
//! panics nor hangs, and the next game runs normally.

use botlens_engine::FailureKind;
use botlens_sandbox::SandboxLimits;

use crate::support::{assert_next_game_runs, fault, play, wat, wat_bot};

/// Limits that make runaway bots fail fast.
fn tight() -> SandboxLimits {
    SandboxLimits { fuel_per_turn: 5_000_000, ..SandboxLimits::default() }
}

/// Plays one game of `module` under `limits` and returns its failure's kind and message.
fn lose(module: &str, limits: &SandboxLimits) -> (FailureKind, String) {
    let record = play(&wat(module), 11, limits);
    let failure = fault(&record);
    assert!(failure.location.is_none(), "WAT without DWARF has no source location: {failure}");
    (failure.kind, failure.message.clone())
}

#[test]
fn an_endless_loop_runs_out_of_its_turn_fuel() {
    let (kind, message) = lose(&wat_bot("(loop $spin (br $spin))", ""), &tight());
    assert_eq!(kind, FailureKind::OutOfFuel);
    assert_eq!(
        message,
        "out of fuel: the turn budget of 5000000 is used up in wasm function `botlens_play`"
    );
    assert_next_game_runs();
}

#[test]
fn a_bot_that_thinks_a_little_every_turn_runs_out_of_its_game_fuel() {
    let busy = "(local.set $i (i32.const 4000)) (loop $work (br_if $work (local.tee $i (i32.sub (local.get $i) (i32.const 1)))))";
    let limits = SandboxLimits {
        fuel_per_turn: 1_000_000,
        fuel_per_game: 30_000,
        ..SandboxLimits::default()
    };
    let record = play(&wat(&wat_bot(busy, "")), 11, &limits);
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::OutOfFuel);
    assert!(
        failure.message.starts_with("out of fuel: the game budget of 30000 is used up"),
        "{failure}"
    );
    let costs: Vec<u64> =
        record.moves.iter().filter(|m| m.seat == 0).filter_map(|m| m.cost.fuel).collect();
    assert!(costs.len() >= 2, "it played turns before: {costs:?}");
    assert_eq!(costs.iter().sum::<u64>(), 30_000, "every unit of the game budget is accounted for");
    assert_next_game_runs();
}

#[test]
fn growing_memory_past_the_cap_is_a_memory_limit() {
    let grow = "(loop $grow (br_if $grow (i32.ne (memory.grow (i32.const 16)) (i32.const -1))))";
    let limits = SandboxLimits { memory_bytes: 4 << 20, ..tight() };
    let (kind, message) = lose(&wat_bot(grow, ""), &limits);
    assert_eq!(kind, FailureKind::MemoryLimit);
    assert_eq!(
        message,
        "the bot tried to grow its memory to 4259840 bytes; the limit is 4194304 bytes in wasm function `botlens_play`"
    );
    assert_next_game_runs();
}

#[test]
fn an_initial_memory_above_the_cap_fails_the_first_turn() {
    let big = wat_bot("", "")
        .replace(r#"(memory (export "memory") 1)"#, r#"(memory (export "memory") 100)"#);
    let record =
        play(&wat(&big), 11, &SandboxLimits { memory_bytes: 1 << 20, ..SandboxLimits::default() });
    assert_eq!(fault(&record).kind, FailureKind::MemoryLimit);
    assert_next_game_runs();
}

#[test]
fn a_module_past_the_instance_pool_bounds_is_refused_at_load_with_the_bound_named() {
    for (extra, bound) in [
        (
            "(table 1 funcref) (table 1 funcref) (table 1 funcref) (table 1 funcref) (table 1 funcref)",
            "defined tables count of 5 exceeds the per-instance limit of 4",
        ),
        ("(table 70000 funcref)", "minimum element size of 70000 which exceeds the limit of 65536"),
        ("(memory 1)", "defined memories count of 2 exceeds the per-instance limit of 1"),
    ] {
        let bytes = wat::parse_str(wat_bot("", extra)).unwrap();
        let error = crate::support::sandbox().load(&bytes).expect_err(extra);
        assert!(error.to_string().contains(bound), "{error}");
    }
    assert_next_game_runs();
}

#[test]
fn unbounded_recursion_is_a_stack_overflow() {
    let deep =
        "(func $deep (param i32) (result i32) (i32.add (call $deep (local.get 0)) (i32.const 1)))";
    let (kind, message) = lose(&wat_bot("(drop (call $deep (i32.const 0)))", deep), &tight());
    assert_eq!(kind, FailureKind::StackOverflow);
    // Without DWARF the cycle is still named, from the name section, with its count.
    let (named, rest) =
        message.split_once(" repeated ").unwrap_or_else(|| panic!("no repeat count: {message}"));
    assert_eq!(
        named,
        "stack overflow: the wasm stack limit is 524288 bytes; the recursion deep → deep"
    );
    let (times, hint) = rest.split_once(" times").expect("a count");
    assert!(times.replace(',', "").parse::<u32>().unwrap() > 1000, "{message}");
    assert_eq!(hint, " in wasm function `deep`");
    assert_next_game_runs();
}

#[test]
fn the_stack_of_a_module_without_dwarf_is_its_named_frames_without_lines_and_bounded() {
    let deep =
        "(func $deep (param i32) (result i32) (i32.add (call $deep (local.get 0)) (i32.const 1)))";
    let record = play(&wat(&wat_bot("(drop (call $deep (i32.const 0)))", deep)), 11, &tight());
    let stack = fault(&record).stack.clone().expect("a stack");
    let lines = stack.lines();
    assert!(lines.len() <= 4, "{lines:?}");
    assert!(lines[0].starts_with("┌ ×"), "{lines:?}");
    assert_eq!(lines[1], "└ deep  (no line: the module has no DWARF)");
    assert!(lines[2].starts_with("botlens_play  (no line"), "{lines:?}");
}

#[test]
fn the_stack_cap_is_a_per_game_limit() {
    let bounded = "(func $down (param i32) (result i32)
        (if (result i32) (i32.eqz (local.get 0)) (then (i32.const 0))
            (else (i32.add (call $down (i32.sub (local.get 0) (i32.const 1))) (i32.const 1)))))";
    let bot = wat(&wat_bot("(drop (call $down (i32.const 8000)))", bounded));
    let small = SandboxLimits { stack_bytes: SandboxLimits::MIN_STACK_BYTES, ..tight() };
    assert_eq!(fault(&play(&bot, 11, &small)).kind, FailureKind::StackOverflow);
    let large = SandboxLimits { stack_bytes: SandboxLimits::MAX_STACK_BYTES, ..tight() };
    let record = play(&bot, 11, &large);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
}

#[test]
fn megabytes_of_output_are_capped_per_turn_and_the_game_goes_on() {
    let line = "flood line\n";
    let lines = 5000;
    let flood_bytes = line.len() * lines;
    let extra = format!(
        r#"(import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
           (data (i32.const 4096) "{}")"#,
        line.replace('\n', "\\n").repeat(lines)
    );
    // 100 writes of 55 000 bytes each to stdout, every turn: 5.5 MB.
    let prelude = format!(
        "(i32.store (i32.const 1024) (i32.const 4096)) (i32.store (i32.const 1028) (i32.const {flood_bytes}))
         (local.set $i (i32.const 100))
         (loop $flood
           (drop (call $fd_write (i32.const 1) (i32.const 1024) (i32.const 1) (i32.const 1040)))
           (br_if $flood (local.tee $i (i32.sub (local.get $i) (i32.const 1)))))
         (local.set $i (i32.const 0))"
    );
    let limits = SandboxLimits { output_bytes_per_turn: 1000, ..SandboxLimits::default() };
    let record = play(&wat(&wat_bot(&prelude, &extra)), 11, &limits);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    for turn in record.moves.iter().filter(|m| m.seat == 0) {
        assert!(turn.action.is_some() && turn.response.is_some(), "the move is recorded");
        let (note, kept) = turn.logs.split_last().expect("logs");
        assert_eq!(kept.len(), 1000_usize.div_ceil(line.len()), "lines up to the cap");
        assert!(kept.iter().all(|l| l == "flood line"));
        let dropped = 100 * flood_bytes - 1000;
        assert_eq!(
            note,
            &format!(
                "[botlens: {dropped} more bytes of output dropped; the limit is 1000 bytes per turn]"
            )
        );
    }
    assert_next_game_runs();
}

#[test]
fn garbage_bytes_as_a_move_are_a_malformed_message() {
    let extra = r#"(data (i32.const 4096) "\ff\fe{not json\00")"#;
    let prelude =
        "(drop (call $act (i32.const 4096) (i32.const 12) (i32.const 512) (i32.const 256)))";
    let (kind, message) = lose(&wat_bot(prelude, extra), &tight());
    assert_eq!(kind, FailureKind::MalformedMessage);
    assert!(
        message.starts_with("act: not a tictactoe action (expected value at line 1 column 1): \""),
        "{message}"
    );
    assert!(message.ends_with("{not json\\0\" in wasm function `botlens_play`"), "{message}");
    assert_next_game_runs();
}

#[test]
fn a_message_outside_memory_is_a_malformed_message() {
    let prelude =
        "(drop (call $act (i32.const -16) (i32.const 100) (i32.const 512) (i32.const 256)))";
    let (kind, message) = lose(&wat_bot(prelude, ""), &tight());
    assert_eq!(kind, FailureKind::MalformedMessage);
    assert!(
        message.starts_with(
            "act: the message 0xfffffff0+100 is outside the bot's memory of 65536 bytes"
        ),
        "{message}"
    );
    let bad_out = "(drop (call $view (i32.const 65530) (i32.const 1000)))";
    let (kind, message) = lose(&wat_bot(bad_out, ""), &tight());
    assert_eq!(kind, FailureKind::MalformedMessage);
    assert!(message.starts_with("view: the output buffer 0xfffa+31 is outside"), "{message}");
    assert_next_game_runs();
}

#[test]
fn a_trap_names_its_kind() {
    let (kind, message) =
        lose(&wat_bot("(drop (i32.div_u (i32.const 1) (i32.const 0)))", ""), &tight());
    assert_eq!(kind, FailureKind::Trap);
    assert_eq!(message, "integer divide by zero in wasm function `botlens_play`");
    assert_next_game_runs();
}

#[test]
fn proc_exit_stops_the_bot_with_a_trap() {
    let extra = r#"(import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))"#;
    let (kind, message) = lose(&wat_bot("(call $exit (i32.const 3))", extra), &tight());
    assert_eq!(kind, FailureKind::Trap);
    assert_eq!(message, "the bot called proc_exit(3) in wasm function `botlens_play`");
    assert_next_game_runs();
}

#[test]
fn an_illegal_move_names_the_rule() {
    let off_board = wat_bot("", "").replace(
        "(i32.add (i32.const 48) (i32.rem_u (local.get $i) (i32.const 3)))",
        "(i32.const 57)",
    );
    let (kind, message) = lose(&off_board, &tight());
    assert_eq!(kind, FailureKind::IllegalMove);
    assert_eq!(message, "illegal move mark(9, 0): x out of range 0..=2");
    assert_next_game_runs();
}

#[test]
fn a_reported_panic_without_debug_info_keeps_the_location_it_was_given() {
    let extra = r#"(import "botlens" "panic" (func $panic (param i32 i32 i32 i32 i32 i32)))
                   (data (i32.const 4096) "out of ideas") (data (i32.const 4200) "src/bot.c")"#;
    let prelude = "(call $panic (i32.const 4096) (i32.const 12) (i32.const 4200) (i32.const 9) (i32.const 7) (i32.const 3))";
    let record = play(&wat(&wat_bot(prelude, extra)), 11, &tight());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::Panic);
    assert_eq!(failure.to_string(), "panic: out of ideas at src/bot.c:7:3");
    assert_next_game_runs();
}

#[test]
fn host_calls_charge_fuel_for_the_memory_they_touch() {
    // Each call fills 60 000 bytes: 3 751 fuel of host work for a handful of guest instructions.
    let extra = r#"(import "wasi_snapshot_preview1" "random_get" (func $random (param i32 i32) (result i32)))"#;
    let bot = |calls: u32| {
        let prelude = format!(
            "(local.set $i (i32.const {calls}))
             (loop $fill
               (drop (call $random (i32.const 1024) (i32.const 60000)))
               (br_if $fill (local.tee $i (i32.sub (local.get $i) (i32.const 1)))))"
        );
        wat(&wat_bot(&prelude, extra))
    };
    let limits = SandboxLimits { fuel_per_turn: 1_000_000, ..SandboxLimits::default() };
    assert!(play(&bot(100), 11, &limits).outcome.fault.is_none(), "100 calls fit in the budget");
    let record = play(&bot(300), 11, &limits);
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::OutOfFuel);
    assert!(failure.message.starts_with("out of fuel: the turn budget of 1000000"), "{failure}");
    assert_next_game_runs();
}

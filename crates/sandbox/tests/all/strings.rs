//! Every string the sandbox takes from a bot is bounded: panic messages and file names, function
//! names from the `name` section, log lines per turn. Cut strings say how long they were.

use botlens_engine::FailureKind;
use botlens_sandbox::SandboxLimits;

use crate::support::{assert_next_game_runs, fault, play, wat, wat_bot};

const PANIC: &str = r#"(import "botlens" "panic" (func $panic (param i32 i32 i32 i32 i32 i32)))"#;

#[test]
fn a_60_mb_panic_message_is_cut_to_4_kib_with_its_size() {
    // 1,000 pages (65.5 MB) of memory; the message is the 60 MB from address 0: `x`s.
    let prelude = "(memory.fill (i32.const 0) (i32.const 120) (i32.const 60000000))
        (call $panic (i32.const 0) (i32.const 60000000) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0))";
    let bot = wat_bot(prelude, PANIC)
        .replace(r#"(memory (export "memory") 1)"#, r#"(memory (export "memory") 1000)"#);
    let record = play(&wat(&bot), 11, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::Panic);
    assert_eq!(
        failure.message,
        format!("{}… (truncated, 60 MB) in wasm function `botlens_play`", "x".repeat(4096))
    );
    assert_next_game_runs();
}

#[test]
fn a_panic_file_name_is_cut_to_1_kib() {
    let prelude = "(memory.fill (i32.const 0) (i32.const 102) (i32.const 10000000))
        (call $panic (i32.const 0) (i32.const 2) (i32.const 0) (i32.const 10000000) (i32.const 7) (i32.const 3))";
    let bot = wat_bot(prelude, PANIC)
        .replace(r#"(memory (export "memory") 1)"#, r#"(memory (export "memory") 200)"#);
    let record = play(&wat(&bot), 11, &SandboxLimits::default());
    let failure = fault(&record);
    let location = failure.location.as_ref().expect("the location the panic gave");
    assert_eq!(location.file, format!("{}… (truncated, 10 MB)", "f".repeat(1024)));
    assert_eq!((location.line, location.column), (7, 3));
    assert_eq!(failure.message, "ff");
}

#[test]
fn a_10_mb_function_name_is_cut_in_failure_messages() {
    let name = "n".repeat(10_000_000);
    let extra = format!("(func ${name} (drop (i32.div_u (i32.const 1) (i32.const 0))))");
    let record =
        play(&wat(&wat_bot(&format!("(call ${name})"), &extra)), 11, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::Trap);
    assert_eq!(
        failure.message,
        format!(
            "integer divide by zero in wasm function `{}… (truncated, 10 MB)`",
            "n".repeat(256)
        )
    );
}

#[test]
fn lines_past_the_per_turn_line_limit_are_dropped_with_one_marker() {
    // 64 KiB of "\n" in one `log` call, every turn: 65,537 empty lines.
    let prelude = "(memory.fill (i32.const 4096) (i32.const 10) (i32.const 65536))
        (call $log (i32.const 4096) (i32.const 65536))";
    let bot = wat_bot(prelude, "")
        .replace(r#"(memory (export "memory") 1)"#, r#"(memory (export "memory") 2)"#);
    let limits = SandboxLimits { output_bytes_per_turn: 1 << 20, ..SandboxLimits::default() };
    let record = play(&wat(&bot), 11, &limits);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    for turn in record.moves.iter().filter(|m| m.seat == 0) {
        let (marker, kept) = turn.logs.split_last().unwrap();
        assert_eq!(kept.len(), 1000);
        assert!(kept.iter().all(String::is_empty));
        assert_eq!(marker, "… 64537 more lines (dropped; the limit is 1000 lines per turn)");
    }
    let few = SandboxLimits { output_lines_per_turn: 10, ..limits };
    let record = play(&wat(&bot), 11, &few);
    assert_eq!(record.moves.iter().find(|m| m.seat == 0).unwrap().logs.len(), 11);
}

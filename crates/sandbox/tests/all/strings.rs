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

#[test]
fn a_60_mb_move_is_refused_by_its_size_and_its_message_quotes_60_bytes() {
    // `{"x":"xxx…"}`, 60,000,000 bytes in all.
    let prelude = r#"(i64.store (i32.const 0) (i64.const 0x7878_223a_2278_227b))
        (memory.fill (i32.const 8) (i32.const 120) (i32.const 59999990))
        (i32.store16 (i32.const 59999998) (i32.const 0x7d22))
        (drop (call $act (i32.const 0) (i32.const 60000000) (i32.const 0) (i32.const 0)))"#;
    let bot = wat_bot(prelude, "")
        .replace(r#"(memory (export "memory") 1)"#, r#"(memory (export "memory") 1000)"#);
    let record = play(&wat(&bot), 11, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::MalformedMessage);
    assert_eq!(
        failure.message,
        format!(
            "act: the message of 60 MB is longer than any action may be (4096 bytes): \
             \"{{\\\"x\\\":\\\"{}\"… in wasm function `botlens_play`",
            "x".repeat(54)
        )
    );
    let turn = record.moves.iter().find(|m| m.seat == 0).unwrap();
    assert_eq!(turn.action, None, "nothing of it is recorded as a move");
    assert_next_game_runs();
}

#[test]
fn a_move_the_parser_quotes_whole_is_cut_to_4_kib() {
    // `{"x":"xxx…"}`, 4,096 bytes in all: not refused by its size, but a string where a number
    // belongs, which the parser's error quotes.
    let prelude = r#"(i64.store (i32.const 4096) (i64.const 0x7878_223a_2278_227b))
        (memory.fill (i32.const 4104) (i32.const 120) (i32.const 4086))
        (i32.store16 (i32.const 8190) (i32.const 0x7d22))
        (drop (call $act (i32.const 4096) (i32.const 4096) (i32.const 0) (i32.const 0)))"#;
    let record = play(&wat(&wat_bot(prelude, "")), 11, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::MalformedMessage);
    let parser = format!(
        "act: not a tictactoe action (invalid type: string \"{}\", expected i32 at line 1 \
         column 4094): \"{{\\\"x\\\":\\\"{}\"…",
        "x".repeat(4088),
        "x".repeat(54)
    );
    let kept: String = parser.chars().take(4096).collect();
    assert_eq!(
        failure.message,
        format!("{kept}… (truncated, {} bytes) in wasm function `botlens_play`", parser.len())
    );
}

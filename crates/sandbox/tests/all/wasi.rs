//! Deterministic WASI for Rust guests: clocks driven by fuel, output captured per turn in order.

use botlens_sandbox::SandboxLimits;

use crate::support::{guest, play};

#[test]
fn clocks_start_in_2024_and_advance_with_fuel_so_timed_loops_end_identically() {
    let a = play(&guest("chatty"), 3, &SandboxLimits::default());
    let b = play(&guest("chatty"), 3, &SandboxLimits::default());
    let first = a.moves.iter().find(|m| m.seat == 0).unwrap();
    assert_eq!(first.logs[1], "unix time 1704067200");
    let thought =
        first.logs.iter().find(|l| l.starts_with("thought for ")).expect("timed loop ended");
    let rounds: u32 = thought["thought for ".len()..].trim_end_matches(" rounds").parse().unwrap();
    assert!(rounds > 0);
    assert_eq!(
        a.moves.iter().map(|m| &m.logs).collect::<Vec<_>>(),
        b.moves.iter().map(|m| &m.logs).collect::<Vec<_>>()
    );
}

#[test]
fn stdout_stderr_and_log_lines_are_kept_per_turn_in_order() {
    let record = play(&guest("chatty"), 4, &SandboxLimits::default());
    let turns: Vec<_> = record.moves.iter().filter(|m| m.seat == 0).collect();
    assert!(turns.len() >= 2);
    for (n, turn) in turns.iter().enumerate() {
        let logs: Vec<&str> = turn.logs.iter().map(String::as_str).collect();
        let own = if n == 0 { &logs[2..] } else { &logs[..] };
        assert_eq!(own.len(), 7, "{logs:?}");
        assert!(own[0].starts_with("thought for "), "{logs:?}");
        assert!(own[1].starts_with(&format!("turn {} as ", n + 1)), "{logs:?}");
        let board = &turn.response.as_ref().unwrap().board;
        assert!(
            own[2].starts_with("marked ") && own[2].ends_with(&format!("board now {board}")),
            "{logs:?}"
        );
        // `log!` inside a value `log!` is formatting: the inner line first, both whole.
        assert_eq!(
            own[3..6],
            ["formatting 2", "a line around a noisy value", "a line without arguments"]
        );
        assert_eq!(own[6], "no newline yet", "an unfinished line is kept at the end of the turn");
    }
}

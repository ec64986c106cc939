//! Klotski from the command line: `solve`, `generate` and `play klotski`, with good and bad input
//! (a byte-order mark, a FIFO as the layout, escape sequences in a layout or typed at the prompt);
//! and `play` of the two-player games, which goes through the engine's runner.

use std::time::Duration;

use crate::support::{botlens, botlens_with_input};

#[test]
fn the_classic_is_solved_in_81_steps_and_116_cell_moves() {
    let steps = botlens(&["solve", "横刀立马"]);
    assert_eq!(steps.code, Some(0), "{}", steps.stderr);
    assert!(steps.stdout.contains("Solved in 81 steps"), "{}", steps.stdout);
    let cells = botlens(&["solve", "hengdaolima", "--count", "cells", "--json"]);
    assert_eq!(cells.code, Some(0), "{}", cells.stderr);
    let json: serde_json::Value = serde_json::from_str(&cells.stdout).expect("one JSON object");
    assert_eq!(json["length"], 116);
    assert_eq!(json["count"], "cells");
    assert_eq!(json["layout"], "横刀立马");
    assert_eq!(json["moves"].as_array().expect("moves").len(), 116);
}

#[test]
fn generated_layouts_are_reproducible_and_solvable_by_solve() {
    let first = botlens(&["generate", "--seed", "11", "--min-steps", "40"]);
    let second = botlens(&["generate", "--seed", "11", "--min-steps", "40"]);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert_eq!(first.stdout, second.stdout, "same seed, same layout");
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("generated.txt");
    std::fs::write(&file, &first.stdout).expect("layout saved");
    let solved = botlens(&["solve", file.to_str().unwrap(), "--json"]);
    assert_eq!(solved.code, Some(0), "{}", solved.stderr);
    let json: serde_json::Value = serde_json::from_str(&solved.stdout).unwrap();
    assert!(json["length"].as_u64().unwrap() >= 40, "{json}");
    // What generate says of the layout is what solve finds.
    let optimal =
        format!("# Optimal: {} steps ({} cell moves);", json["length"], json["cell_moves"]);
    assert!(first.stdout.contains(&optimal), "{optimal} in\n{}", first.stdout);
    let generated = botlens(&["generate", "--seed", "11", "--min-steps", "40", "--json"]);
    let generated: serde_json::Value = serde_json::from_str(&generated.stdout).unwrap();
    assert_eq!(
        (&generated["steps"], &generated["cell_moves"]),
        (&json["length"], &json["cell_moves"])
    );
}

#[test]
fn unsolvable_and_malformed_layouts_are_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Cao Cao boxed in by soldiers that cannot move: no empty cell can reach him.
    let stuck = dir.path().join("stuck.txt");
    std::fs::write(
        &stuck,
        "name: stuck\nboard:\n  CC\n  CC\n  12\nlegend:\n  C cc 曹操\n  1 1 兵\n  2 2 卒\ngoal: cc 0 1\n",
    )
    .unwrap();
    let out = botlens(&["solve", stuck.to_str().unwrap()]);
    assert_eq!(out.code, Some(1), "unsolvable exits 1: {}{}", out.stdout, out.stderr);
    let broken = dir.path().join("broken.txt");
    std::fs::write(
        &broken,
        "name: broken\nboard:\n  CC.\n  C..\nlegend:\n  C cc 曹操\ngoal: cc 0 0\n",
    )
    .unwrap();
    let out = botlens(&["solve", broken.to_str().unwrap()]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("broken.txt:4:4:"), "names line and column: {}", out.stderr);
    assert!(out.stderr.contains("not a rectangle"), "says what was expected: {}", out.stderr);
    let missing = botlens(&["solve", "no-such-layout"]);
    assert_eq!(missing.code, Some(2));
    assert!(
        missing.stderr.contains("hengdaolima"),
        "lists the bundled layouts: {}",
        missing.stderr
    );
}

#[test]
fn play_klotski_takes_commands_and_survives_garbage() {
    let script = "cc s\nzz\n\u{1b}[A\nhint\n3 s\nundo\nshow\nquit\n";
    let out = botlens_with_input(&["play", "klotski", "--ascii"], script, Duration::from_secs(30));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("cannot move down"), "{}", out.stdout);
    assert!(out.stdout.contains("Hint: 3 down"), "{}", out.stdout);
    assert!(out.stdout.contains("Bye."), "{}", out.stdout);
    assert!(out.stdout.contains("Unknown command `\\u{1b}[a`"), "echoed escaped: {}", out.stdout);
    assert!(!out.stdout.contains('\u{1b}'), "no escape reaches the terminal: {}", out.stdout);
}

/// A small solvable layout: Cao Cao one slide from the goal.
const NEAR: &str = "name: near\nboard:\n  CC.\n  CC.\nlegend:\n  C cc 曹操\ngoal: cc 1 0\n";

#[test]
fn a_layout_with_a_byte_order_mark_solves() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("near.txt");
    std::fs::write(&file, format!("\u{feff}{NEAR}")).unwrap();
    let out = botlens(&["solve", file.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.starts_with("near: 1 step "), "{}", out.stdout);
}

#[test]
fn escapes_in_a_layout_reach_no_terminal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("hostile.txt");
    std::fs::write(&file, NEAR.replace("C cc 曹操", "C cc 曹\u{1b}]0;owned\u{7}")).unwrap();
    let out = botlens(&["solve", file.to_str().unwrap()]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("hostile.txt:6:8: piece name `曹\\u{1b}]0;owned\\u{7}`"),
        "{}",
        out.stderr
    );
    let play = botlens(&["play", "klotski", "--layout", file.to_str().unwrap()]);
    assert_eq!(play.code, Some(2), "{}", play.stderr);
    for output in [&out.stdout, &out.stderr, &play.stdout, &play.stderr] {
        assert!(!output.contains('\u{1b}') && !output.contains('\u{7}'), "{output:?}");
    }
    // A file name is echoed too.
    let named = dir.path().join("\u{1b}[2J.txt");
    let missing = botlens(&["solve", named.to_str().unwrap()]);
    assert_eq!(missing.code, Some(2));
    assert!(missing.stderr.contains("\\u{1b}[2J.txt"), "{}", missing.stderr);
    assert!(!missing.stderr.contains('\u{1b}'), "{:?}", missing.stderr);
}

#[test]
fn a_fifo_as_the_layout_is_refused_within_a_second() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("layout.txt");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for args in [
        &["solve", fifo.to_str().unwrap()][..],
        &["play", "klotski", "--layout", fifo.to_str().unwrap()],
    ] {
        let started = std::time::Instant::now();
        let out = botlens_with_input(args, "", Duration::from_secs(10));
        assert!(started.elapsed().as_secs_f64() < 1.0, "took {:?}", started.elapsed());
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        assert!(out.stderr.contains("not a regular file (it is a named pipe)"), "{}", out.stderr);
    }
}

#[test]
fn play_tictactoe_against_perfect_ends_cleanly_on_eof() {
    let out = botlens_with_input(
        &["play", "tictactoe", "--vs", "perfect", "--seed", "2"],
        "1 1\nnonsense\n9 9\n",
        Duration::from_secs(30),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let stdout = &out.stdout;
    assert!(stdout.starts_with("tictactoe against perfect, seed 2: "), "{stdout}");
    assert!(stdout.contains("you: mark(1, 1) -> Marked"), "{stdout}");
    assert!(stdout.contains("not a move: expected a square"), "{stdout}");
    assert!(stdout.contains("illegal move mark(9, 9): x out of range 0..=2"), "{stdout}");
    assert!(stdout.ends_with("\nend of input: you left the game\n"), "{stdout}");
}

#[test]
fn play_battleships_gives_hints_and_takes_moves_back() {
    let out = botlens_with_input(
        &["play", "battleships", "--vs", "hunter", "--seed", "3"],
        "help\nhint\nd8\nundo\nhint\nd8\n",
        Duration::from_secs(30),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let stdout = &out.stdout;
    // `help` names the commands and what a move looks like, and quotes no error.
    assert!(stdout.contains("`hint` shows what density would play, `undo` takes back"), "{stdout}");
    let forms = stdout.lines().find(|l| l.starts_with("a move: ")).expect("the move's forms");
    assert!(forms.ends_with("or a square like `d8` (column a–j, row 1–10)"), "{forms}");
    let hints: Vec<&str> = stdout.lines().filter_map(|l| l.split("hint: ").nth(1)).collect();
    assert_eq!(hints, ["attack(5, 4) (density would play it)"; 2], "the same position: {stdout}");
    assert_eq!(stdout.matches("you: attack(3, 7) -> ").count(), 2, "{stdout}");
    assert_eq!(stdout.matches("undone: your last move, and what followed it\n").count(), 1);
    assert!(stdout.ends_with("\nend of input: you left the game\n"), "{stdout}");
}

#[test]
fn play_refuses_unknown_games_and_opponents_with_the_names_there_are() {
    let deadline = Duration::from_secs(30);
    let game = botlens_with_input(&["play", "chess"], "", deadline);
    assert_eq!(game.code, Some(2), "{}", game.stderr);
    assert!(
        game.stderr.contains("unknown game `chess` (known: battleships, tictactoe, klotski)"),
        "{}",
        game.stderr
    );
    let opponent = botlens_with_input(&["play", "battleships", "--vs", "?"], "", deadline);
    assert_eq!(opponent.code, Some(2), "{}", opponent.stderr);
    let known = "battleships has no reference player `?` (known: random, hunter, parity, density)";
    assert!(opponent.stderr.contains(known), "{}", opponent.stderr);
}

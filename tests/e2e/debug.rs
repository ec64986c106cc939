//! `botlens debug`: a game under gdb (`--batch`, so no prompt), stopped at the bot's failing
//! turn, its breakpoints, backtrace and locals; and the inputs it refuses, each with exit
//! code 2 and a message saying what to do.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::{Output, botlens, line_after_marker, repo_root};

/// The panicking sample: it fails on its first turn, seed 47 vs random, as O against X's
/// opening in the centre (its README).
const PANICKY: &str = "samples/tictactoe-panicky";

/// `botlens debug args…` from the repository root with `PATH` set to `path`.
fn debug_with_path(args: &[&str], path: &Path) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_botlens"))
        .arg("debug")
        .args(args)
        .current_dir(repo_root())
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .expect("botlens starts");
    Output {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn gdb_stops_at_the_failing_turn_and_breaks_on_the_bots_line_with_its_locals() {
    let source = repo_root().join(PANICKY).join("src/lib.rs");
    let line = line_after_marker(&source, "botlens reports the panic on the next line");
    let dir = tempfile::tempdir().unwrap();
    let batch = dir.path().join("commands.gdb");
    let commands = format!(
        "break {}:{line}\ncontinue\nbt\ninfo args\nprint x_square * 10\n",
        source.display()
    );
    std::fs::write(&batch, commands).unwrap();
    let out = botlens(&[
        "debug",
        PANICKY,
        "--vs",
        "random",
        "--seed",
        "47",
        "--batch",
        batch.to_str().unwrap(),
    ]);
    let all = format!("{}\n{}", out.stdout, out.stderr);
    assert_eq!(out.code, Some(0), "{all}");
    assert!(all.contains("the bot failed on its turn 1 (panic: X opens on a corner"), "{all}");
    assert!(all.contains("botlens_turn_begins (turn=1)"), "stopped at the hook: {all}");
    // The bot's own functions, its arguments' values and its source line.
    let stop = format!("tictactoe_panicky::answer_opening (x_square=4) at src/lib.rs:{line}");
    assert!(all.contains(&stop), "{all}");
    assert!(all.contains("in tictactoe_panicky::choose (view=...)"), "the caller in bt: {all}");
    assert!(all.contains("tictactoe_panicky::{impl#0}::play"), "{all}");
    assert!(all.lines().any(|l| l.trim() == "x_square = 4"), "info args: {all}");
    assert!(all.lines().any(|l| l.trim() == "$1 = 40"), "print evaluates a local: {all}");
}

#[test]
fn a_missing_debugger_is_named_with_its_package() {
    let empty = tempfile::tempdir().unwrap();
    for (debugger, package) in [("gdb", "gdb"), ("lldb", "lldb")] {
        let args = [PANICKY, "--vs", "random", "--seed", "47", "--debugger", debugger];
        let out = debug_with_path(&args, empty.path());
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        let said = format!("{debugger} is not installed: apt-get install {package}");
        assert!(out.stderr.contains(&said), "{}", out.stderr);
    }
}

#[test]
fn a_turn_past_the_bots_last_says_how_many_it_played() {
    let out = botlens(&["debug", PANICKY, "--vs", "random", "--seed", "47", "--turn", "5"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("the bot played 1 turn in this game, so there is no turn 5"),
        "{}",
        out.stderr
    );
}

#[test]
fn reference_players_javascript_bots_and_modules_without_debug_info_are_refused() {
    let reference =
        botlens(&["debug", "perfect", "--game", "tictactoe", "--vs", "random", "--seed", "1"]);
    assert_eq!(reference.code, Some(2), "{}", reference.stderr);
    assert!(reference.stderr.contains("perfect is a reference player"), "{}", reference.stderr);

    let script =
        botlens(&["debug", "samples/js-tictactoe-sloppy", "--vs", "random", "--seed", "1"]);
    assert_eq!(script.code, Some(2), "{}", script.stderr);
    assert!(script.stderr.contains("is a JavaScript bot"), "{}", script.stderr);

    let wat = "crates/bench/src/floor_bot.wat";
    let bare = botlens(&["debug", wat, "--game", "battleships", "--vs", "random", "--seed", "1"]);
    assert_eq!(bare.code, Some(2), "{}", bare.stderr);
    assert!(
        bare.stderr.contains("floor_bot.wat has no debug info")
            && bare.stderr.contains("debug = true"),
        "says how to build one: {}",
        bare.stderr
    );
}

#[test]
fn a_trace_of_another_game_or_a_newer_format_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().to_str().unwrap();
    let run = ["run", "--game", "battleships", "random", "--vs", "random", "--seeds", "0..1"];
    let played = botlens(&[&run[..], &["--trace-dir", traces]].concat());
    assert_eq!(played.code, Some(0), "{}", played.stderr);
    let trace = dir.path().join("random-seed0.json");
    let other = botlens(&["debug", PANICKY, "--trace", trace.to_str().unwrap()]);
    assert_eq!(other.code, Some(2), "{}", other.stderr);
    assert!(
        other.stderr.contains(
            "is a trace of a battleships game, and samples/tictactoe-panicky plays tictactoe"
        ),
        "{}",
        other.stderr
    );

    let text = std::fs::read_to_string(&trace).unwrap();
    let newer = crate::support::from_a_newer_botlens(&text);
    let future = dir.path().join("future.json");
    std::fs::write(&future, newer).unwrap();
    let out = botlens(&["debug", PANICKY, "--trace", future.to_str().unwrap()]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("trace format version 99 is newer"), "{}", out.stderr);
}

#[test]
fn a_c_bot_stops_at_its_failing_turn_and_reaches_its_line_in_bot_c() {
    let sample = repo_root().join("samples/c-tictactoe-edgeless/bot.c");
    let line = line_after_marker(&sample, "botlens reports the panic on the next line");
    let dir = tempfile::tempdir().unwrap();
    let batch = dir.path().join("commands.gdb");
    std::fs::write(&batch, "continue\nbt 1\n").unwrap();
    let args = ["--vs", "perfect", "--seed", "4", "--batch", batch.to_str().unwrap()];
    let out = botlens(&[&["debug", "samples/c-tictactoe-edgeless"][..], &args].concat());
    let all = format!("{}\n{}", out.stdout, out.stderr);
    assert_eq!(out.code, Some(0), "{all}");
    assert!(all.contains("the bot failed on its turn 5 (panic: assertion failed"), "{all}");
    let breakpoint = format!("a breakpoint is on the failing line {}:{line}", sample.display());
    assert!(all.contains(&breakpoint), "{all}");
    let stop = format!("bot_play () at {}:{line}", sample.display());
    assert!(all.contains(&format!("Breakpoint 2, {stop}")), "continue reaches the line: {all}");
    assert!(all.contains(&format!("#0  {stop}")), "bt: {all}");
}

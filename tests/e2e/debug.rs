//! `botlens debug`: a game under gdb (`--batch`, so no prompt), stopped at the bot's failing
//! turn, its breakpoints, backtrace and locals; and the inputs it refuses, each with exit
//! code 2 and a message saying what to do.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::{Output, Tool, botlens, line_after_marker, repo_root, require};

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
    if !require(&[Tool::Gdb]) {
        return;
    }
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
    if !require(&[Tool::Gdb]) {
        return;
    }
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
    if !require(&[Tool::Clang]) {
        return;
    }
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
    if !require(&[Tool::Clang, Tool::Gdb]) {
        return;
    }
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

#[test]
fn lldb_stops_at_a_c_bots_failing_turn_and_reaches_its_line_in_bot_c() {
    if !require(&[Tool::Clang, Tool::Lldb]) {
        return;
    }
    let sample = repo_root().join("samples/c-tictactoe-edgeless/bot.c");
    let line = line_after_marker(&sample, "botlens reports the panic on the next line");
    let dir = tempfile::tempdir().unwrap();
    let batch = dir.path().join("commands.lldb");
    std::fs::write(&batch, "continue\nbt 1\n").unwrap();
    let args = ["--vs", "perfect", "--seed", "4", "--debugger", "lldb"];
    let batch_args = ["--batch", batch.to_str().unwrap()];
    let out =
        botlens(&[&["debug", "samples/c-tictactoe-edgeless"][..], &args, &batch_args].concat());
    let all = format!("{}\n{}", out.stdout, out.stderr);
    assert_eq!(out.code, Some(0), "{all}");
    assert!(all.contains("stop reason = breakpoint 1.1"), "stopped at the hook: {all}");
    assert!(all.contains("# botlens: stopped as the bot begins its turn 5 (why: above)."), "{all}");
    let set = format!("breakpoint set --file \"{}\" --line {line}", sample.display());
    assert!(all.contains(&set), "{all}");
    assert!(all.contains("stop reason = breakpoint 2.1"), "continue reaches the line: {all}");
    assert!(all.contains(&format!("bot_play at bot.c:{line}")), "bt: {all}");
}

/// A C Tic-tac-toe bot in `dir` that loses its first turn with a panic whose message, and the
/// file name its `#line` gives the panic (and its debug info), try to run `touch` in the
/// debugger on files in `marks`; the files it would create.
fn hostile_c_bot(dir: &Path, marks: &Path) -> Vec<std::path::PathBuf> {
    let mark = |name: &str| marks.join(name);
    let (file, message, tick, dollar) =
        (mark("file"), mark("message"), mark("backtick"), mark("dollar"));
    let source = format!(
        r#"#include "botlens.h"

void bot_new(int seat) {{ (void)seat; }}

void bot_play(void) {{
#line 40 "bot.c\nshell touch {file}\necho "
    BOTLENS_PANIC("lost\nshell touch {message}\necho `shell touch {tick}` $(touch {dollar})");
}}
"#,
        file = file.display(),
        message = message.display(),
        tick = tick.display(),
        dollar = dollar.display(),
    );
    std::fs::write(dir.join("bot.c"), source).unwrap();
    std::fs::write(dir.join("botlens.toml"), "game = \"tictactoe\"\n").unwrap();
    vec![file, message, tick, dollar]
}

/// `botlens debug` of the hostile C bot under `debugger` with `batch` as its commands: exits 0,
/// runs none of the bot's commands, and says why the failing line has no breakpoint.
fn debug_the_hostile_bot(debugger: &str, batch: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let marks = tempfile::tempdir().unwrap();
    let planted = hostile_c_bot(dir.path(), marks.path());
    let commands = dir.path().join("commands");
    std::fs::write(&commands, batch).unwrap();
    let bot = dir.path().display().to_string();
    let args = ["debug", &bot, "--vs", "random", "--seed", "1", "--debugger", debugger];
    let out = botlens(&[&args[..], &["--batch", commands.to_str().unwrap()]].concat());
    let all = format!("{}\n{}", out.stdout, out.stderr);
    assert_eq!(out.code, Some(0), "{all}");
    for file in &planted {
        assert!(!file.exists(), "{debugger} ran the bot's `touch {}`:\n{all}", file.display());
    }
    let banner: Vec<&str> =
        out.stderr.lines().skip_while(|l| !l.starts_with("botlens: the bot failed")).collect();
    let (file, message) = (marks.path().join("file"), marks.path().join("message"));
    let (tick, dollar) = (marks.path().join("backtick"), marks.path().join("dollar"));
    // The bot's file, as its `#line` names it, in its folder.
    let place = format!(
        "{}/bot.c\\u{{a}}shell touch {}\\u{{a}}echo :40",
        dir.path().display(),
        file.display()
    );
    let failure = format!(
        "panic: lost\\u{{a}}shell touch {}\\u{{a}}echo `shell touch {}` $(touch {}) at {place}:5",
        message.display(),
        tick.display(),
        dollar.display(),
    );
    let locals = if debugger == "gdb" { "info locals" } else { "frame variable" };
    let expected = [
        format!("botlens: the bot failed on its turn 1 ({failure}); stopping as it begins."),
        format!(
            "botlens: no breakpoint is set on the failing line {place}: its file name holds a line break, which a debugger would read as part of a command."
        ),
        format!("botlens: then `bt`, `{locals}`, `print NAME`, `next`, `step`; `quit` to leave."),
        format!("botlens: starting {debugger}…"),
    ];
    assert!(banner.len() >= 4, "{all}");
    assert_eq!(banner[..4], expected, "{all}");
    all
}

#[test]
fn gdb_runs_no_command_a_bots_panic_message_or_file_name_holds() {
    if !require(&[Tool::Clang, Tool::Gdb]) {
        return;
    }
    let all = debug_the_hostile_bot("gdb", "continue\n");
    assert!(all.contains("botlens: stopped as the bot begins its turn 1 (why: above)."), "{all}");
}

#[test]
fn lldb_runs_no_command_a_bots_panic_message_or_file_name_holds() {
    if !require(&[Tool::Clang, Tool::Lldb]) {
        return;
    }
    let all = debug_the_hostile_bot("lldb", "continue\n");
    assert!(all.contains("# botlens: stopped as the bot begins its turn 1 (why: above)."), "{all}");
}

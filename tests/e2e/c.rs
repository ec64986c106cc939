//! Bots in C with botlens's `botlens.h`: `botlens new --lang c` scaffolds bots that build and
//! play clean; bad input is caught before any game (a compile error at its line and column, a
//! missing header, a missing clang named with its packages, a file that is not UTF-8); each way
//! a C bot can go wrong at run time is a located failure in the bot's own file, not in the SDK's
//! header nor in wasi-libc; and `replay` shows the sample's failure at its marked line.
//!
//! Every test runs clang (0.2 s a bot), so they need clang, lld, wasi-libc and
//! libclang-rt-dev-wasm32, as `.ci/run` installs.

use std::path::Path;
use std::time::Duration;

use crate::support::{
    Output, Tool, botlens_with_env, line_after_marker, only_failure, repo_root, require,
};

/// Deadline for a run that builds a C bot.
const DEADLINE: Duration = Duration::from_secs(120);

/// `botlens args…` with `env`.
fn botlens_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    botlens_with_env(args, "", DEADLINE, env)
}

/// `source` written as `<dir>/bot.c` of a Tic-tac-toe bot, then `botlens run <dir> --vs random
/// --seeds 0..4 --json`.
fn run_c(dir: &Path, source: &[u8]) -> Output {
    run_c_on(dir, "tictactoe", "random", source)
}

/// `source` written as `<dir>/bot.c` of a `game` bot, then `botlens run <dir> --vs <vs> --seeds
/// 0..4 --json`.
fn run_c_on(dir: &Path, game: &str, vs: &str, source: &[u8]) -> Output {
    std::fs::write(dir.join("bot.c"), source).expect("a temporary bot");
    let settings = format!("game = \"{game}\"\n");
    std::fs::write(dir.join("botlens.toml"), settings).expect("its settings");
    let dir = dir.display().to_string();
    botlens_env(&["run", &dir, "--vs", vs, "--seeds", "0..4", "--json"], &[])
}

/// The 1-based line of `source` that holds `marker`.
fn line_of(source: &str, marker: &str) -> u64 {
    let found: Vec<usize> =
        source.lines().enumerate().filter(|(_, l)| l.contains(marker)).map(|(i, _)| i).collect();
    let [line] = found[..] else { panic!("one line with {marker}: {found:?}") };
    line as u64 + 1
}

/// A Tic-tac-toe bot that takes the centre on its first turn and marks it again on the next,
/// an illegal move at its `/* here */` line.
const CENTRE_TWICE: &str = "#include \"botlens.h\"\n\nstatic int turn;\n\nvoid bot_play(void) {\n    \
    botlens_tictactoe_view view = botlens_tictactoe();\n    if (turn++ == 0 && view.board[4] == '.') {\n        \
    botlens_mark(1, 1);\n        return;\n    }\n    botlens_mark(1, 1); /* here */\n}\n";

/// The one failure of `out` (a run that lost): the illegal move at `source`'s `/* here */`
/// line, in `file`.
fn illegal_move_here(out: &Output, source: &str, file: &str) -> serde_json::Value {
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    let failure = only_failure(out);
    assert_eq!(failure["kind"], "illegal_move", "{failure:#}");
    assert_eq!(failure["file"].as_str(), Some(file), "{failure:#}");
    assert_eq!(failure["line"], line_of(source, "/* here */"), "{failure:#}");
    failure
}

#[test]
fn new_c_bots_build_and_play_clean() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for game in ["tictactoe", "battleships", "klotski"] {
        crate::support::new_bot_plays_clean(|args| botlens_env(args, &[]), "c", game, dir.path());
    }
}

/// A Tic-tac-toe bot that draws [`crate::support::DRAWN`] every turn with `botlens.h`, each
/// call below its marker, then marks the first free square.
const DRAWING_BOT: &str = r#"#include "botlens.h"

void bot_play(void) {
    botlens_tictactoe_view view = botlens_tictactoe();
    float heat[9];
    for (int i = 0; i < 9; i++) heat[i] = (float)i;
    // draws the cell
    botlens_draw_cell(1, 1, BOTLENS_RED);
    // draws the heat map
    botlens_draw_heat(3, heat, 9);
    // draws the arrow
    botlens_draw_arrow(0, 0, 2, 2, botlens_intensity(0.5f));
    // draws the label
    botlens_draw_label(0, 2, "hi", BOTLENS_RGB(1, 2, 3));
    // draws the status
    botlens_draw_status("thinking");
    for (int i = 0; i < 9; i++)
        if (view.board[i] == '.') { botlens_mark(i % 3, i / 3); return; }
}
"#;

#[test]
fn a_c_bots_marks_are_in_its_traces_at_its_lines() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    crate::support::assert_draws(|args| botlens_env(args, &[]), dir.path(), "bot.c", DRAWING_BOT);
}

#[test]
fn a_klotski_bots_bad_slide_fails_at_its_line() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // On 横刀立马 曹操 (cc), the goal piece, starts on the top row, as does the first piece.
    let cases = [
        ("botlens_move(view.goal.piece, BOTLENS_UP); /* here */", "illegal_move", "slide(cc, up)"),
        ("botlens_move(\"nobody\", BOTLENS_DOWN); /* here */", "illegal_move", "no piece `nobody`"),
        (
            "BOTLENS_CHECK(botlens_can_slide(&view, 0, BOTLENS_UP)); /* here */",
            "panic",
            "check failed: botlens_can_slide(&view, 0, BOTLENS_UP)",
        ),
    ];
    for (statement, kind, message) in cases {
        let source = format!(
            "#include \"botlens.h\"\n\nvoid bot_play(void) {{\n    botlens_klotski_view view = botlens_klotski();\n    BOTLENS_CHECK(view.piece_count == 10 && strcmp(view.goal.piece, \"cc\") == 0);\n    {statement}\n}}\n"
        );
        let out = run_c_on(dir.path(), "klotski", "hengdaolima", source.as_bytes());
        assert_eq!(out.code, Some(1), "{statement}: {}", out.stderr);
        let failure = only_failure(&out);
        assert_eq!(failure["kind"], kind, "{statement}: {failure:#}");
        assert!(failure["message"].as_str().unwrap().contains(message), "{failure:#}");
        assert_eq!(failure["line"], line_of(&source, "/* here */"), "{statement}: {failure:#}");
        if kind == "memory_limit" {
            let growth = &failure["memory_growth"][0];
            assert!(growth["file"].as_str().unwrap().ends_with("bot.c"), "{growth:#}");
            assert_eq!(growth["line"], failure["line"], "{growth:#}");
            assert_eq!(growth["function"], "bot_play", "{growth:#}");
        }
    }
}

#[test]
fn compile_errors_are_located_in_the_bots_file() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = run_c(
        dir.path(),
        b"#include \"botlens.h\"\nvoid bot_play(void) {\n  botlens_mark(0, 0)\n}\n",
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("bot.c:3:21: error: expected ';' after expression"),
        "{}",
        out.stderr
    );
    // A function declared and never defined: it compiles, and the link (a step of its own)
    // fails with the linker's message.
    let out = run_c(
        dir.path(),
        b"#include \"botlens.h\"\nint helper(void);\nvoid bot_play(void) {\n  botlens_mark(helper(), 0);\n}\n",
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("undefined symbol: helper"), "{}", out.stderr);
    // A misspelt header: clang's error, and what to include.
    let out = run_c(dir.path(), b"#include \"botlen.h\"\nvoid bot_play(void) {}\n");
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("bot.c:1:10: fatal error: 'botlen.h' file not found"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("add `#include \"botlens.h\"`"), "{}", out.stderr);
    // No header at all: the SDK's functions are undeclared.
    let out = run_c(dir.path(), b"void bot_play(void) {\n  botlens_mark(0, 0);\n}\n");
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("bot.c:2:3: error: implicit declaration of function 'botlens_mark'"),
        "{}",
        out.stderr
    );
}

#[test]
fn without_clang_the_packages_to_install_are_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.c"), "#include \"botlens.h\"\nvoid bot_play(void) {}\n")
        .unwrap();
    let bot = dir.path().display().to_string();
    let empty = tempfile::tempdir().unwrap();
    let path = empty.path().display().to_string();
    let out = botlens_env(&["run", &bot, "--game", "tictactoe"], &[("PATH", &path)]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    for part in [
        "building a C bot needs clang (package clang), wasm-ld (package lld)",
        "sudo apt-get install -y clang lld wasi-libc libclang-rt-dev-wasm32",
    ] {
        assert!(out.stderr.contains(part), "{}", out.stderr);
    }
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
}

#[test]
fn a_file_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = run_c(dir.path(), b"#include \"botlens.h\"\n/* \xff */\nvoid bot_play(void) {}\n");
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("bot.c:2:4: the file is not UTF-8 text (C sources must be UTF-8)"),
        "{}",
        out.stderr
    );
}

#[test]
fn bad_bots_fail_located_in_their_own_file() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("botlens_mark(1, 1); /* here */", "illegal_move", "illegal move mark(1, 1)"),
        ("assert(view.you == 'Z'); /* here */", "panic", "assertion failed: view.you == 'Z'"),
        ("BOTLENS_PANIC(\"no plan\"); /* here */", "panic", "no plan"),
        (
            "botlens_cell(view.board, 3, 0); /* here */",
            "panic",
            "square (3, 0) is off the 3x3 board",
        ),
        ("*(volatile int *)0xfffffff0 = 1; /* here */", "trap", "out of bounds memory access"),
        (
            "botlens_mark(0, 0); botlens_mark(2, 2); /* here */",
            "second_move",
            "second action mark(2, 2) in one turn",
        ),
        // Allocated in wasi-libc's dlmalloc, but kept by the bot's line.
        (
            "for (int i = 0; i < 100; i++) kept = malloc(1 << 20); /* here */",
            "memory_limit",
            "the bot tried to grow its memory",
        ),
    ];
    for (statement, kind, message) in cases {
        // The centre first, so that marking it again is illegal on the next turn.
        let source = format!(
            "#include <assert.h>\n#include <stdlib.h>\n#include \"botlens.h\"\n\nstatic int turn;\nstatic char *volatile kept;\n\nvoid bot_play(void) {{\n    botlens_tictactoe_view view = botlens_tictactoe();\n    (void)view;\n    if (turn++ == 0 && view.board[4] == '.') {{\n        botlens_mark(1, 1);\n        return;\n    }}\n    {statement}\n}}\n"
        );
        let out = run_c(dir.path(), source.as_bytes());
        assert_eq!(out.code, Some(1), "{statement}: {}", out.stderr);
        let failure = only_failure(&out);
        assert_eq!(failure["kind"], kind, "{statement}: {failure:#}");
        assert!(failure["message"].as_str().unwrap().contains(message), "{failure:#}");
        assert!(failure["file"].as_str().unwrap().ends_with("bot.c"), "{failure:#}");
        assert_eq!(failure["line"], line_of(&source, "/* here */"), "{statement}: {failure:#}");
        if kind == "memory_limit" {
            let growth = &failure["memory_growth"][0];
            assert!(growth["file"].as_str().unwrap().ends_with("bot.c"), "{growth:#}");
            assert_eq!(growth["line"], failure["line"], "{growth:#}");
            assert_eq!(growth["function"], "bot_play", "{growth:#}");
        }
    }
}

#[test]
fn replay_shows_the_samples_failure_at_its_marked_line() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let sample = repo_root().join("samples/c-tictactoe-edgeless");
    let line =
        line_after_marker(&sample.join("bot.c"), "botlens reports the panic on the next line");
    let args =
        ["replay", "samples/c-tictactoe-edgeless", "--vs", "perfect", "--seed", "4", "--plain"];
    let out = botlens_env(&args, &[]);
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("assertion failed: square >= 0"), "{}", out.stdout);
    assert!(out.stdout.contains(&format!("c-tictactoe-edgeless/bot.c:{line}:")), "{}", out.stdout);
}

/// After an optimised link, clang runs binaryen's `wasm-opt` when it finds one on `PATH`, which
/// drops the module's DWARF; botlens links without `-O`, so a `wasm-opt` on `PATH` (here one
/// that empties the module it is given) is never run, and a failure is still located at its
/// line.
#[test]
fn a_wasm_opt_on_the_path_is_never_run_and_failures_keep_their_lines() {
    use std::os::unix::fs::PermissionsExt as _;
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Inside the bot's folder, which clang may read: where it would find and run it.
    let tools = dir.path().join("tools");
    std::fs::create_dir(&tools).unwrap();
    let wasm_opt = tools.join("wasm-opt");
    std::fs::write(&wasm_opt, "#!/bin/sh\n: > \"$1\"\n").unwrap();
    std::fs::set_permissions(&wasm_opt, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", tools.display(), std::env::var("PATH").unwrap_or_default());
    std::fs::write(dir.path().join("bot.c"), CENTRE_TWICE).unwrap();
    std::fs::write(dir.path().join("botlens.toml"), "game = \"tictactoe\"\n").unwrap();
    let bot = dir.path().display().to_string();
    let args = ["run", &bot, "--vs", "random", "--seeds", "0..4", "--json"];
    let out = botlens_env(&args, &[("PATH", &path)]);
    let file = dir.path().join("bot.c").display().to_string();
    illegal_move_here(&out, CENTRE_TWICE, &file);
}

/// A bot of two files, one with dots in its name: each is compiled to its own object
/// (`rules.v2.o`, as clang names it), both are linked, and the failure keeps its line.
#[test]
fn a_bot_of_several_files_with_dots_in_their_names_is_built_from_all_of_them() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("rules.v2.c"), "int plays_centre(void) { return 1; }\n")
        .unwrap();
    let source = "#include \"botlens.h\"\n\nint plays_centre(void);\nstatic int turn;\n\n\
        void bot_play(void) {\n    botlens_tictactoe_view view = botlens_tictactoe();\n    \
        if (turn++ == 0 && view.board[4] == '.') {\n        botlens_mark(1, 1);\n        return;\n    }\n    \
        if (plays_centre()) botlens_mark(1, 1); /* here */\n}\n";
    let out = run_c(dir.path(), source.as_bytes());
    let file = dir.path().join("bot.c").display().to_string();
    illegal_move_here(&out, source, &file);
}

#[test]
fn a_lone_c_file_is_a_bot_and_its_planted_bug_is_located_at_its_line() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let made = dir.path().join("made");
    let made_text = made.display().to_string();
    let out = botlens_env(&["new", "tictactoe", &made_text, "--lang", "c"], &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let lone = dir.path().join("lone");
    std::fs::create_dir(&lone).unwrap();
    std::fs::copy(made.join("bot.c"), lone.join("mine.c")).unwrap();
    // Beside it, another bot: were it built with the lone file, `bot_play` would clash.
    std::fs::copy(made.join("bot.c"), lone.join("other.c")).unwrap();
    let mine = lone.join("mine.c").display().to_string();
    let out = botlens_env(&["run", &mine, "--game", "tictactoe", "--json"], &[]);
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    crate::support::assert_played_clean(&out.stdout, 40);

    std::fs::write(lone.join("mine.c"), CENTRE_TWICE).unwrap();
    let args = ["run", &mine, "--game", "tictactoe", "--vs", "random", "--seeds", "0..4", "--json"];
    let out = botlens_env(&args, &[]);
    let failure = illegal_move_here(&out, CENTRE_TWICE, &mine);
    let line = line_of(CENTRE_TWICE, "/* here */");
    // Its replay line names the file and the game, and replays the failure at its line.
    let replay = failure["replay"].as_str().unwrap();
    let seed = failure["first_seed"].to_string();
    let expected = format!("botlens replay {mine} --game tictactoe --vs random --seed {seed}");
    assert_eq!(replay, expected, "{failure:#}");
    let args = ["replay", &mine, "--game", "tictactoe", "--vs", "random", "--seed", &seed];
    let out = botlens_env(&[&args[..], &["--plain"]].concat(), &[]);
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains(&format!("{mine}:{line}:")), "{}", out.stdout);

    // A file of a language botlens does not build is refused, naming those it does.
    let ruby = lone.join("bot.rb");
    std::fs::write(&ruby, "puts 1\n").unwrap();
    let out = botlens_env(&["run", &ruby.display().to_string(), "--game", "tictactoe"], &[]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("(.js, .py, .c, .zig or .ts)"), "{}", out.stderr);
}

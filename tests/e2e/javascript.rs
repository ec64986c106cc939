//! `botlens run` on JavaScript bots in the arena's format: bad input is caught before any game
//! (a syntax error at its line and column, a file that is not UTF-8), each way a bot can go
//! wrong at run time is a located failure in the bot's own file, and `botlens new --lang js`
//! scaffolds bots that play clean.
//!
//! The first JavaScript run of a botlens build builds its JavaScript runner (a minute or two;
//! it needs clang, lld, wasi-libc and libclang-rt-dev-wasm32), so the deadline is generous.

use std::path::Path;
use std::time::Duration;

use crate::support::{Output, botlens_with_input, only_failure};

/// Long enough for the runner's first build on a busy machine.
const DEADLINE: Duration = Duration::from_secs(900);

/// `botlens run <dir>/bot.js --game tictactoe --vs random --seeds 0..4 --json` on `source`.
fn run_js(dir: &Path, source: &[u8]) -> Output {
    let file = dir.join("bot.js");
    std::fs::write(&file, source).expect("a temporary bot");
    let file = file.display().to_string();
    let args = ["run", &file, "--game", "tictactoe", "--vs", "random", "--seeds", "0..4", "--json"];
    botlens_with_input(&args, "", DEADLINE)
}

#[test]
fn a_syntax_error_is_reported_at_its_line_and_column_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_js(
        dir.path(),
        b"function Bot() {}\n\nBot.prototype.play = function (turn) {\n  turn.mark(0, 0;\n};\n",
    );
    assert_eq!(out.code, Some(2), "{}\n{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("SyntaxError"), "{}", out.stderr);
    assert!(out.stderr.contains("bot.js:4:17"), "{}", out.stderr);
    assert!(out.stdout.trim().is_empty() || !out.stdout.contains("\"games\""), "{}", out.stdout);
}

#[test]
fn a_file_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_js(dir.path(), b"function Bot() {}\n// \xff\n");
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("bot.js:2:4: the file is not UTF-8 text"), "{}", out.stderr);
}

#[test]
fn bad_bots_fail_located_in_their_own_file() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[u8], &str, &str, u64); 4] = [
        (b"function Robot() {}\n", "panic", "does not define `function Bot()", 1),
        (b"function Bot() {}\nBot.prototype.play = 3;\n", "panic", "is not a function", 1),
        (b"function Bot() {\n  throw new Error('no');\n}\n", "panic", "uncaught Error: no", 2),
        (
            b"function Bot() {}\nBot.prototype.play = function (turn) {\n  turn.mark(1, 1);\n};\n",
            "illegal_move",
            "illegal move mark(1, 1)",
            3,
        ),
    ];
    for (source, kind, message, line) in cases {
        let out = run_js(dir.path(), source);
        assert_eq!(out.code, Some(1), "{}", out.stderr);
        let failure = only_failure(&out);
        assert_eq!(failure["kind"], kind, "{failure:#}");
        assert!(failure["message"].as_str().unwrap().contains(message), "{failure:#}");
        assert!(failure["file"].as_str().unwrap().ends_with("bot.js"), "{failure:#}");
        assert_eq!(failure["line"], line, "{failure:#}");
    }
}

#[test]
fn new_javascript_bots_play_clean() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["tictactoe", "battleships"] {
        let bot = dir.path().join(format!("js-{game}")).display().to_string();
        let made = botlens_with_input(&["new", game, &bot, "--lang", "js"], "", DEADLINE);
        assert_eq!(made.code, Some(0), "{}", made.stderr);
        assert!(made.stdout.contains("bot.js"), "{}", made.stdout);
        let out = botlens_with_input(&["run", &bot, "--json"], "", DEADLINE);
        assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
        let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(report["failures"].as_array().map(Vec::len), Some(0), "{report:#}");
    }
}

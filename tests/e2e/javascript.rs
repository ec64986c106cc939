//! `botlens run` on JavaScript bots in the arena's format: bad input is caught before any game
//! (a syntax error at its line and column, a file that is not UTF-8), each way a bot can go
//! wrong at run time is a located failure in the bot's own file, and `botlens new --lang js`
//! scaffolds bots that play clean.
//!
//! The first JavaScript run of a botlens build builds its JavaScript runner (a minute or two;
//! it needs clang, lld, wasi-libc and libclang-rt-dev-wasm32), so the deadline is generous.

use std::path::Path;
use std::time::Duration;

use crate::support::{Output, Tool, botlens_with_input, line_after_marker, only_failure, require};

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
    if !require(&[Tool::Clang]) {
        return;
    }
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
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = run_js(dir.path(), b"function Bot() {}\n// \xff\n");
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("bot.js:2:4: the file is not UTF-8 text"), "{}", out.stderr);
}

#[test]
fn bad_bots_fail_located_in_their_own_file() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[u8], &str, &str, u64); 5] = [
        (b"function Robot() {}\n", "panic", "does not define `function Bot()", 1),
        (b"function Bot() {}\nBot.prototype.play = 3;\n", "panic", "is not a function", 1),
        (b"function Bot() {\n  throw new Error('no');\n}\n", "panic", "uncaught Error: no", 2),
        (
            b"function Bot() {}\nBot.prototype.play = function (turn) {\n  turn.mark(1, 1);\n};\n",
            "illegal_move",
            "illegal move mark(1, 1)",
            3,
        ),
        (
            b"function Bot() {}\nBot.prototype.play = function (turn) {\n  turn.mark('a', 1);\n};\n",
            "malformed_message",
            "not a tictactoe action",
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

/// A Tic-tac-toe bot folder in `dir` with `source` as its `bot.js` and a turn budget of 40
/// million units of fuel (a tenth of the default, so an endless loop ends soon).
fn js_folder(dir: &Path, source: &str) -> String {
    let config = "game = \"tictactoe\"\nopponents = [\"random\"]\nseeds = \"0..6\"\n\n[limits]\nfuel_per_turn = 40_000_000\n";
    std::fs::write(dir.join("botlens.toml"), config).expect("a temporary config");
    std::fs::write(dir.join("bot.js"), source).expect("a temporary bot");
    dir.display().to_string()
}

/// The marked line of `dir`'s `bot.js`.
fn marked(dir: &Path, marker: &str) -> u64 {
    line_after_marker(&dir.join("bot.js"), marker)
}

#[test]
fn a_play_that_returns_without_a_move_is_located_at_its_definition() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = js_folder(
        dir.path(),
        "function Bot() {}\n\n\
         // botlens reports the no_move on the next line\n\
         Bot.prototype.play = function (turn) {\n\
         \x20 if (Math.random() < 0.4) return;\n\
         \x20 for (var i = 0; i < 9; i++) {\n\
         \x20   if (turn.grid[Math.floor(i / 3)][i % 3] === '') return turn.mark(i % 3, Math.floor(i / 3));\n\
         \x20 }\n\
         };\n",
    );
    let out = botlens_with_input(&["run", &bot, "--json"], "", DEADLINE);
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    let failure = only_failure(&out);
    assert_eq!(failure["kind"], "no_move", "{failure:#}");
    assert!(failure["file"].as_str().unwrap().ends_with("bot.js"), "{failure:#}");
    let line = marked(dir.path(), "botlens reports the no_move on the next line");
    assert_eq!(failure["line"], line, "{failure:#}");
}

#[test]
fn an_endless_loop_is_located_in_the_bot_and_a_long_turn_still_finishes() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // `while (true) {}` makes no call: QuickJS records no line in `spin` for it, so the
    // innermost line it names is the call of `spin`.
    let bot = js_folder(
        dir.path(),
        "function Bot() {}\n\n\
         function spin() {\n\
         \x20 while (true) {}\n\
         }\n\n\
         function spinCalling(turn) {\n\
         \x20 var n = 0;\n\
         \x20 while (n >= 0) {\n\
         \x20   // botlens reports the looping call on the next line\n\
         \x20   n = Math.max(n, turn.grid.length);\n\
         \x20 }\n\
         }\n\n\
         Bot.prototype.play = function (turn) {\n\
         \x20 if (Math.random() < 0.5) {\n\
         \x20   // botlens reports the out_of_fuel on the next line\n\
         \x20   spin();\n\
         \x20 }\n\
         \x20 spinCalling(turn);\n\
         };\n",
    );
    let out = botlens_with_input(&["run", &bot, "--json"], "", DEADLINE);
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let failures = report["failures"].as_array().unwrap();
    let lines: Vec<(&str, u64)> = failures
        .iter()
        .map(|f| (f["kind"].as_str().unwrap(), f["line"].as_u64().unwrap_or(0)))
        .collect();
    let call = marked(dir.path(), "botlens reports the out_of_fuel on the next line");
    let looping = marked(dir.path(), "botlens reports the looping call on the next line");
    let mut found: Vec<(&str, u64)> = lines.clone();
    found.sort_unstable();
    found.dedup();
    let mut expected = vec![("out_of_fuel", call), ("out_of_fuel", looping)];
    expected.sort_unstable();
    assert_eq!(found, expected, "{report:#}");

    // A turn that burns most of its budget legitimately (looked at many times) still finishes,
    // and plays the same game every time.
    let heavy = tempfile::tempdir().unwrap();
    let bot = js_folder(
        heavy.path(),
        "function Bot() {}\n\n\
         function work(n) {\n\
         \x20 var s = 0;\n\
         \x20 for (var i = 0; i < n; i++) s += Math.sqrt(i);\n\
         \x20 return s;\n\
         }\n\n\
         Bot.prototype.play = function (turn) {\n\
         \x20 if (work(20000) < 0) return;\n\
         \x20 for (var i = 0; i < 9; i++) {\n\
         \x20   if (turn.grid[Math.floor(i / 3)][i % 3] === '') return turn.mark(i % 3, Math.floor(i / 3));\n\
         \x20 }\n\
         };\n",
    );
    let traces = |name: &str| {
        let dir = heavy.path().join(name);
        let dir_arg = dir.display().to_string();
        let out =
            botlens_with_input(&["run", &bot, "--trace-dir", &dir_arg, "--json"], "", DEADLINE);
        assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
        let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(report["failures"].as_array().map(Vec::len), Some(0), "{report:#}");
        let mut files: Vec<_> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect::<Vec<_>>()
    };
    let first = traces("first");
    let trace: serde_json::Value = serde_json::from_str(&first[0]).unwrap();
    let most = trace["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == 0)
        .filter_map(|m| m["cost"]["fuel"].as_u64())
        .max()
        .unwrap();
    assert!((10_000_000..40_000_000).contains(&most), "a turn of {most} fuel");
    assert_eq!(first, traces("second"), "the same games");
}

#[test]
fn new_javascript_bots_play_clean() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for game in ["tictactoe", "battleships", "klotski"] {
        let botlens = |args: &[&str]| botlens_with_input(args, "", DEADLINE);
        crate::support::new_bot_plays_clean(botlens, "js", game, dir.path());
    }
}

/// The frames of a JSON call stack: (function, line).
fn frames(stack: &serde_json::Value) -> Vec<(String, u64)> {
    let frames = stack["frames"].as_array().unwrap_or_else(|| panic!("a stack: {stack:#}"));
    let frame = |f: &serde_json::Value| {
        let line = f["location"]["line"].as_u64().unwrap_or(0);
        (f["function"].as_str().unwrap().to_owned(), line)
    };
    frames.iter().map(frame).collect()
}

#[test]
fn wasted_and_losing_moves_are_located_with_the_javascript_stack() {
    if !require(&[Tool::Clang]) {
        return;
    }
    // Every tenth turn re-attacks the square of the first: legal, wasted, a warning at its line
    // with the stack that led there.
    let dir = tempfile::tempdir().unwrap();
    let bot = crate::support::sweeping_js_bot(dir.path(), "0, 0");
    let shot = marked(dir.path(), "botlens reports the shot on the next line");
    let call = marked(dir.path(), "botlens reports the call of again on the next line");
    let out = botlens_with_input(&["run", &bot, "--json"], "", DEADLINE);
    assert_eq!(out.code, Some(0), "wasted moves lose nothing: {}\n{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let [wasteful] = report["wasteful"].as_array().unwrap().as_slice() else {
        panic!("one opponent wasted moves: {report:#}")
    };
    assert_eq!(wasteful["games"], 3, "every game lasts over ten turns: {wasteful:#}");
    let [site] = wasteful["sites"].as_array().unwrap().as_slice() else {
        panic!("one line wasted them: {wasteful:#}")
    };
    assert_eq!(site["line"].as_u64(), Some(shot), "{site:#}");
    assert!(site["file"].as_str().unwrap().ends_with("bot.js"), "{site:#}");
    assert_eq!(site["function"], "again", "{site:#}");
    assert_eq!(site["action"], "attack(0, 0)", "{site:#}");
    assert_eq!(site["first_turn"].as_u64().map(|turn| turn >= 19), Some(true), "{site:#}");
    let stack = frames(&site["stack"]);
    assert_eq!(stack.len(), 2, "again and play: {site:#}");
    assert_eq!(stack[0], ("again".to_owned(), shot), "{site:#}");
    assert_eq!(stack[1], ("play".to_owned(), call), "play, at its call of again: {site:#}");
    let text = botlens_with_input(&["run", &bot], "", DEADLINE);
    assert_eq!(text.code, Some(0), "{}", text.stderr);
    assert!(
        text.stdout.contains("wasted moves (re-attacks) in 3 games vs random"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains(&format!("bot.js:{shot}:")), "{}", text.stdout);
    assert!(text.stdout.contains("in again ← play,"), "{}", text.stdout);

    // Off the board instead: the game is lost at the same line, with the same stack.
    let off = tempfile::tempdir().unwrap();
    let bot = crate::support::sweeping_js_bot(off.path(), "10, 0");
    let out = botlens_with_input(&["run", &bot, "--json"], "", DEADLINE);
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    let failure = only_failure(&out);
    assert_eq!(failure["kind"], "illegal_move", "{failure:#}");
    assert_eq!(failure["line"].as_u64(), Some(shot), "{failure:#}");
    let stack = frames(&failure["stack"]);
    assert_eq!(stack.len(), 2, "{failure:#}");
    assert_eq!((&stack[0].0[..], stack[0].1, stack[1].1), ("again", shot, call), "{failure:#}");
}

/// A Tic-tac-toe bot that marks the first empty square, `before` run first in its `play`.
fn marking_bot(before: &str) -> String {
    format!(
        "function Bot() {{}}\n\
         Bot.prototype.play = function (turn) {{\n\
         \x20 {before}\n\
         \x20 for (var i = 0; i < 9; i++) {{\n\
         \x20   if (turn.grid[Math.floor(i / 3)][i % 3] === '') return turn.mark(i % 3, Math.floor(i / 3));\n\
         \x20 }}\n\
         }};\n"
    )
}

#[test]
fn a_lone_surrogate_is_logged_as_a_replacement_character() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().join("traces");
    let bot = js_folder(dir.path(), &marking_bot("console.log('half \\ud800 of a pair');"));
    let traces_arg = traces.display().to_string();
    let args = ["run", &bot, "--seeds", "0..1", "--trace-dir", &traces_arg, "--json"];
    let out = botlens_with_input(&args, "", DEADLINE);
    assert_eq!(out.code, Some(0), "the log loses nothing: {}\n{}", out.stdout, out.stderr);
    let trace = std::fs::read_dir(&traces).unwrap().next().unwrap().unwrap().path();
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(trace).unwrap()).unwrap();
    let logs: Vec<&str> = trace["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["logs"].as_array())
        .flatten()
        .filter_map(|line| line.as_str())
        .collect();
    assert_eq!(logs.first(), Some(&"half \u{fffd} of a pair"), "{trace:#}");
}

#[test]
fn a_raw_nul_in_the_source_is_a_compile_error_at_its_place() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = marking_bot("var s = 'a\0b';");
    let out = run_js(dir.path(), source.as_bytes());
    assert_eq!(out.code, Some(2), "{}\n{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("a raw NUL character (U+0000) in the source"), "{}", out.stderr);
    assert!(out.stderr.contains("bot.js:3:13"), "{}", out.stderr);
    assert!(out.stdout.trim().is_empty(), "no game was played: {}", out.stdout);
}

#[test]
fn an_async_play_is_told_that_the_format_is_synchronous() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = js_folder(
        dir.path(),
        "function Bot() {}\n\
         // botlens reports the async play on the next line\n\
         Bot.prototype.play = async function (turn) {\n\
         \x20 await null;\n\
         \x20 turn.mark(0, 0);\n\
         };\n",
    );
    let out = botlens_with_input(&["run", &bot, "--json"], "", DEADLINE);
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    let failure = only_failure(&out);
    assert_eq!(failure["kind"], "panic", "{failure:#}");
    assert_eq!(
        failure["message"],
        "`play` returned a Promise (is it `async`?) without making a move: the arena's format is \
         synchronous, so the move must be made before `play` returns; make `play` a plain \
         function (no `async`, no `await`)",
        "{failure:#}"
    );
    let line = marked(dir.path(), "botlens reports the async play on the next line");
    assert_eq!(failure["line"], line, "{failure:#}");
}

#[test]
fn a_newline_in_the_bots_path_runs_none_of_the_path() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let evil = dir.path().join("x\nthrow new Error('the path ran');//");
    std::fs::create_dir(&evil).unwrap();
    let out = run_js(&evil, marking_bot("").as_bytes());
    assert_eq!(out.code, Some(2), "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.trim().is_empty(), "no game was played: {}", out.stdout);
    assert!(
        out.stderr.ends_with(
            "the bot's path has a control character (\\u{a}); the runner names the bot's file \
             in its stacks and messages, one per line: rename the file or its folders\n"
        ),
        "{}",
        out.stderr
    );
}

/// `source` as a lone `bot.js` in `dir`, run with `game` against random on seeds 0..2.
fn run_lone(dir: &Path, game: &str, source: &str) -> serde_json::Value {
    let file = dir.join("bot.js");
    std::fs::write(&file, source).expect("a temporary bot");
    let file = file.display().to_string();
    let args = ["run", &file, "--game", game, "--vs", "random", "--seeds", "0..2", "--json"];
    let out = botlens_with_input(&args, "", DEADLINE);
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    only_failure(&out)
}

/// The 1-based line and column of `needle` in `source`, the only line that holds it.
fn place(source: &str, needle: &str) -> (u64, u64) {
    let found: Vec<(usize, usize)> = source
        .lines()
        .enumerate()
        .filter_map(|(index, line)| line.find(needle).map(|column| (index, column)))
        .collect();
    let [(line, column)] = found[..] else { panic!("one line with {needle}: {found:?}") };
    (line as u64 + 1, column as u64 + 1)
}

#[test]
fn recursion_leaks_prototype_methods_calls_and_the_wrong_game_are_the_bots_own() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let with = |body: &str| {
        format!(
            "function Bot() {{\n  this.kept = [];\n}}\n\nfunction depth(n) {{\n  return depth(n + 1) + 1;\n}}\n\nBot.prototype.pickHunt = function (turn) {{\n  var none = null;\n  return none.x;\n}};\n\nBot.prototype.play = function (turn) {{\n  {body}\n}};\n"
        )
    };

    // Endless recursion: the engine's own stack runs out, and the failure is at the recursive
    // call, where the fix goes, not "no source location".
    let source = with("depth(0);");
    let failure = run_lone(dir.path(), "battleships", &source);
    assert_eq!(failure["kind"], "stack_overflow", "{failure:#}");
    let (line, column) = place(&source, "depth(n + 1)");
    assert_eq!(
        (&failure["line"], &failure["column"]),
        (&line.into(), &column.into()),
        "{failure:#}"
    );
    let message = failure["message"].as_str().unwrap();
    assert!(message.contains("; the recursion depth → depth repeated at least "), "{message}");

    // A method assigned to the prototype is named after its property in stacks and messages.
    let source = with("this.pickHunt(turn);");
    let failure = run_lone(dir.path(), "battleships", &source);
    assert_eq!(failure["kind"], "panic", "{failure:#}");
    let message = failure["message"].as_str().unwrap();
    let (line, _) = place(&source, "none.x");
    let (call, column) = place(&source, "pickHunt(turn)");
    assert!(message.contains(&format!("\n    at pickHunt (bot.js:{line}:")), "{message}");
    // The caller's place is its call, the called function's name.
    assert!(message.contains(&format!("\n    at play (bot.js:{call}:{column})")), "{message}");
    assert_eq!(
        frames(&failure["stack"]),
        [("pickHunt".to_owned(), line), ("play".to_owned(), call)]
    );

    // A losing move's caret is on the call, not its last argument.
    let source = with("var x = 9;\n  turn.attack(x + 1, 0);");
    let failure = run_lone(dir.path(), "battleships", &source);
    assert_eq!(failure["kind"], "illegal_move", "{failure:#}");
    let (line, column) = place(&source, "attack(x + 1");
    assert_eq!(
        (&failure["line"], &failure["column"]),
        (&line.into(), &column.into()),
        "{failure:#}"
    );

    // Memory kept in a field until the limit: at the line that keeps it.
    let source = with(
        "this.kept.push(turn.targets.repeat(80000));\n  turn.attack(0, this.kept.length % 10);",
    );
    let failure = run_lone(dir.path(), "battleships", &source);
    assert_eq!(failure["kind"], "memory_limit", "{failure:#}");
    let (line, _) = place(&source, "this.kept.push");
    assert_eq!(failure["line"], line, "{failure:#}");

    // A Battleships bot run as Tic-tac-toe: the failure says which game it reads.
    let source = with("if (turn.targets[0] === '.') turn.attack(0, 0);");
    let failure = run_lone(dir.path(), "tictactoe", &source);
    assert_eq!(failure["kind"], "panic", "{failure:#}");
    assert!(
        failure["message"].as_str().unwrap().contains(
            "(turn.targets is a Battleships turn's, and this game is Tic-tac-toe: is the bot written for battleships? Run it with --game battleships, or name its game in a botlens.toml beside it)"
        ),
        "{failure:#}"
    );
    let source = with("turn.attack(0, 0);");
    let failure = run_lone(dir.path(), "tictactoe", &source);
    assert!(
        failure["message"].as_str().unwrap().starts_with(
            "uncaught TypeError: turn.attack() is a Battleships turn's, and this game is Tic-tac-toe"
        ),
        "{failure:#}"
    );
}

/// A Tic-tac-toe bot that draws [`crate::support::DRAWN`] every turn with the global `draw`,
/// each call below its marker, then marks the first free square.
const DRAWING_BOT: &str = "function Bot() {}

Bot.prototype.play = function (turn) {
  var heat = [];
  for (var i = 0; i < 9; i++) heat.push(i);
  // draws the cell
  draw.cell(1, 1, draw.RED);
  // draws the heat map
  draw.heat(3, heat);
  // draws the arrow
  draw.arrow(0, 0, 2, 2, draw.intensity(0.5));
  // draws the label
  draw.label(0, 2, 'hi', draw.rgb(1, 2, 3));
  // draws the status
  draw.status('thinking');
  for (var i = 0; i < 9; i++) {
    if (turn.grid[Math.floor(i / 3)][i % 3] === '') return turn.mark(i % 3, Math.floor(i / 3));
  }
};
";

#[test]
fn a_javascript_bots_marks_are_in_its_traces_at_its_lines_and_columns() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let botlens = |args: &[&str]| botlens_with_input(args, "", DEADLINE);
    crate::support::assert_draws(botlens, dir.path(), "bot.js", DRAWING_BOT);
    // Each mark is located at its call, as a move is: the column of the function's name.
    let trace = std::fs::read_to_string(dir.path().join("traces/random-seed0.json")).unwrap();
    let trace: serde_json::Value = serde_json::from_str(&trace).unwrap();
    let drawing = crate::support::bot_drawings(&trace)[0];
    let (_, column) = place(DRAWING_BOT, "cell(1, 1");
    assert_eq!(drawing["marks"][0]["location"]["column"].as_u64(), Some(column), "{drawing:#}");
}

/// A Tic-tac-toe bot whose every turn draws with arguments of every wrong kind, then 300 cells
/// (past the 256 marks a turn keeps), then marks the first free square.
const HOSTILE_DRAWING_BOT: &str = "function Bot() {}

var sneaky = { toString: function () { throw new Error('never called'); }, valueOf: function () { throw new Error('never called'); } };

Bot.prototype.play = function (turn) {
  draw.heat(3, 'not an array');
  draw.heat(3, { length: 1e9 });
  draw.heat(3, new Array(5000).fill(1));
  draw.heat(NaN, [1, 2, 3]);
  draw.heat(3, [1, 2, 3].concat([sneaky]));
  // the mixed heat map
  draw.heat(3, [1, 'a', NaN, null, {}, 2]);
  draw.cell('1', 1, draw.RED);
  draw.cell(1, 1);
  draw.cell(sneaky, 1, draw.RED);
  draw.arrow(0, 0, Infinity, 1, draw.BLUE);
  draw.label(1, 1, sneaky, draw.RED);
  draw.label(1, 1, 42, draw.GREEN);
  draw.label(1, 1, '\\ud800x', draw.GREEN);
  draw.status(Symbol('no'));
  draw.status(undefined);
  draw.status('x'.repeat(100000));
  for (var i = 0; i < 300; i++) draw.cell(i % 3, 0, draw.rgb(i, 300, -5));
  for (var i = 0; i < 9; i++) {
    if (turn.grid[Math.floor(i / 3)][i % 3] === '') return turn.mark(i % 3, Math.floor(i / 3));
  }
};
";

#[test]
fn hostile_drawing_arguments_drop_marks_and_the_game_plays_on() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let botlens = |args: &[&str]| botlens_with_input(args, "", DEADLINE);
    let traces = crate::support::drawing_traces(botlens, dir.path(), "bot.js", HOSTILE_DRAWING_BOT);
    let heat_line = marked(dir.path(), "the mixed heat map");
    for trace in &traces {
        for drawing in crate::support::bot_drawings(trace) {
            let marks = drawing["marks"].as_array().unwrap();
            // Kept: the two heat maps (their values that are not numbers unshaded, `sneaky`
            // never asked for one), the two labels and the first 252 cells.
            assert_eq!(marks.len(), 256, "{drawing:#}");
            let shape = |mark: &serde_json::Value| {
                let mut shape = mark.clone();
                shape.as_object_mut().unwrap().remove("location");
                shape
            };
            let heat = |values| serde_json::json!({"kind": "heat", "width": 3, "values": values});
            assert_eq!(shape(&marks[0]), heat(serde_json::json!([1.0, 2.0, 3.0, null])));
            let mixed = serde_json::json!([1.0, null, null, null, null, 2.0]);
            assert_eq!(shape(&marks[1]), heat(mixed), "{drawing:#}");
            assert_eq!(marks[1]["location"]["line"].as_u64(), Some(heat_line), "{drawing:#}");
            let texts: Vec<&str> =
                marks[2..4].iter().map(|m| m["text"].as_str().unwrap()).collect();
            assert_eq!(texts, ["42", "\u{fffd}x"], "{drawing:#}");
            assert_eq!(marks[4]["colour"], serde_json::json!({"rgb": 0x00ff00}), "{drawing:#}");
            // Dropped and counted: the other twelve, and the 48 cells past the bound.
            assert_eq!(drawing["dropped"].as_u64(), Some(12 + 48), "{drawing:#}");
        }
    }
}

#[test]
fn a_failure_after_a_mark_is_located_as_without_it() {
    if !require(&[Tool::Clang]) {
        return;
    }
    // The runner states the drawing line for the mark, then what it stated before, so the
    // endless loop after the mark is not located at the mark's line: it is located where the
    // runner says the bot was when the fuel ran out (`botlens_where`): the call of `spin`.
    let failure = |before_the_loop: &str| {
        let dir = tempfile::tempdir().unwrap();
        let config = "game = \"tictactoe\"\nopponents = [\"random\"]\nseeds = \"0..2\"\n\n\
                      [limits]\nfuel_per_turn = 3_000_000\n";
        std::fs::write(dir.path().join("botlens.toml"), config).unwrap();
        let source = format!(
            "function Bot() {{\n  this.turns = 0;\n}}\n\n\
             function spin() {{\n  while (true) {{}}\n}}\n\n\
             Bot.prototype.play = function (turn) {{\n\
             \x20 this.turns += 1;\n\
             \x20 if (this.turns === 2) {{\n\
             \x20   // before the loop\n\
             \x20   {before_the_loop}\n\
             \x20   spin();\n\
             \x20 }}\n\
             \x20 for (var i = 0; i < 9; i++) {{\n\
             \x20   if (turn.grid[Math.floor(i / 3)][i % 3] === '') return turn.mark(i % 3, Math.floor(i / 3));\n\
             \x20 }}\n\
             }};\n"
        );
        std::fs::write(dir.path().join("bot.js"), source).unwrap();
        let bot = dir.path().display().to_string();
        let out = botlens_with_input(&["run", &bot, "--json"], "", DEADLINE);
        assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
        let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let failures = report["failures"].as_array().unwrap();
        let [failure] = failures.as_slice() else { panic!("one failure group: {report:#}") };
        assert_eq!(failure["kind"], "out_of_fuel", "{failure:#}");
        let drawn = marked(dir.path(), "before the loop");
        assert_ne!(failure["line"].as_u64(), Some(drawn), "not at the mark: {failure:#}");
        assert!(failure["file"].as_str().is_some_and(|f| f.ends_with("bot.js")), "{failure:#}");
        (failure["line"].clone(), failure["column"].clone())
    };
    assert_eq!(failure("draw.cell(1, 1, draw.RED);"), failure("Math.max(1, 1);"));
}

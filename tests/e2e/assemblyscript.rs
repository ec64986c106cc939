//! Bots in AssemblyScript with botlens's package `botlens`: `botlens new --lang assemblyscript`
//! scaffolds bots that build and play clean; a planted index out of range and a failed `assert`
//! in the bot's own function are located at their marked lines of `bot.ts` (through the source
//! map, past `~lib/`); a compile error is located; a missing Node.js is named with its packages.
//!
//! The tests need Node.js and npm (as `.ci/run` installs) and the npm registry once: botlens
//! installs the AssemblyScript compiler into `target/e2e-assemblyscript`
//! (`BOTLENS_ASSEMBLYSCRIPT_DIR`), shared by every test and run, so at most one install happens
//! per test run (the first test to need it holds [`COMPILER`] while it installs).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use crate::support::{
    Output, Tool, botlens_with_env, line_after_marker, only_failure, repo_root, require,
};

/// Deadline for a run that builds an AssemblyScript bot (the first installs the compiler).
const DEADLINE: Duration = Duration::from_secs(300);

/// Held by a test while it runs botlens with the shared compiler directory, until it is
/// installed: the first holder installs it, the others wait, then find it there.
static COMPILER: Mutex<bool> = Mutex::new(false);

/// Where the compiler is installed for the tests.
fn compiler_dir() -> PathBuf {
    repo_root().join("target/e2e-assemblyscript")
}

/// `botlens args…` with the shared compiler directory (and `env`), installed by the first
/// call of the test run.
fn botlens_as(args: &[&str], env: &[(&str, &str)]) -> Output {
    let dir = compiler_dir().display().to_string();
    let mut vars = vec![("BOTLENS_ASSEMBLYSCRIPT_DIR", dir.as_str())];
    vars.extend_from_slice(env);
    let mut installed = COMPILER.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if *installed {
        drop(installed);
        return botlens_with_env(args, "", DEADLINE, &vars);
    }
    let out = botlens_with_env(args, "", DEADLINE, &vars);
    *installed = compiler_dir().join("node_modules/assemblyscript/bin/asc.js").is_file();
    out
}

/// A new bot for `game` in `dir`, written with `botlens new`.
fn new_bot(game: &str, dir: &Path) -> String {
    let bot = dir.join(format!("my-{game}")).display().to_string();
    let made = botlens_as(&["new", game, &bot, "--lang", "assemblyscript"], &[]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    assert!(made.stdout.contains("bot.ts"), "{}", made.stdout);
    bot
}

/// The report of `botlens run bot --json` (with `args`), asserting its exit code.
fn run_json(bot: &str, args: &[&str], code: i32) -> Output {
    let mut all = vec!["run", bot, "--json"];
    all.extend_from_slice(args);
    let out = botlens_as(&all, &[]);
    assert_eq!(out.code, Some(code), "{}\n{}", out.stdout, out.stderr);
    out
}

#[test]
fn new_assemblyscript_bots_build_and_play_clean() {
    if !require(&[Tool::Node]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for game in ["tictactoe", "battleships"] {
        let bot = new_bot(game, dir.path());
        let out = run_json(&bot, &[], 0);
        crate::support::assert_played_clean(&out.stdout, 40);
    }
}

#[test]
fn planted_bugs_in_the_bots_own_function_are_located_at_their_lines() {
    if !require(&[Tool::Node]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = new_bot("tictactoe", dir.path());
    let file = Path::new(&bot).join("bot.ts");
    let source = std::fs::read_to_string(&file).unwrap();
    // An index out of range on the bot's second turn, in a function of the bot's own.
    let planted = source.replace(
        "function play(): void {\n",
        "function corner(turn: i32): i32 {\n  const corners: i32[] = [0, 2, 6, 8];\n  \
         // OUT OF RANGE\n  return corners[turn * 4];\n}\n\nfunction play(): void {\n",
    );
    let planted = planted.replace("  turns++;\n", "  turns++;\n  if (turns == 2) corner(turns);\n");
    assert_ne!(planted, source, "the template changed: update the planted bug");
    std::fs::write(&file, &planted).unwrap();
    let out = run_json(&bot, &["--vs", "random"], 1);
    let failure = only_failure(&out);
    assert_eq!(failure["kind"], "panic", "{failure:#}");
    assert!(failure["message"].as_str().unwrap().contains("Index out of range"), "{failure:#}");
    assert_eq!(failure["file"].as_str(), Some(file.to_str().unwrap()), "{failure:#}");
    assert_eq!(failure["line"], line_after_marker(&file, "OUT OF RANGE"), "{failure:#}");

    // A failed `assert` in the same function instead.
    let asserting = planted.replace(
        "  // OUT OF RANGE\n  return corners[turn * 4];\n",
        "  // ASSERT\n  assert(turn < 2, \"no corner left\");\n  return corners[turn];\n",
    );
    std::fs::write(&file, &asserting).unwrap();
    let out = run_json(&bot, &["--vs", "random"], 1);
    let failure = only_failure(&out);
    assert_eq!(
        (failure["kind"].as_str(), failure["message"].as_str()),
        (Some("panic"), Some("no corner left"))
    );
    assert_eq!(failure["line"], line_after_marker(&file, "ASSERT"), "{failure:#}");

    // A compile error, located at its line and column.
    std::fs::write(&file, source.replace("turns++;", "turns++ +;")).unwrap();
    let out = botlens_as(&["run", &bot], &[]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let line = source.lines().position(|l| l.contains("turns++;")).unwrap() + 1;
    let at = format!("{}:{line}:", file.display());
    assert!(out.stderr.contains(&at), "{at} in {}", out.stderr);
    assert!(out.stderr.contains("Expression expected"), "{}", out.stderr);
}

#[test]
fn without_node_the_packages_to_install_are_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.ts"), "export function play(): void {}\n").unwrap();
    let bot = dir.path().display().to_string();
    let empty = tempfile::tempdir().unwrap();
    let path = empty.path().display().to_string();
    let out =
        botlens_with_env(&["run", &bot, "--game", "tictactoe"], "", DEADLINE, &[("PATH", &path)]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    for part in [
        "building an AssemblyScript bot needs Node.js (node and npm not on PATH)",
        "sudo apt-get install -y nodejs npm",
    ] {
        assert!(out.stderr.contains(part), "{}", out.stderr);
    }
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
}

#[test]
fn a_lone_ts_file_is_a_bot() {
    if !require(&[Tool::Node]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let made = new_bot("tictactoe", dir.path());
    let lone = dir.path().join("lone");
    std::fs::create_dir(&lone).unwrap();
    let mine = lone.join("mine.ts");
    std::fs::copy(Path::new(&made).join("bot.ts"), &mine).unwrap();
    // Beside it, a file that does not compile: the lone file is the bot alone.
    std::fs::write(lone.join("broken.ts"), "this is not AssemblyScript\n").unwrap();
    let out = run_json(&mine.display().to_string(), &["--game", "tictactoe"], 0);
    crate::support::assert_played_clean(&out.stdout, 40);
}

#[test]
fn debug_refuses_an_assemblyscript_bot_and_names_replay() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.ts"), "export function play(): void {}\n").unwrap();
    let lone = dir.path().join("bot.ts").display().to_string();
    for bot in [dir.path().display().to_string(), lone] {
        let args = ["debug", &bot, "--game", "tictactoe", "--vs", "random", "--seed", "1"];
        let out = botlens_as(&args, &[]);
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        for part in [
            "is an AssemblyScript bot: AssemblyScript compiles no DWARF debug info",
            "`botlens replay`",
        ] {
            assert!(out.stderr.contains(part), "{}", out.stderr);
        }
    }
}

/// The new Tic-tac-toe bot in `dir` with `helper` (a function of its own) added before `play`
/// and `call` (a statement) after its `turns++;`; returns the bot and its `bot.ts`.
fn bot_with_helper(dir: &Path, helper: &str, call: &str) -> (String, PathBuf) {
    let bot = new_bot("tictactoe", dir);
    let file = Path::new(&bot).join("bot.ts");
    let source = std::fs::read_to_string(&file).unwrap();
    let planted = source
        .replace("function play(): void {\n", &format!("{helper}\nfunction play(): void {{\n"))
        .replace("  turns++;\n", &format!("  turns++;\n  {call}\n"));
    assert_eq!(planted.len(), source.len() + helper.len() + call.len() + 4, "update the plant");
    std::fs::write(&file, planted).unwrap();
    (bot, file)
}

#[test]
fn an_illegal_move_from_a_helper_is_located_at_its_mark() {
    if !require(&[Tool::Node]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let helper = "function markTaken(board: string): void {\n  const x = board.indexOf(\"X\");\n  \
        const taken = x >= 0 ? x : board.indexOf(\"O\");\n  // ILLEGAL\n  \
        mark(taken % 3, taken / 3);\n}\n";
    let call = "if (turns == 2) { markTaken(view.board); return; }";
    let (bot, file) = bot_with_helper(dir.path(), helper, call);
    let out = run_json(&bot, &["--vs", "random", "--seeds", "0..4"], 1);
    let failure = only_failure(&out);
    assert_eq!(failure["kind"], "illegal_move", "{failure:#}");
    assert_eq!(failure["file"].as_str(), Some(file.to_str().unwrap()), "{failure:#}");
    assert_eq!(failure["line"], line_after_marker(&file, "ILLEGAL"), "{failure:#}");
}

#[test]
fn profile_names_the_bots_own_functions_and_lines_in_bot_ts() {
    if !require(&[Tool::Node]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let helper = "function spin(turn: i32): i32 {\n  let total = 0;\n  // HOT\n  \
        for (let i = 0; i < 20000; i++) {\n    total += i ^ turn;\n  }\n  return total;\n}\n";
    let (bot, file) = bot_with_helper(dir.path(), helper, "if (spin(turns) == -1) return;");
    let out = botlens_as(&["profile", &bot, "--vs", "random", "--seeds", "0..2", "--json"], &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let profile: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    let functions = profile["functions"].as_array().unwrap();
    let own = |f: &&serde_json::Value| f["own_fuel"].as_u64().unwrap();
    let hottest = functions.iter().max_by_key(own).unwrap();
    assert_eq!(
        (hottest["function"].as_str(), hottest["bot"].as_bool(), hottest["file"].as_str()),
        (Some("bot/spin"), Some(true), file.to_str()),
        "{profile:#}"
    );
    assert!(functions.iter().any(|f| f["function"] == "bot/play" && f["bot"] == true));
    // The hottest line is the loop's, where the profiler samples it (at its back-edge).
    let hottest = &profile["lines"][0];
    assert_eq!(hottest["file"].as_str(), file.to_str(), "{profile:#}");
    assert_eq!(hottest["function"], "bot/spin", "{profile:#}");
    assert_eq!(hottest["line"], line_after_marker(&file, "HOT"), "{profile:#}");
}

/// The Klotski starting bot, on the Klotski API of the package `botlens`.
mod klotski {
    use super::{Tool, botlens_as, only_failure, require, run_json};

    #[test]
    fn a_new_assemblyscript_klotski_bot_plays_clean_and_a_bad_slide_is_an_illegal_move() {
        if !require(&[Tool::Node]) {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let botlens = |args: &[&str]| botlens_as(args, &[]);
        let bot =
            crate::support::new_bot_plays_clean(botlens, "assemblyscript", "klotski", dir.path());
        let file = bot.join("bot.ts");
        let source = std::fs::read_to_string(&file).unwrap();
        let view = "  const view = klotski();\n";
        assert!(source.contains(view), "{source}");
        let bad = format!("{view}  move(\"nobody\", Dir.Down);\n");
        std::fs::write(&file, source.replace(view, &bad)).unwrap();
        let bot = bot.display().to_string();
        let out = run_json(&bot, &["--vs", "hengdaolima", "--seeds", "0..1"], 1);
        let failure = only_failure(&out);
        assert_eq!(failure["kind"], "illegal_move", "{failure:#}");
        let message = failure["message"].as_str().unwrap();
        assert!(message.contains("slide(nobody, down): no piece `nobody`"), "{failure:#}");
    }
}

/// A Tic-tac-toe bot that draws [`crate::support::DRAWN`] every turn with the package's `draw`,
/// each call below its marker, then marks the first free square.
const DRAWING_BOT: &str = r#"import { draw, exportBot, mark, tictactoe } from "botlens";
export { botlens_new, botlens_play } from "botlens";

function play(): void {
  const view = tictactoe();
  const heat: f32[] = [];
  for (let i = 0; i < 9; i++) heat.push(<f32>i);
  // draws the cell
  draw.cell(1, 1, draw.RED);
  // draws the heat map
  draw.heat(3, heat);
  // draws the arrow
  draw.arrow(0, 0, 2, 2, draw.intensity(0.5));
  // draws the label
  draw.label(0, 2, "hi", draw.rgb(1, 2, 3));
  // draws the status
  draw.status("thinking");
  const free = view.board.indexOf(".");
  mark(free % 3, free / 3);
}

exportBot(play);
"#;

#[test]
fn an_assemblyscript_bots_marks_are_in_its_traces_at_its_lines() {
    if !require(&[Tool::Node]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let botlens = |args: &[&str]| botlens_as(args, &[]);
    crate::support::assert_draws(botlens, dir.path(), "bot.ts", DRAWING_BOT);
}

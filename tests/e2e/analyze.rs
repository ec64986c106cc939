//! `botlens analyze`: bots with planted strategic mistakes at marked lines, their moves judged
//! by the games' oracles: the move that lost each lost game and the line that chose it, a
//! Klotski detour summing to the steps over par, a Battleships bot's long shots at the branch
//! that forgot its wounded ships, and bots that play perfectly judged clean.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::support::{
    Tool, botlens, botlens_building, botlens_in_dir, botlens_with_input, line_after_marker, require,
};

/// Long enough for the JavaScript runner's first build on a busy machine.
const DEADLINE: Duration = Duration::from_secs(900);

/// A Tic-tac-toe bot that wins, blocks and takes the centre, then takes a corner without
/// looking for the opponent's fork: as O, after X's two opposite corners, that loses.
const FORKBLIND_JS: &str = r#"// Wins, blocks, takes the centre, then a corner: blind to forks.
var LINES = [[0,1,2],[3,4,5],[6,7,8],[0,3,6],[1,4,7],[2,5,8],[0,4,8],[2,4,6]];

function Bot() {}

function at(grid, i) { return grid[Math.floor(i / 3)][i % 3]; }

// The square that completes a line of `side`, or -1.
function completing(grid, side) {
  for (var l = 0; l < LINES.length; l++) {
    var mine = 0, free = -1;
    for (var k = 0; k < 3; k++) {
      var v = at(grid, LINES[l][k]);
      if (v === side) mine++; else if (v === '') free = LINES[l][k];
    }
    if (mine === 2 && free >= 0) return free;
  }
  return -1;
}

function firstFree(grid, squares) {
  for (var k = 0; k < squares.length; k++) if (at(grid, squares[k]) === '') return squares[k];
  return -1;
}

function mark(turn, square) { turn.mark(square % 3, Math.floor(square / 3)); }

Bot.prototype.play = function (turn) {
  var me = turn.you, them = me === 'X' ? 'O' : 'X';
  var square = completing(turn.grid, me);
  if (square < 0) square = completing(turn.grid, them);
  if (square < 0) square = firstFree(turn.grid, [4]);
  if (square >= 0) {
    // chosen by the rules
    mark(turn, square);
    return;
  }
  square = firstFree(turn.grid, [0, 2, 6, 8]);
  if (square >= 0) {
    // blind to forks
    mark(turn, square);
    return;
  }
  mark(turn, firstFree(turn.grid, [1, 3, 5, 7]));
};
"#;

/// `botlens analyze args… --json` in `dir`, its report parsed.
fn analyze_json(dir: &Path, args: &[&str]) -> Value {
    let mut args: Vec<&str> = [&["analyze"][..], args].concat();
    args.push("--json");
    let out = botlens_in_dir(dir, &args, "", DEADLINE, &[]);
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

#[test]
fn a_fork_blind_bots_lost_games_turn_at_the_line_that_took_the_corner() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot.js");
    std::fs::write(&bot, FORKBLIND_JS).unwrap();
    let blind = line_after_marker(&bot, "blind to forks");
    let args = ["bot.js", "--vs", "perfect", "--seeds", "0..60"];
    let report = analyze_json(dir.path(), &args);
    assert_eq!(
        (report["unit"].as_str(), report["mistake"].as_str()),
        (Some("outcome"), Some("blunder"))
    );
    let lost = report["lost"].as_u64().unwrap();
    assert!(lost > 0, "perfect finds the fork on some seeds: {report}");

    // The same games `run` plays: as many lost.
    let run = botlens_in_dir(
        dir.path(),
        &["run", "bot.js", "--vs", "perfect", "--seeds", "0..60", "--json"],
        "",
        DEADLINE,
        &[],
    );
    let run: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(run["opponents"][0]["losses"].as_u64(), Some(lost), "{run}");

    // Every lost game was lost by a blunder at the marked line, drawn → lost, and the oracle's
    // choice is another square.
    let played = report["played"].as_array().unwrap();
    let lost_games: Vec<&Value> = played.iter().filter(|g| g["result"] == "loss").collect();
    assert_eq!(lost_games.len() as u64, lost);
    for game in lost_games {
        let losing = &game["mistakes"][game["losing"].as_u64().unwrap() as usize];
        assert_eq!(losing["location"]["line"].as_u64(), Some(blind), "{game}");
        assert!(losing["location"]["file"].as_str().unwrap().ends_with("bot.js"));
        assert_eq!(
            (losing["before"].as_str(), losing["after"].as_str()),
            (Some("drawn"), Some("lost"))
        );
        assert_eq!(losing["loses"], true);
        assert_ne!(losing["best"], losing["action"], "{game}");
        assert_eq!(losing["chain"], "mark ← play", "{game}");
    }
    // The decision profile puts every loss on that line.
    let top = &report["sites"][0];
    assert_eq!(top["line"].as_u64(), Some(blind), "{report}");
    assert_eq!(top["losses"].as_u64(), Some(lost));
    assert_eq!(top["function"], "play", "the branch, not the helper every move goes through");

    // The text report says it in words, the board before the move with it.
    let out = botlens_in_dir(
        dir.path(),
        &["analyze", "bot.js", "--vs", "perfect", "--seeds", "0..60", "--games", "1"],
        "",
        DEADLINE,
        &[],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let site = format!("  bot.js:{blind}:");
    let profile_line = out
        .stdout
        .lines()
        .find(|l| l.starts_with(&site))
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(
        profile_line.ends_with(&format!("; {lost} of {lost} losses turned here")),
        "{profile_line}"
    );
    assert!(out.stdout.contains(", the move that lost it: mark("), "{}", out.stdout);
    assert!(out.stdout.contains("(drawn → lost); best mark("), "{}", out.stdout);
}

#[test]
fn the_forkblind_samples_lost_games_turn_at_its_marked_corner_branch() {
    let sample = crate::support::repo_root().join("samples/tictactoe-forkblind");
    let corner = line_after_marker(
        &sample.join("src/lib.rs"),
        "botlens analyze finds the losing move on the next line",
    );
    let readme = std::fs::read_to_string(sample.join("README.md")).unwrap();
    assert!(readme.contains(&format!("`src/lib.rs:{corner}`")), "its README names line {corner}");
    let path = sample.display().to_string();
    let out = botlens_building(&["analyze", &path, "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["lost"], 3, "{report}");
    let losing: Vec<(u64, u64)> = report["played"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|game| {
            let losing = &game["mistakes"][game["losing"].as_u64()? as usize];
            Some((game["seed"].as_u64().unwrap(), losing["location"]["line"].as_u64().unwrap()))
        })
        .collect();
    assert_eq!(losing, [(25, corner), (26, corner), (29, corner)], "{report}");
    let top = &report["sites"][0];
    assert_eq!((top["line"].as_u64(), top["losses"].as_u64()), (Some(corner), Some(3)), "{top}");
    assert!(top["file"].as_str().unwrap().ends_with("samples/tictactoe-forkblind/src/lib.rs"));
    assert!(top["chain"].as_str().unwrap().ends_with("play"), "{top}");

    // The replay marks that move and says what the oracle would have played.
    let replay = botlens_building(&["replay", &path, "--vs", "perfect", "--seed", "25"]);
    assert_eq!(replay.code, Some(0), "{}", replay.stderr);
    let marked: Vec<&str> =
        replay.stdout.lines().filter(|l| l.starts_with("the move that lost the game: ")).collect();
    assert_eq!(marked, ["the move that lost the game: blunder: drawn → lost; best mark(1, 0)"]);
}

#[test]
fn run_analyze_adds_the_same_analysis_to_the_runs_report() {
    let path =
        crate::support::repo_root().join("samples/tictactoe-forkblind").display().to_string();
    let alone = botlens_building(&["analyze", &path, "--json"]);
    let with_run = botlens_building(&["run", &path, "--analyze", "--json"]);
    assert_eq!(with_run.code, Some(0), "a clean run: {}", with_run.stderr);
    let alone: Value = serde_json::from_str(&alone.stdout).unwrap();
    let report: Value = serde_json::from_str(&with_run.stdout).unwrap();
    assert_eq!(report["analysis"], alone, "the same games, the same judgements");
    assert_eq!(report["opponents"][1]["losses"], 3);
    let sarif = botlens_building(&["run", &path, "--analyze", "--format", "sarif"]);
    assert_eq!(sarif.code, Some(2));
    assert!(
        sarif.stderr.contains("--analyze adds to the text and JSON reports, not to --format sarif"),
        "{}",
        sarif.stderr
    );
}

/// The fork-blind bot in Python.
const FORKBLIND_PY: &str = r#"# Wins, blocks, takes the centre, then a corner: blind to forks.
LINES = [[(x, y) for x in range(3)] for y in range(3)] + \
    [[(x, y) for y in range(3)] for x in range(3)] + \
    [[(0, 0), (1, 1), (2, 2)], [(2, 0), (1, 1), (0, 2)]]


def completing(grid, mark):
    for line in LINES:
        marks = [grid[y][x] for x, y in line]
        if marks.count(mark) == 2 and marks.count('') == 1:
            return line[marks.index('')]
    return None


def first_free(grid, squares):
    return next(((x, y) for x, y in squares if grid[y][x] == ''), None)


class Bot:
    def play(self, turn):
        other = 'O' if turn.you == 'X' else 'X'
        square = completing(turn.grid, turn.you) or completing(turn.grid, other) \
            or first_free(turn.grid, [(1, 1)])
        if square is not None:
            # chosen by the rules
            turn.mark(*square)
            return
        corner = first_free(turn.grid, [(0, 0), (2, 0), (0, 2), (2, 2)])
        if corner is not None:
            # blind to forks
            turn.mark(*corner)
            return
        turn.mark(*first_free(turn.grid, [(1, 0), (0, 1), (2, 1), (1, 2)]))
"#;

/// The fork-blind bot in C.
const FORKBLIND_C: &str = r#"/* Wins, blocks, takes the centre, then a corner: blind to forks. */
#include "botlens.h"

static const int LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

/* The square that completes a line of `side`, or -1. */
static int completing(const char *board, char side) {
    for (int l = 0; l < 8; l++) {
        int mine = 0, free = -1;
        for (int k = 0; k < 3; k++) {
            char c = board[LINES[l][k]];
            if (c == side) mine++;
            else if (c == '.') free = LINES[l][k];
        }
        if (mine == 2 && free >= 0) return free;
    }
    return -1;
}

static int first_free(const char *board, const int *squares, int n) {
    for (int k = 0; k < n; k++) if (board[squares[k]] == '.') return squares[k];
    return -1;
}

void bot_new(int seat) { (void)seat; }

void bot_play(void) {
    botlens_tictactoe_view view = botlens_tictactoe();
    char other = view.you == 'X' ? 'O' : 'X';
    static const int centre[] = {4}, corners[] = {0, 2, 6, 8}, edges[] = {1, 3, 5, 7};
    int square = completing(view.board, view.you);
    if (square < 0) square = completing(view.board, other);
    if (square < 0) square = first_free(view.board, centre, 1);
    if (square >= 0) {
        // chosen by the rules
        botlens_mark(square % 3, square / 3);
        return;
    }
    square = first_free(view.board, corners, 4);
    if (square >= 0) {
        // blind to forks
        botlens_mark(square % 3, square / 3);
        return;
    }
    square = first_free(view.board, edges, 4);
    botlens_mark(square % 3, square / 3);
}
"#;

/// The fork-blind bot in Zig, its moves made through a helper (which the decision profile
/// passes over for the branch that called it).
const FORKBLIND_ZIG: &str = r#"//! Wins, blocks, takes the centre, then a corner: blind to forks.
const botlens = @import("botlens");

comptime {
    botlens.exportBot(@This());
}

const lines = [8][3]usize{
    .{ 0, 1, 2 }, .{ 3, 4, 5 }, .{ 6, 7, 8 }, .{ 0, 3, 6 },
    .{ 1, 4, 7 }, .{ 2, 5, 8 }, .{ 0, 4, 8 }, .{ 2, 4, 6 },
};

/// The square that completes a line of `side`, if one does.
fn completing(board: [9]u8, side: u8) ?usize {
    for (lines) |line| {
        var mine: usize = 0;
        var free: ?usize = null;
        for (line) |square| {
            if (board[square] == side) {
                mine += 1;
            } else if (board[square] == '.') {
                free = square;
            }
        }
        if (mine == 2) {
            if (free) |square| return square;
        }
    }
    return null;
}

/// The first free square of `squares`, if one is.
fn firstFree(board: [9]u8, squares: []const usize) ?usize {
    for (squares) |square| {
        if (board[square] == '.') return square;
    }
    return null;
}

fn markSquare(square: usize) void {
    _ = botlens.mark(@intCast(square % 3), @intCast(square / 3));
}

pub fn play() void {
    const view = botlens.tictactoe();
    const other: u8 = if (view.you == 'X') 'O' else 'X';
    const ruled = completing(view.board, view.you) orelse completing(view.board, other) orelse
        firstFree(view.board, &.{4});
    if (ruled) |square| {
        // chosen by the rules
        markSquare(square);
        return;
    }
    if (firstFree(view.board, &.{ 0, 2, 6, 8 })) |square| {
        // blind to forks
        markSquare(square);
        return;
    }
    markSquare(firstFree(view.board, &.{ 1, 3, 5, 7 }).?);
}
"#;

/// The fork-blind bot in AssemblyScript.
const FORKBLIND_AS: &str = r#"// Wins, blocks, takes the centre, then a corner: blind to forks.
import { exportBot, mark, tictactoe } from "botlens";

export { botlens_new, botlens_play } from "botlens";

const LINES: i32[][] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

// The square that completes a line of `side`, or -1.
function completing(board: string, side: string): i32 {
  for (let l = 0; l < LINES.length; l++) {
    let mine = 0;
    let free = -1;
    for (let k = 0; k < 3; k++) {
      const square = LINES[l][k];
      const here = board.charAt(square);
      if (here == side) mine++;
      else if (here == ".") free = square;
    }
    if (mine == 2 && free >= 0) return free;
  }
  return -1;
}

// The first free square of `squares`, or -1.
function firstFree(board: string, squares: i32[]): i32 {
  for (let k = 0; k < squares.length; k++) {
    if (board.charAt(squares[k]) == ".") return squares[k];
  }
  return -1;
}

function play(): void {
  const view = tictactoe();
  const other = view.you == "X" ? "O" : "X";
  let square = completing(view.board, view.you);
  if (square < 0) square = completing(view.board, other);
  if (square < 0) square = firstFree(view.board, [4]);
  if (square >= 0) {
    // chosen by the rules
    mark(square % 3, square / 3);
    return;
  }
  square = firstFree(view.board, [0, 2, 6, 8]);
  if (square >= 0) {
    // blind to forks
    mark(square % 3, square / 3);
    return;
  }
  square = firstFree(view.board, [1, 3, 5, 7]);
  mark(square % 3, square / 3);
}

function start(seat: i32): void {}

exportBot(play, start);
"#;

/// Analyses the fork-blind bot `source`, written to `file`, against `perfect`: every lost game
/// (as many as `run` loses) was lost at the line after its `blind to forks` marker, which the
/// decision profile ranks first. Skipped without the `tools` its language builds with.
fn fork_blind_bot_loses_at_its_marked_corner(tools: &[Tool], file: &str, source: &str) {
    if !require(tools) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join(file);
    std::fs::write(&bot, source).unwrap();
    let blind = line_after_marker(&bot, "blind to forks");
    let games = [file, "--game", "tictactoe", "--vs", "perfect", "--seeds", "0..60"];
    let report = analyze_json(dir.path(), &games);
    let lost = report["lost"].as_u64().unwrap();
    assert!(lost > 0, "{report}");
    let run = botlens_in_dir(
        dir.path(),
        &[&["run"][..], &games, &["--json"]].concat(),
        "",
        DEADLINE,
        &[],
    );
    let run: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(run["opponents"][0]["losses"].as_u64(), Some(lost), "the same games: {run}");
    for game in report["played"].as_array().unwrap().iter().filter(|g| g["result"] == "loss") {
        let losing = &game["mistakes"][game["losing"].as_u64().unwrap() as usize];
        assert_eq!(losing["location"]["line"].as_u64(), Some(blind), "{game}");
        assert!(losing["location"]["file"].as_str().unwrap().ends_with(file), "{game}");
    }
    let top = &report["sites"][0];
    assert_eq!(
        (top["line"].as_u64(), top["losses"].as_u64()),
        (Some(blind), Some(lost)),
        "{report}"
    );
}

#[test]
fn a_fork_blind_python_bot_is_located_at_its_corner_line() {
    fork_blind_bot_loses_at_its_marked_corner(&[], "bot.py", FORKBLIND_PY);
}

#[test]
fn a_fork_blind_c_bot_is_located_at_its_corner_line() {
    fork_blind_bot_loses_at_its_marked_corner(&[Tool::Clang], "bot.c", FORKBLIND_C);
}

#[test]
fn a_fork_blind_zig_bot_is_located_at_its_corner_line() {
    fork_blind_bot_loses_at_its_marked_corner(&[Tool::Zig], "bot.zig", FORKBLIND_ZIG);
}

#[test]
fn a_fork_blind_assemblyscript_bot_is_located_at_its_corner_line() {
    // botlens installs the compiler into its cache on first use (complete or absent, so tests
    // that do so at once do not clash).
    fork_blind_bot_loses_at_its_marked_corner(&[Tool::Node], "bot.ts", FORKBLIND_AS);
}

/// The flattened slides of the optimal (in steps) solution of 横刀立马, as JavaScript.
fn classic_solution() -> String {
    let out = botlens(&["solve", "hengdaolima", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let solution: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(solution["length"], 81);
    let slides: Vec<String> = solution["moves"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| {
            let piece = m["piece"].as_str().unwrap().to_owned();
            m["path"].as_array().unwrap().iter().map(move |dir| format!("['{piece}', {dir}]"))
        })
        .collect();
    format!("[{}]", slides.join(", "))
}

#[test]
fn a_klotski_bots_stroll_is_its_one_step_over_par_charged_where_it_leaves_the_step() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot.js");
    let source = format!(
        "var PLAN = {};\n\nfunction Bot() {{ this.turns = 0; }}\n\nBot.prototype.play = function (turn) {{\n  this.turns++;\n  if (this.turns <= 2) {{\n    // a stroll first\n    turn.move('1', this.turns === 1 ? 'right' : 'left');\n    return;\n  }}\n  var slide = PLAN[this.turns - 3];\n  // the plan\n  turn.move(slide[0], slide[1]);\n}};\n",
        classic_solution()
    );
    std::fs::write(&bot, source).unwrap();
    let plan = line_after_marker(&bot, "the plan");
    let report = analyze_json(dir.path(), &["bot.js", "--vs", "hengdaolima", "--seeds", "0..1"]);
    assert_eq!(report["unit"], "step");
    assert_eq!(report["cost"].as_f64(), Some(1.0), "82 steps for a par of 81: {report}");
    let game = &report["played"][0];
    assert!(game["reason"].as_str().unwrap().contains("in 82 steps"), "{game}");
    let detours = game["mistakes"].as_array().unwrap();
    assert_eq!(detours.len(), 1, "{game}");
    // Sliding 兵 right is the first slide of a shortest solution too, and sliding it back
    // continues that step: the step is lost when the bot leaves it for the plan's first slide
    // of another piece, 士 down, which is where the oracle charges it.
    let detour = &detours[0];
    assert_eq!(detour["location"]["line"].as_u64(), Some(plan), "{detour}");
    assert_eq!(
        (detour["turn"].as_u64(), detour["action"].as_str()),
        (Some(3), Some("slide(3, down)"))
    );
    assert_eq!(detour["before"], "80 steps (116 cell moves) from the goal");
    assert_eq!(detour["after"], "80 steps (117 cell moves) from the goal");
    assert_eq!(report["sites"][0]["line"].as_u64(), Some(plan));
}

#[test]
fn bots_that_play_perfectly_make_no_mistakes() {
    let samples = crate::support::repo_root().join("samples");
    for (sample, vs) in [("tictactoe-minimax", "perfect"), ("klotski-solver", "hengdaolima")] {
        let path = samples.join(sample).display().to_string();
        let out = botlens_building(&["analyze", &path, "--vs", vs, "--seeds", "0..3", "--json"]);
        assert_eq!(out.code, Some(0), "{sample}: {}", out.stderr);
        let report: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(report["mistakes"], 0, "{sample}: {report}");
        assert!(report["judged"].as_u64().unwrap() > 0, "{sample}");
        assert_eq!(report["sites"], serde_json::json!([]));
    }
}

#[test]
fn more_games_than_an_analysis_plays_are_refused_before_any_is_played() {
    let args =
        ["analyze", "random", "--game", "tictactoe", "--vs", "perfect", "--seeds", "0..100001"];
    let started = std::time::Instant::now();
    let out = botlens_with_input(&args, "", Duration::from_secs(60));
    assert_eq!(out.code, Some(2), "{}", out.stdout);
    assert!(
        out.stderr.contains("100001 games is more than an analysis plays (at most 100000)"),
        "{}",
        out.stderr
    );
    assert!(started.elapsed() < Duration::from_secs(10), "no game played");
}

#[test]
fn a_reference_player_is_judged_without_lines_and_random_blunders() {
    let args = [
        "analyze",
        "random",
        "--game",
        "tictactoe",
        "--vs",
        "perfect",
        "--seeds",
        "0..20",
        "--json",
    ];
    let out = botlens_with_input(&args, "", DEADLINE);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(report["mistakes"].as_u64().unwrap() > 0, "{report}");
    assert_eq!(report["sites"], serde_json::json!([]), "native code has no lines");
}

/// A Battleships bot that hunts on a checkerboard and finishes what it hits along the line of
/// its hits, until its first sink: after that it forgets the ships it has hit and hunts on.
const FORGETFUL_JS: &str = r#"// Hunts on a checkerboard and finishes a hit ship along its line, until its first sink:
// after that it forgets the ships it has hit and hunts on.
function Bot() {
  this.hits = [];
  this.sank = 0;
}

Bot.prototype.free = function (turn, x, y) {
  return x >= 0 && x < 10 && y >= 0 && y < 10 && turn.targets[y * 10 + x] === '.';
};

// The free cells next to the hits, along their line once there are two.
Bot.prototype.around = function (turn) {
  var cells = [], hits = this.hits, self = this;
  var horizontal = hits.length > 1 && hits[0].y === hits[1].y;
  var vertical = hits.length > 1 && hits[0].x === hits[1].x;
  hits.forEach(function (h) {
    if (!vertical) cells.push({ x: h.x - 1, y: h.y }, { x: h.x + 1, y: h.y });
    if (!horizontal) cells.push({ x: h.x, y: h.y - 1 }, { x: h.x, y: h.y + 1 });
  });
  return cells.filter(function (c) { return self.free(turn, c.x, c.y); });
};

Bot.prototype.hunt = function (turn) {
  var cells = [];
  for (var i = 0; i < 100; i++) {
    var x = i % 10, y = Math.floor(i / 10);
    if ((x + y) % 2 === 0 && this.free(turn, x, y)) cells.push({ x: x, y: y });
  }
  for (var j = 0; cells.length === 0 && j < 100; j++) {
    if (turn.targets[j] === '.') cells.push({ x: j % 10, y: Math.floor(j / 10) });
  }
  return cells[Math.floor(Math.random() * cells.length)];
};

Bot.prototype.fire = function (turn, cell) {
  var result = turn.attack(cell.x, cell.y);
  if (result === true) {
    this.hits.push(cell);
  } else if (result) {
    this.sank++;
    this.hits = this.hits.filter(function (h) { return false; });
  }
};

Bot.prototype.play = function (turn) {
  if (this.hits.length > 0 && this.sank > 0) {
    // forgets the wounded ship after a sink
    return this.fire(turn, this.hunt(turn));
  }
  var near = this.hits.length > 0 ? this.around(turn) : [];
  // finishes what it hit, or hunts
  return this.fire(turn, near.length > 0 ? near[0] : this.hunt(turn));
};
"#;

#[test]
fn a_battleships_bot_that_forgets_its_wounded_ships_after_a_sink_is_charged_there() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot.js");
    std::fs::write(&bot, FORGETFUL_JS).unwrap();
    let forgets = line_after_marker(&bot, "forgets the wounded ship after a sink");
    // Every game has long shots: the first 16 are played once as `run` plays them and again
    // located, the rest located at once; both kinds must be located alike.
    let report = analyze_json(dir.path(), &["bot.js", "--vs", "hunter", "--seeds", "0..24"]);
    assert_eq!(
        (report["unit"].as_str(), report["mistake"].as_str()),
        (Some("shot"), Some("long shot"))
    );
    let played = report["played"].as_array().unwrap();
    assert_eq!(played.len(), 24, "{report}");
    for game in played {
        let mistakes = game["mistakes"].as_array().unwrap();
        assert!(mistakes.iter().all(|m| m["location"]["line"].is_u64()), "{game}");
    }
    let top = &report["sites"][0];
    assert_eq!(top["line"].as_u64(), Some(forgets), "{report}");
    assert!(top["percent"].as_f64().unwrap() > 50.0, "{top}");
    // Each of its shots there gave up a good part of a hit: a square beside a wounded ship.
    let per_shot = top["cost"].as_f64().unwrap() / top["mistakes"].as_f64().unwrap();
    assert!(per_shot > 0.3, "{top}");
    let first = report["played"][0]["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["location"]["line"].as_u64() == Some(forgets))
        .expect("a long shot at the line");
    assert!(first["before"].as_str().unwrap().starts_with("the best square "), "{first}");
    assert!(first["after"].as_str().unwrap().starts_with("this one "), "{first}");
}

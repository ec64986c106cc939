//! `botlens profile`: the hot function and line of real samples, the same bytes on every run, a
//! speedscope file with the format's required fields, the turn that ran out of fuel (its loop's
//! line first, though a helper it calls burns most of it), each function listed once and no
//! linker trampoline among them, and bad input refused with exit status 2.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::Value;

use crate::support::{Tool, botlens, botlens_with_input, line_after_marker, repo_root, require};

/// `botlens profile args… --json`, parsed, asserting success; and its raw output.
fn profile_json(args: &[&str]) -> (Value, String) {
    let mut all = vec!["profile"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = botlens(&all);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    (serde_json::from_str(&out.stdout).expect("one JSON object"), out.stdout)
}

/// The 1-based line where `fn name` starts in `source`.
fn fn_line(source: &str, name: &str) -> u64 {
    let at = source.lines().position(|l| l.starts_with(&format!("fn {name}(")));
    at.unwrap_or_else(|| panic!("no fn {name}")) as u64 + 1
}

#[test]
fn minimax_burns_its_fuel_in_value_and_two_runs_are_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let sample = repo_root().join("samples/tictactoe-minimax");
    let flame = dir.path().join("minimax.speedscope.json");
    let args = [
        sample.to_str().unwrap(),
        "--vs",
        "perfect",
        "--seeds",
        "1",
        "--speedscope",
        flame.to_str().unwrap(),
    ];
    let (profile, text) = profile_json(&args);
    let flame_text = std::fs::read_to_string(&flame).unwrap();
    let (_, again) = profile_json(&args);
    assert_eq!(text, again, "the same module and seeds give the same profile");
    assert_eq!(flame_text, std::fs::read_to_string(&flame).unwrap());

    let fuel = profile["fuel"].as_u64().unwrap();
    assert!(fuel > 1_000_000, "{profile}");
    let functions = profile["functions"].as_array().unwrap();
    let self_fuel: u64 = functions.iter().map(|f| f["self_fuel"].as_u64().unwrap()).sum();
    assert_eq!(self_fuel, fuel, "every unit of fuel is some function's");
    let percent: f64 = functions.iter().map(|f| f["self_percent"].as_f64().unwrap()).sum();
    assert!((percent - 100.0).abs() < 1e-6, "{percent}");
    let own = |f: &&Value| f["own_fuel"].as_u64().unwrap();
    let hottest = functions.iter().max_by_key(own).unwrap();
    assert!(hottest["function"].as_str().unwrap().ends_with("value"), "{hottest}");
    assert_eq!(hottest["bot"], true);
    let outside = profile["outside_bot_fuel"].as_u64().unwrap();
    assert_eq!(functions.iter().map(|f| own(&f)).sum::<u64>() + outside, fuel);
    // The hottest line is in `value`, which ends where `best_squares` starts.
    let source = std::fs::read_to_string(sample.join("src/lib.rs")).unwrap();
    let line = profile["lines"][0]["line"].as_u64().unwrap();
    assert!(
        (fn_line(&source, "value")..fn_line(&source, "best_squares")).contains(&line),
        "{line}"
    );
    assert!(profile["lines"][0]["self_percent"].as_f64().unwrap() > 50.0, "{profile}");

    let flame: Value = serde_json::from_str(&flame_text).expect("the speedscope file is JSON");
    assert_eq!(flame["$schema"], "https://www.speedscope.app/file-format-schema.json");
    let frames = flame["shared"]["frames"].as_array().unwrap();
    assert!(frames.iter().all(|f| f["name"].is_string()));
    let sampled = &flame["profiles"][0];
    for field in ["name", "unit", "startValue", "endValue", "samples", "weights"] {
        assert!(!sampled[field].is_null(), "{field} in {sampled}");
    }
    assert_eq!(sampled["type"], "sampled");
    let weights: u64 =
        sampled["weights"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).sum();
    assert_eq!((weights, sampled["endValue"].as_u64().unwrap()), (fuel, fuel));
    let samples = sampled["samples"].as_array().unwrap();
    assert_eq!(samples.len(), sampled["weights"].as_array().unwrap().len());
    let in_range = |i: &Value| (i.as_u64().unwrap() as usize) < frames.len();
    assert!(samples.iter().all(|s| s.as_array().unwrap().iter().all(in_range)));
}

#[test]
fn the_turn_that_ran_out_of_fuel_is_profiled_at_the_endless_loop() {
    let sample = repo_root().join("samples/battleships-spinner");
    let (profile, _) = profile_json(&[sample.to_str().unwrap(), "--vs", "hunter", "--seeds", "4"]);
    let failing = &profile["out_of_fuel"][0];
    assert_eq!((&failing["opponent"], &failing["seed"]), (&Value::from("hunter"), &Value::from(4)));
    let marker = "botlens reports the out_of_fuel on the next line";
    let spin = line_after_marker(&sample.join("src/lib.rs"), marker);
    assert_eq!(failing["lines"][0]["line"].as_u64(), Some(spin), "{failing}");
    assert!(failing["lines"][0]["self_percent"].as_f64().unwrap() > 90.0, "{failing}");
    // The table says so too.
    let out = botlens(&["profile", sample.to_str().unwrap(), "--vs", "hunter", "--seeds", "4"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("Turns that ran out of fuel:"), "{}", out.stdout);
    assert!(out.stdout.contains(&format!("src/lib.rs:{spin}  in hunt")), "{}", out.stdout);
}

#[test]
fn run_reports_where_the_failing_turn_of_an_out_of_fuel_group_burnt_its_fuel() {
    let sample = repo_root().join("samples/battleships-spinner");
    let args = ["run", sample.to_str().unwrap(), "--vs", "hunter", "--seeds", "0..10"];
    let out = botlens(&[&args[..], &["--json"]].concat());
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let group = &report["failures"][0];
    assert_eq!(group["kind"], "out_of_fuel");
    let marker = "botlens reports the out_of_fuel on the next line";
    let spin = line_after_marker(&sample.join("src/lib.rs"), marker);
    assert_eq!(group["fuel_profile"][0]["line"].as_u64(), Some(spin), "{group}");
    let table = botlens(&args);
    assert!(table.stdout.contains("where that turn's fuel went:"), "{}", table.stdout);
    // Other kinds get none.
    let offbyone = repo_root().join("samples/battleships-offbyone");
    let out = botlens(&[
        "run",
        offbyone.to_str().unwrap(),
        "--vs",
        "hunter",
        "--seeds",
        "0..10",
        "--json",
    ]);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let failures = report["failures"].as_array().unwrap();
    assert!(!failures.is_empty() && failures.iter().all(|f| f.get("fuel_profile").is_none()));
}

#[test]
fn bad_input_is_refused_with_exit_status_2() {
    let minimax = repo_root().join("samples/tictactoe-minimax");
    let minimax = minimax.to_str().unwrap();
    let js = repo_root().join("samples/js-tictactoe-sloppy");
    let cases: [(&[&str], &str); 5] = [
        (&[minimax, "--vs", "nobody"], "no reference player `nobody`"),
        (&[minimax, "--seeds", "9..3"], "bad seed range `9..3`"),
        (&["--game", "tictactoe", "perfect"], "is a reference player"),
        (&[minimax, "--interval", "0"], "--interval"),
        (&[js.to_str().unwrap()], "JavaScript bots are not profiled"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["profile"];
        all.extend_from_slice(args);
        let out = botlens(&all);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(expected), "{args:?}: {}", out.stderr);
    }
}

/// A C Tic-tac-toe bot whose search never ends: each round of its one-line loop calls `scan`,
/// which burns most of the fuel, but the loop is what never ends (no square holds `#`). `scan`
/// is kept out of line (inlined, the loop's own instructions may carry the helper's line), and
/// its unrolled body has no epoch check but its entry, where it is sampled.
const LOOPING_C: &str = r#"#include "botlens.h"

static volatile int probes;

// botlens samples the helper (at its entry) on the next line
__attribute__((noinline)) static int scan(const char *board, int square) {
    int seen = 0;
    for (int i = 0; i < 9; i++) {
        seen += board[(square + i + probes++) % 9] == '#';
    }
    return seen;
}

void bot_play(void) {
    botlens_tictactoe_view view = botlens_tictactoe();
    int square = 0;
    // botlens reports the endless loop on the next line
    while (scan(view.board, square) == 0) square = (square + 1) % 9;
    botlens_mark(square % 3, square / 3);
}
"#;

#[test]
fn a_loop_that_calls_a_helper_leads_the_turn_that_ran_out_and_each_function_shows_once() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("looping");
    std::fs::create_dir(&bot).unwrap();
    let source = bot.join("bot.c");
    std::fs::write(&source, LOOPING_C).unwrap();
    let config = "game = \"tictactoe\"\n\n[limits]\nfuel_per_turn = 2_000_000\n";
    std::fs::write(bot.join("botlens.toml"), config).unwrap();
    let (looping, scanning) = (
        line_after_marker(&source, "botlens reports the endless loop on the next line"),
        line_after_marker(&source, "botlens samples the helper (at its entry) on the next line"),
    );
    let name = bot.to_str().unwrap();
    let run = |args: &[&str]| botlens_with_input(args, "", Duration::from_secs(300));

    // `run`: the out_of_fuel group's lines, by total fuel, the loop's first.
    let out = run(&["run", name, "--vs", "random", "--seeds", "0", "--json"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let group = &report["failures"][0];
    assert_eq!(group["kind"], "out_of_fuel", "{group}");
    let lines = group["fuel_profile"].as_array().expect("a fuel profile");
    let place = |line: &Value| (line["line"].as_u64().unwrap(), line["function"].clone());
    assert_eq!(place(&lines[0]), (looping, Value::from("bot_play")), "{group}");
    let total = |line: &Value| line["total_percent"].as_f64().unwrap();
    let own = |line: &Value| line["self_percent"].as_f64().unwrap();
    assert!(total(&lines[0]) > 99.0, "{group}");
    let scan = lines.iter().find(|line| line["line"] == scanning).expect("scan's line");
    assert!(own(scan) > own(&lines[0]), "the helper burns more itself: {group}");
    // The table says both figures, the loop's line first.
    let out = run(&["run", name, "--vs", "random", "--seeds", "0"]);
    let table: Vec<&str> = out.stdout.lines().collect();
    let at = table.iter().position(|l| l.contains("where that turn's fuel went")).unwrap();
    let first = table[at + 1];
    assert!(first.trim_start().starts_with("100.0 % total, "), "{}", out.stdout);
    assert!(first.contains(" % self  "), "{}", out.stdout);
    assert!(first.ends_with(&format!("bot.c:{looping}  in bot_play")), "{}", out.stdout);

    // `profile`: every function once, and none of the linker's trampolines.
    let out = run(&["profile", name, "--vs", "random", "--seeds", "0", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let profile: Value = serde_json::from_str(&out.stdout).unwrap();
    let functions = profile["functions"].as_array().unwrap();
    let names: Vec<&str> = functions.iter().map(|f| f["function"].as_str().unwrap()).collect();
    let distinct: BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(distinct.len(), names.len(), "a function listed twice: {names:?}");
    assert!(names.iter().all(|name| !name.contains("command_export")), "{names:?}");
    for name in ["bot_play", "scan"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let turn = &profile["out_of_fuel"][0]["lines"][0];
    assert_eq!(turn["line"].as_u64(), Some(looping), "{profile}");
}

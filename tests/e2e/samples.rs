//! The sample bots in `samples/`, built and played by the real binary: the strong ones lose no
//! game by a fault, each buggy one fails in exactly its one way, at its line, on some seeds
//! only. And `botlens new` scaffolds projects that build and run as they are.
//!
//! A buggy sample marks the line botlens reports with the comment line
//! `// botlens reports the <kind> on the next line` above it; the READMEs must name that line.
//!
//! Every test builds one bot project to WebAssembly with cargo (the first build of a project
//! compiles the SDK and serde too), so the deadlines are generous.

use std::path::Path;

use botlens_games::GameKind;
use serde_json::Value;

use crate::support::{Tool, botlens_building, line_after_marker, repo_root, require};

/// `botlens run <project> --json`: the exit code and the report.
fn run_project(project: &str) -> (Option<i32>, Value) {
    let out = botlens_building(&["run", project, "--json"]);
    let report = serde_json::from_str(&out.stdout).unwrap_or_else(|error| {
        panic!("botlens run {project}: no JSON report ({error})\n{}\n{}", out.stdout, out.stderr)
    });
    (out.code, report)
}

/// The rows of `report["opponents"]`.
fn rows(report: &Value) -> &[Value] {
    report["opponents"].as_array().expect("an opponents array")
}

/// A deliberately buggy sample and the one failure it must show.
struct Bug {
    sample: &'static str,
    /// The source file it fails in: `src/lib.rs` for a Rust bot, `bot.js` for a JavaScript one,
    /// `bot.c` for a C one.
    file: &'static str,
    kind: &'static str,
    message: &'static str,
}

/// The line of the sample's source `file` its marker comment says botlens reports `kind` at,
/// checked against the two READMEs that name it: the sample's own (its `reported at` row) and
/// the table of `samples/README.md`.
fn marked_line(sample: &str, file: &str, kind: &str) -> u64 {
    let dir = repo_root().join("samples").join(sample);
    let marker = format!("botlens reports the {kind} on the next line");
    let line = line_after_marker(&dir.join(file), &marker);
    let named = format!("`{file}:{line}");
    let names_it = |row: &str| {
        row.match_indices(&named)
            .any(|(at, _)| matches!(row[at + named.len()..].chars().next(), Some('`' | ':')))
    };
    let own = std::fs::read_to_string(dir.join("README.md")).expect("the sample's README");
    let row = own.lines().find(|row| row.starts_with("| reported at |"));
    assert!(row.is_some_and(names_it), "{sample}/README.md: `reported at` should name {named}`");
    let all = std::fs::read_to_string(repo_root().join("samples/README.md")).expect("README");
    let row = all.lines().find(|row| row.starts_with(&format!("| [{sample}]")));
    assert!(row.is_some_and(names_it), "samples/README.md: the {sample} row should name {named}`");
    line
}

/// Runs the sample's default suite and checks that it fails as `bug` says and no other way:
/// one failure group, at the sample's source file and its marked line, on some seeds but not
/// all.
fn fails_only_as(bug: Bug) {
    let line = marked_line(bug.sample, bug.file, bug.kind);
    let project = format!("samples/{}", bug.sample);
    let (code, report) = run_project(&project);
    assert_eq!(code, Some(1), "{project}: {report:#}");
    let failures = report["failures"].as_array().expect("a failures array");
    let [failure] = failures.as_slice() else {
        panic!("{project} should fail in exactly one way: {failures:#?}")
    };
    assert_eq!(failure["kind"], bug.kind, "{failure:#}");
    let file = failure["file"].as_str().unwrap_or_else(|| panic!("not located: {failure:#}"));
    assert!(Path::new(file).ends_with(format!("{project}/{}", bug.file)), "{failure:#}");
    assert_eq!(failure["line"], line, "{failure:#}");
    let message = failure["message"].as_str().expect("a message");
    assert!(message.contains(bug.message), "{message}");
    let count = failure["count"].as_u64().expect("a count");
    let faults: u64 = rows(&report).iter().map(|row| row["faults"].as_u64().unwrap()).sum();
    assert_eq!(count, faults, "every fault is this failure: {report:#}");
    // The sample's README says which seeds, as the report does.
    let games: u64 = rows(&report).iter().map(|row| row["games"].as_u64().unwrap()).sum();
    let opponents = failure["opponents"].as_array().expect("opponents");
    let seeds = failure["seeds_by_opponent"].as_array().expect("seeds by opponent");
    let each: Vec<String> = opponents
        .iter()
        .zip(seeds)
        .map(|(opponent, seeds)| {
            let seeds: Vec<String> =
                seeds.as_array().unwrap().iter().map(|seed| seed.to_string()).collect();
            format!("{} vs `{}`", seeds.join(", "), opponent.as_str().unwrap())
        })
        .collect();
    let row = format!("| seeds (default suite) | {} — {count} of {games} games |", each.join("; "));
    let readme = std::fs::read_to_string(repo_root().join(&project).join("README.md")).unwrap();
    assert!(readme.lines().any(|line| line == row), "{project}/README.md should have\n{row}");
    let kind_row = readme.lines().find(|line| line.starts_with("| failure kind |"));
    // The message's first line (a JavaScript exception's stack follows on the next ones).
    let headline = message.lines().next().unwrap_or_default();
    let says = |row: &str| row.contains(&format!("`{}` — ", bug.kind)) && row.contains(headline);
    assert!(kind_row.is_some_and(says), "{project}/README.md should quote `{message}`");
    // Some seeds, not all: against every opponent, games without the fault remain.
    assert!(count > 0);
    for row in rows(&report) {
        let (faults, games) = (row["faults"].as_u64().unwrap(), row["games"].as_u64().unwrap());
        assert!(faults < games, "fails on every seed: {row:#}");
    }
}

#[test]
fn battleships_offbyone_fires_off_the_grid_on_some_seeds() {
    fails_only_as(Bug {
        file: "src/lib.rs",
        sample: "battleships-offbyone",
        kind: "illegal_move",
        message: "x out of range 0..=9",
    });
}

#[test]
fn battleships_heatmap_finds_no_placement_after_a_vertical_hit_on_some_seeds() {
    fails_only_as(Bug {
        file: "src/lib.rs",
        sample: "battleships-heatmap",
        kind: "panic",
        message: "some placement fits while a ship is afloat",
    });
}

#[test]
fn battleships_heatmap_draws_its_map_every_turn_at_the_lines_that_draw() {
    let project = repo_root().join("samples/battleships-heatmap");
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().to_str().unwrap();
    let out = botlens_building(&[
        "run",
        project.to_str().unwrap(),
        "--vs",
        "random",
        "--seeds",
        "0..1",
        "--trace-dir",
        traces,
    ]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let trace: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("random-seed0.json")).unwrap(),
    )
    .unwrap();
    let source = std::fs::read_to_string(project.join("src/lib.rs")).unwrap();
    let line_of = |call: &str| source.lines().position(|l| l.contains(call)).unwrap() as u64 + 1;
    let bot_turns: Vec<&Value> =
        trace["moves"].as_array().unwrap().iter().filter(|m| m["seat"] == 0).collect();
    assert!(bot_turns.len() >= 5, "{}", bot_turns.len());
    for turn in &bot_turns {
        let marks = turn["drawing"]["marks"].as_array().expect("every turn draws");
        let heat = marks.iter().find(|m| m["kind"] == "heat").expect("a heat map every turn");
        assert_eq!(heat["width"], 10);
        assert_eq!(heat["values"].as_array().unwrap().len(), 100);
        assert_eq!(heat["location"]["line"], line_of("draw::heat("), "{heat}");
        let status = marks.iter().find(|m| m["kind"] == "status").expect("a status line");
        assert_eq!(status["location"]["line"], line_of("draw::status("));
    }
    // The failing turn: a cold map, and the status saying so.
    let last = bot_turns.last().unwrap();
    assert_eq!(last["failure"]["kind"], "panic");
    let marks = last["drawing"]["marks"].as_array().unwrap();
    let heat = &marks.iter().find(|m| m["kind"] == "heat").unwrap()["values"];
    assert!(heat.as_array().unwrap().iter().all(|v| v == 0.0), "{heat}");
    let status = marks.iter().find(|m| m["kind"] == "status").unwrap();
    assert_eq!(status["text"], "finishing a ship: at most 0 placements cover a square");
    // Every other turn's map has heat, and its best squares labelled.
    let earlier = &bot_turns[..bot_turns.len() - 1];
    assert!(earlier.iter().all(|t| {
        let marks = t["drawing"]["marks"].as_array().unwrap();
        marks.iter().filter(|m| m["kind"] == "label").count() == 3
            && marks.iter().any(|m| m["kind"] == "cell")
    }));
}

#[test]
fn battleships_spinner_runs_out_of_fuel_in_its_hunt_loop_on_some_seeds() {
    fails_only_as(Bug {
        file: "src/lib.rs",
        sample: "battleships-spinner",
        kind: "out_of_fuel",
        message: "the turn budget of 20000000 is used up",
    });
}

#[test]
fn battleships_doubletap_moves_twice_on_some_seeds() {
    fails_only_as(Bug {
        file: "src/lib.rs",
        sample: "battleships-doubletap",
        kind: "second_move",
        message: "in one turn",
    });
}

#[test]
fn tictactoe_panicky_panics_when_x_opens_in_the_centre() {
    fails_only_as(Bug {
        file: "src/lib.rs",
        sample: "tictactoe-panicky",
        kind: "panic",
        message: "X opens on a corner or an edge",
    });
}

#[test]
fn tictactoe_forgetful_makes_no_move_when_it_faces_a_fork() {
    fails_only_as(Bug {
        file: "src/lib.rs",
        sample: "tictactoe-forgetful",
        kind: "no_move",
        message: "without making a move",
    });
}

#[test]
fn js_tictactoe_sloppy_marks_a_taken_corner_on_some_seeds() {
    if !require(&[Tool::Clang]) {
        return;
    }
    fails_only_as(Bug {
        sample: "js-tictactoe-sloppy",
        file: "bot.js",
        kind: "illegal_move",
        message: "is taken by",
    });
}

#[test]
fn js_battleships_edgy_throws_on_a_hit_in_the_top_row() {
    if !require(&[Tool::Clang]) {
        return;
    }
    fails_only_as(Bug {
        sample: "js-battleships-edgy",
        file: "bot.js",
        kind: "panic",
        message: "uncaught TypeError: cannot read property",
    });
}

#[test]
fn py_battleships_bottomless_raises_an_index_error_below_the_bottom_row() {
    fails_only_as(Bug {
        sample: "py-battleships-bottomless",
        file: "bot.py",
        kind: "panic",
        message: "uncaught IndexError: index out of range",
    });
}

#[test]
fn py_tictactoe_cornered_answers_a_corner_with_its_own_mark() {
    fails_only_as(Bug {
        sample: "py-tictactoe-cornered",
        file: "bot.py",
        kind: "illegal_move",
        message: "is taken by",
    });
}

#[test]
fn c_tictactoe_edgeless_fails_its_assert_when_only_the_forgotten_edge_is_free() {
    if !require(&[Tool::Clang]) {
        return;
    }
    fails_only_as(Bug {
        sample: "c-tictactoe-edgeless",
        file: "bot.c",
        kind: "panic",
        message: "assertion failed: square >= 0",
    });
}

#[test]
fn js_battleships_hunter_plays_clean_and_beats_random_most_of_the_time() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let report = plays_clean("js-battleships-hunter");
    let random = rows(&report).iter().find(|row| row["name"] == "random").expect("vs random");
    let (wins, games) = (random["wins"].as_u64().unwrap(), random["games"].as_u64().unwrap());
    // `random` against itself wins half; the sample wins 44 of 50.
    assert!(4 * wins >= 3 * games, "{random:#}");
}

/// Runs a strong sample's default suite: exit 0 and no failure of any kind.
fn plays_clean(sample: &str) -> Value {
    let (code, report) = run_project(&format!("samples/{sample}"));
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["failures"], serde_json::json!([]), "{report:#}");
    report
}

#[test]
fn battleships_hunter_beats_random_every_time_and_holds_its_own_against_the_rest() {
    let report = plays_clean("battleships-hunter");
    for row in rows(&report) {
        let (wins, games) = (row["wins"].as_u64().unwrap(), row["games"].as_u64().unwrap());
        match row["name"].as_str().unwrap() {
            "random" => assert_eq!(wins, games, "{row:#}"),
            // `random` would win none of these; the sample wins about 55%.
            _ => assert!(3 * wins >= games, "{row:#}"),
        }
    }
}

#[test]
fn tictactoe_minimax_never_loses() {
    let report = plays_clean("tictactoe-minimax");
    for row in rows(&report) {
        assert_eq!(row["losses"], 0, "{row:#}");
    }
    let perfect = rows(&report).iter().find(|row| row["name"] == "perfect").expect("vs perfect");
    assert_eq!(perfect["draws"], perfect["games"], "perfect play against perfect play draws");
}

#[test]
fn tictactoe_forkblind_plays_clean_and_still_loses_to_perfect_on_its_seeds() {
    let report = plays_clean("tictactoe-forkblind");
    let perfect = rows(&report).iter().find(|row| row["name"] == "perfect").expect("vs perfect");
    assert_eq!(perfect["losses"], 3, "seeds 25, 26 and 29, as its README says: {perfect:#}");
}

#[test]
fn klotski_solver_solves_every_board_at_par() {
    let report = plays_clean("klotski-solver");
    assert_eq!(rows(&report).len(), 6, "five bundled boards and `generated`");
    for row in rows(&report) {
        assert_eq!(row["wins"], row["games"], "{row:#}");
        assert_eq!(row["mean_moves"].as_f64(), row["par"].as_f64(), "{row:#}");
    }
}

#[test]
fn a_new_project_of_every_game_builds_and_runs_as_is() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for game in GameKind::ALL.map(GameKind::name) {
        let dir = tmp.path().join(format!("my-{game}-bot"));
        let dir = dir.to_str().expect("a UTF-8 temp path");
        let made = botlens_building(&["new", game, dir]);
        assert_eq!(made.code, Some(0), "{}", made.stderr);
        assert!(made.stdout.contains(&format!("botlens run {dir}")), "{}", made.stdout);
        let (code, report) = run_project(dir);
        assert_eq!(code, Some(0), "{game}: {report:#}");
        assert_eq!(report["bot"], format!("my-{game}-bot"));
        assert_eq!(report["failures"], serde_json::json!([]), "{game}: {report:#}");
        let games: u64 = rows(&report).iter().map(|row| row["games"].as_u64().unwrap()).sum();
        assert!(games > 0, "{report:#}");
    }
}

#[test]
fn new_refuses_a_non_empty_directory_and_an_unknown_game() {
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::write(tmp.path().join("notes.txt"), "mine").expect("write");
    let dir = tmp.path().to_str().expect("a UTF-8 temp path");
    let occupied = botlens_building(&["new", "tictactoe", dir]);
    assert_eq!(occupied.code, Some(2));
    assert!(occupied.stderr.contains("is not empty"), "{}", occupied.stderr);
    let unknown = botlens_building(&["new", "chess", &format!("{dir}/chess-bot")]);
    assert_eq!(unknown.code, Some(2));
    assert!(
        unknown.stderr.contains("known: battleships, tictactoe, klotski"),
        "{}",
        unknown.stderr
    );
    assert!(!tmp.path().join("chess-bot").exists());
}

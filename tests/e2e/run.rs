//! `botlens run` with reference players: tables, JSON, traces and bad input; and, with no bot
//! named, the bot the current directory is in, found upward.

use crate::support::{
    BUILD_DEADLINE, Tool, botlens, botlens_building, botlens_in_dir, botlens_with_env,
    line_after_marker, only_failure, repo_root, require,
};

#[test]
fn a_reference_suite_prints_a_table_and_succeeds() {
    let out = botlens(&[
        "run",
        "--game",
        "battleships",
        "density",
        "--vs",
        "random,hunter",
        "--seeds",
        "0..20",
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("density (battleships): 40 games"), "{}", out.stdout);
    for name in ["random", "hunter"] {
        assert!(out.stdout.lines().any(|l| l.starts_with(name)), "row for {name}: {}", out.stdout);
    }
}

#[test]
fn json_output_has_the_documented_fields() {
    let out = botlens(&[
        "run",
        "--game",
        "tictactoe",
        "perfect",
        "--vs",
        "random",
        "--seeds",
        "0..30",
        "--json",
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    assert_eq!(report["game"], "tictactoe");
    assert_eq!(report["bot"], "perfect");
    let row = &report["opponents"][0];
    assert_eq!(row["name"], "random");
    assert_eq!(row["games"], 30);
    assert_eq!(row["losses"], 0, "perfect never loses");
    assert!(report["failures"].as_array().expect("failures array").is_empty());
}

#[test]
fn traces_are_written_and_identical_across_processes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    for target in [&a, &b] {
        let out = botlens(&[
            "run",
            "--game",
            "battleships",
            "hunter",
            "--vs",
            "parity",
            "--seeds",
            "5..=6",
            "--trace-dir",
            target.to_str().unwrap(),
        ]);
        assert_eq!(out.code, Some(0), "{}", out.stderr);
    }
    for seed in [5, 6] {
        let name = format!("parity-seed{seed}.json");
        let first = std::fs::read(a.join(&name)).expect("trace written");
        let second = std::fs::read(b.join(&name)).expect("trace written");
        assert_eq!(first, second, "{name} differs between processes");
    }
}

#[test]
fn bad_names_and_ranges_are_clear_errors() {
    let unknown_game = botlens(&["run", "--game", "chess", "x"]);
    assert_eq!(unknown_game.code, Some(2));
    assert!(unknown_game.stderr.contains("unknown game `chess`"), "{}", unknown_game.stderr);
    let unknown_opponent = botlens(&["run", "--game", "tictactoe", "perfect", "--vs", "nobody"]);
    assert_eq!(unknown_opponent.code, Some(2));
    assert!(
        unknown_opponent.stderr.contains("no reference player `nobody`"),
        "{}",
        unknown_opponent.stderr
    );
    let bad_seeds = botlens(&["run", "--game", "tictactoe", "perfect", "--seeds", "9..2"]);
    assert_eq!(bad_seeds.code, Some(2));
    assert!(bad_seeds.stderr.contains("bad seed range"), "{}", bad_seeds.stderr);
    for jobs in ["0", "257", "many"] {
        let bad_jobs = botlens(&["run", "--game", "tictactoe", "perfect", "--jobs", jobs]);
        assert_eq!(bad_jobs.code, Some(2));
        assert!(bad_jobs.stderr.contains("from 1 to 256"), "{}", bad_jobs.stderr);
    }
}

#[test]
fn ranges_and_caps_too_big_to_play_are_refused_at_once() {
    for seeds in ["0..=18446744073709551615", "0..300000000"] {
        let out = botlens(&["run", "--game", "tictactoe", "perfect", "--seeds", seeds]);
        assert_eq!(out.code, Some(2), "{seeds}: {}", out.stderr);
        assert!(out.stderr.contains("more than 10,000,000 seeds"), "{}", out.stderr);
    }
    for cap in ["0", "100001", "4294967295"] {
        let out = botlens(&["run", "--game", "klotski", "optimal", "--max-turns", cap]);
        assert_eq!(out.code, Some(2), "{cap}: {}", out.stderr);
        assert!(out.stderr.contains("out of range 1..=100000"), "{}", out.stderr);
    }
}

#[test]
fn a_projects_bad_settings_are_named_in_its_manifest_before_any_build() {
    let dir = tempfile::tempdir().expect("temp dir");
    let manifest = dir.path().join("Cargo.toml");
    let write = |table: &str| {
        std::fs::write(
            &manifest,
            format!("[package]\nname = \"never-built\"\nversion = \"0.1.0\"\n[package.metadata.botlens]\ngame = \"battleships\"\n{table}"),
        )
        .expect("manifest written")
    };
    let project = dir.path().to_str().unwrap();
    for (table, says) in [
        ("opponents = [\"hunter\", \"nobody\"]\n", "no reference player `nobody`"),
        ("max_turns = 0\n", "out of range 1..=100000"),
        ("[package.metadata.botlens.limits]\nfuel_per_turn = 0\n", "fuel_per_turn"),
    ] {
        write(table);
        // The project's own target directory, so that "nothing was built" can be seen there.
        let minute = std::time::Duration::from_secs(60);
        let out = botlens_with_env(&["run", project], "", minute, &[("CARGO_TARGET_DIR", "")]);
        assert_eq!(out.code, Some(2), "{table}: {}", out.stderr);
        assert!(out.stderr.contains(&manifest.display().to_string()), "{}", out.stderr);
        assert!(out.stderr.contains(says), "{}", out.stderr);
        assert!(!dir.path().join("target").exists(), "nothing was built for {table}");
    }
}

#[test]
fn a_saved_baseline_compares_with_the_next_run() {
    use std::time::Duration;
    let project = "samples/tictactoe-minimax";
    let deadline = Duration::from_secs(600);
    let save = crate::support::botlens_with_input(
        &["run", project, "--seeds", "0..10", "--save-baseline", "e2e-baseline"],
        "",
        deadline,
    );
    assert_eq!(save.code, Some(0), "{}{}", save.stdout, save.stderr);
    let compare = crate::support::botlens_with_input(
        &["run", project, "--seeds", "0..10", "--baseline", "e2e-baseline", "--json"],
        "",
        deadline,
    );
    assert_eq!(compare.code, Some(0), "{}", compare.stderr);
    let report: serde_json::Value = serde_json::from_str(&compare.stdout).expect("JSON");
    let comparison = &report["comparison"];
    assert!(comparison["new_failures"].as_array().expect("new failures").is_empty());
    assert!(comparison["fixed_failures"].as_array().expect("fixed failures").is_empty());
    let unknown = botlens(&["run", project, "--baseline", "no-such-baseline"]);
    assert_eq!(unknown.code, Some(2));
    assert!(unknown.stderr.contains("e2e-baseline"), "lists the saved ones: {}", unknown.stderr);
}

#[test]
fn webassembly_text_runs_as_a_bot_and_as_an_opponent() {
    // The bench's raw-ABI floor bot, a Battleships bot written in WAT that starts with comments.
    let wat = repo_root().join("crates/bench/src/floor_bot.wat");
    let wat = wat.to_str().unwrap();
    let out = botlens(&["run", wat, "--game", "battleships", "--vs", "random", "--seeds", "0..10"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("floor_bot (battleships): 10 games"), "{}", out.stdout);
    let out = botlens(&["run", "--game", "battleships", "random", "--vs", wat, "--seeds", "0..10"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.lines().any(|l| l.starts_with("floor_bot")), "{}", out.stdout);
}

#[test]
fn botlens_perfmap_lists_the_bot_code_for_perf() {
    let wat = repo_root().join("crates/bench/src/floor_bot.wat");
    let run = |perfmap: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_botlens"));
        command.args(["run", "--game", "battleships", "--vs", "random", "--seeds", "0..2"]);
        // From the repository root, like every other run here: the module cache goes to the
        // ignored `target/`.
        command.arg(&wat).current_dir(repo_root()).stdout(std::process::Stdio::null());
        if perfmap {
            command.env("BOTLENS_PERFMAP", "1");
        } else {
            command.env_remove("BOTLENS_PERFMAP");
        }
        let child = command.spawn().expect("botlens starts");
        let map = std::path::PathBuf::from(format!("/tmp/perf-{}.map", child.id()));
        let status = child.wait_with_output().expect("botlens ends").status;
        assert!(status.success());
        let listed = std::fs::read_to_string(&map).ok();
        let _ = std::fs::remove_file(&map);
        listed
    };
    let listed = run(true).expect("a perf map was written");
    assert!(listed.lines().any(|l| l.contains("wasm[0]::")), "{listed}");
    assert_eq!(run(false), None, "no map unless asked for");
}

#[test]
fn traces_written_before_an_interrupt_are_whole_and_kept() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().expect("temp dir");
    let traces = dir.path().join("traces");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_botlens"))
        .args(["run", "--game", "battleships", "random", "--vs", "random", "--seeds", "0..5000000"])
        .arg("--trace-dir")
        .arg(&traces)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("botlens starts");
    // A trace is written to a hidden temporary file and renamed when whole: only those count.
    let is_whole = |path: &std::path::Path| {
        let name = path.file_name().unwrap().to_string_lossy();
        name.ends_with(".json") && !name.starts_with('.')
    };
    let count = || {
        std::fs::read_dir(&traces).map_or(0, |entries| {
            entries.filter(|e| e.as_ref().is_ok_and(|e| is_whole(&e.path()))).count()
        })
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while count() < 50 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let interrupted = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(interrupted.success());
    let status = child.wait().expect("botlens ends");
    assert!(!status.success(), "interrupted, not finished: {status}");
    let mut whole = 0;
    for entry in std::fs::read_dir(&traces).expect("traces were written") {
        let path = entry.expect("an entry").path();
        if is_whole(&path) {
            let text = std::fs::read_to_string(&path).expect("readable");
            botlens_engine::Trace::from_json(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            whole += 1;
        }
    }
    assert!(whole >= 50, "only {whole} traces");
}

/// `botlens run <project> --json`'s exit code and report.
fn run_json(args: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let out = botlens_building(args);
    let report = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|error| panic!("{args:?}: no JSON report ({error}): {}", out.stderr));
    (out.code, report, out.stderr)
}

#[test]
fn the_last_run_is_kept_so_its_worst_failure_replays_and_its_failed_games_play_again() {
    // Other tests run this sample too, always the whole suite: the last run they keep has the
    // same failures, so this test's reads do not depend on who ran last.
    let project = "samples/tictactoe-forgetful";
    let (code, full, _) = run_json(&["run", project, "--json"]);
    assert_eq!(code, Some(1), "the sample loses games by a fault");
    let faults: u64 =
        full["opponents"].as_array().unwrap().iter().map(|r| r["faults"].as_u64().unwrap()).sum();
    let worst = &full["failures"][0];

    let (code, again, stderr) = run_json(&["run", project, "--failed", "--json"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("playing again the {faults} (opponent, seed) games")),
        "{stderr}"
    );
    assert_eq!(again["games"].as_u64(), Some(faults), "only the failed games are played");
    for row in again["opponents"].as_array().unwrap() {
        assert_eq!(row["games"], row["faults"], "each game played again fails again: {row}");
    }
    assert_eq!(again["failures"][0]["line"], worst["line"]);
    assert_eq!(again["failures"][0]["count"], worst["count"]);

    let shown = botlens_building(&["replay", project, "--plain"]);
    assert_eq!(shown.code, Some(0), "{}", shown.stderr);
    let line = line_after_marker(
        &repo_root().join(project).join("src/lib.rs"),
        "botlens reports the no_move on the next line",
    );
    let said = format!("the worst failure of the last run: no_move at {project}/src/lib.rs:{line}");
    let at = shown.stderr.find(&said).unwrap_or_else(|| panic!("{}", shown.stderr));
    let after = shown.stderr[at + said.len()..].chars().next();
    assert!(matches!(after, Some(':' | ' ')), "line {line} exactly: {}", shown.stderr);
    let header = format!("seed {} ·", worst["first_seed"]);
    assert!(
        shown.stdout.lines().next().is_some_and(|first| first.contains(&header)),
        "{}",
        shown.stdout
    );
}

#[test]
fn failed_games_and_the_worst_failure_need_a_project_with_a_run_on_record() {
    let reference = botlens(&["run", "--game", "tictactoe", "perfect", "--failed"]);
    assert_eq!(reference.code, Some(2));
    assert!(
        reference.stderr.contains("`perfect` is not a project directory"),
        "{}",
        reference.stderr
    );
    let both = botlens(&["run", "samples/tictactoe-forgetful", "--failed", "--vs", "random"]);
    assert_eq!(both.code, Some(2), "--failed plays the last run's opponents");
    let project = tempfile::tempdir().unwrap();
    std::fs::write(
        project.path().join("Cargo.toml"),
        "[package]\nname = \"fresh\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[package.metadata.botlens]\ngame = \"tictactoe\"\n",
    )
    .unwrap();
    let dir = project.path().to_str().unwrap();
    let never_run = botlens(&["replay", dir]);
    assert_eq!(never_run.code, Some(2));
    assert!(never_run.stderr.contains("no run of"), "{}", never_run.stderr);
    assert!(never_run.stderr.contains("--vs NAME --seed N"), "{}", never_run.stderr);
    let not_a_project = botlens(&["replay", "docs"]);
    assert_eq!(not_a_project.code, Some(2));
    assert!(not_a_project.stderr.contains("not a bot project"), "{}", not_a_project.stderr);
}

#[test]
fn a_memory_limit_failure_names_the_line_that_grew_the_memory_over_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("leaky");
    let made = botlens_building(&["new", "tictactoe", bot.to_str().unwrap()]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    // A megabyte kept per turn in a field, in a helper `play` calls: the limit is reached at
    // the third turn's allocation, but all three megabytes were kept by the same line.
    let lib = bot.join("src/lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    let source = source
        .replace(
            "pub struct MyBot;",
            "pub struct MyBot {\n    kept: Vec<Vec<u8>>,\n}\n\nimpl MyBot {\n    #[inline(never)]\n    fn remember(&mut self) {\n        // the leak\n        self.kept.push(std::hint::black_box(vec![7u8; 1 << 20]));\n    }\n}",
        )
        .replace("        MyBot\n", "        MyBot { kept: Vec::new() }\n")
        .replace("        let view = turn.view();", "        self.remember();\n        let view = turn.view();");
    std::fs::write(&lib, source).unwrap();
    let manifest = bot.join("Cargo.toml");
    let toml = std::fs::read_to_string(&manifest).unwrap();
    let limited = format!("{toml}\n[package.metadata.botlens.limits]\nmemory_bytes = 3_500_000\n");
    std::fs::write(&manifest, limited).unwrap();

    let (code, report, stderr) =
        run_json(&["run", bot.to_str().unwrap(), "--vs", "random", "--seeds", "0..2", "--json"]);
    assert_eq!(code, Some(1), "{stderr}");
    let failure = &report["failures"][0];
    assert_eq!(failure["kind"], "memory_limit", "{report:#}");
    let line = line_after_marker(&lib, "the leak");
    let grown = &failure["memory_growth"][0];
    assert_eq!(grown["line"].as_u64(), Some(line), "{failure:#}");
    assert!(grown["bytes"].as_u64().unwrap() >= 2 << 20, "the megabytes kept before: {grown}");
    assert!(
        grown["callers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c.as_str().unwrap().ends_with("remember"))
    );
}

#[test]
fn wasted_moves_are_warnings_at_the_line_that_made_them() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, lib) = crate::support::reattacking_bot(dir.path(), "reattacker");
    let line = line_after_marker(&lib, "the re-attack");
    let args = ["run", bot.to_str().unwrap(), "--vs", "random", "--seeds", "0..4"];
    let (code, report, stderr) = run_json(&[&args[..], &["--json"]].concat());
    assert_eq!(code, Some(0), "wasted moves lose nothing: {stderr}");
    let [wasteful] = report["wasteful"].as_array().unwrap().as_slice() else {
        panic!("one opponent wasted moves: {report:#}")
    };
    assert_eq!(wasteful["games"], 4, "every game of 0..4 has over ten turns: {wasteful:#}");
    let [site] = wasteful["sites"].as_array().unwrap().as_slice() else {
        panic!("one line wasted them: {wasteful:#}")
    };
    assert_eq!(site["line"].as_u64(), Some(line), "{site:#}");
    assert!(site["file"].as_str().unwrap().ends_with("src/lib.rs"), "{site:#}");
    assert!(site["function"].as_str().unwrap().ends_with("again"), "{site:#}");
    let callers = site["stack"]["frames"].as_array().unwrap();
    assert!(callers.iter().any(|f| f["function"].as_str().unwrap().ends_with("play")), "{site:#}");
    assert!(site["action"].as_str().unwrap().starts_with("attack("), "{site:#}");
    let seed = wasteful["first_seed"].as_u64().unwrap();
    assert!(seed < 4 && site["moves"].as_u64().unwrap() >= 1, "{wasteful:#}");
    // The terminal says the same, and how to step through that game.
    let out = botlens(&args);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.contains("wasted moves (re-attacks) in 4 games vs random"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains(&format!("src/lib.rs:{line}:")), "{}", out.stdout);
    assert!(out.stdout.contains(&format!("--vs random --seed {seed}")), "{}", out.stdout);
    // In CI: a SARIF warning and a workflow command at that line (the bot built once).
    crate::ci::wasted_moves_are_sarif_and_workflow_warnings(&args, dir.path(), "reattacker", line);
}

/// The file a failure names, as `run` in `dir` reported it (absolute, or relative to `dir`),
/// made canonical.
fn reported_file(dir: &std::path::Path, failure: &serde_json::Value) -> std::path::PathBuf {
    let file = failure["file"].as_str().unwrap_or_else(|| panic!("not located: {failure:#}"));
    dir.join(file).canonicalize().unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// `botlens run --json …` with no bot named, in `dir`: the exit code, the one failure group and
/// stderr.
fn run_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let args: Vec<&str> = ["run", "--json"].iter().chain(args).copied().collect();
    let out = botlens_in_dir(dir, &args, "", BUILD_DEADLINE, &[]);
    let failure = if out.code == Some(1) { only_failure(&out) } else { serde_json::Value::Null };
    (out.code, failure, out.stderr)
}

#[test]
fn run_with_no_bot_named_plays_the_rust_project_its_directory_is_in() {
    // Built where `samples.rs` builds it: the project's own target directory.
    let sample = repo_root().join("samples/tictactoe-panicky");
    let (code, failure, stderr) = run_in(&sample.join("src"), &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(failure["kind"], "panic", "{failure:#}");
    let lib = sample.join("src/lib.rs");
    assert_eq!(reported_file(&sample.join("src"), &failure), lib, "{failure:#}");
    let line = line_after_marker(&lib, "botlens reports the panic on the next line");
    assert_eq!(failure["line"], line, "{failure:#}");
    // Its games replay from where `run` ran, as printed.
    let replay = failure["replay"].as_str().unwrap();
    assert!(replay.starts_with("botlens replay .. --vs "), "{replay}");
    // `replay` finds it too, and re-plays the worst failure of that last run.
    let replayed =
        botlens_in_dir(&sample.join("src"), &["replay", "--at", "0"], "", BUILD_DEADLINE, &[]);
    assert_eq!(replayed.code, Some(0), "{}", replayed.stderr);
    let said = format!("botlens: the worst failure of the last run: panic at lib.rs:{line}:");
    assert!(replayed.stderr.starts_with(&said), "{}", replayed.stderr);
    // A name given means exactly that: `.` in `src/` is no bot.
    let named = botlens_in_dir(&sample.join("src"), &["run", "."], "", BUILD_DEADLINE, &[]);
    assert_eq!(named.code, Some(2), "{}", named.stderr);
    assert_eq!(
        named.stderr.trim_end(),
        "botlens: error: . is not a bot project: no Cargo.toml there (create one with `botlens new <game> <dir>`)"
    );
}

#[test]
fn run_with_no_bot_named_plays_the_bot_folder_above_in_c_and_javascript() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    for (sample, source, extra, args) in [
        ("c-tictactoe-edgeless", "bot.c", "notes/plan.h", &[][..]),
        // A subdirectory with JavaScript files of its own is still the bot folder's: the
        // folder above has the botlens.toml. Seed 4 loses to random (the sample's README).
        (
            "js-battleships-edgy",
            "bot.js",
            "lib/helpers.js",
            &["--vs", "random", "--seeds", "4"][..],
        ),
    ] {
        let bot = scratch.path().join(sample);
        std::fs::create_dir_all(bot.join(extra).parent().unwrap()).unwrap();
        for file in [source, "botlens.toml"] {
            std::fs::copy(repo_root().join("samples").join(sample).join(file), bot.join(file))
                .unwrap();
        }
        std::fs::write(bot.join(extra), "").unwrap();
        let below = bot.join(extra).parent().unwrap().to_owned();
        let (code, failure, stderr) = run_in(&below, args);
        assert_eq!(code, Some(1), "{sample}: {stderr}");
        assert_eq!(failure["kind"], "panic", "{sample}: {failure:#}");
        let source = bot.join(source).canonicalize().unwrap();
        assert_eq!(reported_file(&below, &failure), source, "{sample}: {failure:#}");
        let replay = failure["replay"].as_str().unwrap();
        assert!(replay.starts_with("botlens replay .. --vs "), "{sample}: {replay}");
    }
}

#[test]
fn run_with_no_bot_named_outside_any_bot_says_where_it_looked() {
    let nowhere = tempfile::tempdir().unwrap();
    let dir = nowhere.path().canonicalize().unwrap();
    let out = botlens_in_dir(&dir, &["run"], "", std::time::Duration::from_secs(60), &[]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(
        out.stderr.trim_end(),
        format!(
            "botlens: error: `{}` is not in a bot project: no botlens.toml, and no Cargo.toml with [package.metadata.botlens], there or in a directory above it (create one with `botlens new <game> <dir>`, or name the bot)",
            dir.display()
        )
    );
}

#[test]
fn progress_names_the_tool_that_builds_each_language() {
    let cases = [
        ("c", Tool::Clang, "clang"),
        ("zig", Tool::Zig, "zig"),
        ("assemblyscript", Tool::Node, "asc"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (lang, tool, builder) in cases {
        if !require(&[tool]) {
            continue;
        }
        let bot = dir.path().join(lang);
        let name = bot.to_str().unwrap();
        let made = botlens(&["new", "tictactoe", name, "--lang", lang]);
        assert_eq!(made.code, Some(0), "{}", made.stderr);
        // `replay` says its stages on stderr, as `run`'s spinner shows them.
        let out = botlens_building(&["replay", name, "--vs", "random", "--seed", "0", "--plain"]);
        assert_eq!(out.code, Some(0), "{lang}: {}", out.stderr);
        let building: Vec<&str> =
            out.stderr.lines().filter(|line| line.contains("building the bot")).collect();
        assert_eq!(building, [format!("botlens: building the bot with {builder}…")], "{lang}");
    }
}

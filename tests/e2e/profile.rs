//! `botlens profile`: the hot function and line of real samples, the same bytes on every run, a
//! speedscope file with the format's required fields, the turn that ran out of fuel, and bad
//! input refused with exit status 2.

use serde_json::Value;

use crate::support::{botlens, line_after_marker, repo_root};

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

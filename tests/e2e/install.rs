//! An installed `botlens` needs no checkout: the binary, copied out of the tree and run where
//! the checkout cannot be seen (a private mount namespace lays an empty file system over it),
//! scaffolds a bot (with its own copy of the SDK, so it still builds when moved and the cache
//! is gone), builds and plays it, writes a replay page and measures itself with its bundled SDK
//! and samples.
//!
//! Needs `unshare` (util-linux) and user namespaces (the mount namespace is made in a user
//! namespace of the test's own, so no privilege is needed).

use std::path::Path;
use std::process::Command;

use crate::support::repo_root;

/// Runs `script` with `sh -e` in a mount namespace where the checkout is an empty directory;
/// `$BOTLENS` is the copied binary, `$WORK` a scratch directory outside the checkout and
/// `$BOTLENS_CACHE_DIR` botlens's cache, `cache`.
fn without_checkout(botlens: &Path, work: &Path, cache: &Path, script: &str) -> (bool, String) {
    let repo = repo_root();
    let hidden = format!(
        "mount -t tmpfs tmpfs {repo} && test -z \"$(ls -A {repo})\" && {script}",
        repo = shell(&repo.display().to_string())
    );
    let out = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "--propagation", "private"])
        .args(["sh", "-e", "-c", &hidden])
        .env("BOTLENS", botlens)
        .env("WORK", work)
        .env("BOTLENS_CACHE_DIR", cache)
        .current_dir(work)
        .output()
        .expect("unshare runs (install util-linux)");
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

fn shell(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

#[test]
fn a_copied_binary_scaffolds_builds_plays_replays_and_benches_without_the_checkout() {
    let scratch = tempfile::tempdir().expect("a temporary directory outside the checkout");
    assert!(!scratch.path().starts_with(repo_root()), "{}", scratch.path().display());
    let botlens = scratch.path().join("bin").join("botlens");
    std::fs::create_dir_all(botlens.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_botlens"), &botlens).expect("the binary copies");
    let work = scratch.path().join("work");
    let cache = scratch.path().join("cache");
    std::fs::create_dir_all(&work).unwrap();

    let (ok, out) = without_checkout(
        &botlens,
        &work,
        &cache,
        "\"$BOTLENS\" new tictactoe \"$WORK/bot\" \
         && \"$BOTLENS\" run \"$WORK/bot\" --seeds 0..4 --json > \"$WORK/report.json\" \
         && \"$BOTLENS\" replay \"$WORK/bot\" --vs perfect --seed 1 --html \"$WORK/game.html\" \
         && mv \"$WORK/bot\" \"$WORK/moved\" && rm -rf \"$BOTLENS_CACHE_DIR\" \
         && \"$BOTLENS\" run \"$WORK/moved\" --seeds 0..1 --json > \"$WORK/moved.json\"",
    );
    assert!(ok, "{out}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("report.json")).unwrap())
            .expect("the report is JSON");
    assert_eq!(report["games"], 8, "{report}");
    let manifest = std::fs::read_to_string(work.join("moved/Cargo.toml")).unwrap();
    assert!(
        manifest.contains("botlens-sdk = { path = \"botlens/sdk\" }"),
        "the project has its own SDK:\n{manifest}"
    );
    // Moved, with botlens's cache gone, the project still builds and plays.
    let moved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("moved.json")).unwrap())
            .expect("the report is JSON");
    assert_eq!(moved["games"], 2, "{moved}");
    assert!(std::fs::read_to_string(work.join("game.html")).unwrap().contains("<html"));

    // The bench builds its bots in the cache the other tests share (the JavaScript runner, built
    // from the sources bundled in botlens, is there already; a fresh cache was tried above).
    let shared_cache = botlens_bots::bundled::cache_root().expect("the tests' cache directory");
    let (ok, out) = without_checkout(
        &botlens,
        &work,
        &shared_cache,
        "\"$BOTLENS\" bench --games 10 --no-latency --json > \"$WORK/bench.json\"",
    );
    assert!(ok, "{out}");
    let bench: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("bench.json")).unwrap())
            .expect("the bench report is JSON");
    check_bench(&bench);
    assert!(shared_cache.join("bench").is_dir(), "the bench's scratch is in the cache directory");
}

/// Every documented figure of a small `botlens bench --json` is there and positive.
fn check_bench(report: &serde_json::Value) {
    let speeds = report["speeds"].as_array().expect("speeds");
    let games: Vec<&str> = speeds.iter().map(|s| s["game"].as_str().unwrap()).collect();
    for game in ["battleships", "tictactoe", "klotski"] {
        assert!(games.contains(&game), "a row for {game}: {games:?}");
    }
    let floor = speeds.iter().find(|s| s["wasm"].as_str().unwrap().contains("floor"));
    assert!(floor.is_some(), "a row for the raw-ABI floor bot: {speeds:?}");
    for row in speeds {
        for field in [
            "native_games_per_s",
            "wasm_games_per_s",
            "native_over_wasm",
            "bot_turns_per_game",
            "sandbox_floor_us_per_game",
        ] {
            assert!(row[field].as_f64().is_some_and(|v| v > 0.0), "{field} in {row}");
        }
        // The least ratio is given where the native side is two copies of one player.
        let symmetric = row["native"].as_str().is_some_and(|n| n == "random vs random");
        assert_eq!(row["least_native_over_wasm"].as_f64().is_some(), symmetric, "{row}");
        // So is the bot's instance as its own games have it, which that least ratio counts.
        let instance = row["instance_us_per_game"].as_f64();
        assert_eq!(instance.is_some_and(|us| us > 0.0), symmetric, "{row}");
    }
    for (section, field) in [
        ("sandbox_floor", "instance_us"),
        ("sandbox_floor", "call_us"),
        ("sandbox_floor", "host_call_us"),
        ("wasm_cost", "instantiate_us_per_game"),
        ("wasm_cost", "guest_us_per_turn"),
        ("wasm_cost", "floor_guest_us_per_turn"),
        ("wasm_cost", "floor_fuel_per_turn"),
        ("compile", "cold_ms"),
        ("compile", "disk_cache_ms"),
        ("suite", "one_core_ms"),
        ("suite", "all_cores_ms"),
    ] {
        assert!(report[section][field].as_f64().is_some_and(|v| v > 0.0), "{section}.{field}");
    }
    let analysis = report["analysis"].as_array().expect("analysis");
    let analysed: Vec<&str> = analysis.iter().map(|a| a["game"].as_str().unwrap()).collect();
    assert_eq!(analysed, ["tictactoe", "klotski", "battleships"], "a row per game");
    for row in analysis {
        for field in ["run_ms", "analyze_ms", "ratio"] {
            assert!(row[field].as_f64().is_some_and(|v| v > 0.0), "{field} in {row}");
        }
    }
    assert!(report["save_to_report"].is_null(), "skipped with --no-latency");
    assert!(report["js_save_to_diagnostics"].is_null(), "skipped with --no-latency");
    assert!(report["py_save_to_diagnostics"].is_null(), "skipped with --no-latency");
    let languages = report["languages"].as_array().expect("languages");
    for lang in ["JavaScript", "C", "Zig", "AssemblyScript"] {
        assert!(languages.iter().any(|l| l["lang"] == lang), "a row in {lang}: {languages:?}");
    }
    for row in languages {
        let measured = row["games_per_s"].as_f64().is_some_and(|v| v > 0.0)
            && row["fuel_per_turn"].as_f64().is_some_and(|v| v > 0.0);
        let skipped = row["skipped"].as_str().is_some_and(|why| !why.is_empty());
        assert!(measured != skipped, "measured, or skipped with a reason: {row}");
    }
    let c = languages.iter().filter(|l| l["lang"] == "C");
    assert!(c.clone().count() == 2, "the C starters of both games: {languages:?}");
    for row in c.filter(|l| l["skipped"].is_null()) {
        assert!(row["over_rust"].as_f64().is_some_and(|v| v > 0.0), "C ÷ Rust: {row}");
    }
    assert!(report["peak_rss_mib"].as_f64().is_some_and(|v| v > 0.0));
}

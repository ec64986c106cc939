//! `botlens bench`: a small run produces every documented figure, and bad input is refused.

use std::time::Duration;

use crate::support::{botlens, botlens_with_input};

#[test]
fn a_small_bench_reports_every_figure_as_json() {
    let out = botlens_with_input(
        &["bench", "--games", "10", "--no-latency", "--json"],
        "",
        Duration::from_secs(900),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    let speeds = report["speeds"].as_array().expect("speeds");
    let games: Vec<&str> = speeds.iter().map(|s| s["game"].as_str().unwrap()).collect();
    for game in ["battleships", "tictactoe", "klotski"] {
        assert!(games.contains(&game), "a row for {game}: {games:?}");
    }
    let floor = speeds.iter().find(|s| s["wasm"].as_str().unwrap().contains("floor"));
    assert!(floor.is_some(), "a row for the raw-ABI floor bot: {speeds:?}");
    for row in speeds {
        for field in ["native_games_per_s", "wasm_games_per_s", "native_over_wasm"] {
            assert!(row[field].as_f64().is_some_and(|v| v > 0.0), "{field} in {row}");
        }
    }
    for (section, field) in [
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
    assert!(report["save_to_report"].is_null(), "skipped with --no-latency");
    assert!(report["peak_rss_mib"].as_f64().is_some_and(|v| v > 0.0));
}

#[test]
fn bad_bench_input_is_refused() {
    let zero = botlens(&["bench", "--games", "0"]);
    assert_eq!(zero.code, Some(2));
    assert!(zero.stderr.contains("at least 1"), "{}", zero.stderr);
    let nowhere = botlens(&["bench", "--samples", "/no/such/samples"]);
    assert_eq!(nowhere.code, Some(2));
    assert!(nowhere.stderr.contains("--samples"), "{}", nowhere.stderr);
}

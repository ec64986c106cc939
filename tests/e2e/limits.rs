//! A project's limits within the caps the user sets (docs/limits.md): a project that asks for
//! more than a cap is refused before anything is built, naming the cap and how to raise it; the
//! user raises it with a flag or the `[caps]` of the config file `BOTLENS_CONFIG` names; and
//! the config file is the user's alone (a missing one that the variable names, or a cap out of
//! range, is an error).
//!
//! Every project here stops before its build (its limits are refused, or an opponent is
//! unknown once they pass), so no test needs a toolchain.

use std::path::Path;
use std::time::Duration;

use crate::support::{Output, botlens_with_env};

/// `botlens args…` with the user's config file `config` (written first).
fn with_config(dir: &Path, config: &str, args: &[&str]) -> Output {
    let file = dir.join("config.toml");
    std::fs::write(&file, config).expect("a config file");
    let file = file.display().to_string();
    // The project's own target directory, so that "nothing was built" can be seen there.
    let env = [("BOTLENS_CONFIG", file.as_str()), ("CARGO_TARGET_DIR", "")];
    botlens_with_env(args, "", Duration::from_secs(60), &env)
}

/// A JavaScript bot folder `dir/bot` whose `botlens.toml` has `limits` under `[limits]`, playing
/// `opponents`.
fn folder(dir: &Path, limits: &str, opponents: &str) -> String {
    let bot = dir.join("bot");
    std::fs::create_dir_all(&bot).expect("a bot folder");
    let settings = format!("game = \"tictactoe\"\nopponents = [{opponents}]\n\n[limits]\n{limits}");
    std::fs::write(bot.join("botlens.toml"), settings).expect("its settings");
    std::fs::write(bot.join("bot.js"), "function Bot() {}\n").expect("its source");
    bot.display().to_string()
}

#[test]
fn a_project_asking_for_more_than_a_cap_is_refused_until_the_user_raises_it() {
    let dir = tempfile::tempdir().unwrap();
    let hours = "wall_clock_ms_per_turn = 3600000\nfuel_per_turn = 9223372036854775807\n";
    let bot = folder(dir.path(), hours, "\"nobody\"");
    let config = dir.path().join("config.toml");
    let refused = with_config(dir.path(), "", &["run", &bot]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert_eq!(
        refused.stderr,
        format!(
            "botlens: error: {bot}/botlens.toml: [limits]: fuel_per_turn = 9223372036854775807 is \
             above the cap of 4000000000 the user allows (docs/limits.md); to run this project as \
             it asks, raise the cap with `--max-fuel-per-turn 9223372036854775807` or \
             `fuel_per_turn = 9223372036854775807` under [caps] in {}\n",
            config.display()
        )
    );
    let one_raised =
        with_config(dir.path(), "", &["run", &bot, "--max-fuel-per-turn", "9223372036854775807"]);
    assert!(
        one_raised.stderr.contains("wall_clock_ms_per_turn = 3600000 is above the cap of 60000"),
        "{}",
        one_raised.stderr
    );
    // Raised by flags, or by the config file: the limits pass, and the unknown opponent is next.
    let flags =
        ["--max-fuel-per-turn", "9223372036854775807", "--max-wall-clock-ms-per-turn", "3600000"];
    let raised = with_config(dir.path(), "", &[&["run", bot.as_str()][..], &flags].concat());
    assert!(raised.stderr.contains("no reference player `nobody`"), "{}", raised.stderr);
    let caps = "[caps]\nfuel_per_turn = 9223372036854775807\nwall_clock_ms_per_turn = 3600000\n";
    let raised = with_config(dir.path(), caps, &["run", &bot]);
    assert!(raised.stderr.contains("no reference player `nobody`"), "{}", raised.stderr);
    // A flag lowers the config file's cap again.
    let lowered =
        with_config(dir.path(), caps, &["run", &bot, "--max-wall-clock-ms-per-turn", "1000"]);
    assert!(
        lowered.stderr.contains("wall_clock_ms_per_turn = 3600000 is above the cap of 1000"),
        "{}",
        lowered.stderr
    );
}

#[test]
fn a_rust_projects_memory_and_build_timeout_are_capped_before_its_build() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("greedy");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/lib.rs"), "").unwrap();
    let manifest = |botlens: &str| {
        let text = format!(
            "[package]\nname = \"greedy\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[lib]\n\
             crate-type = [\"cdylib\"]\n[package.metadata.botlens]\ngame = \"tictactoe\"\n{botlens}"
        );
        std::fs::write(project.join("Cargo.toml"), text).unwrap();
    };
    let project_arg = project.display().to_string();
    manifest("[package.metadata.botlens.limits]\nmemory_bytes = 4294967296\n");
    let out = with_config(
        dir.path(),
        "",
        &["compare", &project_arg, "random", "--game", "tictactoe", "--jobs", "2"],
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "Cargo.toml: [package.metadata.botlens.limits]: memory_bytes = 4294967296 is above the \
             cap of 1073741824 the user allows"
        ),
        "{}",
        out.stderr
    );
    manifest("build_timeout_secs = 86400\n");
    let out = with_config(dir.path(), "", &["run", &project_arg]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "Cargo.toml: [package.metadata.botlens]: build_timeout_secs = 86400 is above the cap \
             of 1800 the user allows"
        ),
        "{}",
        out.stderr
    );
    assert!(!project.join("target").exists(), "nothing was built");
}

#[test]
fn the_users_config_file_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let bot = folder(dir.path(), "", "\"random\"");
    let out = with_config(dir.path(), "[caps]\nmemory_bytes = 1\n", &["run", &bot]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let config = dir.path().join("config.toml");
    assert_eq!(
        out.stderr,
        format!(
            "botlens: error: {} [caps]: the cap memory_bytes = 1 is out of range 65536..=4294967296\n",
            config.display()
        )
    );
    let missing = dir.path().join("none.toml").display().to_string();
    let out = botlens_with_env(
        &["run", &bot],
        "",
        Duration::from_secs(60),
        &[("BOTLENS_CONFIG", &missing)],
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with(&format!("botlens: error: cannot read botlens's config file {missing}: ")),
        "{}",
        out.stderr
    );
    let out = with_config(dir.path(), "", &["run", &bot, "--max-memory-bytes", "5"]);
    assert_eq!(
        out.stderr,
        "botlens: error: --max-memory-bytes: the cap memory_bytes = 5 is out of range 65536..=4294967296\n"
    );
}

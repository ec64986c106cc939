//! Bots in Zig with botlens's `botlens.zig`: `botlens new --lang zig` scaffolds a bot that
//! builds and plays clean; a compile error is located; a bot's index out of bounds is located
//! at its line of `bot.zig`, not in the SDK or Zig's standard library.
//!
//! The tests need zig (`pip install ziglang`, as `.ci/run` does); its first build of a bot
//! takes several seconds.

use std::time::Duration;

use crate::support::{botlens_with_input, only_failure};

/// Deadline for a run that builds a Zig bot (the first builds Zig's compiler-rt).
const DEADLINE: Duration = Duration::from_secs(300);

#[test]
fn a_new_zig_bot_plays_clean_and_its_failures_are_located_in_bot_zig() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("my-zig-bot");
    let name = bot.display().to_string();
    let made = botlens_with_input(&["new", "tictactoe", &name, "--lang", "zig"], "", DEADLINE);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    let out = botlens_with_input(&["run", &name, "--json"], "", DEADLINE);
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["failures"].as_array().map(Vec::len), Some(0), "{report:#}");

    // An index out of bounds on the bot's second turn, on the marked line.
    let source = std::fs::read_to_string(bot.join("bot.zig")).unwrap();
    let source = source.replace(
        "    turns += 1;\n",
        "    turns += 1;\n    if (turns == 2) _ = view.board[turns * 9]; // out of bounds\n",
    );
    std::fs::write(bot.join("bot.zig"), &source).unwrap();
    let line = source.lines().position(|l| l.ends_with("// out of bounds")).unwrap() as u64 + 1;
    let out = botlens_with_input(&["run", &name, "--vs", "random", "--json"], "", DEADLINE);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let failure = only_failure(&out);
    assert_eq!(failure["kind"], "trap", "{failure:#}");
    assert!(failure["file"].as_str().unwrap().ends_with("bot.zig"), "{failure:#}");
    assert_eq!(failure["line"], line, "{failure:#}");

    // A compile error, located.
    std::fs::write(bot.join("bot.zig"), source.replace("turns += 1;", "turns += ;")).unwrap();
    let out = botlens_with_input(&["run", &name], "", DEADLINE);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("bot.zig:"), "{}", out.stderr);
    assert!(out.stderr.contains("error: expected expression"), "{}", out.stderr);
}

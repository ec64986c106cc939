//! Bots in Zig with botlens's `botlens.zig`: `botlens new --lang zig` scaffolds bots for every
//! game that build and play clean; a compile error is located; Zig's panics (an index out of
//! bounds, `@panic`, an overflow or `unreachable` in a function with other such checks) reach
//! the failure with Zig's message, located at the bot's line of `bot.zig`, not in the SDK or
//! Zig's standard library, without the bot declaring the SDK's panic handler; a bot's own
//! handler is kept.
//!
//! The tests need zig (`pip install ziglang`, as `.ci/run` does); its first build of a bot
//! takes several seconds.

use std::path::Path;
use std::time::Duration;

use crate::support::{
    Output, Tool, botlens_with_input, new_bot_plays_clean, only_failure, require,
};

/// Deadline for a run that builds a Zig bot (the first builds Zig's compiler-rt).
const DEADLINE: Duration = Duration::from_secs(300);

/// `botlens args…` with the deadline of a Zig build.
fn botlens_zig(args: &[&str]) -> Output {
    botlens_with_input(args, "", DEADLINE)
}

/// The one failure, against `vs`, of the bot at `bot` as `source` with `planted` (ending in
/// `// planted`) after its line `after`; and the planted line's number.
fn planted_failure(
    bot: &Path,
    vs: &str,
    (source, after): (&str, &str),
    planted: &str,
) -> (serde_json::Value, u64) {
    let after = format!("{after}\n");
    assert!(source.contains(&after), "the bot has the line {after}");
    let source = source.replace(&after, &format!("{after}{planted} // planted\n"));
    std::fs::write(bot.join("bot.zig"), &source).unwrap();
    let line = source.lines().position(|l| l.ends_with("// planted")).unwrap() as u64 + 1;
    let name = bot.display().to_string();
    let out = botlens_zig(&["run", &name, "--vs", vs, "--seeds", "0..2", "--json"]);
    assert_eq!(out.code, Some(1), "{planted}: {}\n{}", out.stdout, out.stderr);
    (only_failure(&out), line)
}

/// The line of the Tic-tac-toe starter that planted failures follow.
const COUNTED: &str = "    turns += 1;";

#[test]
fn new_zig_bots_play_clean_and_their_panics_are_located_in_bot_zig_with_zigs_message() {
    if !require(&[Tool::Zig]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    new_bot_plays_clean(botlens_zig, "zig", "battleships", dir.path());
    let klotski = new_bot_plays_clean(botlens_zig, "zig", "klotski", dir.path());
    // A slide of a piece the board does not have: an illegal move at the bot's `move` call.
    let source = std::fs::read_to_string(klotski.join("bot.zig")).unwrap();
    let bad = "    _ = botlens.move(\"nobody\", .down);";
    let anchor = (source.as_str(), "    const view = botlens.klotski();");
    let (failure, line) = planted_failure(&klotski, "hengdaolima", anchor, bad);
    assert_eq!(failure["kind"], "illegal_move", "{failure:#}");
    assert!(failure["message"].as_str().unwrap().contains("no piece `nobody`"), "{failure:#}");
    assert_eq!(failure["line"], line, "{failure:#}");
    let bot = new_bot_plays_clean(botlens_zig, "zig", "tictactoe", dir.path());

    // Zig's safety checks and `@panic`, on the bot's second turn, each at its line and with
    // Zig's message. `play` has other argument-less checks besides the planted overflow and
    // `unreachable` (`turns += 1` overflows, the last line is `unreachable`), whose calls of
    // the same handler LLVM's tail merging would join into one call at line 0.
    let path = bot.join("bot.zig");
    let source = std::fs::read_to_string(&path).unwrap();
    assert!(source.contains("    unreachable; //"), "the starter's play ends in unreachable");
    for (planted, message) in [
        ("    if (turns == 2) _ = view.board[turns * 9];", "index out of bounds: index 18, len 9"),
        ("    if (turns == 2) @panic(\"marker text\");", "marker text"),
        ("    var small: u8 = 250;\n    small += @intCast(turns * 3);", "integer overflow"),
        ("    if (turns == 2) unreachable;", "reached unreachable code"),
    ] {
        let (failure, line) = planted_failure(&bot, "random", (&source, COUNTED), planted);
        assert_eq!(failure["kind"], "panic", "{planted}: {failure:#}");
        assert_eq!(failure["message"], message, "{planted}: {failure:#}");
        assert_eq!(failure["line"], line, "{planted}: {failure:#}");
        assert!(failure["file"].as_str().unwrap().ends_with("bot.zig"), "{planted}: {failure:#}");
    }

    // The starter does not declare a panic handler; a bot that declares its own keeps it.
    assert!(!source.contains("pub const panic"), "the starter declares no panic handler");
    let handler = "fn mine(_: []const u8, _: ?usize) noreturn {\n    botlens.fail(@src(), \"my own handler\"); // handler\n}\n";
    let own =
        format!("{source}pub const panic = @import(\"std\").debug.FullPanic(mine);\n{handler}");
    let (failure, _) = planted_failure(
        &bot,
        "random",
        (&own, COUNTED),
        "    if (turns == 2) _ = view.board[turns * 9];",
    );
    let own = std::fs::read_to_string(&path).unwrap();
    let line = own.lines().position(|l| l.ends_with("// handler")).unwrap() as u64 + 1;
    assert_eq!(failure["kind"], "panic", "{failure:#}");
    assert_eq!(failure["message"], "my own handler", "{failure:#}");
    assert_eq!(failure["line"], line, "{failure:#}");
    assert!(failure["file"].as_str().unwrap().ends_with("bot.zig"), "{failure:#}");

    // A compile error, located.
    std::fs::write(&path, source.replace("turns += 1;", "turns += ;")).unwrap();
    let out = botlens_zig(&["run", &bot.display().to_string()]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("bot.zig:"), "{}", out.stderr);
    assert!(out.stderr.contains("error: expected expression"), "{}", out.stderr);
}

/// A Tic-tac-toe bot that draws [`crate::support::DRAWN`] every turn with `botlens.draw`, each
/// call below its marker, then marks the first free square.
const DRAWING_BOT: &str = r#"const botlens = @import("botlens");

comptime {
    botlens.exportBot(@This());
}

pub fn play() void {
    const view = botlens.tictactoe();
    var heat: [9]f32 = undefined;
    for (&heat, 0..) |*value, i| value.* = @floatFromInt(i);
    // draws the cell
    botlens.draw.cell(1, 1, .red);
    // draws the heat map
    botlens.draw.heat(3, &heat);
    // draws the arrow
    botlens.draw.arrow(0, 0, 2, 2, botlens.draw.Colour.intensity(0.5));
    // draws the label
    botlens.draw.label(0, 2, "hi", botlens.draw.Colour.rgb(1, 2, 3));
    // draws the status
    botlens.draw.status("thinking");
    for (view.board, 0..) |square, i| {
        if (square == '.') {
            _ = botlens.mark(@intCast(i % 3), @intCast(i / 3));
            return;
        }
    }
}
"#;

#[test]
fn a_zig_bots_marks_are_in_its_traces_at_its_lines() {
    if !require(&[Tool::Zig]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    crate::support::assert_draws(botlens_zig, dir.path(), "bot.zig", DRAWING_BOT);
}

//! `botlens watch`: reruns on save, what changed between runs (a failure whose lines moved
//! included), cancelled stale runs, failed builds, and a clean stop on Ctrl-C.
//!
//! Each test writes a small Tic-tac-toe bot project into a temporary directory and edits its
//! `src/lib.rs` while `botlens watch` runs as a child process. The bots build into a shared
//! target directory (`support::shared_target`) so the SDK is compiled once for every test and run.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::{Tool, line_after_marker, repo_root, require};

/// The first run builds the SDK and serde for wasm: allow a few minutes on a busy machine.
pub(crate) const FIRST_RUN: Duration = Duration::from_secs(300);
/// Later runs rebuild only the bot.
pub(crate) const LATER_RUN: Duration = Duration::from_secs(120);

/// A bot that marks the first free square: never loses by a fault.
pub(crate) const GOOD: &str = "(0..9).find(|&i| view.at(i % 3, i / 3).is_none()).unwrap_or(0)";
/// A bot that always marks the top-left square: its second mark is an illegal move.
pub(crate) const BUGGY: &str = "{ let _ = view; 0 }";
/// A bot that panics on its first move, at the line after the `// the bug` comment.
const PANICS: &str =
    "{\n        let _ = view;\n        // the bug\n        panic!(\"no square suits me\")\n    }";
/// Two comment lines put above the bug, to be deleted so that the bug moves up two lines.
const SPACERS: &str = "// Spacer one, deleted by the test.\n// Spacer two, deleted too.\n";
/// A bot that does not compile.
const BROKEN: &str = "{ let _ = view; \"not a number\" }";

/// The bot's source with `choice` as the expression choosing the square (line 13).
fn bot_source(choice: &str) -> String {
    format!(
        r#"//! A test bot for `botlens watch`.

use botlens_sdk::{{Bot, Start, TicTacToe, Turn, export}};

pub struct Tester;

impl Bot for Tester {{
    type Game = TicTacToe;
    fn new(_start: Start) -> Self {{
        Tester
    }}
    fn play(&mut self, turn: &mut Turn<TicTacToe>) {{
        let view = turn.view();
        let square: usize = {choice};
        turn.mark((square % 3) as i32, (square / 3) as i32);
    }}
}}

export!(Tester);
"#
    )
}

/// Writes a bot project named `name` into a fresh temporary directory. With `slow_build`, a
/// build script makes every build take three seconds, so a test can edit during a run.
pub(crate) fn bot_project(name: &str, slow_build: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let sdk = repo_root().join("crates/sdk");
    let manifest = format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2024"
publish = false

[lib]
crate-type = ["cdylib"]

[dependencies]
botlens-sdk = {{ path = "{}" }}

[profile.release]
debug = "line-tables-only"

[workspace]

[package.metadata.botlens]
game = "tictactoe"
opponents = ["random"]
seeds = "0..20"
"#,
        sdk.display()
    );
    std::fs::write(dir.path().join("Cargo.toml"), manifest).expect("write Cargo.toml");
    std::fs::create_dir(dir.path().join("src")).expect("mkdir src");
    write_source(dir.path(), GOOD);
    if slow_build {
        std::fs::write(
            dir.path().join("build.rs"),
            "//! Slows every build down.\nfn main() {\n    std::thread::sleep(std::time::Duration::from_secs(3));\n}\n",
        )
        .expect("write build.rs");
    }
    dir
}

pub(crate) fn write_source(project: &Path, choice: &str) {
    std::fs::write(project.join("src/lib.rs"), bot_source(choice)).expect("write src/lib.rs");
}

/// A running `botlens watch`, interrupted (then killed if need be) when dropped, so no test
/// leaves one behind, even when it fails.
pub(crate) struct Watcher {
    child: Child,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

impl Watcher {
    fn start(project: &Path) -> Watcher {
        Watcher::start_with(project, &[])
    }

    /// `botlens watch` of `project` with `args` too.
    pub(crate) fn start_with(project: &Path, args: &[&str]) -> Watcher {
        let mut child = Command::new(env!("CARGO_BIN_EXE_botlens"))
            .args(["watch", "--debounce", "100"])
            .args(args)
            .arg(project)
            .env("CARGO_TARGET_DIR", crate::support::shared_target())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("botlens starts");
        let stdout = Arc::new(Mutex::new(String::new()));
        let stderr = Arc::new(Mutex::new(String::new()));
        let out = child.stdout.take().expect("stdout");
        let sink = Arc::clone(&stdout);
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let mut text = sink.lock().expect("output lock");
                text.push_str(&line);
                text.push('\n');
            }
        });
        let mut err = child.stderr.take().expect("stderr");
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = err.read(&mut buffer) {
                sink.lock().expect("output lock").push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        });
        Watcher { child, stdout, stderr }
    }

    pub(crate) fn output(&self) -> String {
        self.stdout.lock().expect("output lock").clone()
    }

    /// Waits until stdout, from byte `from` on, contains `needle`; returns the offset just past
    /// it. Fails the test with the whole output after `limit`.
    pub(crate) fn wait_for(&self, needle: &str, from: usize, limit: Duration) -> usize {
        let started = Instant::now();
        loop {
            let text = self.output();
            if let Some(at) = text.get(from..).and_then(|rest| rest.find(needle)) {
                return from + at + needle.len();
            }
            if started.elapsed() > limit {
                panic!(
                    "no `{needle}` within {limit:?}\n--- stdout ---\n{text}\n--- stderr ---\n{}",
                    self.stderr.lock().expect("output lock")
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends SIGINT (Ctrl-C) and waits up to `limit` for the process to exit.
    fn interrupt(&mut self, limit: Duration) -> Option<ExitStatus> {
        if let Ok(Some(status)) = self.child.try_wait() {
            return Some(status);
        }
        let _ = Command::new("kill").arg("-INT").arg(self.child.id().to_string()).status();
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        if self.interrupt(Duration::from_secs(5)).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[test]
fn saves_rerun_the_suite_and_say_what_changed_and_build_errors_do_not_stop_it() {
    let project = bot_project("watch-rerun", false);
    let mut watch = Watcher::start(project.path());
    let mut at = watch.wait_for("── run 1 (start) ──", 0, FIRST_RUN);
    at = watch.wait_for("no game lost by a bot fault", at, FIRST_RUN);
    at = watch.wait_for("watching for changes", at, LATER_RUN);

    write_source(project.path(), BUGGY);
    at = watch.wait_for("── run 2 (src/lib.rs changed) ──", at, LATER_RUN);
    at = watch.wait_for("since run 1:\n  new failures\n    illegal_move ×20  ", at, LATER_RUN);
    at = watch.wait_for("src/lib.rs:15:", at, LATER_RUN);
    at = watch.wait_for("  scores\n    random  wins ", at, LATER_RUN);
    at = watch.wait_for("watching for changes", at, LATER_RUN);

    write_source(project.path(), BROKEN);
    at = watch.wait_for("── run 3 (src/lib.rs changed) ──", at, LATER_RUN);
    at = watch.wait_for("build failed: 1 error\nerror[E0308]: mismatched types", at, LATER_RUN);
    at = watch.wait_for("watching for changes", at, LATER_RUN);

    write_source(project.path(), GOOD);
    at = watch.wait_for("── run 4 (src/lib.rs changed) ──", at, LATER_RUN);
    at = watch.wait_for("since run 2:\n  fixed failures\n    illegal_move ×20", at, LATER_RUN);
    watch.wait_for("watching for changes", at, LATER_RUN);

    let status = watch.interrupt(Duration::from_secs(30)).expect("Ctrl-C stops the watch");
    assert!(status.success(), "exit status after Ctrl-C: {status}\n{}", watch.output());
}

#[test]
fn deleting_lines_above_a_bug_reports_it_moved_not_new_and_fixed() {
    let project = bot_project("watch-moved", false);
    let source = project.path().join("src/lib.rs");
    let padded = bot_source(PANICS).replacen(
        "pub struct Tester;",
        &format!("{SPACERS}pub struct Tester;"),
        1,
    );
    std::fs::write(&source, padded).expect("write src/lib.rs");
    let before = line_after_marker(&source, "the bug");
    let watch = Watcher::start(project.path());
    let mut at = watch.wait_for("── run 1 (start) ──", 0, FIRST_RUN);
    at = watch.wait_for(&format!("src/lib.rs:{before}:"), at, FIRST_RUN);
    at = watch.wait_for("watching for changes", at, LATER_RUN);

    write_source(project.path(), PANICS);
    let after = line_after_marker(&source, "the bug");
    assert_eq!(after + 2, before, "the edit deletes the two spacer lines above the bug");
    let run = watch.wait_for("── run 2 (src/lib.rs changed) ──", at, LATER_RUN);
    at = watch.wait_for(
        "since run 1:\n  moved failures (the same failure at another line)\n    panic ×20  ",
        run,
        LATER_RUN,
    );
    at = watch.wait_for(&format!("src/lib.rs:{after}:"), at, LATER_RUN);
    at = watch.wait_for(&format!("  moved from line {before} to {after}\n"), at, LATER_RUN);
    watch.wait_for("watching for changes", at, LATER_RUN);
    let output = watch.output();
    let run2 = &output[run..];
    for neither in ["new failures", "fixed failures"] {
        assert!(!run2.contains(neither), "run 2 reports {neither}:\n{run2}");
    }
}

#[test]
fn an_edit_during_a_run_cancels_the_stale_run_and_starts_a_fresh_one() {
    let project = bot_project("watch-cancel", true);
    let watch = Watcher::start(project.path());
    let mut at = watch.wait_for("── run 1 (start) ──", 0, FIRST_RUN);
    at = watch.wait_for("watching for changes", at, FIRST_RUN);

    write_source(project.path(), BUGGY);
    at = watch.wait_for("── run 2 (src/lib.rs changed) ──", at, LATER_RUN);
    // Run 2's build takes at least three seconds: this edit lands during it.
    write_source(project.path(), GOOD);
    at = watch.wait_for("run 2 cancelled: src/lib.rs changed\n", at, LATER_RUN);
    at = watch.wait_for("── run 3 (src/lib.rs changed) ──", at, LATER_RUN);
    // Run 2 never reported, so run 3 compares with run 1: the same bot, the same scores.
    at = watch.wait_for("since run 1: no change", at, LATER_RUN);
    watch.wait_for("watching for changes", at, LATER_RUN);
    let output = watch.output();
    assert!(!output.contains("illegal_move"), "the stale run reported:\n{output}");
}

/// A C Tic-tac-toe bot marking `square` (an expression of `view`) on line 5.
fn c_bot_source(square: &str) -> String {
    format!(
        "#include \"botlens.h\"\n\nvoid bot_play(void) {{\n    botlens_tictactoe_view view = botlens_tictactoe();\n    int square = {square};\n    botlens_mark(square % 3, square / 3);\n}}\n"
    )
}

#[test]
fn a_c_bot_folder_is_watched_and_its_failures_are_located_in_bot_c() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let settings = "game = \"tictactoe\"\nopponents = [\"random\"]\nseeds = \"0..20\"\n";
    std::fs::write(dir.path().join("botlens.toml"), settings).expect("write botlens.toml");
    let first_free = "(int)(strchr(view.board, '.') - view.board)";
    std::fs::write(dir.path().join("bot.c"), c_bot_source(first_free)).expect("write bot.c");
    let watch = Watcher::start(dir.path());
    let mut at = watch.wait_for("── run 1 (start) ──", 0, LATER_RUN);
    at = watch.wait_for("no game lost by a bot fault", at, LATER_RUN);
    std::fs::write(dir.path().join("bot.c"), c_bot_source("0 * view.you")).expect("write bot.c");
    at = watch.wait_for("── run 2 (bot.c changed) ──", at, LATER_RUN);
    watch.wait_for("bot.c:6:", at, LATER_RUN);
}

#[test]
fn a_lone_c_file_is_watched_alone_with_its_folder() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let settings = "game = \"tictactoe\"\nopponents = [\"random\"]\nseeds = \"0..20\"\n";
    std::fs::write(dir.path().join("botlens.toml"), settings).expect("write botlens.toml");
    let first_free = "(int)(strchr(view.board, '.') - view.board)";
    let mine = dir.path().join("mine.c");
    std::fs::write(&mine, c_bot_source(first_free)).expect("write mine.c");
    // Another bot beside it: built with the lone file, its `bot_play` would clash.
    std::fs::write(dir.path().join("other.c"), c_bot_source("0")).expect("write other.c");
    let watch = Watcher::start(&mine);
    let mut at = watch.wait_for("── run 1 (start) ──", 0, LATER_RUN);
    at = watch.wait_for("no game lost by a bot fault", at, LATER_RUN);
    std::fs::write(&mine, c_bot_source("0 * view.you")).expect("write mine.c");
    at = watch.wait_for("── run 2 (mine.c changed) ──", at, LATER_RUN);
    watch.wait_for("mine.c:6:", at, LATER_RUN);
}

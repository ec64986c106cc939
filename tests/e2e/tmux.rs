//! The full-screen replayer as a person uses it: `botlens replay` of a failed sample game in a
//! real terminal (tmux), driven with keys (`c` plays the game on from a move) and read back from
//! the screen.
//!
//! CI installs tmux (`.ci/run`); without it this test fails and says so.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::{botlens_with_input, repo_root};

/// A tmux session that is killed when the test ends, however it ends.
struct Session(String);

impl Session {
    fn start(name: &str, command: &str) -> Session {
        let available = Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success());
        assert!(available, "tmux is not installed: `apt-get install tmux` (CI does this)");
        let _ = Command::new("tmux").args(["kill-session", "-t", name]).output();
        let status = Command::new("tmux")
            .args(["new-session", "-d", "-s", name, "-x", "120", "-y", "40", command])
            .current_dir(repo_root())
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux new-session failed");
        Session(name.to_owned())
    }

    fn keys(&self, keys: &str) {
        Command::new("tmux").args(["send-keys", "-t", &self.0, keys]).status().expect("keys sent");
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux").args(["capture-pane", "-t", &self.0, "-p"]).output();
        out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default()
    }

    /// Waits until the screen contains `text`, or fails with the last screen.
    fn wait_for(&self, text: &str) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "no `{text}` on screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn is_alive(&self) -> bool {
        Command::new("tmux")
            .args(["has-session", "-t", &self.0])
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["kill-session", "-t", &self.0]).output();
    }
}

#[test]
fn stepping_through_a_failed_sample_game_in_a_terminal() {
    let traces = tempfile::tempdir().expect("temp dir");
    let run = botlens_with_input(
        &[
            "run",
            "samples/tictactoe-panicky",
            "--json",
            "--trace-dir",
            traces.path().to_str().unwrap(),
        ],
        "",
        Duration::from_secs(600),
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON report");
    let failure = &report["failures"][0];
    let trace = traces.path().join(format!(
        "{}-seed{}.json",
        failure["first_opponent"].as_str().unwrap(),
        failure["first_seed"]
    ));
    assert!(trace.is_file(), "{} written", trace.display());

    let binary = env!("CARGO_BIN_EXE_botlens");
    let session =
        Session::start("botlens-e2e-replay", &format!("{binary} replay {}", trace.display()));
    session.wait_for("botlens replay");
    session.wait_for("0 start");
    session.keys("f");
    let screen = session.wait_for("the failing move");
    assert!(screen.contains("panic"), "{screen}");
    let line = format!("lib.rs:{}", failure["line"]);
    assert!(screen.contains(&line), "the failure's source location {line}:\n{screen}");
    assert!(screen.contains("expect("), "the source line itself:\n{screen}");
    // `c` one move before the failure plays the game on from there with the bot's own build.
    session.keys("Left");
    session.keys("c");
    let played_on = session.wait_for("played on from move");
    assert!(played_on.contains("with tictactoe-panicky (seat 0)"), "{played_on}");
    session.keys("Home");
    session.wait_for("▶  0 start");
    session.keys("?");
    session.wait_for("help");
    session.keys("q");
    session.keys("q");
    let started = Instant::now();
    while session.is_alive() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!session.is_alive(), "q quits:\n{}", session.screen());
    assert!(Path::new(&trace).is_file());
}

#[test]
fn playing_klotski_at_the_keyboard() {
    let binary = env!("CARGO_BIN_EXE_botlens");
    let session = Session::start("botlens-e2e-klotski", &format!("{binary} play klotski"));
    session.wait_for("曹操");
    session.keys("cc s");
    session.keys("Enter");
    session.wait_for("cannot move down");
    session.keys("hint");
    session.keys("Enter");
    session.wait_for("Hint:");
    session.keys("s");
    session.keys("Enter");
    session.wait_for("moves 1, steps 1");
    session.keys("undo");
    session.keys("Enter");
    session.wait_for("moves 0, steps 0");
    session.keys("quit");
    session.keys("Enter");
    let started = Instant::now();
    while session.is_alive() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!session.is_alive(), "quit ends the game:\n{}", session.screen());
}

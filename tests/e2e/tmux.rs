//! The full-screen replayer as a person uses it: `botlens replay` of a failed sample game in a
//! real terminal (tmux), driven with keys (`c` plays the game on from a move) and read back from
//! the screen; a Battleships game on an 80×24 terminal, every board row shown and the last
//! shot highlighted, and what a bot drew shown over its board with `m`.
//!
//! Needs tmux: without it the tests skip, saying what to install (`.ci/run` installs it and
//! makes a skip a failure).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{Tool, botlens, botlens_with_input, repo_root, require, shared_target};

/// A tmux session that is killed when the test ends, however it ends.
struct Session(String);

impl Session {
    /// Runs `command` in a new detached session `name` of `width` × `height` cells, a bot it
    /// builds building into the tests' shared target directory as every other test's.
    fn start(name: &str, command: &str, (width, height): (u16, u16)) -> Session {
        let _ = Command::new("tmux").args(["kill-session", "-t", name]).output();
        let target = format!("CARGO_TARGET_DIR={}", shared_target());
        let status = Command::new("tmux")
            .args(["new-session", "-d", "-s", name, "-e", &target, "-x", &width.to_string()])
            .args(["-y", &height.to_string(), command])
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
        self.capture(&[])
    }

    /// The screen with its colours and attributes as terminal escape sequences.
    fn styled_screen(&self) -> String {
        self.capture(&["-e"])
    }

    fn capture(&self, options: &[&str]) -> String {
        let out =
            Command::new("tmux").args(["capture-pane", "-t", &self.0, "-p"]).args(options).output();
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
    if !require(&[Tool::Tmux]) {
        return;
    }
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
    let session = Session::start(
        "botlens-e2e-replay",
        &format!("{binary} replay {} --with samples/tictactoe-panicky", trace.display()),
        (120, 40),
    );
    session.wait_for("botlens replay");
    session.wait_for("0 start");
    session.keys("f");
    let screen = session.wait_for("the failing move");
    assert!(screen.contains("panic"), "{screen}");
    let line = format!("lib.rs:{}", failure["line"]);
    assert!(screen.contains(&line), "the failure's source location {line}:\n{screen}");
    assert!(screen.contains("expect("), "the source line itself:\n{screen}");
    // `c` one move before the failure plays the game on from there with the bot named by
    // `--with` (a trace's record of its bot is never built).
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
    if !require(&[Tool::Tmux]) {
        return;
    }
    let binary = env!("CARGO_BIN_EXE_botlens");
    let session =
        Session::start("botlens-e2e-klotski", &format!("{binary} play klotski"), (120, 40));
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

/// `line` without its escape sequences (`ESC [ … letter`).
fn unstyled(line: &str) -> String {
    let mut plain = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(|c| c.is_ascii_alphabetic());
        } else {
            plain.push(c);
        }
    }
    plain
}

#[test]
fn a_battleships_game_fits_80_by_24_with_every_row_and_the_last_shot_highlighted() {
    if !require(&[Tool::Tmux]) {
        return;
    }
    let traces = tempfile::tempdir().expect("temp dir");
    let dir = traces.path().to_str().unwrap();
    let run = ["run", "--game", "battleships", "random", "--vs", "hunter", "--seeds", "4"];
    let out = botlens(&[&run[..], &["--trace-dir", dir]].concat());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let trace = traces.path().join("hunter-seed4.json");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).expect("trace")).expect("JSON");
    let moves = json["moves"].as_array().expect("moves");

    let binary = env!("CARGO_BIN_EXE_botlens");
    let command = format!("{binary} replay {}", trace.display());
    let session = Session::start("botlens-e2e-replay-80x24", &command, (80, 24));
    session.wait_for("▶  0 start");
    // The last move, then the one before it: one shot on each seat's grid.
    for (keys, at) in [("End", moves.len()), ("Left", moves.len() - 1)] {
        session.keys(keys);
        let screen = session.wait_for(&format!(" move {at}/{} · ", moves.len()));
        // Captured at once, while the viewer shows the move: the frame printed below is played
        // by another process meanwhile.
        let styled = session.styled_screen();
        for pane in [format!("┌ moves ({}) ", moves.len()), "┌ log ".into(), "┌ result ".into()]
        {
            assert!(screen.contains(&pane), "move {at}: no `{pane}`:\n{screen}");
        }
        let frame = botlens(&["replay", trace.to_str().unwrap(), "--at", &at.to_string()]);
        assert_eq!(frame.code, Some(0), "{}", frame.stderr);
        let board: Vec<&str> = frame
            .stdout
            .lines()
            .skip_while(|line| !line.starts_with("── move "))
            .skip(2)
            .take_while(|line| !line.starts_with("answer: "))
            .collect();
        assert_eq!(
            board.len(),
            13,
            "the grids' titles, numbers, 10 rows, legend:\n{}",
            frame.stdout
        );
        for line in &board {
            assert!(screen.contains(&format!("│ {line}")), "move {at}: no `{line}`:\n{screen}");
        }

        // The square shot at is the one highlighted (reversed), with what it shows now.
        let played = &moves[at - 1];
        let (x, y) =
            (played["action"]["x"].as_u64().unwrap(), played["action"]["y"].as_u64().unwrap());
        let grid = 1 - played["seat"].as_u64().unwrap() as usize;
        let row = board[2 + y as usize];
        let label = format!("{y:>2} ");
        let starts: Vec<usize> = row.match_indices(&label).map(|(at, _)| at).collect();
        let column = 2 + starts[grid] + label.len() + 2 * x as usize;
        // Each board row (the screen's rows 2 to 15) with a reversed cell: where the first is
        // and what it shows.
        let reversed: Vec<(usize, String)> = styled
            .lines()
            .enumerate()
            .filter(|(index, _)| (2..16).contains(index))
            .filter_map(|(index, line)| {
                let on = line.find("\u{1b}[1;7m")?;
                let shown = unstyled(&line[on..]).chars().next()?;
                Some((index, format!("{}{shown}", unstyled(&line[..on]).chars().count())))
            })
            .collect();
        let glyph = &row[column - 2..column - 1];
        assert_eq!(
            reversed,
            [(5 + y as usize, format!("{column}{glyph}"))],
            "move {at}:\n{styled}"
        );
    }
    session.keys("q");
}

#[test]
fn m_shows_what_a_bot_drew_over_its_board_at_80_by_24() {
    if !require(&[Tool::Tmux]) {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (trace, at) = crate::support::marked_battleships_trace(dir.path());
    let binary = env!("CARGO_BIN_EXE_botlens");
    let command = format!("{binary} replay {}", trace.display());
    let session = Session::start("botlens-e2e-replay-marks", &command, (80, 24));
    session.wait_for("▶  0 start");
    session.keys("g");
    session.keys(&at.to_string());
    session.keys("Enter");
    let plain = session.wait_for(&format!(" move {at}/"));
    assert!(plain.contains("│ ←→ step · m marks · ? help"), "the key is offered:\n{plain}");
    assert!(!plain.contains("aiming"), "marks hidden until m:\n{plain}");
    session.keys("m");
    let screen = session.wait_for("aiming at the cruiser");
    for shown in [
        format!("seat 0 · move {at}"),
        "heat 0 ████████ 18".to_owned(),
        "1 mark off the board left out".to_owned(),
        "2 marks dropped".to_owned(),
        "<img src=x".to_owned(),
        "│  9 ".to_owned(),
        "└ answer: ".to_owned(),
    ] {
        assert!(screen.contains(&shown), "no `{shown}`:\n{screen}");
    }
    assert_eq!(screen.lines().count(), 24, "{screen}");
    // The heat map's hottest cell (9, 9) is shaded in the palette's hot end, the red cell red.
    let styled = session.styled_screen();
    for colour in ["48;2;215;50;40", "48;2;255;0;0"] {
        assert!(styled.contains(colour), "no `{colour}`:\n{styled}");
    }
    assert!(!styled.contains("\u{1b}]"), "no escape but colours reaches the terminal");
    session.keys("m");
    let hidden = session.wait_for(&format!(" move {at}/"));
    std::thread::sleep(Duration::from_millis(300));
    assert!(!session.screen().contains("aiming"), "m hides them again:\n{hidden}");
    session.keys("q");
}

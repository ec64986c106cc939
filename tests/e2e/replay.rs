//! `botlens replay`: text frames, one frame, HTML, deterministic re-plays and bad traces —
//! hostile ones too (a failure located in a file outside the project, escapes in names, a FIFO
//! as the trace) — and a reader that closes the pipe early.

use crate::support::{botlens, botlens_with_input};

fn stored_trace(dir: &std::path::Path) -> std::path::PathBuf {
    let out = botlens(&[
        "run",
        "--game",
        "tictactoe",
        "random",
        "--vs",
        "perfect",
        "--seeds",
        "3",
        "--trace-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    dir.join("perfect-seed3.json")
}

#[test]
fn a_stored_trace_prints_as_frames_and_one_frame() {
    let dir = tempfile::tempdir().unwrap();
    let trace = stored_trace(dir.path());
    let all = botlens(&["replay", trace.to_str().unwrap(), "--plain"]);
    assert_eq!(all.code, Some(0), "{}", all.stderr);
    assert!(all.stdout.contains("── start ──"), "{}", all.stdout);
    assert!(all.stdout.contains("── move 1/"), "{}", all.stdout);
    let one = botlens(&["replay", trace.to_str().unwrap(), "--at", "1"]);
    assert_eq!(one.code, Some(0), "{}", one.stderr);
    assert!(one.stdout.contains("move 1/"), "{}", one.stdout);
    assert!(!one.stdout.contains("── start ──"), "only one frame: {}", one.stdout);
}

#[test]
fn html_is_self_contained() {
    let dir = tempfile::tempdir().unwrap();
    let trace = stored_trace(dir.path());
    let page = dir.path().join("game.html");
    let out = botlens(&["replay", trace.to_str().unwrap(), "--html", page.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let html = std::fs::read_to_string(&page).expect("page written");
    assert!(html.contains("<script"), "animates");
    assert!(!html.contains("http://") && !html.contains("https://"), "no network needed");
}

/// Re-plays `random` vs `perfect` on `seed` and checks it against the stored `trace`.
fn replay_and_check(seed: u64, trace: &std::path::Path) -> crate::support::Output {
    let seed = seed.to_string();
    botlens(&[
        "replay",
        "random",
        "--game",
        "tictactoe",
        "--vs",
        "perfect",
        "--seed",
        &seed,
        "--plain",
        "--check",
        trace.to_str().unwrap(),
    ])
}

#[test]
fn a_replayed_game_matches_its_stored_trace() {
    let dir = tempfile::tempdir().unwrap();
    let trace = stored_trace(dir.path());
    let out = replay_and_check(3, &trace);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.contains("matches"), "{}", out.stderr);
    let other = replay_and_check(4, &trace);
    assert_eq!(other.code, Some(2), "a different seed does not match");
    assert!(other.stderr.contains("does not match"), "{}", other.stderr);
}

#[test]
fn bad_traces_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let trace = stored_trace(dir.path());
    let text = std::fs::read_to_string(&trace).unwrap();
    let truncated = dir.path().join("truncated.json");
    std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    let newer = dir.path().join("newer.json");
    std::fs::write(&newer, text.replacen("\"format_version\": 1", "\"format_version\": 99", 1))
        .unwrap();
    let other_game = dir.path().join("chess.json");
    std::fs::write(&other_game, text.replacen("\"tictactoe\"", "\"chess\"", 1)).unwrap();
    for (file, expected) in [
        (&truncated, "not a valid trace"),
        (&newer, "newer than this botlens supports"),
        (&other_game, "chess"),
    ] {
        let out = botlens(&["replay", file.to_str().unwrap(), "--plain"]);
        assert_eq!(out.code, Some(2), "{}: {}", file.display(), out.stderr);
        assert!(out.stderr.contains(expected), "{}: {}", file.display(), out.stderr);
        assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    }
}

#[test]
fn the_html_page_renders_the_game_in_a_browser() {
    use std::process::Command;
    let available =
        Command::new("chromium").arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(available, "chromium is not installed: `apt-get install chromium` (CI does this)");
    let dir = tempfile::tempdir().unwrap();
    let trace = stored_trace(dir.path());
    let page = dir.path().join("game.html");
    let out = botlens(&["replay", trace.to_str().unwrap(), "--html", page.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let profile = dir.path().join("chromium-profile");
    let dom = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&dom.stdout);
    // Filled in by the page's script: the position counter and the move list.
    assert!(dom.contains("id=\"position\">move 0/"), "the script ran: {dom}");
    assert!(dom.contains("<li class=\"current\">"), "the move list is built: {dom}");
    assert!(dom.contains("perfect"), "{dom}");
}

/// What a file outside every project holds; no output may contain any of it.
const SECRET: &str = "TOP-SECRET-4b1d-the-user's-private-key";

/// `trace` (a stored trace's JSON) with a failure planted on its first move: located at
/// `file`, line 1, by a player (the first to move) whose recorded project is `source`, with
/// terminal escapes in its name and the message.
fn planted(trace: &str, file: &str, source: Option<&str>) -> String {
    let mut json: serde_json::Value = serde_json::from_str(trace).expect("a stored trace");
    json["moves"][0]["failure"] = serde_json::json!({
        "kind": "panic",
        "message": "boom\u{1b}]0;owned\u{7}\u{1b}[2J",
        "location": { "file": file, "line": 1, "column": 1 },
    });
    let seat = json["moves"][0]["seat"].as_u64().expect("a seat") as usize;
    json["players"][seat]["name"] = "evil\u{1b}]0;owned\u{7}".into();
    if let Some(source) = source {
        json["players"][seat]["source"] = source.into();
    }
    json.to_string()
}

#[test]
fn a_planted_trace_shows_no_byte_of_a_file_outside_the_project() {
    let dir = tempfile::tempdir().unwrap();
    let stored = std::fs::read_to_string(stored_trace(dir.path())).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("id_rsa");
    std::fs::write(&secret, format!("{SECRET}\n")).unwrap();
    let absolute = secret.to_str().unwrap();
    let climbing = format!("{}{absolute}", "../".repeat(12));
    let outside_dir = outside.path().to_str().unwrap();
    let cases = [
        (absolute, None),
        (&*climbing, None),
        ("id_rsa", Some(outside_dir)),
        (absolute, Some("/")),
        ("/etc/passwd", None),
        ("/dev/zero", None),
    ];
    for (index, (file, source)) in cases.into_iter().enumerate() {
        let trace = dir.path().join(format!("planted-{index}.json"));
        std::fs::write(&trace, planted(&stored, file, source)).unwrap();
        let text = botlens(&["replay", trace.to_str().unwrap(), "--plain"]);
        assert_eq!(text.code, Some(0), "{file}: {}", text.stderr);
        assert!(text.stdout.contains("source not shown: "), "{file}: {}", text.stdout);
        let page = dir.path().join(format!("planted-{index}.html"));
        let html = botlens(&["replay", trace.to_str().unwrap(), "--html", page.to_str().unwrap()]);
        assert_eq!(html.code, Some(0), "{file}: {}", html.stderr);
        let page = std::fs::read_to_string(&page).unwrap();
        assert!(page.contains("source not shown: "), "{file}: the page says why");
        for output in [&text.stdout, &text.stderr, &page] {
            assert!(!output.contains(SECRET), "{file}: the secret leaked");
            assert!(!output.contains("root:x:0:0"), "{file}: /etc/passwd leaked");
            assert!(!output.contains('\u{1b}') && !output.contains('\u{7}'), "{file}: raw escape");
        }
        assert!(
            text.stdout.contains("evil\\u{1b}]0;owned\\u{7}"),
            "shown escaped: {}",
            text.stdout
        );
    }
}

#[test]
fn a_trace_with_a_byte_order_mark_replays() {
    let dir = tempfile::tempdir().unwrap();
    let stored = stored_trace(dir.path());
    let text = std::fs::read_to_string(&stored).unwrap();
    let marked = dir.path().join("marked.json");
    std::fs::write(&marked, format!("\u{feff}{text}")).unwrap();
    let out = botlens(&["replay", marked.to_str().unwrap(), "--plain"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout, botlens(&["replay", stored.to_str().unwrap(), "--plain"]).stdout);
}

#[test]
fn a_fifo_or_a_huge_file_as_the_trace_is_refused_within_a_second() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("trace.json");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let huge = dir.path().join("huge.json");
    std::fs::File::create(&huge).unwrap().set_len((256 << 20) + 1).unwrap();
    for (path, why) in [
        (&fifo, "not a regular file (it is a named pipe)"),
        (&huge, "larger than 256 MiB, the most botlens reads of it"),
    ] {
        let started = std::time::Instant::now();
        let out = botlens_with_input(
            &["replay", path.to_str().unwrap(), "--plain"],
            "",
            std::time::Duration::from_secs(10),
        );
        assert!(started.elapsed().as_secs_f64() < 1.0, "took {:?}", started.elapsed());
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        assert!(out.stderr.contains(why), "{}", out.stderr);
    }
}

/// Runs `botlens args…` with its standard output closed before it writes anything, as
/// `botlens … | head -0` would; returns the exit code and what it wrote to stderr.
fn with_stdout_closed(args: &[&str]) -> (Option<i32>, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_botlens"))
        .args(args)
        .current_dir(crate::support::repo_root())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("botlens starts");
    drop(child.stdout.take());
    let mut stderr = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut stderr).expect("stderr");
    (child.wait().expect("botlens ends").code(), stderr)
}

#[test]
fn a_reader_that_closes_the_pipe_early_stops_botlens_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let trace = stored_trace(dir.path());
    let run = ["run", "--game", "tictactoe", "random", "--vs", "perfect", "--seeds", "0..3"];
    for args in [&["replay", trace.to_str().unwrap(), "--plain"][..], &run[..]] {
        let (code, stderr) = with_stdout_closed(args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("error") && !stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

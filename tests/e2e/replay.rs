//! `botlens replay`: text frames, one frame, HTML, deterministic re-plays and bad traces.

use crate::support::botlens;

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

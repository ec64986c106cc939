//! `botlens replay`: text frames, one frame, HTML, deterministic re-plays and bad traces —
//! hostile ones too (a failure located in a file outside the project, escapes in names, a FIFO
//! as the trace) — and a reader that closes the pipe early. The HTML page is loaded in headless
//! Chromium: every game drawn, the last move's cells outlined, the failing move's marked, the
//! text shown for a game without a picture, what a bot drew (over its board, toggled, its
//! lines named, the timeline seeking), and a screenshot of each game.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{Tool, botlens, botlens_building, botlens_with_input, require};

/// Plays `botlens run …args --trace-dir dir` and returns the trace it stored as `file`.
fn stored(dir: &Path, args: &[&str], file: &str) -> PathBuf {
    let mut args = args.to_vec();
    args.extend(["--trace-dir", dir.to_str().unwrap()]);
    let out = botlens(&args);
    assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
    dir.join(file)
}

fn stored_trace(dir: &Path) -> PathBuf {
    let args = ["run", "--game", "tictactoe", "random", "--vs", "perfect", "--seeds", "3"];
    stored(dir, &args, "perfect-seed3.json")
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
    std::fs::write(&newer, crate::support::from_a_newer_botlens(&text)).unwrap();
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

/// The size of the browser window screenshots are taken in.
const WINDOW: (u32, u32) = (1400, 1000);

/// Runs headless Chromium, with the flags this machine needs and its profile in `dir`, on
/// `page` with `args` (`--dump-dom`, `--screenshot=…`).
fn chromium(dir: &Path, page: &Path, args: &[String]) -> std::process::Output {
    Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", dir.join("chromium-profile").display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs")
}

/// The DOM of `page` once its script has run.
fn dump_dom(dir: &Path, page: &Path) -> String {
    let out = chromium(dir, page, &["--dump-dom".into()]);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Writes the page of `trace` opening at move `at` to `page`.
fn write_page(trace: &Path, at: usize, page: &Path) {
    let at = at.to_string();
    let out = botlens(&[
        "replay",
        trace.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
        "--at",
        &at,
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

/// A cell of a drawn grid: (grid, x, y).
type Cell = (u64, u64, u64);

/// The cells the page outlined as `kind` (`last` or `failing`), in the order drawn.
fn outlined(dom: &str, kind: &str) -> Vec<Cell> {
    let open = format!("<div class=\"mark {kind}\" ");
    dom.match_indices(&open)
        .map(|(at, _)| {
            let tag = &dom[at..at + dom[at..].find('>').expect("a closed tag")];
            let attribute = |name: &str| -> u64 {
                let key = format!(" {name}=\"");
                let start = tag.find(&key).unwrap_or_else(|| panic!("{name} in {tag}")) + key.len();
                let end = start + tag[start..].find('"').expect("a closed value");
                tag[start..end].parse().expect("a number")
            };
            (attribute("data-grid"), attribute("data-x"), attribute("data-y"))
        })
        .collect()
}

/// The state the page drew cell `(x, y)` of grid `grid` in.
fn drawn_state(dom: &str, (grid, x, y): Cell) -> String {
    let figure = dom.split("<figure class=\"grid\">").nth(grid as usize + 1).expect("the grid");
    let open = "<div class=\"cell\" data-state=\"";
    let place = format!("\" data-x=\"{x}\" data-y=\"{y}\"");
    figure
        .match_indices(open)
        .find_map(|(at, _)| {
            let rest = &figure[at + open.len()..];
            let end = rest.find('"').expect("a closed value");
            rest[end..].starts_with(&place).then(|| rest[..end].to_owned())
        })
        .unwrap_or_else(|| panic!("no cell ({x}, {y}) in grid {grid}"))
}

/// The opening tag of the element `id` in `dom`.
fn opening_tag<'a>(dom: &'a str, id: &str) -> &'a str {
    let at = dom.find(&format!(" id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id}: {dom}"));
    let start = dom[..at].rfind('<').expect("a tag");
    &dom[start..at + dom[at..].find('>').expect("a closed tag") + 1]
}

/// Checks that `path` is a PNG of the window's size and of a size a drawn page gives (a blank
/// page compresses to a few kB).
fn assert_screenshot(path: &Path) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{}: not a PNG", path.display());
    assert_eq!(&bytes[12..16], b"IHDR", "{}", path.display());
    let number = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    assert_eq!((number(16), number(20)), WINDOW, "{}", path.display());
    assert!(
        (30_000..5_000_000).contains(&bytes.len()),
        "{}: {} bytes",
        path.display(),
        bytes.len()
    );
}

/// Takes a screenshot of `page` as `png` and checks it.
fn screenshot(dir: &Path, page: &Path, png: &Path) {
    let out = chromium(
        dir,
        page,
        &[
            format!("--window-size={},{}", WINDOW.0, WINDOW.1),
            format!("--screenshot={}", png.display()),
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_screenshot(png);
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).expect("a JSON trace")
}

/// The cells of a Klotski slide of `code` towards `dir` after the first `before` moves of
/// `trace`: the piece's cells and those it slides into on the board, worked out from the
/// trace's layout and its recorded slides.
fn slide_cells(trace: &Value, before: usize, code: &str, dir: &str) -> Vec<Cell> {
    let board = &trace["initial_state"]["board"];
    let mut pieces: Vec<Value> = board["pieces"].as_array().expect("pieces").clone();
    let delta = |dir: &str| match dir {
        "up" => (0, -1),
        "down" => (0, 1),
        "left" => (-1, 0),
        "right" => (1, 0),
        other => panic!("direction {other}"),
    };
    let number = |value: &Value| value.as_i64().expect("a number");
    for played in &trace["moves"].as_array().expect("moves")[..before] {
        let (dx, dy) = delta(played["action"]["dir"].as_str().expect("a direction"));
        let piece = pieces.iter_mut().find(|p| p["code"] == played["action"]["piece"]);
        let piece = piece.expect("a piece of the board");
        piece["x"] = json!(number(&piece["x"]) + dx);
        piece["y"] = json!(number(&piece["y"]) + dy);
    }
    let piece = pieces.iter().find(|p| p["code"] == code).expect("the slid piece");
    let (x, y, width, height) = (
        number(&piece["x"]),
        number(&piece["y"]),
        number(&piece["width"]),
        number(&piece["height"]),
    );
    let (dx, dy) = delta(dir);
    let (board_width, board_height) = (number(&board["width"]), number(&board["height"]));
    let mut cells = Vec::new();
    for cy in y..y + height {
        for cx in x..x + width {
            for (px, py) in [(cx, cy), (cx + dx, cy + dy)] {
                let inside = (0..board_width).contains(&px) && (0..board_height).contains(&py);
                if inside && !cells.contains(&(0, px as u64, py as u64)) {
                    cells.push((0, px as u64, py as u64));
                }
            }
        }
    }
    cells.sort_by_key(|&(_, x, y)| (y, x));
    cells
}

/// `cells` in reading order.
fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort_by_key(|&(grid, x, y)| (grid, y, x));
    cells
}

#[test]
fn the_html_page_renders_the_game_in_a_browser() {
    if !require(&[Tool::Chromium]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = stored_trace(dir.path());
    let page = dir.path().join("game.html");
    let out = botlens(&["replay", trace.to_str().unwrap(), "--html", page.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let dom = dump_dom(dir.path(), &page);
    // Filled in by the page's script: the position counter and the move list.
    assert!(dom.contains("id=\"position\">move 0/"), "the script ran: {dom}");
    assert!(dom.contains("<li class=\"current\">"), "the move list is built: {dom}");
    assert!(dom.contains("perfect"), "{dom}");
}

#[test]
fn each_game_is_drawn_with_the_last_moves_cells_outlined() {
    if !require(&[Tool::Chromium]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    // Tic-tac-toe: the square marked holds the mover's mark.
    let trace = stored_trace(path);
    let json = read_json(&trace);
    let at = 4;
    let played = &json["moves"][at - 1];
    let square =
        (0, played["action"]["x"].as_u64().unwrap(), played["action"]["y"].as_u64().unwrap());
    let side = if played["seat"] == json["initial_state"]["x_seat"] { "x" } else { "o" };
    let page = path.join("tictactoe.html");
    write_page(&trace, at, &page);
    let dom = dump_dom(path, &page);
    assert_eq!(outlined(&dom, "last"), [square], "{dom}");
    assert_eq!(drawn_state(&dom, square), side);
    assert!(outlined(&dom, "failing").is_empty());
    assert!(opening_tag(&dom, "board").contains(" hidden"), "the text gives way: {dom}");
    assert!(!opening_tag(&dom, "picture").contains(" hidden"), "{dom}");
    screenshot(path, &page, &path.join("tictactoe.png"));

    // Battleships: a hit in the second half, on the other seat's grid, both grids drawn.
    let args = ["run", "--game", "battleships", "random", "--vs", "hunter", "--seeds", "4"];
    let trace = stored(path, &args, "hunter-seed4.json");
    let json = read_json(&trace);
    let moves = json["moves"].as_array().unwrap();
    let at = (moves.len() / 2..moves.len())
        .find(|&i| moves[i]["response"]["result"] == "hit")
        .expect("a hit in the second half of the game")
        + 1;
    let played = &moves[at - 1];
    let target = 1 - played["seat"].as_u64().unwrap();
    let square =
        (target, played["action"]["x"].as_u64().unwrap(), played["action"]["y"].as_u64().unwrap());
    let page = path.join("battleships.html");
    write_page(&trace, at, &page);
    let dom = dump_dom(path, &page);
    assert_eq!(dom.matches("<figure class=\"grid\">").count(), 2, "both fleets: {dom}");
    assert_eq!(outlined(&dom, "last"), [square], "{dom}");
    assert_eq!(drawn_state(&dom, square), "hit");
    for state in ["water", "ship", "hit", "miss", "sunk"] {
        assert!(dom.contains(&format!("data-state=\"{state}\"")), "a {state} square: {dom}");
    }
    screenshot(path, &page, &path.join("battleships.png"));

    // Klotski: the slid piece's old and new cells, pieces as named blocks over the goal.
    let args = ["run", "--game", "klotski", "optimal", "--seeds", "1"];
    let trace = stored(path, &args, "hengdaolima-seed1.json");
    let json = read_json(&trace);
    let at = json["moves"].as_array().unwrap().len() / 2;
    let action = &json["moves"][at - 1]["action"];
    let expected = slide_cells(
        &json,
        at - 1,
        action["piece"].as_str().unwrap(),
        action["dir"].as_str().unwrap(),
    );
    let page = path.join("klotski.html");
    write_page(&trace, at, &page);
    let dom = dump_dom(path, &page);
    assert_eq!(sorted(outlined(&dom, "last")), expected, "{dom}");
    assert!(dom.contains("<span>曹操\ncc</span>"), "Cao Cao by name: {dom}");
    assert!(dom.contains("<div class=\"block\" data-kind=\"goal\""), "the goal: {dom}");
    assert_eq!(dom.matches("<div class=\"block\" data-kind=\"piece\"").count(), 9, "{dom}");
    screenshot(path, &page, &path.join("klotski.png"));
}

/// `trace` cut after its first `keep` moves, then a move by `seat` of `action` that the rules
/// refuse, which loses the game.
fn failing(trace: &Value, keep: usize, seat: u64, action: Value, message: &str) -> String {
    let mut trace = trace.clone();
    let moves = trace["moves"].as_array_mut().expect("moves");
    moves.truncate(keep);
    let failure = json!({ "kind": "illegal_move", "message": message });
    let turn = keep as u64 + 1;
    moves.push(json!({ "turn": turn, "seat": seat, "action": action, "failure": failure }));
    let two_players = trace["players"].as_array().expect("players").len() == 2;
    let winner = if two_players { json!(1 - seat) } else { Value::Null };
    trace["outcome"] = json!({
        "winner": winner,
        "reason": message,
        "fault": { "seat": seat, "turn": turn, "failure": failure },
        "turns": turn,
    });
    trace.to_string()
}

#[test]
fn the_failing_move_is_marked_on_the_board() {
    if !require(&[Tool::Chromium]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    // Tic-tac-toe: a mark on the square X took first.
    let json = read_json(&stored_trace(path));
    let first = &json["moves"][0];
    let (x, y) = (first["action"]["x"].as_u64().unwrap(), first["action"]["y"].as_u64().unwrap());
    let seat = json["moves"][2]["seat"].as_u64().map(|seat| 1 - seat).unwrap();
    let taken = failing(&json, 3, seat, json!({ "x": x, "y": y }), "square taken");
    let trace = path.join("taken.json");
    std::fs::write(&trace, taken).unwrap();
    let page = path.join("taken.html");
    write_page(&trace, 4, &page);
    let dom = dump_dom(path, &page);
    assert_eq!(outlined(&dom, "failing"), [(0, x, y)], "{dom}");
    assert!(outlined(&dom, "last").is_empty(), "{dom}");
    let first_side = if first["seat"] == json["initial_state"]["x_seat"] { "x" } else { "o" };
    assert_eq!(drawn_state(&dom, (0, x, y)), first_side, "the square keeps its first mark");
    assert!(dom.contains("<section id=\"failure\" class=\"here\">"), "{dom}");
    assert!(opening_tag(&dom, "picture").contains("class=\"failed\""), "{dom}");
    screenshot(path, &page, &path.join("taken.png"));

    // Klotski: 关羽 pushed down into the two pieces under it, at the start.
    let args = ["run", "--game", "klotski", "optimal", "--seeds", "1"];
    let json = read_json(&stored(path, &args, "hengdaolima-seed1.json"));
    let blocked = failing(&json, 0, 0, json!({ "piece": "gy", "dir": "down" }), "blocked");
    let trace = path.join("blocked.json");
    std::fs::write(&trace, blocked).unwrap();
    let page = path.join("blocked.html");
    write_page(&trace, 1, &page);
    let dom = dump_dom(path, &page);
    let expected = slide_cells(&json, 0, "gy", "down");
    assert_eq!(expected, [(0, 1, 2), (0, 2, 2), (0, 1, 3), (0, 2, 3)], "where 关羽 tried to go");
    assert_eq!(sorted(outlined(&dom, "failing")), expected, "{dom}");
}

#[test]
fn a_game_without_a_picture_shows_its_text() {
    if !require(&[Tool::Chromium]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = botlens_replay::load(&stored_trace(dir.path())).expect("loads");
    let mut replay = botlens_replay::Replay::from_trace(&trace, None).expect("replays");
    // No game of this build lacks a picture: take the pictures out, as such a game would have.
    for frame in &mut replay.frames {
        frame.picture = None;
        frame.touched.clear();
    }
    let page = dir.path().join("text.html");
    std::fs::write(&page, botlens_replay::html_page(&replay, 2)).unwrap();
    let dom = dump_dom(dir.path(), &page);
    let board = opening_tag(&dom, "board");
    assert!(!board.contains(" hidden"), "the text is shown: {dom}");
    let text = replay.frames[2].board.replace('&', "&amp;").replace('<', "&lt;");
    assert!(dom.contains(&format!("{board}{text}</pre>")), "{dom}");
    for hidden in ["picture", "legend", "view"] {
        assert!(opening_tag(&dom, hidden).contains(" hidden"), "#{hidden} shows: {dom}");
    }
    assert!(!dom.contains("class=\"cell\"") && !dom.contains("class=\"mark"), "{dom}");
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
        .env("CARGO_TARGET_DIR", crate::support::shared_target())
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

/// The stored games of `botlens run samples/tictactoe-forgetful` that its bot lost by a fault,
/// with the fault's move number.
fn lost_by_a_fault(dir: &Path) -> Vec<(PathBuf, usize)> {
    let traces = dir.join("traces");
    let out = botlens_building(&[
        "run",
        "samples/tictactoe-forgetful",
        "--trace-dir",
        traces.to_str().unwrap(),
    ]);
    assert!(out.code.is_some_and(|code| code < 2), "{}", out.stderr);
    let mut lost: Vec<(PathBuf, usize)> = std::fs::read_dir(&traces)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter_map(|path| {
            let trace = read_json(&path);
            let turn = trace["outcome"]["fault"]["turn"].as_u64()?;
            Some((path, turn as usize))
        })
        .collect();
    lost.sort();
    lost
}

#[test]
fn a_lost_game_is_played_on_by_another_build_from_before_its_failing_move() {
    let dir = tempfile::tempdir().unwrap();
    let lost = lost_by_a_fault(dir.path());
    let (stored_path, fault_turn) = lost.first().expect("the buggy sample loses some game");
    let from = fault_turn - 1;
    let saved = dir.path().join("continued.json");
    let out = botlens_building(&[
        "replay",
        stored_path.to_str().unwrap(),
        "--from",
        &from.to_string(),
        "--with",
        "samples/tictactoe-minimax",
        "--json",
        "--save",
        saved.to_str().unwrap(),
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let summary: Value = serde_json::from_str(&out.stdout).expect("a JSON summary");
    assert_eq!(summary["from"], json!(from));
    assert_eq!(summary["bot"]["name"], json!("tictactoe-minimax"));
    assert_eq!(summary["stored"]["fault"]["failure"]["kind"], json!("no_move"));
    assert_eq!(summary["played_on"]["fault"], Value::Null, "the strong bot makes the move");
    let played_moves = summary["played_on"]["moves"].as_u64().unwrap() as usize;
    assert!(played_moves > from, "the new build made moves: {summary}");

    let stored = read_json(stored_path);
    let continued = read_json(&saved);
    let opening = |trace: &Value| -> Vec<Value> {
        trace["moves"].as_array().unwrap()[..from]
            .iter()
            .map(|m| json!([m["seat"], m["action"], m["response"]]))
            .collect()
    };
    assert_eq!(opening(&continued), opening(&stored), "the opening is the stored one");
    assert_ne!(continued["moves"][from]["failure"]["kind"], json!("no_move"));

    // Shown as text, the game comes with a line saying how it ended beside the stored one.
    let shown = botlens_building(&[
        "replay",
        stored_path.to_str().unwrap(),
        "--from",
        &from.to_string(),
        "--with",
        "samples/tictactoe-minimax",
        "--plain",
    ]);
    assert_eq!(shown.code, Some(0), "{}", shown.stderr);
    let line = format!("played on from move {from} with tictactoe-minimax (seat 0): ");
    assert!(shown.stderr.contains(&line), "{}", shown.stderr);
    assert!(shown.stderr.contains("(the stored game: lost after"), "{}", shown.stderr);
    let first_new = format!("── move {}/{played_moves} · seat 0 (tictactoe-minimax)", from + 1);
    assert!(shown.stdout.contains(&first_new), "{}", shown.stdout);
}

#[test]
fn a_shared_trace_builds_and_loads_nothing_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let trace = stored_trace(dir.path());
    // A bot project whose build script leaves a mark: what a shared trace may name.
    let project = dir.path().join("their-bot");
    std::fs::create_dir_all(project.join("src")).unwrap();
    let mark = dir.path().join("built");
    let manifest = "[package]\nname = \"their-bot\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\
                    [lib]\ncrate-type = [\"cdylib\"]\n[package.metadata.botlens]\ngame = \"tictactoe\"\n";
    std::fs::write(project.join("Cargo.toml"), manifest).unwrap();
    let build = format!("fn main() {{ std::fs::write({:?}, \"ran\").unwrap(); }}\n", mark);
    std::fs::write(project.join("build.rs"), build).unwrap();
    std::fs::write(project.join("src/lib.rs"), "").unwrap();
    let mut planted = read_json(&trace);
    planted["players"][0]["kind"] = json!("wasm");
    planted["players"][0]["name"] = json!("their-bot");
    planted["players"][0]["source"] = json!(project.display().to_string());
    let file = dir.path().join("shared.json");
    std::fs::write(&file, planted.to_string()).unwrap();
    let out = botlens_building(&["replay", file.to_str().unwrap(), "--from", "2", "--json"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(
        out.stderr.trim_end(),
        "botlens: error: name the bot to play on with in seat 0: --with BOT (a project directory, a bot folder or source file, a .wasm module or a reference player); botlens builds nothing a trace names"
    );
    assert!(!mark.exists(), "the trace's project was built");

    // Its opponent recorded as a module: not loaded unless named.
    let mut module = read_json(&trace);
    module["players"][1] = json!({ "name": "theirs", "kind": "wasm", "source": "theirs.wasm" });
    std::fs::write(&file, module.to_string()).unwrap();
    let args =
        ["replay", file.to_str().unwrap(), "--from", "2", "--seat", "0", "--with", "perfect"];
    let out = botlens(&args);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(
        out.stderr.trim_end(),
        "botlens: error: the stored game's opponent `theirs` is a module: name its file with --opponent FILE; botlens loads nothing a trace names"
    );
}

#[test]
fn playing_on_refuses_what_cannot_be_played_on() {
    let dir = tempfile::tempdir().unwrap();
    let trace = stored_trace(dir.path());
    let moves = read_json(&trace)["moves"].as_array().unwrap().len();
    let file = trace.to_str().unwrap();
    let past = botlens(&["replay", file, "--from", &moves.to_string(), "--json"]);
    assert_eq!(past.code, Some(2));
    assert!(
        past.stderr.contains(&format!(
            "the game has {moves} moves, so it can be played on from move 0 to {}",
            moves - 1
        )),
        "{}",
        past.stderr
    );
    let other_game =
        botlens_building(&["replay", file, "--from", "1", "--with", "samples/battleships-hunter"]);
    assert_eq!(other_game.code, Some(2));
    assert!(
        other_game.stderr.contains("plays battleships, not tictactoe"),
        "{}",
        other_game.stderr
    );
    let no_seat = botlens(&["replay", file, "--from", "1", "--seat", "1", "--with", "nobody"]);
    assert_eq!(no_seat.code, Some(2));
    assert!(no_seat.stderr.contains("no reference player `nobody`"), "{}", no_seat.stderr);
    let replaying = botlens(&[
        "replay",
        "random",
        "--game",
        "tictactoe",
        "--vs",
        "perfect",
        "--seed",
        "3",
        "--from",
        "1",
    ]);
    assert_eq!(replaying.code, Some(2), "--from plays on a stored game, not a re-played one");
    assert!(replaying.stderr.contains("--from"), "{}", replaying.stderr);
}

/// The opening tags of the `div`s of class `class` in `dom`.
fn divs<'a>(dom: &'a str, class: &str) -> Vec<&'a str> {
    let open = format!("<div class=\"{class}\"");
    dom.match_indices(&open)
        .map(|(at, _)| &dom[at..at + dom[at..].find('>').expect("closed")])
        .collect()
}

/// The attribute `name` of the opening tag `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    Some(&tag[start..start + tag[start..].find('"')?])
}

/// A script appended to a page that, once it has drawn, hides seat 0's marks with its checkbox
/// and shows them again, then clicks the timeline's first sink, noting on `<body>` what it saw.
const DRIVE_MARKS: &str = r##"<script>
(function () {
  var body = document.body;
  function layer() { return document.querySelector('.layer[data-seat="0"]'); }
  var box = document.querySelector('#layer-toggles input[data-seat="0"]');
  body.setAttribute("data-layer-before", String(layer() !== null && !layer().hidden));
  box.click();
  body.setAttribute("data-layer-unchecked", String(layer().hidden));
  box.click();
  body.setAttribute("data-layer-checked", String(!layer().hidden));
  var sunk = document.querySelector("#timeline .tick.sunk");
  body.setAttribute("data-sunk", sunk.getAttribute("data-frame"));
  sunk.click();
  body.setAttribute("data-after-click", document.getElementById("position").textContent);
})();
</script>
</body>"##;

#[test]
fn what_a_bot_drew_lies_over_its_board_in_the_page_toggles_and_names_its_lines() {
    if !require(&[Tool::Chromium]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let (trace, at) = crate::support::marked_battleships_trace(path);
    let page = path.join("marked.html");
    write_page(&trace, at, &page);
    let dom = dump_dom(path, &page);
    // One layer, seat 0's, over seat 1's fleet (the second grid), the grid it fires at.
    assert_eq!(divs(&dom, "layer").len(), 1, "{dom}");
    let second = dom.split("<figure class=\"grid\">").nth(2).expect("two grids");
    assert_eq!(divs(second, "layer").len(), 1, "on the fleet fired at: {dom}");
    let heat = divs(&dom, "heat");
    assert_eq!(heat.len(), 100, "{dom}");
    let cell = |x: u32, y: u32| {
        let place = (format!("{x}"), format!("{y}"));
        *heat
            .iter()
            .find(|tag| {
                attribute(tag, "data-x") == Some(&place.0)
                    && attribute(tag, "data-y") == Some(&place.1)
            })
            .unwrap_or_else(|| panic!("no heat cell ({x}, {y})"))
    };
    assert!(cell(0, 0).contains("background: rgb(33, 45, 110)"), "the coldest: {}", cell(0, 0));
    assert!(cell(9, 9).contains("background: rgb(215, 50, 40)"), "the hottest: {}", cell(9, 9));
    assert_eq!(attribute(cell(2, 3), "title"), Some("(2, 3) heat 5 · drawn at src/lib.rs:12"));
    let fill = divs(&dom, "fill");
    assert_eq!(fill.len(), 1, "the cell off the board is left out: {dom}");
    assert!(fill[0].contains("background: rgb(255, 0, 0)"), "{}", fill[0]);
    assert_eq!(attribute(fill[0], "title"), Some("(3, 4) cell #ff0000 · drawn at src/lib.rs:20"));
    assert!(
        dom.contains("<title>arrow (1, 8) → (3, 4) · no source line recorded</title>"),
        "{dom}"
    );
    // The label's markup stays text.
    assert!(!dom.contains("<img"), "markup from the trace became markup: {dom}");
    assert!(dom.contains("&lt;img src=x onerror=alert(1)&gt;</div>"), "{dom}");
    // Under the board: the status line, the heat map's range, what was left out and dropped.
    for note in [
        "<span class=\"status\" title=\"status · drawn at src/lib.rs:30\">aiming at the cruiser</span>",
        "<span class=\"low\">0</span>",
        "<span class=\"high\">18</span>",
        "<span class=\"left-out\">1 mark off the board left out</span>",
        "<span class=\"left-out\">2 marks dropped</span>",
    ] {
        assert!(dom.contains(note), "no {note}: {dom}");
    }
    assert!(dom.contains("<input type=\"checkbox\" data-seat=\"0\">"), "a toggle: {dom}");
    screenshot(path, &page, &path.join("marked.png"));

    // Toggled off and on, then a sink on the timeline clicked.
    let driven = path.join("driven.html");
    let html = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&driven, html.replacen("</body>", DRIVE_MARKS, 1)).unwrap();
    let dom = dump_dom(path, &driven);
    let body = &dom[dom.find("<body").expect("a body")..];
    let body = &body[..body.find('>').expect("closed")];
    for (name, expected) in [
        ("data-layer-before", "true"),
        ("data-layer-unchecked", "true"),
        ("data-layer-checked", "true"),
    ] {
        assert_eq!(attribute(body, name), Some(expected), "{name}: {body}");
    }
    let sunk = attribute(body, "data-sunk").expect("a sink on the timeline");
    let json = read_json(&trace);
    let moves = json["moves"].as_array().unwrap();
    let first_sink =
        moves.iter().position(|m| m["response"]["result"] == "sunk").expect("a sink") + 1;
    assert_eq!(sunk, first_sink.to_string());
    assert_eq!(
        attribute(body, "data-after-click"),
        Some(&*format!("move {first_sink}/{}", moves.len()))
    );
}

//! Helpers for driving the `botlens` binary (run it with a deadline and collect its output) and
//! for finding the lines of sources that tests point at.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a finished `botlens` process left behind.
pub struct Output {
    /// Exit code (`None` if killed by a signal).
    pub code: Option<i32>,
    /// Everything written to stdout.
    pub stdout: String,
    /// Everything written to stderr.
    pub stderr: String,
}

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repo root")
}

/// Runs `botlens args…` with `stdin` as input; fails the test if it takes longer than `limit`.
pub fn botlens_with_input(args: &[&str], stdin: &str, limit: Duration) -> Output {
    botlens_with_env(args, stdin, limit, &[])
}

/// [`botlens_with_input`] with environment variables set for the process.
pub fn botlens_with_env(
    args: &[&str],
    stdin: &str,
    limit: Duration,
    env: &[(&str, &str)],
) -> Output {
    botlens_in_dir(&repo_root(), args, stdin, limit, env)
}

/// The cargo target directory every Rust bot of the tests builds into (`CARGO_TARGET_DIR`, which
/// botlens honours as the user's own): the SDK's dependencies are compiled once for all the
/// samples and new bots rather than once per project. cargo writes each package's module at one
/// path there, so no two bots of the tests may share a package name (the samples' names are
/// their own; a test names its new bot after itself).
pub fn shared_target() -> String {
    repo_root().join("target/e2e-bots").display().to_string()
}

/// `botlens args…` run in the directory `dir` (the others run in the repository's root), with
/// `stdin` as input and `env` set (a Rust bot builds into [`shared_target`] unless `env` sets
/// `CARGO_TARGET_DIR`: empty, the project's own `target/`); fails the test if it takes longer
/// than `limit`.
pub fn botlens_in_dir(
    dir: &Path,
    args: &[&str],
    stdin: &str,
    limit: Duration,
    env: &[(&str, &str)],
) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_botlens"))
        .args(args)
        .env("CARGO_TARGET_DIR", shared_target())
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("botlens starts");
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(stdin.as_bytes());
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("botlens {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = writer.join();
    Output {
        code: status.code(),
        stdout: out_reader.join().expect("stdout reader"),
        stderr: err_reader.join().expect("stderr reader"),
    }
}

/// Deadline for a `botlens` run that builds a bot project from scratch (release, to wasm; the
/// first build of a project compiles the SDK and serde too) on a busy machine.
pub const BUILD_DEADLINE: Duration = Duration::from_secs(600);

/// `botlens args…` with a deadline long enough for a first build.
pub fn botlens_building(args: &[&str]) -> Output {
    botlens_with_input(args, "", BUILD_DEADLINE)
}

/// A trace's JSON text as a newer botlens would write it (`format_version` 99).
pub fn from_a_newer_botlens(trace: &str) -> String {
    let version = botlens_engine::TRACE_FORMAT_VERSION;
    let newer =
        trace.replacen(&format!("\"format_version\": {version},"), "\"format_version\": 99,", 1);
    assert_ne!(newer, trace, "the trace's format_version field moved: update this helper");
    newer
}

/// The one failure group of a `--json` report (failing the test unless there is exactly one).
pub fn only_failure(out: &Output) -> serde_json::Value {
    let report: serde_json::Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON report ({e}):\n{}\n{}", out.stdout, out.stderr));
    let failures = report["failures"].as_array().expect("failures").clone();
    let [failure] = failures.as_slice() else { panic!("one failure group: {failures:#?}") };
    failure.clone()
}

/// Runs `botlens args…` with empty stdin and a one-minute deadline.
pub fn botlens(args: &[&str]) -> Output {
    botlens_with_input(args, "", Duration::from_secs(60))
}

/// The 1-based number of the line that follows the comment line `// {marker}` in `path`, the
/// line a test expects something at: sources mark it rather than tests pinning a number. Fails
/// the test unless exactly one line is that comment (surrounding whitespace aside).
pub fn line_after_marker(path: &Path, marker: &str) -> u64 {
    let source =
        std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    // A comment in the languages' two styles (`//`, Python's `#`).
    let needles = [format!("// {marker}"), format!("# {marker}")];
    let marked: Vec<usize> = source
        .lines()
        .enumerate()
        .filter(|(_, line)| needles.iter().any(|needle| line.trim() == needle))
        .map(|(i, _)| i)
        .collect();
    match marked[..] {
        // Index `i` is line `i + 1`; the marked line is the next one.
        [i] => i as u64 + 2,
        _ => panic!(
            "{}: {} lines are `// {marker}` or `# {marker}`, expected one",
            path.display(),
            marked.len()
        ),
    }
}

/// A JavaScript Battleships bot folder in `dir`, played vs `random` on seeds 0..3, whose `play` sweeps the
/// board square by square but every tenth turn calls `again`, which fires at `shot` (a marked
/// line; `play`'s call of it is marked too).
pub fn sweeping_js_bot(dir: &Path, shot: &str) -> String {
    let config = "game = \"battleships\"\nopponents = [\"random\"]\nseeds = \"0..3\"\n";
    std::fs::write(dir.join("botlens.toml"), config).expect("a temporary config");
    let source = format!(
        "function Bot() {{\n\
         \x20 this.turns = 0;\n\
         }}\n\n\
         function again(turn) {{\n\
         \x20 // botlens reports the shot on the next line\n\
         \x20 return turn.attack({shot});\n\
         }}\n\n\
         Bot.prototype.play = function (turn) {{\n\
         \x20 this.turns += 1;\n\
         \x20 // botlens reports the call of again on the next line\n\
         \x20 if (this.turns % 10 === 0) return again(turn);\n\
         \x20 for (var i = 0; i < 100; i++) {{\n\
         \x20   if (turn.targets[i] === '.') return turn.attack(i % 10, Math.floor(i / 10));\n\
         \x20 }}\n\
         }};\n"
    );
    std::fs::write(dir.join("bot.js"), source).expect("a temporary bot");
    dir.display().to_string()
}

/// A new Battleships bot `name` under `parent` (`botlens new`) whose every tenth turn
/// re-attacks its last square from a helper, `again`, on the line after `// the re-attack`:
/// legal, wasted moves. Returns the project and its `src/lib.rs`.
pub fn reattacking_bot(parent: &Path, name: &str) -> (PathBuf, PathBuf) {
    let bot = parent.join(name);
    let made = botlens_building(&["new", "battleships", bot.to_str().expect("a UTF-8 path")]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    let lib = bot.join("src/lib.rs");
    let source = std::fs::read_to_string(&lib).expect("the template");
    let edits = [
        (
            "    rng: Rng,\n}\n",
            "    rng: Rng,\n    last: Option<(i32, i32)>,\n    turns: u32,\n}\n\nimpl MyBot {\n    #[inline(never)]\n    fn again(&mut self, turn: &mut Turn<Battleships>, (x, y): (i32, i32)) {\n        // the re-attack\n        turn.attack(x, y);\n    }\n}\n",
        ),
        ("MyBot { rng: start.rng() }", "MyBot { rng: start.rng(), last: None, turns: 0 }"),
        (
            "        let view = turn.view();\n",
            "        self.turns += 1;\n        if let Some(last) = self.last.filter(|_| self.turns % 10 == 0) {\n            self.again(turn, last);\n            return;\n        }\n        let view = turn.view();\n",
        ),
        (
            "        match turn.attack(x as i32, y as i32) {",
            "        self.last = Some((x as i32, y as i32));\n        match turn.attack(x as i32, y as i32) {",
        ),
    ];
    let source = edits.iter().fold(source, |source, (from, to)| {
        assert!(source.contains(from), "the template changed: no {from:?}");
        source.replacen(from, to, 1)
    });
    std::fs::write(&lib, source).expect("the bot's source");
    (bot, lib)
}

/// Asserts that `stdout`, a `botlens run --json` report, lost no game by a fault and played at
/// least `games` games.
pub fn assert_played_clean(stdout: &str, games: u64) {
    let report: serde_json::Value = serde_json::from_str(stdout)
        .unwrap_or_else(|error| panic!("no JSON report ({error}): {stdout}"));
    assert_eq!(report["failures"].as_array().map(Vec::len), Some(0), "{report:#}");
    let played: u64 = report["opponents"]
        .as_array()
        .expect("opponents")
        .iter()
        .map(|r| r["games"].as_u64().expect("games"))
        .sum();
    assert!(played >= games, "{report:#}");
}

/// The games a starting bot plays by default (`botlens run <new bot>`): its seeds against every
/// reference opponent, or on every bundled board.
fn starter_games(game: &str) -> u64 {
    match game {
        "klotski" => 20,
        "tictactoe" | "battleships" => 40,
        other => panic!("no starting bot for {other}"),
    }
}

/// A new `game` bot in `lang` under `parent` (`botlens new <game> <parent>/<lang>-<game> --lang
/// <lang>`), run with `botlens run --json` on its defaults, asserted to play clean
/// ([`assert_played_clean`]); `botlens` runs the command (a test's own runner: its deadline,
/// its environment). Returns the bot's folder.
pub fn new_bot_plays_clean(
    botlens: impl Fn(&[&str]) -> Output,
    lang: &str,
    game: &str,
    parent: &Path,
) -> PathBuf {
    let bot = parent.join(format!("{lang}-{game}"));
    let name = bot.display().to_string();
    let made = botlens(&["new", game, &name, "--lang", lang]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    assert!(made.stdout.contains("bot."), "{}", made.stdout);
    let out = botlens(&["run", &name, "--json"]);
    assert_eq!(out.code, Some(0), "{lang} {game}: {}\n{}", out.stdout, out.stderr);
    assert_played_clean(&out.stdout, starter_games(game));
    bot
}

/// What every drawing bot of the tests draws on each of its turns, in order: the comment
/// (`// {marker}`) on the line above the call in its source, and the mark as its trace keeps it
/// (without its location): a red cell, a 3-wide heat map of 0 to 8, an arrow at intensity 0.5, a
/// label in the colour (1, 2, 3) and a status line.
pub const DRAWN: [(&str, &str); 5] = [
    ("draws the cell", r#"{"kind": "cell", "x": 1, "y": 1, "colour": {"rgb": 14695473}}"#),
    (
        "draws the heat map",
        r#"{"kind": "heat", "width": 3, "values": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]}"#,
    ),
    (
        "draws the arrow",
        r#"{"kind": "arrow", "x": 0, "y": 0, "to_x": 2, "to_y": 2, "colour": {"intensity": 128}}"#,
    ),
    (
        "draws the label",
        r#"{"kind": "label", "x": 0, "y": 2, "text": "hi", "colour": {"rgb": 66051}}"#,
    ),
    ("draws the status", r#"{"kind": "status", "text": "thinking"}"#),
];

/// The traces `botlens run <dir> --trace-dir <dir>/traces` (run by `botlens`) wrote for the
/// Tic-tac-toe bot folder `dir`, whose bot is `file` with `source`, played vs `random` on seeds
/// 0..2: the run must play clean.
pub fn drawing_traces(
    botlens: impl Fn(&[&str]) -> Output,
    dir: &Path,
    file: &str,
    source: &str,
) -> Vec<serde_json::Value> {
    std::fs::write(dir.join(file), source).expect("a temporary bot");
    std::fs::write(dir.join("botlens.toml"), "game = \"tictactoe\"\n").expect("its settings");
    let traces = dir.join("traces");
    let (bot, traces_arg) = (dir.display().to_string(), traces.display().to_string());
    let args = ["run", &bot, "--vs", "random", "--seeds", "0..2", "--trace-dir", &traces_arg];
    let out = botlens(&[&args[..], &["--json"]].concat());
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    assert_played_clean(&out.stdout, 2);
    let mut read: Vec<serde_json::Value> = std::fs::read_dir(&traces)
        .expect("the traces")
        .map(|entry| {
            let text = std::fs::read_to_string(entry.expect("a trace").path()).expect("a trace");
            serde_json::from_str(&text).expect("a trace's JSON")
        })
        .collect();
    read.sort_by_key(|trace| trace["seed"].as_u64());
    assert_eq!(read.len(), 2, "a trace per game");
    read
}

/// The drawings of the bot's turns (the seat of the `wasm` player) in `trace`: at least one.
pub fn bot_drawings(trace: &serde_json::Value) -> Vec<&serde_json::Value> {
    let players = trace["players"].as_array().expect("players");
    let bot = players.iter().position(|p| p["kind"] == "wasm").expect("the bot's seat");
    let drawings: Vec<_> = trace["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter(|turn| turn["seat"].as_u64() == Some(bot as u64))
        .map(|turn| &turn["drawing"])
        .collect();
    assert!(!drawings.is_empty(), "the bot played: {trace:#}");
    drawings
}

/// Plays the drawing bot `file` with `source` (its folder `dir`; [`drawing_traces`]) and asserts
/// that each of its turns drew [`DRAWN`], every mark located at its marked line of the bot's
/// file, not in the SDK.
pub fn assert_draws(botlens: impl Fn(&[&str]) -> Output, dir: &Path, file: &str, source: &str) {
    let traces = drawing_traces(botlens, dir, file, source);
    let expected: Vec<(u64, serde_json::Value)> = DRAWN
        .iter()
        .map(|(marker, mark)| {
            (line_after_marker(&dir.join(file), marker), serde_json::from_str(mark).unwrap())
        })
        .collect();
    for trace in traces {
        for drawing in bot_drawings(&trace) {
            assert_eq!(drawing["dropped"], serde_json::Value::Null, "{drawing:#}");
            let marks = drawing["marks"].as_array().expect("marks");
            assert_eq!(marks.len(), expected.len(), "{drawing:#}");
            for (mark, (line, shape)) in marks.iter().zip(&expected) {
                let mut mark = mark.clone();
                let location = mark.as_object_mut().unwrap().remove("location");
                assert_eq!(&mark, shape, "{drawing:#}");
                let location = location.unwrap_or_else(|| panic!("a location: {drawing:#}"));
                assert_eq!(location["line"].as_u64(), Some(*line), "{drawing:#}");
                let at = location["file"].as_str().unwrap();
                assert_eq!(Path::new(at).file_name(), Some(file.as_ref()), "{drawing:#}");
            }
        }
    }
}

/// An optional tool some tests need. Without it a test skips, saying what to install, and the
/// run ends with the count of what was skipped and why; with [`REQUIRE_TOOLS`] set (as `.ci/run`
/// sets it), a missing tool fails the test instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// tmux: the full-screen replayer driven in a real terminal.
    Tmux,
    /// Neovim: the editor client of the language server.
    Neovim,
    /// Chromium: the HTML replay page, rendered headless.
    Chromium,
    /// gdb: `botlens debug`.
    Gdb,
    /// lldb: `botlens debug --debugger lldb`.
    Lldb,
    /// Node.js and npm: AssemblyScript bots and the VS Code extension.
    Node,
    /// clang for WebAssembly with wasi-libc: C bots, and the JavaScript runner every JavaScript
    /// bot plays in.
    Clang,
    /// zig (on `PATH`, or Python's `ziglang` package): Zig bots.
    Zig,
    /// Slurm's daemons and commands with munge, the tests run as root: a cluster on this host
    /// for sharded runs (its daemons run as root).
    Slurm,
}

/// The variable that turns every skip for want of a tool into a failure (`.ci/run` sets it).
pub const REQUIRE_TOOLS: &str = "BOTLENS_TESTS_REQUIRE_TOOLS";

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::Tmux => "tmux",
            Tool::Neovim => "nvim",
            Tool::Chromium => "chromium",
            Tool::Gdb => "gdb",
            Tool::Lldb => "lldb",
            Tool::Node => "node and npm",
            Tool::Clang => "clang for WebAssembly",
            Tool::Zig => "zig",
            Tool::Slurm => "Slurm and munge, as root",
        }
    }

    fn install(self) -> &'static str {
        match self {
            Tool::Tmux => "apt-get install tmux",
            Tool::Neovim => "apt-get install neovim",
            Tool::Chromium => "apt-get install chromium",
            Tool::Gdb => "apt-get install gdb",
            Tool::Lldb => "apt-get install lldb",
            Tool::Node => "apt-get install nodejs npm",
            Tool::Clang => "apt-get install clang lld wasi-libc libclang-rt-dev-wasm32",
            Tool::Zig => "pip install ziglang",
            Tool::Slurm => "apt-get install slurm-wlm munge, and run the tests as root",
        }
    }

    /// Whether the tool runs here (asked once per process).
    fn present(self) -> bool {
        static FOUND: std::sync::Mutex<Vec<(Tool, bool)>> = std::sync::Mutex::new(Vec::new());
        let mut found = FOUND.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, present)) = found.iter().find(|(tool, _)| *tool == self) {
            return *present;
        }
        let runs = |program: &str, args: &[&str]| {
            Command::new(program)
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|status| status.success())
        };
        let present = match self {
            Tool::Tmux => runs("tmux", &["-V"]),
            Tool::Neovim => runs("nvim", &["--version"]),
            Tool::Chromium => runs("chromium", &["--version"]),
            Tool::Gdb => runs("gdb", &["--version"]),
            Tool::Lldb => runs("lldb", &["--version"]),
            Tool::Node => runs("node", &["--version"]) && runs("npm", &["--version"]),
            Tool::Clang => {
                let builtins = std::fs::read_dir("/usr/lib").ok().is_some_and(|entries| {
                    entries.filter_map(Result::ok).any(|entry| {
                        let clang = entry.path().join("lib/clang");
                        std::fs::read_dir(clang).ok().is_some_and(|versions| {
                            versions.filter_map(Result::ok).any(|version| {
                                let wasi = version.path().join("lib/wasi");
                                wasi.join("libclang_rt.builtins-wasm32.a").is_file()
                            })
                        })
                    })
                });
                runs("clang", &["--version"])
                    && runs("wasm-ld", &["--version"])
                    && Path::new("/usr/include/wasm32-wasi/stdlib.h").is_file()
                    && builtins
            }
            Tool::Zig => {
                runs("zig", &["version"]) || runs("python3", &["-m", "ziglang", "version"])
            }
            Tool::Slurm => {
                // SAFETY: geteuid has no preconditions.
                let root = unsafe { libc::geteuid() } == 0;
                // Slurm's commands read a cluster's configuration before anything else, even
                // to print their version: only the daemons are run, the others looked for.
                let on_path = |program: &str| {
                    std::env::var_os("PATH").is_some_and(|path| {
                        std::env::split_paths(&path).any(|dir| dir.join(program).is_file())
                    })
                };
                root && runs("slurmctld", &["-V"])
                    && runs("slurmd", &["-V"])
                    && ["sbatch", "squeue", "sinfo"].into_iter().all(on_path)
                    && runs("munged", &["--version"])
                    && runs("mungekey", &["--version"])
            }
        };
        found.push((self, present));
        present
    }
}

/// Whether the calling test can run: every tool in `tools` is here. Otherwise it says on
/// stderr what it skips and what to install, records the skip for the summary printed when the
/// test binary exits, and returns `false` (the test returns, passing) — or, with
/// [`REQUIRE_TOOLS`] set, fails the test.
pub fn require(tools: &[Tool]) -> bool {
    let missing: Vec<Tool> = tools.iter().copied().filter(|tool| !tool.present()).collect();
    if missing.is_empty() {
        return true;
    }
    let why: Vec<String> = missing
        .iter()
        .map(|tool| format!("{} not installed ({})", tool.name(), tool.install()))
        .collect();
    let why = why.join(", ");
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    if std::env::var_os(REQUIRE_TOOLS).is_some_and(|value| !value.is_empty()) {
        panic!("{test}: {why}; {REQUIRE_TOOLS} is set, so a missing tool fails the test");
    }
    eprintln!("skipped: {test}: {why}");
    skipped().lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(why);
    false
}

/// The reasons of the tests skipped so far; the first skip registers the summary printed at exit.
fn skipped() -> &'static std::sync::Mutex<Vec<String>> {
    static SKIPPED: std::sync::OnceLock<std::sync::Mutex<Vec<String>>> = std::sync::OnceLock::new();
    SKIPPED.get_or_init(|| {
        extern "C" fn summary() {
            let Some(skipped) = SKIPPED.get() else { return };
            let skipped = skipped.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let mut reasons: Vec<(&String, usize)> = Vec::new();
            for why in skipped.iter() {
                match reasons.iter_mut().find(|(reason, _)| *reason == why) {
                    Some((_, count)) => *count += 1,
                    None => reasons.push((why, 1)),
                }
            }
            eprintln!("\n{} end-to-end tests skipped for want of optional tools:", skipped.len());
            for (why, count) in reasons {
                eprintln!("  {count:>3} skipped: {why}");
            }
            eprintln!(
                "(`.ci/run` installs them all and sets {REQUIRE_TOOLS}, so CI skips nothing)"
            );
        }
        // SAFETY: `atexit` takes a function pointer with the C ABI and no arguments.
        unsafe { libc::atexit(summary) };
        std::sync::Mutex::new(Vec::new())
    })
}

/// A Battleships game (`random` against `hunter`, seed 4) stored in `dir` as `marked.json`, with
/// marks planted on the first move of seat 0 from move 25 on: a heat map of `x + y` (0 at the top
/// left, 18 at the bottom right, from `src/lib.rs:12`), a red cell at (3, 4) (`src/lib.rs:20`),
/// an arrow, a label of markup, a cell off the board and a status line, 2 marks dropped. Returns
/// the trace and that move's number.
pub fn marked_battleships_trace(dir: &Path) -> (PathBuf, usize) {
    let args = ["run", "--game", "battleships", "random", "--vs", "hunter", "--seeds", "4"];
    let out = botlens(&[&args[..], &["--trace-dir", dir.to_str().unwrap()]].concat());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let text = std::fs::read_to_string(dir.join("hunter-seed4.json")).expect("trace stored");
    let mut trace: serde_json::Value = serde_json::from_str(&text).expect("a JSON trace");
    let moves = trace["moves"].as_array_mut().expect("moves");
    let index = (24..moves.len()).find(|&i| moves[i]["seat"] == 0).expect("a move of seat 0");
    let at = |line: u32| serde_json::json!({ "file": "src/lib.rs", "line": line, "column": 5 });
    let values: Vec<u32> = (0..100).map(|cell| cell % 10 + cell / 10).collect();
    moves[index]["drawing"] = serde_json::json!({
        "marks": [
            { "kind": "heat", "width": 10, "values": values, "location": at(12) },
            { "kind": "cell", "x": 3, "y": 4, "colour": { "rgb": 0xff0000 }, "location": at(20) },
            { "kind": "arrow", "x": 1, "y": 8, "to_x": 3, "to_y": 4, "colour": { "rgb": 0x00ff00 } },
            { "kind": "label", "x": 6, "y": 2, "text": "<img src=x onerror=alert(1)>",
              "colour": { "rgb": 0xffffff }, "location": at(21) },
            { "kind": "cell", "x": 10, "y": 0, "colour": { "rgb": 0 } },
            { "kind": "status", "text": "aiming at the cruiser", "location": at(30) },
        ],
        "dropped": 2,
    });
    let path = dir.join("marked.json");
    std::fs::write(&path, trace.to_string()).expect("marked trace");
    (path, index + 1)
}

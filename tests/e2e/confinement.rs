//! Building other people's bots safely: whatever code a build runs (a Rust `build.rs`, an
//! AssemblyScript `asconfig.json` transform, what a C source pulls in) reaches nothing outside
//! its project — no file to read or write, no network, no process that outlives the build —
//! while honest bots still build and play; and a build stopped by Ctrl-C or a killed botlens
//! leaves nothing running.
//!
//! Each hostile build probes from inside and reports what it reached; the test checks both the
//! report and the world outside (the planted file absent, the listener unconnected, no process
//! left).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{BUILD_DEADLINE, Output, Tool, botlens, botlens_with_env, require};

/// What lies outside the bot's project: a secret to read, a place to plant a file in, a port
/// listening for a connection.
struct Outside {
    dir: tempfile::TempDir,
    listener: TcpListener,
}

/// The secret's text, which must appear in no output.
const SECRET: &str = "the-secret-of-the-user-8d1f";

impl Outside {
    fn new() -> Outside {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("secret.txt"), SECRET).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        Outside { dir, listener }
    }

    fn secret(&self) -> PathBuf {
        self.dir.path().join("secret.txt")
    }

    fn planted(&self) -> PathBuf {
        self.dir.path().join("planted.txt")
    }

    fn port(&self) -> u16 {
        self.listener.local_addr().unwrap().port()
    }

    /// Fails the test if anything reached outside.
    fn assert_untouched(&self, out: &Output) {
        assert!(!self.planted().exists(), "the build wrote outside its project");
        assert!(self.listener.accept().is_err(), "the build connected to a local port");
        for text in [&out.stdout, &out.stderr] {
            assert!(!text.contains(SECRET), "the secret leaked:\n{text}");
        }
    }
}

/// Whether a process whose command line holds `marker` is running (zombies are not).
fn running(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().filter_map(Result::ok).any(|entry| {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat.rsplit(')').next().is_some_and(|r| r.trim_start().starts_with('Z'));
        !zombie && String::from_utf8_lossy(&cmdline).replace('\0', " ").contains(marker)
    })
}

/// Waits up to five seconds for no process with `marker` to run; whether none does.
fn none_left(marker: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while running(marker) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    !running(marker)
}

/// A `sleep` argument no other process has, for finding what a build left running.
fn sleep_marker(n: u32) -> String {
    format!("{}{n}.25", 70_000 + std::process::id() % 10_000)
}

/// A new Tic-tac-toe Rust bot in `dir` whose `build.rs` is `script`.
fn rust_bot_with_build_script(dir: &Path, script: &str) -> String {
    let name = dir.display().to_string();
    let made = botlens_with_env(&["new", "tictactoe", &name], "", BUILD_DEADLINE, &[]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    std::fs::write(dir.join("build.rs"), script).unwrap();
    name
}

/// `botlens run <bot> --vs random --seeds 0..2 --json`, building into the tests' shared target
/// directory.
fn run_bot(bot: &str) -> Output {
    let args = ["run", bot, "--vs", "random", "--seeds", "0..2", "--json"];
    botlens_with_env(&args, "", BUILD_DEADLINE, &[])
}

/// A Rust `build.rs` that tries everything and writes what happened to `<OUT_DIR>/<probe>`
/// (the one place it may write), then leaves a process running.
fn probing_build_script(outside: &Outside, probe: &str, sleeper: &str) -> String {
    format!(
        r#"use std::io::Write;
fn main() {{
    let read = match std::fs::read_to_string({secret:?}) {{ Ok(text) => text, Err(e) => format!("refused: {{:?}}", e.kind()) }};
    let write = match std::fs::write({planted:?}, "x") {{ Ok(()) => "written".to_string(), Err(e) => format!("refused: {{:?}}", e.kind()) }};
    let connect = match std::net::TcpStream::connect(("127.0.0.1", {port})) {{ Ok(_) => "connected".to_string(), Err(e) => format!("refused: {{:?}}", e.kind()) }};
    let shadow = std::fs::read("/etc/shadow").map(|_| "read").unwrap_or("refused");
    // Its output let go, so that cargo does not wait for it: left running, not hanging the build.
    let left = std::process::Command::new("setsid").args(["sleep", "{sleeper}"])
        .stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null())
        .spawn().is_ok();
    let out = std::env::var("OUT_DIR").unwrap();
    let mut probe = std::fs::File::create(format!("{{out}}/{probe}")).unwrap();
    writeln!(probe, "read {{read}}\nwrite {{write}}\nconnect {{connect}}\nshadow {{shadow}}\nleft {{left}}").unwrap();
}}
"#,
        secret = outside.secret().display().to_string(),
        planted = outside.planted().display().to_string(),
        port = outside.port(),
    )
}

/// The first file named `name` beneath `dir`.
fn find(dir: &Path, name: &str) -> Option<PathBuf> {
    std::fs::read_dir(dir).ok()?.filter_map(Result::ok).find_map(|entry| {
        let path = entry.path();
        if path.is_dir() { find(&path, name) } else { (entry.file_name() == name).then_some(path) }
    })
}

#[test]
fn a_rust_build_script_reaches_nothing_outside_its_project_and_the_bot_still_plays() {
    let outside = Outside::new();
    let dir = tempfile::tempdir().unwrap();
    let probe = format!("probe-{}.txt", dir.path().file_name().unwrap().to_string_lossy());
    let sleeper = sleep_marker(1);
    let bot =
        rust_bot_with_build_script(dir.path(), &probing_build_script(&outside, &probe, &sleeper));
    let out = run_bot(&bot);
    assert_eq!(
        out.code,
        Some(0),
        "an honest bot with a build script builds:\n{}\n{}",
        out.stdout,
        out.stderr
    );
    let report =
        find(Path::new(&crate::support::shared_target()), &probe).expect("the build script ran");
    let report = std::fs::read_to_string(report).unwrap();
    // Without a network namespace of its own, Landlock refuses the connection instead.
    let report =
        report.replace("refused: PermissionDenied\nshadow", "refused: NetworkUnreachable\nshadow");
    assert_eq!(
        report,
        "read refused: PermissionDenied\nwrite refused: PermissionDenied\nconnect refused: NetworkUnreachable\nshadow refused\nleft true\n"
    );
    outside.assert_untouched(&out);
    assert!(none_left(&format!("sleep {sleeper}")), "a process the build started outlived it");
}

#[test]
fn an_assemblyscript_transform_reaches_nothing_outside_its_folder() {
    if !require(&[Tool::Node]) {
        return;
    }
    let outside = Outside::new();
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join("as-bot").display().to_string();
    let made = botlens_with_env(
        &["new", "tictactoe", &name, "--lang", "assemblyscript"],
        "",
        BUILD_DEADLINE,
        &[],
    );
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    let folder = Path::new(&name);
    let transform = format!(
        r#"const fs = require("fs"); const net = require("net"); const {{ execSync }} = require("child_process");
const tried = (f) => {{ try {{ f(); return "done"; }} catch (e) {{ return "refused " + e.code; }} }};
const read = tried(() => fs.readFileSync({secret:?}, "utf8"));
const write = tried(() => fs.writeFileSync({planted:?}, "x"));
const shadow = tried(() => fs.readFileSync("/etc/shadow"));
const spawned = tried(() => execSync("cat {secret} > {planted}"));
const socket = net.connect({port}, "127.0.0.1");
socket.on("error", () => {{}});
module.exports = class {{ afterParse() {{ throw new Error(`probe read ${{read}} write ${{write}} shadow ${{shadow}} shell ${{spawned}}`); }} }};
"#,
        secret = outside.secret().display().to_string(),
        planted = outside.planted().display().to_string(),
        port = outside.port(),
    );
    std::fs::write(folder.join("helper.cjs"), transform).unwrap();
    std::fs::write(
        folder.join("asconfig.json"),
        r#"{ "options": { "transform": ["./helper.cjs"] } }"#,
    )
    .unwrap();
    let out = botlens_with_env(
        &["run", &name, "--vs", "random", "--seeds", "0..2"],
        "",
        BUILD_DEADLINE,
        &[],
    );
    assert_eq!(
        out.code,
        Some(2),
        "the transform's error fails the build:\n{}\n{}",
        out.stdout,
        out.stderr
    );
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(
        all.contains(
            "probe read refused EACCES write refused EACCES shadow refused EACCES shell refused"
        ),
        "{all}"
    );
    outside.assert_untouched(&out);
}

#[test]
fn a_c_bot_cannot_pull_a_file_from_outside_its_folder_into_its_module() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let outside = Outside::new();
    let dir = tempfile::tempdir().unwrap();
    let secret = outside.secret().display().to_string();
    for source in [
        format!(
            "#include \"botlens.h\"\n__asm__(\".incbin \\\"{secret}\\\"\");\nvoid bot_play(void) {{}}\n"
        ),
        format!("#include \"botlens.h\"\n#include \"{secret}\"\nvoid bot_play(void) {{}}\n"),
    ] {
        std::fs::write(dir.path().join("bot.c"), &source).unwrap();
        std::fs::write(dir.path().join("botlens.toml"), "game = \"tictactoe\"\n").unwrap();
        let bot = dir.path().display().to_string();
        let out = botlens_with_env(
            &["run", &bot, "--vs", "random", "--seeds", "0..2"],
            "",
            BUILD_DEADLINE,
            &[],
        );
        assert_eq!(out.code, Some(2), "{source}\n{}\n{}", out.stdout, out.stderr);
        outside.assert_untouched(&out);
    }
}

/// A Rust bot whose build script starts a `sleep marker` and never returns.
fn hanging_bot(dir: &Path, marker: &str) -> String {
    let script = format!(
        "fn main() {{ let _ = std::process::Command::new(\"sleep\").arg(\"{marker}\").spawn(); loop {{ std::thread::sleep(std::time::Duration::from_secs(1)); }} }}\n"
    );
    rust_bot_with_build_script(dir, &script)
}

/// The private directories of confined runs (`botlens-run-…`) in `tmp`.
fn private_dirs(tmp: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(tmp).unwrap().map(|entry| entry.unwrap().path());
    entries
        .filter(|path| path.file_name().unwrap().to_string_lossy().starts_with("botlens-run-"))
        .collect()
}

#[test]
fn a_build_stopped_by_ctrl_c_or_a_killed_botlens_leaves_nothing_running_and_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let mut killed = Vec::new();
    for (n, signal) in [(3, libc::SIGKILL), (2, libc::SIGINT)] {
        let dir = tempfile::tempdir().unwrap();
        let marker = sleep_marker(n);
        let bot = hanging_bot(dir.path(), &marker);
        let target = crate::support::shared_target();
        let mut botlens = Command::new(env!("CARGO_BIN_EXE_botlens"))
            .args(["run", &bot, "--vs", "random", "--seeds", "0..2"])
            .env("CARGO_TARGET_DIR", &target)
            .env("TMPDIR", tmp.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + BUILD_DEADLINE;
        while !running(&format!("sleep {marker}")) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(running(&format!("sleep {marker}")), "the build script did not start");
        let pid = i32::try_from(botlens.id()).unwrap();
        // SAFETY: `kill` with a child's pid and a signal number touches no memory.
        unsafe { libc::kill(pid, signal) };
        let _ = botlens.wait();
        assert!(
            none_left(&format!("sleep {marker}")),
            "signal {signal}: the build outlived botlens"
        );
        assert!(
            none_left(&dir.path().display().to_string()),
            "signal {signal}: cargo or the script outlived botlens"
        );
        // Ended by a signal, botlens removes nothing; the next botlens does, once the directory
        // is old enough not to be one just made (a minute), which the killed one's is made to
        // look.
        let left = private_dirs(tmp.path());
        assert_eq!(left.len(), 1, "signal {signal}: this run's private directory: {left:?}");
        assert!(!killed.contains(&left[0]), "signal {signal}: the killed run's is still there");
        let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
        std::fs::File::open(&left[0]).unwrap().set_modified(hour_ago).unwrap();
        killed = left;
    }
}

#[test]
fn a_zig_bot_cannot_embed_a_file_through_a_link_leading_out_of_its_folder() {
    if !require(&[Tool::Zig]) {
        return;
    }
    let outside = Outside::new();
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join("zig-bot").display().to_string();
    let made =
        botlens_with_env(&["new", "tictactoe", &name, "--lang", "zig"], "", BUILD_DEADLINE, &[]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    let folder = Path::new(&name);
    std::os::unix::fs::symlink(outside.secret(), folder.join("notes.txt")).unwrap();
    let bot = folder.join("bot.zig");
    let mut source = std::fs::read_to_string(&bot).unwrap();
    source.push_str("\nexport fn leak() usize {\n    return @embedFile(\"notes.txt\").len;\n}\n");
    std::fs::write(&bot, source).unwrap();
    let out = botlens_with_env(
        &["run", &name, "--vs", "random", "--seeds", "0..2"],
        "",
        BUILD_DEADLINE,
        &[],
    );
    assert_eq!(out.code, Some(2), "the embed fails the build:\n{}\n{}", out.stdout, out.stderr);
    outside.assert_untouched(&out);
}

/// A C Tic-tac-toe bot in `dir` that panics on its first turn.
fn losing_c_bot(dir: &Path) -> String {
    let source = "#include \"botlens.h\"\n\nvoid bot_new(int seat) { (void)seat; }\n\nvoid bot_play(void) { BOTLENS_PANIC(\"lost\"); }\n";
    std::fs::write(dir.join("bot.c"), source).unwrap();
    std::fs::write(dir.join("botlens.toml"), "game = \"tictactoe\"\n").unwrap();
    dir.display().to_string()
}

#[test]
fn a_debugger_reads_nothing_outside_the_bot_and_ends_with_a_killed_botlens() {
    if !require(&[Tool::Clang, Tool::Gdb]) {
        return;
    }
    let outside = Outside::new();
    let dir = tempfile::tempdir().unwrap();
    let bot = losing_c_bot(dir.path());
    let commands = dir.path().join("commands.gdb");
    let batch = format!(
        "shell cat {secret}; echo \"read: $?\"\nshell echo x > {planted}; echo \"wrote: $?\"\n",
        secret = outside.secret().display(),
        planted = outside.planted().display()
    );
    std::fs::write(&commands, batch).unwrap();
    let game = ["debug", &bot, "--vs", "random", "--seed", "1"];
    let out = botlens(&[&game[..], &["--batch", commands.to_str().unwrap()]].concat());
    let all = format!("{}\n{}", out.stdout, out.stderr);
    assert_eq!(out.code, Some(0), "{all}");
    assert!(all.contains("botlens_turn_begins (turn=1)"), "the game still stops: {all}");
    assert!(all.contains("read: 1") && all.contains("wrote: 2"), "{all}");
    outside.assert_untouched(&out);

    // Killed while the game waits at its stop, botlens takes the debugger and the game along.
    let mut botlens = Command::new(env!("CARGO_BIN_EXE_botlens"))
        .args(game)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let debuggee = format!("--debuggee -- {bot}");
    let deadline = Instant::now() + BUILD_DEADLINE;
    while !running(&debuggee) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(running(&debuggee), "the game under the debugger did not start");
    botlens.kill().unwrap();
    let _ = botlens.wait();
    assert!(none_left(&bot), "the debugger or its game outlived botlens");
}

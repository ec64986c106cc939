//! The editor's debugger UI: `botlens debug … --dap` is a Debug Adapter Protocol server (lldb's,
//! confined), and `--launch-config` the launch request an editor sends it. A scripted DAP
//! client, as nvim-dap or VS Code would be, launches the off-by-one sample's losing game, is
//! stopped at the failing line of the failing turn, and reads the wrong value there.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Tool, botlens_with_input, line_after_marker, repo_root, require};

/// The game: the off-by-one sample fires at column 10 on its turn 32, seed 8 vs hunter.
const GAME: [&str; 5] = ["samples/battleships-offbyone", "--vs", "hunter", "--seed", "8"];

/// How long the adapter may take to answer (a first debug build of the sample included).
const PATIENCE: Duration = Duration::from_secs(300);

/// A DAP client of the adapter botlens runs: requests out, responses and events in.
struct Client {
    adapter: Child,
    to: ChildStdin,
    from: Receiver<Value>,
    seq: u64,
    /// Every message heard, for a failure's message.
    heard: Vec<String>,
}

impl Client {
    /// The adapter of `game` (`botlens debug GAME… --dap`).
    fn start(game: &[&str]) -> Client {
        let mut adapter = Command::new(env!("CARGO_BIN_EXE_botlens"))
            .args([&["debug"][..], game, &["--dap"]].concat())
            .current_dir(repo_root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("botlens starts");
        let to = adapter.stdin.take().unwrap();
        let mut stdout = BufReader::new(adapter.stdout.take().unwrap());
        let (send, from) = channel();
        std::thread::spawn(move || {
            loop {
                let mut length = None;
                loop {
                    let mut header = String::new();
                    if stdout.read_line(&mut header).unwrap_or(0) == 0 {
                        return;
                    }
                    let header = header.trim();
                    if header.is_empty() {
                        break;
                    }
                    if let Some(value) = header.strip_prefix("Content-Length:") {
                        length = value.trim().parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                stdout.read_exact(&mut body).unwrap();
                if send.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client { adapter, to, from, seq: 0, heard: Vec::new() }
    }

    /// Sends the request `command` with `arguments`; its sequence number.
    fn send(&mut self, command: &str, arguments: Value) -> u64 {
        self.seq += 1;
        let request =
            json!({"seq": self.seq, "type": "request", "command": command, "arguments": arguments});
        let body = request.to_string();
        write!(self.to, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.to.flush().unwrap();
        self.seq
    }

    /// The first message `wanted` picks, failing after [`PATIENCE`].
    fn expect(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(message) => {
                    self.heard.push(message.to_string());
                    if wanted(&message) {
                        return message;
                    }
                }
                Err(_) => panic!("no {what}; heard:\n{}", self.heard.join("\n")),
            }
        }
    }

    /// Sends `command` and returns its successful response's body.
    fn request(&mut self, command: &str, arguments: Value) -> Value {
        let seq = self.send(command, arguments);
        let response = self.expect(command, |m| m["type"] == "response" && m["request_seq"] == seq);
        assert_eq!(response["success"], true, "{command}: {response}");
        response["body"].clone()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.adapter.kill();
        let _ = self.adapter.wait();
    }
}

/// Where a DAP client of `game`'s adapter, launched as `--launch-config` says, is stopped
/// first: the client, the top frame and its locals (name, value).
fn first_stop(game: &[&str]) -> (Client, Value, Vec<(String, String)>) {
    let config =
        botlens_with_input(&[&["debug"][..], game, &["--launch-config"]].concat(), "", PATIENCE);
    assert_eq!(config.code, Some(0), "{}", config.stderr);
    let launch: Value = serde_json::from_str(&config.stdout).expect("the configuration is JSON");
    assert_eq!(launch["request"], "launch", "{launch:#}");

    let mut client = Client::start(game);
    client.request(
        "initialize",
        json!({"adapterID": "botlens", "linesStartAt1": true, "pathFormat": "path"}),
    );
    client.request("launch", launch);
    client.expect("the initialized event", |m| m["event"] == "initialized");
    client.request("configurationDone", json!({}));
    let stopped = client.expect("a stop", |m| m["event"] == "stopped");
    assert_eq!(stopped["body"]["reason"], "breakpoint", "{stopped}");
    let thread = stopped["body"]["threadId"].clone();
    let trace = client.request("stackTrace", json!({"threadId": thread, "levels": 5}));
    let top = trace["stackFrames"][0].clone();
    let scopes = client.request("scopes", json!({"frameId": top["id"]}));
    let locals = scopes["scopes"].as_array().unwrap().iter().find(|s| s["name"] == "Locals");
    let reference = locals.expect("a Locals scope")["variablesReference"].clone();
    let variables = client.request("variables", json!({"variablesReference": reference}));
    let named = variables["variables"].as_array().unwrap().iter();
    let locals = named
        .map(|v| (v["name"].as_str().unwrap().to_owned(), v["value"].as_str().unwrap().to_owned()))
        .collect();
    (client, top, locals)
}

/// Whether `locals` has `name` with `value`.
fn has(locals: &[(String, String)], name: &str, value: &str) -> bool {
    locals.iter().any(|(n, v)| n == name && v == value)
}

#[test]
fn a_dap_client_stops_at_the_failing_line_and_reads_its_wrong_value() {
    if !require(&[Tool::Lldb]) {
        return;
    }
    let (mut client, top, locals) = first_stop(&GAME);
    // The failing line, in the bot's own source, in its frame.
    let source = repo_root().join(GAME[0]).join("src/lib.rs");
    let line = line_after_marker(&source, "botlens reports the illegal_move on the next line");
    assert_eq!(top["line"], line, "{top:#}");
    assert_eq!(top["source"]["path"], source.display().to_string(), "{top:#}");
    assert!(top["name"].as_str().unwrap().contains("OffByOne"), "{top:#}");
    // Its locals with their values: the column off the grid.
    assert!(has(&locals, "x", "10") && has(&locals, "y", "8"), "{locals:?}");
    let watched = client.request(
        "evaluate",
        json!({"expression": "x * 2 + y", "frameId": top["id"], "context": "watch"}),
    );
    assert_eq!(watched["result"], "28", "{watched}");

    // botlens's commands in the debug console: the board as the bot sees it.
    // (Its output may come before the evaluation's answer, or after it.)
    client.request(
        "evaluate",
        json!({"expression": "`board", "frameId": top["id"], "context": "repl"}),
    );
    let said = "the bot's turn 32, as it sees the board";
    if !client.heard.iter().any(|m| m.contains(said)) {
        client.expect("the board", |m| m["event"] == "output" && m.to_string().contains(said));
    }
    client.request("disconnect", json!({"terminateDebuggee": true}));
}

#[test]
fn a_dap_client_reads_a_c_bots_and_a_zig_bots_locals_at_their_failing_lines() {
    if !require(&[Tool::Lldb, Tool::Clang, Tool::Zig]) {
        return;
    }
    let c = ["samples/c-tictactoe-edgeless", "--vs", "perfect", "--seed", "4"];
    let (_client, top, locals) = first_stop(&c);
    let source = repo_root().join(c[0]).join("bot.c");
    let line = line_after_marker(&source, "botlens reports the panic on the next line");
    assert_eq!((&top["name"], &top["line"]), (&json!("bot_play"), &json!(line)), "{top:#}");
    assert!(has(&locals, "square", "-1") && has(&locals, "other", "'O'"), "{locals:?}");

    // A Zig bot that marks column 3, off the board, on its second turn.
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("zbot");
    let name = bot.to_str().unwrap();
    let made = botlens_with_input(&["new", "--lang", "zig", "tictactoe", name], "", PATIENCE);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    let file = bot.join("bot.zig");
    let source = std::fs::read_to_string(&file).unwrap();
    let planted = "    turns += 1;\n    const column: u32 = turns + 1;\n    if (turns == 2) _ = botlens.mark(@intCast(column), 0); // off\n";
    std::fs::write(&file, source.replacen("    turns += 1;\n", planted, 1)).unwrap();
    let written = std::fs::read_to_string(&file).unwrap();
    let line = written.lines().position(|l| l.ends_with("// off")).unwrap() + 1;
    let (_client, top, locals) = first_stop(&[name, "--vs", "random", "--seed", "1"]);
    assert_eq!((&top["name"], &top["line"]), (&json!("bot.play"), &json!(line)), "{top:#}");
    assert!(has(&locals, "column", "3"), "{locals:?}");
}

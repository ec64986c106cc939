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
    fn start() -> Client {
        let mut adapter = Command::new(env!("CARGO_BIN_EXE_botlens"))
            .args([&["debug"][..], &GAME, &["--dap"]].concat())
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

#[test]
fn a_dap_client_stops_at_the_failing_line_and_reads_its_wrong_value() {
    if !require(&[Tool::Lldb]) {
        return;
    }
    let config =
        botlens_with_input(&[&["debug"][..], &GAME, &["--launch-config"]].concat(), "", PATIENCE);
    assert_eq!(config.code, Some(0), "{}", config.stderr);
    let launch: Value = serde_json::from_str(&config.stdout).expect("the configuration is JSON");
    assert_eq!(launch["request"], "launch", "{launch:#}");

    let mut client = Client::start();
    client.request(
        "initialize",
        json!({"adapterID": "botlens", "linesStartAt1": true, "pathFormat": "path"}),
    );
    client.request("launch", launch);
    client.expect("the initialized event", |m| m["event"] == "initialized");
    client.request("configurationDone", json!({}));
    let stopped = client.expect("a stop", |m| m["event"] == "stopped");
    assert_eq!(stopped["body"]["reason"], "breakpoint", "{stopped}");

    // The failing line, in the bot's own source, in its frame.
    let thread = stopped["body"]["threadId"].clone();
    let trace = client.request("stackTrace", json!({"threadId": thread, "levels": 5}));
    let top = &trace["stackFrames"][0];
    let source = repo_root().join(GAME[0]).join("src/lib.rs");
    let line = line_after_marker(&source, "botlens reports the illegal_move on the next line");
    assert_eq!(top["line"], line, "{trace:#}");
    assert_eq!(top["source"]["path"], source.display().to_string(), "{trace:#}");
    assert!(top["name"].as_str().unwrap().contains("OffByOne"), "{trace:#}");

    // Its locals with their values: the column off the grid.
    let scopes = client.request("scopes", json!({"frameId": top["id"]}));
    let locals = scopes["scopes"].as_array().unwrap().iter().find(|s| s["name"] == "Locals");
    let reference = locals.expect("a Locals scope")["variablesReference"].clone();
    let variables = client.request("variables", json!({"variablesReference": reference}));
    let value = |name: &str| {
        let all = variables["variables"].as_array().unwrap();
        all.iter().find(|v| v["name"] == name).map(|v| v["value"].clone())
    };
    assert_eq!(value("x"), Some(json!("10")), "{variables:#}");
    assert_eq!(value("y"), Some(json!("8")), "{variables:#}");
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

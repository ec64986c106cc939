//! `botlens lsp` as an editor sees it: a separate process spoken to over stdio with
//! Content-Length framing. Diagnostics follow saves and clear when the bug is fixed, progress is
//! reported, and a real (headless) Neovim shows the diagnostics. A hostile client cannot silence
//! it: every malformed message is answered and the next request still is, a header line without
//! end costs no memory, and the server exits (0 after `shutdown`, else 1) on `exit` or at the end
//! of its input even with a request of its own unanswered. Those tests use a workspace without
//! bot projects, so nothing builds.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Tool, line_after_marker, repo_root, require};

/// The first build of a bot compiles its dependencies: allow it minutes.
const FIRST_RUN: Duration = Duration::from_secs(480);
/// Answers to requests that do no building.
const ANSWER: Duration = Duration::from_secs(20);

/// A copy of the sample `tictactoe-panicky` under `<temp>/bots/panicky`, standing alone (the SDK
/// by absolute path) and named `name` (tests share a target directory, so each bot needs its own
/// artifact name); `broken` makes it fail to compile.
fn panicky_workspace(name: &str, broken: bool) -> (tempfile::TempDir, PathBuf) {
    sample_workspace("tictactoe-panicky", name, broken)
}

/// A workspace holding a copy of the Rust sample `sample` as `bots/<its last word>`, its package
/// named `name` (and its SDK path absolute); `broken` breaks its source.
fn sample_workspace(sample: &str, name: &str, broken: bool) -> (tempfile::TempDir, PathBuf) {
    let workspace = tempfile::tempdir().expect("temp dir");
    let dir = repo_root().join("samples").join(sample);
    let bot = workspace.path().join("bots").join(sample.rsplit('-').next().unwrap_or(sample));
    std::fs::create_dir_all(bot.join("src")).expect("bot dir");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("sample manifest");
    let sdk = repo_root().join("crates/sdk");
    let manifest = manifest
        .replace("\"../../crates/sdk\"", &format!("{:?}", sdk.display().to_string()))
        .replace(&format!("name = \"{sample}\""), &format!("name = {name:?}"));
    std::fs::write(bot.join("Cargo.toml"), manifest).expect("manifest");
    let mut source = std::fs::read_to_string(dir.join("src/lib.rs")).expect("sample source");
    if broken {
        source = source.replace("let me = view.you;", "let me = view.you\n    let oops = ;");
    }
    std::fs::write(bot.join("src/lib.rs"), source).expect("source");
    let bot = bot.canonicalize().expect("canonical bot dir");
    (workspace, bot)
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A running `botlens lsp` and the messages it sent.
struct Lsp {
    child: Child,
    /// `None` once closed.
    input: Arc<Mutex<Option<ChildStdin>>>,
    messages: Receiver<Value>,
    seen: Vec<Value>,
    next_id: u64,
}

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

impl Lsp {
    /// Starts the server; bots build into one shared target directory so tests reuse the
    /// compiled dependencies. Requests from the server (progress tokens, registrations) are
    /// answered with null.
    fn start() -> Lsp {
        Lsp::spawn(true)
    }

    /// Starts the server as [`Lsp::start`] does, answering its requests only if `answer`.
    fn spawn(answer: bool) -> Lsp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_botlens"))
            .arg("lsp")
            .env("CARGO_TARGET_DIR", crate::support::shared_target())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("botlens lsp starts");
        let input = Arc::new(Mutex::new(Some(child.stdin.take().expect("stdin"))));
        let output = child.stdout.take().expect("stdout");
        let (sender, messages) = channel();
        let answers = input.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            while let Some(message) = read_message(&mut reader) {
                if answer && message.get("method").is_some() && message.get("id").is_some() {
                    let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": null});
                    if let Some(input) = answers.lock().unwrap().as_mut() {
                        let _ = input.write_all(&frame(&reply.to_string()));
                    }
                }
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Lsp { child, input, messages, seen: Vec::new(), next_id: 1 }
    }

    fn send_raw(&self, bytes: &[u8]) {
        let mut input = self.input.lock().unwrap();
        let input = input.as_mut().expect("the input is open");
        input.write_all(bytes).expect("server reads");
        input.flush().expect("flush");
    }

    /// Closes the server's standard input: the end of its input.
    fn close_input(&self) {
        self.input.lock().unwrap().take();
    }

    fn notify(&self, method: &str, params: Value) {
        let body = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.send_raw(&frame(&body.to_string()));
    }

    /// Sends a request and waits for its response (the whole message: `result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.request_within(ANSWER, method, params)
    }

    /// [`Lsp::request`], waiting up to `limit` for the response.
    fn request_within(&mut self, limit: Duration, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(&frame(&body.to_string()));
        self.wait_for(limit, &format!("the answer to {method}"), |m| {
            m.get("method").is_none() && m["id"] == json!(id)
        })
    }

    /// The first message (already seen or still to come) matching `wanted`, consumed.
    fn wait_for(&mut self, limit: Duration, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(index) = self.seen.iter().position(&wanted) {
            return self.seen.remove(index);
        }
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.seen.push(message),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {what} within {limit:?}; got:\n{:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server hung up while waiting for {what}; got:\n{:#?}", self.seen)
                }
            }
        }
    }

    fn initialize(&mut self, workspace: &Path) -> Value {
        let capabilities = json!({
            "general": {"positionEncodings": ["utf-16"]},
            "window": {"workDoneProgress": true},
            "workspace": {"codeLens": {"refreshSupport": true}},
        });
        self.initialize_with(
            workspace,
            capabilities,
            json!({"botlens": {"publishBuildErrors": true}}),
        )
    }

    /// `initialize` with these client capabilities and options, then `initialized`.
    fn initialize_with(&mut self, workspace: &Path, capabilities: Value, options: Value) -> Value {
        let answer = self.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "workspaceFolders": [{"uri": uri(workspace), "name": "bots"}],
                "capabilities": capabilities,
                "initializationOptions": options,
            }),
        );
        self.notify("initialized", json!({}));
        answer
    }

    fn save(&self, file: &Path) {
        self.notify("textDocument/didSave", json!({"textDocument": {"uri": uri(file)}}));
    }

    /// Waits for diagnostics of `file` that satisfy `wanted`.
    fn diagnostics(
        &mut self,
        file: &Path,
        limit: Duration,
        wanted: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        let uri = uri(file);
        let message = self.wait_for(limit, &format!("matching diagnostics for {uri}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == json!(uri)
                && m["params"]["diagnostics"].as_array().is_some_and(|d| wanted(d))
        });
        message["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    /// Shuts down politely and checks the process ends with status 0.
    fn stop(mut self) {
        let answer = self.request("shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        self.notify("exit", Value::Null);
        let status = self.exited(ANSWER);
        assert_eq!(status.code(), Some(0), "{status}");
    }

    /// How the process ended; fails the test unless it ends within `limit`.
    fn exited(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("botlens lsp did not exit within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The error answer to an unreadable message: `id: null` and `code`.
    fn unreadable(&mut self, code: i64, what: &str) -> String {
        let answer = self.wait_for(ANSWER, &format!("the error answer to {what}"), |m| {
            m.get("method").is_none() && m["id"].is_null() && m["error"]["code"] == code
        });
        answer["error"]["message"].as_str().unwrap_or_default().to_owned()
    }
}

/// Reads one Content-Length framed message; `None` at end of stream.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// The 0-based line of the first line of `file` containing `needle`.
fn line_of(file: &Path, needle: &str) -> u64 {
    let text = std::fs::read_to_string(file).expect("source");
    text.lines().position(|l| l.contains(needle)).expect("needle in file") as u64
}

#[test]
fn diagnostics_follow_saves_and_clear_when_the_bug_is_fixed() {
    let (workspace, bot) = panicky_workspace("lsp-e2e-saves", false);
    let lib = bot.join("src/lib.rs");
    let mut lsp = Lsp::start();
    let init = lsp.initialize(workspace.path());
    let capabilities = &init["result"]["capabilities"];
    assert_eq!(capabilities["positionEncoding"], "utf-16");
    assert_eq!(
        capabilities["executeCommandProvider"]["commands"],
        json!([
            "botlens.rerun",
            "botlens.replay",
            "botlens.debug",
            "botlens.profile",
            "botlens.analyze",
            "botlens.live"
        ])
    );
    // Every command VS Code's palette lists is one the server carries out.
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("editors/vscode/package.json"))
            .expect("package.json"),
    )
    .expect("package.json is JSON");
    let advertised = capabilities["executeCommandProvider"]["commands"].as_array().unwrap();
    for entry in manifest["contributes"]["commands"].as_array().expect("commands") {
        assert!(advertised.contains(&entry["command"]), "{entry} is no server command");
    }

    lsp.save(&lib);
    let diagnostics = lsp.diagnostics(&lib, FIRST_RUN, |d| !d.is_empty());
    let panic_line = line_of(&lib, ".expect(\"X opens on a corner or an edge\")");
    let [diagnostic] = &diagnostics[..] else { panic!("one group expected: {diagnostics:#?}") };
    assert_eq!(diagnostic["range"]["start"]["line"], json!(panic_line), "{diagnostic:#}");
    assert_eq!(diagnostic["code"], "panic");
    assert_eq!(diagnostic["source"], "botlens");
    assert_eq!(diagnostic["severity"], 1);
    let message = diagnostic["message"].as_str().unwrap();
    let (first, details) = message.split_once('\n').expect("a short first line, details after");
    assert_eq!(first, "panic: X opens on a corner or an edge", "{message}");
    assert!(details.starts_with("lost "), "{message}");
    assert!(
        details.contains("vs random (seed") && details.contains("; first at move "),
        "{message}"
    );
    let replay = diagnostic["data"]["replay"].as_str().unwrap();
    assert!(replay.starts_with(&format!("botlens replay {} --vs ", bot.display())), "{replay}");

    // Progress: a begin and an end under the token the server created.
    for kind in ["begin", "end"] {
        lsp.wait_for(ANSWER, &format!("$/progress {kind}"), |m| {
            m["method"] == "$/progress" && m["params"]["value"]["kind"] == kind
        });
    }

    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&lib)}, "position": {"line": panic_line, "character": 10}}),
    );
    let text = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("Board at the failing move:\n\n```text\n"), "{hover:#}");

    let lenses = lsp.request("textDocument/codeLens", json!({"textDocument": {"uri": uri(&lib)}}));
    let entry = line_of(&lib, "impl Bot for Panicky");
    let lenses = lenses["result"].as_array().cloned().unwrap_or_default();
    let [scores, live_lens, replay_lens, debug_lens] = &lenses[..] else {
        panic!("four lenses expected: {lenses:#?}")
    };
    assert_eq!(scores["range"]["start"]["line"], json!(entry));
    let title = scores["command"]["title"].as_str().unwrap();
    assert!(
        title.starts_with("botlens: vs random ") && title.contains(" · vs perfect "),
        "{title}"
    );
    assert_eq!(replay_lens["command"]["command"], "botlens.replay");

    // The live view: offered above the bot, opened in the client's browser, showing the run.
    assert_eq!(live_lens["command"]["command"], "botlens.live");
    let opened = lsp.request(
        "workspace/executeCommand",
        json!({"command": "botlens.live", "arguments": [bot.display().to_string()]}),
    );
    let url = opened["result"].as_str().unwrap_or_else(|| panic!("an address: {opened:#}"));
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let shown =
        lsp.wait_for(ANSWER, "window/showDocument", |m| m["method"] == "window/showDocument");
    assert_eq!(shown["params"]["uri"], url);
    assert_eq!(shown["params"]["external"], true);
    let state = crate::live::first_state(url);
    assert_eq!(state["status"], "finished", "{state:#}");
    assert_eq!(state["report"]["failures"][0]["kind"], "panic", "{state:#}");
    assert_eq!(state["replays"][0], format!("replay/{}/0", state["run"]));

    let command = lsp.request(
        "workspace/executeCommand",
        json!({"command": "botlens.replay", "arguments": [bot.display().to_string()]}),
    );
    assert_eq!(command["result"], json!(replay), "{command:#}");

    // "Debug this failure": the diagnostic's game, as `botlens debug` plays it, and the lens's.
    assert_eq!(debug_lens["command"]["command"], "botlens.debug");
    let data = &diagnostic["data"];
    let debug = lsp.request(
        "workspace/executeCommand",
        json!({"command": "botlens.debug", "arguments": [data["project"], data["opponent"], data["seed"]]}),
    );
    let expected = format!(
        "botlens debug {} --vs {} --seed {}",
        bot.display(),
        data["opponent"].as_str().unwrap(),
        data["seed"]
    );
    assert_eq!(debug["result"], json!(expected), "{debug:#}");
    let worst = lsp.request(
        "workspace/executeCommand",
        json!({"command": "botlens.debug", "arguments": [bot.display().to_string()]}),
    );
    assert_eq!(worst["result"], json!(expected), "the worst game is the diagnostic's: {worst:#}");
    // …and as code actions on the diagnostic: debug it, replay it.
    let actions = lsp.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&lib)}, "range": diagnostic["range"],
               "context": {"diagnostics": [diagnostic]}}),
    );
    let game = format!("seed {} vs {}", data["seed"], data["opponent"].as_str().unwrap());
    let offered: Vec<(&str, &str, &Value)> = actions["result"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|a| {
                    let command = &a["command"];
                    (
                        a["title"].as_str().unwrap(),
                        command["command"].as_str().unwrap(),
                        &command["arguments"],
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let arguments = json!([data["project"], data["opponent"], data["seed"]]);
    assert_eq!(
        offered,
        [
            (format!("botlens: debug this game ({game})").as_str(), "botlens.debug", &arguments),
            (format!("botlens: replay this game ({game})").as_str(), "botlens.replay", &arguments),
        ],
        "{actions:#}"
    );

    // The one-line fix: O answers a centre opening by the preference list.
    let source = std::fs::read_to_string(&lib).unwrap();
    let fixed = source.replace("marked.len() == 1 {", "marked.len() == 1 && marked[0] != CENTRE {");
    assert_ne!(fixed, source, "the sample changed; update the fix");
    std::fs::write(&lib, fixed).unwrap();
    lsp.save(&lib);
    lsp.diagnostics(&lib, FIRST_RUN, <[Value]>::is_empty);
    lsp.stop();
}

#[test]
fn the_server_survives_bad_input_and_keeps_serving() {
    let (workspace, bot) = panicky_workspace("lsp-e2e-broken", true);
    let lib = bot.join("src/lib.rs");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());

    // Malformed JSON-RPC: reported, and the server reads on.
    lsp.send_raw(&frame("{\"jsonrpc\": \"2.0\", \"id\": 99, \"method\": "));
    lsp.wait_for(ANSWER, "a report of the malformed message", |m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|t| t.contains("ignored a malformed message"))
    });

    let unknown = lsp.request("botlens/noSuchMethod", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");

    let outside = workspace.path().join("notes.rs");
    std::fs::write(&outside, "// not a bot\n").unwrap();
    lsp.save(&outside);
    lsp.wait_for(ANSWER, "a log line about the file outside any project", |m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"].as_str().is_some_and(|t| t.contains("not in a bot project"))
    });

    let missing = workspace.path().join("bots/panicky/src/gone.rs");
    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&missing)}, "position": {"line": 3, "character": 1}}),
    );
    assert_eq!(hover["result"], Value::Null, "{hover}");

    let unknown_command =
        lsp.request("workspace/executeCommand", json!({"command": "botlens.fly"}));
    assert_eq!(unknown_command["error"]["code"], -32602, "{unknown_command}");

    // A build that fails: reported to the user and as diagnostics at the error.
    lsp.save(&lib);
    let shown = lsp.wait_for(FIRST_RUN, "a message about the failed build", |m| {
        m["method"] == "window/showMessage"
    });
    let text = shown["params"]["message"].as_str().unwrap();
    assert!(text.starts_with("botlens: lsp-e2e-broken: does not compile"), "{text}");
    let diagnostics = lsp.diagnostics(&lib, ANSWER, |d| !d.is_empty());
    let broken_line = line_of(&lib, "let oops = ;");
    assert!(
        diagnostics.iter().any(|d| d["message"].as_str().unwrap().starts_with("build failed: ")
            && d["range"]["start"]["line"].as_u64().is_some_and(|l| l + 1 >= broken_line)),
        "{diagnostics:#?}"
    );

    // Still serving.
    let lenses = lsp.request("textDocument/codeLens", json!({"textDocument": {"uri": uri(&lib)}}));
    let title = lenses["result"][0]["command"]["title"].as_str().unwrap_or_default();
    assert!(title.starts_with("botlens: does not compile"), "{lenses:#}");
    lsp.stop();
}

/// Runs the `botlens.profile` command on the bot in `dir` and asserts that its hottest line is
/// in `source`, with a lens above it giving its share of the fuel.
fn profile_and_find_the_hottest_lens(lsp: &mut Lsp, dir: &Path, source: &Path) {
    let command = json!({"command": "botlens.profile", "arguments": [dir.display().to_string()]});
    let answer = lsp.request_within(FIRST_RUN, "workspace/executeCommand", command);
    let hottest = &answer["result"]["lines"][0];
    let file = hottest["file"].as_str().map(Path::new);
    assert!(file.is_some_and(|f| source.ends_with(f) || f.ends_with(source)), "{answer:#}");
    let line = hottest["line"].as_u64().unwrap();
    let lenses =
        lsp.request("textDocument/codeLens", json!({"textDocument": {"uri": uri(source)}}));
    let lenses = lenses["result"].as_array().cloned().unwrap_or_default();
    let hot = lenses
        .iter()
        .find(|l| l["range"]["start"]["line"] == json!(line - 1))
        .unwrap_or_else(|| panic!("no lens at line {line}: {lenses:#?}"));
    let title = hot["command"]["title"].as_str().unwrap();
    let percent = format!("botlens: {:.1} % of fuel", hottest["self_percent"].as_f64().unwrap());
    assert!(title.starts_with(&percent), "{title}");
    assert_eq!(hot["command"]["command"], "botlens.profile");
}

#[test]
fn the_profile_command_puts_the_share_of_fuel_above_the_hottest_lines() {
    let (workspace, bot) = panicky_workspace("lsp-e2e-profile", false);
    let lib = bot.join("src/lib.rs");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    profile_and_find_the_hottest_lens(&mut lsp, &bot, &lib);
    let nowhere = json!({"command": "botlens.profile", "arguments": ["/no/such/bot"]});
    let refused = lsp.request("workspace/executeCommand", nowhere);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    lsp.stop();
}

#[test]
fn the_analyze_command_marks_the_line_whose_moves_lost_the_games() {
    let (workspace, bot) = sample_workspace("tictactoe-forkblind", "lsp-e2e-forkblind", false);
    let lib = bot.join("src/lib.rs");
    let corner = line_after_marker(&lib, "botlens analyze finds the losing move on the next line");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    // No arguments, as from VS Code's command palette: the workspace's only project.
    let command = json!({"command": "botlens.analyze"});
    let answer = lsp.request_within(FIRST_RUN, "workspace/executeCommand", command);
    let result = &answer["result"];
    assert_eq!(
        (result["lost"].as_u64(), result["unit"].as_str()),
        (Some(3), Some("outcome")),
        "{answer:#}"
    );
    assert_eq!(result["sites"][0]["line"].as_u64(), Some(corner), "{answer:#}");

    // An information diagnostic at the line, and a lens above it.
    let diagnostics = lsp.diagnostics(&lib, ANSWER, |d| !d.is_empty());
    let [decision] = &diagnostics[..] else { panic!("one decision line: {diagnostics:#?}") };
    assert_eq!(decision["severity"], 3, "information: {decision:#}");
    assert_eq!(decision["code"], "decision");
    assert_eq!(decision["range"]["start"]["line"].as_u64(), Some(corner - 1));
    let message = decision["message"].as_str().unwrap();
    assert!(message.lines().next().unwrap().ends_with("; 3 of 3 losses turned here"), "{message}");
    let lenses = lsp.request("textDocument/codeLens", json!({"textDocument": {"uri": uri(&lib)}}));
    let lenses = lenses["result"].as_array().cloned().unwrap_or_default();
    let lens = lenses
        .iter()
        .find(|l| l["range"]["start"]["line"] == json!(corner - 1))
        .unwrap_or_else(|| panic!("no lens at line {corner}: {lenses:#?}"));
    assert_eq!(lens["command"]["title"], "botlens: 3 of 3 losses turned here (8 blunders)");
    assert_eq!(lens["command"]["command"], "botlens.analyze");

    // A save runs the suite: the run's diagnostics (none: the bot plays clean) and the
    // analysis's, together.
    lsp.save(&lib);
    let after = lsp.diagnostics(&lib, FIRST_RUN, |d| !d.is_empty());
    assert_eq!(after.len(), 1, "{after:#?}");
    assert_eq!(after[0]["code"], "decision");
    let nowhere = json!({"command": "botlens.analyze", "arguments": ["/no/such/bot"]});
    let refused = lsp.request("workspace/executeCommand", nowhere);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    lsp.stop();
}

#[test]
fn analyze_and_profile_named_no_project_refuse_when_several_are_open() {
    let (workspace, bot) = sample_workspace("tictactoe-forkblind", "lsp-e2e-first", false);
    // A second project beside the first: which one a bare command means is not for the server
    // to guess.
    let other = workspace.path().join("bots/other");
    std::fs::create_dir_all(other.join("src")).unwrap();
    let manifest = std::fs::read_to_string(bot.join("Cargo.toml")).unwrap();
    let manifest = manifest.replace("name = \"lsp-e2e-first\"", "name = \"lsp-e2e-second\"");
    std::fs::write(other.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(bot.join("src/lib.rs"), other.join("src/lib.rs")).unwrap();
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    for command in ["botlens.analyze", "botlens.profile"] {
        let refused = lsp.request("workspace/executeCommand", json!({"command": command}));
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        let message = refused["error"]["message"].as_str().unwrap();
        assert!(message.contains("(2 projects are open)"), "{message}");
    }
    lsp.stop();
}

/// A hover request for a file of `workspace` that no project holds: answered with null.
fn hover_outside(workspace: &Path) -> Value {
    let file = workspace.join("notes.rs");
    json!({"textDocument": {"uri": uri(&file)}, "position": {"line": 0, "character": 0}})
}

/// The peak resident memory of process `pid` so far, in KiB (Linux's `VmHWM`).
fn peak_memory_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmHWM line")
}

#[test]
fn every_malformed_message_is_answered_and_the_next_request_still_is() {
    let workspace = tempfile::tempdir().expect("temp dir");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    let shutdown = r#"{"jsonrpc":"2.0","id":50,"method":"shutdown"}"#;
    let cases: Vec<(&str, Vec<u8>, i64)> = vec![
        (
            "a non-UTF-8 byte in a header",
            b"Content-Length: 2\r\nX-Name: caf\xe9\r\n\r\n{}".to_vec(),
            -32700,
        ),
        ("{}", frame("{}"), -32600),
        ("[]", frame("[]"), -32600),
        ("5", frame("5"), -32600),
        ("\"x\"", frame("\"x\""), -32600),
        ("null", frame("null"), -32600),
        ("an id of true", frame(r#"{"jsonrpc":"2.0","id":true,"method":"shutdown"}"#), -32600),
        ("an id of 1.5", frame(r#"{"jsonrpc":"2.0","id":1.5,"method":"shutdown"}"#), -32600),
        (
            "an id of 2^70",
            frame(r#"{"jsonrpc":"2.0","id":1180591620717411303424,"method":"shutdown"}"#),
            -32600,
        ),
        ("a batch", frame(&format!("[{shutdown}]")), -32600),
        ("a method that is not a string", frame(r#"{"jsonrpc":"2.0","id":51,"method":7}"#), -32600),
        ("jsonrpc 1.0", frame(r#"{"jsonrpc":"1.0","id":52,"method":"shutdown"}"#), -32600),
        ("a body that is not JSON", frame(r#"{"jsonrpc":"2.0","id":53,"#), -32700),
        ("a length over 64 MiB", b"Content-Length: 67108865\r\n\r\n".to_vec(), -32700),
        ("two equal lengths", b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}".to_vec(), -32700),
        ("two lengths", b"Content-Length: 2\r\ncontent-length: 9\r\n\r\n{}".to_vec(), -32700),
        ("a negative length", b"Content-Length: -2\r\n\r\n{}".to_vec(), -32700),
        ("a length that is no number", b"Content-Length: 2a\r\n\r\n{}".to_vec(), -32700),
        ("a header without a blank line", b"Content-Length: 2\r\n{}".to_vec(), -32700),
    ];
    for (what, bytes, code) in &cases {
        lsp.send_raw(bytes);
        // Had the batch or a bad id been taken as `shutdown`, this would be refused.
        let answer = lsp.request("textDocument/hover", hover_outside(workspace.path()));
        assert_eq!(answer["result"], Value::Null, "after {what}: {answer}");
        let message = lsp.unreadable(*code, what);
        assert!(!message.is_empty(), "{what}");
        let log = format!("botlens: ignored a malformed message from the client: {message}");
        lsp.wait_for(ANSWER, &format!("the log of {what}"), |m| {
            m["method"] == "window/logMessage" && m["params"]["message"] == log
        });
    }
    let extra: Vec<&Value> = lsp.seen.iter().filter(|m| m.get("error").is_some()).collect();
    assert!(extra.is_empty(), "one error answer per bad message, not more: {extra:#?}");
    lsp.stop();
}

#[test]
fn a_header_line_without_end_is_skipped_in_bounded_memory() {
    let workspace = tempfile::tempdir().expect("temp dir");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    let answer = lsp.request("textDocument/hover", hover_outside(workspace.path()));
    assert_eq!(answer["result"], Value::Null, "{answer}");
    let before = peak_memory_kib(lsp.child.id());
    lsp.send_raw(&vec![b'x'; 32 << 20]);
    let answer = lsp.request("textDocument/hover", hover_outside(workspace.path()));
    assert_eq!(answer["result"], Value::Null, "{answer}");
    let message = lsp.unreadable(-32700, "32 MiB without a line end");
    assert_eq!(message, "a message header longer than 8192 bytes");
    let grown = peak_memory_kib(lsp.child.id()) - before;
    assert!(grown < 8 << 10, "32 MiB of header grew the server by {grown} KiB");
    lsp.stop();
}

#[test]
fn exit_ends_the_server_with_status_1_unless_it_was_shut_down() {
    let workspace = tempfile::tempdir().expect("temp dir");
    let mut lsp = Lsp::start();
    lsp.notify("exit", Value::Null);
    assert_eq!(lsp.exited(ANSWER).code(), Some(1), "exit before initialize");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    lsp.notify("exit", Value::Null);
    assert_eq!(lsp.exited(ANSWER).code(), Some(1), "exit without shutdown");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    lsp.stop();
}

#[test]
fn the_server_exits_though_a_request_of_its_own_is_never_answered() {
    let workspace = tempfile::tempdir().expect("temp dir");
    // The client may watch files: after `initialized` the server asks to register watchers.
    let watching = json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let ends: [(&str, bool, bool, i32); 4] = [
        ("the end of input", false, false, 1),
        ("the end of input after shutdown", true, false, 0),
        ("exit", false, true, 1),
        ("exit after shutdown", true, true, 0),
    ];
    for (end, shut_down, exit, status) in ends {
        let mut lsp = Lsp::spawn(false);
        lsp.initialize_with(workspace.path(), watching.clone(), Value::Null);
        lsp.wait_for(ANSWER, "the registration request", |m| {
            m["method"] == "client/registerCapability" && m.get("id").is_some()
        });
        if shut_down {
            let answer = lsp.request("shutdown", Value::Null);
            assert_eq!(answer["result"], Value::Null, "{end}: {answer}");
        }
        if exit {
            lsp.notify("exit", Value::Null);
        } else {
            lsp.close_input();
        }
        assert_eq!(lsp.exited(ANSWER).code(), Some(status), "{end}");
    }
}

#[test]
fn requests_the_client_never_answers_do_not_stop_the_server_serving() {
    let workspace = tempfile::tempdir().expect("temp dir");
    let watching = json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let mut lsp = Lsp::spawn(false);
    lsp.initialize_with(workspace.path(), watching, Value::Null);
    lsp.wait_for(ANSWER, "the registration request", |m| {
        m["method"] == "client/registerCapability"
    });
    // Each `initialized` handled would ask again, and wait; the framework serves four at once.
    for _ in 0..8 {
        lsp.notify("initialized", json!({}));
    }
    let answer = lsp.request("textDocument/hover", hover_outside(workspace.path()));
    assert_eq!(answer["result"], Value::Null, "{answer}");
    // The unanswered registration is given up on, and said so.
    let given_up = lsp.wait_for(ANSWER, "the registration given up", |m| {
        m["params"]["message"].as_str().is_some_and(|t| t.contains("could not watch files"))
    });
    let text = given_up["params"]["message"].as_str().unwrap_or_default();
    assert!(text.contains("no answer from the client within 5s"), "{text}");
    let asked = lsp.seen.iter().filter(|m| m["method"] == "client/registerCapability").count();
    assert_eq!(asked, 0, "asked to register again: {:#?}", lsp.seen);
    lsp.stop();
}

#[test]
fn settings_asking_for_unbounded_work_are_refused_with_a_message() {
    // Waits for the harness to bound seed ranges: `SeedRange`'s parser, which settings use,
    // must refuse a range this long.
    let workspace = tempfile::tempdir().expect("temp dir");
    let mut lsp = Lsp::start();
    let huge = json!({"botlens": {"seeds": "0..=18446744073709551615"}});
    lsp.initialize_with(workspace.path(), json!({}), huge.clone());
    let shown = |lsp: &mut Lsp, ending: &str| {
        let shown = lsp.wait_for(ANSWER, "a message refusing the seeds", |m| {
            m["method"] == "window/showMessage"
        });
        let text = shown["params"]["message"].as_str().unwrap_or_default().to_owned();
        assert!(
            text.contains("bad seed range `0..=18446744073709551615`") && text.ends_with(ending),
            "{text}"
        );
    };
    shown(&mut lsp, "using the defaults");
    lsp.notify("workspace/didChangeConfiguration", json!({"settings": huge}));
    shown(&mut lsp, "keeping the previous settings");
    let answer = lsp.request("textDocument/hover", hover_outside(workspace.path()));
    assert_eq!(answer["result"], Value::Null, "{answer}");
    lsp.stop();
}

/// The Lua that attaches `botlens lsp` in a headless Neovim, saves, waits for diagnostics and
/// writes `line:message` of each to `out` (works from Neovim 0.7 on).
const NVIM_SCRIPT: &str = r#"
local bin, file, out = _G.botlens_bin, _G.botlens_file, _G.botlens_out
vim.cmd('edit ' .. file)
local client = vim.lsp.start_client({
  name = 'botlens',
  cmd = { bin, 'lsp' },
  root_dir = _G.botlens_root,
  workspace_folders = { { uri = vim.uri_from_fname(_G.botlens_root), name = 'bots' } },
})
vim.lsp.buf_attach_client(0, client)
vim.wait(20000, function() return vim.lsp.get_client_by_id(client).initialized end, 50)
vim.cmd('write')
local found = vim.wait(480000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, d.lnum .. ':' .. d.message)
end
if not found then table.insert(lines, 'timeout') end
vim.fn.writefile(lines, out)
vim.cmd('qall!')
"#;

#[test]
fn headless_neovim_shows_the_failure_at_its_line() {
    if !require(&[Tool::Neovim]) {
        return;
    }
    let (workspace, bot) = panicky_workspace("lsp-e2e-neovim", false);
    let lib = bot.join("src/lib.rs");
    let script = workspace.path().join("attach.lua");
    let out = workspace.path().join("diagnostics.txt");
    std::fs::write(&script, NVIM_SCRIPT).unwrap();
    let globals = format!(
        "lua _G.botlens_bin = {:?}; _G.botlens_file = {:?}; _G.botlens_out = {:?}; _G.botlens_root = {:?}",
        env!("CARGO_BIN_EXE_botlens"),
        lib.display().to_string(),
        out.display().to_string(),
        workspace.path().canonicalize().unwrap().display().to_string(),
    );
    headless_nvim(&globals, &script);
    let written = std::fs::read_to_string(&out).expect("the script wrote its findings");
    let panic_line = line_of(&lib, ".expect(\"X opens on a corner or an edge\")");
    assert!(
        written.lines().any(|l| l.starts_with(&format!("{panic_line}:panic: X opens on a corner"))),
        "{written}"
    );
}

/// The Lua that loads the botlens Neovim module as a user's init would, opens `botlens_file`,
/// saves it and waits for a diagnostic and for the code lens to show scores — with no cursor
/// movement, which is what used to refresh it — then writes what the editor shows: the client's
/// root, each diagnostic's line and first message line, each lens, the hover of each diagnostic's
/// line. Works from Neovim 0.7 on.
const NVIM_MODULE_SCRIPT: &str = r#"
vim.opt.runtimepath:append(_G.botlens_module)
vim.cmd('filetype on')
local settings = vim.fn.json_decode(_G.botlens_settings)
require('botlens').setup({ cmd = { _G.botlens_bin, 'lsp' }, settings = settings })
vim.cmd('edit ' .. vim.fn.fnameescape(_G.botlens_file))
local function clients()
  if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = 0 }) end
  local list = {}
  for _, client in pairs(vim.lsp.buf_get_clients(0)) do table.insert(list, client) end
  return list
end
local function lens_titles()
  local titles = {}
  for _, lens in ipairs(vim.lsp.codelens.get(0) or {}) do
    if lens.command then table.insert(titles, lens.command.title) end
  end
  return titles
end
local function scored()
  for _, title in ipairs(lens_titles()) do
    if title:find('^botlens: vs ') then return true end
  end
  return false
end
local lines = {}
local attached = vim.wait(20000, function()
  return #clients() > 0 and clients()[1].initialized
end, 50)
if not attached then
  table.insert(lines, 'not attached')
else
  table.insert(lines, 'root ' .. clients()[1].config.root_dir)
  vim.cmd('write')
  local done = vim.wait(480000, function()
    return #vim.diagnostic.get(0) > 0 and scored()
  end, 100)
  if not done then table.insert(lines, 'timeout') end
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(lines, 'diagnostic ' .. d.lnum .. ' ' .. vim.split(d.message, '\n')[1])
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(0) },
      position = { line = d.lnum, character = d.col },
    }
    local answers = vim.lsp.buf_request_sync(0, 'textDocument/hover', params, 20000) or {}
    for _, answer in pairs(answers) do
      local contents = answer.result and answer.result.contents
      if contents and contents.value then
        table.insert(lines, 'hover ' .. d.lnum .. ' ' .. vim.split(contents.value, '\n')[1])
      end
    end
    local range = { start = { line = d.lnum, character = 0 }, ['end'] = { line = d.lnum, character = 0 } }
    local asked = {
      textDocument = { uri = vim.uri_from_bufnr(0) },
      range = range,
      -- The diagnostic as the server sent it, rebuilt as Neovim's own code action does.
      context = { diagnostics = { vim.tbl_extend('keep', {
        range = { start = { line = d.lnum, character = d.col },
                  ['end'] = { line = d.end_lnum, character = d.end_col } },
        message = d.message, source = d.source, severity = d.severity,
      }, d.user_data.lsp) } },
    }
    local offered = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', asked, 20000) or {}
    for _, answer in pairs(offered) do
      if answer.err then table.insert(lines, 'action error ' .. vim.inspect(answer.err)) end
      for _, action in ipairs(answer.result or {}) do
        table.insert(lines, 'action ' .. action.title)
        _G.botlens_replay_action = _G.botlens_replay_action
          or (action.command.command == 'botlens.replay' and action.command)
      end
    end
  end
  -- The replay action, run as Neovim runs a code action's command: in a terminal split.
  local action = _G.botlens_replay_action
  if action and vim.lsp.commands[action.command] then
    local source = vim.api.nvim_get_current_buf()
    vim.lsp.commands[action.command](action, { client_id = clients()[1].id, bufnr = source })
    vim.wait(20000, function() return vim.bo.buftype == 'terminal' end, 50)
    table.insert(lines, 'terminal ' .. vim.api.nvim_buf_get_name(0))
    vim.cmd('stopinsert')
    vim.api.nvim_set_current_buf(source)
  end
  for _, title in ipairs(lens_titles()) do table.insert(lines, 'lens ' .. title) end
end
table.insert(lines, 'BotlensDebug ' .. vim.fn.exists(':BotlensDebug'))
vim.fn.writefile(lines, _G.botlens_out)
vim.cmd('qall!')
"#;

/// What the Neovim module showed for a bot's source after a save ([`NVIM_MODULE_SCRIPT`]).
#[derive(Debug)]
struct Shown {
    /// The client's root directory.
    root: String,
    /// Each diagnostic: its 0-based line and the first line of its message.
    diagnostics: Vec<(u64, String)>,
    /// The first line of the hover of each diagnostic's line, by line.
    hovers: Vec<(u64, String)>,
    /// The code lenses' titles.
    lenses: Vec<String>,
    /// Everything the script wrote.
    written: String,
}

impl Shown {
    /// The one diagnostic that starts with `message`, its hover and the scores' lens, at the
    /// 0-based `line`: what a user sees of a failure.
    fn failure_at(&self, line: u64, message: &str) {
        let at: Vec<u64> = self
            .diagnostics
            .iter()
            .filter(|(_, text)| text.starts_with(message))
            .map(|(at, _)| *at)
            .collect();
        assert_eq!(at, [line], "one diagnostic `{message}…` at line {line}:\n{}", self.written);
        let hover = self.hovers.iter().find(|(at, _)| *at == line);
        let hover = hover.unwrap_or_else(|| panic!("a hover at line {line}:\n{}", self.written));
        // `**botlens: panic** ×6 — <the diagnostic's message>`.
        let diagnostic = self.diagnostics.iter().find(|(at, _)| *at == line).unwrap();
        let (kind, said) = diagnostic.1.split_once(": ").unwrap();
        let (head, tail) = hover.1.split_once(" — ").unwrap_or_default();
        assert_eq!(tail, said, "{}", self.written);
        let count = head.strip_prefix(&format!("**botlens: {kind}** ×"));
        assert!(count.is_some_and(|n| n.parse::<u32>().is_ok()), "{}", self.written);
        assert!(self.lenses.iter().any(|l| l.starts_with("botlens: vs ")), "{}", self.written);
        assert!(
            self.lenses.iter().any(|l| l.starts_with("▶ replay worst game (seed ")),
            "{}",
            self.written
        );
        assert!(!self.written.contains("timeout"), "{}", self.written);
        // The diagnostic's code action replays its game, in a terminal split.
        let replay =
            self.written.lines().find(|l| l.starts_with("action botlens: replay this game (seed "));
        assert!(replay.is_some(), "{}", self.written);
        let terminal = self.written.lines().find_map(|l| l.strip_prefix("terminal "));
        assert!(
            terminal.is_some_and(|name| name.starts_with("term://") && name.contains(" replay ")),
            "{}",
            self.written
        );
    }

    /// Whether the `⏸ debug it` lens is there, and the "debug this game" code action with it.
    fn offers_debugging(&self) -> bool {
        let action =
            self.written.lines().any(|l| l.starts_with("action botlens: debug this game (seed "));
        let lens = self.lenses.iter().any(|l| l == "⏸ debug it");
        assert_eq!(lens, action, "the lens and the code action agree: {}", self.written);
        lens
    }
}

/// Opens `file` in a headless Neovim with the botlens module set up (`settings` its settings,
/// as JSON), saves it and returns what the editor shows; `scratch` holds the script and its
/// output. Rust bots build into the end-to-end tests' shared target directory.
fn neovim_module_on(file: &Path, settings: Value, scratch: &Path) -> Shown {
    let script = scratch.join("module.lua");
    let out = scratch.join("shown.txt");
    std::fs::write(&script, NVIM_MODULE_SCRIPT).unwrap();
    let globals = format!(
        "lua _G.botlens_bin = {:?}; _G.botlens_file = {:?}; _G.botlens_out = {:?}; _G.botlens_module = {:?}; _G.botlens_settings = {:?}",
        env!("CARGO_BIN_EXE_botlens"),
        file.display().to_string(),
        out.display().to_string(),
        repo_root().join("editors/neovim").display().to_string(),
        settings.to_string(),
    );
    headless_nvim(&globals, &script);
    let written = std::fs::read_to_string(&out).expect("the script wrote what it saw");
    let numbered = |prefix: &str| -> Vec<(u64, String)> {
        written
            .lines()
            .filter_map(|line| line.strip_prefix(prefix))
            .filter_map(|rest| {
                let (line, text) = rest.split_once(' ')?;
                Some((line.parse().ok()?, text.to_owned()))
            })
            .collect()
    };
    Shown {
        root: written.lines().find_map(|l| l.strip_prefix("root ")).unwrap_or_default().into(),
        diagnostics: numbered("diagnostic "),
        hovers: numbered("hover "),
        lenses: written.lines().filter_map(|l| l.strip_prefix("lens ")).map(Into::into).collect(),
        written: written.clone(),
    }
}

#[test]
fn the_neovim_module_shows_a_rust_bots_failure_and_its_scores_as_soon_as_a_run_ends() {
    if !require(&[Tool::Neovim]) {
        return;
    }
    let (workspace, bot) = panicky_workspace("lsp-e2e-neovim-lens", false);
    let lib = bot.join("src/lib.rs");
    let shown = neovim_module_on(&lib, json!({}), workspace.path());
    // The root is the project's, found from its `src/` (Neovim 0.7 has no `vim.fs`).
    assert_eq!(shown.root, bot.display().to_string(), "{}", shown.written);
    let line = line_of(&lib, ".expect(\"X opens on a corner or an edge\")");
    shown.failure_at(line, "panic: X opens on a corner");
    assert!(shown.lenses.iter().any(|l| l.starts_with("botlens: vs random ")), "{}", shown.written);
    assert!(shown.offers_debugging(), "the debug lens: {}", shown.written);
    assert!(shown.written.lines().any(|l| l == "BotlensDebug 2"), "{}", shown.written);
}

/// The Lua that sets the botlens Neovim module up, opens each file of `botlens_files` (a JSON
/// list), waits for `botlens_clients` clients to be initialized (Neovim 0.7 lists a client, and
/// a buffer's, only then) and writes, for each file, the root of the botlens client its buffer
/// is attached to, or `none`.
const NVIM_ATTACH_SCRIPT: &str = r#"
vim.opt.runtimepath:append(_G.botlens_module)
require('botlens').setup({ cmd = { _G.botlens_bin, 'lsp' } })
local buffers = {}
for _, file in ipairs(vim.fn.json_decode(_G.botlens_files)) do
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  table.insert(buffers, vim.api.nvim_get_current_buf())
end
local all = vim.lsp.get_clients or vim.lsp.get_active_clients
vim.wait(20000, function()
  for _, client in pairs(all()) do
    if not client.initialized then return false end
  end
  return #all() >= _G.botlens_clients
end, 50)
local lines = {}
for _, bufnr in ipairs(buffers) do
  local root = 'none'
  local attached = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr })
    or vim.lsp.buf_get_clients(bufnr)
  for _, client in pairs(attached) do
    if client.name == 'botlens' then root = client.config.root_dir end
  end
  table.insert(lines, root)
end
vim.fn.writefile(lines, _G.botlens_out)
vim.cmd('qall!')
"#;

#[test]
fn the_neovim_module_attaches_every_bots_files_at_the_bots_root_on_the_oldest_neovim() {
    if !require(&[Tool::Neovim]) {
        return;
    }
    let scratch = tempfile::tempdir().expect("temp dir");
    let dir = scratch.path().canonicalize().expect("canonical temp dir");
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    };
    // Roots by their markers alone: nothing here loads as a bot, so nothing is built.
    write("project/Cargo.toml", "[package]\nname = \"x\"\n");
    write("project/src/lib.rs", "");
    write("project/src/strategy/search.rs", "");
    write("folder/botlens.toml", "");
    write("folder/bot.c", "");
    write("folder/board.h", "");
    write("we, ird [dir]/mine.ts", "");
    write("lone/bot.zig", "");
    write("lone/bot.js", "");
    write("lone/bot.py", "");
    write("lone/notes.txt", "");
    write("lone/data.json", "");
    let root = |path: &str| dir.join(path).display().to_string();
    let expected = [
        ("project/src/lib.rs", root("project")),
        ("project/src/strategy/search.rs", root("project")),
        ("project/Cargo.toml", root("project")),
        ("folder/bot.c", root("folder")),
        ("folder/board.h", root("folder")),
        ("folder/botlens.toml", root("folder")),
        ("we, ird [dir]/mine.ts", root("we, ird [dir]")),
        ("lone/bot.zig", root("lone")),
        ("lone/bot.js", root("lone")),
        ("lone/bot.py", root("lone")),
        ("lone/notes.txt", "none".to_owned()),
        ("lone/data.json", "none".to_owned()),
    ];
    let files: Vec<String> = expected.iter().map(|(file, _)| root(file)).collect();
    // A client per bot root.
    let roots: std::collections::BTreeSet<&str> =
        expected.iter().map(|(_, root)| root.as_str()).filter(|root| *root != "none").collect();
    let script = dir.join("attach.lua");
    let out = dir.join("roots.txt");
    std::fs::write(&script, NVIM_ATTACH_SCRIPT).unwrap();
    let globals = format!(
        "lua _G.botlens_bin = {:?}; _G.botlens_out = {:?}; _G.botlens_module = {:?}; _G.botlens_files = {:?}; _G.botlens_clients = {}",
        env!("CARGO_BIN_EXE_botlens"),
        out.display().to_string(),
        repo_root().join("editors/neovim").display().to_string(),
        json!(files).to_string(),
        roots.len(),
    );
    headless_nvim(&globals, &script);
    let written = std::fs::read_to_string(&out).expect("the script wrote the roots");
    let found: Vec<(&str, &str)> =
        expected.iter().map(|(file, _)| *file).zip(written.lines()).collect();
    let wanted: Vec<(&str, &str)> =
        expected.iter().map(|(file, root)| (*file, root.as_str())).collect();
    assert_eq!(found, wanted);
}

/// A copy of the sample `sample`'s `files` in `<scratch>/bots/<sample>`, canonical.
fn sample_copy(scratch: &Path, sample: &str, files: &[&str]) -> PathBuf {
    let bot = scratch.join("bots").join(sample);
    std::fs::create_dir_all(&bot).expect("bot dir");
    for file in files {
        std::fs::copy(repo_root().join("samples").join(sample).join(file), bot.join(file))
            .expect("copy the sample");
    }
    bot.canonicalize().expect("canonical bot dir")
}

#[test]
fn the_neovim_module_shows_a_lone_javascript_files_failure_its_scores_and_its_hover() {
    // The JavaScript runner is built with clang.
    if !require(&[Tool::Neovim, Tool::Clang]) {
        return;
    }
    let scratch = tempfile::tempdir().expect("temp dir");
    // The bot's file alone, under a name of its own, without the sample's botlens.toml: its
    // calls (`turn.attack`) say it plays Battleships.
    let bot = sample_copy(scratch.path(), "js-battleships-edgy", &["bot.js"]);
    let source = bot.join("edgy.js");
    std::fs::rename(bot.join("bot.js"), &source).unwrap();
    // Seeds 4, 6 and 8 of ten lose to `random` by the planted bug (the sample's README).
    let settings = json!({"opponents": ["random"], "seeds": "0..10"});
    let shown = neovim_module_on(&source, settings, scratch.path());
    assert_eq!(shown.root, bot.display().to_string(), "{}", shown.written);
    let line =
        crate::support::line_after_marker(&source, "botlens reports the panic on the next line");
    shown.failure_at(line - 1, "panic: uncaught TypeError: cannot read property");
    assert!(!shown.offers_debugging(), "no debugger stops in JavaScript: {}", shown.written);
}

#[test]
fn the_neovim_module_shows_a_c_bots_failure_its_scores_and_its_hover() {
    if !require(&[Tool::Neovim, Tool::Clang]) {
        return;
    }
    let scratch = tempfile::tempdir().expect("temp dir");
    let bot = sample_copy(scratch.path(), "c-tictactoe-edgeless", &["bot.c", "botlens.toml"]);
    let source = bot.join("bot.c");
    let shown = neovim_module_on(&source, json!({}), scratch.path());
    assert_eq!(shown.root, bot.display().to_string(), "{}", shown.written);
    let line =
        crate::support::line_after_marker(&source, "botlens reports the panic on the next line");
    shown.failure_at(line - 1, "panic: assertion failed: square >= 0");
    assert!(shown.offers_debugging(), "gdb stops in C: {}", shown.written);
}

#[test]
fn the_neovim_module_shows_a_zig_bots_failure_its_scores_and_its_hover() {
    if !require(&[Tool::Neovim, Tool::Zig]) {
        return;
    }
    let scratch = tempfile::tempdir().expect("temp dir");
    let bot = scratch.path().join("bots/zig-panics");
    let name = bot.display().to_string();
    let made = crate::support::botlens(&["new", "tictactoe", &name, "--lang", "zig"]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    let bot = bot.canonicalize().expect("canonical bot dir");
    let source = bot.join("bot.zig");
    let starter = std::fs::read_to_string(&source).expect("the starter");
    let counted = "    turns += 1;\n";
    assert!(starter.contains(counted), "the starter counts its turns");
    let planted = "    // botlens reports the panic on the next line\n    if (turns == 2) @panic(\"second turn\");\n";
    std::fs::write(&source, starter.replacen(counted, &format!("{counted}{planted}"), 1)).unwrap();
    let settings = json!({"opponents": ["random"], "seeds": "0..4"});
    let shown = neovim_module_on(&source, settings, scratch.path());
    assert_eq!(shown.root, bot.display().to_string(), "{}", shown.written);
    let line =
        crate::support::line_after_marker(&source, "botlens reports the panic on the next line");
    shown.failure_at(line - 1, "panic: second turn");
    assert!(shown.offers_debugging(), "gdb stops in Zig: {}", shown.written);
}

#[test]
fn a_c_bots_failure_is_published_at_its_line_in_bot_c() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let workspace = tempfile::tempdir().expect("temp dir");
    let sample = repo_root().join("samples/c-tictactoe-edgeless");
    let bot = workspace.path().join("bots/edgeless");
    std::fs::create_dir_all(&bot).expect("bot dir");
    for file in ["bot.c", "botlens.toml"] {
        std::fs::copy(sample.join(file), bot.join(file)).expect("copy the sample");
    }
    let bot = bot.canonicalize().expect("canonical bot dir");
    let source = bot.join("bot.c");
    let line =
        crate::support::line_after_marker(&source, "botlens reports the panic on the next line");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    lsp.save(&source);
    let diagnostics = lsp.diagnostics(&source, FIRST_RUN, |d| !d.is_empty());
    let [diagnostic] = &diagnostics[..] else { panic!("one group expected: {diagnostics:#?}") };
    assert_eq!(diagnostic["range"]["start"]["line"], json!(line - 1), "{diagnostic:#}");
    assert_eq!(diagnostic["code"], "panic");
    let message = diagnostic["message"].as_str().unwrap();
    assert!(message.starts_with("panic: assertion failed: square >= 0"), "{message}");
    let replay = diagnostic["data"]["replay"].as_str().unwrap();
    assert!(
        replay.starts_with(&format!("botlens replay {} --vs perfect", bot.display())),
        "{replay}"
    );
    lsp.stop();
}

#[test]
fn wasted_moves_are_published_as_warnings_at_the_line_that_made_them() {
    let workspace = tempfile::tempdir().expect("temp dir");
    let (bot, lib) = crate::support::reattacking_bot(workspace.path(), "reattacker-lsp");
    let line = crate::support::line_after_marker(&lib, "the re-attack");
    let manifest = bot.join("Cargo.toml");
    let toml = std::fs::read_to_string(&manifest).expect("manifest");
    let against_random = toml.replacen(
        "game = \"battleships\"\n",
        "game = \"battleships\"\nopponents = [\"random\"]\n",
        1,
    );
    assert_ne!(against_random, toml, "the manifest names its game");
    std::fs::write(&manifest, against_random).expect("manifest");
    let lib = lib.canonicalize().expect("canonical source");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    lsp.save(&lib);
    let diagnostics = lsp.diagnostics(&lib, FIRST_RUN, |d| !d.is_empty());
    let [warning] = &diagnostics[..] else { panic!("one warning expected: {diagnostics:#?}") };
    assert_eq!(warning["severity"], 2, "a warning: {warning:#}");
    assert_eq!(warning["code"], "wasted_move");
    assert_eq!(warning["range"]["start"]["line"], json!(line - 1), "{warning:#}");
    let message = warning["message"].as_str().unwrap();
    assert!(message.starts_with("wasted move attack("), "{message}");
    assert!(message.contains("(re-attacks)"), "{message}");
    let related = warning["relatedInformation"].as_array().expect("the callers");
    assert!(
        related.iter().any(|r| r["message"].as_str().unwrap().contains("play")),
        "{related:#?}"
    );
    assert!(
        warning["data"]["replay"].as_str().unwrap().starts_with("botlens replay"),
        "{warning:#}"
    );
    lsp.stop();
}

#[test]
fn a_javascript_bots_wasted_moves_are_warnings_at_its_line_with_its_callers() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let workspace = tempfile::tempdir().expect("temp dir");
    let dir = workspace.path().join("sweeper");
    std::fs::create_dir(&dir).expect("the bot's folder");
    crate::support::sweeping_js_bot(&dir, "0, 0");
    let marked = |marker| crate::support::line_after_marker(&dir.join("bot.js"), marker);
    let shot = marked("botlens reports the shot on the next line");
    let call = marked("botlens reports the call of again on the next line");
    let file = dir.join("bot.js").canonicalize().expect("canonical source");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    lsp.save(&file);
    let diagnostics = lsp.diagnostics(&file, FIRST_RUN, |d| !d.is_empty());
    let [warning] = &diagnostics[..] else { panic!("one warning expected: {diagnostics:#?}") };
    assert_eq!((&warning["severity"], &warning["code"]), (&json!(2), &json!("wasted_move")));
    assert_eq!(warning["range"]["start"]["line"], json!(shot - 1), "{warning:#}");
    assert!(
        warning["message"].as_str().unwrap().starts_with("wasted move attack(0, 0)"),
        "{warning:#}"
    );
    let related = warning["relatedInformation"].as_array().expect("the callers");
    let called_from = related.iter().find(|r| r["message"].as_str().unwrap().contains("play"));
    let called_from = called_from.unwrap_or_else(|| panic!("play, the caller: {related:#?}"));
    assert_eq!(called_from["location"]["range"]["start"]["line"], json!(call - 1), "{related:#?}");
    lsp.stop();
}

/// The pids of the running processes whose command line holds `marker` (zombies are not).
fn processes_with(marker: &str) -> Vec<u32> {
    let entries = std::fs::read_dir("/proc").expect("/proc");
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let zombie = stat.rsplit(')').next()?.trim_start().starts_with('Z');
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            (!zombie && cmdline.contains(marker)).then_some(pid)
        })
        .collect()
}

/// Waits up to `limit` for `done` to hold of the processes with `marker`; whether it did.
fn within(limit: Duration, marker: &str, done: impl Fn(&[u32]) -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while !done(&processes_with(marker)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    done(&processes_with(marker))
}

#[test]
fn a_superseded_build_is_stopped_before_the_next_starts_and_shutdown_stops_the_last() {
    let (workspace, bot) = panicky_workspace("lsp-e2e-superseded", false);
    // A build that never ends: its script waits for a `sleep` of hours.
    let marker = format!("{}.75", 60_000 + std::process::id() % 10_000);
    let script = format!(
        "fn main() {{ let _ = std::process::Command::new(\"sleep\").arg(\"{marker}\").status(); }}\n"
    );
    std::fs::write(bot.join("build.rs"), script).expect("build script");
    let lib = bot.join("src/lib.rs");
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    lsp.save(&lib);
    assert!(within(FIRST_RUN, &marker, |p| p.len() == 1), "the first build's script started");
    let first = processes_with(&marker);
    let sampling = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let (sampling, marker) = (sampling.clone(), marker.clone());
        std::thread::spawn(move || {
            let mut most = 0;
            while sampling.load(std::sync::atomic::Ordering::Relaxed) {
                most = most.max(processes_with(&marker).len());
                std::thread::sleep(Duration::from_millis(5));
            }
            most
        })
    };
    for edit in 1..=3 {
        let mut source = std::fs::read_to_string(&lib).expect("source");
        source.push_str(&format!("// edit {edit}\n"));
        std::fs::write(&lib, source).expect("edited");
        lsp.save(&lib);
        std::thread::sleep(Duration::from_millis(300));
    }
    assert!(
        within(FIRST_RUN, &marker, |p| p.len() == 1 && p != first),
        "the newest build runs: {:?} (the first was {first:?})",
        processes_with(&marker)
    );
    sampling.store(false, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(sampler.join().unwrap(), 1, "one build at a time");
    lsp.stop();
    assert!(within(Duration::from_secs(5), &marker, <[u32]>::is_empty), "shutdown stopped it");
}

/// Runs headless Neovim, without any user configuration, with the Vim command `globals` (the
/// script's inputs) and then the Lua `script`; fails the test unless it exits successfully.
/// Bots it builds share the suite's target directory.
fn headless_nvim(globals: &str, script: &Path) {
    let status = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", globals, "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("CARGO_TARGET_DIR", crate::support::shared_target())
        .stdin(Stdio::null())
        .status()
        .expect("nvim runs");
    assert!(status.success(), "nvim exited with {status}");
}

#[test]
fn the_hover_at_a_failing_move_shows_what_the_bot_drew_that_turn() {
    let workspace = tempfile::tempdir().expect("temp dir");
    let bot = workspace.path().join("heatmap");
    std::fs::create_dir_all(bot.join("src")).expect("bot dir");
    let sample = repo_root().join("samples/battleships-heatmap");
    let sdk = repo_root().join("crates/sdk");
    let manifest = std::fs::read_to_string(sample.join("Cargo.toml")).expect("the manifest");
    let manifest = manifest
        .replace("path = \"../../crates/sdk\"", &format!("path = {:?}", sdk.display().to_string()))
        .replace("opponents = [\"random\", \"hunter\", \"parity\"]", "opponents = [\"random\"]")
        .replace("seeds = \"0..30\"", "seeds = \"0..2\"")
        // Its own name: the sample's module, built into the same target directory by the
        // samples' tests at the same time, must not be taken for this copy's.
        .replace("name = \"battleships-heatmap\"", "name = \"heatmap-hover\"");
    std::fs::write(bot.join("Cargo.toml"), manifest).expect("the manifest");
    std::fs::copy(sample.join("src/lib.rs"), bot.join("src/lib.rs")).expect("the source");
    let lib = bot.join("src/lib.rs").canonicalize().expect("canonical source");
    let line =
        crate::support::line_after_marker(&lib, "botlens reports the panic on the next line");
    let heat_line = line_of(&lib, "draw::heat(") + 1;

    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    lsp.save(&lib);
    let diagnostics = lsp.diagnostics(&lib, FIRST_RUN, |d| !d.is_empty());
    let [diagnostic] = &diagnostics[..] else { panic!("one group expected: {diagnostics:#?}") };
    assert_eq!(diagnostic["range"]["start"]["line"], json!(line - 1), "{diagnostic:#}");
    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&lib)}, "position": {"line": line - 1, "character": 30}}),
    );
    let text = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    let drawn = text.split("What the bots drew:\n\n```text\n").nth(1).expect("the marks");
    let drawn = &drawn[..drawn.find("\n```").expect("the end of the block")];
    assert!(drawn.contains("finishing a ship: at most 0 placements cover a square"), "{drawn}");
    assert!(drawn.contains(&format!("lib.rs:{heat_line}")), "the heat map's line: {drawn}");
    // The board comes first, the marks after it, the log after them.
    let board = text.find("Board at the failing move:").expect("the board");
    assert!(board < text.find("What the bots drew:").unwrap(), "{text}");
    lsp.stop();
}

#[test]
fn a_python_bots_failure_is_a_diagnostic_at_its_line_that_clears_when_fixed() {
    let workspace = tempfile::tempdir().expect("temp dir");
    let dir = workspace.path().join("cornered");
    std::fs::create_dir(&dir).expect("the bot's folder");
    let sample = repo_root().join("samples/py-tictactoe-cornered");
    for name in ["bot.py", "botlens.toml"] {
        std::fs::copy(sample.join(name), dir.join(name)).expect("the sample's file");
    }
    let file = dir.join("bot.py").canonicalize().expect("canonical source");
    let marked = crate::support::line_after_marker(
        &file,
        "botlens reports the illegal_move on the next line",
    );
    let mut lsp = Lsp::start();
    lsp.initialize(workspace.path());
    lsp.save(&file);
    let diagnostics = lsp.diagnostics(&file, FIRST_RUN, |d| !d.is_empty());
    let [diagnostic] = &diagnostics[..] else { panic!("one group expected: {diagnostics:#?}") };
    assert_eq!(diagnostic["code"], "illegal_move", "{diagnostic:#}");
    assert_eq!(diagnostic["range"]["start"]["line"], json!(marked - 1), "{diagnostic:#}");
    let message = diagnostic["message"].as_str().unwrap();
    assert!(message.starts_with("illegal move mark("), "{message}");

    // A syntax error is a build error at its line, before any game.
    let source = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        source.replace("    def choose(self, grid, you):", "    def choose(self, grid, you)"),
    )
    .unwrap();
    lsp.save(&file);
    let broken = line_of(&file, "    def choose(self, grid, you)");
    let diagnostics = lsp.diagnostics(&file, ANSWER, |d| {
        d.iter().any(|d| d["range"]["start"]["line"] == json!(broken))
    });
    assert!(
        diagnostics
            .iter()
            .any(|d| d["message"].as_str().unwrap_or_default().contains("SyntaxError")),
        "{diagnostics:#?}"
    );

    // The corner rule fixed: the opposite corner only when it is free.
    let fixed = source.replace(
        "if square is None and grid[y][x] == other:",
        "if square is None and grid[y][x] == other and grid[2 - y][2 - x] == '':",
    );
    assert_ne!(fixed, source, "the sample's corner rule");
    std::fs::write(&file, fixed).unwrap();
    lsp.save(&file);
    lsp.diagnostics(&file, ANSWER, <[Value]>::is_empty);

    // Profiled, the hottest lines are the script's, with a lens above each.
    profile_and_find_the_hottest_lens(&mut lsp, &dir, &file);
    lsp.stop();
}

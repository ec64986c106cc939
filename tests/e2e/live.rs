//! `botlens watch --serve`: the live view. A scripted client reads its event stream and its
//! replays, and headless Chromium, driven over the DevTools protocol, shows the page changing
//! after an edit and a save without reloading it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Tool, require};
use crate::watch::{BUGGY, FIRST_RUN, GOOD, LATER_RUN, Watcher, bot_project, write_source};

/// The live view's address, as `botlens watch --serve` prints it first.
fn live_url(watch: &Watcher) -> String {
    let end = watch.wait_for("watching ", 0, FIRST_RUN);
    let output = watch.output();
    let line = output[..end].lines().find_map(|l| l.strip_prefix("live view: "));
    line.unwrap_or_else(|| panic!("no live view address: {output}")).to_owned()
}

/// `host:port` and the path of `url` (`http://127.0.0.1:PORT/TOKEN/`).
fn split(url: &str) -> (String, String) {
    let rest = url.strip_prefix("http://").expect("an http address");
    let slash = rest.find('/').expect("a path");
    (rest[..slash].to_owned(), rest[slash..].to_owned())
}

/// A `GET` of `path` from `host` (with `host_header` as its `Host`): the status and the body.
fn get(host: &str, host_header: &str, path: &str) -> (u16, String) {
    try_get(host, host_header, path).expect("the server answers")
}

/// [`get`], or `None` when the server does not answer (yet).
fn try_get(host: &str, host_header: &str, path: &str) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(host).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n")
        .ok()?;
    let mut response = String::new();
    // A server may reset the connection once it has answered (Chromium's DevTools does).
    let _ = stream.read_to_string(&mut response);
    let status = response.get(9..12)?.parse().ok()?;
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    Some((status, body))
}

/// A scripted client of the event stream.
struct Events(BufReader<TcpStream>);

impl Events {
    fn open(host: &str, path: &str) -> Events {
        let mut stream = TcpStream::connect(host).expect("the live view listens");
        write!(
            stream,
            "GET {path}events HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        stream.set_read_timeout(Some(LATER_RUN)).unwrap();
        let mut reader = BufReader::new(stream);
        let mut head = String::new();
        while reader.read_line(&mut head).unwrap() > 2 && !head.ends_with("\r\n\r\n") {}
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(head.contains("text/event-stream"), "{head}");
        Events(reader)
    }

    /// The next state the stream sends whose status is `status` (any, when empty) and run is
    /// at least `run`.
    fn next(&mut self, run: u64, status: &str) -> Value {
        let started = Instant::now();
        loop {
            assert!(started.elapsed() < FIRST_RUN, "no run {run} {status} on the stream");
            let mut line = String::new();
            assert!(self.0.read_line(&mut line).expect("the stream goes on") > 0, "it closed");
            let Some(data) = line.strip_prefix("data: ") else { continue };
            let state: Value = serde_json::from_str(data.trim_end()).expect("a JSON state");
            let wanted = status.is_empty() || state["status"] == status;
            if wanted && state["run"].as_u64() >= Some(run) {
                return state;
            }
        }
    }
}

/// The first state the live view at `url` streams.
pub(crate) fn first_state(url: &str) -> Value {
    let (host, path) = split(url);
    Events::open(&host, &path).next(0, "")
}

#[test]
fn the_live_view_streams_each_run_and_serves_its_replays_to_this_address_only() {
    let project = bot_project("live-stream", false);
    let watch = Watcher::start_with(project.path(), &["--serve"]);
    let url = live_url(&watch);
    let (host, path) = split(&url);
    assert!(host.starts_with("127.0.0.1:"), "{url}");
    assert_eq!(path.len(), "/".len() + 32 + "/".len(), "a 128-bit token: {url}");

    let mut events = Events::open(&host, &path);
    let first = events.next(1, "finished");
    assert_eq!(first["report"]["bot"], "live-stream");
    assert_eq!(first["reason"], "start");
    assert_eq!(first["report"]["failures"], json!([]));
    assert_eq!(first["report"]["opponents"][0]["name"], "random");

    write_source(project.path(), BUGGY);
    let running = events.next(2, "running");
    assert_eq!(running["reason"], "src/lib.rs changed");
    let second = events.next(2, "finished");
    let failure = &second["report"]["failures"][0];
    assert_eq!(failure["kind"], "illegal_move", "{second:#}");
    let replay = second["replays"][0].as_str().expect("the failure's replay");
    assert_eq!(replay, "replay/2/0");

    let (status, page) = get(&host, &host, &format!("{path}{replay}"));
    assert_eq!(status, 200);
    assert!(page.starts_with("<!doctype html>") || page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(page.contains("illegal_move"), "the replay is of the failing game");
    let (status, _) = get(&host, &host, &format!("{path}replay/1/0"));
    assert_eq!(status, 404, "an older run's replay is gone");

    // The page, and nothing without the token or from another host name.
    let (status, page) = get(&host, &host, &path);
    assert_eq!(status, 200);
    assert!(page.contains("new EventSource(\"events\")"), "{page}");
    assert!(!page.contains("http://") && !page.contains("https://"), "fetches nothing");
    assert_eq!(get(&host, &host, "/").0, 404);
    assert_eq!(get(&host, &host, "/events").0, 404);
    assert_eq!(get(&host, &host, &path.replacen('/', "/0", 1)).0, 404);
    assert_eq!(get(&host, "attacker.example:80", &path).0, 404, "DNS rebinding");
    assert_eq!(get(&host, "localhost", &path).0, 404);
}

#[test]
fn a_port_in_use_or_a_port_without_serving_is_refused_with_the_reason() {
    let project = bot_project("live-refused", false);
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = taken.local_addr().unwrap().port().to_string();
    let dir = project.path().to_str().unwrap();
    let out = crate::support::botlens(&["watch", dir, "--serve", "--port", &port]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("cannot serve the live view"), "{}", out.stderr);
    assert!(!out.stdout.contains("watching"), "{}", out.stdout);
    let out = crate::support::botlens(&["watch", dir, "--port", "8787"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("--serve"), "{}", out.stderr);
}

/// The DevTools websocket of a page.
type Page = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

/// Headless Chromium with its DevTools on a free port, its profile in `dir`, showing `url`.
struct Browser {
    child: Child,
    port: u16,
}

impl Browser {
    fn open(dir: &Path, url: &str) -> Browser {
        let child = Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-port=0",
                "--window-size=1200,900",
            ])
            .arg(format!("--user-data-dir={}", dir.display()))
            .arg(url)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        // Chromium writes the port it chose into its profile.
        let started = Instant::now();
        let port = loop {
            let file = std::fs::read_to_string(dir.join("DevToolsActivePort")).unwrap_or_default();
            if let Some(port) = file.lines().next().and_then(|l| l.parse().ok()) {
                break port;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "chromium gave no DevTools port");
            std::thread::sleep(Duration::from_millis(100));
        };
        Browser { child, port }
    }

    /// The DevTools websocket of the page showing `url`.
    fn page(&self, url: &str) -> Page {
        let started = Instant::now();
        let target = loop {
            let devtools = format!("127.0.0.1:{}", self.port);
            let (_, list) = try_get(&devtools, &devtools, "/json/list").unwrap_or_default();
            let targets: Value = serde_json::from_str(&list).unwrap_or_default();
            let found = targets.as_array().into_iter().flatten().find(|t| t["url"] == url);
            if let Some(target) = found {
                break target["webSocketDebuggerUrl"].as_str().expect("a websocket").to_owned();
            }
            assert!(started.elapsed() < Duration::from_secs(30), "no page of {url}: {list}");
            std::thread::sleep(Duration::from_millis(100));
        };
        tungstenite::connect(target).expect("the page's DevTools").0
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Evaluates `expression` in the page; its value, as JSON.
fn evaluate(page: &mut Page, id: u64, expression: &str) -> Value {
    let call = json!({"id": id, "method": "Runtime.evaluate",
                      "params": {"expression": expression, "returnByValue": true}});
    page.send(tungstenite::Message::text(call.to_string())).expect("DevTools takes the call");
    loop {
        let message = page.read().expect("DevTools answers");
        let Ok(text) = message.to_text() else { continue };
        let answer: Value = serde_json::from_str(text).unwrap_or_default();
        if answer["id"] == id {
            return answer["result"]["result"]["value"].clone();
        }
    }
}

/// Polls `expression` until it is `true`.
fn wait_until(page: &mut Page, expression: &str, limit: Duration) {
    let started = Instant::now();
    for id in 1000.. {
        if evaluate(page, id, expression) == json!(true) {
            return;
        }
        let shown = evaluate(page, id + 100_000, "document.body.innerText");
        assert!(started.elapsed() < limit, "never `{expression}`; the page shows:\n{shown}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn the_live_page_changes_after_an_edit_and_a_save_without_reloading() {
    if !require(&[Tool::Chromium]) {
        return;
    }
    let project = bot_project("live-page", false);
    let watch = Watcher::start_with(project.path(), &["--serve"]);
    let url = live_url(&watch);
    watch.wait_for("watching for changes", 0, FIRST_RUN);
    let profile = tempfile::tempdir().unwrap();
    let browser = Browser::open(profile.path(), &url);
    let mut page = browser.page(&url);

    wait_until(
        &mut page,
        "document.getElementById('status').textContent === 'run 1 finished'",
        LATER_RUN,
    );
    let table = evaluate(&mut page, 1, "document.getElementById('table').innerText");
    assert!(table.as_str().unwrap().contains("random"), "{table}");
    let failures = evaluate(&mut page, 2, "document.getElementById('failures').innerText");
    assert_eq!(failures, "no game lost by a fault");
    // A mark in the page's own state: a reload would lose it.
    evaluate(&mut page, 3, "window.sameDocument = 'yes'");

    write_source(project.path(), BUGGY);
    wait_until(
        &mut page,
        "document.getElementById('status').textContent === 'run 2 finished'",
        LATER_RUN,
    );
    assert_eq!(evaluate(&mut page, 4, "window.sameDocument"), "yes", "the page was reloaded");
    let failure = evaluate(&mut page, 5, "document.querySelector('.failure .kind').textContent");
    assert!(failure.as_str().unwrap().starts_with("illegal_move ×"), "{failure}");
    let reason = evaluate(&mut page, 6, "document.getElementById('reason').textContent");
    assert_eq!(reason, "(src/lib.rs changed)");
    // The failure's replay opens in the page, at the failing move.
    wait_until(
        &mut page,
        "(() => { const f = document.getElementById('replay'); \
           return !!(f.contentDocument && f.contentDocument.body \
                     && f.contentDocument.body.innerText.includes('illegal_move')); })()",
        Duration::from_secs(30),
    );
    let frame = evaluate(&mut page, 7, "document.getElementById('replay').getAttribute('src')");
    assert_eq!(frame, "replay/2/0");

    // Fixed again: the failures go, the same page still.
    write_source(project.path(), GOOD);
    wait_until(
        &mut page,
        "document.getElementById('status').textContent === 'run 3 finished'",
        LATER_RUN,
    );
    let failures = evaluate(&mut page, 8, "document.getElementById('failures').innerText");
    assert_eq!(failures, "no game lost by a fault");
    assert_eq!(evaluate(&mut page, 9, "document.getElementById('replay-box').hidden"), true);
    assert_eq!(evaluate(&mut page, 10, "window.sameDocument"), "yes");
}

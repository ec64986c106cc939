//! The live view: a local web page of a bot's latest run — the table, the failures and each
//! failure's replay — that updates by itself after each save (`botlens watch --serve`, and the
//! language server's "open the live view").
//!
//! ```no_run
//! let live = botlens_live::LiveView::start("my-bot", 0)?;
//! println!("open {}", live.url());
//! live.running(1, "start");
//! // … then, when the run is played: live.finished(1, &run, root);
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # How it works
//!
//! - A small HTTP server ([`tiny_http`]) on `127.0.0.1` only, on its own thread. Every address
//!   starts with an unguessable token (128 random bits): `http://127.0.0.1:PORT/TOKEN/`. Any other
//!   path, and any request whose `Host` is not this address (a page elsewhere reaching it by DNS
//!   rebinding), is answered `404`.
//! - The page (`page.html`, compiled in: nothing is fetched from the network) holds the table and
//!   the failures, and listens to `TOKEN/events`, a stream of server-sent events: one JSON state
//!   ([`LiveView::running`], [`LiveView::finished`], [`LiveView::failed`]) each time it changes,
//!   which the page draws without reloading.
//! - Each failure group's replay (the first game of the group, kept by the run) is the replayer's
//!   self-contained HTML page, at `TOKEN/replay/RUN/N`, opened at the failing move, its marks
//!   drawn.
//! - Everything from the bot (messages, file names, logs) is data in the JSON the page writes as
//!   text, never markup; the replay pages escape it themselves. Responses forbid every source
//!   but the page's own (`Content-Security-Policy`) and send no referrer (the token stays here).
//!
//! Not for: running suites (`botlens-harness`), watching files (`botlens-watch`).

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use botlens_harness::SuiteReport;
use botlens_harness::pipeline::SuiteRun;
use botlens_replay::Replay;
use serde::Serialize;
use tiny_http::{Header, Method, Request, Response, Server};

/// The page, with its script and style: every asset it has.
const PAGE: &str = include_str!("page.html");

/// How often an idle event stream sends a comment, so a closed page is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The most pages listening at once; more are refused (`503`).
const MAX_LISTENERS: usize = 16;

/// What every response says about where its content may come from: its own inline script and
/// style, the replay frames and the event stream of this server; nothing else.
const POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
                      img-src data:; connect-src 'self'; frame-src 'self'; base-uri 'none'; \
                      form-action 'none'";

/// The live view's server; see the crate docs. Dropping it stops the server and ends every
/// event stream.
pub struct LiveView {
    url: String,
    host: String,
    shared: Arc<Shared>,
    server: Arc<Server>,
    thread: Option<JoinHandle<()>>,
}

/// What the server's threads share.
struct Shared {
    token: String,
    /// The bot's name, shown in the page's title.
    project: String,
    state: Mutex<State>,
    changed: Condvar,
    listeners: AtomicUsize,
}

/// The latest state, and the replays of the latest finished run.
#[derive(Default)]
struct State {
    /// Bumped on every change; a stream sends the state when it differs from what it sent.
    version: u64,
    /// The state as the JSON the page reads.
    json: String,
    /// The run the replays belong to.
    replays_run: u32,
    /// Each failure group's replay page (`None`: its game could not be replayed).
    replays: Vec<Option<String>>,
    /// The last finished run's report, shown while the next one runs.
    report: Option<SuiteReport>,
    /// The live view is shutting down.
    closed: bool,
}

/// The state the page draws, as JSON.
#[derive(Serialize)]
struct Snapshot<'a> {
    /// The bot's name.
    project: &'a str,
    /// The run this is about.
    run: u32,
    /// `running`, `finished` or `failed`.
    status: &'static str,
    /// What started the run (`start`, the changed files).
    reason: &'a str,
    /// Why the run failed (a build's errors), for `failed`.
    message: Option<&'a str>,
    /// The latest finished run's number, and its report.
    reported_run: u32,
    report: Option<&'a SuiteReport>,
    /// Each failure group's replay address, relative to the page (`None`: no replay).
    replays: Vec<Option<String>>,
}

impl LiveView {
    /// Starts the server for the bot `project` on `127.0.0.1:port` (`0`: any free port).
    pub fn start(project: &str, port: u16) -> io::Result<LiveView> {
        let server = Server::http(("127.0.0.1", port)).map_err(io::Error::other)?;
        let port = server.server_addr().to_ip().map_or(port, |address| address.port());
        let token = token()?;
        let host = format!("127.0.0.1:{port}");
        let url = format!("http://{host}/{token}/");
        let shared = Arc::new(Shared {
            token,
            project: project.to_owned(),
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            listeners: AtomicUsize::new(0),
        });
        let server = Arc::new(server);
        let (serving, serving_state, serving_host) =
            (Arc::clone(&server), Arc::clone(&shared), host.clone());
        let thread = std::thread::Builder::new()
            .name("botlens-live".into())
            .spawn(move || serve(&serving, &serving_state, &serving_host))?;
        let live = LiveView { url, host, shared, server, thread: Some(thread) };
        live.publish(|state, project| {
            state.json = snapshot_json(project, 0, "running", "start", None, state);
        });
        Ok(live)
    }

    /// The page's address, token included: `http://127.0.0.1:PORT/TOKEN/`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Run `run` started, because of `reason` (`start`, or the files that changed).
    pub fn running(&self, run: u32, reason: &str) {
        self.publish(|state, project| {
            state.json = snapshot_json(project, run, "running", reason, None, state);
        });
    }

    /// Run `run` ended without a report: the build failed (`message`: its errors), or the bot
    /// did not load.
    pub fn failed(&self, run: u32, reason: &str, message: &str) {
        self.publish(|state, project| {
            state.json = snapshot_json(project, run, "failed", reason, Some(message), state);
        });
    }

    /// Run `run` was played: its report, and each failure group's replay from the games it kept
    /// (source lines read under `source_root` only).
    pub fn finished(&self, run: u32, reason: &str, played: &SuiteRun, source_root: &Path) {
        let replays = replay_pages(played, source_root);
        self.publish(|state, project| {
            state.report = Some(played.report.clone());
            state.replays_run = run;
            state.replays = replays;
            state.json = snapshot_json(project, run, "finished", reason, None, state);
        });
    }

    /// Changes the state (given the bot's name) and wakes every stream.
    fn publish(&self, change: impl FnOnce(&mut State, &str)) {
        let mut state = self.shared.lock();
        change(&mut state, &self.shared.project);
        state.version += 1;
        drop(state);
        self.shared.changed.notify_all();
    }
}

impl Drop for LiveView {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.changed.notify_all();
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for LiveView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveView").field("host", &self.host).finish_non_exhaustive()
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// 128 random bits in hex.
fn token() -> io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(io::Error::other)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The state as the page's JSON.
fn snapshot_json(
    project: &str,
    run: u32,
    status: &'static str,
    reason: &str,
    message: Option<&str>,
    state: &State,
) -> String {
    let replays = state
        .replays
        .iter()
        .enumerate()
        .map(|(i, page)| page.as_ref().map(|_| format!("replay/{}/{i}", state.replays_run)))
        .collect();
    let snapshot = Snapshot {
        project,
        run,
        status,
        reason,
        message,
        reported_run: if state.report.is_some() { state.replays_run } else { 0 },
        report: state.report.as_ref(),
        replays,
    };
    serde_json::to_string(&snapshot).expect("the live state serializes")
}

/// Each failure group's replay page: its first game, kept by the run, opened at the failing move.
fn replay_pages(played: &SuiteRun, source_root: &Path) -> Vec<Option<String>> {
    played
        .report
        .failures
        .iter()
        .map(|group| {
            let opponent =
                played.suite.opponents.iter().position(|o| o.name() == group.first_opponent)?;
            let position = (opponent, group.first_seed, group.first_seat);
            let trace = played.results.kept_game_at(position)?.trace.as_ref()?;
            let replay = Replay::from_trace(trace, Some(source_root)).ok()?;
            let start = replay.failure_frame().unwrap_or(0);
            Some(botlens_replay::html_page(&replay, start))
        })
        .collect()
}

/// Answers requests until the server is unblocked.
fn serve(server: &Server, shared: &Arc<Shared>, host: &str) {
    for request in server.incoming_requests() {
        if shared.lock().closed {
            break;
        }
        let route = route(&request, &shared.token, host);
        match route {
            Route::Page => respond(request, 200, "text/html; charset=utf-8", PAGE.to_owned()),
            Route::Slash => {
                // The page's addresses are relative to the token's folder.
                let mut response = Response::from_string("").with_status_code(308);
                let location = format!("/{}/", shared.token);
                if let Ok(header) = Header::from_bytes("Location", location) {
                    response.add_header(header);
                }
                let _ = request.respond(response);
            }
            Route::Events => {
                if shared.listeners.fetch_add(1, Ordering::SeqCst) >= MAX_LISTENERS {
                    shared.listeners.fetch_sub(1, Ordering::SeqCst);
                    respond(request, 503, "text/plain", "too many pages are open".into());
                    continue;
                }
                let listening = Arc::clone(shared);
                let spawned = std::thread::Builder::new().name("botlens-live-events".into()).spawn(
                    move || {
                        let _ = stream_events(request, &listening);
                        listening.listeners.fetch_sub(1, Ordering::SeqCst);
                    },
                );
                if spawned.is_err() {
                    shared.listeners.fetch_sub(1, Ordering::SeqCst);
                }
            }
            Route::Replay { run, index } => {
                let page = {
                    let state = shared.lock();
                    (state.replays_run == run)
                        .then(|| state.replays.get(index).cloned().flatten())
                        .flatten()
                };
                match page {
                    Some(page) => respond(request, 200, "text/html; charset=utf-8", page),
                    None => respond(
                        request,
                        404,
                        "text/plain; charset=utf-8",
                        "this replay is from an older run: the page shows the latest".into(),
                    ),
                }
            }
            Route::NotFound => respond(request, 404, "text/plain", "not found".into()),
        }
    }
}

/// What a request asks for.
#[derive(Debug, PartialEq, Eq)]
enum Route {
    Page,
    /// The token without the slash after it.
    Slash,
    Events,
    Replay {
        run: u32,
        index: usize,
    },
    NotFound,
}

/// The route of `request`: only `GET`s of this host, under the token.
fn route(request: &Request, token: &str, host: &str) -> Route {
    let host_ok = request
        .headers()
        .iter()
        .find(|header| header.field.equiv("Host"))
        .is_some_and(|header| header.value.as_str() == host);
    if *request.method() != Method::Get || !host_ok {
        return Route::NotFound;
    }
    route_path(request.url(), token)
}

/// The route of a request's path.
fn route_path(url: &str, token: &str) -> Route {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let Some(rest) = path.strip_prefix('/').and_then(|p| p.strip_prefix(token)) else {
        return Route::NotFound;
    };
    match rest.split('/').collect::<Vec<_>>().as_slice() {
        [""] => Route::Slash,
        ["", "" | "index.html"] => Route::Page,
        ["", "events"] => Route::Events,
        ["", "replay", run, index] => match (run.parse(), index.parse()) {
            (Ok(run), Ok(index)) => Route::Replay { run, index },
            _ => Route::NotFound,
        },
        _ => Route::NotFound,
    }
}

/// The headers every response carries.
fn headers(content_type: &str) -> Vec<Header> {
    [
        ("Content-Type", content_type),
        ("Content-Security-Policy", POLICY),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]
    .into_iter()
    .filter_map(|(field, value)| Header::from_bytes(field, value).ok())
    .collect()
}

fn respond(request: Request, status: u16, content_type: &str, body: String) {
    let length = body.len();
    // Sent whole with its length, never in chunks: a replay page is a few hundred kB.
    let response =
        Response::new(status.into(), headers(content_type), body.as_bytes(), Some(length), None)
            .with_chunked_threshold(usize::MAX);
    let _ = request.respond(response);
}

/// Streams the state to one page as server-sent events, until it goes away or the live view
/// closes: the state now, then each time it changes, and a comment every [`KEEP_ALIVE`].
fn stream_events(request: Request, shared: &Shared) -> io::Result<()> {
    let mut out = request.into_writer();
    write!(out, "HTTP/1.1 200 OK\r\n")?;
    for header in headers("text/event-stream") {
        write!(out, "{}: {}\r\n", header.field, header.value)?;
    }
    write!(out, "Connection: close\r\n\r\n")?;
    out.flush()?;
    let mut sent = 0;
    loop {
        let (json, version) = {
            let state = shared.lock();
            let (state, _) = shared
                .changed
                .wait_timeout_while(state, KEEP_ALIVE, |s| s.version == sent && !s.closed)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if state.closed {
                return Ok(());
            }
            (state.json.clone(), state.version)
        };
        if version == sent {
            out.write_all(b": still here\n\n")?;
        } else {
            // JSON has no raw newline: one `data:` line is the whole event.
            write!(out, "data: {json}\n\n")?;
            sent = version;
        }
        out.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_under_the_token_are_served() {
        let token = "0123abcd";
        assert_eq!(route_path("/0123abcd/", token), Route::Page);
        assert_eq!(route_path("/0123abcd", token), Route::Slash);
        assert_eq!(route_path("/0123abcd/?x=1", token), Route::Page);
        assert_eq!(route_path("/0123abcd/events", token), Route::Events);
        assert_eq!(route_path("/0123abcd/replay/3/1", token), Route::Replay { run: 3, index: 1 });
        assert_eq!(route_path("/0123abcd/replay/3/x", token), Route::NotFound);
        assert_eq!(route_path("/0123abcd/../etc/passwd", token), Route::NotFound);
        assert_eq!(route_path("/", token), Route::NotFound);
        assert_eq!(route_path("/0123abce/", token), Route::NotFound);
        assert_eq!(route_path("/0123abcdx/", token), Route::NotFound);
        assert_eq!(route_path("/events", token), Route::NotFound);
    }

    #[test]
    fn tokens_are_128_random_bits() {
        let (a, b) = (token().unwrap(), token().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn the_state_names_the_run_and_what_started_it() {
        let state = State::default();
        let json = snapshot_json("my-bot", 2, "failed", "src/lib.rs", Some("error[E0425]"), &state);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["project"], "my-bot");
        assert_eq!(value["run"], 2);
        assert_eq!(value["status"], "failed");
        assert_eq!(value["message"], "error[E0425]");
        assert!(value["report"].is_null());
        assert!(!json.contains('\n'));
    }
}

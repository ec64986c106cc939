//! The replay as one self-contained HTML page: inline CSS and script, the replay embedded as
//! JSON, no network at all (a Content-Security-Policy forbids every external load). The page
//! animates the game with play/pause, step and speed controls and shows the failure with its
//! source location and line.
//!
//! Everything from the trace is escaped: text in the markup as HTML, the embedded JSON so that
//! no `<`, `>` or `&` survives (a log line cannot close the script element), and the script puts
//! trace text into the page only through `textContent`.

use serde::Serialize;

use crate::source::SourceLine;
use crate::{FailurePanel, Replay};

/// The page's stylesheet.
const STYLE: &str = r#"
:root { color-scheme: light dark; --fail: #d33; --waste: #b80; --accent: #36c; }
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5rem; max-width: 80rem; }
h1 { font-size: 1.3rem; margin: 0; }
h2 { font-size: 1.05rem; margin: 0.8rem 0 0.3rem; }
header p { margin: 0.2rem 0; }
pre { font: 14px/1.25 ui-monospace, Menlo, Consolas, monospace; margin: 0; white-space: pre; }
main { display: flex; gap: 1.5rem; align-items: flex-start; flex-wrap: wrap; }
.board-col { flex: 1 1 30rem; min-width: 0; }
#board { padding: 0.6rem; border: 2px solid #8884; border-radius: 6px; overflow-x: auto; }
#board.failed { border-color: var(--fail); }
.controls { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin: 0.6rem 0; }
.controls button { font: inherit; padding: 0.2rem 0.6rem; }
#scrub { flex: 1 1 12rem; }
#logs { padding: 0.4rem; background: #8881; border-radius: 4px; min-height: 1.5rem; }
aside { flex: 0 1 24rem; }
#moves { list-style: none; padding: 0; margin: 0; max-height: 70vh; overflow-y: auto;
  font: 14px/1.4 ui-monospace, Menlo, Consolas, monospace; white-space: pre; }
#moves li { cursor: pointer; padding: 0 0.3rem; }
#moves li.failed { color: var(--fail); }
#moves li.wasteful { color: var(--waste); }
#moves li.current { background: var(--accent); color: #fff; }
#failure { border: 2px solid #8884; border-radius: 6px; padding: 0.4rem 0.8rem; margin-top: 1rem; }
#failure.here { border-color: var(--fail); }
#failure .kind { color: var(--fail); font-weight: bold; }
#failure .moved { font-style: italic; }
.result { font-weight: bold; }
.dim { opacity: 0.7; }
"#;

/// The page's script: reads the embedded JSON and drives the controls and keys.
const SCRIPT: &str = r#"
(function () {
  "use strict";
  var embedded = JSON.parse(document.getElementById("replay-data").textContent);
  var data = embedded.replay, frames = data.frames, last = frames.length - 1;
  var failureFrame = data.failure ? data.failure.index : null;
  var current = 0, timer = null;
  function $(id) { return document.getElementById(id); }
  var items = frames.map(function (frame, i) {
    var li = document.createElement("li"), move = i > 0 ? data.moves[i - 1] : null;
    li.textContent = move ? move.label : "  0 start";
    if (move && move.failed) { li.className = "failed"; }
    else if (move && move.wasteful) { li.className = "wasteful"; }
    li.addEventListener("click", function () { pause(); show(i); });
    $("moves").appendChild(li);
    return li;
  });
  $("scrub").max = String(last);
  function show(i) {
    current = Math.max(0, Math.min(last, i));
    var frame = frames[current], move = current > 0 ? data.moves[current - 1] : null;
    $("frame-title").textContent = frame.title;
    $("board").textContent = frame.board;
    $("board").classList.toggle("failed", frame.failed);
    $("answer").textContent = move && move.response ? "answer: " + move.response : "";
    $("logs").textContent = frame.logs.length ? frame.logs.join("\n")
      : (move ? "(nothing logged this turn)" : "(the game has not started)");
    items.forEach(function (li, j) { li.classList.toggle("current", j === current); });
    items[current].scrollIntoView({ block: "nearest" });
    $("scrub").value = String(current);
    $("position").textContent = "move " + current + "/" + last;
    if ($("failure")) { $("failure").classList.toggle("here", current === failureFrame); }
    if (current === last) { pause(); }
  }
  function interval() { return Number($("speed").value); }
  function pause() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $("play").textContent = "▶ play";
  }
  function play() {
    if (interval() === 0) { pause(); show(current + 1); return; }
    if (timer !== null) { pause(); return; }
    if (current === last) { show(0); }
    timer = setInterval(function () { show(current + 1); }, interval());
    $("play").textContent = "⏸ pause";
  }
  function jumpToFailure() { if (failureFrame !== null) { pause(); show(failureFrame); } }
  function cycleSpeed() {
    var select = $("speed");
    select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
    select.dispatchEvent(new Event("change"));
  }
  $("first").addEventListener("click", function () { show(0); });
  $("prev").addEventListener("click", function () { show(current - 1); });
  $("play").addEventListener("click", play);
  $("next").addEventListener("click", function () { show(current + 1); });
  $("last").addEventListener("click", function () { show(last); });
  $("speed").addEventListener("change", function () { if (timer !== null) { pause(); play(); } });
  $("scrub").addEventListener("input", function () { pause(); show(Number($("scrub").value)); });
  if (failureFrame === null) { $("to-failure").hidden = true; }
  $("to-failure").addEventListener("click", jumpToFailure);
  document.addEventListener("keydown", function (event) {
    var tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || event.ctrlKey || event.metaKey || event.altKey) { return; }
    var keys = {
      ArrowRight: function () { show(current + 1); }, l: function () { show(current + 1); },
      n: function () { show(current + 1); }, ArrowLeft: function () { show(current - 1); },
      h: function () { show(current - 1); }, p: function () { show(current - 1); },
      Home: function () { show(0); }, End: function () { show(last); },
      f: jumpToFailure, " ": play, s: cycleSpeed,
      g: function () {
        var answer = window.prompt("Go to move (0 is the start, " + last + " the last):");
        if (answer !== null && /^\s*\d+\s*$/.test(answer)) { pause(); show(Number(answer)); }
      }
    };
    if (Object.prototype.hasOwnProperty.call(keys, event.key)) { event.preventDefault(); keys[event.key](); }
  });
  show(embedded.start);
})();
"#;

/// What the page embeds: the replay and the frame to open at.
#[derive(Serialize)]
struct Embedded<'a> {
    start: usize,
    replay: &'a Replay,
}

/// The page for `replay`, opening at frame `start` (clamped to the last).
pub fn page(replay: &Replay, start: usize) -> String {
    let start = start.min(replay.move_count());
    let data = script_json(&Embedded { start, replay });
    let title = format!("botlens replay · {} · seed {}", replay.game, replay.seed);
    let seats = replay.seats.iter().map(|seat| escape(seat)).collect::<Vec<_>>().join(" · ");
    let failure = replay.failure.as_ref().map(failure_section).unwrap_or_default();
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{title}</title>
<style>{STYLE}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<p>{seats} · engine {engine}</p>
<p class="result">{result}</p>
</header>
<main>
<section class="board-col">
<h2 id="frame-title"></h2>
<pre id="board"></pre>
<div class="controls">
<button id="first" title="start (Home)">|◀</button>
<button id="prev" title="previous move (←)">◀</button>
<button id="play" title="play / pause (space)">▶ play</button>
<button id="next" title="next move (→)">▶</button>
<button id="last" title="last move (End)">▶|</button>
<label>speed <select id="speed" title="speed (s)">
<option value="10">fast (10 ms)</option>
<option value="100" selected>slow (100 ms)</option>
<option value="500">slower (500 ms)</option>
<option value="0">step</option>
</select></label>
<button id="to-failure" title="jump to the failure (f)">jump to failure</button>
<input id="scrub" type="range" min="0" value="0" aria-label="move">
<span id="position"></span>
</div>
<p id="answer" class="dim"></p>
<h2>log</h2>
<pre id="logs"></pre>
{failure}</section>
<aside>
<h2>moves ({moves})</h2>
<ol id="moves"></ol>
</aside>
</main>
<script type="application/json" id="replay-data">{data}</script>
<script>{SCRIPT}</script>
</body>
</html>
"#,
        title = escape(&title),
        engine = escape(&replay.engine_version),
        result = escape(&replay.result),
        moves = replay.move_count(),
    )
}

/// The failure, written into the page itself so it reads without the script too.
fn failure_section(failure: &FailurePanel) -> String {
    let location = match &failure.location {
        Some(location) => format!("<p>at <code>{}</code></p>", escape(&location.to_string())),
        None => "<p class=\"moved\">no source location recorded</p>".to_owned(),
    };
    let source = match &failure.source {
        Some(found @ SourceLine::Found { .. }) => {
            format!("<pre class=\"source\">{}</pre>", escape(&found.lines().join("\n")))
        }
        Some(other) => format!("<p class=\"moved\">{}</p>", escape(&other.lines().join(" "))),
        None => String::new(),
    };
    format!(
        "<section id=\"failure\">\n<h2>failure · move {index} · turn {turn} · {who}</h2>\n\
         <p><span class=\"kind\">{kind}</span>: {message}</p>\n{location}\n{source}\n</section>\n",
        index = failure.index,
        turn = failure.turn,
        who = escape(&failure.who),
        kind = failure.kind,
        message = escape(&failure.message),
    )
}

/// Text for HTML element content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// JSON safe inside a `<script>` element: `<`, `>` and `&` only ever occur inside JSON strings,
/// where their `\u` escapes mean the same, so the element cannot be closed early.
fn script_json<T: Serialize>(value: &T) -> String {
    let json = serde_json::to_string(value).expect("the replay model serializes to JSON");
    json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

#[cfg(test)]
mod tests {
    use botlens_engine::PlayerInfo;

    use super::*;
    use crate::fixtures::{assert_printable, bot_project, failed_game, hostile_game};

    fn failed_page() -> (Replay, String) {
        let project = bot_project();
        let replay = Replay::from_trace(&failed_game(project.path()), Some(project.path()))
            .expect("replays");
        let html = page(&replay, 0);
        (replay, html)
    }

    /// The JSON embedded in the page, parsed back.
    fn embedded(html: &str) -> serde_json::Value {
        let open = r#"<script type="application/json" id="replay-data">"#;
        let start = html.find(open).expect("embedded data") + open.len();
        let end = start + html[start..].find("</script>").expect("closed");
        serde_json::from_str(&html[start..end]).expect("valid JSON")
    }

    #[test]
    fn the_page_embeds_every_frame_and_move() {
        let (replay, html) = failed_page();
        let data = embedded(&html);
        assert_eq!(data["start"], 0);
        let frames = data["replay"]["frames"].as_array().expect("frames");
        assert_eq!(frames.len(), replay.frames.len());
        for (frame, shown) in frames.iter().zip(&replay.frames) {
            assert_eq!(frame["board"], shown.board.as_str());
            assert_eq!(frame["title"], shown.title.as_str());
        }
        assert_eq!(data["replay"]["moves"][4]["failed"], true);
        assert_eq!(data["replay"]["failure"]["index"], 5);
    }

    #[test]
    fn the_page_shows_the_failure_with_its_location_and_source_line() {
        let (_, html) = failed_page();
        let failure = &html[html.find("<section id=\"failure\">").expect("failure section")..];
        let failure = &failure[..failure.find("</section>").expect("closed")];
        assert!(failure.contains("failure · move 5 · turn 5 · seat 0 (my-bot)"), "{failure}");
        assert!(failure.contains("<span class=\"kind\">illegal_move</span>: illegal move mark(1, 1): square (1, 1) is taken by X"), "{failure}");
        assert!(failure.contains("at <code>src/lib.rs:3:6</code>"), "{failure}");
        assert!(
            failure.contains(
                "<pre class=\"source\">3 │     turn.mark(1, 1)?; // taken!\n  │         ^</pre>"
            ),
            "{failure}"
        );
    }

    #[test]
    fn a_moved_source_is_stated_on_the_page() {
        let project = bot_project();
        let trace = failed_game(project.path());
        std::fs::remove_file(project.path().join("src/lib.rs")).expect("remove");
        let html = page(&Replay::from_trace(&trace, Some(project.path())).expect("replays"), 0);
        assert!(html.contains("<p class=\"moved\">source missing: cannot read "), "{html}");
    }

    #[test]
    fn the_page_loads_nothing_from_the_network() {
        let (_, html) = failed_page();
        for external in ["http://", "https://", "src=", "href=", "url(", "@import", "//cdn"] {
            assert!(!html.contains(external), "found `{external}`");
        }
        assert!(html.contains("default-src 'none'"), "a CSP forbids loads");
    }

    #[test]
    fn trace_text_is_escaped_everywhere() {
        let project = bot_project();
        let mut trace = failed_game(project.path());
        let hostile = "</script><script>alert('x')</script> & <b>\"bold\"</b>";
        trace.players[0] = PlayerInfo::reference(hostile);
        trace.moves[0].logs.push(hostile.into());
        trace.moves[4].failure.as_mut().expect("failed").message = hostile.into();
        let replay = Replay::from_trace(&trace, None).expect("replays");
        let html = page(&replay, 3);
        assert!(!html.contains("<script>alert"), "raw markup leaked");
        assert!(!html.contains("<b>"), "raw markup leaked");
        assert_eq!(html.matches("</script>").count(), 2, "only the page's own scripts close");
        let escaped = "&lt;/script&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &lt;b&gt;&quot;bold&quot;&lt;/b&gt;";
        assert!(html.contains(&format!("seat 0: {escaped} (reference)")), "header escaped");
        assert!(html.contains(&format!(": {escaped}</p>")), "failure message escaped");
        let data = embedded(&html);
        assert_eq!(data["start"], 3);
        assert_eq!(data["replay"]["frames"][1]["logs"][2], hostile, "the JSON keeps the text");
    }

    #[test]
    fn a_hostile_trace_leaves_no_control_character_and_no_markup_of_its_own_in_the_page() {
        let project = bot_project();
        let replay = Replay::from_trace(&hostile_game(project.path()), Some(project.path()))
            .expect("replays");
        let html = page(&replay, 5);
        assert_printable(&html);
        assert_eq!(html.matches("</script>").count(), 2, "only the page's own scripts close");
        assert!(!html.contains("<b>"), "raw markup leaked");
        let shown = r"\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{202e}&lt;/script&gt;&lt;b&gt;x";
        assert!(html.contains(&format!("seat 0: my-bot{shown} (wasm)")), "header: {html}");
        assert!(html.contains(&format!("engine 0.1{shown}</p>")), "engine: {html}");
        assert!(html.contains(&format!(": boom {shown}\nsecond {shown}</p>")), "message: {html}");
        assert!(
            html.contains(&format!("3 │     turn.mark(1, 1)?; // {shown}\n")),
            "source: {html}"
        );
        let data = embedded(&html);
        let logs = &data["replay"]["frames"][5]["logs"];
        assert_eq!(logs[2], r"log \u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{202e}</script><b>x");
    }

    #[test]
    fn the_page_opens_at_the_requested_frame_clamped_to_the_game() {
        let (replay, _) = failed_page();
        assert_eq!(embedded(&page(&replay, 99))["start"], 5);
    }
}

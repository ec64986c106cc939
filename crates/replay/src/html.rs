//! The replay as one self-contained HTML page: inline CSS and script, the replay embedded as
//! JSON, no network at all (a Content-Security-Policy forbids every external load). The page
//! animates the game with play/pause, step and speed controls and the terminal viewer's keys
//! (its binding table, with the key help generated from the same table), and shows the
//! failure with its source location and line.
//!
//! Games that picture their board (`Game::picture`) are drawn: each grid as a CSS grid of
//! cells coloured by their state (water, ship, hit, miss, sunk, X, O, …; a legend names them),
//! blocks laid over the cells (Klotski's pieces with their names, the goal area), the cells
//! the last move touched outlined and those of the failing move marked. The game's text stays
//! a click away, and is all a game without a picture shows.
//!
//! What the bots drew (`botlens.draw`) lies over the grid each seat draws on, a layer per seat
//! with a checkbox (and `m`) to show or hide it: heat maps as cells on the palette with a legend
//! of their lowest and highest values, filled cells, labels and SVG arrows in their colours,
//! each with a tooltip naming the line of the bot's source that drew it; the status lines and
//! what was left out or dropped under the board. A timeline under it has a tick per move,
//! marks hits, sinks and the failure, and seeks to the move clicked.
//!
//! Everything from the trace is escaped: text in the markup as HTML, the embedded JSON so that
//! no `<`, `>` or `&` survives (a log line cannot close the script element), and the script puts
//! trace text into the page only through `textContent` (and names into `data-` attributes
//! through `setAttribute`), never as markup.

use std::collections::BTreeMap;

use botlens_engine::drawing::Colour;
use serde::Serialize;

use crate::source::SourceLine;
use crate::viewer::{BINDINGS, HELP_NOTE, NO_FAILURE, NO_MARKS, help_lines};
use crate::{FailurePanel, Replay};

/// The page's stylesheet.
const STYLE: &str = r#"
:root { color-scheme: light dark; --fail: #d33; --waste: #b80; --accent: #36c; --last: #7c3aed; --best: #2a2; }
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5rem; max-width: 84rem; }
h1 { font-size: 1.3rem; margin: 0; }
h2 { font-size: 1.05rem; margin: 0.8rem 0 0.3rem; }
header p { margin: 0.2rem 0; }
pre { font: 14px/1.25 ui-monospace, Menlo, Consolas, monospace; margin: 0; white-space: pre; }
main { display: flex; gap: 1.5rem; align-items: flex-start; flex-wrap: wrap; }
.board-col { flex: 1 1 30rem; min-width: 0; }
#board, #picture { padding: 0.6rem; border: 2px solid #8884; border-radius: 6px; overflow-x: auto; }
#board.failed, #picture.failed { border-color: var(--fail); }
#picture { display: flex; flex-wrap: wrap; gap: 1.5rem; }
#picture[hidden], #board[hidden], #legend[hidden] { display: none; }
figure.grid { margin: 0; }
figure.grid figcaption { font-weight: 600; margin-bottom: 0.3rem; }
.cells { display: grid; gap: 2px; }
.axis { font: 11px ui-monospace, Menlo, Consolas, monospace; opacity: 0.65; display: flex;
  align-items: center; justify-content: center; }
.cell { display: flex; align-items: center; justify-content: center; border-radius: 3px;
  background: #9995; color: #222; font-weight: 700; line-height: 1; }
.cell[data-state="empty"], .cell[data-state="floor"] { background: #8882; }
.cell[data-state="water"] { background: #a5d8ff; }
.cell[data-state="ship"] { background: #5c6773; }
.cell[data-state="hit"] { background: #ff922b; color: #5c2600; }
.cell[data-state="miss"] { background: #e3f2fd; color: #1864ab; }
.cell[data-state="sunk"] { background: #a61e1e; color: #fff; }
.cell[data-state="x"] { background: #8882; color: #1c64d1; }
.cell[data-state="o"] { background: #8882; color: #e8590c; }
.block { margin: 3px; border-radius: 6px; display: flex; align-items: center; justify-content: center;
  text-align: center; white-space: pre-line; line-height: 1.15; font-size: 0.55em; font-weight: 600;
  background: #e9cf9c; color: #3b2a0a; border: 2px solid #9c7a3c; z-index: 1; overflow: hidden; }
.block[data-kind="goal_piece"] { background: #c92a2a; color: #fff; border-color: #6e1212; }
.block[data-kind="goal"] { background: transparent; border: 3px dashed #2f9e44; margin: 0;
  z-index: 2; pointer-events: none; align-items: flex-end; font-size: 0.3em; }
.block[data-kind="goal"] span { background: #2f9e44; color: #fff; padding: 0 0.4em;
  border-radius: 0.6em 0.6em 0 0; }
.mark { z-index: 3; pointer-events: none; border-radius: 3px; }
.mark.last { box-shadow: inset 0 0 0 3px var(--last), 0 0 0 2px var(--last); }
.mark.best { box-shadow: inset 0 0 0 3px var(--best); border-radius: 50%; }
.mark.failing { box-shadow: inset 0 0 0 3px var(--fail), 0 0 0 2px var(--fail);
  background: repeating-linear-gradient(45deg, #dd333333 0 4px, transparent 4px 9px); }
#legend { display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; margin: 0.5rem 0 0; font-size: 0.9rem; }
#legend .item { display: inline-flex; align-items: center; gap: 0.35rem; }
#legend .swatch { width: 1.4rem; height: 1.4rem; margin: 0; font-size: 0.8rem; box-sizing: border-box; }
#legend .block.swatch { font-size: 0.6rem; }
.controls { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin: 0.6rem 0; }
.controls button { font: inherit; padding: 0.2rem 0.6rem; }
#scrub { flex: 1 1 12rem; }
#logs { padding: 0.4rem; background: #8881; border-radius: 4px; min-height: 1.5rem; }
#keys { border: 2px solid #8884; border-radius: 6px; padding: 0.2rem 0.8rem 0.4rem; }
#keys th { text-align: left; font: 14px ui-monospace, Menlo, Consolas, monospace; white-space: pre;
  padding-right: 1.5rem; }
aside { flex: 0 1 24rem; }
#moves { list-style: none; padding: 0; margin: 0; max-height: 70vh; overflow-y: auto;
  font: 14px/1.4 ui-monospace, Menlo, Consolas, monospace; white-space: pre; }
#moves li { cursor: pointer; padding: 0 0.3rem; }
#moves li.failed { color: var(--fail); }
#moves li.wasteful { color: var(--waste); }
#moves li.judged { color: var(--waste); }
#moves li.losing { color: var(--fail); font-weight: bold; }
#judged { color: var(--waste); }
#moves li.current { background: var(--accent); color: #fff; }
#failure { border: 2px solid #8884; border-radius: 6px; padding: 0.4rem 0.8rem; margin-top: 1rem; }
#failure.here { border-color: var(--fail); }
#failure .kind { color: var(--fail); font-weight: bold; }
#failure .moved { font-style: italic; }
.layer { display: grid; gap: 2px; z-index: 2; pointer-events: none; }
.layer[hidden] { display: none; }
.layer > * { pointer-events: auto; }
.layer .heat { border-radius: 3px; opacity: 0.82; }
.layer .fill { border-radius: 3px; margin: 14%; box-shadow: 0 0 0 2px #fffc; }
.layer .label { justify-self: center; align-self: center; white-space: nowrap; z-index: 1;
  font: 700 0.62em/1.3 ui-monospace, Menlo, Consolas, monospace; padding: 0 0.25em;
  background: #111d; border-radius: 3px; }
.layer svg { width: 100%; height: 100%; overflow: visible; pointer-events: none; }
.layer svg g { pointer-events: visiblePainted; }
#marks { margin: 0.5rem 0 0; font-size: 0.9rem; }
#marks[hidden] { display: none; }
#layer-toggles { display: flex; flex-wrap: wrap; gap: 0.2rem 1rem; }
#marks-notes p { margin: 0.3rem 0; }
#marks-notes .who { font-weight: 600; }
#marks-notes .status { font-family: ui-monospace, Menlo, Consolas, monospace; }
#marks-notes .left-out { color: var(--waste); }
.heat-legend { display: inline-flex; align-items: center; gap: 0.3rem; }
.heat-legend .bar { display: inline-block; width: 7rem; height: 0.8rem; border-radius: 3px; }
#timeline { display: flex; height: 1.6rem; margin: 0.6rem 0 0; border-radius: 4px;
  background: #8882; cursor: pointer; }
#timeline .tick { flex: 1 1 0; position: relative; min-width: 0;
  border-left: 1px solid #8883; }
#timeline .tick:hover { background: #8885; }
#timeline .tick.current { background: var(--accent); }
#timeline .tick.drew::before { content: ""; position: absolute; left: 0; right: 0; bottom: 0;
  height: 3px; background: #7c3aed; }
#timeline .tick.hit::after, #timeline .tick.sunk::after, #timeline .tick.failed::after {
  content: ""; position: absolute; left: 50%; top: 50%; width: 0.5rem; height: 0.5rem;
  transform: translate(-50%, -50%); border-radius: 50%; background: #ff922b; z-index: 1; }
#timeline .tick.sunk::after { width: 0.8rem; height: 0.8rem; background: #a61e1e; }
#timeline .tick.failed::after { content: "✗"; background: none; color: var(--fail);
  font-weight: 900; width: auto; height: auto; line-height: 1; }
.result { font-weight: bold; }
.dim { opacity: 0.7; }
"#;

/// The page's script: reads the embedded JSON, draws the frames and drives the controls and
/// keys. `commands` has one entry per page name of the viewer's commands.
const SCRIPT: &str = r#"
(function () {
  "use strict";
  var embedded = JSON.parse(document.getElementById("replay-data").textContent);
  var data = embedded.replay, frames = data.frames, last = frames.length - 1;
  var states = data.cell_states, kinds = data.block_kinds;
  var failureFrame = data.failure ? data.failure.index : null;
  var drawn = frames[0].picture !== null, asText = !drawn;
  var current = 0, timer = null;
  var MARKS = { x: "X", o: "O", hit: "✕", sunk: "✕", miss: "•" };
  var PLAIN = { empty: true, water: true, ship: true, floor: true };
  var LABELS = { x: "X", o: "O", sunk: "sunk ship", miss: "miss (water shot at)", goal: "goal area",
    goal_piece: "goal piece", last: "last move", failing: "failing move",
    best: "the oracle's choice" };
  var MODIFIERS = { Shift: true, Control: true, Alt: true, Meta: true, CapsLock: true };
  // The SVG namespace, as the parser gives it to the page's own (empty) <svg>.
  var SVG = $("svg-namespace").namespaceURI, palette = embedded.heat_palette, hiddenSeats = {};
  function $(id) { return document.getElementById(id); }
  function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function element(tag, className) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    return node;
  }
  function markOf(state) {
    if (own(MARKS, state)) { return MARKS[state]; }
    return own(PLAIN, state) ? "" : state.charAt(0).toUpperCase();
  }
  function labelOf(name) { return own(LABELS, name) ? LABELS[name] : name.replace(/_/g, " "); }
  function cell(state) {
    var node = element("div", "cell");
    node.setAttribute("data-state", state);
    node.textContent = markOf(state);
    return node;
  }
  function place(node, x, y, width, height) {
    node.style.gridColumn = (x + 2) + " / span " + width;
    node.style.gridRow = (y + 2) + " / span " + height;
  }
  function layersOf(frame) {
    return frame.layers.map(function (at) { return data.moves[at - 1].marks; });
  }
  function drawnBy(at) { return at ? " · drawn at " + at : " · no source line recorded"; }
  function placeIn(node, x, y) {
    node.style.gridColumn = String(x + 1);
    node.style.gridRow = String(y + 1);
  }
  function arrow(mark) {
    var group = document.createElementNS(SVG, "g"), title = document.createElementNS(SVG, "title");
    var line = document.createElementNS(SVG, "line"), head = document.createElementNS(SVG, "polygon");
    var halo = document.createElementNS(SVG, "line");
    var x1 = mark.x + 0.5, y1 = mark.y + 0.5, x2 = mark.to_x + 0.5, y2 = mark.to_y + 0.5;
    var length = Math.max(Math.hypot(x2 - x1, y2 - y1), 0.001), ux = (x2 - x1) / length;
    var uy = (y2 - y1) / length, bx = x2 - ux * 0.4, by = y2 - uy * 0.4;
    title.textContent = "arrow (" + mark.x + ", " + mark.y + ") → (" + mark.to_x + ", "
      + mark.to_y + ")" + drawnBy(mark.at);
    line.setAttribute("x1", String(x1));
    line.setAttribute("y1", String(y1));
    line.setAttribute("x2", String(bx));
    line.setAttribute("y2", String(by));
    line.setAttribute("stroke", mark.colour);
    line.setAttribute("stroke-width", "0.2");
    line.setAttribute("stroke-linecap", "round");
    ["x1", "y1", "x2", "y2", "stroke-linecap"].forEach(function (name) {
      halo.setAttribute(name, line.getAttribute(name));
    });
    halo.setAttribute("stroke", "black");
    halo.setAttribute("stroke-opacity", "0.55");
    halo.setAttribute("stroke-width", "0.34");
    head.setAttribute("points", [x2, y2, bx - uy * 0.26, by + ux * 0.26, bx + uy * 0.26, by - ux * 0.26]
      .map(function (n) { return n.toFixed(3); }).join(" "));
    head.setAttribute("fill", mark.colour);
    head.setAttribute("stroke", "black");
    head.setAttribute("stroke-opacity", "0.55");
    head.setAttribute("stroke-width", "0.07");
    group.setAttribute("class", "arrow");
    group.appendChild(title);
    group.appendChild(halo);
    group.appendChild(line);
    group.appendChild(head);
    return group;
  }
  function drawLayer(layer, grid, size) {
    var node = element("div", "layer"), svg = document.createElementNS(SVG, "svg"), labels = [];
    node.setAttribute("data-seat", String(layer.seat));
    node.hidden = own(hiddenSeats, layer.seat);
    node.style.gridTemplateColumns = "repeat(" + grid.width + ", " + size + "rem)";
    node.style.gridTemplateRows = "repeat(" + grid.height + ", " + size + "rem)";
    place(node, 0, 0, grid.width, grid.height);
    if (layer.heat) {
      layer.heat.levels.forEach(function (level, k) {
        if (level === null) { return; }
        var cell = element("div", "heat"), x = k % layer.heat.width, y = Math.floor(k / layer.heat.width);
        cell.style.background = palette[level];
        cell.setAttribute("data-x", String(x));
        cell.setAttribute("data-y", String(y));
        cell.title = "(" + x + ", " + y + ") heat " + layer.heat.values[k] + drawnBy(layer.heat.at);
        placeIn(cell, x, y);
        node.appendChild(cell);
      });
    }
    svg.setAttribute("viewBox", "0 0 " + grid.width + " " + grid.height);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.style.gridColumn = "1 / -1";
    svg.style.gridRow = "1 / -1";
    layer.marks.forEach(function (mark) {
      var where = "(" + mark.x + ", " + mark.y + ") ", cell;
      if (mark.kind === "arrow") { svg.appendChild(arrow(mark)); return; }
      cell = element("div", mark.kind === "cell" ? "fill" : "label");
      cell.setAttribute("data-x", String(mark.x));
      cell.setAttribute("data-y", String(mark.y));
      if (mark.kind === "cell") {
        cell.style.background = mark.colour;
        cell.title = where + "cell " + mark.colour + drawnBy(mark.at);
      } else {
        cell.style.color = mark.colour;
        cell.textContent = mark.text;
        cell.title = where + "label " + mark.text + drawnBy(mark.at);
      }
      placeIn(cell, mark.x, mark.y);
      if (mark.kind === "cell") { node.appendChild(cell); } else { labels.push(cell); }
    });
    node.appendChild(svg);
    labels.forEach(function (label) { node.appendChild(label); });
    return node;
  }
  function heatLegend(heat) {
    var box = element("span", "heat-legend"), low = element("span", "low");
    var bar = element("span", "bar"), high = element("span", "high"), stops = [], i;
    for (i = 0; i <= 8; i++) { stops.push(palette[Math.round(i * 255 / 8)]); }
    low.textContent = String(heat.low);
    high.textContent = String(heat.high);
    bar.style.background = "linear-gradient(to right, " + stops.join(", ") + ")";
    box.title = "heat map: " + heat.low + " (cold) to " + heat.high + " (hot)" + drawnBy(heat.at);
    box.appendChild(document.createTextNode("heat "));
    box.appendChild(low);
    box.appendChild(bar);
    box.appendChild(high);
    return box;
  }
  function drawNotes(frame) {
    var notes = $("marks-notes"), layers = layersOf(frame);
    notes.textContent = "";
    layers.forEach(function (layer) {
      var note = element("p", "note"), who = element("span", "who");
      note.setAttribute("data-seat", String(layer.seat));
      note.hidden = own(hiddenSeats, layer.seat);
      who.textContent = data.seats[layer.seat] + " · move " + layer.index;
      note.appendChild(who);
      if (layer.status) {
        var status = element("span", "status");
        status.textContent = layer.status.text;
        status.title = "status" + drawnBy(layer.status.at);
        note.appendChild(document.createTextNode(" · "));
        note.appendChild(status);
      }
      if (layer.heat) {
        note.appendChild(document.createTextNode(" · "));
        note.appendChild(heatLegend(layer.heat));
      }
      layer.left_out.forEach(function (line) {
        var left = element("span", "left-out");
        left.textContent = line;
        note.appendChild(document.createTextNode(" · "));
        note.appendChild(left);
      });
      notes.appendChild(note);
    });
  }
  function toggles() {
    var seen = {};
    data.moves.forEach(function (move) { if (move.marks) { seen[move.marks.seat] = true; } });
    Object.keys(seen).sort().forEach(function (seat) {
      var label = element("label"), box = element("input");
      box.type = "checkbox";
      box.checked = true;
      box.setAttribute("data-seat", seat);
      box.addEventListener("change", function () {
        if (box.checked) { delete hiddenSeats[seat]; } else { hiddenSeats[seat] = true; }
        box.blur();
        show(current);
      });
      label.appendChild(box);
      label.appendChild(document.createTextNode(" marks of " + data.seats[seat]));
      $("layer-toggles").appendChild(label);
    });
    return Object.keys(seen).length > 0;
  }
  function toggleMarks() {
    var boxes = Array.prototype.slice.call($("layer-toggles").querySelectorAll("input"));
    if (boxes.length === 0) { $("message").textContent = embedded.no_marks; return; }
    var showAll = boxes.every(function (box) { return !box.checked; });
    boxes.forEach(function (box) {
      box.checked = showAll;
      if (showAll) { delete hiddenSeats[box.getAttribute("data-seat")]; }
      else { hiddenSeats[box.getAttribute("data-seat")] = true; }
    });
    show(current);
  }
  function timeline() {
    return frames.map(function (frame, i) {
      var tick = element("div", "tick"), move = i > 0 ? data.moves[i - 1] : null, what = [];
      tick.setAttribute("data-frame", String(i));
      if (move && move.event) { tick.classList.add(move.event); what.push(move.event); }
      if (move && move.failed) { tick.classList.add("failed"); what.push("failure"); }
      if (move && move.marks) { tick.classList.add("drew"); what.push("drew"); }
      tick.title = (move ? move.label.trim() : "0 start") + (what.length ? " · " + what.join(", ") : "");
      tick.addEventListener("click", function () { pause(); show(i); });
      $("timeline").appendChild(tick);
      return tick;
    });
  }
  function drawGrid(grid, index, frame) {
    var figure = element("figure", "grid"), caption = element("figcaption");
    var cells = element("div", "cells"), x, y, label;
    var size = Math.max(1.6, Math.min(4.5, 21 / Math.max(grid.width, grid.height, 1)));
    caption.textContent = grid.title;
    cells.style.gridTemplateColumns = "1.2rem repeat(" + grid.width + ", " + size + "rem)";
    cells.style.gridTemplateRows = "1.2rem repeat(" + grid.height + ", " + size + "rem)";
    cells.style.fontSize = (size * 0.5) + "rem";
    for (x = 0; x < grid.width; x++) {
      label = element("div", "axis");
      label.textContent = String(x);
      place(label, x, -1, 1, 1);
      cells.appendChild(label);
    }
    for (y = 0; y < grid.height; y++) {
      label = element("div", "axis");
      label.textContent = String(y);
      place(label, -1, y, 1, 1);
      cells.appendChild(label);
    }
    grid.cells.forEach(function (code, k) {
      var state = states[code], node = cell(state), cx = k % grid.width, cy = Math.floor(k / grid.width);
      node.setAttribute("data-x", String(cx));
      node.setAttribute("data-y", String(cy));
      node.title = "(" + cx + ", " + cy + ") " + labelOf(state);
      place(node, cx, cy, 1, 1);
      cells.appendChild(node);
    });
    grid.blocks.forEach(function (block) {
      var node = element("div", "block"), label = element("span");
      node.setAttribute("data-kind", kinds[block.kind]);
      label.textContent = block.label;
      node.appendChild(label);
      place(node, block.x, block.y, block.width, block.height);
      cells.appendChild(node);
    });
    layersOf(frame).forEach(function (layer) {
      if (layer.grid === index) { cells.appendChild(drawLayer(layer, grid, size)); }
    });
    frame.best.forEach(function (spot) {
      if (spot.grid !== index) { return; }
      var node = element("div", "mark best");
      node.title = labelOf("best");
      place(node, spot.x, spot.y, 1, 1);
      cells.appendChild(node);
    });
    frame.touched.forEach(function (spot) {
      if (spot.grid !== index) { return; }
      var node = element("div", frame.failed ? "mark failing" : "mark last");
      node.setAttribute("data-grid", String(spot.grid));
      node.setAttribute("data-x", String(spot.x));
      node.setAttribute("data-y", String(spot.y));
      node.title = labelOf(frame.failed ? "failing" : "last");
      place(node, spot.x, spot.y, 1, 1);
      cells.appendChild(node);
    });
    figure.appendChild(caption);
    figure.appendChild(cells);
    return figure;
  }
  function legend() {
    var box = $("legend");
    function item(swatch, name) {
      var entry = element("span", "item"), text = element("span");
      swatch.classList.add("swatch");
      text.textContent = labelOf(name);
      entry.appendChild(swatch);
      entry.appendChild(text);
      box.appendChild(entry);
    }
    states.forEach(function (state) { item(cell(state), state); });
    kinds.forEach(function (kind) {
      var node = element("span", "block");
      node.setAttribute("data-kind", kind);
      item(node, kind);
    });
    item(element("span", "mark last"), "last");
    if (failureFrame !== null) { item(element("span", "mark failing"), "failing"); }
    if (frames.some(function (frame) { return frame.best.length > 0; })) {
      item(element("span", "mark best"), "best");
    }
  }
  var items = frames.map(function (frame, i) {
    var li = document.createElement("li"), move = i > 0 ? data.moves[i - 1] : null;
    li.textContent = move ? move.label : "  0 start";
    if (move && move.failed) { li.className = "failed"; }
    else if (move && move.wasteful) { li.className = "wasteful"; }
    else if (move && move.judged) { li.className = move.judged.losing ? "losing" : "judged"; }
    li.addEventListener("click", function () { pause(); show(i); });
    $("moves").appendChild(li);
    return li;
  });
  $("scrub").max = String(last);
  var ticks = timeline(), drew = toggles();
  function show(i) {
    current = Math.max(0, Math.min(last, i));
    var frame = frames[current], move = current > 0 ? data.moves[current - 1] : null;
    var picture = $("picture"), pictured = !asText && frame.picture !== null;
    $("frame-title").textContent = frame.title;
    $("board").textContent = frame.board;
    picture.textContent = "";
    if (pictured) {
      frame.picture.grids.forEach(function (grid, index) {
        picture.appendChild(drawGrid(grid, index, frame));
      });
    }
    picture.hidden = !pictured;
    drawNotes(frame);
    $("marks").hidden = !drew;
    ticks.forEach(function (tick, j) { tick.classList.toggle("current", j === current); });
    $("legend").hidden = !pictured;
    $("board").hidden = pictured;
    $("board").classList.toggle("failed", frame.failed);
    picture.classList.toggle("failed", frame.failed);
    $("answer").textContent = move && move.response ? "answer: " + move.response : "";
    $("judged").textContent = move && move.judged ? move.judged.note : "";
    $("cost").textContent = frame.cost ? "cost: " + frame.cost : "";
    $("logs").textContent = frame.logs.length ? frame.logs.join("\n")
      : (move ? "(nothing logged on this move)" : "(the game has not started)");
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
  function jumpToFailure() {
    if (failureFrame === null) { $("message").textContent = embedded.no_failure; return; }
    pause();
    show(failureFrame);
  }
  function cycleSpeed() {
    var select = $("speed");
    select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
    select.dispatchEvent(new Event("change"));
  }
  function goTo() {
    var answer = window.prompt("Go to move (0 is the start, " + last + " the last):");
    if (answer !== null && /^\s*\d+\s*$/.test(answer)) { pause(); show(Number(answer)); }
  }
  function toggleHelp() { $("keys").hidden = !$("keys").hidden; }
  var commands = {
    next: function () { show(current + 1); }, previous: function () { show(current - 1); },
    first: function () { show(0); }, last: function () { show(last); },
    failure: jumpToFailure, goto: goTo, play: play, speed: cycleSpeed, help: toggleHelp,
    marks: toggleMarks
  };
  $("first").addEventListener("click", commands.first);
  $("prev").addEventListener("click", commands.previous);
  $("play").addEventListener("click", play);
  $("next").addEventListener("click", commands.next);
  $("last").addEventListener("click", commands.last);
  $("speed").addEventListener("change", function () { if (timer !== null) { pause(); play(); } });
  $("scrub").addEventListener("input", function () { pause(); show(Number($("scrub").value)); });
  if (failureFrame === null) { $("to-failure").hidden = true; }
  $("to-failure").addEventListener("click", jumpToFailure);
  $("help").addEventListener("click", toggleHelp);
  $("view").hidden = !drawn;
  $("view").addEventListener("click", function () {
    asText = !asText;
    $("view").textContent = asText ? "show board" : "show text";
    show(current);
  });
  document.addEventListener("keydown", function (event) {
    var tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || event.ctrlKey || event.metaKey || event.altKey
      || own(MODIFIERS, event.key)) { return; }
    $("message").textContent = "";
    if (!$("keys").hidden) { event.preventDefault(); toggleHelp(); return; }
    if (own(embedded.keys, event.key) && own(commands, embedded.keys[event.key])) {
      event.preventDefault();
      commands[embedded.keys[event.key]]();
    }
  });
  if (drawn) { legend(); }
  show(embedded.start);
})();
"#;

/// What the page embeds: the replay, the frame to open at, and the keys.
#[derive(Serialize)]
struct Embedded<'a> {
    start: usize,
    replay: &'a Replay,
    /// Each key the page answers (by its browser name) and the command it runs there.
    keys: BTreeMap<String, &'static str>,
    /// What `f` says in a game without a failure.
    no_failure: &'static str,
    /// What `m` says in a game where no bot drew.
    no_marks: &'static str,
    /// The heat palette as CSS, 256 steps from cold to hot: a heat map's levels index it.
    heat_palette: Vec<String>,
}

/// The keys of the viewer's bindings that the page answers, with their commands' page names.
fn page_keys() -> BTreeMap<String, &'static str> {
    BINDINGS
        .iter()
        .filter_map(|&(key, command)| Some((key.browser_name(), command.page_name()?)))
        .collect()
}

/// The page's key help: the viewer's, for the commands the page has.
fn keys_section() -> String {
    let rows: String = help_lines(|command| command.page_name().is_some())
        .iter()
        .map(|(keys, what)| {
            format!("<tr><th>{}</th><td>{}</td></tr>\n", escape(keys), escape(what))
        })
        .collect();
    format!(
        "<section id=\"keys\" hidden>\n<h2>keys</h2>\n<table>\n{rows}</table>\n\
         <p class=\"dim\">{}</p>\n</section>\n",
        escape(HELP_NOTE)
    )
}

/// The page for `replay`, opening at frame `start` (clamped to the last).
pub fn page(replay: &Replay, start: usize) -> String {
    let start = start.min(replay.move_count());
    let heat_palette = (0..=255u8).map(|level| Colour::Intensity(level).css()).collect::<Vec<_>>();
    let embedded = Embedded {
        start,
        replay,
        keys: page_keys(),
        no_failure: NO_FAILURE,
        no_marks: NO_MARKS,
        heat_palette,
    };
    let data = script_json(&embedded);
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
<div id="picture" hidden></div>
<pre id="board"></pre>
<div id="legend" hidden></div>
<div id="marks" hidden>
<div id="layer-toggles"></div>
<div id="marks-notes"></div>
</div>
<svg id="svg-namespace" hidden></svg>
<div id="timeline" aria-label="timeline: a tick per move, hits, sinks and the failure marked"></div>
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
<button id="view" title="the board drawn, or as text" hidden>show text</button>
<button id="help" title="the keys (?)">keys</button>
<input id="scrub" type="range" min="0" value="0" aria-label="move">
<span id="position"></span>
</div>
<p id="message" class="dim"></p>
{keys}<p id="answer" class="dim"></p>
<p id="judged"></p>
<p id="cost" class="dim"></p>
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
        keys = keys_section(),
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
    let stack = match failure.stack.is_empty() {
        true => String::new(),
        false => format!("<pre class=\"stack\">{}</pre>\n", escape(&failure.stack.join("\n"))),
    };
    format!(
        "<section id=\"failure\">\n<h2>failure · {when} · {who}</h2>\n\
         <p><span class=\"kind\">{kind}</span>: {message}</p>\n{location}\n{source}\n{stack}</section>\n",
        when = escape(&failure.when()),
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
    use botlens_battleships::Battleships;
    use botlens_engine::runner::play_match;
    use botlens_engine::{Game, MatchLimits, PlayerInfo, Trace};
    use botlens_klotski::{Klotski, Layout};
    use serde_json::json;

    use super::*;
    use crate::fixtures::{
        Typed, assert_printable, bot_project, failed_game, hostile_game, marked_game,
    };

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
        assert!(
            failure.contains("failure · move 5 (the bot&#39;s turn 3) · seat 0 (my-bot)"),
            "{failure}"
        );
        assert!(failure.contains("<span class=\"kind\">illegal_move</span>: illegal move mark(1, 1): square (1, 1) is taken by X"), "{failure}");
        assert!(failure.contains("at <code>src/lib.rs:3:6</code>"), "{failure}");
        assert!(
            failure.contains("<pre class=\"stack\">call stack, innermost first:\n  my_bot::play  src/lib.rs:3:6  (+2 std/SDK frames)\n"),
            "{failure}"
        );
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
    fn a_judged_page_carries_each_costly_moves_note_and_the_oracles_cells() {
        let seed = (0..)
            .find(|&seed| {
                crate::fixtures::reference_game(seed).0.result_for(0)
                    == botlens_engine::SeatResult::Loss
            })
            .expect("random loses somewhere");
        let trace = crate::fixtures::reference_game(seed).1;
        let data = embedded(&page(&Replay::judged_from_trace(&trace, None).expect("replays"), 0));
        let moves = data["replay"]["moves"].as_array().unwrap();
        let losing = moves.iter().find(|m| m["judged"]["losing"] == true).expect("a losing move");
        assert!(
            losing["judged"]["note"].as_str().unwrap().starts_with("the move that lost the game: ")
        );
        let frame = &data["replay"]["frames"][losing["turn"].as_u64().unwrap() as usize];
        assert_eq!(frame["best"].as_array().map(Vec::len), Some(1), "{frame}");
        let html = page(&Replay::judged_from_trace(&trace, None).expect("replays"), 0);
        assert!(html.contains(r#"<p id="judged"></p>"#) && html.contains(".mark.best"));
    }

    #[test]
    fn the_page_embeds_each_frames_drawing_and_the_cells_its_move_touched() {
        let (_, html) = failed_page();
        let data = embedded(&html);
        let replay = &data["replay"];
        assert_eq!(replay["cell_states"], json!(["empty", "x", "o"]));
        assert_eq!(replay["block_kinds"], json!([]));
        let first = &replay["frames"][1];
        assert_eq!(first["touched"], json!([{ "grid": 0, "x": 1, "y": 1 }]));
        let grid = &first["picture"]["grids"][0];
        assert_eq!(grid["title"], "seat 0 plays X, seat 1 plays O");
        assert_eq!((&grid["width"], &grid["height"]), (&json!(3), &json!(3)));
        assert_eq!(grid["cells"], json!([0, 0, 0, 0, 1, 0, 0, 0, 0]), "X in the centre");
        assert_eq!(grid["blocks"], json!([]));
        let failing = &replay["frames"][5];
        assert_eq!((&failing["failed"], &failing["touched"]), (&json!(true), &first["touched"]));
        assert_eq!(replay["frames"][0]["touched"], json!([]));
        assert_eq!(
            replay["frames"][0]["picture"]["grids"][0]["cells"],
            json!([0, 0, 0, 0, 0, 0, 0, 0, 0])
        );
    }

    #[test]
    fn the_page_answers_the_viewers_keys_and_lists_them_from_its_help() {
        let (_, html) = failed_page();
        let keys = &embedded(&html)["keys"];
        let expected = json!({
            "ArrowRight": "next", "l": "next", "n": "next",
            "ArrowLeft": "previous", "h": "previous", "p": "previous",
            "Home": "first", "End": "last", "f": "failure", "g": "goto", " ": "play",
            "s": "speed", "?": "help", "m": "marks",
        });
        assert_eq!(keys, &expected, "the terminal's keys, but for its log scrolling and quit");
        for command in expected.as_object().expect("an object").values() {
            let handler = format!("{}: ", command.as_str().expect("a name"));
            assert!(SCRIPT.contains(&handler), "the script has no command `{command}`");
        }
        let help = &html[html.find("<section id=\"keys\" hidden>").expect("key help")..];
        let help = &help[..help.find("</section>").expect("closed")];
        assert!(help.contains("<tr><th>→  l  n</th><td>next move</td></tr>"), "{help}");
        assert!(help.contains("<tr><th>Home / End</th><td>start / last move</td></tr>"), "{help}");
        assert!(help.contains("<tr><th>?</th><td>this help (any key closes it)</td></tr>"));
        assert!(!help.contains("PgUp") && !help.contains("quit"), "{help}");
        assert!(help.contains(
            "<tr><th>m</th><td>show / hide what the bots drew on their boards</td></tr>"
        ));
        assert_eq!(help.matches("<tr>").count(), 9, "{help}");
    }

    /// A Battleships game that lasts its whole 400-move cap: each seat hits every square of the
    /// other's fleet but one, then shoots at water, over and over.
    fn a_400_move_battleships_game() -> Trace {
        let seed = 5;
        let game = Battleships::new(&(), seed);
        let shots = |target: usize| -> Vec<String> {
            let ships: Vec<(usize, usize)> =
                game.fleet(target).iter().flat_map(|ship| ship.cells()).collect();
            let water: Vec<(usize, usize)> = (0..100)
                .map(|cell| (cell % 10, cell / 10))
                .filter(|s| !ships.contains(s))
                .collect();
            let hits = ships[..ships.len() - 1].iter();
            hits.chain(water.iter().cycle()).take(400).map(|(x, y)| format!("{x} {y}")).collect()
        };
        let (first, second) = (shots(1), shots(0));
        let typed = |shots: &[String]| {
            Typed::<Battleships>::new(&shots.iter().map(String::as_str).collect::<Vec<_>>())
        };
        let (mut a, mut b) = (typed(&first), typed(&second));
        let record =
            play_match::<Battleships>(&(), seed, &mut [&mut a, &mut b], &MatchLimits::default());
        record.to_trace(vec![PlayerInfo::reference("a"), PlayerInfo::reference("b")], json!({}))
    }

    #[test]
    fn a_400_move_battleships_page_stays_well_under_a_megabyte_and_a_half() {
        let replay = Replay::from_trace(&a_400_move_battleships_game(), None).expect("replays");
        assert_eq!(replay.move_count(), 400);
        assert!(replay.result.starts_with("draw: move cap of 400 reached"), "{}", replay.result);
        assert_eq!(replay.cell_states, ["water", "ship", "hit", "sunk", "miss"]);
        let size = page(&replay, 0).len();
        assert!(size < 1_500_000, "the page is {size} bytes");
    }

    #[test]
    fn hostile_names_in_a_klotski_layout_stay_text_in_the_drawing() {
        let markup = "</script><b>";
        let layout = Layout::parse(&format!(
            "name: <img src=x onerror=alert(1)>\nboard:\n  CC.\n  CC.\n  ...\nlegend:\n  C cc {markup}\ngoal: cc 1 1\n"
        ))
        .expect("a valid layout: names may hold markup");
        let mut player = Typed::<Klotski>::new(&["cc right"]);
        let record = play_match::<Klotski>(&layout, 0, &mut [&mut player], &MatchLimits::default());
        let trace = record.to_trace(vec![PlayerInfo::reference(markup)], json!({}));
        let replay = Replay::from_trace(&trace, None).expect("replays");
        let html = page(&replay, 1);
        assert_eq!(html.matches("</script>").count(), 2, "only the page's own scripts close");
        assert!(!html.contains("<b>") && !html.contains("<img"), "raw markup leaked");
        let grid = &embedded(&html)["replay"]["frames"][1]["picture"]["grids"][0];
        assert_eq!(grid["title"], "<img src=x onerror=alert(1)> · 1 step (1 move)");
        assert_eq!(grid["blocks"][1]["label"], format!("{markup}\ncc"), "the JSON keeps the text");
        assert!(!SCRIPT.contains("innerHTML") && !SCRIPT.contains("insertAdjacentHTML"));
    }

    /// The page of the fixture game whose bots drew, at move 30.
    fn marked_page() -> String {
        page(&Replay::from_trace(&marked_game(), None).expect("replays"), 30)
    }

    #[test]
    fn the_page_embeds_each_moves_marks_and_the_layers_each_frame_shows() {
        let data = embedded(&marked_page());
        let replay = &data["replay"];
        assert_eq!(replay["frames"][30]["layers"], json!([30, 29]));
        let marks = &replay["moves"][29]["marks"];
        assert_eq!(
            (&marks["seat"], &marks["grid"], &marks["index"]),
            (&json!(0), &json!(1), &json!(30))
        );
        assert_eq!(
            marks["marks"][0],
            json!({ "x": 5, "y": 8, "colour": "#e03131", "at": "src/lib.rs:20", "kind": "cell" })
        );
        assert_eq!(
            marks["marks"][1],
            json!({ "x": 2, "y": 8, "colour": "#2f9e44", "at": null, "kind": "arrow", "to_x": 5, "to_y": 8 })
        );
        assert_eq!(marks["marks"][2]["text"], "p=.9");
        let heat = &marks["heat"];
        assert_eq!(
            (&heat["low"], &heat["high"], &heat["width"]),
            (&json!(4.0), &json!(10.0), &json!(10))
        );
        assert_eq!((&heat["levels"][85], &heat["values"][85]), (&json!(255), &json!(10.0)));
        assert_eq!(
            marks["status"],
            json!({ "text": "hunting: 3 ships left", "at": "src/lib.rs:30" })
        );
        assert_eq!(marks["left_out"], json!(["1 mark off the board left out", "3 marks dropped"]));
        let palette = data["heat_palette"].as_array().expect("a palette");
        assert_eq!(palette.len(), 256);
        assert_eq!((&palette[0], &palette[255]), (&json!("#212d6e"), &json!("#d73228")));
        assert_eq!(replay["moves"][29]["event"], "hit");
        assert_eq!(replay["moves"][0]["marks"], json!(null));
    }

    #[test]
    fn a_hostile_label_stays_text_in_the_page() {
        let html = marked_page();
        assert_printable(&html);
        assert_eq!(html.matches("</script>").count(), 2, "only the page's own scripts close");
        assert!(!html.contains("<b>"), "raw markup leaked");
        let label = &embedded(&html)["replay"]["moves"][29]["marks"]["marks"][3]["text"];
        assert_eq!(label, r"x\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{202e}</script><b>x");
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("] {
            assert!(!SCRIPT.contains(sink), "the script uses {sink}");
        }
    }

    #[test]
    fn the_page_has_a_place_for_the_marks_their_toggles_and_the_timeline() {
        let html = marked_page();
        for element in [
            "<div id=\"marks\" hidden>\n<div id=\"layer-toggles\"></div>\n<div id=\"marks-notes\"></div>\n</div>",
            "<div id=\"timeline\" aria-label=",
        ] {
            assert!(html.contains(element), "no {element}");
        }
        // The script draws what the data says: each part of a layer has its handler.
        for part in [
            "layer.heat.levels",
            "palette[level]",
            "layer.status",
            "layer.left_out",
            "\"checkbox\"",
            "move.event",
            "move.failed",
        ] {
            assert!(SCRIPT.contains(part), "the script never reads {part}");
        }
    }

    #[test]
    fn the_page_opens_at_the_requested_frame_clamped_to_the_game() {
        let (replay, _) = failed_page();
        assert_eq!(embedded(&page(&replay, 99))["start"], 5);
    }
}

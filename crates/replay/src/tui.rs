//! The full-screen terminal viewer: [`draw`] paints one screen of a [`Replay`] as the [`Viewer`]
//! state says (board, move list, log lines, result and failure, status bar, help overlay), and
//! [`run`] owns the terminal — raw mode and the alternate screen, restored on exit and on panic —
//! and feeds key presses and autoplay ticks to the viewer.
//!
//! Drawing is separate from the terminal so it can be tested on ratatui's `TestBackend`.

use std::io;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Clear, List, ListItem, ListState, Padding, Paragraph, Wrap};

use botlens_engine::Trace;
use botlens_engine::drawing::heat_rgb;

use crate::viewer::{Control, HELP_NOTE, Key, Viewer, help_lines};
use crate::{Overlay, Paint, PlayOnHook, Replay};

/// How long to wait for a key when nothing is playing, before drawing again anyway.
const IDLE_WAIT: Duration = Duration::from_secs(60);

/// Width bounds of the move list column.
const MOVES_WIDTH: (u16, u16) = (18, 44);

/// The result panel's height is capped so the board keeps the screen.
const MAX_RESULT_LINES: usize = 8;

/// The cap on the failing move's frame, where the panel adds the call stack.
const MAX_FAILURE_LINES: usize = 14;

/// Runs the viewer on the terminal from frame `start` until the user quits. With `play_on`,
/// the `c` key plays the game shown on from the current move and shows the game played on.
///
/// The terminal is put back (raw mode off, main screen) when this returns, whether by quitting
/// or by an error, and by a panic hook if anything panics meanwhile.
pub fn run(
    trace: Trace,
    replay: Replay,
    start: usize,
    play_on: Option<PlayOnHook<'_>>,
) -> io::Result<()> {
    let (mut trace, mut replay) = (trace, replay);
    let mut terminal = ratatui::try_init()?;
    let _restore = RestoreOnDrop;
    let mut viewer = Viewer::new(&replay, start);
    let mut next_tick: Option<Instant> = None;
    loop {
        terminal.draw(|frame| draw(frame, &replay, &viewer))?;
        next_tick = viewer
            .tick_interval()
            .map(|interval| next_tick.unwrap_or_else(|| Instant::now() + interval));
        let wait =
            next_tick.map_or(IDLE_WAIT, |tick| tick.saturating_duration_since(Instant::now()));
        if event::poll(wait)?
            && let Event::Key(press) = event::read()?
            && press.kind == KeyEventKind::Press
        {
            if is_interrupt(press) {
                return Ok(());
            }
            match key_of(press.code).map(|key| viewer.handle(key)) {
                Some(Control::Quit) => return Ok(()),
                Some(Control::PlayOn(at)) => {
                    let Some(play_on) = play_on else {
                        viewer.say(NO_PLAY_ON);
                        continue;
                    };
                    viewer.say(format!("playing on from move {at}… (building the bot if needed)"));
                    terminal.draw(|frame| draw(frame, &replay, &viewer))?;
                    match play_on(&trace, at).and_then(|played| {
                        let shown =
                            Replay::from_trace(&played.trace, played.source_root.as_deref())
                                .map_err(|error| error.to_string())?;
                        Ok((played, shown))
                    }) {
                        Ok((played, shown)) => {
                            viewer = Viewer::new(&shown, at);
                            viewer.say(played.summary);
                            (trace, replay) = (played.trace, shown);
                        }
                        Err(message) => viewer.say(message),
                    }
                }
                Some(Control::Continue) | None => {}
            }
        }
        if next_tick.is_some_and(|tick| Instant::now() >= tick) {
            viewer.tick();
            next_tick = None;
        }
    }
}

/// What `c` says where nothing can play a game on.
const NO_PLAY_ON: &str = "playing on is not available here";

/// Puts the terminal back when the viewer ends, however it ends.
struct RestoreOnDrop;

impl Drop for RestoreOnDrop {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

/// Ctrl-C: raw mode delivers it as a key, and it should quit like `q`.
fn is_interrupt(press: KeyEvent) -> bool {
    press.modifiers.contains(KeyModifiers::CONTROL) && press.code == KeyCode::Char('c')
}

/// The viewer's key for a terminal key code, if it has one.
fn key_of(code: KeyCode) -> Option<Key> {
    Some(match code {
        KeyCode::Right => Key::Right,
        KeyCode::Left => Key::Left,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Char(c) => Key::Char(c),
        _ => return None,
    })
}

/// How the cells the shown move touched are drawn on the board.
const LAST_MOVE: Style =
    Style::new().fg(Color::Cyan).add_modifier(Modifier::REVERSED.union(Modifier::BOLD));

/// How the cells of the oracle's choice are drawn after a costly move (a judged replay):
/// underlined, so that the last move stays the one reversed cell.
const BEST_MOVE: Style =
    Style::new().fg(Color::Green).add_modifier(Modifier::UNDERLINED.union(Modifier::BOLD));

/// How a judged move's note is written.
const JUDGED: Style = Style::new().fg(Color::Yellow);

/// How the cells of the failing move are drawn on the board.
const FAILING_MOVE: Style =
    Style::new().fg(Color::Red).add_modifier(Modifier::REVERSED.union(Modifier::BOLD));

/// The fewest rows of the log and of the result panel, borders included.
const MIN_PANEL: u16 = 3;

/// Draws one screen: title, board and log on the left, moves on the right, the result and
/// failure below, the status bar at the bottom, and the help overlay on top when open. The
/// cells the shown move touched are highlighted on the board.
///
/// The board is never cut: where the screen is too small for everything, the move list gives
/// way first (to the width), then the log, then the result panel (to the height); a screen too
/// small for the board itself, the title and the status bar says so and what size it needs.
pub fn draw(frame: &mut Frame, replay: &Replay, viewer: &Viewer) {
    let current = viewer.current().min(replay.frames.len().saturating_sub(1));
    let Some(shown) = replay.frames.get(current) else { return };
    let area = frame.area();
    // Lines of text wider than the board's cells (a long status line) may be cut at the edge.
    let text_width = Text::raw(shown.board.as_str()).width() as u16 + 4;
    let cells_width = match shown.cells_width {
        0 => text_width,
        cells => u16::try_from(cells).map_or(u16::MAX, |cells| cells.saturating_add(4)),
    };
    // What the bots drew is said in lines as wide as the board's cells, under them.
    let marks = match viewer.marks_shown() {
        true => marks_lines(replay, current, usize::from(cells_width.saturating_sub(4))),
        false => Vec::new(),
    };
    let board_height = (shown.board.lines().count() + marks.len()) as u16 + 2;
    let needed = (cells_width, 1 + board_height + 1);
    if area.width < needed.0 || area.height < needed.1 {
        draw_too_small(frame, needed);
        return;
    }
    // The board keeps all its rows: the log gives way first, then the result panel.
    let spare = area.height - needed.1;
    let log_rows = if spare >= 2 * MIN_PANEL { MIN_PANEL } else { 0 };
    let cap =
        if replay.failure_frame() == Some(current) { MAX_FAILURE_LINES } else { MAX_RESULT_LINES };
    let result_height = match (spare - log_rows).checked_sub(2) {
        Some(room @ 1..) => {
            let room = usize::from(room).min(cap);
            let result = result_lines(replay, current, room);
            Some((result.len().min(room) as u16 + 2, result))
        }
        _ => None,
    };
    let [title, body, result_area, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(board_height),
        Constraint::Length(result_height.as_ref().map_or(0, |(height, _)| *height)),
        Constraint::Length(1),
    ])
    .areas(area);

    // The board keeps its full width (both Battleships grids); the move list gives way first.
    let (left, moves_area) = if body.width >= cells_width.saturating_add(MOVES_WIDTH.0) {
        let longest = replay.moves.iter().map(|m| m.label.chars().count()).max().unwrap_or(0);
        let moves_width = (longest as u16 + 4).clamp(MOVES_WIDTH.0, MOVES_WIDTH.1);
        let [left, moves_area] = Layout::horizontal([
            Constraint::Min(text_width.min(body.width - MOVES_WIDTH.0)),
            Constraint::Length(moves_width),
        ])
        .areas(body);
        (left, Some(moves_area))
    } else {
        (body, None)
    };
    let [board_area, log_area] =
        Layout::vertical([Constraint::Length(board_height), Constraint::Min(0)]).areas(left);

    let heading = format!(
        " botlens replay · {} · seed {} · {}",
        replay.game,
        replay.seed,
        replay.seats.join(" · ")
    );
    frame.render_widget(
        Paragraph::new(heading).style(Style::new().add_modifier(Modifier::REVERSED)),
        title,
    );

    draw_board(frame, replay, current, board_area, marks);
    if log_area.height >= MIN_PANEL {
        let log = log_panel(replay, current, viewer.log_scroll(), log_area.height);
        frame.render_widget(log, log_area);
    }
    if let Some(moves_area) = moves_area {
        draw_moves(frame, replay, current, moves_area);
    }

    if let Some((_, result)) = result_height {
        let on_failure = replay.failure_frame() == Some(current);
        let result_title = match replay.failure_frame() {
            Some(index) if index != current => {
                format!(" result · failure at move {index}: press f ")
            }
            Some(_) => " result · the failing move ".to_owned(),
            None => " result ".to_owned(),
        };
        let result_block = panel(result_title);
        let result_block =
            if on_failure { result_block.border_style(FAILED) } else { result_block };
        // A judged move's note (a judged replay), on the full-width panel's lower border.
        let judged = current.checked_sub(1).and_then(|i| replay.moves.get(i)?.judged.as_ref());
        let room = usize::from(result_area.width).saturating_sub(4);
        let result_block = match judged.and_then(|j| fitted(&format!(" {} ", j.note), room)) {
            Some(note) => result_block.title_bottom(Line::styled(note, JUDGED)),
            None => result_block,
        };
        frame.render_widget(Paragraph::new(Text::from(result)).block(result_block), result_area);
    }

    frame.render_widget(status_line(replay, viewer), status);
    if viewer.help_shown() {
        draw_help(frame);
    }
}

/// The colour of what failed: the failing move's board and result borders.
const FAILED: Style = Style::new().fg(Color::Red);

/// The board of frame `current` in its panel, the game's answer below it and the cells the
/// move touched highlighted; with `marks` (a line for each seat's, see [`marks_lines`]) what
/// the bots drew over it too, and those lines under it.
fn draw_board(
    frame: &mut Frame,
    replay: &Replay,
    current: usize,
    area: Rect,
    marks: Vec<Line<'static>>,
) {
    let shown = &replay.frames[current];
    let block = panel(format!(" {} ", shown.title));
    let block = if shown.failed { block.border_style(FAILED) } else { block };
    let answer = current.checked_sub(1).and_then(|i| replay.moves.get(i)?.response.as_ref());
    let block = match answer {
        Some(answer) => block.title_bottom(format!(" answer: {answer} ")),
        None => block,
    };
    let inside = block.inner(area);
    let mut text = Text::raw(shown.board.as_str());
    let overlaid = !marks.is_empty();
    text.lines.extend(marks);
    frame.render_widget(Paragraph::new(text).block(block), area);
    let style = if shown.failed { FAILING_MOVE } else { LAST_MOVE };
    let buffer = frame.buffer_mut();
    if overlaid {
        for overlay in &shown.overlay {
            paint(buffer, inside, overlay);
        }
    }
    let best = shown.best_text.iter().map(|cell| (cell, BEST_MOVE));
    for (cell, style) in shown.touched_text.iter().map(|cell| (cell, style)).chain(best) {
        let (Ok(line), Ok(column), Ok(width)) =
            (u16::try_from(cell.line), u16::try_from(cell.column), u16::try_from(cell.width))
        else {
            continue;
        };
        let y = inside.y.saturating_add(line);
        let columns =
            inside.x.saturating_add(column)..inside.x.saturating_add(column).saturating_add(width);
        for x in columns.filter(|&x| inside.contains((x, y).into())) {
            buffer[(x, y)].set_style(style);
        }
    }
}

/// `text` in at most `room` characters, cut with `…` when it is longer; `None` when the room
/// is too small to say anything.
fn fitted(text: &str, room: usize) -> Option<String> {
    const LEAST: usize = 12;
    match text.chars().count() {
        n if n <= room => Some(text.to_owned()),
        _ if room < LEAST => None,
        _ => Some(format!("{}… ", text.chars().take(room - 2).collect::<String>())),
    }
}

/// A colour of the palette (`0xRRGGBB`) for the terminal.
fn rgb(rgb: u32) -> Color {
    let [_, r, g, b] = rgb.to_be_bytes();
    Color::Rgb(r, g, b)
}

/// Black or white, whichever reads better on `background` (`0xRRGGBB`).
fn ink_on(background: u32) -> Color {
    let [_, r, g, b] = background.to_be_bytes();
    let luma = 299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b);
    if luma > 150_000 { Color::Black } else { Color::White }
}

/// The heat palette's colour at `level` (0–255).
fn heat(level: u8) -> u32 {
    heat_rgb(f32::from(level) / 255.0)
}

/// Draws one mark over the board's text, inside `inside` (the board panel's inner area):
/// shading, a cell's fill, an arrow's glyph or a label's text.
fn paint(buffer: &mut Buffer, inside: Rect, overlay: &Overlay) {
    let (Ok(line), Ok(column), Ok(width)) = (
        u16::try_from(overlay.cell.line),
        u16::try_from(overlay.cell.column),
        u16::try_from(overlay.cell.width),
    ) else {
        return;
    };
    let (x, y) = (inside.x.saturating_add(column), inside.y.saturating_add(line));
    if !inside.contains((x, y).into()) {
        return;
    }
    let room = inside.right() - x;
    match &overlay.paint {
        Paint::Heat(level) => shade(buffer, (x, y), width.min(room), heat(*level)),
        Paint::Fill(colour) => shade(buffer, (x, y), width.min(room), *colour),
        Paint::Arrow(glyph, colour) => {
            buffer[(x, y)].set_char(*glyph).set_style(MARK.fg(rgb(*colour)));
        }
        Paint::Label(text, colour) => {
            buffer.set_stringn(x, y, text, usize::from(room), MARK.fg(rgb(*colour)));
        }
    }
}

/// How arrows and labels are written over the board.
const MARK: Style = Style::new().add_modifier(Modifier::BOLD);

/// Shades `width` cells from `(x, y)` with `colour` (`0xRRGGBB`), their text in ink that reads
/// on it.
fn shade(buffer: &mut Buffer, (x, y): (u16, u16), width: u16, colour: u32) {
    let style = Style::new().bg(rgb(colour)).fg(ink_on(colour));
    for x in x..x.saturating_add(width) {
        buffer[(x, y)].set_style(style);
    }
}

/// What the marks frame `current` shows are, for each seat: who drew during which move, its
/// status line, its heat map's range on the palette, and what was left out or dropped, packed
/// into lines of `width` columns.
fn marks_lines(replay: &Replay, current: usize, width: usize) -> Vec<Line<'static>> {
    let Some(shown) = replay.frames.get(current) else { return Vec::new() };
    let layers = shown.layers.iter().filter_map(|&at| replay.moves.get(at - 1)?.marks.as_ref());
    let mut lines = Vec::new();
    for layer in layers {
        let who = format!("seat {} · move {}", layer.seat, layer.index);
        let mut items = vec![vec![Span::styled(who, Style::new().add_modifier(Modifier::BOLD))]];
        if let Some(status) = &layer.status {
            items.push(vec![Span::raw(status.text.clone())]);
        }
        if let Some(map) = &layer.heat {
            let mut legend = vec![Span::raw(format!("heat {} ", map.low))];
            legend.extend(
                (0..HEAT_LEGEND)
                    .map(|i| f32::from(i) / f32::from(HEAT_LEGEND - 1))
                    .map(|t| Span::styled("█", Style::new().fg(rgb(heat_rgb(t))))),
            );
            legend.push(Span::raw(format!(" {}", map.high)));
            items.push(legend);
        }
        items.extend(layer.left_out.iter().map(|line| vec![Span::raw(line.clone())]));
        lines.extend(pack(items, width));
    }
    lines
}

/// `items` packed into lines of at most `width` columns, ` · ` between two items of a line; an
/// item wider than that has a line of its own (cut at the edge).
fn pack(items: Vec<Vec<Span<'static>>>, width: usize) -> Vec<Line<'static>> {
    const BETWEEN: &str = " · ";
    let mut lines: Vec<Line> = Vec::new();
    for item in items {
        let item = Line::from(item);
        match lines.last_mut() {
            Some(line) if line.width() + BETWEEN.len() - 1 + item.width() <= width => {
                line.spans.push(Span::raw(BETWEEN));
                line.spans.extend(item.spans);
            }
            _ => lines.push(item),
        }
    }
    lines
}

/// How many steps of the palette a heat map's legend shows.
const HEAT_LEGEND: u16 = 8;

/// What shows instead of the replay on a screen too small for the board: the size it has and
/// the size it needs.
fn draw_too_small(frame: &mut Frame, (width, height): (u16, u16)) {
    let area = frame.area();
    let message = format!(
        "terminal too small: {}×{}, this board needs {width}×{height} (q quits)",
        area.width, area.height
    );
    let paragraph = Paragraph::new(message).wrap(Wrap { trim: true }).style(FAILED);
    frame.render_widget(paragraph, area);
}

/// The log lines of the move that led to frame `current`, from line `scroll`, saying which
/// lines show when they do not all fit in `height`.
fn log_panel(replay: &Replay, current: usize, scroll: usize, height: u16) -> Paragraph<'_> {
    let dim = Style::new().add_modifier(Modifier::DIM);
    let Some(played) = current.checked_sub(1).and_then(|i| replay.moves.get(i)) else {
        let waiting = Line::styled("(the game has not started)", dim);
        return Paragraph::new(waiting).block(panel(" log ".into()));
    };
    let mut title = format!(" log · move {} · seat {} ", played.turn, played.seat);
    if let Some(cost) = &replay.frames[current].cost {
        title.push_str(&format!("· {cost} "));
    }
    let logs = &replay.frames[current].logs;
    if logs.is_empty() {
        let nothing = Line::styled("(nothing logged on this move)", dim);
        return Paragraph::new(nothing).block(panel(title));
    }
    let visible = usize::from(height.saturating_sub(2)).max(1);
    let first = scroll.min(logs.len() - 1);
    let shown: Vec<Line> =
        logs[first..].iter().take(visible).map(|l| Line::raw(l.as_str())).collect();
    if shown.len() == logs.len() {
        return Paragraph::new(shown).block(panel(title));
    }
    let last = first + shown.len();
    title.push_str(&format!("· lines {}–{last} of {} ", first + 1, logs.len()));
    Paragraph::new(shown).block(panel(title).title_bottom(" PgUp/PgDn scroll "))
}

/// A bordered panel with a title and a space inside the side borders.
fn panel(title: String) -> Block<'static> {
    Block::bordered().title(title).padding(Padding::horizontal(1))
}

/// The move list, the current move highlighted and kept in view.
fn draw_moves(frame: &mut Frame, replay: &Replay, current: usize, area: Rect) {
    let start = ListItem::new("  0 start");
    let items = std::iter::once(start).chain(replay.moves.iter().map(|played| {
        let style = if played.failed {
            Style::new().fg(Color::Red)
        } else if played.wasteful {
            Style::new().fg(Color::Yellow)
        } else {
            Style::new()
        };
        ListItem::new(played.label.as_str()).style(style)
    }));
    let list = List::new(items)
        .block(Block::bordered().title(format!(" moves ({}) ", replay.move_count())))
        .highlight_style(Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD))
        .highlight_symbol("▶");
    let mut state = ListState::default().with_selected(Some(current));
    frame.render_stateful_widget(list, area, &mut state);
}

/// How the game ended, then the failure panel (source line included) when a fault ended it,
/// with the call stack on the failing move's frame: frame by frame when `room` lines allow it,
/// else on one line.
fn result_lines(replay: &Replay, current: usize, room: usize) -> Vec<Line<'static>> {
    let mut lines =
        vec![Line::styled(replay.result.clone(), Style::new().add_modifier(Modifier::BOLD))];
    if let Some(failure) = &replay.failure {
        let (style, text) = if failure.index == current {
            let mut text = failure.lines();
            if text.len() + 1 > room && !failure.stack_line.is_empty() {
                text = failure.summary_lines();
                text.push(format!("stack: {}", failure.stack_line));
            }
            (Style::new().fg(Color::Red), text)
        } else {
            (Style::new(), failure.summary_lines())
        };
        lines.extend(text.into_iter().map(|line| Line::styled(line, style)));
    }
    lines
}

/// The bottom line: position, play state and speed, then the go-to prompt, a message or the
/// key hints.
fn status_line<'a>(replay: &Replay, viewer: &'a Viewer) -> Paragraph<'a> {
    let play = if viewer.playing() { "▶ playing" } else { "⏸ paused" };
    let own = if viewer.own_moves_only() { " · own moves" } else { "" };
    let position = format!(
        " move {}/{} · {play} · {}{own} ",
        viewer.current(),
        replay.move_count(),
        viewer.speed().label()
    );
    let rest = match (viewer.goto_prompt(), viewer.message()) {
        (Some(digits), _) => Span::styled(
            format!("│ go to move: {digits}▏ Enter go · Esc cancel"),
            Style::new().fg(Color::Cyan),
        ),
        (None, Some(message)) => {
            Span::styled(format!("│ {message}"), Style::new().fg(Color::Yellow))
        }
        // With marks, `m` takes the place of `f` (which the help still lists).
        (None, None) if replay.has_marks() => Span::raw("│ ←→ step · m marks · ? help · q quit"),
        (None, None) => Span::raw("│ ←→ step · f failure · ? help · q quit"),
    };
    Paragraph::new(Line::from(vec![
        Span::styled(position, Style::new().add_modifier(Modifier::BOLD)),
        rest,
    ]))
}

/// The key list, centred over the screen.
fn draw_help(frame: &mut Frame) {
    let mut help = help_lines(|_| true);
    help.push((String::new(), HELP_NOTE));
    let width = help.iter().map(|(_, what)| 15 + what.chars().count()).max().unwrap_or(0);
    let lines: Vec<Line> = help
        .into_iter()
        .map(|(keys, what)| {
            Line::from(vec![
                Span::styled(format!(" {keys:<12} "), Style::new().add_modifier(Modifier::BOLD)),
                Span::raw(what),
            ])
        })
        .collect();
    let [area] = Layout::horizontal([Constraint::Length(width as u16 + 2)])
        .flex(Flex::Center)
        .areas(frame.area());
    let [area] = Layout::vertical([Constraint::Length(lines.len() as u16 + 2)])
        .flex(Flex::Center)
        .areas(area);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(" keys ")), area);
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use botlens_battleships::Battleships;
    use botlens_engine::Game;
    use botlens_klotski::Klotski;

    use super::*;
    use crate::fixtures::{
        assert_printable, bot_project, failed_game, hostile_game, marked_game, reference_trace,
    };

    /// The screen of `replay` as `viewer` shows it, `size` columns × rows.
    fn drawn(replay: &Replay, viewer: &Viewer, (width, height): (u16, u16)) -> TestBackend {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
        terminal.draw(|frame| draw(frame, replay, viewer)).expect("draws");
        terminal.backend().clone()
    }

    /// The failed fixture game.
    fn failed_replay() -> Replay {
        let project = bot_project();
        Replay::from_trace(&failed_game(project.path()), Some(project.path())).expect("replays")
    }

    /// The screen (80×24) after pressing `keys` in a viewer of the failed fixture game.
    fn screen(keys: &[Key]) -> String {
        let replay = failed_replay();
        let mut viewer = Viewer::new(&replay, 0);
        for &key in keys {
            viewer.handle(key);
        }
        drawn(&replay, &viewer, (80, 24)).to_string()
    }

    #[test]
    fn the_first_frame_shows_the_empty_board_and_the_failure_to_come() {
        insta::assert_snapshot!(screen(&[]));
    }

    #[test]
    fn a_middle_frame_highlights_its_move_and_shows_its_log() {
        insta::assert_snapshot!(screen(&[Key::Right, Key::Right, Key::Right]));
    }

    #[test]
    fn the_failure_frame_shows_the_source_line() {
        insta::assert_snapshot!(screen(&[Key::Char('f')]));
    }

    #[test]
    fn a_hostile_trace_draws_its_escapes_visibly_and_none_raw() {
        let project = bot_project();
        let trace = hostile_game(project.path());
        let replay = Replay::from_trace(&trace, Some(project.path())).expect("replays");
        let viewer = Viewer::new(&replay, 5);
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("test terminal");
        terminal.draw(|frame| draw(frame, &replay, &viewer)).expect("draws");
        let cells = terminal.backend().buffer().content();
        assert_printable(&cells.iter().map(|cell| cell.symbol()).collect::<String>());
        insta::assert_snapshot!(terminal.backend().to_string());
    }

    #[test]
    fn the_help_overlay_lists_the_keys() {
        insta::assert_snapshot!(screen(&[Key::Char('?')]));
    }

    #[test]
    fn the_status_bar_shows_the_go_to_prompt_and_messages() {
        let prompt = screen(&[Key::Char('g'), Key::Char('4')]);
        assert!(prompt.contains("go to move: 4▏ Enter go · Esc cancel"), "{prompt}");
        let message = screen(&[Key::Char('g'), Key::Char('9'), Key::Enter]);
        assert!(message.contains("no move 9: the game has 5 moves"), "{message}");
    }

    /// A clean game of `G` between `names` on seed 4.
    fn reference_replay<G: Game>(names: &[&str]) -> Replay {
        let (_, trace) = reference_trace::<G>(4, names);
        Replay::from_trace(&trace, None).expect("replays")
    }

    /// The screen (`width`×`height`) of frame `at` of a clean game of `G` between `names`.
    fn reference_screen<G: Game>(names: &[&str], at: usize, size: (u16, u16)) -> TestBackend {
        let replay = reference_replay::<G>(names);
        drawn(&replay, &Viewer::new(&replay, at), size)
    }

    /// The highlighted runs of cells of the board panel (the panel at the top left, whose top
    /// right corner is the first `┐` of the second row), row by row: where each starts, its
    /// text (the columns a wide character covers counted once) and its style.
    fn highlights(screen: &TestBackend) -> Vec<(u16, u16, String, Style)> {
        let buffer = screen.buffer();
        let right = (0..buffer.area.width).find(|&x| buffer[(x, 1)].symbol() == "┐");
        let mut runs: Vec<(u16, u16, String, Style)> = Vec::new();
        for y in 0..buffer.area.height {
            let mut covered = 0;
            for x in 0..right.expect("a board panel") {
                if covered > 0 {
                    covered -= 1;
                    continue;
                }
                let cell = &buffer[(x, y)];
                let symbol = cell.symbol();
                covered = text_width(symbol).saturating_sub(1);
                let style = [LAST_MOVE, FAILING_MOVE].into_iter().find(|style| {
                    cell.fg == style.fg.expect("a colour") && cell.modifier == style.add_modifier
                });
                let Some(style) = style else { continue };
                match runs.last_mut() {
                    Some((start, row, text, run))
                        if *row == y && *run == style && *start + text_width(text) == x =>
                    {
                        text.push_str(symbol);
                    }
                    _ => runs.push((x, y, symbol.to_owned(), style)),
                }
            }
        }
        runs
    }

    /// How many columns a run of [`highlights`] covers.
    fn text_width(text: &str) -> u16 {
        Line::raw(text).width() as u16
    }

    /// `(x, y, text)` as a run of [`highlights`] drawn in `style`.
    fn run(x: u16, y: u16, text: &str, style: Style) -> (u16, u16, String, Style) {
        (x, y, text.to_owned(), style)
    }

    #[test]
    fn a_battleships_frame_shows_both_grids_whole_beside_the_moves() {
        insta::assert_snapshot!(
            reference_screen::<Battleships>(&["random", "hunter"], 30, (100, 30)).to_string()
        );
    }

    #[test]
    fn a_klotski_frame_lines_up_its_wide_characters() {
        insta::assert_snapshot!(
            reference_screen::<Klotski>(&["optimal"], 40, (80, 24)).to_string()
        );
    }

    #[test]
    fn the_mark_of_the_move_shown_is_highlighted_the_failing_one_in_red() {
        let replay = failed_replay();
        let at = |index| highlights(&drawn(&replay, &Viewer::new(&replay, index), (80, 24)));
        assert_eq!(at(0), [], "the start follows no move");
        // Move 3 marks (0, 0): row 0 of the board is its third line, column 0 its fifth column.
        assert_eq!(at(3), [run(6, 4, "X", LAST_MOVE)]);
        assert_eq!(at(4), [run(14, 4, "O", LAST_MOVE)], "move 4 marks (2, 0)");
        // Move 5 marks the taken square (1, 1), X's: the board is that of move 4.
        assert_eq!(at(5), [run(10, 6, "X", FAILING_MOVE)]);
    }

    #[test]
    fn the_shot_of_the_move_shown_is_highlighted_on_the_other_fleet() {
        let replay = reference_replay::<Battleships>(&["random", "hunter"]);
        let at = |index| highlights(&drawn(&replay, &Viewer::new(&replay, index), (80, 24)));
        // Move 30 is seat 0's attack(5, 8), a hit on seat 1's fleet, the right-hand grid.
        assert_eq!(replay.moves[29].action, "attack(5, 8)");
        assert_eq!(at(30), [run(44, 13, "X", LAST_MOVE)]);
        // Move 29 is seat 1's attack(3, 3), on seat 0's fleet, the left-hand grid.
        assert_eq!(replay.moves[28].action, "attack(3, 3)");
        assert_eq!(at(29), [run(11, 8, "o", LAST_MOVE)], "a miss");
    }

    #[test]
    fn the_slid_piece_is_highlighted_where_it_went_and_where_it_left() {
        let replay = reference_replay::<Klotski>(&["optimal"]);
        let screen = drawn(&replay, &Viewer::new(&replay, 40), (80, 24));
        // Move 40 slides 佐 (4) up from the left column's fourth row into its third.
        assert_eq!(replay.moves[39].action, "slide(4, up)");
        assert_eq!(
            highlights(&screen),
            [run(3, 7, " 佐 ", LAST_MOVE), run(3, 9, "  . ", LAST_MOVE)],
            "{}",
            screen
        );
    }

    /// Whether `screen` shows every line of frame `at`'s board, in order, one under the other
    /// from its third row (below the title and the panel border), from its third column: whole,
    /// or, a line wider than the panel, as much as the panel holds and at least the columns the
    /// board's cells reach.
    fn board_whole(replay: &Replay, at: usize, screen: &TestBackend) -> bool {
        let buffer = screen.buffer();
        let shown = &replay.frames[at];
        let inside = (1..buffer.area.width).find(|&x| buffer[(x, 1)].symbol() == "┐");
        let inside = usize::from(inside.expect("a board panel")) - 3;
        shown.board.lines().enumerate().all(|(line, text)| {
            let row: String =
                (2..buffer.area.width).map(|x| buffer[(x, line as u16 + 2)].symbol()).collect();
            let text = text.trim_end();
            let held: String = text.chars().take(inside).collect();
            row.starts_with(&held) && (held == text || held.chars().count() >= shown.cells_width)
        })
    }

    #[test]
    fn at_80_by_24_both_battleships_grids_show_every_row_beside_the_moves_and_the_log() {
        let replay = reference_replay::<Battleships>(&["random", "hunter"]);
        for at in [0, 30, replay.move_count()] {
            let screen = drawn(&replay, &Viewer::new(&replay, at), (80, 24));
            assert!(board_whole(&replay, at, &screen), "move {at}:\n{screen}");
            let text = screen.to_string();
            for pane in ["┌ moves (148) ", "┌ log ", "┌ result ", " move "] {
                assert!(text.contains(pane), "move {at}: no `{pane}`\n{text}");
            }
        }
    }

    #[test]
    fn a_smaller_screen_drops_the_moves_then_the_log_then_the_result_but_never_a_board_row() {
        let replay = reference_replay::<Battleships>(&["random", "hunter"]);
        let viewer = Viewer::new(&replay, 30);
        let panes = |size| {
            let screen = drawn(&replay, &viewer, size);
            assert!(board_whole(&replay, 30, &screen), "{size:?}:\n{screen}");
            let text = screen.to_string();
            assert!(text.contains(" move 30/148 · "), "the status bar stays: {size:?}\n{text}");
            ["┌ moves ", "┌ log ", "┌ result "].map(|pane| text.contains(pane))
        };
        assert_eq!(panes((80, 24)), [true, true, true]);
        assert_eq!(panes((70, 24)), [false, true, true], "no room for the move list");
        assert_eq!(panes((80, 23)), [true, false, true], "no room for the log");
        assert_eq!(panes((80, 21)), [true, false, true]);
        assert_eq!(panes((80, 20)), [true, false, false], "no room for the result either");
        assert_eq!(panes((80, 18)), [true, false, false], "room for the board alone");
    }

    #[test]
    fn a_screen_too_small_for_the_board_says_the_size_it_needs() {
        let replay = reference_replay::<Battleships>(&["random", "hunter"]);
        let viewer = Viewer::new(&replay, 30);
        // The right-hand grid's last column is column 51 of the text, which has 14 lines.
        let needs = "this board needs 55×18 (q quits)";
        for (width, height) in [(54, 24), (80, 17), (40, 10)] {
            let screen = drawn(&replay, &viewer, (width, height));
            let text: String = screen.buffer().content().iter().map(|cell| cell.symbol()).collect();
            let said = format!("terminal too small: {width}×{height}, {needs}");
            let words: Vec<&str> = text.split_whitespace().collect();
            assert_eq!(words.join(" "), said, "{screen}");
        }
        let fits = drawn(&replay, &viewer, (55, 18)).to_string();
        assert!(!fits.contains("too small"), "{fits}");
    }

    #[test]
    fn a_long_log_scrolls_and_says_which_lines_show() {
        let project = bot_project();
        let mut trace = failed_game(project.path());
        trace.moves[2].logs = (1..=30).map(|n| format!("log line {n}")).collect();
        let replay = Replay::from_trace(&trace, Some(project.path())).expect("replays");
        let mut viewer = Viewer::new(&replay, 3);
        viewer.handle(Key::PageDown);
        let mut terminal = Terminal::new(TestBackend::new(80, 30)).expect("test terminal");
        terminal.draw(|frame| draw(frame, &replay, &viewer)).expect("draws");
        let screen = terminal.backend().to_string();
        assert!(screen.contains("log · move 3 · seat 0 · lines 6–13 of 30 "), "{screen}");
        assert!(screen.contains("└ PgUp/PgDn scroll ─"), "{screen}");
        assert!(screen.contains("│ log line 6 "), "{screen}");
        assert!(!screen.contains("│ log line 5 "), "{screen}");
        assert!(screen.contains("answer: {\"board\":\"X...X...O\"}"), "{screen}");
    }

    #[test]
    fn a_tiny_terminal_draws_without_panicking() {
        let project = bot_project();
        let replay = Replay::from_trace(&failed_game(project.path()), Some(project.path()))
            .expect("replays");
        let mut viewer = Viewer::new(&replay, 5);
        viewer.handle(Key::Char('?'));
        for (width, height) in [(1, 1), (10, 3), (30, 8), (200, 5)] {
            let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
            terminal.draw(|frame| draw(frame, &replay, &viewer)).expect("draws");
        }
    }

    /// The fixture game whose bots drew, at move 30, with its marks shown (`m`) or not.
    fn marked_screen(marks: bool, size: (u16, u16)) -> TestBackend {
        let replay = Replay::from_trace(&marked_game(), None).expect("replays");
        let mut viewer = Viewer::new(&replay, 30);
        if marks {
            viewer.handle(Key::Char('m'));
        }
        drawn(&replay, &viewer, size)
    }

    #[test]
    fn m_shows_the_marks_over_the_whole_board_and_their_status_lines_under_it_at_80_by_24() {
        let screen = marked_screen(true, (80, 24));
        let cells = screen.buffer().content();
        assert_printable(&cells.iter().map(|cell| cell.symbol()).collect::<String>());
        insta::assert_snapshot!(screen.to_string());
        let text = screen.to_string();
        for pane in ["┌ moves (148) ", "└ answer: ", " move 30/148 · ", "m marks"] {
            assert!(text.contains(pane), "no `{pane}`\n{text}");
        }
        assert!(!text.contains("┌ result "), "the result gives way to the marks' lines\n{text}");
    }

    #[test]
    fn the_heat_map_shades_its_cells_on_the_palette_and_filled_cells_take_their_colour() {
        let screen = marked_screen(true, (80, 24));
        let buffer = screen.buffer();
        // Seat 1's fleet starts at column 29 of the board (2 on screen); row y is screen row
        // 5 + y; cell x is at column 3 + 2x of the grid.
        let at = |x: u16, y: u16| &buffer[(2 + 29 + 3 + 2 * x, 5 + y)];
        assert_eq!(at(5, 8).bg, rgb(0xe03131), "the filled cell, over the heat");
        assert_eq!(at(9, 0).bg, rgb(heat_rgb(0.0)), "the map's lowest value");
        assert_eq!(at(5, 9).bg, rgb(heat(heat_level_of(9.5))), "a value between");
        assert_eq!(at(0, 0).bg, Color::Reset, "no value at (0, 0)");
        assert_eq!((at(2, 8).symbol(), at(2, 8).fg), ("→", rgb(0x2f9e44)), "the arrow's start");
        let label: String = (0..4).map(|i| buffer[(2 + 29 + 3 + 10 + i, 12)].symbol()).collect();
        assert_eq!(label, "p=.9", "the label on (5, 7)");
        // Seat 1's violet cell on seat 0's fleet.
        assert_eq!(buffer[(2 + 3 + 6, 8)].bg, rgb(0x7c3aed));
        let hidden = marked_screen(false, (80, 24));
        assert_eq!(hidden.buffer()[(2 + 29 + 3 + 18, 5)].bg, Color::Reset, "m not pressed");
        assert!(!hidden.to_string().contains("hunting"), "{hidden}");
    }

    /// Where `value` lies on the palette of the fixture's heat map (4 to 10), 0 to 255.
    fn heat_level_of(value: f32) -> u8 {
        (botlens_engine::drawing::heat_level(value, (4.0, 10.0)) * 255.0).round() as u8
    }

    #[test]
    fn m_in_a_game_where_nothing_was_drawn_says_so() {
        let screen = screen(&[Key::Char('m')]);
        assert!(screen.contains("│ no bot drew on its board in this game"), "{screen}");
    }

    #[test]
    fn terminal_keys_map_to_viewer_keys() {
        assert_eq!(key_of(KeyCode::Right), Some(Key::Right));
        assert_eq!(key_of(KeyCode::Char('g')), Some(Key::Char('g')));
        assert_eq!(key_of(KeyCode::F(1)), None);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert!(is_interrupt(ctrl_c));
        assert!(!is_interrupt(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::NONE)));
    }
}

//! What the bots drew on their boards (`botlens_engine::drawing`), as the replay shows it: each
//! move's marks placed on the grid its seat draws on ([`Game::drawing_grid`]) as a [`Layer`],
//! where they show in the game's text for the terminal ([`Overlay`]), and as plain text for the
//! editor's hover ([`Replay::marks_text`]).
//!
//! A bot's coordinates are its own, as it passed them: a mark off its grid is left out (and
//! counted), never an error. Text is made printable here, like every string of the model.

use botlens_engine::drawing::{Colour, Drawing, Shape, heat_level, heat_range};
use botlens_engine::picture::{Picture, Spot, TextCell};
use botlens_engine::text::printable;
use botlens_engine::{Game, Seat, SourceLocation};
use serde::{Serialize, Serializer};

use crate::Replay;

/// What one seat drew during one move, on the grid it draws on, text made printable and marks
/// off that grid left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layer {
    /// The seat that drew.
    pub seat: Seat,
    /// The move it drew during (its frame index).
    pub index: usize,
    /// The grid of the frame's picture the marks lie on (`Game::drawing_grid`).
    pub grid: usize,
    /// The heat map (the last one drawn), cut to the grid.
    pub heat: Option<HeatMap>,
    /// The cells, arrows and labels on the grid, in the order drawn.
    pub marks: Vec<Placed>,
    /// The status line (the last one drawn).
    pub status: Option<StatusLine>,
    /// How many marks were left out for lying off the grid.
    pub off_board: usize,
    /// How many marks the host dropped, past the bounds of a turn.
    pub dropped: u32,
    /// What was left out or dropped, for people, a line each: `1 mark off the board left out`,
    /// `3 marks dropped`.
    pub left_out: Vec<String>,
}

/// A heat map cut to its grid: a value for each cell, shaded from the lowest to the highest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeatMap {
    /// The lowest value of the map (off the grid too): the palette's cold end.
    pub low: f32,
    /// The highest value: the palette's hot end.
    pub high: f32,
    /// The grid's columns: [`values`](HeatMap::values) has a row of them per row of the grid.
    pub width: usize,
    /// Each cell of the grid, row by row: its value, if the map gives it a finite one.
    pub values: Vec<Option<f32>>,
    /// Each cell's place on the palette (`botlens_engine::drawing::heat_rgb`), 0 (low) to 255.
    pub levels: Vec<Option<u8>>,
    /// The line that drew it: `src/lib.rs:12`.
    pub at: Option<String>,
}

/// A mark on one cell (an arrow: from one cell to another) of its grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Placed {
    /// Column.
    pub x: usize,
    /// Row.
    pub y: usize,
    /// Its colour, as CSS in the page's data (`#rrggbb`).
    #[serde(serialize_with = "css")]
    pub colour: Colour,
    /// The line that drew it: `src/lib.rs:12`.
    pub at: Option<String>,
    /// What it is.
    #[serde(flatten)]
    pub kind: PlacedKind,
}

/// What a [`Placed`] mark is.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlacedKind {
    /// The cell filled.
    Cell,
    /// An arrow to another cell of the grid.
    Arrow {
        /// Column it points at.
        to_x: usize,
        /// Row it points at.
        to_y: usize,
    },
    /// A short text on the cell.
    Label {
        /// The text, printable.
        text: String,
    },
}

/// The status line of a [`Layer`], shown under the board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatusLine {
    /// The text, printable.
    pub text: String,
    /// The line that drew it: `src/lib.rs:12`.
    pub at: Option<String>,
}

/// A mark over the game's text (the terminal replay's overlay): where it shows and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlay {
    /// The columns it covers.
    pub cell: TextCell,
    /// How they are drawn.
    pub paint: Paint,
}

/// How an [`Overlay`] draws its columns.
#[derive(Debug, Clone, PartialEq)]
pub enum Paint {
    /// A heat map's shade: its place on the palette, 0 to 255.
    Heat(u8),
    /// A cell filled with `0xRRGGBB`.
    Fill(u32),
    /// An arrow's start: a glyph pointing its way, in `0xRRGGBB`.
    Arrow(char, u32),
    /// A label's text, in `0xRRGGBB`, from the cell on.
    Label(String, u32),
}

/// Serializes a colour as CSS.
fn css<S: Serializer>(colour: &Colour, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&colour.css())
}

/// `file:line` of a mark, printable.
fn at(location: Option<&SourceLocation>) -> Option<String> {
    location.map(|location| printable(&format!("{}:{}", location.file, location.line)).into_owned())
}

/// A bot's coordinate as a cell index of a grid `size` cells long, if it lies on it.
fn on(coordinate: i32, size: usize) -> Option<usize> {
    usize::try_from(coordinate).ok().filter(|&at| at < size)
}

/// `seat`'s `drawing` during move `index` of `G`, placed on the grid `picture` has for it;
/// `None` when nothing was drawn (or dropped).
pub(crate) fn layer<G: Game>(
    seat: Seat,
    index: usize,
    drawing: &Drawing,
    picture: Option<&Picture>,
) -> Option<Layer> {
    if drawing.is_empty() {
        return None;
    }
    let grid = G::drawing_grid(seat);
    let (width, height) = picture
        .and_then(|picture| picture.grids.get(grid))
        .map_or((0, 0), |grid| (grid.width(), grid.height()));
    let cell = |x: i32, y: i32| Some((on(x, width)?, on(y, height)?));
    let mut layer = Layer {
        seat,
        index,
        grid,
        heat: None,
        marks: Vec::new(),
        status: None,
        off_board: 0,
        dropped: drawing.dropped,
        left_out: Vec::new(),
    };
    for mark in &drawing.marks {
        let at = at(mark.location.as_ref());
        let place =
            |(x, y), colour: &Colour, kind| Placed { x, y, colour: *colour, at: at.clone(), kind };
        let placed = match &mark.shape {
            Shape::Cell { x, y, colour } => {
                cell(*x, *y).map(|xy| place(xy, colour, PlacedKind::Cell))
            }
            Shape::Arrow { x, y, to_x, to_y, colour } => cell(*x, *y)
                .zip(cell(*to_x, *to_y))
                .map(|(from, (to_x, to_y))| place(from, colour, PlacedKind::Arrow { to_x, to_y })),
            Shape::Label { x, y, text, colour } => cell(*x, *y).map(|xy| {
                place(xy, colour, PlacedKind::Label { text: printable(text).into_owned() })
            }),
            Shape::Status { text } => {
                layer.status = Some(StatusLine { text: printable(text).into_owned(), at });
                continue;
            }
            Shape::Heat { .. } => continue,
        };
        match placed {
            Some(placed) => layer.marks.push(placed),
            None => layer.off_board += 1,
        }
    }
    // Only the last heat map shows (it was drawn over the others).
    if let Some(mark) = drawing.heat()
        && let Shape::Heat { width: columns, values } = &mark.shape
    {
        layer.heat = heat_map(*columns, values, (width, height), at(mark.location.as_ref()));
        layer.off_board += usize::from(layer.heat.is_none());
    }
    layer.left_out = left_out(layer.off_board, layer.dropped);
    Some(layer)
}

/// A heat map `columns` wide cut to a `width` × `height` grid; `None` when no cell of the grid
/// has a finite value.
fn heat_map(
    columns: u32,
    values: &[Option<f32>],
    (width, height): (usize, usize),
    at: Option<String>,
) -> Option<HeatMap> {
    let columns = usize::try_from(columns).ok().filter(|&columns| columns > 0)?;
    let finite = |value: &Option<f32>| value.filter(|v| v.is_finite());
    let all: Vec<Option<f32>> = values.iter().map(finite).collect();
    let range = heat_range(&all)?;
    let cells: Vec<Option<f32>> = (0..width * height)
        .map(|cell| {
            let (x, y) = (cell % width, cell / width);
            if x < columns { all.get(y * columns + x).copied().flatten() } else { None }
        })
        .collect();
    if cells.iter().all(Option::is_none) {
        return None;
    }
    let levels = cells
        .iter()
        .map(|value| value.map(|v| (heat_level(v, range).clamp(0.0, 1.0) * 255.0).round() as u8))
        .collect();
    Some(HeatMap { low: range.0, high: range.1, width, values: cells, levels, at })
}

/// Where `layer`'s marks show in the text of `game`, the position they are shown over: heat and
/// filled cells shade their cell up to the next one of the row, arrows mark their start with a
/// glyph pointing their way, labels write their text from their cell.
pub(crate) fn overlay<G: Game>(game: &G, layer: &Layer) -> Vec<Overlay> {
    let text_cell = |x: usize, y: usize| game.text_cell(Spot { grid: layer.grid, x, y });
    // A cell's columns, widened to where the next cell of its row starts.
    let span = |x: usize, y: usize| {
        let cell = text_cell(x, y)?;
        let next = text_cell(x + 1, y).filter(|next| next.line == cell.line);
        let width = next.map_or(cell.width, |next| next.column.saturating_sub(cell.column));
        Some(TextCell { width: width.max(cell.width), ..cell })
    };
    let mut overlay = Vec::new();
    if let Some(heat) = &layer.heat {
        for (cell, level) in heat.levels.iter().enumerate() {
            let (x, y) = (cell % heat.width, cell / heat.width);
            if let (Some(level), Some(cell)) = (level, span(x, y)) {
                overlay.push(Overlay { cell, paint: Paint::Heat(*level) });
            }
        }
    }
    for mark in &layer.marks {
        let rgb = mark.colour.rgb();
        let paint = match &mark.kind {
            PlacedKind::Cell => span(mark.x, mark.y).map(|cell| (cell, Paint::Fill(rgb))),
            PlacedKind::Arrow { to_x, to_y } => text_cell(mark.x, mark.y)
                .map(|cell| (cell, Paint::Arrow(arrow(mark.x, mark.y, *to_x, *to_y), rgb))),
            PlacedKind::Label { text } => {
                text_cell(mark.x, mark.y).map(|cell| (cell, Paint::Label(text.clone(), rgb)))
            }
        };
        overlay.extend(paint.map(|(cell, paint)| Overlay { cell, paint }));
    }
    overlay
}

/// The glyph of an arrow from `(x, y)` to `(to_x, to_y)`: one of the eight directions, or a
/// dot for an arrow to its own cell.
fn arrow(x: usize, y: usize, to_x: usize, to_y: usize) -> char {
    const GLYPHS: [[char; 3]; 3] = [['↖', '↑', '↗'], ['←', '•', '→'], ['↙', '↓', '↘']];
    let step = |from: usize, to: usize| match to.cmp(&from) {
        std::cmp::Ordering::Less => 0,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Greater => 2,
    };
    GLYPHS[step(y, to_y)][step(x, to_x)]
}

impl Replay {
    /// Whether any bot drew on its board during the game.
    pub fn has_marks(&self) -> bool {
        self.moves.iter().any(|entry| entry.marks.is_some())
    }

    /// What the bots drew as of frame `index` (each seat's marks of its latest move up to
    /// there), as plain text for the editor's hover: per seat, a heading naming the move and
    /// the grid, the heat map as a grid of levels 0 (its lowest value) to 9 (its highest) with
    /// `·` where it gives none, then each cell, arrow and label with its cell, colour and the
    /// source line that drew it, the status line, and what was left out or dropped.
    ///
    /// Every line starts with the replay's own words, digits or spaces, and all text is
    /// printable, so it may go in a Markdown code block as it is. `None` when nothing was drawn
    /// by then, or there is no frame `index`.
    pub fn marks_text(&self, index: usize) -> Option<String> {
        let frame = self.frames.get(index)?;
        let mut out = Vec::new();
        for layer in frame.layers.iter().filter_map(|&at| self.moves.get(at - 1)?.marks.as_ref()) {
            let grid = frame.picture.as_ref().and_then(|picture| picture.grids.get(layer.grid));
            let seat = self.seats.get(layer.seat).map_or("", String::as_str);
            let on = grid.map_or_else(String::new, |grid| format!(" · drew on {}", grid.title));
            out.push(format!("move {} · {seat}{on}", layer.index));
            if let Some(heat) = &layer.heat {
                out.extend(heat_lines(heat));
            }
            for mark in &layer.marks {
                let (x, y, colour) = (mark.x, mark.y, mark.colour.css());
                let what = match &mark.kind {
                    PlacedKind::Cell => format!("  cell ({x}, {y}) {colour}"),
                    PlacedKind::Arrow { to_x, to_y } => {
                        format!("  arrow ({x}, {y}) → ({to_x}, {to_y}) {colour}")
                    }
                    PlacedKind::Label { text } => format!("  label ({x}, {y}) {colour} \"{text}\""),
                };
                out.push(located(what, mark.at.as_deref()));
            }
            if let Some(status) = &layer.status {
                out.push(located(format!("  status: {}", status.text), status.at.as_deref()));
            }
            out.extend(layer.left_out.iter().map(|line| format!("  {line}")));
        }
        (!out.is_empty()).then(|| out.join("\n") + "\n")
    }
}

/// `what`, then ` · file:line` when the line that drew it is known.
fn located(what: String, at: Option<&str>) -> String {
    match at {
        Some(at) => format!("{what} · {at}"),
        None => what,
    }
}

/// The heat map as text: a heading with its range, then its levels 0–9 on the grid's axes.
fn heat_lines(heat: &HeatMap) -> Vec<String> {
    let heading = format!("  heat map, 0 = {} to 9 = {}", heat.low, heat.high);
    let mut lines = vec![located(heading, heat.at.as_deref())];
    let columns: Vec<String> = (0..heat.width).map(|x| format!("{:>2}", x % 100)).collect();
    lines.push(format!("     {}", columns.concat()));
    for (y, row) in heat.levels.chunks(heat.width).enumerate() {
        let cells: String = row
            .iter()
            .map(|level| match level {
                Some(level) => format!(" {}", u32::from(*level) * 10 / 256),
                None => " ·".to_owned(),
            })
            .collect();
        lines.push(format!("  {y:>3}{cells}"));
    }
    lines
}

/// What a layer left out, a line each: `off_board` marks off the grid and `dropped` marks the
/// host dropped.
fn left_out(off_board: usize, dropped: u32) -> Vec<String> {
    let marks = |n: usize| if n == 1 { "1 mark".to_owned() } else { format!("{n} marks") };
    let off = (off_board > 0).then(|| format!("{} off the board left out", marks(off_board)));
    let dropped = (dropped > 0).then(|| format!("{} dropped", marks(dropped as usize)));
    off.into_iter().chain(dropped).collect()
}

#[cfg(test)]
mod tests {
    use botlens_engine::drawing::Mark;

    use super::*;
    use crate::fixtures::{assert_printable, marked_game, reference_game};

    fn marked() -> Replay {
        Replay::from_trace(&marked_game(), None).expect("replays")
    }

    #[test]
    fn each_seats_marks_lie_on_the_grid_it_draws_on_and_show_until_it_moves_again() {
        let replay = marked();
        let bot = replay.moves[29].marks.as_ref().expect("seat 0 drew during move 30");
        let hunter = replay.moves[28].marks.as_ref().expect("seat 1 drew during move 29");
        assert_eq!((bot.seat, bot.index, bot.grid), (0, 30, 1), "on seat 1's fleet");
        assert_eq!((hunter.seat, hunter.index, hunter.grid), (1, 29, 0), "on seat 0's fleet");
        assert_eq!(replay.frames[28].layers, [] as [usize; 0]);
        assert_eq!(replay.frames[29].layers, [29]);
        assert_eq!(replay.frames[30].layers, [30, 29], "by seat");
        // A hit keeps the turn: seat 0 moves again, drawing nothing, and its marks go; seat 1's
        // stay until it moves.
        assert_eq!(replay.moves[30].seat, 0);
        assert_eq!(replay.frames[31].layers, [29]);
        let next = (31..replay.moves.len()).find(|&m| replay.moves[m].seat == 1).expect("moves");
        assert_eq!(replay.frames[next].layers, [29]);
        assert_eq!(replay.frames[next + 1].layers, [] as [usize; 0]);
    }

    #[test]
    fn marks_off_the_board_are_left_out_and_counted_and_text_is_printable() {
        let replay = marked();
        let bot = replay.moves[29].marks.as_ref().expect("drew");
        assert_eq!((bot.off_board, bot.dropped), (1, 3));
        let kinds: Vec<String> = bot
            .marks
            .iter()
            .map(|m| format!("{:?} ({}, {}) {} {:?}", m.kind, m.x, m.y, m.colour.css(), m.at))
            .collect();
        insta::assert_debug_snapshot!(kinds);
        for mark in &bot.marks {
            if let PlacedKind::Label { text } = &mark.kind {
                assert_printable(text);
            }
        }
        let status = bot.status.as_ref().expect("a status");
        assert_eq!(
            (&*status.text, status.at.as_deref()),
            ("hunting: 3 ships left", Some("src/lib.rs:30"))
        );
    }

    #[test]
    fn a_heat_map_is_cut_to_its_grid_and_levelled_from_its_lowest_to_its_highest_value() {
        let replay = marked();
        let heat = replay.moves[29].marks.as_ref().and_then(|m| m.heat.as_ref()).expect("heat");
        assert_eq!((heat.low, heat.high, heat.width), (4.0, 10.0, 10));
        assert_eq!(heat.values.len(), 100);
        assert_eq!((heat.values[0], heat.levels[0]), (None, None), "no value at (0, 0)");
        assert_eq!((heat.values[85], heat.levels[85]), (Some(10.0), Some(255)), "the peak");
        assert_eq!(heat.levels[9], Some(0), "(9, 0) is the lowest");
        assert_eq!(heat.at.as_deref(), Some("src/lib.rs:12"));
    }

    /// A layer of `drawing` on a 3 × 2 grid.
    fn on_a_small_grid(drawing: &[Mark]) -> Layer {
        let picture =
            Picture { grids: vec![botlens_engine::picture::Grid::new("g", 3, 2, "empty")] };
        let mut marks = Drawing::default();
        drawing.iter().cloned().for_each(|mark| marks.push(mark));
        layer::<botlens_tictactoe::TicTacToe>(0, 1, &marks, Some(&picture)).expect("drew")
    }

    #[test]
    fn a_heat_map_wider_or_narrower_than_its_grid_or_off_it_is_cut_or_left_out() {
        let heat = |width, values: Vec<Option<f32>>| Mark {
            shape: Shape::Heat { width, values },
            location: None,
        };
        let wide = on_a_small_grid(&[heat(4, (0..8).map(|v| Some(v as f32)).collect())]);
        let wide = wide.heat.expect("on the grid");
        let values: Vec<Option<f32>> = [0.0, 1.0, 2.0, 4.0, 5.0, 6.0].map(Some).into();
        assert_eq!((wide.values, wide.low, wide.high), (values, 0.0, 7.0));
        let narrow = on_a_small_grid(&[heat(1, vec![Some(1.0), Some(2.0), Some(3.0)])]);
        let narrow = narrow.heat.expect("on the grid");
        assert_eq!(narrow.values, [Some(1.0), None, None, Some(2.0), None, None]);
        assert_eq!(narrow.levels[3], Some(128), "halfway between 1 and 3");
        for nothing in [heat(0, vec![Some(1.0)]), heat(3, vec![None; 6]), heat(3, vec![])] {
            let layer = on_a_small_grid(std::slice::from_ref(&nothing));
            assert_eq!((layer.heat, layer.off_board), (None, 1), "{nothing:?}");
        }
        let flat = on_a_small_grid(&[heat(3, vec![Some(2.0); 6])]).heat.expect("a map");
        assert_eq!(flat.levels, [Some(128); 6], "one value: the palette's middle");
    }

    #[test]
    fn arrows_with_an_end_off_the_grid_and_negative_cells_are_left_out() {
        let mark = |shape| Mark { shape, location: None };
        let colour = Colour::Rgb(0);
        let layer = on_a_small_grid(&[
            mark(Shape::Arrow { x: 0, y: 0, to_x: 2, to_y: 1, colour }),
            mark(Shape::Arrow { x: 0, y: 0, to_x: 3, to_y: 1, colour }),
            mark(Shape::Cell { x: -1, y: 0, colour }),
            mark(Shape::Label { x: 0, y: i32::MAX, text: "far".into(), colour }),
            mark(Shape::Status { text: "first".into() }),
            mark(Shape::Status { text: "last".into() }),
        ]);
        assert_eq!(layer.marks.len(), 1);
        assert_eq!(layer.marks[0].kind, PlacedKind::Arrow { to_x: 2, to_y: 1 });
        assert_eq!(layer.off_board, 3);
        assert_eq!(layer.status.map(|status| status.text).as_deref(), Some("last"));
    }

    #[test]
    fn a_move_that_drew_nothing_has_no_layer() {
        let (_, trace) = reference_game(1);
        let replay = Replay::from_trace(&trace, None).expect("replays");
        assert!(replay.moves.iter().all(|m| m.marks.is_none()));
        assert!(replay.frames.iter().all(|f| f.layers.is_empty() && f.overlay.is_empty()));
        assert_eq!(replay.marks_text(3), None);
    }

    #[test]
    fn the_marks_of_a_frame_as_text_for_the_hover() {
        let replay = marked();
        let text = replay.marks_text(30).expect("marks at move 30");
        assert_printable(&text);
        insta::assert_snapshot!(text);
        assert_eq!(replay.marks_text(28), None);
        assert_eq!(replay.marks_text(9999), None);
    }

    #[test]
    fn the_overlay_places_the_marks_on_the_text_of_the_board() {
        let replay = marked();
        let frame = &replay.frames[30];
        let board: Vec<&str> = frame.board.lines().collect();
        // The text under each mark that is not heat, and how it is painted.
        let shown: Vec<String> = frame
            .overlay
            .iter()
            .filter(|o| !matches!(o.paint, Paint::Heat(_)))
            .map(|o| {
                let row: String =
                    board[o.cell.line].chars().skip(o.cell.column).take(o.cell.width).collect();
                format!("{}:{} {row:?} {:?}", o.cell.line, o.cell.column, o.paint)
            })
            .collect();
        insta::assert_debug_snapshot!(shown);
        let heat = frame.overlay.iter().filter(|o| matches!(o.paint, Paint::Heat(_))).count();
        assert_eq!(heat, 99, "every cell of the map but (0, 0)");
        // Row 0 of the map: each cell shaded up to the next, the last one alone.
        let widths: Vec<usize> = frame
            .overlay
            .iter()
            .filter(|o| matches!(o.paint, Paint::Heat(_)) && o.cell.line == 3)
            .map(|o| o.cell.width)
            .collect();
        assert_eq!(widths, [2, 2, 2, 2, 2, 2, 2, 2, 1]);
    }

    #[test]
    fn hits_and_sinks_are_events_of_the_timeline_wasted_shots_not() {
        let replay = marked();
        let events: Vec<(usize, &str)> = (1..)
            .zip(&replay.moves)
            .filter_map(|(index, m)| Some((index, m.event.as_deref()?)))
            .collect();
        for result in ["hit", "sunk"] {
            let answered = format!("{{\"result\":\"{result}\"");
            let moves = replay.moves.iter().filter(|m| !m.wasteful);
            let expected: Vec<usize> = (1..)
                .zip(moves)
                .filter(|(_, m)| m.response.as_deref().is_some_and(|r| r.starts_with(&answered)))
                .map(|(index, _)| index)
                .collect();
            let found: Vec<usize> =
                events.iter().filter(|(_, e)| *e == result).map(|&(index, _)| index).collect();
            assert_eq!(found, expected, "{result}");
        }
        assert_eq!(replay.moves[29].event.as_deref(), Some("hit"), "attack(5, 8)");
    }
}

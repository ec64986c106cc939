//! The layout text format: parsing with errors that point at a line and column, and writing a
//! [`Layout`] back out. The format itself is documented in `docs/layouts.md`:
//!
//! ```text
//! # comments and blank lines are ignored
//! name: 横刀立马
//! board:
//!   ZCCH
//!   ZCCH
//!   YGGM
//!   Y34M
//!   1..2
//! legend:
//!   C cc 曹操
//!   Z zf 张飞
//!   …
//! goal: cc 1 3
//! ```
//!
//! Not for validation rules shared with other sources of layouts (they live in
//! [`crate::layout`]): this module only maps their failures to positions.

use std::collections::HashMap;

use botlens_engine::text::clipped;

use crate::layout::{ECHOED_CHARS, Goal, Layout, LayoutError, MAX_SIDE, Piece, Subject, TextPos};

/// The keys a header line may start with.
const KEYS: [&str; 4] = ["name", "board", "legend", "goal"];

/// A one-line syntax reminder for the goal line.
const GOAL_SYNTAX: &str =
    "`goal: <code> <x> <y>` (0-based column and row of the piece's top-left cell)";

/// A legend line: `C cc 曹操`.
struct Entry {
    symbol: char,
    code: String,
    name: String,
    line: usize,
    symbol_col: usize,
    code_col: usize,
    name_col: usize,
}

/// One board row: its characters and where the first one is.
struct Row {
    cells: Vec<char>,
    line: usize,
    column: usize,
}

/// The goal line's tokens, with where each is.
struct GoalLine {
    code: (String, usize),
    x: (String, usize),
    y: (String, usize),
    line: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Board,
    Legend,
}

fn error(line: usize, column: usize, message: impl AsRef<str>) -> LayoutError {
    LayoutError::new(Some(TextPos { line, column }), message.as_ref())
}

/// The 1-based character column of byte offset `offset` in `line`.
fn column_of(line: &str, offset: usize) -> usize {
    line[..offset].chars().count() + 1
}

/// Splits off the first whitespace-separated token of `line[from..]`: its byte range.
fn next_token(line: &str, from: usize) -> Option<(usize, usize)> {
    let rest = &line[from..];
    let start = from + rest.find(|c: char| !c.is_whitespace())?;
    let end = line[start..].find(char::is_whitespace).map_or(line.len(), |n| start + n);
    Some((start, end))
}

/// A header line `key: value`: the key, and the byte offset of the value.
fn header(line: &str) -> Option<(&str, usize)> {
    let trimmed_start = line.len() - line.trim_start().len();
    let colon = line.find(':')?;
    let key = line[trimmed_start..colon].trim_end();
    KEYS.contains(&key).then_some((key, colon + 1))
}

impl Layout {
    /// Parses a layout text (see `docs/layouts.md`); errors name the line and column. A UTF-8
    /// byte-order mark at the start (as some editors save) is skipped.
    pub fn parse(text: &str) -> Result<Layout, LayoutError> {
        parse(text)
    }

    /// The layout in the text format; [`Layout::parse`] reads it back to an equal layout.
    pub fn to_text(&self) -> String {
        write(self)
    }
}

/// Parses a layout text (see the module docs and `docs/layouts.md`); a UTF-8 byte-order mark
/// at the start is skipped.
fn parse(text: &str) -> Result<Layout, LayoutError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut section = Section::None;
    let mut name: Option<(String, usize, usize)> = None;
    let mut board_line: Option<usize> = None;
    let mut legend_line: Option<usize> = None;
    let mut rows: Vec<Row> = Vec::new();
    let mut entries: Vec<Entry> = Vec::new();
    let mut goal: Option<GoalLine> = None;
    let mut last_line = 0;

    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        last_line = number;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let first_col = column_of(line, line.len() - line.trim_start().len());
        if let Some((key, value_at)) = header(line) {
            let value = line[value_at..].trim();
            let value_col = column_of(line, line.len() - line[value_at..].trim_start().len());
            let repeated = |earlier: usize| {
                error(
                    number,
                    first_col,
                    format!("a second `{key}:` line (the first is on line {earlier})"),
                )
            };
            section = Section::None;
            match key {
                "name" => {
                    if let Some((_, earlier, _)) = name {
                        return Err(repeated(earlier));
                    }
                    if value.is_empty() {
                        return Err(error(
                            number,
                            value_col,
                            "expected the layout's name after `name:`",
                        ));
                    }
                    name = Some((value.to_string(), number, value_col));
                }
                "board" | "legend" => {
                    if !value.is_empty() {
                        return Err(error(
                            number,
                            value_col,
                            format!("expected nothing after `{key}:`; its lines go below it"),
                        ));
                    }
                    let seen = if key == "board" { &mut board_line } else { &mut legend_line };
                    if let Some(earlier) = *seen {
                        return Err(repeated(earlier));
                    }
                    *seen = Some(number);
                    section = if key == "board" { Section::Board } else { Section::Legend };
                }
                _ => {
                    if let Some(earlier) = &goal {
                        return Err(repeated(earlier.line));
                    }
                    goal = Some(goal_line(line, value_at, number)?);
                }
            }
            continue;
        }
        match section {
            Section::Board => rows.push(board_row(line, number, first_col)?),
            Section::Legend => entries.push(legend_entry(line, number)?),
            Section::None => {
                return Err(error(
                    number,
                    first_col,
                    "expected `name:`, `board:`, `legend:` or `goal:` (board rows and legend \
                     entries go below their `board:` and `legend:` lines)",
                ));
            }
        }
    }

    let end = last_line + 1;
    let Some(board_line) = board_line else {
        return Err(error(end, 1, "expected a `board:` section"));
    };
    let Some(first) = rows.first() else {
        return Err(error(
            board_line,
            1,
            "the board has no rows: expected rows of cells below `board:`",
        ));
    };
    let width = first.cells.len();
    for row in &rows[1..] {
        if row.cells.len() != width {
            let column = row.column + row.cells.len().min(width);
            return Err(error(
                row.line,
                column,
                format!(
                    "this row has {} cells, expected {width} like the first row (line {})",
                    row.cells.len(),
                    first.line
                ),
            ));
        }
    }
    let height = rows.len();
    if width > MAX_SIDE as usize || height > MAX_SIDE as usize {
        return Err(error(
            board_line,
            1,
            format!("the board is {width}×{height}; each side must be at most {MAX_SIDE} cells"),
        ));
    }

    let symbols = check_legend(&entries)?;
    let mut pieces = Vec::with_capacity(entries.len());
    for entry in &entries {
        pieces.push(place(entry, &rows)?);
    }
    for row in &rows {
        for (offset, &symbol) in row.cells.iter().enumerate() {
            if symbol != '.' && !symbols.contains_key(&symbol) {
                return Err(error(
                    row.line,
                    row.column + offset,
                    format!(
                        "piece character `{symbol}` is not in the legend (or use `.` for an empty cell)"
                    ),
                ));
            }
        }
    }

    let Some(goal) = goal else {
        return Err(error(end, 1, format!("expected a {GOAL_SYNTAX} line")));
    };
    let parsed_goal = Goal {
        piece: goal.code.0.clone(),
        x: coordinate(&goal.x, goal.line, "x")?,
        y: coordinate(&goal.y, goal.line, "y")?,
    };
    if !entries.iter().any(|e| e.code == parsed_goal.piece) {
        return Err(error(
            goal.line,
            goal.code.1,
            format!(
                "the goal names `{}`, which is not a code in the legend",
                clipped(&goal.code.0, ECHOED_CHARS)
            ),
        ));
    }

    let name_text = name.as_ref().map(|(text, _, _)| text.clone());
    Layout::checked(name_text, width as u32, height as u32, pieces, parsed_goal).map_err(
        |(subject, message)| {
            let (line, column) = match subject {
                Subject::Name => name.as_ref().map_or((1, 1), |(_, line, col)| (*line, *col)),
                Subject::Board => (board_line, 1),
                Subject::Code(i) => (entries[i].line, entries[i].code_col),
                Subject::PieceName(i) => (entries[i].line, entries[i].name_col),
                Subject::Place(i) => (entries[i].line, entries[i].symbol_col),
                Subject::Goal => (goal.line, goal.x.1),
            };
            error(line, column, message)
        },
    )
}

/// Reads `goal: <code> <x> <y>`.
fn goal_line(line: &str, value_at: usize, number: usize) -> Result<GoalLine, LayoutError> {
    let mut tokens = Vec::new();
    let mut from = value_at;
    while let Some((start, end)) = next_token(line, from) {
        tokens.push((line[start..end].to_string(), column_of(line, start)));
        from = end;
    }
    if tokens.len() != 3 {
        let column = tokens.get(3).map_or(column_of(line, line.len()), |t| t.1);
        return Err(error(number, column, format!("expected {GOAL_SYNTAX}, e.g. `goal: cc 1 3`")));
    }
    let mut tokens = tokens.into_iter();
    let mut next = || tokens.next().unwrap_or_default();
    Ok(GoalLine { code: next(), x: next(), y: next(), line: number })
}

fn coordinate(token: &(String, usize), line: usize, axis: &str) -> Result<u32, LayoutError> {
    token.0.parse().map_err(|_| {
        error(
            line,
            token.1,
            format!(
                "expected the goal's {axis} as a number from 0, found `{}`",
                clipped(&token.0, ECHOED_CHARS)
            ),
        )
    })
}

/// Reads one board row: one character per cell, `.` for empty.
fn board_row(line: &str, number: usize, first_col: usize) -> Result<Row, LayoutError> {
    let mut cells = Vec::new();
    for (offset, c) in line.trim().chars().enumerate() {
        let column = first_col + offset;
        if c.is_whitespace() || c.is_control() {
            return Err(error(
                number,
                column,
                "expected a piece character or `.`: a row is one character per cell, with no spaces",
            ));
        }
        if matches!(c, ':' | '#') {
            return Err(error(number, column, format!("`{c}` cannot be a piece character")));
        }
        cells.push(c);
    }
    Ok(Row { cells, line: number, column: first_col })
}

/// Reads one legend line: `<character> <code> <display name>`.
fn legend_entry(line: &str, number: usize) -> Result<Entry, LayoutError> {
    let usage = "expected `<character> <code> <name>`, e.g. `C cc 曹操`";
    let Some((symbol_start, symbol_end)) = next_token(line, 0) else {
        return Err(error(number, 1, usage));
    };
    let symbol_col = column_of(line, symbol_start);
    let mut symbol_chars = line[symbol_start..symbol_end].chars();
    let (Some(symbol), None) = (symbol_chars.next(), symbol_chars.next()) else {
        return Err(error(
            number,
            symbol_col,
            format!("{usage}: the piece character is a single character as drawn on the board"),
        ));
    };
    if symbol == '.' {
        return Err(error(number, symbol_col, "`.` marks empty cells and cannot name a piece"));
    }
    let Some((code_start, code_end)) = next_token(line, symbol_end) else {
        return Err(error(number, column_of(line, line.len()), usage));
    };
    let Some((name_start, _)) = next_token(line, code_end) else {
        return Err(error(
            number,
            column_of(line, line.len()),
            format!("{usage}: the name is missing"),
        ));
    };
    Ok(Entry {
        symbol,
        code: line[code_start..code_end].to_string(),
        name: line[name_start..].trim_end().to_string(),
        line: number,
        symbol_col,
        code_col: column_of(line, code_start),
        name_col: column_of(line, name_start),
    })
}

/// Checks that legend characters are unique; maps each to its entry.
fn check_legend(entries: &[Entry]) -> Result<HashMap<char, usize>, LayoutError> {
    let mut symbols = HashMap::new();
    for (i, entry) in entries.iter().enumerate() {
        if let Some(&earlier) = symbols.get(&entry.symbol) {
            let earlier: &Entry = &entries[earlier];
            return Err(error(
                entry.line,
                entry.symbol_col,
                format!("`{}` is already in the legend (line {})", entry.symbol, earlier.line),
            ));
        }
        symbols.insert(entry.symbol, i);
    }
    Ok(symbols)
}

/// Finds a legend entry's cells on the board and checks they form one filled rectangle.
fn place(entry: &Entry, rows: &[Row]) -> Result<Piece, LayoutError> {
    let cells: Vec<(usize, usize)> = rows
        .iter()
        .enumerate()
        .flat_map(|(y, row)| {
            row.cells
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c == entry.symbol)
                .map(move |(x, _)| (x, y))
        })
        .collect();
    let Some(&(first_x, first_y)) = cells.first() else {
        return Err(error(
            entry.line,
            entry.symbol_col,
            format!("legend entry `{}` has no cells on the board", entry.symbol),
        ));
    };
    let (mut x0, mut x1, mut y1) = (first_x, first_x, first_y);
    for &(x, y) in &cells {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let (width, height) = (x1 - x0 + 1, y1 - first_y + 1);
    for row in rows.iter().take(y1 + 1).skip(first_y) {
        for x in x0..=x1 {
            if row.cells[x] != entry.symbol {
                return Err(error(
                    row.line,
                    row.column + x,
                    format!(
                        "`{}` is not a rectangle: expected `{}` here to fill its {width}×{height} \
                         box from x={x0}, y={first_y}, found `{}`",
                        entry.symbol, entry.symbol, row.cells[x]
                    ),
                ));
            }
        }
    }
    Ok(Piece {
        code: entry.code.clone(),
        name: entry.name.clone(),
        x: x0 as u32,
        y: first_y as u32,
        width: width as u32,
        height: height as u32,
    })
}

/// Writes a layout in the text format.
fn write(layout: &Layout) -> String {
    let symbols = symbols(layout.pieces());
    let mut text = String::new();
    if let Some(name) = layout.name() {
        text.push_str(&format!("name: {name}\n"));
    }
    text.push_str("board:\n");
    for y in 0..layout.height() {
        text.push_str("  ");
        for x in 0..layout.width() {
            text.push(layout.occupant(x, y).map_or('.', |i| symbols[i]));
        }
        text.push('\n');
    }
    text.push_str("legend:\n");
    for (piece, symbol) in layout.pieces().iter().zip(&symbols) {
        text.push_str(&format!("  {symbol} {} {}\n", piece.code, piece.name));
    }
    let goal = layout.goal();
    text.push_str(&format!("goal: {} {} {}\n", goal.piece, goal.x, goal.y));
    text
}

/// Picks a distinct board character per piece: a letter or digit of its code when free
/// (`cc` → `C`, `zy` → `Z` or `Y`), else the first free of `A–Z a–z 0–9` and then Latin
/// letters from U+00C0 (enough for the 256 pieces a board can hold).
fn symbols(pieces: &[Piece]) -> Vec<char> {
    let mut used = Vec::with_capacity(pieces.len());
    let fallback = ('A'..='Z')
        .chain('a'..='z')
        .chain('0'..='9')
        .chain(('\u{C0}'..='\u{24F}').filter(|c| c.is_alphabetic()));
    let fallback: Vec<char> = fallback.collect();
    for piece in pieces {
        let mut preferred = piece
            .code
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_uppercase())
            .chain(fallback.iter().copied());
        let symbol = preferred.find(|c| !used.contains(c)).unwrap_or('?');
        used.push(symbol);
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundled;

    const SMALL: &str = "\
# a tiny test layout
name: tiny
board:
  AAb
  ..c
legend:
  A big 大块
  b s1 Soldier one
  c s2 兵
goal: big 1 1
";

    fn parse_err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn a_small_layout_parses_with_pieces_in_legend_order() {
        let layout = parse(SMALL).unwrap();
        assert_eq!(layout.name(), Some("tiny"));
        assert_eq!((layout.width(), layout.height()), (3, 2));
        let codes: Vec<&str> = layout.pieces().iter().map(|p| p.code.as_str()).collect();
        assert_eq!(codes, ["big", "s1", "s2"]);
        let big = &layout.pieces()[0];
        assert_eq!((big.x, big.y, big.width, big.height), (0, 0, 2, 1));
        assert_eq!(layout.pieces()[1].name, "Soldier one");
        assert_eq!((layout.goal().x, layout.goal().y), (1, 1));
    }

    #[test]
    fn writing_then_parsing_gives_the_same_layout() {
        for layout in bundled::all() {
            let text = write(&layout);
            assert_eq!(parse(&text).unwrap(), layout, "{text}");
        }
        let tiny = parse(SMALL).unwrap();
        assert_eq!(parse(&write(&tiny)).unwrap(), tiny);
    }

    #[test]
    fn the_classic_is_written_with_the_letters_of_its_codes() {
        let text = write(&Layout::default());
        assert!(text.contains("  ZCCH\n  ZCCH\n  YGGM\n  Y34M\n  1..2\n"), "{text}");
        assert!(text.contains("  C cc 曹操\n"), "{text}");
        assert!(text.ends_with("goal: cc 1 3\n"), "{text}");
    }

    #[test]
    fn a_non_rectangular_piece_points_at_the_missing_cell() {
        let text = SMALL.replace("  ..c", "  A.c");
        assert_eq!(
            parse_err(&text),
            "5:4: `A` is not a rectangle: expected `A` here to fill its 2×2 box from x=0, y=0, found `.`"
        );
    }

    #[test]
    fn two_separate_blobs_of_one_character_are_not_a_rectangle() {
        let text = SMALL.replace("  AAb", "  AbA");
        assert!(
            parse_err(&text).starts_with("4:4: `A` is not a rectangle"),
            "{}",
            parse_err(&text)
        );
    }

    #[test]
    fn a_character_missing_from_the_legend_is_pointed_at() {
        let text = SMALL.replace("  ..c", "  .Xc");
        assert_eq!(
            parse_err(&text),
            "5:4: piece character `X` is not in the legend (or use `.` for an empty cell)"
        );
    }

    #[test]
    fn a_legend_entry_without_cells_is_pointed_at() {
        let text = SMALL.replace("goal:", "  d s3 卒\ngoal:");
        assert_eq!(parse_err(&text), "10:3: legend entry `d` has no cells on the board");
    }

    #[test]
    fn ragged_rows_are_pointed_at() {
        let text = SMALL.replace("  ..c", "  ..cc");
        assert_eq!(
            parse_err(&text),
            "5:6: this row has 4 cells, expected 3 like the first row (line 4)"
        );
        let short = SMALL.replace("  ..c", "  ..");
        assert_eq!(
            parse_err(&short),
            "5:5: this row has 2 cells, expected 3 like the first row (line 4)"
        );
    }

    #[test]
    fn bad_goals_are_pointed_at() {
        let unknown = SMALL.replace("goal: big 1 1", "goal: cc 1 1");
        assert_eq!(
            parse_err(&unknown),
            "10:7: the goal names `cc`, which is not a code in the legend"
        );
        let not_number = SMALL.replace("goal: big 1 1", "goal: big one 1");
        assert_eq!(
            parse_err(&not_number),
            "10:11: expected the goal's x as a number from 0, found `one`"
        );
        let outside = SMALL.replace("goal: big 1 1", "goal: big 2 1");
        assert!(parse_err(&outside).starts_with("10:11: 大块 (big) is 2×1: at x=2, y=1"));
        let short = SMALL.replace("goal: big 1 1", "goal: big 1");
        assert!(parse_err(&short).starts_with("10:12: expected `goal: <code> <x> <y>`"));
        let missing = SMALL.replace("goal: big 1 1\n", "");
        assert!(parse_err(&missing).starts_with("10:1: expected a `goal: <code> <x> <y>`"));
    }

    #[test]
    fn duplicate_codes_and_characters_are_pointed_at() {
        let code = SMALL.replace("c s2 兵", "c s1 兵");
        assert_eq!(parse_err(&code), "9:5: code `s1` is already used by piece 2");
        let symbol = SMALL.replace("c s2 兵", "b s2 兵");
        assert_eq!(parse_err(&symbol), "9:3: `b` is already in the legend (line 8)");
    }

    #[test]
    fn bad_codes_and_names_are_pointed_at() {
        let upper = SMALL.replace("c s2 兵", "c S2 兵");
        assert!(parse_err(&upper).starts_with("9:5: code `S2` is not valid"));
        let reserved = SMALL.replace("c s2 兵", "c hint 兵");
        assert!(parse_err(&reserved).starts_with("9:5: code `hint` is reserved"));
        let long = SMALL.replace("c s2 兵", "c s2 a name much longer than allowed");
        assert!(
            parse_err(&long)
                .starts_with("9:8: piece name `a name much longer than allowed` is longer")
        );
        let nameless = SMALL.replace("c s2 兵", "c s2");
        assert_eq!(
            parse_err(&nameless),
            "9:7: expected `<character> <code> <name>`, e.g. `C cc 曹操`: the name is missing"
        );
        let wide = SMALL.replace("c s2 兵", "cc s2 兵");
        assert!(parse_err(&wide).starts_with("9:3: expected `<character> <code> <name>`"));
        let dot = SMALL.replace("c s2 兵", ". s2 兵");
        assert_eq!(parse_err(&dot), "9:3: `.` marks empty cells and cannot name a piece");
    }

    #[test]
    fn structure_errors_say_what_was_expected() {
        assert_eq!(parse_err(""), "1:1: expected a `board:` section");
        assert_eq!(
            parse_err("board:\nlegend:\n"),
            "1:1: the board has no rows: expected rows of cells below `board:`"
        );
        let stray = SMALL.replace("name: tiny", "nmae: tiny");
        assert!(
            parse_err(&stray).starts_with("2:1: expected `name:`, `board:`, `legend:` or `goal:`")
        );
        let twice = format!("{SMALL}board:\n");
        assert_eq!(parse_err(&twice), "11:1: a second `board:` line (the first is on line 3)");
        let trailing = SMALL.replace("board:", "board: AAb");
        assert_eq!(
            parse_err(&trailing),
            "3:8: expected nothing after `board:`; its lines go below it"
        );
        let spaced = SMALL.replace("  ..c", "  . c");
        assert!(parse_err(&spaced).starts_with("5:4: expected a piece character or `.`"));
        let colon = SMALL.replace("  ..c", "  .#c");
        assert_eq!(parse_err(&colon), "5:4: `#` cannot be a piece character");
        let empty_name = SMALL.replace("name: tiny", "name:");
        assert_eq!(parse_err(&empty_name), "2:6: expected the layout's name after `name:`");
    }

    #[test]
    fn oversized_boards_are_refused() {
        let row = "A".repeat(17);
        let text = format!("board:\n{row}\nlegend:\nA a x\ngoal: a 0 0\n");
        assert_eq!(parse_err(&text), "1:1: the board is 17×1; each side must be at most 16 cells");
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = SMALL.replace("c s2 兵", "c 兵 兵");
        assert!(parse_err(&text).starts_with("9:5: code `兵` is not valid"));
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        assert_eq!(parse(&format!("\u{feff}{SMALL}")).unwrap(), parse(SMALL).unwrap());
        let windows = format!("\u{feff}{}", SMALL.replace('\n', "\r\n"));
        assert_eq!(parse(&windows).unwrap(), parse(SMALL).unwrap());
        // Positions count from after the mark.
        let text = format!("\u{feff}{}", SMALL.replace("name: tiny", "nmae: tiny"));
        assert!(parse_err(&text).starts_with("2:1: expected `name:`"), "{}", parse_err(&text));
        // Only at the start: elsewhere it is an ordinary character.
        let inner = SMALL.replace("  ..c", "  .\u{feff}c");
        assert!(parse_err(&inner).starts_with("5:4: piece character `\u{feff}`"));
    }

    #[test]
    fn a_name_is_as_long_as_the_characters_a_person_sees() {
        // `é` written as `e` and a combining acute accent: one character, two code points.
        let accented = "e\u{301}";
        let sixteen = SMALL.replace("c s2 兵", &format!("c s2 {}", accented.repeat(16)));
        let layout = parse(&sixteen).unwrap();
        assert_eq!(layout.pieces()[2].name, accented.repeat(16));
        let seventeen = SMALL.replace("c s2 兵", &format!("c s2 {}", accented.repeat(17)));
        assert_eq!(
            parse_err(&seventeen),
            format!(
                "9:8: piece name `{}` is longer than 16 characters (it has 17)",
                accented.repeat(17)
            )
        );
        let stacked = SMALL.replace("c s2 兵", &format!("c s2 a{}", "\u{301}".repeat(64)));
        assert_eq!(
            parse_err(&stacked),
            format!(
                "9:8: piece name `a{}` has 65 code points, more than 64 (16 characters of at most 4: a letter and its accents)",
                "\u{301}".repeat(64)
            )
        );
    }

    #[test]
    fn a_huge_name_or_token_is_echoed_only_in_part() {
        let huge = "x".repeat(100_000);
        let name = SMALL.replace("name: tiny", &format!("name: {huge}"));
        let shown = format!("{}…", "x".repeat(80));
        assert_eq!(
            parse_err(&name),
            format!("2:7: layout name `{shown}` is longer than 64 characters (it has 100000)")
        );
        let goal = SMALL.replace("goal: big 1 1", &format!("goal: {huge} 1 1"));
        assert_eq!(
            parse_err(&goal),
            format!("10:7: the goal names `{shown}`, which is not a code in the legend")
        );
        let x = SMALL.replace("goal: big 1 1", &format!("goal: big {huge} 1"));
        assert_eq!(
            parse_err(&x),
            format!("10:11: expected the goal's x as a number from 0, found `{shown}`")
        );
        let code = SMALL.replace("c s2 兵", &format!("c {huge} 兵"));
        assert!(parse_err(&code).starts_with(&format!("9:5: code `{shown}` is not valid")));
    }

    #[test]
    fn names_and_codes_echoed_in_errors_are_escaped() {
        let title = "\u{1b}]0;owned\u{7}";
        let name = SMALL.replace("c s2 兵", &format!("c s2 兵{title}"));
        assert_eq!(
            parse_err(&name),
            "9:8: piece name `兵\\u{1b}]0;owned\\u{7}` contains a control or bidirectional \
             formatting character"
        );
        let code = SMALL.replace("c s2 兵", "c s\u{1b}[2J 兵");
        assert!(parse_err(&code).starts_with("9:5: code `s\\u{1b}[2J` is not valid"));
        let goal = SMALL.replace("goal: big 1 1", "goal: \u{1b}[2J 1 1");
        assert_eq!(
            parse_err(&goal),
            "10:7: the goal names `\\u{1b}[2J`, which is not a code in the legend"
        );
        let layout = SMALL.replace("name: tiny", "name: tiny\u{202e}");
        assert!(parse_err(&layout).starts_with("2:7: layout name `tiny\\u{202e}` contains a"));
        for text in [name, code, goal, layout] {
            let err = parse_err(&text);
            assert!(!err.chars().any(|c| c.is_control() || c == '\u{202e}'), "{err:?}");
        }
    }

    #[test]
    fn crlf_line_endings_parse() {
        let layout = parse(&SMALL.replace('\n', "\r\n")).unwrap();
        assert_eq!(layout, parse(SMALL).unwrap());
    }

    #[test]
    fn arbitrary_text_never_panics() {
        use botlens_engine::{SeedRng, Stream};
        let alphabet: Vec<char> =
            "AAbc.. \n\n:#名12goal:board:legend:name: x\u{0}\r".chars().collect();
        let seeds = [SMALL.to_string(), write(&Layout::default())];
        for round in 0..3000u64 {
            let mut rng = SeedRng::new(round, Stream::Setup);
            let mut text: Vec<char> = seeds[rng.index(2)].chars().collect();
            for _ in 0..1 + rng.index(6) {
                let at = rng.index(text.len() + 1);
                match rng.index(3) {
                    0 if at < text.len() => {
                        text.remove(at);
                    }
                    1 if at < text.len() => text[at] = alphabet[rng.index(alphabet.len())],
                    _ => text.insert(at, alphabet[rng.index(alphabet.len())]),
                }
            }
            let text: String = text.into_iter().collect();
            if let Ok(layout) = parse(&text) {
                assert_eq!(parse(&write(&layout)).unwrap(), layout, "{text}");
            }
        }
    }
}

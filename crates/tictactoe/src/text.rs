//! Tic-tac-toe as text for people: the board drawn with axis labels, and moves typed at a prompt.
//!
//! Not for the JSON board strings bots see: those are the protocol's, written by `board`.

use std::fmt::Write;

use botlens_engine::picture::{Spot, TextCell};
use botlens_protocol::tictactoe::{Mark, Side};

use crate::board::{Board, SIZE};

/// What a typed move looks like, for error messages.
const EXPECTED: &str = concat!(
    "expected a square as `x y` or `x,y` (column x and row y, 0–2) ",
    "or as a column letter and row like `b3` (a–c, 1–3)"
);

/// The board with column (`x`) and row (`y`) labels, one line per row, ending in a newline:
///
/// ```text
///   x 0   1   2
///  y
///  0  X |   | O
///    ---+---+---
///  1    | X |
///    ---+---+---
///  2    |   |
/// ```
pub(crate) fn board(board: &Board) -> String {
    let mut text = String::from("  x 0   1   2\n y\n");
    for y in 0..SIZE {
        if y > 0 {
            text.push_str("   ---+---+---\n");
        }
        let cells: Vec<char> =
            (0..SIZE).map(|x| board.get(y * SIZE + x).map_or(' ', Side::to_char)).collect();
        let row = format!(" {y}  {} | {} | {}", cells[0], cells[1], cells[2]);
        // Writing to a String cannot fail.
        let _ = writeln!(text, "{}", row.trim_end());
    }
    text
}

/// Where square `spot` of the picture shows in [`board`]'s text: its mark, on its row's line.
pub(crate) fn cell(spot: Spot) -> Option<TextCell> {
    (spot.grid == 0 && spot.x < SIZE && spot.y < SIZE).then(|| TextCell {
        line: 2 + 2 * spot.y,
        column: 4 + 4 * spot.x,
        width: 1,
    })
}

/// Parses a typed move: `1 2`, `1,2`, `(1, 2)`, `mark(1, 2)` (x then y, 0-based) or `b3`
/// (column letter a–c, row 1–3). Numbers out of range parse, so the rules can say which
/// coordinate is off; a letter-and-row square must be on the board.
pub(crate) fn parse_mark(input: &str) -> Result<Mark, String> {
    let text = input.trim();
    let text = text.strip_prefix("mark").unwrap_or(text).trim();
    let text = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or(text);
    if let Some(mark) = letter_and_row(text)? {
        return Ok(mark);
    }
    let parts: Vec<&str> =
        text.split(|c: char| c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()).collect();
    match parts[..] {
        [x, y] => match (x.parse(), y.parse()) {
            (Ok(x), Ok(y)) => Ok(Mark { x, y }),
            _ => Err(EXPECTED.into()),
        },
        _ => Err(EXPECTED.into()),
    }
}

/// `b3`-style squares: `None` when the text is not of that shape.
fn letter_and_row(text: &str) -> Result<Option<Mark>, String> {
    let mut chars = text.chars();
    let (Some(letter), Some(digit), None) = (chars.next(), chars.next(), chars.next()) else {
        return Ok(None);
    };
    if !letter.is_ascii_alphabetic() || !digit.is_ascii_digit() {
        return Ok(None);
    }
    let column = letter.to_ascii_lowercase();
    if !('a'..='c').contains(&column) || !('1'..='3').contains(&digit) {
        return Err(format!("no square `{text}`: columns are a–c and rows 1–3, like `b3`"));
    }
    Ok(Some(Mark { x: i32::from(column as u8 - b'a'), y: i32::from(digit as u8 - b'1') }))
}

#[cfg(test)]
mod tests {
    use botlens_engine::Game;

    use super::*;
    use crate::TicTacToe;
    use crate::game::tests::position;

    #[test]
    fn the_board_is_drawn_with_axis_labels() {
        let game = position(0, &[(0, 0), (2, 0), (1, 1)]);
        let expected = "
  x 0   1   2
 y
 0  X |   | O
   ---+---+---
 1    | X |
   ---+---+---
 2    |   |
seat 0 plays X, seat 1 plays O
";
        assert_eq!(game.render(), &expected[1..]);
    }

    #[test]
    fn each_square_of_the_picture_shows_where_its_text_cell_says() {
        let game = position(1, &[(1, 1), (2, 0), (0, 2), (2, 2)]);
        let (text, picture) = (game.render(), game.picture().expect("a picture"));
        let grid = &picture.grids[0];
        for (index, state) in grid.cells().iter().enumerate() {
            let spot = Spot { grid: 0, x: index % SIZE, y: index / SIZE };
            let cell = game.text_cell(spot).expect("every square shows");
            let line = text.lines().nth(cell.line).unwrap_or_default();
            let shown = line.get(cell.column..cell.column + cell.width).unwrap_or(" ");
            let expected = match *state {
                "x" => "X",
                "o" => "O",
                _ => " ",
            };
            assert_eq!(shown, expected, "{spot:?} in\n{text}");
        }
        assert_eq!(game.text_cell(Spot { grid: 0, x: 3, y: 0 }), None);
        assert_eq!(game.text_cell(Spot { grid: 1, x: 0, y: 0 }), None);
    }

    #[test]
    fn a_view_shows_the_board_and_your_side() {
        let game = position(1, &[(2, 2)]);
        let expected = "
  x 0   1   2
 y
 0    |   |
   ---+---+---
 1    |   |
   ---+---+---
 2    |   | X
you play O
";
        assert_eq!(TicTacToe::render_view(&game.view(0)), &expected[1..]);
        assert!(TicTacToe::render_view(&game.view(1)).ends_with("you play X\n"));
    }

    #[test]
    fn moves_parse_as_numbers_or_letter_and_row() {
        let cases = [
            ("1 2", (1, 2)),
            ("  0   2 ", (0, 2)),
            ("1,2", (1, 2)),
            ("1, 2", (1, 2)),
            ("(2, 0)", (2, 0)),
            ("mark(2, 1)", (2, 1)),
            ("b3", (1, 2)),
            ("A1", (0, 0)),
            ("c2", (2, 1)),
        ];
        for (text, (x, y)) in cases {
            assert_eq!(parse_mark(text), Ok(Mark { x, y }), "{text:?}");
        }
    }

    #[test]
    fn out_of_range_numbers_parse_so_the_rules_can_name_the_coordinate() {
        assert_eq!(parse_mark("3 -1"), Ok(Mark { x: 3, y: -1 }));
        let mut game = position(0, &[]);
        let err = game.apply(0, &parse_mark("3 -1").unwrap()).unwrap_err();
        assert_eq!(err.0, "x out of range 0..=2");
    }

    #[test]
    fn garbage_is_refused_saying_what_a_move_looks_like() {
        for text in ["", "hello", "1", "1 2 3", "x y", "1.5 2", "99999999999 1", "mark", "()"] {
            let err = parse_mark(text).unwrap_err();
            assert!(err.contains("`x y`") && err.contains("`b3`"), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_letter_and_row_off_the_board_is_refused() {
        for text in ["d1", "a0", "a4", "z9"] {
            let err = parse_mark(text).unwrap_err();
            assert_eq!(err, format!("no square `{text}`: columns are a–c and rows 1–3, like `b3`"));
        }
    }
}

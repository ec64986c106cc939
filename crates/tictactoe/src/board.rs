//! The 3×3 board as plain data: squares (and the square a mark names), the eight lines, the board
//! string and the base-3 code the perfect player memoises on.
//!
//! Not for rules about whose turn it is or which seat plays which side: that is
//! [`TicTacToe`](crate::TicTacToe). The board only knows marks, lines and what a position reachable
//! by legal play looks like.

use std::fmt;

use botlens_engine::IllegalMove;
use botlens_protocol::tictactoe::{Mark, Side, TicTacToeView};

/// Width and height of the board.
pub(crate) const SIZE: usize = 3;

/// Number of squares; square `i` is column `i % 3`, row `i / 3` (row-major, as board strings).
pub(crate) const SQUARES: usize = SIZE * SIZE;

/// Number of distinct boards, legal or not: each square is empty, X or O.
pub(crate) const CODES: usize = 3usize.pow(SQUARES as u32);

/// The square index (row-major) of an in-range mark, or the rule it breaks.
pub(crate) fn square_of(mark: &Mark) -> Result<usize, IllegalMove> {
    let max = SIZE as i32 - 1;
    for (axis, value) in [("x", mark.x), ("y", mark.y)] {
        if !(0..=max).contains(&value) {
            return Err(IllegalMove(format!("{axis} out of range 0..={max}")));
        }
    }
    Ok(mark.y as usize * SIZE + mark.x as usize)
}

/// One of the eight winning lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line {
    /// How an ending names it: `row 0`, `column 2`, `diagonal (0, 0)-(2, 2)`.
    pub name: &'static str,
    /// Its squares, row-major indices.
    pub squares: [usize; 3],
}

/// Rows, then columns, then the two diagonals.
pub(crate) const LINES: [Line; 8] = [
    Line { name: "row 0", squares: [0, 1, 2] },
    Line { name: "row 1", squares: [3, 4, 5] },
    Line { name: "row 2", squares: [6, 7, 8] },
    Line { name: "column 0", squares: [0, 3, 6] },
    Line { name: "column 1", squares: [1, 4, 7] },
    Line { name: "column 2", squares: [2, 5, 8] },
    Line { name: "diagonal (0, 0)-(2, 2)", squares: [0, 4, 8] },
    Line { name: "diagonal (2, 0)-(0, 2)", squares: [2, 4, 6] },
];

/// Nine squares, each empty or marked by a side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Board([Option<Side>; SQUARES]);

impl Board {
    /// The mark on square `index` (row-major).
    pub fn get(&self, index: usize) -> Option<Side> {
        self.0[index]
    }

    /// Marks square `index` for `side`.
    pub fn set(&mut self, index: usize, side: Side) {
        self.0[index] = Some(side);
    }

    /// How many squares `side` has marked.
    pub fn count(&self, side: Side) -> usize {
        self.0.iter().filter(|&&square| square == Some(side)).count()
    }

    /// The side to move if this position arose by legal play: X when both have as many marks.
    pub fn side_to_move(&self) -> Side {
        if self.count(Side::X) == self.count(Side::O) { Side::X } else { Side::O }
    }

    /// The empty squares, in row-major order.
    pub fn empty_squares(&self) -> impl Iterator<Item = usize> + '_ {
        (0..SQUARES).filter(|&index| self.0[index].is_none())
    }

    /// Whether no square is empty.
    pub fn is_full(&self) -> bool {
        self.0.iter().all(Option::is_some)
    }

    /// The first complete line (in [`LINES`] order) and whose it is.
    pub fn completed_line(&self) -> Option<(Side, &'static Line)> {
        LINES.iter().find_map(|line| {
            let [a, b, c] = line.squares.map(|index| self.0[index]);
            match a {
                Some(side) if b == a && c == a => Some((side, line)),
                _ => None,
            }
        })
    }

    /// Whether `side` has a complete line.
    fn has_line(&self, side: Side) -> bool {
        LINES.iter().any(|line| line.squares.iter().all(|&index| self.0[index] == Some(side)))
    }

    /// The board a player sees; malformed view strings read as empty squares, so this is total.
    pub fn from_view(view: &TicTacToeView) -> Board {
        let mut board = Board::default();
        for index in 0..SQUARES {
            if let Some(side) = view.at(index % SIZE, index / SIZE) {
                board.set(index, side);
            }
        }
        board
    }

    /// Parses a 9-character board string (`X`, `O` or `.`, row-major) of a position that legal
    /// play can reach; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Board, String> {
        let mut board = Board::default();
        let mut chars = text.chars();
        for index in 0..SQUARES {
            match chars.next() {
                Some('X') => board.set(index, Side::X),
                Some('O') => board.set(index, Side::O),
                Some('.') => {}
                _ => return Err(format!("board `{text}` is not 9 characters of X, O or .")),
            }
        }
        if chars.next().is_some() {
            return Err(format!("board `{text}` is not 9 characters of X, O or ."));
        }
        board.check_reachable().map(|()| board)
    }

    /// Checks that legal play can reach this position: X moves first and sides alternate, and
    /// nobody moved after a line was completed.
    pub fn check_reachable(&self) -> Result<(), String> {
        let (xs, os) = (self.count(Side::X), self.count(Side::O));
        if xs != os && xs != os + 1 {
            return Err(format!(
                "X has {xs} marks and O has {os}: X moves first and the sides alternate"
            ));
        }
        match (self.has_line(Side::X), self.has_line(Side::O)) {
            (true, true) => Err("both X and O have three in a row".into()),
            (true, false) if xs == os => Err("X has three in a row but O moved after it".into()),
            (false, true) if xs > os => Err("O has three in a row but X moved after it".into()),
            _ => Ok(()),
        }
    }

    /// The position as a base-3 number (empty 0, X 1, O 2; square 0 least significant).
    pub fn code(&self) -> usize {
        self.0.iter().rev().fold(0, |code, square| code * 3 + digit(*square))
    }

    /// The board with the given code (any number below [`CODES`]).
    pub fn from_code(mut code: usize) -> Board {
        let mut board = Board::default();
        for index in 0..SQUARES {
            match code % 3 {
                1 => board.set(index, Side::X),
                2 => board.set(index, Side::O),
                _ => {}
            }
            code /= 3;
        }
        board
    }

    /// The code of this board with square `index` (empty) marked for `side`.
    pub fn code_with(&self, index: usize, side: Side) -> usize {
        self.code() + digit(Some(side)) * 3usize.pow(index as u32)
    }
}

fn digit(square: Option<Side>) -> usize {
    match square {
        None => 0,
        Some(Side::X) => 1,
        Some(Side::O) => 2,
    }
}

/// The board string: 9 characters, row-major, `X`, `O` or `.`.
impl Board {
    /// The board string ([`fmt::Display`]): 9 characters, row-major, `X`, `O` or `.`; made
    /// without the formatting machinery, since a wasm bot's view carries it every turn.
    pub fn text(&self) -> String {
        self.0.iter().map(|square| square.map_or('.', Side::to_char)).collect()
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_strings_round_trip() {
        let board = Board::parse("XO..X...O").expect("legal");
        assert_eq!(board.to_string(), "XO..X...O");
        assert_eq!(board.get(4), Some(Side::X));
        assert_eq!(board.empty_squares().collect::<Vec<_>>(), vec![2, 3, 5, 6, 7]);
    }

    #[test]
    fn malformed_board_strings_are_refused() {
        for text in ["", "XO..X...", "XO..X...O.", "xo.......", "XO..X..?O"] {
            let err = Board::parse(text).unwrap_err();
            assert!(err.contains("is not 9 characters of X, O or ."), "{text}: {err}");
        }
    }

    #[test]
    fn unreachable_boards_are_refused_with_the_reason() {
        let cases = [
            ("XX.......", "X has 2 marks and O has 0: X moves first and the sides alternate"),
            ("O........", "X has 0 marks and O has 1: X moves first and the sides alternate"),
            ("XXXOOO...", "both X and O have three in a row"),
            ("XXXOO.O..", "X has three in a row but O moved after it"),
            ("OOOXX.X.X", "O has three in a row but X moved after it"),
        ];
        for (text, reason) in cases {
            assert_eq!(Board::parse(text).unwrap_err(), reason, "{text}");
        }
    }

    #[test]
    fn codes_round_trip_over_every_board() {
        for code in 0..CODES {
            assert_eq!(Board::from_code(code).code(), code);
        }
        let board = Board::parse("X...O....").unwrap();
        assert_eq!(board.code_with(8, Side::X), Board::parse("X...O...X").unwrap().code());
    }

    #[test]
    fn the_first_completed_line_is_named() {
        let board = Board::parse("XXXOO....").unwrap();
        assert_eq!(
            board.completed_line().map(|(side, line)| (side, line.name)),
            Some((Side::X, "row 0"))
        );
        assert_eq!(Board::parse("XO.XO.X..").unwrap().completed_line().unwrap().1.name, "column 0");
        assert_eq!(Board::parse("XOXOXO...").unwrap().completed_line(), None);
    }

    #[test]
    fn every_line_is_three_distinct_squares_in_a_straight_line() {
        for line in LINES {
            let [a, b, c] = line.squares.map(|i| ((i % SIZE) as i32, (i / SIZE) as i32));
            assert_eq!((b.0 - a.0, b.1 - a.1), (c.0 - b.0, c.1 - b.1), "{}", line.name);
            assert_ne!(a, b, "{}", line.name);
        }
    }
}

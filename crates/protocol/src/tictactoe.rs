//! Tic-tac-toe messages: `mark(x, y)` on a 3×3 board.

use std::fmt;

use crate::{wire_names, wire_struct};

/// Marks a square. JSON: `{"x": 1, "y": 2}`. Signed so an out-of-range mark is representable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mark {
    /// Column, 0–2.
    pub x: i32,
    /// Row, 0–2.
    pub y: i32,
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mark({}, {})", self.x, self.y)
    }
}

/// A side: X moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// The first player (`X` in board strings and JSON).
    X,
    /// The second player (`O`).
    O,
}

impl Side {
    /// The board-string character for this side.
    pub fn to_char(self) -> char {
        match self {
            Side::X => 'X',
            Side::O => 'O',
        }
    }

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::X => Side::O,
            Side::O => Side::X,
        }
    }
}

/// The answer to a legal mark: the board after it. JSON: `{"board": "X...O...."}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Marked {
    /// 9 characters, row-major (`y * 3 + x`): `X`, `O` or `.`.
    pub board: String,
}

/// What a Tic-tac-toe player sees. JSON: `{"board": "X...O....", "you": "O"}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TicTacToeView {
    /// 9 characters, row-major (`y * 3 + x`): `X`, `O` or `.`.
    pub board: String,
    /// The side this player plays.
    pub you: Side,
}

impl TicTacToeView {
    /// The side on square `(x, y)`, if any; out of range reads as empty.
    pub fn at(&self, x: usize, y: usize) -> Option<Side> {
        if x >= 3 || y >= 3 {
            return None;
        }
        match self.board.as_bytes().get(y * 3 + x) {
            Some(b'X') => Some(Side::X),
            Some(b'O') => Some(Side::O),
            _ => None,
        }
    }
}

wire_struct!(Mark { x, y });
wire_names!(Side { X => "X", O => "O" });
wire_struct!(Marked { board });
wire_struct!(TicTacToeView { board, you });

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::compact::tests::in_both_forms;

    proptest! {
        #[test]
        fn messages_are_serde_json_bytes_and_round_trip_compact(
            x in any::<i32>(),
            y in any::<i32>(),
            board in "[XO.]{9}",
            x_to_move in any::<bool>(),
        ) {
            in_both_forms(&Mark { x, y });
            in_both_forms(&Marked { board: board.clone() });
            let you = if x_to_move { Side::X } else { Side::O };
            in_both_forms(&TicTacToeView { board, you });
        }
    }
}

//! Klotski (Huarong Dao) messages: `slide(piece, dir)` moves one piece one cell.

use std::fmt;

use crate::{wire_names, wire_struct};

/// A direction to slide in. JSON: `"up"`, `"down"`, `"left"`, `"right"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
    /// Towards the last column.
    Right,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The cell offset `(dx, dy)` of one slide.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }

    /// The direction that undoes a slide this way.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// Lower-case name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }
}

/// Slides a piece one cell. JSON: `{"piece": "cc", "dir": "down"}`; `piece` is the piece's code
/// as listed in the view.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Slide {
    /// The piece's code (`cc` for Cao Cao in the classic layouts).
    pub piece: String,
    /// Where to.
    pub dir: Dir,
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "slide({}, {})", self.piece, self.dir.name())
    }
}

/// The answer to a legal slide. JSON: `{"moves": 12, "steps": 9, "solved": false}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Slid {
    /// One-cell slides so far.
    pub moves: u32,
    /// Steps so far (consecutive slides of the same piece count as one).
    pub steps: u32,
    /// Whether the goal piece is now on its target.
    pub solved: bool,
}

/// A piece on the board, 0-based top-left cell.
/// JSON: `{"code": "cc", "name": "曹操", "x": 1, "y": 0, "width": 2, "height": 2}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PieceView {
    /// Short code used in `slide` (`cc`, `zf`, `1`, …).
    pub code: String,
    /// Display name (`曹操`).
    pub name: String,
    /// Column of the top-left cell.
    pub x: u32,
    /// Row of the top-left cell.
    pub y: u32,
    /// Width in cells.
    pub width: u32,
    /// Height in cells.
    pub height: u32,
}

/// Where the goal piece must go. JSON: `{"piece": "cc", "x": 1, "y": 3}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Goal {
    /// The goal piece's code.
    pub piece: String,
    /// Target column of its top-left cell.
    pub x: u32,
    /// Target row of its top-left cell.
    pub y: u32,
}

/// What a Klotski player sees: the whole board.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KlotskiView {
    /// Board width in cells.
    pub width: u32,
    /// Board height in cells.
    pub height: u32,
    /// Every piece and where it is.
    pub pieces: Vec<PieceView>,
    /// The goal.
    pub goal: Goal,
    /// One-cell slides made so far.
    pub moves: u32,
    /// Steps made so far.
    pub steps: u32,
}

wire_names!(Dir { Up => "up", Down => "down", Left => "left", Right => "right" });
wire_struct!(Slide { piece, dir });
wire_struct!(Slid { moves, steps, solved });
wire_struct!(PieceView { code, name, x, y, width, height });
wire_struct!(Goal { piece, x, y });
wire_struct!(KlotskiView { width, height, pieces, goal, moves, steps });

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::compact::tests::in_both_forms;

    fn piece() -> impl Strategy<Value = PieceView> {
        (any::<String>(), "[曹操关羽张飞兵卒]{1,3}", any::<[u32; 4]>()).prop_map(
            |(code, name, [x, y, width, height])| PieceView { code, name, x, y, width, height },
        )
    }

    proptest! {
        #[test]
        fn messages_are_serde_json_bytes_and_round_trip_compact(
            piece_code in any::<String>(),
            dir in proptest::sample::select(Dir::ALL.to_vec()),
            numbers in any::<[u32; 6]>(),
            solved in any::<bool>(),
            pieces in proptest::collection::vec(piece(), 0..12),
        ) {
            let [moves, steps, width, height, x, y] = numbers;
            in_both_forms(&Slide { piece: piece_code.clone(), dir });
            in_both_forms(&Slid { moves, steps, solved });
            let goal = Goal { piece: piece_code, x, y };
            in_both_forms(&KlotskiView { width, height, pieces, goal, moves, steps });
        }
    }
}

//! A position as a picture: grids of cells, each with a semantic state (`water`, `hit`, `x`),
//! and labelled rectangular blocks over them (a Klotski piece, the goal area), for viewers that
//! draw boards rather than print text — the replay's HTML page. Plus [`Spot`], a cell of a
//! picture, which is how a game says which cells an action touches, and [`TextCell`], where a
//! spot shows in the game's text, for viewers that print the text and highlight the spots.
//!
//! The description is presentation-neutral: it says *what* is on a square, never a colour or a
//! glyph. A viewer styles the names in [`state`] it knows and draws any other name in a neutral
//! shade, named in its legend, so a new game needs nothing but its own
//! [`Game::picture`](crate::Game::picture) (and
//! [`Game::action_cells`](crate::Game::action_cells)).
//!
//! Coordinates are 0-based, `x` the column and `y` the row, as in the games' own actions.

use serde::Serialize;

/// What is on a cell, or what a block is: a short `snake_case` name.
///
/// The names in [`state`] are the ones viewers know; a game may use others.
pub type State = &'static str;

/// The states and block kinds viewers know how to draw. Any other [`State`] is shown in a
/// neutral shade, with its name in the legend.
pub mod state {
    use super::State;

    /// A square with nothing on it (Tic-tac-toe).
    pub const EMPTY: State = "empty";
    /// Open water nobody has shot at (Battleships).
    pub const WATER: State = "water";
    /// A ship's square not hit yet.
    pub const SHIP: State = "ship";
    /// A ship's square that was hit, the ship still afloat.
    pub const HIT: State = "hit";
    /// Water that was shot at.
    pub const MISS: State = "miss";
    /// A square of a sunk ship.
    pub const SUNK: State = "sunk";
    /// A square marked X.
    pub const X: State = "x";
    /// A square marked O.
    pub const O: State = "o";
    /// The floor of a sliding puzzle, under its pieces (Klotski).
    pub const FLOOR: State = "floor";
    /// A block: a movable piece.
    pub const PIECE: State = "piece";
    /// A block: the piece that must reach the goal.
    pub const GOAL_PIECE: State = "goal_piece";
    /// A block: the area the goal piece must reach, drawn under the pieces.
    pub const GOAL: State = "goal";
}

/// A position drawn as one or more grids (Battleships has both fleets side by side).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Picture {
    /// The grids, in the order they are shown; a [`Spot`] names one by its index here.
    pub grids: Vec<Grid>,
}

impl Picture {
    /// Whether `spot` is a cell of one of the grids.
    pub fn contains(&self, spot: &Spot) -> bool {
        self.grids.get(spot.grid).is_some_and(|grid| grid.contains(spot.x, spot.y))
    }
}

/// A titled rectangle of cells, each with a [`State`], and blocks lying over them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    title: String,
    width: usize,
    height: usize,
    cells: Vec<State>,
    blocks: Vec<Block>,
}

impl Grid {
    /// A `width` × `height` grid titled `title` (`seat 0 fleet`), every cell `fill`.
    pub fn new(title: impl Into<String>, width: usize, height: usize, fill: State) -> Grid {
        let cells = vec![fill; width * height];
        Grid { title: title.into(), width, height, cells, blocks: Vec::new() }
    }

    /// What the grid shows, for a caption.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Whether `(x, y)` is a cell of the grid.
    pub fn contains(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height
    }

    /// The state of cell `(x, y)`, if the grid has that cell.
    pub fn get(&self, x: usize, y: usize) -> Option<State> {
        self.contains(x, y).then(|| self.cells[y * self.width + x])
    }

    /// Sets cell `(x, y)` to `state`.
    ///
    /// # Panics
    ///
    /// If the grid has no cell `(x, y)`: the game drew outside its own board.
    pub fn set(&mut self, x: usize, y: usize, state: State) {
        assert!(
            self.contains(x, y),
            "cell ({x}, {y}) is outside the {}×{} grid",
            self.width,
            self.height
        );
        self.cells[y * self.width + x] = state;
    }

    /// Every cell's state, row by row.
    pub fn cells(&self) -> &[State] {
        &self.cells
    }

    /// Lays `block` over the grid; later blocks lie over earlier ones.
    ///
    /// # Panics
    ///
    /// If the block is empty or does not lie within the grid.
    pub fn add_block(&mut self, block: Block) {
        let fits = block.width > 0
            && block.height > 0
            && block.x + block.width <= self.width
            && block.y + block.height <= self.height;
        assert!(fits, "{block:?} does not lie within the {}×{} grid", self.width, self.height);
        self.blocks.push(block);
    }

    /// The blocks, bottom first.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }
}

/// A labelled rectangle over a grid: a Klotski piece with its name, the goal area.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// What it is ([`state::PIECE`], [`state::GOAL`], …).
    pub kind: State,
    /// The text shown on it (`曹操`); may have several lines.
    pub label: String,
    /// Column of its top-left cell.
    pub x: usize,
    /// Row of its top-left cell.
    pub y: usize,
    /// Width in cells.
    pub width: usize,
    /// Height in cells.
    pub height: usize,
}

/// One cell of a [`Picture`]: cell `(x, y)` of grid number `grid`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Spot {
    /// The grid's index in [`Picture::grids`].
    pub grid: usize,
    /// Column.
    pub x: usize,
    /// Row.
    pub y: usize,
}

/// Where a [`Spot`] shows in the game's text ([`Game::render`](crate::Game::render)): `width`
/// display columns from display column `column` of line `line`, both 0-based (a wide
/// character counts two columns, as in a terminal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextCell {
    /// The line of the text.
    pub line: usize,
    /// The first display column.
    pub column: usize,
    /// How many display columns.
    pub width: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::testing::{Count, CountAction};

    #[test]
    fn a_game_draws_nothing_unless_it_says_how() {
        let game = Count::default();
        assert_eq!(game.picture(), None, "viewers fall back to the text");
        assert_eq!(game.action_cells(0, &CountAction::Add(1)), []);
        assert_eq!(game.text_cell(Spot { grid: 0, x: 0, y: 0 }), None);
    }

    #[test]
    fn cells_are_set_and_read_row_by_row() {
        let mut grid = Grid::new("board", 3, 2, state::EMPTY);
        grid.set(2, 0, state::X);
        grid.set(0, 1, state::O);
        assert_eq!(grid.cells(), ["empty", "empty", "x", "o", "empty", "empty"]);
        assert_eq!(
            (grid.get(2, 0), grid.get(0, 1), grid.get(1, 1)),
            (Some("x"), Some("o"), Some("empty"))
        );
        assert_eq!((grid.get(3, 0), grid.get(0, 2)), (None, None));
        assert_eq!((grid.title(), grid.width(), grid.height()), ("board", 3, 2));
    }

    #[test]
    #[should_panic(expected = "cell (3, 0) is outside the 3×2 grid")]
    fn setting_a_cell_outside_the_grid_panics() {
        Grid::new("board", 3, 2, state::EMPTY).set(3, 0, state::X);
    }

    fn block(x: usize, y: usize, width: usize, height: usize) -> Block {
        Block { kind: state::PIECE, label: "兵".into(), x, y, width, height }
    }

    #[test]
    fn blocks_must_lie_within_the_grid() {
        let mut grid = Grid::new("board", 4, 5, state::FLOOR);
        grid.add_block(block(2, 3, 2, 2));
        assert_eq!(grid.blocks(), [block(2, 3, 2, 2)]);
        for outside in [block(3, 3, 2, 2), block(0, 4, 1, 2), block(0, 0, 0, 1)] {
            let mut grid = grid.clone();
            let added = std::panic::catch_unwind(move || grid.add_block(outside));
            assert!(added.is_err(), "a block off the grid or empty is refused");
        }
    }

    #[test]
    fn a_picture_contains_the_cells_of_its_grids_only() {
        let picture = Picture {
            grids: vec![Grid::new("a", 2, 2, state::WATER), Grid::new("b", 10, 10, state::WATER)],
        };
        assert!(picture.contains(&Spot { grid: 0, x: 1, y: 1 }));
        assert!(picture.contains(&Spot { grid: 1, x: 9, y: 9 }));
        assert!(!picture.contains(&Spot { grid: 0, x: 2, y: 0 }));
        assert!(!picture.contains(&Spot { grid: 2, x: 0, y: 0 }));
    }
}

//! The board as a [`Picture`] ([`Game::picture`](botlens_engine::Game::picture)): one 3×3 grid
//! of `x`, `o` and `empty` squares, and the square a mark touches
//! ([`Game::action_cells`](botlens_engine::Game::action_cells)).

use botlens_engine::picture::{Grid, Picture, Spot, state};
use botlens_protocol::tictactoe::{Mark, Side};

use crate::board::{Board, SIZE, SQUARES, square_of};

/// The board under the title `title`.
pub(crate) fn picture(board: &Board, title: String) -> Picture {
    let mut grid = Grid::new(title, SIZE, SIZE, state::EMPTY);
    for index in 0..SQUARES {
        if let Some(side) = board.get(index) {
            let mark = match side {
                Side::X => state::X,
                Side::O => state::O,
            };
            grid.set(index % SIZE, index / SIZE, mark);
        }
    }
    Picture { grids: vec![grid] }
}

/// The square `mark` names, unless it is off the board.
pub(crate) fn marked(mark: &Mark) -> Option<Spot> {
    let square = square_of(mark).ok()?;
    Some(Spot { grid: 0, x: square % SIZE, y: square / SIZE })
}

#[cfg(test)]
mod tests {
    use botlens_engine::Game;

    use crate::game::tests::position;

    use super::*;

    #[test]
    fn the_grid_has_the_marks_where_they_were_made() {
        let game = position(1, &[(1, 1), (2, 0), (0, 2)]);
        let picture = game.picture().expect("tic-tac-toe draws its board");
        let [grid] = &picture.grids[..] else { panic!("one grid: {picture:?}") };
        assert_eq!((grid.width(), grid.height()), (3, 3));
        assert_eq!(grid.title(), "seat 1 plays X, seat 0 plays O");
        let expected = ["empty", "empty", "o", "empty", "x", "empty", "x", "empty", "empty"];
        assert_eq!(grid.cells(), expected);
        assert!(grid.blocks().is_empty());
    }

    #[test]
    fn a_mark_touches_its_square_taken_or_not_and_nothing_off_the_board() {
        let game = position(0, &[(1, 1)]);
        let spot = |x, y| Spot { grid: 0, x, y };
        assert_eq!(game.action_cells(1, &Mark { x: 2, y: 1 }), [spot(2, 1)]);
        assert_eq!(game.action_cells(1, &Mark { x: 1, y: 1 }), [spot(1, 1)], "the taken square");
        assert_eq!(game.action_cells(0, &Mark { x: 0, y: 2 }), [spot(0, 2)]);
        for (x, y) in [(3, 0), (0, 3), (-1, 1), (1, -1)] {
            assert_eq!(game.action_cells(1, &Mark { x, y }), [], "({x}, {y})");
        }
    }
}

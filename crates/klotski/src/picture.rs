//! The board as a [`Picture`] ([`Game::picture`](botlens_engine::Game::picture)): one grid of
//! floor with the goal area under the pieces, each piece a block labelled with its name and
//! code; and the cells a slide touches
//! ([`Game::action_cells`](botlens_engine::Game::action_cells)): the piece's and those it
//! slides into.

use botlens_engine::picture::{Block, Grid, Picture, Spot, state};
use botlens_protocol::klotski::Slide;

use crate::Layout;

/// The board as it stands, under the title `title`.
pub(crate) fn picture(layout: &Layout, title: String) -> Picture {
    let mut grid = Grid::new(title, cells(layout.width()), cells(layout.height()), state::FLOOR);
    let (goal, target) = (layout.goal_piece(), layout.goal());
    grid.add_block(Block {
        kind: state::GOAL,
        label: "goal".into(),
        x: cells(target.x),
        y: cells(target.y),
        width: cells(goal.width),
        height: cells(goal.height),
    });
    for (index, piece) in layout.pieces().iter().enumerate() {
        grid.add_block(Block {
            kind: if index == layout.goal_index() { state::GOAL_PIECE } else { state::PIECE },
            label: format!("{}\n{}", piece.name, piece.code),
            x: cells(piece.x),
            y: cells(piece.y),
            width: cells(piece.width),
            height: cells(piece.height),
        });
    }
    Picture { grids: vec![grid] }
}

/// The cells of the piece `slide` names and those it would slide into on the board, blocked or
/// not; none for a piece the board does not have.
pub(crate) fn slid(layout: &Layout, slide: &Slide) -> Vec<Spot> {
    let Some(index) = layout.find(&slide.piece) else { return Vec::new() };
    let piece = &layout.pieces()[index];
    let (dx, dy) = slide.dir.delta();
    let mut spots = Vec::new();
    for y in piece.y..piece.y + piece.height {
        for x in piece.x..piece.x + piece.width {
            let spot = |x: u32, y: u32| Spot { grid: 0, x: cells(x), y: cells(y) };
            spots.push(spot(x, y));
            if let (Some(to_x), Some(to_y)) = (x.checked_add_signed(dx), y.checked_add_signed(dy))
                && to_x < layout.width()
                && to_y < layout.height()
                && !piece.covers(to_x, to_y)
            {
                spots.push(spot(to_x, to_y));
            }
        }
    }
    spots.sort_by_key(|spot| (spot.y, spot.x));
    spots
}

/// A board coordinate or size (at most [`MAX_SIDE`](crate::MAX_SIDE)) as a picture's.
fn cells(n: u32) -> usize {
    n as usize
}

#[cfg(test)]
mod tests {
    use botlens_engine::Game;
    use botlens_protocol::klotski::Dir;

    use super::*;
    use crate::Klotski;

    fn slide(piece: &str, dir: Dir) -> Slide {
        Slide { piece: piece.into(), dir }
    }

    /// `(x, y)` pairs as spots of grid 0.
    fn spots(cells: &[(usize, usize)]) -> Vec<Spot> {
        cells.iter().map(|&(x, y)| Spot { grid: 0, x, y }).collect()
    }

    #[test]
    fn the_classic_board_is_its_pieces_as_named_blocks_over_the_goal() {
        let mut game = Klotski::default();
        game.apply(0, &slide("4", Dir::Down)).expect("佐 (4) slides down");
        let picture = game.picture().expect("klotski draws its board");
        let [grid] = &picture.grids[..] else { panic!("one grid: {picture:?}") };
        assert_eq!((grid.width(), grid.height()), (4, 5));
        assert_eq!(grid.title(), "横刀立马 · 1 step (1 move)");
        assert!(grid.cells().iter().all(|&cell| cell == state::FLOOR));
        let blocks: Vec<(&str, &str, [usize; 4])> = grid
            .blocks()
            .iter()
            .map(|b| (b.kind, b.label.as_str(), [b.x, b.y, b.width, b.height]))
            .collect();
        assert_eq!(blocks[0], ("goal", "goal", [1, 3, 2, 2]), "the goal lies under the pieces");
        assert_eq!(blocks[1..].len(), game.board().pieces().len());
        assert!(blocks.contains(&("goal_piece", "曹操\ncc", [1, 0, 2, 2])), "{blocks:?}");
        assert!(blocks.contains(&("piece", "关羽\ngy", [1, 2, 2, 1])), "{blocks:?}");
        assert!(blocks.contains(&("piece", "佐\n4", [2, 4, 1, 1])), "moved: {blocks:?}");
        assert_eq!(blocks.iter().filter(|b| b.0 == "goal_piece").count(), 1);
    }

    #[test]
    fn a_slide_touches_the_piece_and_the_cells_it_moves_into() {
        let game = Klotski::default();
        // 关羽 lies across (1, 2)-(2, 2); 士 (3) is at (1, 3), 佐 (4) at (2, 3), over the
        // empty (1, 4) and (2, 4).
        assert_eq!(
            game.action_cells(0, &slide("gy", Dir::Down)),
            spots(&[(1, 2), (2, 2), (1, 3), (2, 3)]),
            "blocked by the soldiers: shown where it tried to go"
        );
        assert_eq!(game.action_cells(0, &slide("4", Dir::Down)), spots(&[(2, 3), (2, 4)]));
        assert_eq!(
            game.action_cells(0, &slide("4", Dir::Right)),
            spots(&[(2, 3), (3, 3)]),
            "blocked by 马超"
        );
        assert_eq!(
            game.action_cells(0, &slide("cc", Dir::Up)),
            spots(&[(1, 0), (2, 0), (1, 1), (2, 1)]),
            "against the edge: the piece alone"
        );
        assert_eq!(game.action_cells(0, &slide("zz", Dir::Up)), [], "no such piece");
    }
}

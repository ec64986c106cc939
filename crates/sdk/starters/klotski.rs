//! {{name}}: a Klotski (Huarong Dao) bot for botlens.
//!
//! It makes a random legal slide every turn, which almost never solves the puzzle within the
//! turn cap. Ideas: search the board breadth first on your first turn and play the solution;
//! count *steps* (consecutive slides of one piece are one step) to match the board's par.
//!
//! `botlens run` builds this crate to WebAssembly and plays it on the bundled boards (or
//! `generated`, a new board per seed), comparing its steps with the optimal number.

use botlens_sdk::klotski::{Dir, KlotskiView, PieceView};
use botlens_sdk::{Bot, Klotski, Rng, Start, Turn, export, log};

/// Whether `piece` can slide one cell towards `dir`: the cells it moves into are on the board
/// and not covered by another piece.
fn can_slide(view: &KlotskiView, piece: &PieceView, dir: Dir) -> bool {
    let (dx, dy) = dir.delta();
    let (x, y) = (piece.x as i32 + dx, piece.y as i32 + dy);
    let (w, h) = (piece.width as i32, piece.height as i32);
    let on_board = x >= 0 && y >= 0 && x + w <= view.width as i32 && y + h <= view.height as i32;
    let covers = |other: &PieceView, cx: i32, cy: i32| {
        (other.x as i32..(other.x + other.width) as i32).contains(&cx)
            && (other.y as i32..(other.y + other.height) as i32).contains(&cy)
    };
    let blocked = (y..y + h).any(|cy| {
        (x..x + w).any(|cx| view.pieces.iter().any(|o| o.code != piece.code && covers(o, cx, cy)))
    });
    on_board && !blocked
}

/// The bot. A fresh value is made for every game, so fields hold what it learns in one game.
pub struct MyBot {
    /// Random numbers drawn from the game's seed: a replay of the game makes the same choices.
    rng: Rng,
}

impl Bot for MyBot {
    /// The game this bot plays.
    type Game = Klotski;

    /// Called once at the start of every game.
    fn new(start: Start) -> Self {
        MyBot { rng: start.rng() }
    }

    /// Called once per turn: look at the view, then make exactly one move. Making none, or a
    /// second one, loses the game, as does a panic; botlens reports the line.
    fn play(&mut self, turn: &mut Turn<Klotski>) {
        let view = turn.view();
        // The view is the whole board: `view.pieces` (code, name, top-left x and y, width and
        // height of each), `view.width` by `view.height` cells, and `view.goal`: the piece that
        // must reach the cell `goal.x`, `goal.y` with its top-left corner.
        let slides: Vec<(String, Dir)> = view
            .pieces
            .iter()
            .flat_map(|piece| Dir::ALL.into_iter().map(move |dir| (piece, dir)))
            .filter(|&(piece, dir)| can_slide(view, piece, dir))
            .map(|(piece, dir)| (piece.code.clone(), dir))
            .collect();
        let (piece, dir) = self.rng.choose(&slides).expect("a board with a free cell has a slide");
        // The move: it returns only if it was legal (a blocked slide loses the game here).
        let slid = turn.slide(piece, *dir);
        // Log lines are kept with the turn: `botlens replay` shows them next to the board.
        log!("slid {piece} {}: {} steps so far", dir.name(), slid.steps);
    }
}

// Makes `MyBot` the entry point of the WebAssembly module.
export!(MyBot);

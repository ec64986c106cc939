//! A Klotski bot that solves the board itself, breadth first, in the fewest steps.
//!
//! On its first turn the bot reads the whole board from the view and searches it: a *step*
//! moves one piece any number of cells (consecutive slides of one piece count as one step), so
//! a breadth-first search whose edges are steps finds a solution of the fewest steps, which is
//! the board's par. Pieces of the same shape are interchangeable, so positions that differ
//! only by swapping them are searched once (the classic 横刀立马 has 25,955 such positions).
//! The plan is then played one cell slide per turn.
//!
//! Nothing here is specific to the bundled boards: any width, height and piece shapes work, as
//! long as the search fits in the turn's fuel.

use std::collections::{HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use botlens_sdk::klotski::{Dir, KlotskiView};
use botlens_sdk::{Bot, Klotski, Start, Turn, export, log};

/// FNV-1a, a fast hash for the short position keys (std's SipHash costs several times more).
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Where every piece is: the cell index (`y * width + x`) of its top-left corner, by piece.
type Position = Vec<u8>;

/// The fixed facts of a board: its size, the pieces' shapes and the goal.
struct Board {
    width: usize,
    height: usize,
    /// Each piece's code, as `slide` wants it.
    codes: Vec<String>,
    /// Each piece's width and height.
    sizes: Vec<(usize, usize)>,
    /// Each piece's shape class: same-shaped pieces share one, the goal piece has its own.
    classes: Vec<u8>,
    /// The goal piece and the cell its top-left corner must reach.
    goal: (usize, u8),
}

impl Board {
    /// The board of a view, and where its pieces are now.
    fn from_view(view: &KlotskiView) -> (Board, Position) {
        let width = view.width as usize;
        let goal_piece = view.pieces.iter().position(|p| p.code == view.goal.piece);
        let goal_piece = goal_piece.expect("the goal names one of the pieces");
        let mut shapes: Vec<(u32, u32)> = Vec::new();
        let classes = (view.pieces.iter().enumerate())
            .map(|(i, p)| {
                if i == goal_piece {
                    return 0;
                }
                let shape = (p.width, p.height);
                let class = shapes.iter().position(|&s| s == shape).unwrap_or_else(|| {
                    shapes.push(shape);
                    shapes.len() - 1
                });
                class as u8 + 1
            })
            .collect();
        let board = Board {
            width,
            height: view.height as usize,
            codes: view.pieces.iter().map(|p| p.code.clone()).collect(),
            sizes: view.pieces.iter().map(|p| (p.width as usize, p.height as usize)).collect(),
            classes,
            goal: (goal_piece, (view.goal.y as usize * width + view.goal.x as usize) as u8),
        };
        let position = view.pieces.iter().map(|p| (p.y as usize * width + p.x as usize) as u8);
        (board, position.collect())
    }

    /// Which piece covers each cell: its index plus one, or 0 for an empty cell.
    fn cells(&self, position: &Position) -> Vec<u8> {
        let mut cells = vec![0; self.width * self.height];
        for (piece, &at) in position.iter().enumerate() {
            let (w, h) = self.sizes[piece];
            let (x, y) = (at as usize % self.width, at as usize / self.width);
            for cell in (y..y + h).flat_map(|cy| (x..x + w).map(move |cx| cy * self.width + cx)) {
                cells[cell] = piece as u8 + 1;
            }
        }
        cells
    }

    /// The position with same-shaped pieces made indistinguishable: per cell, the shape class
    /// (plus one) of the piece whose top-left corner is there, or 0.
    fn key(&self, position: &Position) -> Vec<u8> {
        let mut key = vec![0; self.width * self.height];
        for (piece, &at) in position.iter().enumerate() {
            key[at as usize] = self.classes[piece] + 1;
        }
        key
    }

    /// The top-left cell of `piece` after sliding from `at` towards `dir`, if the cells it
    /// moves into are on the board and free (`cells` as from [`Board::cells`]).
    fn slide(&self, cells: &[u8], piece: usize, at: u8, dir: Dir) -> Option<u8> {
        let (w, h) = self.sizes[piece];
        let (dx, dy) = dir.delta();
        let x = (at as usize % self.width) as i32 + dx;
        let y = (at as usize / self.width) as i32 + dy;
        if x < 0 || y < 0 || x as usize + w > self.width || y as usize + h > self.height {
            return None;
        }
        let (x, y) = (x as usize, y as usize);
        let free = (y..y + h)
            .flat_map(|cy| (x..x + w).map(move |cx| cy * self.width + cx))
            .all(|cell| cells[cell] == 0 || cells[cell] == piece as u8 + 1);
        free.then_some((y * self.width + x) as u8)
    }

    /// Every place `piece` can reach in one step, with the cell slides that take it there
    /// (`cells` as from [`Board::cells`] for `position`).
    fn steps(&self, position: &Position, cells: &[u8], piece: usize) -> Vec<(u8, Vec<Dir>)> {
        let mut reached: Vec<(u8, Vec<Dir>)> = vec![(position[piece], Vec::new())];
        let mut next = 0;
        while next < reached.len() {
            let (at, path) = reached[next].clone();
            for dir in Dir::ALL {
                if let Some(to) = self.slide(cells, piece, at, dir)
                    && reached.iter().all(|&(seen, _)| seen != to)
                {
                    let mut longer = path.clone();
                    longer.push(dir);
                    reached.push((to, longer));
                }
            }
            next += 1;
        }
        reached.remove(0);
        reached
    }

    fn solved(&self, position: &Position) -> bool {
        position[self.goal.0] == self.goal.1
    }
}

/// A position reached by the search, and the step that reached it.
struct Node {
    position: Position,
    /// The node it was reached from (itself for the start).
    parent: usize,
    /// The piece that moved, and its cell slides.
    step: (usize, Vec<Dir>),
}

/// The cell slides of a solution in the fewest steps, or `None` if the board has none.
fn solve(board: &Board, start: Position) -> Option<Vec<(usize, Dir)>> {
    let mut seen: HashSet<Vec<u8>, BuildHasherDefault<Fnv>> = HashSet::default();
    seen.insert(board.key(&start));
    let mut nodes = vec![Node { position: start, parent: 0, step: (0, Vec::new()) }];
    let mut queue = VecDeque::from([0]);
    while let Some(index) = queue.pop_front() {
        if board.solved(&nodes[index].position) {
            log!("solved the search: {} positions seen", seen.len());
            return Some(slides_to(&nodes, index));
        }
        let cells = board.cells(&nodes[index].position);
        for piece in 0..board.sizes.len() {
            for (to, slides) in board.steps(&nodes[index].position, &cells, piece) {
                let mut position = nodes[index].position.clone();
                position[piece] = to;
                if seen.insert(board.key(&position)) {
                    nodes.push(Node { position, parent: index, step: (piece, slides) });
                    queue.push_back(nodes.len() - 1);
                }
            }
        }
    }
    log!("no solution: all {} reachable positions searched", seen.len());
    None
}

/// The cell slides from the start to node `index`.
fn slides_to(nodes: &[Node], mut index: usize) -> Vec<(usize, Dir)> {
    let mut steps = Vec::new();
    while index != 0 {
        let node = &nodes[index];
        steps.push(&node.step);
        index = node.parent;
    }
    steps.iter().rev().flat_map(|(piece, slides)| slides.iter().map(|&dir| (*piece, dir))).collect()
}

/// The solving bot.
pub struct Solver {
    /// The slides still to play, once the search has run.
    plan: Option<VecDeque<(String, Dir)>>,
}

impl Bot for Solver {
    type Game = Klotski;

    fn new(_start: Start) -> Self {
        Solver { plan: None }
    }

    fn play(&mut self, turn: &mut Turn<Klotski>) {
        let plan = self.plan.get_or_insert_with(|| {
            let (board, start) = Board::from_view(turn.view());
            let slides = solve(&board, start.clone()).unwrap_or_else(|| {
                // Unsolvable: keep sliding some piece until the turn cap ends the game.
                let cells = board.cells(&start);
                let any = (0..board.sizes.len()).find_map(|piece| {
                    board.steps(&start, &cells, piece).first().map(|(_, path)| (piece, path[0]))
                });
                let (piece, dir) = any.expect("some piece can move on a board with a free cell");
                vec![(piece, dir), (piece, opposite(dir))].repeat(500)
            });
            slides.into_iter().map(|(piece, dir)| (board.codes[piece].clone(), dir)).collect()
        });
        let (piece, dir) = plan.pop_front().expect("the plan lasts until the puzzle is solved");
        let slid = turn.slide(&piece, dir);
        if slid.solved {
            log!("solved in {} steps ({} moves)", slid.steps, slid.moves);
        }
    }
}

/// The direction back.
fn opposite(dir: Dir) -> Dir {
    match dir {
        Dir::Up => Dir::Down,
        Dir::Down => Dir::Up,
        Dir::Left => Dir::Right,
        Dir::Right => Dir::Left,
    }
}

export!(Solver);

//! A Klotski bot that solves the board itself, breadth first, in the fewest steps.
//!
//! On its first turn the bot reads the whole board from the view and searches it: a *step*
//! moves one piece any number of cells (consecutive slides of one piece count as one step), so
//! a breadth-first search whose edges are steps finds a solution of the fewest steps, which is
//! the board's par. Pieces of the same shape are interchangeable, so positions that differ
//! only by swapping them are searched once (the classic 横刀立马 has 25,955 such positions).
//! The plan is then played one cell slide per turn.
//!
//! Nothing here is specific to the bundled boards: any width, height and piece shapes work up
//! to 32 cells and 14 shapes, as long as the search fits in the turn's fuel. Cells are bits of a
//! `u32` and a position's key is one `u128` (four bits a cell), so the search allocates little
//! and hashes fast: a classic board takes 100 to 200 million instructions, a fifth of a turn's
//! fuel by default.

use std::collections::{HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use botlens_sdk::klotski::{Dir, KlotskiView};
use botlens_sdk::{Bot, Klotski, Start, Turn, export, log};

/// The most cells, and so the most pieces, a board may have.
const MAX_CELLS: usize = 32;

/// A set of cells, one bit per cell index (`y * width + x`).
type Cells = u32;

/// Where every piece is: the cell of its top-left corner, by piece (entries past the last
/// piece unused). An array, so copying one allocates nothing.
type Position = [u8; MAX_CELLS];

/// A position with same-shaped pieces made indistinguishable: four bits per cell, holding the
/// shape class (plus one) of the piece whose top-left corner is there, or 0.
type Key = u128;

/// A multiply-and-fold hash for [`Key`]s: std's default, SipHash, costs several times more.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(26) ^ value).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_u128(&mut self, value: u128) {
        self.write_u64(value as u64);
        self.write_u64((value >> 64) as u64);
    }
}

/// The fixed facts of a board: the pieces' shapes, where they fit, and the goal.
struct Board {
    /// Each piece's code, as `slide` wants it.
    codes: Vec<String>,
    /// Each piece's shape class: same-shaped pieces share one, the goal piece has its own.
    classes: Vec<u8>,
    /// Per piece and top-left cell, the cells the piece covers there (0 where it does not fit).
    covers: Vec<[Cells; MAX_CELLS]>,
    /// Per cell and direction (in [`Dir::ALL`] order), the cell one slide away, if on the board.
    beside: [[Option<u8>; 4]; MAX_CELLS],
    /// The goal piece and the cell its top-left corner must reach.
    goal: (usize, u8),
}

impl Board {
    /// The board of a view, and where its pieces are now.
    fn from_view(view: &KlotskiView) -> (Board, Position) {
        let (width, height) = (view.width as usize, view.height as usize);
        assert!(width * height <= MAX_CELLS, "this solver handles boards of up to 32 cells");
        let cell = |x: usize, y: usize| (y * width + x) as u8;
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
        assert!(shapes.len() < 15, "this solver handles up to 14 piece shapes");
        let covers = (view.pieces.iter())
            .map(|p| {
                let (w, h) = (p.width as usize, p.height as usize);
                std::array::from_fn(|at| {
                    let (x, y) = (at % width, at / width);
                    if y >= height || x + w > width || y + h > height {
                        return 0;
                    }
                    let cells = (y..y + h).flat_map(|cy| (x..x + w).map(move |cx| cell(cx, cy)));
                    cells.fold(0, |mask, c| mask | 1 << c)
                })
            })
            .collect();
        let beside = std::array::from_fn(|at| {
            Dir::ALL.map(|dir| {
                let (dx, dy) = dir.delta();
                let x = (at % width).checked_add_signed(dx as isize).filter(|&x| x < width)?;
                let y = (at / width).checked_add_signed(dy as isize).filter(|&y| y < height)?;
                Some(cell(x, y))
            })
        });
        let board = Board {
            codes: view.pieces.iter().map(|p| p.code.clone()).collect(),
            classes,
            covers,
            beside,
            goal: (goal_piece, cell(view.goal.x as usize, view.goal.y as usize)),
        };
        let mut position = [0; MAX_CELLS];
        for (at, p) in position.iter_mut().zip(&view.pieces) {
            *at = cell(p.x as usize, p.y as usize);
        }
        (board, position)
    }

    fn pieces(&self) -> usize {
        self.codes.len()
    }

    /// The cells covered by some piece.
    fn occupied(&self, position: &Position) -> Cells {
        (0..self.pieces())
            .fold(0, |mask, piece| mask | self.covers[piece][position[piece] as usize])
    }

    /// What `piece` on cell `at` adds to a [`Key`].
    fn key_part(&self, piece: usize, at: u8) -> Key {
        Key::from(self.classes[piece] + 1) << (4 * at)
    }

    fn key(&self, position: &Position) -> Key {
        (0..self.pieces()).map(|piece| self.key_part(piece, position[piece])).sum()
    }

    /// Every place `piece` can reach in one step, breadth first from where it is (entry 0),
    /// into `reached` (cleared first).
    fn steps(&self, position: &Position, occupied: Cells, piece: usize, reached: &mut Vec<Reach>) {
        let covers = &self.covers[piece];
        let others = occupied & !covers[position[piece] as usize];
        reached.clear();
        reached.push(Reach { at: position[piece], from: 0, dir: Dir::Up });
        let mut next = 0;
        while next < reached.len() {
            let at = reached[next].at as usize;
            for (dir, to) in Dir::ALL.into_iter().zip(self.beside[at]) {
                let Some(to) = to else { continue };
                let fits = covers[to as usize] != 0 && covers[to as usize] & others == 0;
                if fits && reached.iter().all(|r| r.at != to) {
                    reached.push(Reach { at: to, from: next, dir });
                }
            }
            next += 1;
        }
    }

    fn solved(&self, position: &Position) -> bool {
        position[self.goal.0] == self.goal.1
    }
}

/// A place a piece reached within one step: the entry of [`Board::steps`] it came from and
/// the slide from there.
struct Reach {
    at: u8,
    from: usize,
    dir: Dir,
}

/// The slides that take a piece to entry `index` of [`Board::steps`].
fn path(reached: &[Reach], mut index: usize) -> Vec<Dir> {
    let mut slides = Vec::new();
    while index != 0 {
        slides.push(reached[index].dir);
        index = reached[index].from;
    }
    slides.reverse();
    slides
}

/// A position reached by the search, and the step that reached it.
struct Node {
    position: Position,
    key: Key,
    /// The node it was reached from (itself for the start).
    parent: usize,
    /// The piece that moved, and its cell slides.
    step: (usize, Vec<Dir>),
}

/// The cell slides of a solution in the fewest steps, or `None` if the board has none.
fn solve(board: &Board, start: Position) -> Option<Vec<(usize, Dir)>> {
    let mut seen: HashSet<Key, BuildHasherDefault<Mix>> = HashSet::default();
    let key = board.key(&start);
    seen.insert(key);
    let mut nodes = vec![Node { position: start, key, parent: 0, step: (0, Vec::new()) }];
    let mut queue = VecDeque::from([0]);
    let mut reached = Vec::new();
    while let Some(index) = queue.pop_front() {
        let (position, key) = (nodes[index].position, nodes[index].key);
        if board.solved(&position) {
            log!("found a solution after searching {} positions", seen.len());
            return Some(slides_to(&nodes, index));
        }
        let occupied = board.occupied(&position);
        for piece in 0..board.pieces() {
            board.steps(&position, occupied, piece, &mut reached);
            for (i, to) in reached.iter().enumerate().skip(1).map(|(i, r)| (i, r.at)) {
                let moved =
                    key - board.key_part(piece, position[piece]) + board.key_part(piece, to);
                if seen.insert(moved) {
                    let mut next = position;
                    next[piece] = to;
                    let step = (piece, path(&reached, i));
                    nodes.push(Node { position: next, key: moved, parent: index, step });
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

/// What to play on the board of `view`: a solution, or for a board without one, a slide there
/// and back (the turn cap then ends the game).
fn plan(view: &KlotskiView) -> VecDeque<(String, Dir)> {
    let (board, start) = Board::from_view(view);
    let slides = solve(&board, start).unwrap_or_else(|| {
        let (occupied, mut reached) = (board.occupied(&start), Vec::new());
        let any = (0..board.pieces()).find_map(|piece| {
            board.steps(&start, occupied, piece, &mut reached);
            reached.get(1).map(|r| (piece, r.dir))
        });
        let (piece, dir) = any.expect("a board with a free cell lets some piece move");
        vec![(piece, dir), (piece, opposite(dir))]
    });
    slides.into_iter().map(|(piece, dir)| (board.codes[piece].clone(), dir)).collect()
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

/// The solving bot.
pub struct Solver {
    /// The slides still to play.
    plan: VecDeque<(String, Dir)>,
}

impl Bot for Solver {
    type Game = Klotski;

    fn new(_start: Start) -> Self {
        Solver { plan: VecDeque::new() }
    }

    fn play(&mut self, turn: &mut Turn<Klotski>) {
        if self.plan.is_empty() {
            self.plan = plan(turn.view());
        }
        let (piece, dir) = self.plan.pop_front().expect("a plan has at least one slide");
        let slid = turn.slide(&piece, dir);
        if slid.solved {
            log!("solved in {} steps ({} moves)", slid.steps, slid.moves);
        }
    }
}

export!(Solver);

//! Optimal search over Klotski positions: breadth-first search in which pieces of the same shape
//! are interchangeable, under three ways of counting a solution's length ([`Count`]).
//!
//! # How it works
//!
//! A position is the top-left cell of every piece. Pieces are grouped into shape classes (the
//! goal piece is always a class of its own, since it is the one that must reach the target);
//! within a class the cells are kept sorted, so two positions that differ only by swapping two
//! same-shaped pieces are the same position. That is what makes 横刀立马 25,955 positions
//! rather than 25,955 × 4! × 4!. A position packs into a `u128` when `pieces × bits-per-cell`
//! fits (any board up to 16 pieces on 256 cells; the classic needs 50 bits), and falls back to a
//! boxed byte slice otherwise.
//!
//! A [`Count::Steps`] search expands, for each piece, every cell its top-left corner can reach by
//! sliding while the others stand still: each of those is one step away. Cells are sets of bits:
//! a piece is tried only when a cell beside it is empty, and a slide fits when the cells the
//! piece would cover there meet none of the other pieces' (a few `and`s, precomputed per shape
//! and cell).
//!
//! When the goal is in the board's middle (the classic's and every bundled layout's: the goal
//! piece ends in the middle of the bottom), a position and its mirror image, left and right
//! swapped, are equally far from it. A search for a solution then files the two as one, under
//! the smaller key, and meets about half the positions (横刀立马: 11,990 instead of 23,922);
//! the path it finds is walked again from the start, each step the successor filed under the
//! next key, to give the moves of the actual pieces.
//!
//! # Cost
//!
//! 横刀立马 (25,955 positions) solves in a few milliseconds with optimisations. A search stops
//! with [`SolveError::TooLarge`] after [`MAX_STATES`] positions rather than exhaust memory on a
//! big user-made board.
//!
//! Not for playing (see [`crate::game`]) or making puzzles (see [`crate::generate`]).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::ops::Range;

use botlens_protocol::klotski::{Dir, Slide};
use serde::{Deserialize, Serialize};

use crate::Layout;

/// The most positions one search visits before giving up (about 200 MB of memory).
pub const MAX_STATES: usize = 4_000_000;

/// How a solution's length is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Count {
    /// One step is one piece moved any number of one-cell slides in a row (横刀立马: 81).
    #[default]
    Steps,
    /// Every one-cell slide counts (横刀立马: 116).
    Cells,
    /// One step is one piece slid any distance in one straight line (横刀立马: 90).
    Lines,
}

impl Count {
    /// Every way of counting.
    pub const ALL: [Count; 3] = [Count::Steps, Count::Cells, Count::Lines];

    /// The name on the command line and in JSON: `steps`, `cells`, `lines`.
    pub fn name(self) -> &'static str {
        match self {
            Count::Steps => "steps",
            Count::Cells => "cells",
            Count::Lines => "lines",
        }
    }

    /// The unit counted, singular: `step`, `cell move`, `straight move`.
    pub fn unit(self) -> &'static str {
        match self {
            Count::Steps => "step",
            Count::Cells => "cell move",
            Count::Lines => "straight move",
        }
    }

    /// What one unit is, for humans.
    pub fn definition(self) -> &'static str {
        match self {
            Count::Steps => "a step moves one piece any number of cells in a row",
            Count::Cells => "a cell move slides one piece by one cell",
            Count::Lines => "a straight move slides one piece any distance in one straight line",
        }
    }
}

/// One move of a solution: a piece (index into [`Layout::pieces`]) and the one-cell slides it
/// makes, in order. Under [`Count::Cells`] a path is always one slide.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// The piece's index in the layout.
    pub piece: usize,
    /// Its slides.
    pub path: Vec<Dir>,
}

/// An optimal solution under one way of counting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// How [`Solution::len`] counts.
    pub count: Count,
    /// The moves, from the starting position to the goal.
    pub moves: Vec<Move>,
    /// Whether the first move goes on moving the piece moved last (see [`solve_from`]): in
    /// steps it costs nothing, as the step it belongs to was already counted.
    pub continues: bool,
}

impl Solution {
    /// The optimal length: the number of moves under [`Solution::count`] still to be counted
    /// (a continued step is not).
    pub fn len(&self) -> usize {
        self.moves.len() - usize::from(self.continues)
    }

    /// Whether the position was already solved.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The number of one-cell slides along this solution.
    pub fn cell_moves(&self) -> usize {
        self.moves.iter().map(|m| m.path.len()).sum()
    }

    /// The solution as protocol actions, one per one-cell slide.
    pub fn slides(&self, layout: &Layout) -> Vec<Slide> {
        self.moves
            .iter()
            .flat_map(|m| {
                let code = &layout.pieces()[m.piece].code;
                m.path.iter().map(move |&dir| Slide { piece: code.clone(), dir })
            })
            .collect()
    }
}

/// Why a search found no solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// Every reachable position was tried; none is solved.
    #[error(
        "no solution: none of the {explored} reachable positions has the goal piece on its target"
    )]
    Unsolvable {
        /// How many positions are reachable.
        explored: usize,
    },
    /// The search gave up at [`MAX_STATES`] positions.
    #[error("gave up after {limit} positions: this layout is too large to search")]
    TooLarge {
        /// The limit that was reached.
        limit: usize,
    },
}

/// Finds an optimal solution from the layout's current position.
pub fn solve(layout: &Layout, count: Count) -> Result<Solution, SolveError> {
    solve_from(layout, count, None)
}

/// Finds an optimal solution from the layout's current position in the middle of a game, where
/// `moving` is the piece moved last (an index into [`Layout::pieces`]). Counting in steps, more
/// slides of that piece continue the step already counted, so every position they reach is as
/// near as the current one: a solution may begin by finishing that step
/// ([`Solution::continues`]), and its length is what is left to count. Following such a solution
/// slide by slide from the start, asking again after every slide, ends in the optimal number
/// of steps. Other counts ignore `moving`.
pub fn solve_from(
    layout: &Layout,
    count: Count,
    moving: Option<usize>,
) -> Result<Solution, SolveError> {
    let (space, start) = Space::new(layout);
    let moving = moving.filter(|_| count == Count::Steps);
    // The smaller the key, the smaller the index a search probes (the classic board's fits 64
    // bits: 10 pieces of 5 bits).
    if space.packs_in(u64::BITS) {
        solve_with::<u64>(&space, &start, layout, count, moving)
    } else if space.packs() {
        solve_with::<u128>(&space, &start, layout, count, moving)
    } else {
        solve_with::<Box<[u8]>>(&space, &start, layout, count, moving)
    }
}

/// [`solve_from`] with keys of type `K`: the search files a position and its mirror image as one
/// when the goal is in the board's middle ([`Space::is_symmetric`]).
fn solve_with<K: Key>(
    space: &Space,
    start: &[u8],
    layout: &Layout,
    count: Count,
    moving: Option<usize>,
) -> Result<Solution, SolveError> {
    solve_filed::<K>(space, start, layout, count, moving, space.is_symmetric())
}

/// [`solve_with`], the search filing each position and its mirror image as one when `mirrored`.
fn solve_filed<K: Key>(
    space: &Space,
    start: &[u8],
    layout: &Layout,
    count: Count,
    moving: Option<usize>,
    mirrored: bool,
) -> Result<Solution, SolveError> {
    let mut sources = vec![start.to_vec()];
    if let Some(piece) = moving {
        sources.extend(space.continuations(layout, start, piece));
    }
    let search_for =
        |mirrored| search::<K>(space, &sources, count, Reach::Goal { mirrored }, MAX_STATES);
    let search = search_for(mirrored)?;
    let Some(found) = search.found else {
        // The positions themselves, not their pairs: searched again, each filed as itself.
        let explored = if mirrored { search_for(false)?.states.len() } else { search.states.len() };
        return Err(SolveError::Unsolvable { explored });
    };
    let mut chain = vec![found];
    let mut at = found;
    while search.parent[at as usize] != NO_PARENT {
        at = search.parent[at as usize];
        chain.push(at);
    }
    chain.reverse();
    let mut positions = space.walk(&search, &chain, &sources, count, mirrored);
    // A path from a continuation begins with the slides that finish the step under way.
    let continues = positions[0] != start;
    if continues {
        positions.insert(0, start.to_vec());
    }
    Ok(Solution { count, moves: space.replay(layout, &positions), continues })
}

/// How many positions are reachable from the layout (same-shaped pieces interchangeable), the
/// starting position included.
pub fn reachable(layout: &Layout) -> Result<usize, SolveError> {
    let (space, start) = Space::new(layout);
    let sources = [start];
    if space.packs() {
        search::<u128>(&space, &sources, Count::Cells, Reach::All, MAX_STATES)
            .map(|s| s.states.len())
    } else {
        search::<Box<[u8]>>(&space, &sources, Count::Cells, Reach::All, MAX_STATES)
            .map(|s| s.states.len())
    }
}

/// How many different ways the layout's pieces can be placed on its board (same-shaped pieces
/// interchangeable, the goal piece always distinct), whether or not they are reachable from
/// each other. Exhaustive: fast for the classic 4×5 (65,880), exponential in general.
pub fn count_layouts(layout: &Layout) -> u64 {
    let (space, _) = Space::new(layout);
    let mut count = 0;
    space.enumerate(false, |_| count += 1);
    count
}

/// A canonical position and its optimal length.
pub(crate) type Distance = (Vec<u8>, u32);

/// Every position of the layout's piece set from which the goal can be reached, with its optimal
/// length under `count`, in a deterministic order. Exhaustive, like [`count_layouts`].
pub(crate) fn solvable_positions(
    layout: &Layout,
    count: Count,
) -> Result<(Space, Vec<Distance>), SolveError> {
    let (space, _) = Space::new(layout);
    let mut solved = Vec::new();
    space.enumerate(true, |position| solved.push(position.to_vec()));
    // Moves are reversible, so the distance from the set of solved positions is the optimal
    // length from each position to any solved one.
    let positions = if space.packs() {
        distances::<u128>(&space, &solved, count)?
    } else {
        distances::<Box<[u8]>>(&space, &solved, count)?
    };
    Ok((space, positions))
}

/// The fewest steps and the fewest cell moves to the goal of every position reachable from a
/// game's start, looked up by position ([`Space::position`]).
pub(crate) struct Distances {
    /// Each position's index in `counts`, keyed as the search packed it.
    index: DistanceIndex,
    /// Per position: its steps and cell moves to the goal; `u32::MAX` steps when it cannot
    /// reach it.
    counts: Vec<StepsAndCells>,
    /// The bits of a cell in a packed key.
    bits: u32,
    /// How many positions reach the goal.
    solvable: usize,
}

/// A position's fewest steps and fewest cell moves to the goal.
type StepsAndCells = (u32, u32);

/// A search's index of positions, by the key type it used.
enum DistanceIndex {
    Packed(Index<u128>),
    Unpacked(Index<Box<[u8]>>),
}

impl Distances {
    /// The fewest steps and cell moves from `position` to the goal; `None` for a position the
    /// goal cannot be reached from, or one not reachable from the start.
    pub(crate) fn get(&self, position: &[u8]) -> Option<StepsAndCells> {
        let at = match &self.index {
            DistanceIndex::Packed(index) => index.get(&u128::pack(position, self.bits)),
            DistanceIndex::Unpacked(index) => index.get(position),
        }?;
        let (steps, cells) = self.counts[*at as usize];
        (steps != u32::MAX).then_some((steps, cells))
    }

    /// How many positions reach the goal.
    pub(crate) fn len(&self) -> usize {
        self.solvable
    }
}

/// Every position reachable from the layout's current one from which the goal can be reached,
/// with its fewest steps and its fewest cell moves to the goal. One search of the positions
/// reachable from here (bounded by [`MAX_STATES`]) keeps each one's neighbours, a step away and
/// a cell move away (slides are reversible, so the neighbours are the same both ways); then
/// each count is a breadth-first walk over those lists from the solved positions, with no
/// position generated again. Unlike [`solvable_positions`], it never enumerates the whole
/// board.
pub(crate) fn reachable_steps_and_cells(layout: &Layout) -> Result<(Space, Distances), SolveError> {
    let (space, start) = Space::new(layout);
    let (index, counts) = if space.packs() {
        let (index, counts) = steps_and_cells::<u128>(&space, &start)?;
        (DistanceIndex::Packed(index), counts)
    } else {
        let (index, counts) = steps_and_cells::<Box<[u8]>>(&space, &start)?;
        (DistanceIndex::Unpacked(index), counts)
    };
    let solvable = counts.iter().filter(|(steps, _)| *steps != u32::MAX).count();
    let bits = space.bits;
    Ok((space, Distances { index, counts, bits, solvable }))
}

/// [`reachable_steps_and_cells`] for one key type: the positions' index and, by index, their
/// (steps, cell moves).
fn steps_and_cells<K: Key>(
    space: &Space,
    start: &[u8],
) -> Result<(Index<K>, Vec<StepsAndCells>), SolveError> {
    let mut index: Index<K> = Index::default();
    let first = K::pack(start, space.bits);
    index.insert(first.clone(), 0);
    let mut states = vec![first];
    // Each position's neighbours a step away, and whether each is a cell move away, in lists
    // laid end to end (`ends[i]` is where position i's end).
    let (mut neighbours, mut one_cell, mut ends) = (Vec::new(), Vec::new(), Vec::new());
    let mut scratch = Scratch::new(space.cells);
    let mut current = vec![0u8; space.class_of.len()];
    let mut next = current.clone();
    let mut solved = Vec::new();
    let mut cursor = 0;
    while cursor < states.len() {
        states[cursor].unpack(space.bits, &mut current);
        if space.solved(&current) {
            solved.push(cursor);
        }
        space.successors(&current, Count::Steps, &mut scratch, |slot, to, distance| {
            space.moved_into(&current, slot, to, &mut next);
            let key = K::pack(&next, space.bits);
            let at = *index.entry(key.clone()).or_insert_with(|| {
                states.push(key);
                states.len() as u32 - 1
            });
            neighbours.push(at);
            one_cell.push(distance == 1);
        });
        ends.push(neighbours.len());
        if states.len() > MAX_STATES {
            return Err(SolveError::TooLarge { limit: MAX_STATES });
        }
        cursor += 1;
    }
    let explored = states.len();
    if solved.is_empty() {
        return Err(SolveError::Unsolvable { explored });
    }
    // Breadth-first from the solved positions over the neighbours `follows` keeps (each as
    // its neighbour and whether it is a cell move away).
    let walk = |follows: &dyn Fn(bool) -> bool| {
        let mut distance = vec![u32::MAX; explored];
        let mut queue = std::collections::VecDeque::new();
        for &s in &solved {
            distance[s] = 0;
            queue.push_back(s);
        }
        while let Some(at) = queue.pop_front() {
            let edges = if at == 0 { 0 } else { ends[at - 1] }..ends[at];
            for (&to, &cell_move) in neighbours[edges.clone()].iter().zip(&one_cell[edges]) {
                let to = to as usize;
                if follows(cell_move) && distance[to] == u32::MAX {
                    distance[to] = distance[at] + 1;
                    queue.push_back(to);
                }
            }
        }
        distance
    };
    let steps = walk(&|_| true);
    let cells = walk(&|cell_move| cell_move);
    Ok((index, steps.into_iter().zip(cells).collect()))
}

fn distances<K: Key>(
    space: &Space,
    sources: &[Vec<u8>],
    count: Count,
) -> Result<Vec<Distance>, SolveError> {
    let search = search::<K>(space, sources, count, Reach::All, MAX_STATES)?;
    Ok(search.states.iter().zip(&search.depth).map(|(k, &d)| (space.unpack(k), d)).collect())
}

/// A packed position: the key of the visited set.
trait Key: Clone + Ord + Hash {
    fn pack(position: &[u8], bits: u32) -> Self;
    fn unpack(&self, bits: u32, out: &mut [u8]);
}

/// A position packed into an integer, `bits` bits a slot, the first slot highest.
macro_rules! packed_key {
    ($int:ty) => {
        impl Key for $int {
            fn pack(position: &[u8], bits: u32) -> $int {
                position.iter().fold(0, |key, &cell| (key << bits) | <$int>::from(cell))
            }

            fn unpack(&self, bits: u32, out: &mut [u8]) {
                let mask: $int = (1 << bits) - 1;
                let mut key = *self;
                for cell in out.iter_mut().rev() {
                    *cell = (key & mask) as u8;
                    key >>= bits;
                }
            }
        }
    };
}

packed_key!(u64);
packed_key!(u128);

impl Key for Box<[u8]> {
    fn pack(position: &[u8], _bits: u32) -> Box<[u8]> {
        position.into()
    }

    fn unpack(&self, _bits: u32, out: &mut [u8]) {
        out.copy_from_slice(self);
    }
}

/// A fast deterministic hasher for packed positions (multiply–rotate, SplitMix finish).
#[derive(Default)]
struct PositionHasher(u64);

impl Hasher for PositionHasher {
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type Index<K> = HashMap<K, u32, BuildHasherDefault<PositionHasher>>;

const NO_PARENT: u32 = u32::MAX;

/// Positions a search makes room for at once (7/8 of 32,768, what an index of 32,768 slots
/// holds): the classic board's space (25,955 positions reachable from 横刀立马) fits without the
/// index growing, for the price of setting its 32 KiB of control bytes (the rest of the room is
/// not touched until used).
const FIRST_CAPACITY: usize = 28_672;

/// The outcome of a breadth-first search: positions in visiting order, each with its parent,
/// its distance from the nearest source and the fewest cell moves over such shortest paths.
struct Search<K> {
    states: Vec<K>,
    parent: Vec<u32>,
    depth: Vec<u32>,
    cells: Vec<u32>,
    found: Option<u32>,
}

/// How far a search goes, and how it files the positions it meets.
#[derive(Debug, Clone, Copy)]
enum Reach {
    /// Every reachable position, each filed as itself.
    All,
    /// To the layer where a solved position first appears. `mirrored`: a position and its mirror
    /// image are filed as one, under the smaller of their keys ([`Space::key`]); they are as far
    /// from a goal in the board's middle, so the search meets about half the positions.
    Goal { mirrored: bool },
}

/// Breadth-first search from `sources`, layer by layer. Among equally short paths to a position
/// it keeps the one with the fewest cell moves (a position's parent may change while its layer
/// is still being discovered). Reaching for the goal, it finishes the layer where a solved
/// position first appears and reports the solved one with the fewest cell moves.
fn search<K: Key>(
    space: &Space,
    sources: &[Vec<u8>],
    count: Count,
    reach: Reach,
    limit: usize,
) -> Result<Search<K>, SolveError> {
    let stop_at_goal = matches!(reach, Reach::Goal { .. });
    let mut image = matches!(reach, Reach::Goal { mirrored: true }).then(Vec::new);
    let mut index: Index<K> = Index::with_capacity_and_hasher(FIRST_CAPACITY, Default::default());
    let mut result = Search {
        states: Vec::with_capacity(FIRST_CAPACITY),
        parent: Vec::with_capacity(FIRST_CAPACITY),
        depth: Vec::with_capacity(FIRST_CAPACITY),
        cells: Vec::with_capacity(FIRST_CAPACITY),
        found: None,
    };
    let mut solved: Vec<u32> = Vec::new();
    for source in sources {
        let key = space.key::<K>(source, image.as_mut());
        if !index.contains_key(&key) {
            if stop_at_goal && space.solved(source) {
                solved.push(result.states.len() as u32);
            }
            index.insert(key.clone(), result.states.len() as u32);
            result.states.push(key);
            result.parent.push(NO_PARENT);
            result.depth.push(0);
            result.cells.push(0);
        }
    }
    let slots = space.class_of.len();
    let mut scratch = Scratch::new(space.cells);
    let mut current = vec![0u8; slots];
    let mut next = vec![0u8; slots];
    let mut cursor = 0;
    while cursor < result.states.len() {
        let depth = result.depth[cursor] + 1;
        if solved.first().is_some_and(|&s| result.depth[s as usize] < depth) {
            break;
        }
        result.states[cursor].unpack(space.bits, &mut current);
        let cells_here = result.cells[cursor];
        space.successors(&current, count, &mut scratch, |slot, to, distance| {
            space.moved_into(&current, slot, to, &mut next);
            let key = space.key::<K>(&next, image.as_mut());
            let cells = cells_here + distance;
            let at = result.states.len() as u32;
            let seen = *index.entry(key.clone()).or_insert(at) as usize;
            if seen != at as usize {
                if result.depth[seen] == depth && result.cells[seen] > cells {
                    result.parent[seen] = cursor as u32;
                    result.cells[seen] = cells;
                }
                return;
            }
            if stop_at_goal && space.solved(&next) {
                solved.push(at);
            }
            result.states.push(key);
            result.parent.push(cursor as u32);
            result.depth.push(depth);
            result.cells.push(cells);
        });
        if result.states.len() > limit {
            return Err(SolveError::TooLarge { limit });
        }
        cursor += 1;
    }
    result.found = solved.iter().copied().min_by_key(|&s| result.cells[s as usize]);
    Ok(result)
}

/// Reusable buffers for expanding positions.
struct Scratch {
    /// Per cell: the flood-fill generation that last reached it.
    seen: Vec<u32>,
    generation: u32,
    /// Flood-fill queue: anchors and their distance in cell moves.
    queue: Vec<(u8, u32)>,
}

impl Scratch {
    fn new(cells: usize) -> Scratch {
        Scratch { seen: vec![0; cells], generation: 0, queue: Vec::new() }
    }
}

/// A set of a board's cells, a bit per cell: room for [`MAX_SIDE`]² cells. Expanding a position
/// asks of a piece's cells only whether they meet other pieces' cells, a few `and`s.
///
/// [`MAX_SIDE`]: crate::MAX_SIDE
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Cells([u64; 4]);

impl Cells {
    /// The set with `cell` added.
    fn with(mut self, cell: usize) -> Cells {
        self.0[cell / 64] |= 1 << (cell % 64);
        self
    }

    /// The set without `cell`.
    fn without(mut self, cell: usize) -> Cells {
        self.0[cell / 64] &= !(1 << (cell % 64));
        self
    }

    /// Whether `cell` is in the set.
    fn contains(self, cell: usize) -> bool {
        self.0[cell / 64] & (1 << (cell % 64)) != 0
    }

    /// The cells in either set.
    fn union(self, other: Cells) -> Cells {
        Cells(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// The cells of `self` not in `other`.
    fn minus(self, other: Cells) -> Cells {
        Cells(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// Whether the two sets share a cell.
    fn meets(self, other: Cells) -> bool {
        (self.0[0] & other.0[0])
            | (self.0[1] & other.0[1])
            | (self.0[2] & other.0[2])
            | (self.0[3] & other.0[3])
            != 0
    }
}

/// The geometry of one piece set on one board: shape classes, slot order, precomputed slides.
pub(crate) struct Space {
    width: usize,
    cells: usize,
    /// Per class: (width, height). Class 0 is the goal piece alone.
    shapes: Vec<(usize, usize)>,
    /// Per slot (a position lists slots class by class): its class.
    class_of: Vec<usize>,
    /// Per class: its slots.
    ranges: Vec<Range<usize>>,
    /// Per layout piece: its class.
    piece_class: Vec<usize>,
    /// Per class × anchor cell: the anchor after a one-cell slide in each direction of
    /// [`Dir::ALL`], where the piece stays on the board.
    next: Vec<[Option<u8>; 4]>,
    /// Per class × anchor cell: the cells a piece of the class covers there (none where it
    /// would leave the board).
    covering: Vec<Cells>,
    /// Per class × anchor cell: the board's cells beside those (a piece moves only when one of
    /// them is empty).
    beside: Vec<Cells>,
    /// Every cell of the board.
    board: Cells,
    /// Per class × anchor cell: the anchor of the piece's mirror image (left and right swapped),
    /// when the goal is in the board's middle, so that a position and its mirror image are as
    /// far from it; `None` otherwise.
    mirror: Option<Vec<u8>>,
    /// The goal piece's target anchor.
    target: u8,
    /// Bits per packed cell index.
    bits: u32,
}

impl Space {
    /// The space of a layout's piece set, and the layout's current position in it.
    pub(crate) fn new(layout: &Layout) -> (Space, Vec<u8>) {
        let (width, height) = (layout.width() as usize, layout.height() as usize);
        let cells = width * height;
        let anchor = |x: u32, y: u32| (y as usize * width + x as usize) as u8;
        let goal = layout.goal_index();
        let shape = |i: usize| {
            let p = &layout.pieces()[i];
            (p.width as usize, p.height as usize)
        };
        let mut shapes = vec![shape(goal)];
        let mut piece_class = vec![0; layout.pieces().len()];
        for i in (0..layout.pieces().len()).filter(|&i| i != goal) {
            piece_class[i] = match shapes[1..].iter().position(|&s| s == shape(i)) {
                Some(k) => k + 1,
                None => {
                    shapes.push(shape(i));
                    shapes.len() - 1
                }
            };
        }
        let mut ranges = Vec::with_capacity(shapes.len());
        let mut class_of = Vec::new();
        let mut start = Vec::new();
        for class in 0..shapes.len() {
            let first = class_of.len();
            for (i, piece) in layout.pieces().iter().enumerate() {
                if piece_class[i] == class {
                    class_of.push(class);
                    start.push(anchor(piece.x, piece.y));
                }
            }
            ranges.push(first..class_of.len());
            start[first..].sort_unstable();
        }
        let mut next = vec![[None; 4]; shapes.len() * cells];
        for (class, &(w, h)) in shapes.iter().enumerate() {
            for y in 0..=height.saturating_sub(h) {
                for x in 0..=width.saturating_sub(w) {
                    let table = &mut next[class * cells + y * width + x];
                    for (d, dir) in Dir::ALL.into_iter().enumerate() {
                        let (dx, dy) = dir.delta();
                        let (nx, ny) = (x as isize + dx as isize, y as isize + dy as isize);
                        let fits = nx >= 0
                            && ny >= 0
                            && nx as usize + w <= width
                            && ny as usize + h <= height;
                        if fits {
                            table[d] = Some((ny as usize * width + nx as usize) as u8);
                        }
                    }
                }
            }
        }
        let (covering, beside) = cover_sets(&shapes, width, height);
        let goal_width = shapes[0].0;
        let mirror = (2 * layout.goal().x as usize + goal_width == width).then(|| {
            let mut mirror = vec![0; shapes.len() * cells];
            for (class, &(w, _)) in shapes.iter().enumerate() {
                for (cell, image) in mirror[class * cells..][..cells].iter_mut().enumerate() {
                    let (x, y) = (cell % width, cell / width);
                    if x + w <= width {
                        *image = (y * width + (width - w - x)) as u8;
                    }
                }
            }
            mirror
        });
        let bits = usize::BITS - (cells - 1).leading_zeros();
        let target = anchor(layout.goal().x, layout.goal().y);
        let space = Space {
            width,
            cells,
            shapes,
            class_of,
            ranges,
            piece_class,
            next,
            covering,
            beside,
            board: (0..cells).fold(Cells::default(), Cells::with),
            mirror,
            target,
            bits: bits.max(1),
        };
        (space, start)
    }

    /// The canonical position of `layout`, a layout of this space's piece set (the same pieces
    /// in the same order, wherever they stand).
    pub(crate) fn position(&self, layout: &Layout) -> Vec<u8> {
        let mut position = vec![0u8; self.class_of.len()];
        let mut next: Vec<usize> = self.ranges.iter().map(|range| range.start).collect();
        for (index, piece) in layout.pieces().iter().enumerate() {
            let class = self.piece_class[index];
            position[next[class]] = (piece.y as usize * self.width + piece.x as usize) as u8;
            next[class] += 1;
        }
        for range in &self.ranges {
            position[range.clone()].sort_unstable();
        }
        position
    }

    /// Whether positions pack into a `u128`.
    fn packs(&self) -> bool {
        self.packs_in(u128::BITS)
    }

    /// Whether positions pack into an integer of `bits` bits.
    fn packs_in(&self, bits: u32) -> bool {
        self.class_of.len() as u32 * self.bits <= bits
    }

    /// Whether the goal is in the board's middle, so that a position and its mirror image (left
    /// and right swapped) are as far from it.
    fn is_symmetric(&self) -> bool {
        self.mirror.is_some()
    }

    /// The key a search files `position` under: its packed form or, given room for its mirror
    /// `image` on a symmetric board, the smaller of that and its mirror image's.
    fn key<K: Key>(&self, position: &[u8], image: Option<&mut Vec<u8>>) -> K {
        let key = K::pack(position, self.bits);
        let (Some(image), Some(mirror)) = (image, &self.mirror) else { return key };
        image.clear();
        image.extend(
            position.iter().enumerate().map(|(slot, &anchor)| {
                mirror[self.class_of[slot] * self.cells + usize::from(anchor)]
            }),
        );
        for range in &self.ranges {
            image[range.clone()].sort_unstable();
        }
        key.min(K::pack(image, self.bits))
    }

    /// The positions along a search's `chain` (indices into its states, from a source to the
    /// goal) as the moves reach them from the source: each step's successor is the one filed
    /// under the chain's next key with the chain's cell moves. A mirrored search filed some of
    /// them as their mirror images.
    fn walk<K: Key>(
        &self,
        search: &Search<K>,
        chain: &[u32],
        sources: &[Vec<u8>],
        count: Count,
        mirrored: bool,
    ) -> Vec<Vec<u8>> {
        let mut image = mirrored.then(Vec::new);
        let first = &search.states[chain[0] as usize];
        let source = sources.iter().find(|source| self.key::<K>(source, image.as_mut()) == *first);
        let mut at = source.expect("a search's chain starts at a source").clone();
        let mut positions = vec![at.clone()];
        let mut scratch = Scratch::new(self.cells);
        let mut next = at.clone();
        for pair in chain.windows(2) {
            let (from, to) = (pair[0] as usize, pair[1] as usize);
            let cells = search.cells[to] - search.cells[from];
            let mut reached = None;
            self.successors(&at, count, &mut scratch, |slot, anchor, distance| {
                if reached.is_some() || distance != cells {
                    return;
                }
                self.moved_into(&at, slot, anchor, &mut next);
                if self.key::<K>(&next, image.as_mut()) == search.states[to] {
                    reached = Some(next.clone());
                }
            });
            at = reached.expect("each step of a search's chain is a move from the one before");
            positions.push(at.clone());
        }
        positions
    }

    fn unpack<K: Key>(&self, key: &K) -> Vec<u8> {
        let mut position = vec![0; self.class_of.len()];
        key.unpack(self.bits, &mut position);
        position
    }

    /// Whether the goal piece (slot 0) is on its target.
    fn solved(&self, position: &[u8]) -> bool {
        position[0] == self.target
    }

    /// Restores sorted order in the class of `slot` after it moved.
    fn canonical(&self, position: &mut [u8], slot: usize) {
        // The rest of the class is in order: the moved anchor is carried to its place.
        let range = &self.ranges[self.class_of[slot]];
        let mut at = slot;
        while at > range.start && position[at - 1] > position[at] {
            position.swap(at - 1, at);
            at -= 1;
        }
        while at + 1 < range.end && position[at + 1] < position[at] {
            position.swap(at, at + 1);
            at += 1;
        }
    }

    /// The cells a piece of `class` covers at `anchor`.
    fn covers(&self, class: usize, anchor: u8) -> Cells {
        self.covering[class * self.cells + usize::from(anchor)]
    }

    /// `position` with the piece in `slot` moved to `anchor`, in canonical form, into `moved`.
    fn moved_into(&self, position: &[u8], slot: usize, anchor: u8, moved: &mut [u8]) {
        moved.copy_from_slice(position);
        moved[slot] = anchor;
        self.canonical(moved, slot);
    }

    fn step(&self, class: usize, anchor: u8, dir: usize) -> Option<u8> {
        self.next[class * self.cells + anchor as usize][dir]
    }

    /// The positions `piece` alone reaches from `position` by sliding (one step's worth), in
    /// canonical form.
    pub(crate) fn continuations(
        &self,
        layout: &Layout,
        position: &[u8],
        piece: usize,
    ) -> Vec<Vec<u8>> {
        let Some(p) = layout.pieces().get(piece) else { return Vec::new() };
        let anchor = (p.y as usize * self.width + p.x as usize) as u8;
        let range = self.ranges[self.piece_class[piece]].clone();
        let Some(slot) = range.clone().find(|&slot| position[slot] == anchor) else {
            return Vec::new();
        };
        let mut scratch = Scratch::new(self.cells);
        let mut reached = Vec::new();
        self.successors(position, Count::Steps, &mut scratch, |from, to, _| {
            if from == slot {
                let mut next = position.to_vec();
                self.moved_into(position, from, to, &mut next);
                reached.push(next);
            }
        });
        reached
    }

    /// Calls `emit(slot, anchor, cell moves)` for every position one move away under `count`.
    fn successors(
        &self,
        position: &[u8],
        count: Count,
        scratch: &mut Scratch,
        mut emit: impl FnMut(usize, u8, u32),
    ) {
        // Per class, by anchor: the cells a piece covers, and its anchor after each slide.
        let of_class = |class: usize| {
            let at = class * self.cells..(class + 1) * self.cells;
            (&self.covering[at.clone()], &self.next[at])
        };
        let occupied = position.iter().enumerate().fold(Cells::default(), |cells, (slot, &a)| {
            cells.union(of_class(self.class_of[slot]).0[usize::from(a)])
        });
        let empty = self.board.minus(occupied);
        for (slot, &from) in position.iter().enumerate() {
            let class = self.class_of[slot];
            // A first slide moves onto empty cells beside the piece.
            if !self.beside[class * self.cells + usize::from(from)].meets(empty) {
                continue;
            }
            let (covers, slides) = of_class(class);
            let others = occupied.minus(covers[usize::from(from)]);
            let fits = |to: u8| !covers[usize::from(to)].meets(others);
            let step = |at: u8, dir: usize| slides[usize::from(at)][dir];
            match count {
                Count::Cells => {
                    for dir in 0..4 {
                        if let Some(to) = step(from, dir)
                            && fits(to)
                        {
                            emit(slot, to, 1);
                        }
                    }
                }
                Count::Lines => {
                    for dir in 0..4 {
                        let (mut at, mut distance) = (from, 0);
                        while let Some(to) = step(at, dir).filter(|&to| fits(to)) {
                            distance += 1;
                            emit(slot, to, distance);
                            at = to;
                        }
                    }
                }
                Count::Steps => {
                    // Breadth-first over the cells this piece alone can reach.
                    scratch.generation = scratch.generation.wrapping_add(1);
                    if scratch.generation == 0 {
                        scratch.seen.fill(0);
                        scratch.generation = 1;
                    }
                    let generation = scratch.generation;
                    scratch.seen[from as usize] = generation;
                    scratch.queue.clear();
                    scratch.queue.push((from, 0));
                    let mut head = 0;
                    while let Some(&(at, distance)) = scratch.queue.get(head) {
                        head += 1;
                        for dir in 0..4 {
                            let Some(to) = step(at, dir) else { continue };
                            if scratch.seen[to as usize] != generation && fits(to) {
                                scratch.seen[to as usize] = generation;
                                scratch.queue.push((to, distance + 1));
                                emit(slot, to, distance + 1);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The shortest sequence of slides taking a piece of `class` from `from` to `to` while the
    /// other pieces, covering `others`, stand still.
    fn path(&self, others: Cells, class: usize, from: u8, to: u8) -> Option<Vec<Dir>> {
        let mut came: Vec<Option<(u8, Dir)>> = vec![None; self.cells];
        let mut queue = std::collections::VecDeque::from([from]);
        let mut reached = vec![false; self.cells];
        reached[from as usize] = true;
        while let Some(at) = queue.pop_front() {
            if at == to {
                let mut path = Vec::new();
                let mut cell = at;
                while let Some((prev, dir)) = came[cell as usize] {
                    path.push(dir);
                    cell = prev;
                }
                path.reverse();
                return Some(path);
            }
            for (d, dir) in Dir::ALL.into_iter().enumerate() {
                if let Some(next) = self.step(class, at, d)
                    && !reached[next as usize]
                    && !self.covers(class, next).meets(others)
                {
                    reached[next as usize] = true;
                    came[next as usize] = Some((at, dir));
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// Turns a chain of canonical positions into moves of the layout's actual pieces.
    fn replay(&self, layout: &Layout, positions: &[Vec<u8>]) -> Vec<Move> {
        let mut anchors: Vec<u8> = layout
            .pieces()
            .iter()
            .map(|p| (p.y as usize * self.width + p.x as usize) as u8)
            .collect();
        let mut moves = Vec::with_capacity(positions.len().saturating_sub(1));
        for pair in positions.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            // Exactly one class changed, by one piece: find where it left and where it went.
            let Some(class) =
                self.ranges.iter().position(|r| before[r.clone()] != after[r.clone()])
            else {
                continue;
            };
            let range = self.ranges[class].clone();
            let (old, new) = (&before[range.clone()], &after[range]);
            let from = old.iter().copied().find(|a| !new.contains(a));
            let to = new.iter().copied().find(|a| !old.contains(a));
            let piece = (0..anchors.len())
                .find(|&p| self.piece_class[p] == class && Some(anchors[p]) == from);
            let (Some(from), Some(to), Some(piece)) = (from, to, piece) else {
                unreachable!("consecutive positions of a search differ by one piece's move");
            };
            let others = (anchors.iter().enumerate())
                .filter(|&(p, _)| p != piece)
                .fold(Cells::default(), |cells, (p, &a)| {
                    cells.union(self.covers(self.piece_class[p], a))
                });
            let path = self
                .path(others, class, from, to)
                .expect("a search move is a path of slides with the other pieces still");
            anchors[piece] = to;
            moves.push(Move { piece, path });
        }
        moves
    }

    /// Calls `visit` with every placement of the piece set (canonical positions), optionally
    /// only those with the goal piece on its target.
    pub(crate) fn enumerate(&self, goal_on_target: bool, mut visit: impl FnMut(&[u8])) {
        let area: usize = self.class_of.iter().map(|&c| self.shapes[c].0 * self.shapes[c].1).sum();
        let Some(empties) = self.cells.checked_sub(area) else { return };
        let mut filler = Filler {
            space: self,
            taken: Cells::default(),
            position: vec![0; self.class_of.len()],
            placed: vec![0; self.shapes.len()],
        };
        if goal_on_target {
            filler.put(0, self.target, true);
            filler.position[0] = self.target;
            filler.placed[0] = 1;
        }
        filler.fill(0, empties, &mut visit);
    }

    /// The layout with `template`'s pieces (names, codes, order) at `position`: same-shaped
    /// pieces take the position's cells in the order the template lists them.
    pub(crate) fn layout_at(&self, template: &Layout, position: &[u8]) -> Layout {
        let mut pieces = template.pieces().to_vec();
        let mut taken = vec![0; self.shapes.len()];
        for (i, piece) in pieces.iter_mut().enumerate() {
            let class = self.piece_class[i];
            let anchor = position[self.ranges[class].start + taken[class]] as usize;
            taken[class] += 1;
            piece.x = (anchor % self.width) as u32;
            piece.y = (anchor / self.width) as u32;
        }
        Layout::new(None, template.width(), template.height(), pieces, template.goal().clone())
            .expect("a position of the template's own piece set is a valid layout")
    }
}

/// Per class × anchor cell of a `width` × `height` board: the cells a piece of each shape covers
/// there, and the board's cells beside them (none for an anchor where the piece would leave the
/// board).
fn cover_sets(shapes: &[(usize, usize)], width: usize, height: usize) -> (Vec<Cells>, Vec<Cells>) {
    let cells = width * height;
    let mut covering = vec![Cells::default(); shapes.len() * cells];
    let mut beside = covering.clone();
    for (class, &(w, h)) in shapes.iter().enumerate() {
        for y in 0..=height.saturating_sub(h) {
            for x in 0..=width.saturating_sub(w) {
                let covered =
                    |cx: usize, cy: usize| (x..x + w).contains(&cx) && (y..y + h).contains(&cy);
                let mut on = Cells::default();
                let mut around = Cells::default();
                for (cy, cx) in (0..height).flat_map(|cy| (0..width).map(move |cx| (cy, cx))) {
                    let cell = cy * width + cx;
                    if covered(cx, cy) {
                        on = on.with(cell);
                    } else if (cx > 0 && covered(cx - 1, cy))
                        || covered(cx + 1, cy)
                        || (cy > 0 && covered(cx, cy - 1))
                        || covered(cx, cy + 1)
                    {
                        around = around.with(cell);
                    }
                }
                covering[class * cells + y * width + x] = on;
                beside[class * cells + y * width + x] = around;
            }
        }
    }
    (covering, beside)
}

/// Recursive placement of a piece set, filling cells in reading order: the first undecided cell
/// is either left empty or is the top-left corner of a piece, which makes every placement come
/// out exactly once.
struct Filler<'a> {
    space: &'a Space,
    taken: Cells,
    position: Vec<u8>,
    placed: Vec<usize>,
}

impl Filler<'_> {
    /// Marks (or clears) the cells of a `class` piece at `anchor`; false if it does not fit.
    fn put(&mut self, class: usize, anchor: u8, on: bool) -> bool {
        let covers = self.space.covers(class, anchor);
        if on && covers.meets(self.taken) {
            return false;
        }
        self.taken = if on { self.taken.union(covers) } else { self.taken.minus(covers) };
        true
    }

    fn fill(&mut self, from: usize, empties: usize, visit: &mut impl FnMut(&[u8])) {
        let Some(cell) = (from..self.space.cells).find(|&c| !self.taken.contains(c)) else {
            visit(&self.position);
            return;
        };
        if empties > 0 {
            self.taken = self.taken.with(cell);
            self.fill(cell + 1, empties - 1, visit);
            self.taken = self.taken.without(cell);
        }
        for class in 0..self.space.shapes.len() {
            let range = self.space.ranges[class].clone();
            if self.placed[class] == range.len() {
                continue;
            }
            let (w, h) = self.space.shapes[class];
            let (x, y) = (cell % self.space.width, cell / self.space.width);
            let height = self.space.cells / self.space.width;
            let on_board = x + w <= self.space.width && y + h <= height;
            if !on_board || !self.put(class, cell as u8, true) {
                continue;
            }
            self.position[range.start + self.placed[class]] = cell as u8;
            self.placed[class] += 1;
            self.fill(cell + 1, empties, visit);
            self.placed[class] -= 1;
            self.put(class, cell as u8, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundled;
    use crate::layout::{Goal, Piece};

    fn classic() -> Layout {
        Layout::default()
    }

    /// Plays a solution's slides on the layout, checking each is legal; returns the end.
    fn play_out(layout: &Layout, solution: &Solution) -> Layout {
        let mut board = layout.clone();
        for slide in solution.slides(layout) {
            let piece = board.find(&slide.piece).unwrap();
            board.slide(piece, slide.dir).unwrap_or_else(|e| panic!("{slide}: {e:?}"));
        }
        board
    }

    #[test]
    fn the_classic_takes_81_steps_and_at_best_118_cell_moves_along_them() {
        // Fewest steps first, then fewest cell moves: no 81-step solution has only 116 cell
        // moves (those take at least 88 steps).
        let solution = solve(&classic(), Count::Steps).unwrap();
        assert_eq!(solution.len(), 81);
        assert_eq!(solution.cell_moves(), 118);
        assert!(play_out(&classic(), &solution).is_solved());
        // Consecutive steps never move the same piece (they would merge into one step).
        assert!(solution.moves.windows(2).all(|w| w[0].piece != w[1].piece));
    }

    #[test]
    fn a_search_with_64_bit_keys_finds_the_solution_128_bit_keys_find() {
        for count in Count::ALL {
            let layout = classic();
            let (space, start) = Space::new(&layout);
            assert!(space.packs_in(u64::BITS), "10 pieces of 5 bits");
            let wide = solve_with::<u128>(&space, &start, &layout, count, None).unwrap();
            let boxed = solve_with::<Box<[u8]>>(&space, &start, &layout, count, None).unwrap();
            let narrow = solve(&layout, count).unwrap();
            assert_eq!(narrow.moves, wide.moves, "{count:?}");
            assert_eq!(narrow.moves, boxed.moves, "{count:?}");
        }
    }

    #[test]
    fn a_piece_covers_its_cells_and_is_beside_the_board_cells_around_it() {
        // The classic's 2 × 2 goal piece on its 4 × 5 board.
        let (space, _) = Space::new(&classic());
        let cells = |list: &[usize]| list.iter().copied().fold(Cells::default(), Cells::with);
        let at = |x: usize, y: usize| y * 4 + x;
        assert_eq!(space.covering[at(1, 0)], cells(&[1, 2, 5, 6]));
        assert_eq!(space.beside[at(1, 0)], cells(&[0, 3, 4, 7, 9, 10]));
        // In the bottom-right corner: nothing beside it off the board.
        assert_eq!(space.covering[at(2, 3)], cells(&[14, 15, 18, 19]));
        assert_eq!(space.beside[at(2, 3)], cells(&[10, 11, 13, 17]));
        // Off the board (three columns from the right edge it would stick out): nothing.
        assert_eq!(space.covering[at(3, 0)], Cells::default());
        assert_eq!(space.board, cells(&(0..20).collect::<Vec<_>>()));
        // The last cell of the largest board.
        assert!(Cells::default().with(255).meets(Cells::default().with(255)));
        assert!(!Cells::default().with(255).meets(Cells::default().with(191)));
    }

    #[test]
    fn the_classic_takes_116_cell_moves() {
        let solution = solve(&classic(), Count::Cells).unwrap();
        assert_eq!(solution.len(), 116);
        assert_eq!(solution.cell_moves(), 116);
        assert!(play_out(&classic(), &solution).is_solved());
    }

    #[test]
    fn the_classic_takes_90_straight_moves() {
        let solution = solve(&classic(), Count::Lines).unwrap();
        assert_eq!(solution.len(), 90);
        assert!(play_out(&classic(), &solution).is_solved());
        for m in &solution.moves {
            assert!(m.path.windows(2).all(|w| w[0] == w[1]), "not straight: {m:?}");
        }
    }

    #[test]
    fn the_classic_reaches_25955_positions() {
        assert_eq!(reachable(&classic()), Ok(25_955));
    }

    #[test]
    fn the_classic_piece_set_has_65880_layouts() {
        assert_eq!(count_layouts(&classic()), 65_880);
    }

    #[test]
    fn a_mirrored_search_meets_about_half_the_positions_and_solves_as_well() {
        let layout = classic();
        let (space, start) = Space::new(&layout);
        assert!(space.is_symmetric(), "the goal piece ends in the middle of the bottom");
        let sources = [start.clone()];
        let met = |mirrored| {
            let reach = Reach::Goal { mirrored };
            search::<u64>(&space, &sources, Count::Steps, reach, MAX_STATES).unwrap().states.len()
        };
        let (halved, whole) = (met(true), met(false));
        assert!(halved * 10 < whole * 6, "{halved} of {whole}");
        for layout in bundled::all() {
            let (space, start) = Space::new(&layout);
            for count in Count::ALL {
                let solve = |mirrored| {
                    solve_filed::<u64>(&space, &start, &layout, count, None, mirrored).unwrap()
                };
                let (mirrored, plain) = (solve(true), solve(false));
                assert_eq!(mirrored.len(), plain.len(), "{:?} {count:?}", layout.name());
                assert_eq!(
                    mirrored.cell_moves(),
                    plain.cell_moves(),
                    "{:?} {count:?}",
                    layout.name()
                );
                assert!(play_out(&layout, &mirrored).is_solved(), "{:?} {count:?}", layout.name());
            }
        }
    }

    #[test]
    fn a_mirrored_search_continues_a_step_under_way_as_the_plain_one_does() {
        // Part-way through the classic's solution, after each slide: the rest, counted from a
        // step that may be under way, is as long either way.
        let layout = classic();
        let solution = solve(&layout, Count::Steps).unwrap();
        let mut board = layout.clone();
        for slide in solution.slides(&layout).into_iter().take(12) {
            let piece = board.find(&slide.piece).unwrap();
            board.slide(piece, slide.dir).unwrap();
            let (space, start) = Space::new(&board);
            let solve = |mirrored| {
                solve_filed::<u64>(&space, &start, &board, Count::Steps, Some(piece), mirrored)
                    .unwrap()
            };
            let (mirrored, plain) = (solve(true), solve(false));
            assert_eq!((mirrored.len(), mirrored.continues), (plain.len(), plain.continues));
            assert_eq!(mirrored.cell_moves(), plain.cell_moves());
            assert!(play_out(&board, &mirrored).is_solved());
        }
    }

    #[test]
    fn an_unsolvable_symmetric_layout_counts_positions_not_mirror_pairs() {
        // G roams the top row (three positions, two of them mirror images); the wall below,
        // which holds the target, never moves.
        let layout = tiny(&["G..", "BBB"], ("g", 1, 1));
        assert!(Space::new(&layout).0.is_symmetric());
        assert_eq!(solve(&layout, Count::Steps), Err(SolveError::Unsolvable { explored: 3 }));
    }

    #[test]
    fn every_bundled_layout_is_solvable_in_its_published_number_of_steps() {
        // Steps are the published figures; cells and straight moves are as measured here and
        // quoted in docs/layouts.md.
        let expected = [
            ("横刀立马", [81, 116, 90]),
            ("指挥若定", [70, 100, 79]),
            ("将拥曹营", [72, 101, 78]),
            ("齐头并进", [60, 85, 66]),
            ("兵分三路", [72, 92, 77]),
        ];
        for (layout, (name, lengths)) in bundled::all().iter().zip(expected) {
            assert_eq!(layout.name(), Some(name));
            for (count, length) in
                [Count::Steps, Count::Cells, Count::Lines].into_iter().zip(lengths)
            {
                let solution = solve(layout, count).unwrap();
                assert_eq!(solution.len(), length, "{name} {count:?}");
                assert!(play_out(layout, &solution).is_solved(), "{name} {count:?}");
            }
            assert_eq!(reachable(layout), Ok(25_955), "{name}");
        }
    }

    #[test]
    fn a_solved_position_needs_no_moves() {
        let layout = tiny(&["G.", "G."], ("g", 0, 0));
        assert!(solve(&layout, Count::Steps).unwrap().is_empty());
    }

    /// A small layout from rows: uppercase letters are pieces (code = lowercase letter).
    fn tiny(rows: &[&str], goal: (&str, u32, u32)) -> Layout {
        let mut text = String::from("board:\n");
        for row in rows {
            text.push_str(row);
            text.push('\n');
        }
        text.push_str("legend:\n");
        let mut letters: Vec<char> = rows.concat().chars().filter(|c| *c != '.').collect();
        letters.sort_unstable();
        letters.dedup();
        for c in letters {
            text.push_str(&format!("{c} {} piece-{c}\n", c.to_ascii_lowercase()));
        }
        text.push_str(&format!("goal: {} {} {}\n", goal.0, goal.1, goal.2));
        Layout::parse(&text).unwrap()
    }

    #[test]
    fn a_step_may_turn_corners_but_a_cell_move_may_not() {
        // G must go down and then right around nothing: 2 cells, 1 step.
        let layout = tiny(&["G.", ".."], ("g", 1, 1));
        assert_eq!(solve(&layout, Count::Steps).unwrap().len(), 1);
        assert_eq!(solve(&layout, Count::Lines).unwrap().len(), 2);
        let cells = solve(&layout, Count::Cells).unwrap();
        assert_eq!(cells.len(), 2);
        assert_eq!(solve(&layout, Count::Steps).unwrap().cell_moves(), 2);
    }

    #[test]
    fn an_unsolvable_layout_says_how_much_it_explored() {
        // G is walled in by a piece that cannot move.
        let stuck = Layout::new(
            None,
            3,
            1,
            vec![
                Piece { code: "g".into(), name: "G".into(), x: 0, y: 0, width: 1, height: 1 },
                Piece { code: "b".into(), name: "B".into(), x: 1, y: 0, width: 2, height: 1 },
            ],
            Goal { piece: "g".into(), x: 2, y: 0 },
        )
        .unwrap();
        assert_eq!(solve(&stuck, Count::Steps), Err(SolveError::Unsolvable { explored: 1 }));
    }

    #[test]
    fn same_shaped_pieces_are_interchangeable_but_the_goal_piece_is_not() {
        // Two 1×1 pieces and a 1×1 goal on a 2×2 board with one hole: the goal piece is told
        // apart, the other two are not.
        let layout = tiny(&["GB", "C."], ("g", 1, 1));
        // Positions: the goal in one of 4 cells, the hole in one of the 3 others, the two
        // soldiers fill the rest in 1 way: 12 layouts; sliding reaches all of them.
        assert_eq!(count_layouts(&layout), 12);
        assert_eq!(reachable(&layout), Ok(12));
    }

    #[test]
    fn boards_too_big_for_a_u128_use_the_fallback_keys() {
        // 17 pieces on 256 cells need 17 × 8 = 136 bits. Row 0 is the goal, seven empty cells
        // and an 8-wide bar; fifteen full-width bars below cannot move.
        let mut text = String::from("board:\nG.......AAAAAAAA\n");
        let bars: Vec<char> = ('b'..='p').collect();
        for c in &bars {
            text.push_str(&c.to_string().repeat(16));
            text.push('\n');
        }
        text.push_str("legend:\nG g goal\nA bar bar\n");
        for (i, c) in bars.iter().enumerate() {
            text.push_str(&format!("{c} b{i} wall\n"));
        }
        text.push_str("goal: g 7 0\n");
        let layout = Layout::parse(&text).unwrap();
        let (space, _) = Space::new(&layout);
        assert!(!space.packs());
        let cells = solve(&layout, Count::Cells).unwrap();
        assert_eq!(cells.len(), 7);
        assert!(play_out(&layout, &cells).is_solved());
        assert_eq!(solve(&layout, Count::Steps).unwrap().len(), 1);
        // The goal at g and the bar at a > g with room for 8 cells: 8 + 7 + … + 1.
        assert_eq!(reachable(&layout), Ok(36));
    }

    #[test]
    fn solvable_positions_of_the_classic_set_include_the_classic_at_81() {
        let (space, positions) = solvable_positions(&classic(), Count::Steps).unwrap();
        let (_, start) = Space::new(&classic());
        let classic_distance = positions.iter().find(|(p, _)| *p == start).map(|(_, d)| *d);
        assert_eq!(classic_distance, Some(81));
        assert!(positions.iter().all(|(p, _)| p.len() == 10));
        let layout = space.layout_at(&classic(), &start);
        assert_eq!(solve(&layout, Count::Steps).unwrap().len(), 81);
    }
}

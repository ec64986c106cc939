//! Bitboards: a grid of up to 10×10 squares as one `u128`, bit `y * width + x` for square
//! `(x, y)`, and the table of every place a ship can lie.
//!
//! The game state, fleet placement and the reference opponents all work on these masks, so a
//! shot, a "does this ship touch that one" test or a density count is a handful of word
//! operations and never allocates. Only the placement table is generic over the grid's size (the
//! placement tests enumerate small grids exhaustively); everything else is the 10×10 game grid.
//! Not for rules: what a shot means lives in the crate root.

use botlens_engine::SeedRng;
use botlens_protocol::battleships::{BOARD_SIZE, Direction};

/// A set of squares, one bit per square.
pub(crate) type Mask = u128;

/// Squares on the game grid.
pub(crate) const CELLS: usize = BOARD_SIZE * BOARD_SIZE;

/// Every square of the game grid.
pub(crate) const FULL: Mask = (1 << CELLS) - 1;

/// The longest ship a placement table holds.
pub(crate) const MAX_SHIP: usize = 5;

/// Room for every placement of one ship size on a grid of at most 10×10.
const MAX_PLACEMENTS: usize = 2 * BOARD_SIZE * BOARD_SIZE;

/// The squares of column `x` of the game grid.
const fn column(x: usize) -> Mask {
    let mut mask = 0;
    let mut y = 0;
    while y < BOARD_SIZE {
        mask |= 1 << (y * BOARD_SIZE + x);
        y += 1;
    }
    mask
}

const FIRST_COLUMN: Mask = column(0);
const LAST_COLUMN: Mask = column(BOARD_SIZE - 1);

/// The squares whose `x + y` is even: one colour of the checkerboard.
pub(crate) const EVEN_SQUARES: Mask = {
    let mut mask = 0;
    let mut cell = 0;
    while cell < CELLS {
        if (cell / BOARD_SIZE + cell % BOARD_SIZE).is_multiple_of(2) {
            mask |= 1 << cell;
        }
        cell += 1;
    }
    mask
};

/// The bit of square `(x, y)` of the game grid.
pub(crate) const fn bit(x: usize, y: usize) -> Mask {
    1 << (y * BOARD_SIZE + x)
}

/// The `(x, y)` of a square index of the game grid.
pub(crate) const fn xy(cell: u32) -> (usize, usize) {
    (cell as usize % BOARD_SIZE, cell as usize / BOARD_SIZE)
}

/// The mask of a ship of the given size lying on the game grid from `(x, y)`; `None` when any
/// of its squares is off the grid.
pub(crate) fn ship_mask(x: usize, y: usize, size: usize, direction: Direction) -> Option<Mask> {
    let (dx, dy) = match direction {
        Direction::Horizontal => (1, 0),
        Direction::Vertical => (0, 1),
    };
    let (end_x, end_y) = (x + dx * (size - 1), y + dy * (size - 1));
    (end_x < BOARD_SIZE && end_y < BOARD_SIZE)
        .then(|| (0..size).fold(0, |mask, i| mask | bit(x + dx * i, y + dy * i)))
}

/// The squares left, right, above and below any square of `mask` (not `mask` itself, unless a
/// square of it neighbours another).
pub(crate) const fn orthogonal(mask: Mask) -> Mask {
    let sideways = ((mask << 1) & !FIRST_COLUMN) | ((mask >> 1) & !LAST_COLUMN);
    (sideways | (mask << BOARD_SIZE) | (mask >> BOARD_SIZE)) & FULL
}

/// The squares of `mask` with a horizontal neighbour in `mask`.
pub(crate) const fn with_horizontal_neighbour(mask: Mask) -> Mask {
    mask & (((mask << 1) & !FIRST_COLUMN) | ((mask >> 1) & !LAST_COLUMN))
}

/// The squares of `mask` with a vertical neighbour in `mask`.
pub(crate) const fn with_vertical_neighbour(mask: Mask) -> Mask {
    mask & ((mask << BOARD_SIZE) | (mask >> BOARD_SIZE))
}

/// The squares left and right of any square of `mask`.
pub(crate) const fn horizontal_ends(mask: Mask) -> Mask {
    (((mask << 1) & !FIRST_COLUMN) | ((mask >> 1) & !LAST_COLUMN)) & FULL
}

/// The squares above and below any square of `mask`.
pub(crate) const fn vertical_ends(mask: Mask) -> Mask {
    ((mask << BOARD_SIZE) | (mask >> BOARD_SIZE)) & FULL
}

/// `mask` with all eight neighbours of each of its squares: the water around a ship.
pub(crate) const fn halo(mask: Mask) -> Mask {
    let row = (mask | ((mask << 1) & !FIRST_COLUMN) | ((mask >> 1) & !LAST_COLUMN)) & FULL;
    (row | (row << BOARD_SIZE) | (row >> BOARD_SIZE)) & FULL
}

/// The set squares of a mask, lowest first.
pub(crate) struct Squares(pub Mask);

impl Iterator for Squares {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let cell = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(cell)
    }
}

/// The index of the `n`-th (0-based) set bit of `mask`, which has more than `n` set bits.
fn nth_square(mask: Mask, n: u32) -> u32 {
    let low = mask as u64;
    let (mut word, mut n, offset) = if n < low.count_ones() {
        (low, n, 0)
    } else {
        ((mask >> 64) as u64, n - low.count_ones(), 64)
    };
    while n > 0 {
        word &= word - 1;
        n -= 1;
    }
    word.trailing_zeros() + offset
}

/// A square of `mask` chosen uniformly by `rng`; `None` for an empty mask.
pub(crate) fn random_square(mask: Mask, rng: &mut SeedRng) -> Option<u32> {
    let count = mask.count_ones();
    (count > 0).then(|| nth_square(mask, draw(rng, count as usize) as u32))
}

/// A uniform index in `0..len` (`len` positive), without bias, by Lemire's multiply-shift
/// method: a 64×64→128-bit product instead of a division, with a rare resample to remove bias.
pub(crate) fn draw(rng: &mut SeedRng, len: usize) -> usize {
    let n = len as u64;
    let mut product = u128::from(rng.next_u64()) * u128::from(n);
    if (product as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (product as u64) < threshold {
            product = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (product >> 64) as usize
}

/// One place a ship can lie: its squares, those squares with their eight neighbours (where no
/// other ship may be), and its top-left square and direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placement {
    /// The squares the ship covers.
    pub cells: Mask,
    /// `cells` and every square touching them, diagonals included.
    pub halo: Mask,
    /// Column of the top-left square.
    pub x: u8,
    /// Row of the top-left square.
    pub y: u8,
    /// Which way the ship extends (horizontal for one-square ships).
    pub direction: Direction,
}

impl Placement {
    pub(crate) const NONE: Placement =
        Placement { cells: 0, halo: 0, x: 0, y: 0, direction: Direction::Horizontal };
}

/// Every placement of every ship size (1 to [`MAX_SHIP`]) on a grid, with bit `y * width + x`
/// for square `(x, y)`.
///
/// A one-square ship has one placement per square (its direction means nothing, and counting it
/// twice would not change a uniform draw but would double the table).
pub(crate) struct Placements {
    lists: [[Placement; MAX_PLACEMENTS]; MAX_SHIP + 1],
    counts: [usize; MAX_SHIP + 1],
}

/// The placements on the 10×10 game grid, built at compile time.
pub(crate) static GAME_PLACEMENTS: Placements = Placements::new(BOARD_SIZE, BOARD_SIZE);

impl Placements {
    /// The table for a `width` × `height` grid (each at most 10).
    pub(crate) const fn new(width: usize, height: usize) -> Placements {
        assert!(width <= BOARD_SIZE && height <= BOARD_SIZE, "grids are at most 10×10");
        let mut lists = [[Placement::NONE; MAX_PLACEMENTS]; MAX_SHIP + 1];
        let mut counts = [0; MAX_SHIP + 1];
        let mut size = 1;
        while size <= MAX_SHIP {
            let mut vertical = 0;
            while vertical < 2 && !(size == 1 && vertical == 1) {
                let (dx, dy) = if vertical == 0 { (1, 0) } else { (0, 1) };
                let mut y = 0;
                while y < height {
                    let mut x = 0;
                    while x < width {
                        let (end_x, end_y) = (x + dx * (size - 1), y + dy * (size - 1));
                        if end_x < width && end_y < height {
                            lists[size][counts[size]] = Placement {
                                cells: rectangle(width, x, y, end_x, end_y),
                                halo: rectangle(
                                    width,
                                    x.saturating_sub(1),
                                    y.saturating_sub(1),
                                    min(end_x + 1, width - 1),
                                    min(end_y + 1, height - 1),
                                ),
                                x: x as u8,
                                y: y as u8,
                                direction: if vertical == 0 {
                                    Direction::Horizontal
                                } else {
                                    Direction::Vertical
                                },
                            };
                            counts[size] += 1;
                        }
                        x += 1;
                    }
                    y += 1;
                }
                vertical += 1;
            }
            size += 1;
        }
        Placements { lists, counts }
    }

    /// Every placement of a ship of `size` squares (1 to [`MAX_SHIP`]).
    pub(crate) fn of(&self, size: usize) -> &[Placement] {
        &self.lists[size][..self.counts[size]]
    }
}

const fn min(a: usize, b: usize) -> usize {
    if a < b { a } else { b }
}

/// The squares of the rectangle from `(x0, y0)` to `(x1, y1)` inclusive on a grid `width` wide.
const fn rectangle(width: usize, x0: usize, y0: usize, x1: usize, y1: usize) -> Mask {
    let mut mask = 0;
    let mut y = y0;
    while y <= y1 {
        let mut x = x0;
        while x <= x1 {
            mask |= 1 << (y * width + x);
            x += 1;
        }
        y += 1;
    }
    mask
}

#[cfg(test)]
mod tests {
    use botlens_engine::Stream;

    use super::*;

    #[test]
    fn the_game_grid_has_the_expected_number_of_placements_per_size() {
        let counts: Vec<usize> =
            (1..=MAX_SHIP).map(|size| GAME_PLACEMENTS.of(size).len()).collect();
        assert_eq!(counts, vec![100, 180, 160, 140, 120]);
    }

    #[test]
    fn placements_agree_with_the_shift_based_masks() {
        for size in 1..=MAX_SHIP {
            for p in GAME_PLACEMENTS.of(size) {
                let from_corner = ship_mask(p.x.into(), p.y.into(), size, p.direction);
                assert_eq!(from_corner, Some(p.cells), "{p:?}");
                assert_eq!(p.halo, halo(p.cells), "{p:?}");
                assert_eq!(p.cells.count_ones() as usize, size);
            }
        }
    }

    #[test]
    fn neighbours_do_not_wrap_around_rows_or_leave_the_grid() {
        let right_edge = bit(9, 4);
        assert_eq!(orthogonal(right_edge), bit(8, 4) | bit(9, 3) | bit(9, 5));
        let corner = bit(0, 9);
        assert_eq!(halo(corner), corner | bit(1, 9) | bit(0, 8) | bit(1, 8));
        assert_eq!(ship_mask(8, 0, 3, Direction::Horizontal), None);
        assert_eq!(ship_mask(0, 9, 2, Direction::Vertical), None);
    }

    #[test]
    fn line_helpers_find_aligned_squares_and_their_ends() {
        let line = bit(3, 3) | bit(4, 3);
        let lone = bit(7, 7);
        assert_eq!(with_horizontal_neighbour(line | lone), line);
        assert_eq!(with_vertical_neighbour(line | lone), 0);
        assert_eq!(horizontal_ends(line) & !line, bit(2, 3) | bit(5, 3));
        assert_eq!(vertical_ends(bit(0, 0)), bit(0, 1));
    }

    #[test]
    fn random_squares_are_uniform_over_the_mask() {
        let mask = bit(0, 0) | bit(9, 9) | bit(5, 2) | bit(1, 7);
        let mut rng = SeedRng::new(3, Stream::Setup);
        let mut seen = [0u32; CELLS];
        for _ in 0..8_000 {
            seen[random_square(mask, &mut rng).expect("non-empty") as usize] += 1;
        }
        for cell in Squares(mask) {
            assert!((1_800..2_200).contains(&seen[cell as usize]), "{seen:?}");
        }
        assert_eq!(seen.iter().sum::<u32>(), 8_000);
        assert_eq!(random_square(0, &mut rng), None);
        assert_eq!(Squares(mask).map(xy).last(), Some((9, 9)));
    }
}

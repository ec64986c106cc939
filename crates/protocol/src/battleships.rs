//! Battleships messages: `attack(x, y)` → miss / hit / sunk / already attacked.

use std::fmt;

use crate::compact::{Bytes, Compact};
use crate::wire::{Reader, Wire};
use crate::{wire_names, wire_struct};

/// Width and height of each player's grid.
pub const BOARD_SIZE: usize = 10;

/// A shot at the opponent's grid. JSON: `{"x": 3, "y": 7}`.
///
/// Coordinates are signed so that an out-of-range shot is representable (and illegal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Attack {
    /// Column, 0–9.
    pub x: i32,
    /// Row, 0–9.
    pub y: i32,
}

impl fmt::Display for Attack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "attack({}, {})", self.x, self.y)
    }
}

/// The kinds of ship in a fleet, with their sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ShipKind {
    /// Size 5.
    Carrier,
    /// Size 4.
    Warship,
    /// Size 3.
    Submarine,
    /// Size 2.
    Cruiser,
    /// Size 1.
    Patrol,
}

impl ShipKind {
    /// The number of cells the ship covers.
    pub fn size(self) -> usize {
        match self {
            ShipKind::Carrier => 5,
            ShipKind::Warship => 4,
            ShipKind::Submarine => 3,
            ShipKind::Cruiser => 2,
            ShipKind::Patrol => 1,
        }
    }

    /// Lower-case name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            ShipKind::Carrier => "carrier",
            ShipKind::Warship => "warship",
            ShipKind::Submarine => "submarine",
            ShipKind::Cruiser => "cruiser",
            ShipKind::Patrol => "patrol",
        }
    }
}

/// Every player's fleet: 7 ships, 18 cells (5 + 4 + 3 + 2 + 2 + 1 + 1).
pub const FLEET: [ShipKind; 7] = [
    ShipKind::Carrier,
    ShipKind::Warship,
    ShipKind::Submarine,
    ShipKind::Cruiser,
    ShipKind::Cruiser,
    ShipKind::Patrol,
    ShipKind::Patrol,
];

/// Which way a ship extends from its top-left cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Direction {
    /// Along increasing `x`.
    Horizontal,
    /// Along increasing `y`.
    Vertical,
}

/// A ship's placement: kind, top-left cell and direction.
/// JSON: `{"kind": "carrier", "size": 5, "x": 0, "y": 2, "direction": "vertical"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ship {
    /// What ship.
    pub kind: ShipKind,
    /// Its size (redundant with `kind`, kept for hand-written bots).
    pub size: u8,
    /// Column of its top-left cell.
    pub x: u8,
    /// Row of its top-left cell.
    pub y: u8,
    /// Which way it extends.
    pub direction: Direction,
}

impl Ship {
    /// The cells the ship covers, from its top-left cell.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.kind.size()).map(move |i| match self.direction {
            Direction::Horizontal => (self.x as usize + i, self.y as usize),
            Direction::Vertical => (self.x as usize, self.y as usize + i),
        })
    }
}

/// The game's answer to an attack. JSON: `{"result": "miss"}`, `{"result": "hit"}`,
/// `{"result": "sunk", "ship": {…}}`, `{"result": "already_attacked"}`.
///
/// A hit or a sink gives the attacker another turn; a miss or a re-attack passes the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "result", rename_all = "snake_case"))]
pub enum Shot {
    /// Water.
    Miss,
    /// A ship was hit but is still afloat.
    Hit,
    /// The shot sank this ship.
    Sunk {
        /// The ship that went down, with its placement.
        ship: Ship,
    },
    /// The square was attacked before: a wasted shot that passes the turn.
    AlreadyAttacked,
}

/// What is known about one square of the opponent's grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// Not attacked yet (`.` in the board string).
    Unknown,
    /// Attacked, water (`o`).
    Miss,
    /// Attacked, a ship still afloat (`x`).
    Hit,
    /// Attacked, part of a sunk ship (`#`).
    Sunk,
    /// Not a square: `(x, y)` is off the 10×10 grid (attacking there is an illegal move). Never
    /// in a board string; only [`BattleshipsView::target`] answers it, so that "fire at the first
    /// unknown square" cannot walk off the board.
    OffBoard,
}

impl Target {
    /// The character used for this square in [`BattleshipsView::targets`] (a space for
    /// [`Target::OffBoard`], which no board string holds).
    pub fn to_char(self) -> char {
        match self {
            Target::Unknown => '.',
            Target::Miss => 'o',
            Target::Hit => 'x',
            Target::Sunk => '#',
            Target::OffBoard => ' ',
        }
    }

    /// The square for a board-string character; anything unexpected reads as unknown.
    pub fn from_char(c: char) -> Target {
        match c {
            'o' => Target::Miss,
            'x' => Target::Hit,
            '#' => Target::Sunk,
            _ => Target::Unknown,
        }
    }
}

/// What a Battleships player sees at the start of its turn.
///
/// JSON: `{"targets": "..o.x…", "own": "..S.…", "enemy_ships_left": ["carrier", …], "shots": 12}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BattleshipsView {
    /// The opponent's grid as known to this player: 100 characters, row-major (`y * 10 + x`),
    /// one of `.` unknown, `o` miss, `x` hit, `#` sunk.
    pub targets: String,
    /// This player's own grid: 100 characters, row-major: `.` water, `S` ship, `X` ship cell hit
    /// by the opponent, `o` water the opponent shot at.
    pub own: String,
    /// The opponent's ships not yet sunk.
    pub enemy_ships_left: Vec<ShipKind>,
    /// Shots this player has fired so far (re-attacks included).
    pub shots: u32,
}

impl BattleshipsView {
    /// What is known about the opponent's square `(x, y)`; off the grid (`x` or `y` of 10 or
    /// more, or a coordinate that wrapped below 0) it is [`Target::OffBoard`], never
    /// [`Target::Unknown`].
    pub fn target(&self, x: usize, y: usize) -> Target {
        if x >= BOARD_SIZE || y >= BOARD_SIZE {
            return Target::OffBoard;
        }
        self.targets
            .as_bytes()
            .get(y * BOARD_SIZE + x)
            .map_or(Target::Unknown, |&b| Target::from_char(b as char))
    }
}

wire_struct!(Attack { x, y });
wire_names!(ShipKind {
    Carrier => "carrier",
    Warship => "warship",
    Submarine => "submarine",
    Cruiser => "cruiser",
    Patrol => "patrol",
});
wire_names!(Direction { Horizontal => "horizontal", Vertical => "vertical" });
wire_struct!(Ship { kind, size, x, y, direction });
wire_struct!(BattleshipsView { targets, own, enemy_ships_left, shots });

impl Wire for Shot {
    fn write(&self, out: &mut Vec<u8>) {
        let whole: &[u8] = match self {
            Shot::Miss => br#"{"result":"miss"}"#,
            Shot::Hit => br#"{"result":"hit"}"#,
            Shot::AlreadyAttacked => br#"{"result":"already_attacked"}"#,
            Shot::Sunk { ship } => {
                out.extend_from_slice(br#"{"result":"sunk","ship":"#);
                ship.write(out);
                b"}"
            }
        };
        out.extend_from_slice(whole);
    }

    fn read_from(reader: &mut Reader<'_>) -> Option<Self> {
        reader.expect(br#"{"result":""#)?;
        let shot = if reader.accept(br#"miss"}"#) {
            Shot::Miss
        } else if reader.accept(br#"hit"}"#) {
            Shot::Hit
        } else if reader.accept(br#"already_attacked"}"#) {
            Shot::AlreadyAttacked
        } else {
            reader.expect(br#"sunk","ship":"#)?;
            let ship = Ship::read_from(reader)?;
            reader.expect(b"}")?;
            Shot::Sunk { ship }
        };
        Some(shot)
    }
}

/// Compact form: a tag byte in declaration order (miss 0, hit 1, sunk 2, already attacked 3),
/// then, for a sink, the ship.
impl Compact for Shot {
    #[inline]
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            Shot::Miss => out.push(0),
            Shot::Hit => out.push(1),
            Shot::Sunk { ship } => {
                out.push(2);
                ship.put(out);
            }
            Shot::AlreadyAttacked => out.push(3),
        }
    }

    #[inline]
    fn take_from(bytes: &mut Bytes<'_>) -> Option<Self> {
        match bytes.byte()? {
            0 => Some(Shot::Miss),
            1 => Some(Shot::Hit),
            2 => Ship::take_from(bytes).map(|ship| Shot::Sunk { ship }),
            3 => Some(Shot::AlreadyAttacked),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::compact::tests::in_both_forms;

    fn ship_kind() -> impl Strategy<Value = ShipKind> {
        proptest::sample::select(FLEET.to_vec())
    }

    fn ship() -> impl Strategy<Value = Ship> {
        (ship_kind(), any::<u8>(), any::<u8>(), any::<u8>(), any::<bool>()).prop_map(
            |(kind, size, x, y, vertical)| Ship {
                kind,
                size,
                x,
                y,
                direction: if vertical { Direction::Vertical } else { Direction::Horizontal },
            },
        )
    }

    proptest! {
        #[test]
        fn messages_are_serde_json_bytes_and_round_trip_compact(
            x in any::<i32>(),
            y in any::<i32>(),
            ship in ship(),
            result in 0..4u8,
            targets in "[.ox#]{100}",
            own in "[.SXo]{100}",
            left in proptest::collection::vec(ship_kind(), 0..8),
            shots in any::<u32>(),
        ) {
            let shot = match result {
                0 => Shot::Miss,
                1 => Shot::Hit,
                2 => Shot::AlreadyAttacked,
                _ => Shot::Sunk { ship },
            };
            let view = BattleshipsView { targets, own, enemy_ships_left: left, shots };
            in_both_forms(&Attack { x, y });
            in_both_forms(&ship);
            in_both_forms(&shot);
            in_both_forms(&view);
        }

        #[test]
        fn a_view_read_over_another_is_the_view_read(
            views in proptest::collection::vec(
                ("[.ox#]{0,100}", proptest::collection::vec(ship_kind(), 0..8), any::<u32>()),
                2..4,
            )
        ) {
            let mut over: Option<BattleshipsView> = None;
            for (targets, left, shots) in views {
                let view = BattleshipsView { own: targets.to_uppercase(), targets, enemy_ships_left: left, shots };
                let wire = view.to_wire();
                match &mut over {
                    Some(old) => prop_assert!(old.read_over(&wire)),
                    None => over = BattleshipsView::read(&wire),
                }
                prop_assert_eq!(over.as_ref(), Some(&view));
            }
        }
    }

    #[test]
    fn compact_forms_are_the_documented_layouts() {
        let view = BattleshipsView {
            targets: "x".repeat(100),
            own: "S".repeat(100),
            enemy_ships_left: vec![ShipKind::Carrier, ShipKind::Patrol],
            shots: 258,
        };
        let mut expected = vec![100, 0, 0, 0];
        expected.extend([b'x'; 100]);
        expected.extend([100, 0, 0, 0]);
        expected.extend([b'S'; 100]);
        expected.extend([2, 0, 0, 0, 0, 4]);
        expected.extend([2, 1, 0, 0]);
        assert_eq!(view.to_compact(), expected);
        let ship =
            Ship { kind: ShipKind::Cruiser, size: 2, x: 3, y: 4, direction: Direction::Vertical };
        assert_eq!(Shot::Sunk { ship }.to_compact(), [2, 3, 2, 3, 4, 1]);
        assert_eq!(Shot::AlreadyAttacked.to_compact(), [3]);
        assert_eq!(Shot::take(&[4]), None);
        assert_eq!(ShipKind::take(&[5]), None);
        assert_eq!(
            Vec::<ShipKind>::take(&[2, 0, 0, 0, 4, 1]),
            Some(vec![ShipKind::Patrol, ShipKind::Warship])
        );
        assert_eq!(Vec::<ShipKind>::take(&[2, 0, 0, 0, 4, 5]), None, "no sixth kind");
    }

    #[test]
    fn squares_off_the_grid_are_never_unknown() {
        let mut targets = ".".repeat(BOARD_SIZE * BOARD_SIZE);
        targets.replace_range(0..1, "x");
        let view =
            BattleshipsView { targets, own: String::new(), enemy_ships_left: Vec::new(), shots: 1 };
        assert_eq!(view.target(0, 0), Target::Hit);
        assert_eq!(view.target(9, 9), Target::Unknown);
        for (x, y) in [(10, 0), (0, 10), (usize::MAX, 3), (3, 0usize.wrapping_sub(1)), (99, 99)] {
            assert_eq!(view.target(x, y), Target::OffBoard, "({x}, {y})");
        }
        // The first unknown square in any order of looking is on the board.
        let first = (0..=BOARD_SIZE).flat_map(|y| (0..=BOARD_SIZE).map(move |x| (x, y)));
        let found = first.into_iter().find(|&(x, y)| view.target(x, y) == Target::Unknown);
        assert_eq!(found, Some((1, 0)));
    }

    #[test]
    fn names_are_read_exactly() {
        assert_eq!(ShipKind::read(br#""submarine""#), Some(ShipKind::Submarine));
        for other in [
            &br#""boat""#[..],
            br#""Carrier""#,
            br#""carrie""#,
            br#""carrier"#,
            br#""carri\u0065r""#,
        ] {
            assert_eq!(ShipKind::read(other), None, "{}", String::from_utf8_lossy(other));
        }
    }

    #[test]
    fn json_shapes_are_the_documented_ones() {
        let shot = Shot::Sunk {
            ship: Ship {
                kind: ShipKind::Cruiser,
                size: 2,
                x: 3,
                y: 4,
                direction: Direction::Vertical,
            },
        };
        assert_eq!(
            serde_json::to_string(&shot).unwrap(),
            r#"{"result":"sunk","ship":{"kind":"cruiser","size":2,"x":3,"y":4,"direction":"vertical"}}"#
        );
        assert_eq!(
            serde_json::to_string(&Shot::AlreadyAttacked).unwrap(),
            r#"{"result":"already_attacked"}"#
        );
        assert_eq!(serde_json::to_string(&Attack { x: -1, y: 9 }).unwrap(), r#"{"x":-1,"y":9}"#);
        // The seven ships add up to 18 cells.
        assert_eq!(FLEET.iter().map(|k| k.size()).sum::<usize>(), 18);
    }
}

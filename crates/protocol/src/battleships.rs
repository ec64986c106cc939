//! Battleships messages: `attack(x, y)` → miss / hit / sunk / already attacked.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Width and height of each player's grid.
pub const BOARD_SIZE: usize = 10;

/// A shot at the opponent's grid. JSON: `{"x": 3, "y": 7}`.
///
/// Coordinates are signed so that an out-of-range shot is representable (and illegal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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

/// Every player's fleet: 7 ships, 18 cells (DESIGN.md's "19 cells" is a miscount of this list).
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Along increasing `x`.
    Horizontal,
    /// Along increasing `y`.
    Vertical,
}

/// A ship's placement: kind, top-left cell and direction.
/// JSON: `{"kind": "carrier", "size": 5, "x": 0, "y": 2, "direction": "vertical"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
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
}

impl Target {
    /// The character used for this square in [`BattleshipsView::targets`].
    pub fn to_char(self) -> char {
        match self {
            Target::Unknown => '.',
            Target::Miss => 'o',
            Target::Hit => 'x',
            Target::Sunk => '#',
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// What is known about the opponent's square `(x, y)`; out of range reads as unknown.
    pub fn target(&self, x: usize, y: usize) -> Target {
        if x >= BOARD_SIZE || y >= BOARD_SIZE {
            return Target::Unknown;
        }
        self.targets
            .as_bytes()
            .get(y * BOARD_SIZE + x)
            .map_or(Target::Unknown, |&b| Target::from_char(b as char))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // DESIGN.md lists these seven ships and calls them 19 cells; they add up to 18.
        assert_eq!(FLEET.iter().map(|k| k.size()).sum::<usize>(), 18);
    }
}

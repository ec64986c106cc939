//! Fixtures for this crate's tests: a known fleet and simple scripted players.

use botlens_engine::{Failure, Player, Turn};
use botlens_protocol::battleships::{Attack, Direction, Ship, ShipKind};

use crate::Battleships;
use crate::board::{Mask, Placement, Placements};

/// Every legal fleet of `sizes` (in order) on `table`'s grid: ships that do not touch.
pub(crate) fn legal_fleets(table: &Placements, sizes: &[usize]) -> Vec<Vec<Placement>> {
    fn extend(
        table: &Placements,
        sizes: &[usize],
        claimed: Mask,
        chosen: &mut Vec<Placement>,
        all: &mut Vec<Vec<Placement>>,
    ) {
        let Some((&size, rest)) = sizes.split_first() else {
            all.push(chosen.clone());
            return;
        };
        for p in table.of(size) {
            if p.cells & claimed == 0 {
                chosen.push(*p);
                extend(table, rest, claimed | p.halo, chosen, all);
                chosen.pop();
            }
        }
    }
    let mut all = Vec::new();
    extend(table, sizes, 0, &mut Vec::new(), &mut all);
    all
}

/// A legal fleet laid out in rows: carrier, warship, submarine and the cruisers along the left
/// edge on rows 0, 2, 4, 6 and 8; patrols in the corners (9, 0) and (9, 9).
pub(crate) fn standard_fleet() -> Vec<Ship> {
    let ship = |kind: ShipKind, x, y| Ship {
        kind,
        size: kind.size() as u8,
        x,
        y,
        direction: Direction::Horizontal,
    };
    vec![
        ship(ShipKind::Carrier, 0, 0),
        ship(ShipKind::Warship, 0, 2),
        ship(ShipKind::Submarine, 0, 4),
        ship(ShipKind::Cruiser, 0, 6),
        ship(ShipKind::Cruiser, 0, 8),
        ship(ShipKind::Patrol, 9, 0),
        ship(ShipKind::Patrol, 9, 9),
    ]
}

/// Both seats with [`standard_fleet`], `first` to move.
pub(crate) fn standard_game(first: usize) -> Battleships {
    Battleships::with_fleets([standard_fleet(), standard_fleet()], first).expect("legal fleets")
}

/// Plays a fixed list of attacks per turn (an empty list makes no move).
pub(crate) struct Scripted {
    turns: std::vec::IntoIter<Vec<Attack>>,
}

impl Scripted {
    /// A player that makes, on its `n`-th turn, the attacks of `turns[n]`.
    pub(crate) fn new(turns: Vec<Vec<Attack>>) -> Self {
        Scripted { turns: turns.into_iter() }
    }
}

impl Player<Battleships> for Scripted {
    fn play(&mut self, turn: &mut Turn<Battleships>) -> Result<(), Failure> {
        for attack in self.turns.next().unwrap_or_default() {
            turn.act(attack)?;
        }
        Ok(())
    }
}

/// Attacks (0, 0) every turn: after its first shot every turn is a wasted re-attack that passes
/// the turn, so it never sinks a fleet and the other seat can shoot until it wins.
pub(crate) struct Idle;

impl Player<Battleships> for Idle {
    fn play(&mut self, turn: &mut Turn<Battleships>) -> Result<(), Failure> {
        turn.act(Attack { x: 0, y: 0 })?;
        Ok(())
    }
}

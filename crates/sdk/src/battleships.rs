//! Battleships for bots: the game marker [`Battleships`], its move [`Turn::attack`], and the
//! messages it takes and returns and what the view shows.
//!
//! ```
//! use botlens_sdk::battleships::{BOARD_SIZE, FLEET, Shot, ShipKind};
//!
//! assert_eq!(BOARD_SIZE, 10);
//! assert_eq!(FLEET.iter().filter(|&&k| k == ShipKind::Cruiser).count(), 2);
//! let shot: Shot = serde_json::from_str(r#"{"result":"hit"}"#).unwrap();
//! assert_eq!(shot, Shot::Hit);
//! ```

pub use botlens_protocol::battleships::{
    Attack, BOARD_SIZE, BattleshipsView, Direction, FLEET, Ship, ShipKind, Shot, Target,
};

use crate::turn::{Game, Turn, sealed};

/// Two-player Battleships: move with [`Turn::attack`].
///
/// ```no_run
/// # use botlens_sdk::{Battleships, Turn};
/// fn play(turn: &mut Turn<Battleships>) {
///     turn.attack(4, 4);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Battleships;

impl sealed::Sealed for Battleships {}

impl Game for Battleships {
    const NAME: &'static str = "battleships";
    type View = BattleshipsView;
    type Action = Attack;
    type Response = Shot;
}

impl Turn<Battleships> {
    /// Fires at column `x`, row `y` (both 0–9) of the opponent's grid.
    ///
    /// A hit or a sink gives you another turn; a miss or a square you attacked before
    /// ([`Shot::AlreadyAttacked`], a wasted shot) passes the turn. Coordinates out of range are
    /// an illegal move and lose the game.
    ///
    /// ```no_run
    /// # use botlens_sdk::{Battleships, Turn};
    /// use botlens_sdk::battleships::Shot;
    /// fn play(turn: &mut Turn<Battleships>) {
    ///     match turn.attack(0, 9) {
    ///         Shot::Miss | Shot::AlreadyAttacked => {}
    ///         Shot::Hit => botlens_sdk::log("hit!"),
    ///         Shot::Sunk { ship } => botlens_sdk::log!("sank the {}", ship.kind.name()),
    ///     }
    /// }
    /// ```
    pub fn attack(&mut self, x: i32, y: i32) -> Shot {
        self.act(Attack { x, y })
    }
}

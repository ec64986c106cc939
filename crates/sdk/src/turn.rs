//! Turns: the view a bot sees and the one move it makes, typed per game.
//!
//! [`Turn`] is generic over a game marker ([`Battleships`], [`TicTacToe`], [`Klotski`]); each game
//! adds its own move method (`attack`, `mark`, `slide`). Messages cross to the host in the
//! compact binary form of `botlens-protocol` (the module declares it; `docs/abi.md`).

use std::marker::PhantomData;

use botlens_protocol::compact::Compact;

use crate::battleships::{Attack, BattleshipsView, Shot};
use crate::klotski::{Dir, KlotskiView, Slid, Slide};
use crate::tictactoe::{Mark, Marked, TicTacToeView};

mod sealed {
    pub trait Sealed {}
}

/// A game a bot can play: names its view, move and answer types. Implemented by
/// [`Battleships`], [`TicTacToe`] and [`Klotski`] only.
///
/// ```
/// use botlens_sdk::{Game, TicTacToe};
/// assert_eq!(TicTacToe::NAME, "tictactoe");
/// ```
pub trait Game: sealed::Sealed + 'static {
    /// The game's name in botlens (`battleships`, `tictactoe`, `klotski`).
    const NAME: &'static str;
    /// What the bot sees at the start of its turn.
    type View: Compact;
    /// The move.
    type Action: Compact;
    /// The game's answer to a legal move.
    type Response: Compact;
}

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

/// Two-player Tic-tac-toe: move with [`Turn::mark`].
///
/// ```no_run
/// # use botlens_sdk::{TicTacToe, Turn};
/// fn play(turn: &mut Turn<TicTacToe>) {
///     turn.mark(1, 1);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicTacToe;

/// The Klotski sliding-block puzzle: move with [`Turn::slide`].
///
/// ```no_run
/// # use botlens_sdk::{Klotski, Turn};
/// # use botlens_sdk::klotski::Dir;
/// fn play(turn: &mut Turn<Klotski>) {
///     turn.slide("cc", Dir::Down);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Klotski;

impl sealed::Sealed for Battleships {}
impl sealed::Sealed for TicTacToe {}
impl sealed::Sealed for Klotski {}

impl Game for Battleships {
    const NAME: &'static str = "battleships";
    type View = BattleshipsView;
    type Action = Attack;
    type Response = Shot;
}

impl Game for TicTacToe {
    const NAME: &'static str = "tictactoe";
    type View = TicTacToeView;
    type Action = Mark;
    type Response = Marked;
}

impl Game for Klotski {
    const NAME: &'static str = "klotski";
    type View = KlotskiView;
    type Action = Slide;
    type Response = Slid;
}

/// One turn of game `G`: what the bot sees, and room for exactly one move.
///
/// A turn is handed to [`Bot::play`](crate::Bot::play). Make one move with the game's method;
/// a second move, or none, loses the game.
///
/// ```no_run
/// # use botlens_sdk::{TicTacToe, Turn};
/// fn play(turn: &mut Turn<TicTacToe>) {
///     let centre_free = turn.view().at(1, 1).is_none();
///     if centre_free { turn.mark(1, 1) } else { turn.mark(0, 0) };
/// }
/// ```
pub struct Turn<G: Game> {
    view: G::View,
    game: PhantomData<G>,
}

impl<G: Game> Turn<G> {
    /// Fetches the view of the bot's first turn.
    pub(crate) fn begin() -> Self {
        let view = crate::abi::view(|bytes| {
            G::View::take(bytes).unwrap_or_else(|| unreadable::<G>("view", bytes))
        });
        Turn { view, game: PhantomData }
    }

    /// Fetches the view of the turn that is starting, over the last turn's (reusing its
    /// strings and vectors: no allocation per turn).
    pub(crate) fn next(&mut self) {
        crate::abi::view(|bytes| {
            if !self.view.take_over(bytes) {
                unreadable::<G>("view", bytes)
            }
        });
    }

    /// What the bot may see now (fetched once, when the turn starts).
    ///
    /// ```no_run
    /// # use botlens_sdk::{Battleships, Turn};
    /// fn play(turn: &mut Turn<Battleships>) {
    ///     let ships_left = turn.view().enemy_ships_left.len();
    ///     # let _ = ships_left;
    /// }
    /// ```
    pub fn view(&self) -> &G::View {
        &self.view
    }

    /// Makes the move as a protocol message and returns the game's answer. The per-game methods
    /// ([`attack`](Turn::attack), [`mark`](Turn::mark), [`slide`](Turn::slide)) are shorthands.
    ///
    /// Returns only if the move was legal: an illegal or second move ends the game on the spot.
    ///
    /// ```no_run
    /// # use botlens_sdk::{TicTacToe, Turn};
    /// use botlens_sdk::tictactoe::Mark;
    /// fn play(turn: &mut Turn<TicTacToe>) {
    ///     let after = turn.act(Mark { x: 2, y: 0 });
    ///     botlens_sdk::log!("board now {}", after.board);
    /// }
    /// ```
    pub fn act(&mut self, action: G::Action) -> G::Response {
        crate::abi::act(
            |out| action.put(out),
            |bytes| G::Response::take(bytes).unwrap_or_else(|| unreadable::<G>("answer", bytes)),
        )
    }
}

/// Stops the bot on a message from botlens that is not in the form botlens writes (a botlens
/// and SDK that disagree on the messages).
fn unreadable<G: Game>(what: &str, bytes: &[u8]) -> ! {
    const MAX: usize = 40;
    let start = &bytes[..bytes.len().min(MAX)];
    panic!(
        "this bot plays {} but botlens sent a {what} it cannot read ({} bytes: {start:?})",
        G::NAME,
        bytes.len()
    )
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

impl Turn<TicTacToe> {
    /// Puts your mark on column `x`, row `y` (both 0–2) and returns the board after it. An
    /// occupied or out-of-range square is an illegal move and loses the game.
    ///
    /// ```no_run
    /// # use botlens_sdk::{TicTacToe, Turn};
    /// fn play(turn: &mut Turn<TicTacToe>) {
    ///     let after = turn.mark(1, 1);
    ///     assert_eq!(after.board.len(), 9);
    /// }
    /// ```
    pub fn mark(&mut self, x: i32, y: i32) -> Marked {
        self.act(Mark { x, y })
    }
}

impl Turn<Klotski> {
    /// Slides the piece with code `piece` one cell towards `dir`; returns the move and step
    /// counts and whether the puzzle is solved. A blocked slide or an unknown piece is an
    /// illegal move and ends the game.
    ///
    /// ```no_run
    /// # use botlens_sdk::{Klotski, Turn};
    /// use botlens_sdk::klotski::Dir;
    /// fn play(turn: &mut Turn<Klotski>) {
    ///     let slid = turn.slide("cc", Dir::Down);
    ///     if slid.solved {
    ///         botlens_sdk::log!("solved in {} steps", slid.steps);
    ///     }
    /// }
    /// ```
    pub fn slide(&mut self, piece: &str, dir: Dir) -> Slid {
        self.act(Slide { piece: piece.to_owned(), dir })
    }
}

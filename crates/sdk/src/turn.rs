//! Turns: the view a bot sees and the one move it makes, typed per game.
//!
//! [`Turn`] is generic over a game marker ([`Battleships`](crate::Battleships),
//! [`TicTacToe`](crate::TicTacToe), [`Klotski`](crate::Klotski)); each game's module adds its
//! own move method (`attack`, `mark`, `slide`). Messages cross to the host in the compact binary
//! form of `botlens-protocol` (the module declares it; `docs/abi.md`).

use std::marker::PhantomData;

use botlens_protocol::compact::Compact;

/// Keeps [`Game`] to the markers of this crate's game modules.
pub(crate) mod sealed {
    /// Implemented by each game marker, beside its [`Game`](super::Game) impl.
    pub trait Sealed {}
}

/// A game a bot can play: names its view, move and answer types. Implemented only by the game
/// markers of this crate, one per game module ([`Battleships`](crate::Battleships),
/// [`TicTacToe`](crate::TicTacToe), [`Klotski`](crate::Klotski)).
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

//! The [`Game`] trait: rules, state and rendering of one game (as text, and as a
//! [`Picture`] for viewers that draw boards), with no knowledge of who plays it.

use std::fmt::{self, Debug, Display};

use botlens_protocol::{Encoding, Message};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::ReferencePlayer;
use crate::picture::{Picture, Spot, TextCell};

/// A player's place at the table: 0 or 1 in two-player games, always 0 in puzzles.
pub type Seat = usize;

/// Why an action was refused: the rule it broke, for humans (`x out of range 0..=9`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IllegalMove(pub String);

impl Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IllegalMove {}

/// How a finished game ended under the rules (a fault is recorded separately, see
/// [`MatchOutcome`](crate::MatchOutcome)).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// The seat that won; `None` is a draw in a two-player game and "not solved" in a puzzle.
    pub winner: Option<Seat>,
    /// Why it ended, e.g. `fleet sunk`, `three in a row`, `Cao Cao reached the exit`.
    pub reason: String,
}

/// Whether a game is still going.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Someone still has to move: [`Game::to_move`] says who.
    Ongoing,
    /// The game is over.
    Over(Ending),
}

/// A seat's result in a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatResult {
    /// Won (or, in a puzzle, solved).
    Win,
    /// Lost (or, in a puzzle, not solved).
    Loss,
    /// Drawn (two-player games only).
    Draw,
}

/// The rules of one game.
///
/// A value of the type is the complete game state. It is set up from a seed with [`Game::new`],
/// asks [`Game::to_move`] for whose turn it is, and changes only through [`Game::apply`]. Games
/// are pure data: no I/O, no clocks, no global randomness — everything random comes from the seed
/// through [`SeedRng`](crate::SeedRng), so the same seed always gives the same game.
///
/// The state serializes to JSON so a trace can store the initial state and replay every move.
pub trait Game:
    Clone + Debug + Default + Send + Sync + Serialize + DeserializeOwned + 'static
{
    /// The game's name in traces, on the command line and in `botlens.toml`: `battleships`,
    /// `tictactoe`, `klotski`.
    const NAME: &'static str;

    /// The default cap on turns; reaching it ends the game with [`Game::capped`].
    const DEFAULT_TURN_CAP: u32;

    /// Options that shape a game beyond its seed (e.g. the Klotski layout). `()` when none.
    type Config: Clone + Debug + Default + Send + Sync + Serialize + DeserializeOwned + 'static;

    /// One action a player makes in a turn (`attack(x, y)`, `mark(x, y)`, `slide(piece, dir)`).
    /// Like the response and the view, it crosses the wasm boundary as a [`Message`], in the
    /// encoding the bot declares.
    type Action: Clone
        + Debug
        + Display
        + PartialEq
        + Send
        + Sync
        + Serialize
        + DeserializeOwned
        + Message;

    /// What the game answers to a legal action (miss / hit / sunk, …).
    type Response: Clone + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned + Message;

    /// What the player to move may see (never the opponent's hidden information).
    type View: Clone + Debug + Send + Sync + Serialize + DeserializeOwned + Message;

    /// Sets up a game from its config and seed. Same inputs, same game.
    fn new(config: &Self::Config, seed: u64) -> Self;

    /// Number of seats: 2 for Battleships and Tic-tac-toe, 1 for Klotski.
    fn seats(&self) -> usize;

    /// The seat whose turn it is. Only meaningful while [`Game::status`] is ongoing.
    fn to_move(&self) -> Seat;

    /// What `seat` may see now.
    fn view(&self, seat: Seat) -> Self::View;

    /// Appends [`Game::view`] in `encoding` to `out`: what a wasm bot is handed on every turn.
    /// A game may write it straight from its state, sparing the view's allocations, as long as
    /// the bytes are the same.
    fn write_view(&self, seat: Seat, encoding: Encoding, out: &mut Vec<u8>) {
        encoding.write(&self.view(seat), out);
    }

    /// Applies `seat`'s action, or refuses it with the rule it breaks (the state is then
    /// unchanged). Also decides who moves next (a Battleships hit keeps the turn).
    fn apply(&mut self, seat: Seat, action: &Self::Action) -> Result<Self::Response, IllegalMove>;

    /// Ongoing, or how the game ended.
    fn status(&self) -> Status;

    /// How the game ends when the move cap (`--max-turns`: every seat's moves counted) is
    /// reached: by default a draw.
    fn capped(&self, cap: u32) -> Ending {
        Ending { winner: None, reason: format!("move cap of {cap} reached") }
    }

    /// Whether the legal move that just led to this state, answered `response`, was wasted
    /// (a Battleships re-attack, a Klotski slide straight back): reported as a warning, never
    /// a loss. Called on the state after the move, on every legal move, so it must be cheap.
    fn is_wasteful(&self, _response: &Self::Response) -> bool {
        false
    }

    /// The whole board as text (hidden information included), for the replayer and hovers.
    fn render(&self) -> String;

    /// What one player sees, as text, for human play.
    fn render_view(view: &Self::View) -> String;

    /// The whole board as a [`Picture`] (hidden information included, as in [`Game::render`]):
    /// grids of cells with a semantic state and labelled blocks, for viewers that draw boards
    /// (the replay's HTML page). `None`, the default, leaves them the text of `render`.
    fn picture(&self) -> Option<Picture> {
        None
    }

    /// The cells of [`Game::picture`] that `seat`'s `action` touches, seen from this position,
    /// before the action is applied and whether or not it is legal: the square attacked or
    /// marked, a piece's cells and those it slides into. A viewer highlights them for the last
    /// move and marks them for a failing one; cells outside the picture are ignored. By
    /// default none.
    fn action_cells(&self, _seat: Seat, _action: &Self::Action) -> Vec<Spot> {
        Vec::new()
    }

    /// The grid of [`Game::picture`] (its index in `Picture::grids`) that `seat` draws its marks
    /// on ([`crate::drawing`]): the board its own coordinates are about. By default the first,
    /// the one board of most games.
    fn drawing_grid(_seat: Seat) -> usize {
        0
    }

    /// Where cell `spot` of [`Game::picture`] shows in this position's [`Game::render`] text,
    /// so a viewer of the text (the terminal replay) can highlight the cells of
    /// [`Game::action_cells`]. `None`, the default, where the text has no place for it.
    fn text_cell(&self, _spot: Spot) -> Option<TextCell> {
        None
    }

    /// Parses an action typed by a person (e.g. `3 7` for Battleships); the error says briefly
    /// what was expected.
    fn parse_action(text: &str) -> Result<Self::Action, String>;

    /// The native opponents that ship with the game, by name (for a puzzle: the reference
    /// solvers a bot is compared with).
    fn reference_players() -> &'static [ReferencePlayer<Self>];

    /// The reference player whose move `botlens play` suggests when the person asks for a hint
    /// (the strongest, playing from what the view shows), if the game has one.
    const HINT_PLAYER: Option<&'static str> = None;
}

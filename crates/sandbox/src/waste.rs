//! Where a bot made its moves: for a player made [`WasmPlayer::locating_wasted`], `act`
//! captures the bot's call stack whenever the game calls a legal move wasted (a Battleships
//! re-attack, a Klotski slide straight back), so the report and the editor can put the warning
//! on the line that made the move; for one made [`WasmPlayer::locating_moves`], at every legal
//! move, so an oracle's judgement of each (`botlens analyze`) has its line. Other players never
//! capture anything: the hot path stays as it was.
//!
//! A language runner's stack is the interpreter's, not the script's: the runner states where
//! the bot made the move instead (`botlens.wasted`, then `botlens.stack`), in every game, and
//! the host keeps it only for a player that locates. A player that locates every move has
//! `botlens.wasted` answer 1 after every move, and gives back the fuel the runner spends
//! stating it, so the game is the same game.
//!
//! [`WasmPlayer::locating_wasted`]: crate::WasmPlayer::locating_wasted
//! [`WasmPlayer::locating_moves`]: crate::WasmPlayer::locating_moves

use std::sync::{Arc, Mutex, MutexGuard};

use botlens_engine::SourceLocation;
use botlens_engine::stack::CallStack;

/// The most wasted moves one game locates (each costs a stack capture and its symbols); later
/// ones are still counted by the game record, not located.
pub const MAX_LOCATED: usize = 64;

/// The most moves one game locates when every move is located: more than any game's default
/// move cap allows a bot.
pub const MAX_LOCATED_MOVES: usize = 4096;

/// A legal move, and where in the bot it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedMove {
    /// The 1-based turn, all seats counted.
    pub turn: u32,
    /// The move as the game writes it, e.g. `attack(3, 7)`.
    pub action: String,
    /// Whether the game called it wasted.
    pub wasted: bool,
    /// The bot's frames when it made the move, innermost first.
    pub stack: CallStack,
}

impl LocatedMove {
    /// The call site: the innermost frame of the bot's own code that has a line.
    pub fn location(&self) -> Option<&SourceLocation> {
        self.stack.frames.iter().find_map(|frame| frame.location.as_ref())
    }
}

/// The located moves of one player's game, shared by the player and its store's host.
#[derive(Debug, Clone, Default)]
pub(crate) struct MoveLog {
    moves: Arc<Mutex<Vec<LocatedMove>>>,
    /// Whether every legal move is located, not only the wasted ones.
    every: bool,
}

impl MoveLog {
    /// A log of every legal move.
    pub fn every_move() -> MoveLog {
        MoveLog { every: true, ..MoveLog::default() }
    }

    fn lock(&self) -> MutexGuard<'_, Vec<LocatedMove>> {
        // A push leaves the list consistent, so a poisoned lock is still usable.
        self.moves.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The moves located so far, in turn order.
    pub fn moves(&self) -> Vec<LocatedMove> {
        self.lock().clone()
    }

    /// Whether every legal move is located.
    pub fn is_every_move(&self) -> bool {
        self.every
    }

    /// Whether a move the game did (`wasted`) or did not call wasted is located, the game not
    /// having located its most already ([`MAX_LOCATED`], [`MAX_LOCATED_MOVES`]).
    pub fn wants(&self, wasted: bool) -> bool {
        let max = if self.every { MAX_LOCATED_MOVES } else { MAX_LOCATED };
        (self.every || wasted) && self.lock().len() < max
    }

    /// Keeps a located move.
    pub fn push(&self, located: LocatedMove) {
        self.lock().push(located);
    }
}

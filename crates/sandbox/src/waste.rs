//! Where a bot wasted its moves: for a player made [`WasmPlayer::locating_wasted`], `act`
//! captures the bot's call stack whenever the game calls a legal move wasted (a Battleships
//! re-attack, a Klotski slide straight back), so the report and the editor can put the warning
//! on the line that made the move. Other players never capture anything: the hot path stays as
//! it was.
//!
//! A language runner's stack is the interpreter's, not the script's: the runner states where
//! the bot made the move instead (`botlens.wasted`, then `botlens.stack`), in every game, and
//! the host keeps it only for a player that locates.
//!
//! [`WasmPlayer::locating_wasted`]: crate::WasmPlayer::locating_wasted

use std::sync::{Arc, Mutex, MutexGuard};

use botlens_engine::SourceLocation;
use botlens_engine::stack::CallStack;

/// The most wasted moves one game locates (each costs a stack capture and its symbols); later
/// ones are still counted by the game record, not located.
pub const MAX_LOCATED: usize = 64;

/// A legal move that achieved nothing, and where in the bot it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WastedMove {
    /// The 1-based turn, all seats counted.
    pub turn: u32,
    /// The move as the game writes it, e.g. `attack(3, 7)`.
    pub action: String,
    /// The bot's frames when it made the move, innermost first.
    pub stack: CallStack,
}

impl WastedMove {
    /// The call site: the innermost frame of the bot's own code that has a line.
    pub fn location(&self) -> Option<&SourceLocation> {
        self.stack.frames.iter().find_map(|frame| frame.location.as_ref())
    }
}

/// The wasted moves of one player's game, shared by the player and its store's host.
#[derive(Debug, Clone, Default)]
pub(crate) struct WasteLog(Arc<Mutex<Vec<WastedMove>>>);

impl WasteLog {
    fn lock(&self) -> MutexGuard<'_, Vec<WastedMove>> {
        // A push leaves the list consistent, so a poisoned lock is still usable.
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The moves located so far, in turn order.
    pub fn moves(&self) -> Vec<WastedMove> {
        self.lock().clone()
    }

    /// Whether the game has located [`MAX_LOCATED`] moves already.
    pub fn is_full(&self) -> bool {
        self.lock().len() >= MAX_LOCATED
    }

    /// Keeps a located move.
    pub fn push(&self, wasted: WastedMove) {
        self.lock().push(wasted);
    }
}

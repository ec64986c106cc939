//! The words every front end uses for when something happened in a game, so that `run`,
//! `replay` (terminal and HTML), `debug`, `profile` and the editor say the same thing:
//!
//! - a **move** is the game's move number, every seat's moves counted, from 1 (`move 23`: the
//!   23rd move of the game); the replayer's frames, `--from N` and a trace's `turn` field count
//!   moves;
//! - a **turn** is one seat's own: its N-th move, from 1 (`the bot's turn 12`); fuel and output
//!   limits are per turn, and `botlens debug --turn N` stops as the bot begins its turn N.
//!
//! JSON keeps the field names it has always had: a trace's `turn`, a report's `first_turn`
//! (and a wasted-move site's) and an editor diagnostic's `data.turn` are move numbers; a
//! report's `first_bot_turn` and a profile's `out_of_fuel[].turn` are the bot's turns.

/// When a seat's move happened: `move 23 (the bot's turn 12)`, or `move 23` when the two are
/// the same (a puzzle, which has one seat) or the seat's turn is not known (0).
///
/// ```
/// use botlens_engine::words::move_and_turn;
///
/// assert_eq!(move_and_turn(23, 12), "move 23 (the bot's turn 12)");
/// assert_eq!(move_and_turn(7, 7), "move 7");
/// assert_eq!(move_and_turn(7, 0), "move 7");
/// ```
pub fn move_and_turn(move_number: u32, own_turn: u32) -> String {
    if own_turn == 0 || own_turn == move_number {
        format!("move {move_number}")
    } else {
        format!("move {move_number} (the bot's turn {own_turn})")
    }
}

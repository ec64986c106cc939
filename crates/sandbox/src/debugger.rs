//! The place a native debugger stops at, and what it can ask of the game there: a function of
//! the host process that a bot module made with
//! [`BotModule::stopping_at`](crate::BotModule::stopping_at) calls as the chosen turn begins,
//! and the host's state a debugger reads and writes by name. `botlens debug` puts its
//! breakpoint on [`botlens_turn_begins`], then on the bot's own source lines, and defines
//! commands on the rest (`board`, `turn N`, `back`); see docs/debugging.md.
//!
//! The names are unmangled and lower-case because debuggers type them: `botlens_stop_turn`,
//! `botlens_replay_turn`, `botlens_board`, `botlens_show_board()`.

use std::ffi::{CStr, c_char};
use std::sync::Mutex;
use std::sync::atomic::{AtomicPtr, Ordering};

use botlens_engine::text::printable;

/// Called as the bot begins the turn a debugger is to stop at (`turn`, 1 for its first). Never
/// inlined, under its own unmangled name, and with an effect the optimiser keeps (an empty
/// `asm!` block that takes `turn`: no instruction, and no inlined function for a debugger to
/// show as the frame), so the call and the symbol are there in every build of the host.
#[unsafe(no_mangle)]
#[inline(never)]
pub(crate) extern "C" fn botlens_turn_begins(turn: u32) {
    // SAFETY: the block is empty: it only names a register that holds `turn`.
    unsafe { std::arch::asm!("/* botlens turn {0} */", in(reg) turn as usize, options(nostack)) };
}

/// The turn the game under the debugger stops at (the bot's, 1 for its first): `back` asks
/// for the one before it. Written by the host alone.
#[unsafe(no_mangle)]
#[allow(non_upper_case_globals, reason = "a debugger's user types this name")]
static mut botlens_stop_turn: u32 = 0;

/// A turn the debugger asks the game to be played again to (`turn N`: `set var
/// botlens_replay_turn = N`, then `continue`), 0 for none. The game stops as the next turn
/// begins, and is played again from its start, stopping at that turn.
#[unsafe(no_mangle)]
#[allow(non_upper_case_globals, reason = "a debugger's user types this name")]
static mut botlens_replay_turn: u32 = 0;

/// [`botlens_show_board`], for a debugger to call through (lldb finds no function of a Rust
/// unit by its unmangled name, but reads a variable): `((void (*)(void)) *(void **)
/// &botlens_show_board_at)()`.
#[unsafe(no_mangle)]
#[allow(non_upper_case_globals, reason = "a debugger's user types this name")]
static botlens_show_board_at: extern "C" fn() = botlens_show_board;

/// What [`botlens_show_board`] prints when the game has not stopped at a turn.
const NOT_STOPPED: &CStr = c"botlens: the game has not stopped at a turn\n";

/// The board as the bot sees it at the stop, and its view message, printable and ended by a
/// NUL: what [`botlens_show_board`] prints, and what [`botlens_board`] points at.
static BOARD: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// The text [`BOARD`] holds, as a C string, for a debugger that prints it from the stopped
/// process's memory (gdb's `board`: `printf "%s", *(char **) &botlens_board`) rather than by
/// calling [`botlens_show_board`]: gdb cannot restore the registers after a call on a CPU whose
/// register state it does not know in full (it fails with "Couldn't write extended state
/// status" on CPUs with AMX). Set before each stop, while the text it points at is not changed.
#[unsafe(no_mangle)]
#[allow(non_upper_case_globals, reason = "a debugger's user types this name")]
static botlens_board: AtomicPtr<c_char> = AtomicPtr::new(NOT_STOPPED.as_ptr().cast_mut());

/// Prints the board as the bot sees it at the stop, and the bot's view message, to stderr: a
/// debugger calls it (lldb's `board` command, through [`botlens_show_board_at`]).
/// Unbuffered, so it shows before the debugger's prompt.
#[unsafe(no_mangle)]
#[inline(never)]
pub(crate) extern "C" fn botlens_show_board() {
    match BOARD.try_lock() {
        Ok(board) => match board.split_last() {
            Some((_nul, text)) => eprint!("{}", String::from_utf8_lossy(text)),
            None => eprint!("{}", NOT_STOPPED.to_string_lossy()),
        },
        Err(_) => eprintln!("botlens: the board is being written; step on and ask again"),
    }
}

/// The stop at the bot's turn `turn`: the board (`board`, as [`botlens_engine::Game::render_view`]
/// draws it) and the view message (`message`) kept for [`botlens_show_board`], then the
/// debugger's breakpoint.
pub(crate) fn stop(turn: u32, board: &str, message: &[u8]) {
    let message = String::from_utf8_lossy(message);
    let shown = format!(
        "the bot's turn {turn}, as it sees the board:\n{}\nits view message: {}\n",
        printable_lines(board.trim_end()),
        printable(&message)
    );
    if let Ok(mut kept) = BOARD.lock() {
        *kept = shown.into_bytes();
        kept.push(0);
        botlens_board.store(kept.as_ptr().cast::<c_char>().cast_mut(), Ordering::Release);
    }
    // SAFETY: written by this thread alone, read by the debugger while the process is stopped.
    unsafe { (&raw mut botlens_stop_turn).write_volatile(turn) };
    botlens_turn_begins(turn);
    if std::hint::black_box(false) {
        // Never runs: keeps the variable, and the function, in the executable for a debugger.
        // SAFETY: a read of an initialised static.
        let show = unsafe { (&raw const botlens_show_board_at).read_volatile() };
        show();
    }
}

/// The turn the debugger asked the game to be played again to, if it did: the ask is taken,
/// and the stop forgotten (`botlens_stop_turn` is 0 until the next game stops), so a
/// breakpoint conditioned on it waits for that stop.
pub fn replay_asked() -> Option<u32> {
    // SAFETY: written by the debugger while the process is stopped, read and cleared here.
    let asked = unsafe { (&raw const botlens_replay_turn).read_volatile() };
    if asked == 0 {
        return None;
    }
    // SAFETY: as above; `botlens_stop_turn` is written by this thread alone.
    unsafe {
        (&raw mut botlens_replay_turn).write_volatile(0);
        (&raw mut botlens_stop_turn).write_volatile(0);
    }
    Some(asked)
}

/// Whether the debugger asked for a replay, without taking the ask.
pub(crate) fn replay_pending() -> bool {
    // SAFETY: written by the debugger while the process is stopped.
    unsafe { (&raw const botlens_replay_turn).read_volatile() != 0 }
}

/// `text`'s lines each printable ([`printable`]), the line breaks kept.
fn printable_lines(text: &str) -> String {
    text.lines().map(|line| printable(line).into_owned()).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_keeps_the_board_printable_and_a_replay_ask_is_taken_once() {
        stop(3, "X.O\n\u{1b}[2J..\n", b"{\"you\":\"X\"}\x07");
        let board = BOARD.lock().unwrap().clone();
        let shown = "the bot's turn 3, as it sees the board:\nX.O\n\\u{1b}[2J..\nits view message: {\"you\":\"X\"}\\u{7}\n";
        assert_eq!(board, [shown.as_bytes(), b"\0"].concat());
        // What a debugger reads at `botlens_board`: the same text, as a C string.
        // SAFETY: the pointer is to `BOARD`'s NUL-ended bytes, unchanged until the next stop.
        let c_string = unsafe { std::ffi::CStr::from_ptr(botlens_board.load(Ordering::Acquire)) };
        assert_eq!(c_string.to_str(), Ok(shown));
        // SAFETY: this test alone writes it.
        assert_eq!(unsafe { (&raw const botlens_stop_turn).read_volatile() }, 3);
        assert_eq!(replay_asked(), None);
        // SAFETY: as a debugger would, while nothing else reads it.
        unsafe { (&raw mut botlens_replay_turn).write_volatile(2) };
        assert!(replay_pending());
        assert_eq!(replay_asked(), Some(2));
        assert_eq!(replay_asked(), None);
        // SAFETY: this test alone writes it.
        assert_eq!(unsafe { (&raw const botlens_stop_turn).read_volatile() }, 0, "forgotten");
    }
}

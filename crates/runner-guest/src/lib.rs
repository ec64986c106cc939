//! What botlens's language runners (`crates/js-runner`, `crates/py-runner`) share as guests of
//! the sandbox (docs/abi.md): the botlens imports, the sections that make a module a runner, and
//! a runner's side of receiving messages, stating where the bot is, failing, and reading the
//! payload its bot's source comes in. Each runner keeps only what its engine needs.
//!
//! Not for: anything an engine knows (stacks, exceptions, the turn objects).

use std::cell::RefCell;

/// Declares the sections of a runner module: the ABI version (`botlens_abi`: 1) and
/// `botlens_runner`, naming its engine (its locations come from the engine, not from DWARF);
/// and its `_initialize`, which makes it a WASI reactor (docs/abi.md, Exports): without it
/// wasm-ld wraps every export in a call of the destructors afterwards.
///
/// ```ignore
/// botlens_runner_guest::sections!(b"quickjs");
/// ```
#[macro_export]
macro_rules! sections {
    ($engine:literal) => {
        /// The ABI version section: botlens ABI 1.
        #[used]
        #[unsafe(link_section = "botlens_abi")]
        static ABI: [u8; 1] = *b"1";

        /// This module is a language runner: its DWARF (if any) is the runner's, not the bot's.
        #[used]
        #[unsafe(link_section = "botlens_runner")]
        static RUNNER: [u8; $engine.len()] = *$engine;

        /// The WASI reactor's initializer: the static constructors, run once, before
        /// `botlens_prepare`.
        #[cfg(target_arch = "wasm32")]
        #[unsafe(export_name = "_initialize")]
        pub extern "C" fn __botlens_initialize() {
            unsafe extern "C" {
                fn __wasm_call_ctors();
            }
            // SAFETY: the linker's constructor list, called once, first, as a reactor's is.
            unsafe { __wasm_call_ctors() }
        }
    };
}

/// The imports of the botlens ABI the runners use, and the WASI calls they make themselves.
///
/// The Rust SDK (`crates/sdk/src/abi.rs`) declares the imports a Rust bot uses, with the same
/// signatures from docs/abi.md. Neither crate depends on the other: a Rust bot's SDK stays the
/// two crates a bot project copies, and the JavaScript runner builds no serde it does not use.
pub mod abi {
    #[link(wasm_import_module = "botlens")]
    unsafe extern "C" {
        pub fn view(out_ptr: *mut u8, out_cap: usize) -> i32;
        pub fn act(msg_ptr: *const u8, msg_len: usize, out_ptr: *mut u8, out_cap: usize) -> i32;
        pub fn reply(out_ptr: *mut u8, out_cap: usize) -> i32;
        pub fn log(ptr: *const u8, len: usize);
        pub fn panic(
            msg_ptr: *const u8,
            msg_len: usize,
            file_ptr: *const u8,
            file_len: usize,
            line: u32,
            column: u32,
        );
        pub fn source(out_ptr: *mut u8, out_cap: usize) -> i32;
        pub fn position(file_ptr: *const u8, file_len: usize, line: u32, column: u32);
        pub fn stack(text_ptr: *const u8, text_len: usize);
        pub fn wasted() -> i32;
        #[allow(clippy::too_many_arguments)] // the ABI's signature
        pub fn draw(
            kind: i32,
            x: i32,
            y: i32,
            to_x: i32,
            to_y: i32,
            colour: u32,
            ptr: *const u8,
            len: usize,
        );
    }

    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    unsafe extern "C" {
        pub fn random_get(buf: *mut u8, len: usize) -> i32;
        pub fn clock_time_get(id: u32, precision: u64, out: *mut u64) -> u16;
    }
}

/// What `act` returns to a runner when the move lost the game (docs/abi.md).
pub const LOST: i32 = -2;

/// How a runner tells botlens that the bot's source does not parse (the harness reports it
/// before any game, as a compiler would).
pub const SYNTAX_ERROR: &str = "syntax error: ";

/// The kinds of mark a runner draws itself, as `botlens.draw` numbers them (docs/abi.md); the
/// preludes' `draw` name the others.
pub mod kind {
    /// A heat map.
    pub const HEAT: i32 = 1;
    /// A label: its text is read.
    pub const LABEL: i32 = 3;
    /// The status line: its text is read.
    pub const STATUS: i32 = 4;
    /// A kind no host knows, which it drops and counts: a mark whose arguments are not what
    /// the ABI takes (a coordinate that is not a finite number, a label that is not text).
    pub const DROPPED: i32 = -1;
}

/// The most values a heat map may have (a 64 × 64 board, docs/abi.md); a longer one is dropped
/// by the host, unread.
pub const MAX_HEAT_VALUES: usize = 64 * 64;

/// A source position: file, line, column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// The file, as the bot's payload names it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

thread_local! {
    /// The buffer messages from the host are received into, reused.
    static MESSAGE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The bot's file name, for locations.
    static FILE: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Keeps `file` as the bot's file name (from its payload, when a game starts).
pub fn set_bot_file(file: &str) {
    FILE.with_borrow_mut(|kept| {
        kept.clear();
        kept.push_str(file);
    });
}

/// The bot's file name.
pub fn bot_file() -> String {
    FILE.with_borrow(Clone::clone)
}

/// `read` of the bot's file name, without copying it (nothing allocated); `None` while the name
/// is being set (a profile's sample may come in the middle of [`set_bot_file`]).
pub fn with_bot_file<R>(read: impl FnOnce(&str) -> R) -> Option<R> {
    FILE.with(|file| file.try_borrow().ok().map(|file| read(&file)))
}

/// `botlens.position`: the bot is at `at`.
pub fn state(at: &Position) {
    // SAFETY: the file name is a live string.
    unsafe { abi::position(at.file.as_ptr(), at.file.len(), at.line, at.column) };
}

/// Ends the game with `botlens.panic`: `message` at `at` (or the first line of the bot's file).
pub fn fail(message: &str, at: Option<Position>) -> ! {
    let at = at.unwrap_or_else(|| Position { file: bot_file(), line: 1, column: 1 });
    // SAFETY: the pointers and lengths are those of live strings.
    unsafe {
        abi::panic(
            message.as_ptr(),
            message.len(),
            at.file.as_ptr(),
            at.file.len(),
            at.line,
            at.column,
        );
    }
    unreachable!("botlens.panic returned")
}

/// Receives one of the turn's messages (the view, the answer to a move) and reads it with
/// `read`: `copy` writes it into the buffer it is given when it fits and returns its length
/// (negative: there is none); a longer one is copied again with `botlens.reply`, which repeats
/// the turn's last message, into a buffer of that length.
pub fn receive<R>(
    copy: impl FnOnce(*mut u8, usize) -> i32,
    read: impl FnOnce(&[u8]) -> R,
) -> Option<R> {
    // SAFETY: `receive_with` hands a buffer valid for `cap` bytes.
    receive_with(copy, |out, cap| unsafe { abi::reply(out, cap) }, read)
}

/// [`receive`] with `again` copying a message too long for the first buffer.
fn receive_with<R>(
    copy: impl FnOnce(*mut u8, usize) -> i32,
    again: impl FnOnce(*mut u8, usize) -> i32,
    read: impl FnOnce(&[u8]) -> R,
) -> Option<R> {
    MESSAGE.with_borrow_mut(|buffer| {
        buffer.clear();
        buffer.reserve(1024);
        let cap = buffer.capacity();
        let len = usize::try_from(copy(buffer.as_mut_ptr(), cap)).ok()?;
        if len > cap {
            buffer.reserve(len);
            if usize::try_from(again(buffer.as_mut_ptr(), len)).ok() != Some(len) {
                return None;
            }
        }
        // SAFETY: the host wrote the message's `len` bytes into the buffer, which holds them.
        unsafe { buffer.set_len(len) };
        Some(read(buffer))
    })
}

/// `botlens.source`, for [`receive_with`].
fn source(out: *mut u8, cap: usize) -> i32 {
    // SAFETY: `receive_with` hands a buffer valid for `cap` bytes.
    unsafe { abi::source(out, cap) }
}

/// The payload the host attached: game, file name, source; a game that has none, or one that
/// is not a `language` bot's payload, fails.
pub fn payload(language: &str) -> (String, String, String) {
    let Some(bytes) = receive_with(source, source, <[u8]>::to_vec) else {
        fail(
            &format!("no {language} source is attached to the runner (load it through botlens)"),
            None,
        )
    };
    let Ok(text) = String::from_utf8(bytes) else { fail("the bot's source is not UTF-8", None) };
    match split_payload(&text) {
        Some((game, file, source)) => (game.to_owned(), file.to_owned(), source.to_owned()),
        None => {
            fail("the attached payload is not `game`, `file name length`, file name, source", None)
        }
    }
}

/// The parts of a payload (docs/abi.md): the game's name and a newline, the file name's length
/// in bytes and a newline, the file name, the source. The name is counted, not ended by a
/// newline, so no file name can end early and have the rest of it read as the bot's code.
fn split_payload(text: &str) -> Option<(&str, &str, &str)> {
    let (game, rest) = text.split_once('\n')?;
    let (length, rest) = rest.split_once('\n')?;
    let length: usize = length.parse().ok()?;
    let file = rest.get(..length)?;
    Some((game, file, &rest[length..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_splits_at_the_counted_file_name_whatever_it_holds() {
        assert_eq!(
            split_payload("battleships\n6\nbot.js\nfunction Bot() {}"),
            Some(("battleships", "bot.js", "\nfunction Bot() {}"))
        );
        // A file name with a newline in it does not end early.
        assert_eq!(
            split_payload("tictactoe\n5\na\nb.pyx = 1"),
            Some(("tictactoe", "a\nb.p", "yx = 1"))
        );
        assert_eq!(split_payload("klotski\n99\nshort"), None, "a name longer than what is left");
        assert_eq!(split_payload("klotski\nnine\nbot.py"), None, "a length that is no number");
        assert_eq!(split_payload("no newline"), None);
    }
}

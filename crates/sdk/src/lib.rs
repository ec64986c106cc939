//! Write botlens game bots in Rust.
//!
//! A bot is a type implementing [`Bot`]: a constructor called once per game and a
//! [`play`](Bot::play) method called once per turn, which looks at the [`Turn`]'s view and makes
//! exactly one move (`attack`, `mark` or `slide`). The [`export!`] macro turns the type into a
//! WebAssembly module botlens can load. Everything else in this crate is a convenience around
//! that: typed views and answers for each game, [`log!`] and `println!` lines that show up in
//! the trace of the turn, marks [`draw`]n on the board, and a deterministic [`Rng`].
//!
//! # Example
//!
//! A whole Battleships bot: it fires at the first square it knows nothing about.
//!
//! ```no_run
//! use botlens_sdk::battleships::{Shot, Target};
//! use botlens_sdk::{Battleships, Bot, Start, Turn, export, log};
//!
//! struct Sweeper;
//!
//! impl Bot for Sweeper {
//!     type Game = Battleships;
//!
//!     fn new(_start: Start) -> Self {
//!         Sweeper
//!     }
//!
//!     fn play(&mut self, turn: &mut Turn<Battleships>) {
//!         let view = turn.view();
//!         let square = (0..100).find(|i| view.target(i % 10, i / 10) == Target::Unknown);
//!         let i = square.expect("an unknown square is left while the game is on") as i32;
//!         if let Shot::Sunk { ship } = turn.attack(i % 10, i / 10) {
//!             log!("sank the {}", ship.kind.name());
//!         }
//!     }
//! }
//!
//! export!(Sweeper);
//! ```
//!
//! Build it as a `cdylib` for `wasm32-wasip1`, with line tables so failures point at your
//! source lines:
//!
//! ```toml
//! [lib]
//! crate-type = ["cdylib"]
//!
//! [profile.release]
//! debug = "line-tables-only"
//! ```
//!
//! `cargo build --release --target wasm32-wasip1` (the `botlens` CLI does this for you) gives
//! `target/wasm32-wasip1/release/<name>.wasm`.
//!
//! # What counts as losing
//!
//! The game is lost at once, with the line of your code that did it, when `play` makes an illegal
//! move or a second move, returns without a move, panics, traps, runs out of fuel (the
//! deterministic instruction budget per turn and per game), or grows memory past the cap. Moves
//! never return an error: when a move returns, it was legal.
//!
//! # Inside botlens only
//!
//! The moves, [`log()`] and [`Rng::new`] talk to the botlens host through imports that exist only
//! in a WebAssembly module run by botlens. Built for any other target the crate still compiles
//! (so `cargo check`, `cargo clippy` and `cargo doc` work), but those calls panic with a message
//! saying so. [`Rng::from_seed`] and the protocol types work everywhere, for unit tests of your
//! bot's logic.
//!
//! The boundary itself (exports, imports, messages in their compact form) is specified in
//! `docs/abi.md` of the botlens repository, for bots written without this crate.

mod abi;
pub mod battleships;
pub mod draw;
pub mod klotski;
mod log;
mod rng;
mod runtime;
pub mod tictactoe;
mod turn;

pub use battleships::Battleships;
pub use klotski::Klotski;
pub use log::log;
pub use rng::Rng;
pub use tictactoe::TicTacToe;
pub use turn::{Game, Turn};

/// The version of the botlens ABI this SDK speaks; the host refuses modules of another version.
///
/// It is stored in the module's `botlens_abi` custom section by [`export!`].
///
/// ```
/// assert_eq!(botlens_sdk::ABI_VERSION, 1);
/// ```
pub const ABI_VERSION: u32 = 1;

/// What a bot learns when its game starts.
///
/// ```
/// # use botlens_sdk::Start;
/// fn describe(start: &Start) -> String {
///     format!("I sit in seat {}", start.seat())
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Start {
    seat: u32,
}

impl Start {
    /// The bot's seat: 0 or 1 in two-player games, always 0 in Klotski. Who moves first is
    /// decided by the seed, not by the seat; Tic-tac-toe views say which side you play.
    ///
    /// ```no_run
    /// # use botlens_sdk::Start;
    /// # fn f(start: Start) {
    /// let first_seat = start.seat() == 0;
    /// # }
    /// ```
    pub fn seat(&self) -> u32 {
        self.seat
    }

    /// A random generator seeded by botlens from the game seed: different per game, identical
    /// every time the same game is replayed. Same as [`Rng::new`].
    ///
    /// ```no_run
    /// # use botlens_sdk::{Rng, Start};
    /// # fn f(start: Start) {
    /// let mut rng: Rng = start.rng();
    /// let column = rng.below(10);
    /// # }
    /// ```
    pub fn rng(&self) -> Rng {
        Rng::new()
    }
}

/// A game-playing bot. Implement it, then name the type in [`export!`].
///
/// A fresh value is made with [`Bot::new`] at the start of every game (nothing survives from one
/// game to the next), and [`Bot::play`] is called once per turn of yours.
///
/// ```no_run
/// use botlens_sdk::{Bot, Start, TicTacToe, Turn, export};
///
/// /// Marks the first empty square, row by row.
/// struct FirstFree;
///
/// impl Bot for FirstFree {
///     type Game = TicTacToe;
///
///     fn new(_start: Start) -> Self {
///         FirstFree
///     }
///
///     fn play(&mut self, turn: &mut Turn<TicTacToe>) {
///         let free = (0..9).find(|&i| turn.view().at(i % 3, i / 3).is_none());
///         let i = free.expect("the game is not over, so a square is free") as i32;
///         turn.mark(i % 3, i / 3);
///     }
/// }
///
/// export!(FirstFree);
/// ```
pub trait Bot: Sized + 'static {
    /// The game this bot plays: [`Battleships`], [`TicTacToe`] or [`Klotski`].
    type Game: Game;

    /// Makes the bot for one game.
    fn new(start: Start) -> Self;

    /// Plays one turn: read [`Turn::view`], make exactly one move.
    fn play(&mut self, turn: &mut Turn<Self::Game>);
}

/// Makes a [`Bot`] type the entry point of the WebAssembly module.
///
/// Use it exactly once, at the top level of the bot crate. It defines the module's exports
/// (`botlens_new`, `botlens_play`), its `botlens_abi` version section and the `botlens_sdk`
/// section that tells botlens which stack frames are the SDK's rather than yours.
///
/// ```no_run
/// use botlens_sdk::{Bot, Klotski, Start, Turn, export};
/// use botlens_sdk::klotski::Dir;
///
/// struct Wiggle;
///
/// impl Bot for Wiggle {
///     type Game = Klotski;
///     fn new(_start: Start) -> Self {
///         Wiggle
///     }
///     fn play(&mut self, turn: &mut Turn<Klotski>) {
///         turn.slide("1", Dir::Up);
///     }
/// }
///
/// export!(Wiggle);
/// ```
#[macro_export]
macro_rules! export {
    ($bot:ty) => {
        #[cfg(target_arch = "wasm32")]
        #[unsafe(link_section = "botlens_abi")]
        #[used]
        static __BOTLENS_ABI_SECTION: $crate::__private::AbiSection =
            $crate::__private::ABI_SECTION;

        #[cfg(target_arch = "wasm32")]
        #[unsafe(link_section = "botlens_encoding")]
        #[used]
        static __BOTLENS_ENCODING_SECTION: $crate::__private::EncodingSection =
            $crate::__private::ENCODING_SECTION;

        #[cfg(target_arch = "wasm32")]
        #[unsafe(link_section = "botlens_sdk")]
        #[used]
        static __BOTLENS_SDK_SECTION: $crate::__private::SdkSection =
            $crate::__private::SDK_SECTION;

        /// botlens ABI: starts a game (called once per fresh instance): runs the static
        /// constructors, then makes the bot. Calling them here, as a WASI reactor's
        /// `_initialize` would, is what keeps the linker from taking the module for a command
        /// and wrapping every export in a call of the constructors before and the destructors
        /// (`atexit` handlers, the flush of C's stdio) after: every turn paid for those, and
        /// ran the destructors. A reactor's `_initialize` would be one more call into the
        /// module per game.
        #[unsafe(no_mangle)]
        pub extern "C" fn botlens_new(seat: i32) {
            #[cfg(target_arch = "wasm32")]
            {
                unsafe extern "C" {
                    fn __wasm_call_ctors();
                }
                // SAFETY: the linker's constructor list, called once, first, as a reactor's is.
                unsafe { __wasm_call_ctors() }
            }
            $crate::__private::start::<$bot>(seat);
        }

        /// botlens ABI: plays one turn.
        #[unsafe(no_mangle)]
        pub extern "C" fn botlens_play() {
            $crate::__private::play();
        }
    };
}

/// Support for [`export!`]; not part of the API.
#[doc(hidden)]
pub mod __private {
    use botlens_protocol::Encoding;

    pub use crate::log::log_fmt;
    pub use crate::runtime::{play, start};

    /// The bytes of the `botlens_abi` custom section: the ABI version in ASCII decimal.
    pub type AbiSection = [u8; 1];

    /// See [`AbiSection`].
    pub const ABI_SECTION: AbiSection = *b"1";

    const _: () = assert!(ABI_SECTION[0] == b'0' + super::ABI_VERSION as u8);

    /// The encoding of the SDK's messages.
    const ENCODING: Encoding = Encoding::Compact;

    /// The bytes of the `botlens_encoding` custom section: the name of `ENCODING`.
    pub type EncodingSection = [u8; ENCODING.name().len()];

    /// See [`EncodingSection`].
    pub const ENCODING_SECTION: EncodingSection = bytes_of(ENCODING.name());

    /// A source file of this SDK, by its absolute path as the debug information names it:
    /// botlens skips frames in its directory when it points at the line of the bot that failed.
    /// Not `file!()`, which is relative to the workspace when the SDK is a member of the bot's
    /// (its own copy, in the project's `botlens/`), while the debug information is absolute.
    const SDK_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs");

    /// The bytes of the `botlens_sdk` custom section: the path of this file.
    pub type SdkSection = [u8; SDK_FILE.len()];

    /// See [`SdkSection`].
    pub const SDK_SECTION: SdkSection = bytes_of(SDK_FILE);

    const fn bytes_of<const N: usize>(text: &str) -> [u8; N] {
        let bytes = text.as_bytes();
        let mut out = [0; N];
        let mut i = 0;
        while i < N {
            out[i] = bytes[i];
            i += 1;
        }
        out
    }
}

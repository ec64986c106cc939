//! The messages that cross the bot boundary: for each game, the action a bot makes, the response
//! the game gives and the view a bot sees at the start of its turn.
//!
//! These types are shared by the game crates (which use them as their `Action`, `Response` and
//! `View`), by the guest SDK (which hands them to bot authors) and by the sandbox (which moves
//! them across the wasm boundary as JSON). Keeping them in one crate is what keeps host and guest
//! in agreement. This crate depends on nothing but, behind its `serde` feature (the host's
//! crates turn it on; the SDK, and so every Rust bot, leaves it off), serde; it compiles for
//! `wasm32-wasip1` and holds no rules: legality, scoring and setup live in the game crates.
//!
//! All coordinates are 0-based, `x` the column and `y` the row, row-major in board strings.
//! The JSON shapes are documented on each type and in `docs/abi.md`; [`wire`] writes and reads
//! them by hand, fast, for the wasm boundary. [`compact`] is the binary form a bot may declare
//! instead (the Rust SDK does), and [`Encoding`] picks one of the two.

pub mod battleships;
pub mod compact;
pub mod drawing;
pub mod klotski;
pub mod tictactoe;
pub mod wire;

use compact::Compact;
use wire::Wire;

/// A message in both of its forms on the wire.
pub trait Message: Wire + Compact {}

impl<T: Wire + Compact> Message for T {}

/// How a bot's messages cross the boundary: the encoding its module declares (`docs/abi.md`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Canonical compact JSON ([`wire`]): the default.
    #[default]
    Json,
    /// The binary form of [`compact`].
    Compact,
}

impl Encoding {
    /// Appends `message` in this encoding.
    pub fn write<T: Message>(self, message: &T, out: &mut Vec<u8>) {
        match self {
            Encoding::Json => message.write(out),
            Encoding::Compact => message.put(out),
        }
    }

    /// Reads a whole message in this encoding (the canonical form, for JSON).
    pub fn read<T: Message>(self, bytes: &[u8]) -> Option<T> {
        match self {
            Encoding::Json => T::read(bytes),
            Encoding::Compact => T::take(bytes),
        }
    }

    /// Every encoding.
    pub const ALL: [Encoding; 2] = [Encoding::Json, Encoding::Compact];

    /// The name a module declares in its `botlens_encoding` section.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Json => "json",
            Encoding::Compact => "compact",
        }
    }

    /// The encoding a `botlens_encoding` section names, if any.
    ///
    /// ```
    /// use botlens_protocol::Encoding;
    ///
    /// assert_eq!(Encoding::from_name("compact"), Some(Encoding::Compact));
    /// assert_eq!(Encoding::from_name("cbor"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|encoding| encoding.name() == name)
    }
}

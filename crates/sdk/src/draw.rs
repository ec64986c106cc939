//! Drawing on the board: what the bot was thinking, shown over its board by the replayers and
//! the editor's hover: a cell in a colour, a whole heat map in one call (a Battleships bot's
//! density of where the ships may be), an arrow between cells, a short label on a cell and a
//! status line for the turn. Each mark remembers the line of your code that drew it.
//!
//! Drawing never changes a game: a call costs the same fuel whether botlens keeps the marks or
//! not (it keeps them only for a game whose trace it keeps), and marks past the turn's bounds
//! (256 marks, 16 KiB of text and values) are dropped and counted, never a failure. The line a
//! mark names is the line of your call, known when the bot is compiled (`#[track_caller]`).
//! Coordinates are the game's: `x` the column, `y` the row, from 0; in Battleships a bot draws
//! on the board it fires at.
//!
//! ```no_run
//! use botlens_sdk::draw::{self, Colour};
//!
//! let mut density = [0.0f32; 100];
//! density[45] = 7.0;
//! draw::heat(10, &density);
//! draw::cell(5, 4, Colour::RED);
//! draw::label(5, 4, "7", Colour::WHITE);
//! draw::arrow((5, 4), (5, 5), Colour::intensity(0.8));
//! draw::status("hunting: 7 placements through (5, 4)");
//! ```

use botlens_protocol::drawing as kind;

use crate::abi;

/// The colour of a mark: red, green and blue, or an intensity on the heat maps' palette.
///
/// ```
/// use botlens_sdk::draw::Colour;
/// assert_eq!(Colour::rgb(255, 136, 0), Colour::from_hex(0xff8800));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colour(u32);

impl Colour {
    /// Red.
    pub const RED: Colour = Colour::from_hex(0xe0_3c_31);
    /// Green.
    pub const GREEN: Colour = Colour::from_hex(0x2e_a0_43);
    /// Blue.
    pub const BLUE: Colour = Colour::from_hex(0x1f_6f_eb);
    /// Yellow.
    pub const YELLOW: Colour = Colour::from_hex(0xf2_c2_0f);
    /// White.
    pub const WHITE: Colour = Colour::from_hex(0xff_ff_ff);
    /// Black.
    pub const BLACK: Colour = Colour::from_hex(0x00_00_00);

    /// A colour from its red, green and blue parts.
    pub const fn rgb(red: u8, green: u8, blue: u8) -> Colour {
        Colour(((red as u32) << 16) | ((green as u32) << 8) | blue as u32)
    }

    /// A colour written `0xRRGGBB`.
    pub const fn from_hex(rgb: u32) -> Colour {
        Colour(rgb & 0x00ff_ffff)
    }

    /// An intensity from 0.0 (cold) to 1.0 (hot), shaded on the heat maps' palette; values
    /// outside are clamped.
    ///
    /// ```
    /// use botlens_sdk::draw::Colour;
    /// assert_eq!(Colour::intensity(2.0), Colour::intensity(1.0));
    /// ```
    pub fn intensity(level: f32) -> Colour {
        let level = if level.is_nan() { 0.0 } else { level.clamp(0.0, 1.0) };
        Colour(0x0100_0000 | (level * 255.0).round() as u32)
    }
}

/// Fills the cell at column `x`, row `y` with `colour`.
///
/// ```no_run
/// botlens_sdk::draw::cell(3, 7, botlens_sdk::draw::Colour::GREEN);
/// ```
#[track_caller]
pub fn cell(x: i32, y: i32, colour: Colour) {
    abi::draw(std::panic::Location::caller(), kind::CELL, (x, y), (0, 0), colour.0, &[]);
}

/// A heat map: one value per cell of a board `width` columns wide, row by row from the top left
/// (a Battleships board: `width` 10 and 100 values). The replayers shade each cell from the
/// lowest value to the highest, with a legend; a value that is not a finite number leaves its
/// cell unshaded.
///
/// ```no_run
/// let density = [1.0f32; 100];
/// botlens_sdk::draw::heat(10, &density);
/// ```
#[track_caller]
pub fn heat(width: u32, values: &[f32]) {
    // SAFETY of the view: any initialized memory may be read as bytes; wasm is little-endian,
    // the byte order `botlens.draw` reads the values in.
    let bytes =
        unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), size_of_val(values)) };
    abi::draw(std::panic::Location::caller(), kind::HEAT, (width as i32, 0), (0, 0), 0, bytes);
}

/// An arrow from cell `from` to cell `to` (each `(x, y)`).
///
/// ```no_run
/// use botlens_sdk::draw::{self, Colour};
/// draw::arrow((1, 1), (4, 1), Colour::YELLOW);
/// ```
#[track_caller]
pub fn arrow(from: (i32, i32), to: (i32, i32), colour: Colour) {
    abi::draw(std::panic::Location::caller(), kind::ARROW, from, to, colour.0, &[]);
}

/// A short text on the cell at column `x`, row `y` (32 bytes are kept; longer text is cut).
///
/// ```no_run
/// use botlens_sdk::draw::{self, Colour};
/// draw::label(2, 3, "12", Colour::WHITE);
/// ```
#[track_caller]
pub fn label(x: i32, y: i32, text: &str, colour: Colour) {
    abi::draw(
        std::panic::Location::caller(),
        kind::LABEL,
        (x, y),
        (0, 0),
        colour.0,
        text.as_bytes(),
    );
}

/// The turn's status line, shown under the board (200 bytes are kept; the last one drawn in a
/// turn is the one shown).
///
/// ```no_run
/// botlens_sdk::draw::status("targeting the cruiser");
/// ```
#[track_caller]
pub fn status(text: &str) {
    abi::draw(std::panic::Location::caller(), kind::STATUS, (0, 0), (0, 0), 0, text.as_bytes());
}

//! The kinds of mark `botlens.draw` takes, by the number its first argument gives (`docs/abi.md`):
//! one table for the host that reads them and the SDKs that draw them.

/// A cell filled with a colour.
pub const CELL: i32 = 0;
/// A heat map: one little-endian `f32` per cell, row by row.
pub const HEAT: i32 = 1;
/// An arrow from a cell to another.
pub const ARROW: i32 = 2;
/// A short text on a cell.
pub const LABEL: i32 = 3;
/// The turn's status line.
pub const STATUS: i32 = 4;

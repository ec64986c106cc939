//! The languages botlens builds bots in, one module each.

pub mod assemblyscript;
pub mod c;
pub mod js;
pub mod zig;

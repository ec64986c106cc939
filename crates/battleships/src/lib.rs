//! The battleships game (being written).

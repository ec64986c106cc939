//! The klotski game (being written).

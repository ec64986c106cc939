//! The tictactoe game (being written).

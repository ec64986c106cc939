//! Human-vs-reference play for the two-player games (being written).

use std::process::ExitCode;

/// Plays Tic-tac-toe against a reference opponent on stdin/stdout.
pub fn tictactoe(_vs: &str, _seed: u64) -> anyhow::Result<ExitCode> {
    anyhow::bail!("botlens play tictactoe is not written yet")
}

/// Plays Battleships against a reference opponent on stdin/stdout.
pub fn battleships(_vs: &str, _seed: u64) -> anyhow::Result<ExitCode> {
    anyhow::bail!("botlens play battleships is not written yet")
}

//! `botlens play`: a human at the keyboard, against a reference opponent or a Klotski board.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::{play_duel, play_klotski};

/// Arguments of `botlens play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game to play.
    game: GameName,
    /// Reference opponent (battleships: random, hunter, parity, density; tictactoe: random,
    /// perfect).
    #[arg(long, default_value = "random")]
    vs: String,
    /// Game seed: decides the fleets, who starts and the opponent's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Klotski board: a bundled layout name or a layout file.
    #[arg(long)]
    layout: Option<PathBuf>,
    /// Draw boards with ASCII only (no CJK piece names).
    #[arg(long)]
    ascii: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum GameName {
    Klotski,
    Tictactoe,
    Battleships,
}

/// Runs `botlens play`.
pub fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    match args.game {
        GameName::Klotski => play_klotski::run(args.layout.as_deref(), args.ascii),
        GameName::Tictactoe => play_duel::tictactoe(&args.vs, args.seed),
        GameName::Battleships => play_duel::battleships(&args.vs, args.seed),
    }
}

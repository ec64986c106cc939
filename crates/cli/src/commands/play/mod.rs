//! `botlens play <game>`: a person at the keyboard. Klotski keeps a session of its own
//! (`klotski`: undo, hints, layouts from files); every other game the registry has is the
//! engine's match runner with the person as a player (`botlens_engine::human`), against a
//! reference opponent, or alone in a game of one seat. Terminal glue only: stdin, stdout and
//! the exit code, 0 however the game ends (played out, `quit` or the end of input).

mod klotski;

use std::io::{self, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::anyhow;
use botlens_engine::{ReferencePlayer, human};
use botlens_games::{GameKind, GameVisitor, Scored};
use clap::Args;

use crate::shared::game_arg::GameArg;

/// Arguments of `botlens play`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  botlens play tictactoe --vs perfect        you against the perfect player
  botlens play battleships --vs hunter --seed 3   (type hint, undo)
  botlens play battleships --vs ?            list the opponents
  botlens play klotski                       横刀立马, with undo and hints (type help)
  botlens play klotski --layout zhihuiruoding --ascii
  botlens play klotski --layout my-board.txt (the format: docs/layouts.md)

Type `help` in a game for its commands: `hint` shows what the game's strongest reference player
would play (density, perfect), `undo` takes back your last move; `quit` or the end of input
leaves it.")]
pub struct PlayArgs {
    /// The game to play.
    #[arg(value_parser = GameArg)]
    game: GameKind,
    /// The reference opponent to play [default: the game's first]. A name the game does not
    /// have is refused with the list of those it has (`--vs ?` shows them).
    #[arg(long)]
    vs: Option<String>,
    /// Game seed: decides everything random in the game (who starts, the board, the opponent's
    /// choices).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Klotski board: a bundled layout name or a layout file.
    #[arg(long)]
    layout: Option<PathBuf>,
    /// Draw Klotski boards with ASCII only (no CJK piece names).
    #[arg(long)]
    ascii: bool,
}

/// Runs `botlens play`.
pub fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    if args.game == GameKind::Klotski {
        return klotski::run(args.layout.as_deref(), args.ascii);
    }
    args.game.visit(AtTheKeyboard { vs: args.vs, seed: args.seed })?;
    Ok(ExitCode::SUCCESS)
}

/// One game of the visited type between the person on stdin/stdout and what `--vs` names: a
/// reference opponent, or (in a game whose `--vs` names boards) the board to play alone.
struct AtTheKeyboard {
    vs: Option<String>,
    seed: u64,
}

impl GameVisitor for AtTheKeyboard {
    type Output = anyhow::Result<()>;

    fn visit<G: Scored>(self) -> anyhow::Result<()> {
        let vs = match self.vs {
            Some(vs) => vs,
            None => G::default_opponents()
                .into_iter()
                .next()
                .ok_or_else(|| anyhow!("{} has nothing to play by default", G::NAME))?,
        };
        let config = G::config_for(&vs, self.seed).map_err(anyhow::Error::msg)?;
        let opponent = if G::OPPONENTS_ARE_BOARDS {
            None
        } else {
            Some(ReferencePlayer::<G>::find(&vs).map_err(anyhow::Error::msg)?)
        };
        human::play::<G>(&config, self.seed, opponent, BufReader::new(io::stdin()), io::stdout())?;
        Ok(())
    }
}

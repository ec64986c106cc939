//! `botlens diff A B`: the first move at which two builds' games part, on one seed (both moves,
//! the board, each side's log lines, the endings) or over many (a histogram of divergence moves
//! and the results that changed). Glue over `botlens_experiments::diff`.

use std::process::ExitCode;

use anyhow::bail;
use botlens_experiments::compare::Side;
use botlens_experiments::diff::{self, DiffOptions, GameDiff, SeedsDiff};
use botlens_harness::{CancelToken, SeedRange, pipeline};
use clap::Args;

use crate::shared::games_args::PlayLimits;
use crate::shared::output::print_report;
use crate::shared::progress::show;

/// Arguments of `botlens diff`.
#[derive(Debug, Args)]
#[command(after_help = "A and B are each anything `botlens compare` takes (a project directory, a
.wasm module or a reference player, the last two with --game, or PROJECT@REV). Both play the
opponent on the same seed in the same seat; games are deterministic, so they are the same until
the bots choose differently. With --seed: that move, the board before it, what each side logged
there and how each game ended. With --seeds: how many games part at each move, and which
results changed (won → lost, …).

Examples:
  botlens diff my-bot my-bot@HEAD~1 --vs hunter --seed 4
  botlens diff my-bot my-bot@main --vs hunter --seeds 0..500
  botlens diff my-bot my-bot@main --vs hunter --seeds 0..500 --json
  botlens diff samples/tictactoe-minimax --game tictactoe perfect --vs random --seed 3
  botlens diff samples/tictactoe-minimax samples/tictactoe-forgetful --vs random --seat 1 --seed 2

Exit status: 0 with the diff (whether or not the games part), 2 on bad input or a failed build.")]
pub struct DiffArgs {
    /// The first bot (A): a project, a .wasm module, a reference player, or PROJECT@REV.
    a: String,
    /// The second bot (B), the same kinds.
    b: String,
    /// The game, for .wasm modules and reference players (projects name their own).
    #[arg(long)]
    game: Option<String>,
    /// The opponent both play (a reference player; Klotski: a board).
    #[arg(long, value_name = "OPPONENT")]
    vs: String,
    /// The one seed to look at closely.
    #[arg(long, conflicts_with = "seeds")]
    seed: Option<u64>,
    /// Many seeds: `A..B`, `A..=B` or `N`; a histogram of where the games part.
    #[arg(long)]
    seeds: Option<SeedRange>,
    /// The bots' seat: 0, or 1 (second mover's seat; two-player games).
    #[arg(long, default_value_t = 0)]
    seat: u8,
    #[command(flatten)]
    play: PlayLimits,
    /// Print one JSON object instead of text (fields documented in `botlens_experiments::diff`).
    #[arg(long)]
    json: bool,
}

/// Runs `botlens diff`.
pub fn run(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let a = Side::parse(&args.a, args.game.as_deref())?;
    let b = Side::parse(&args.b, args.game.as_deref())?;
    let seeds = match (args.seed, args.seeds) {
        (Some(seed), None) => SeedRange::new(seed, seed).expect("one seed"),
        (None, Some(seeds)) => seeds,
        _ => bail!("name the games to diff: --seed S (one game) or --seeds A..B (many)"),
    };
    let options = DiffOptions {
        opponent: args.vs.clone(),
        seeds,
        seat: usize::from(args.seat),
        max_turns: args.play.max_turns,
        jobs: args.play.jobs(),
        caps: args.play.caps.caps()?,
    };
    let sandbox = pipeline::sandbox()?;
    let cancel = CancelToken::new();
    if args.seed.is_some() {
        let diff = diff::diff_game(&sandbox, &a, &b, &options, &|event| show(event), &cancel)?;
        print_report(args.json, &diff, GameDiff::render)?;
    } else {
        let diff = diff::diff_seeds(&sandbox, &a, &b, &options, &|event| show(event), &cancel)?;
        print_report(args.json, &diff, SeedsDiff::render)?;
    }
    Ok(ExitCode::SUCCESS)
}

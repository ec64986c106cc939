//! `botlens analyze`: every move of a bot judged by its game's oracle, the game's losing move
//! and the bot's costliest lines, as a report or JSON.

use std::process::ExitCode;

use botlens_harness::analyze;
use botlens_harness::{CancelToken, Target};
use clap::Args;

use crate::shared::progress::StageProgress;
use crate::shared::suite_args::SuiteArgs;

/// Arguments of `botlens analyze`.
#[derive(Debug, Args)]
#[command(
    after_help = "Plays the suite as `botlens run` does (the bot in seat 0) with the bot's call
stack captured at each of its moves, and judges every move by the game's oracle against the
best move from the same position: Tic-tac-toe by perfect play (a move that throws away a win
or a draw is a blunder; the last one in a lost game is the move that lost it), Klotski by the
shortest solution in steps (a slide that leaves more steps to count than the best one is a
detour, costing the steps it adds), Battleships by the chance each square holds a ship given
what the bot's shots found (a long shot gives up the best square's chance: over a game, the
shots it wasted).

The report ranks the bot's source lines by what the moves they chose lost (the decision
profile), then shows each game's losing move with the board before it and the oracle's choice.
The games are the games `run` plays: the same seeds give the same moves.

The bot is a bot project directory (default: the bot the current directory is in, found
upward), a bot folder or file in any language botlens builds, a .wasm module with --game, or a
reference player (judged without lines).

Examples:
  botlens analyze samples/tictactoe-forkblind --vs perfect --seeds 0..50 --games 3
  botlens analyze samples/klotski-solver --vs hengdaolima
  botlens analyze samples/battleships-hunter --vs hunter --seeds 0..20
  botlens analyze bot.js --game tictactoe --vs random --json

The JSON fields are documented in `botlens_harness::analyze`."
)]
pub struct AnalyzeArgs {
    /// The bot: a project directory or a .wasm module [default: the bot the current directory
    /// is in, this one or one above it, as cargo finds its manifest].
    bot: Option<String>,
    /// The game, for a .wasm module (a project names its own).
    #[arg(long)]
    game: Option<String>,
    #[command(flatten)]
    suite: SuiteArgs,
    /// Games whose mistakes the report shows.
    #[arg(long, default_value_t = 5)]
    games: usize,
    /// Print one JSON object (documented in `botlens_harness::analyze`) instead of the report.
    #[arg(long)]
    json: bool,
}

/// Runs `botlens analyze`.
pub fn run(args: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let bot = crate::shared::bot_arg::named_or_enclosing(args.bot.clone())?;
    let target = Target::parse(&bot, args.game.as_deref())?;
    let options = args.suite.options()?;
    let sandbox = crate::shared::sandbox()?;
    let analysis = StageProgress::around(args.json, |progress| {
        analyze::analyze(&sandbox, &target, &options, progress, &CancelToken::new())
    })?;
    let base = std::env::current_dir().unwrap_or_default();
    crate::shared::output::print_report(args.json, &analysis, |analysis| {
        analysis.render(&base, args.games)
    })?;
    Ok(ExitCode::SUCCESS)
}

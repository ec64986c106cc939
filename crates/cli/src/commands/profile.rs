//! `botlens profile`: where a bot's fuel goes over its suite, by function and by line, as a
//! table, JSON, or a speedscope file.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use botlens_harness::profile::{self, DEFAULT_INTERVAL, ProfileOptions};
use botlens_harness::{CancelToken, Target};
use clap::Args;

use crate::shared::progress::StageProgress;
use crate::shared::suite_args::SuiteArgs;

/// Arguments of `botlens profile`.
#[derive(Debug, Args)]
#[command(
    after_help = "Plays the suite as `botlens run` does (the bot in seat 0) with the bot's call
stack sampled at its function entries and loop back-edges, and charges every unit of fuel it
burns to a stack: the same module, seeds and interval give the same profile on every run. The
table shows the functions and the bot's own lines by self fuel (burnt there) and total fuel
(there and in what it called), and the turns that ran out of fuel. Profiled games run several
times slower than `run`'s; games without profiling pay nothing.

The bot is a bot project directory (default: the bot the current directory is in, found
upward), a .wasm module with --game, or a C, Zig, AssemblyScript or Python bot (folder or
file): a Python bot's functions and lines are its script's, as the interpreter states them.
Reference players burn no fuel and JavaScript bots' frames are the interpreter's, so neither
is profiled.

Examples:
  botlens profile samples/battleships-hunter --vs hunter --seeds 0..20
  botlens profile samples/klotski-solver --top 5
  botlens profile my-bot --speedscope my-bot.speedscope.json   # open it in speedscope.app
  botlens profile bot.wasm --game tictactoe --vs perfect --json
  botlens profile bot.py --game battleships --seeds 0..10

The JSON fields are documented in `botlens_harness::profile`; docs/profiling.md has the method."
)]
pub struct ProfileArgs {
    /// The bot: a project directory or a .wasm module [default: the bot the current directory
    /// is in, this one or one above it, as cargo finds its manifest].
    bot: Option<String>,
    /// The game, for a .wasm module (a project names its own).
    #[arg(long)]
    game: Option<String>,
    #[command(flatten)]
    suite: SuiteArgs,
    /// Epoch checks (function entries and loop back-edges) between two samples of the stack,
    /// at least 1: smaller is finer and slower.
    #[arg(long, default_value_t = DEFAULT_INTERVAL, value_parser = clap::value_parser!(u64).range(1..))]
    interval: u64,
    /// Functions and lines shown in the table.
    #[arg(long, default_value_t = 15)]
    top: usize,
    /// Also write the profile as a speedscope file (<https://www.speedscope.app>; weights are fuel).
    #[arg(long, value_name = "FILE")]
    speedscope: Option<PathBuf>,
    /// Print one JSON object (documented in `botlens_harness::profile`) instead of the table.
    #[arg(long)]
    json: bool,
}

/// Runs `botlens profile`.
pub fn run(args: ProfileArgs) -> anyhow::Result<ExitCode> {
    let bot = crate::shared::bot_arg::named_or_enclosing(args.bot.clone())?;
    let target = Target::parse(&bot, args.game.as_deref())?;
    let options = ProfileOptions { run: args.suite.options()?, interval: args.interval };
    let sandbox = crate::shared::sandbox()?;
    let profile = StageProgress::around(args.json, |progress| {
        profile::profile(&sandbox, &target, &options, progress, &CancelToken::new())
    })?;
    if let Some(file) = &args.speedscope {
        let text = serde_json::to_string(&profile.speedscope())?;
        std::fs::write(file, text).with_context(|| format!("cannot write {}", file.display()))?;
    }
    let base = std::env::current_dir().unwrap_or_default();
    crate::shared::output::print_report(args.json, &profile, |profile| {
        profile.render(&base, args.top)
    })?;
    Ok(ExitCode::SUCCESS)
}

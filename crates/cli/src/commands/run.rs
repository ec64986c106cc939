//! `botlens run`: build a bot, play its suite, print the table and the grouped failures.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use botlens_engine::Limits;
use botlens_games::GameKind;
use botlens_harness::{
    CancelToken, Contender, KeepTraces, SeedRange, Suite, SuiteReport, run_suite, traces,
};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

/// Arguments of `botlens run`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  botlens run --game battleships density --vs random,hunter,parity
  botlens run --game tictactoe perfect --vs random --seeds 0..1000 --json

Exit status: 0 when no game was lost by a bot fault, 1 when one was, 2 on bad input.")]
pub struct RunArgs {
    /// The bot: a reference player's name (with --game).
    bot: String,
    /// The game, when the bot is a reference player.
    #[arg(long)]
    game: Option<String>,
    /// Opponents, comma-separated (default: every reference opponent of the game; for Klotski,
    /// board names).
    #[arg(long, value_delimiter = ',')]
    vs: Vec<String>,
    /// Seeds: `A..B` (A to B-1), `A..=B`, or one seed `N` [default: 0..100].
    #[arg(long)]
    seeds: Option<SeedRange>,
    /// Turn cap per game (default: the game's own).
    #[arg(long)]
    max_turns: Option<u32>,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Write the trace of every game into this directory.
    #[arg(long)]
    trace_dir: Option<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

/// Runs `botlens run`.
pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let Some(game_name) = &args.game else {
        bail!("say which game `{}` plays with --game battleships|tictactoe|klotski", args.bot)
    };
    let game = GameKind::from_name(game_name)
        .with_context(|| format!("unknown game `{game_name}` (known: battleships, tictactoe, klotski)"))?;
    let opponents = if args.vs.is_empty() { game.default_opponents() } else { args.vs.clone() };
    let suite = Suite {
        game,
        bot: Contender::Reference(args.bot.clone()),
        opponents: opponents.into_iter().map(Contender::Reference).collect(),
        seeds: args.seeds.unwrap_or_default(),
        limits: Limits { max_turns: args.max_turns },
        jobs: args.jobs,
        keep_traces: if args.trace_dir.is_some() { KeepTraces::All } else { KeepTraces::Failures },
    };
    let total = suite.opponents.len() as u64 * suite.seeds.len();
    let bar = progress_bar(total, args.json);
    let results = run_suite(&suite, &|done, _| bar.set_position(done as u64), &CancelToken::new())?;
    bar.finish_and_clear();

    if let Some(dir) = &args.trace_dir {
        for game in &results.games {
            if let Some(trace) = &game.trace {
                let name = traces::file_name(suite.opponents[game.opponent].name(), game.seed);
                traces::write_atomically(dir, &name, trace)
                    .with_context(|| format!("writing a trace into {}", dir.display()))?;
            }
        }
    }

    let report = SuiteReport::new(&suite, &results, &format!("--game {game} {}", args.bot));
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut stdout, &report)?;
        writeln!(stdout)?;
    } else {
        write!(stdout, "{}", report.render())?;
    }
    Ok(if report.has_faults() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// A progress bar on stderr when it is a terminal and the output is for people.
fn progress_bar(total: u64, json: bool) -> ProgressBar {
    if json || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{spinner} playing {pos}/{len} games {wide_bar} {eta}")
            .expect("the template is valid"),
    );
    bar
}

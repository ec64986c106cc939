//! `botlens replay TRACE`: step through a finished game — full screen in a terminal, as text
//! frames otherwise (or with `--plain`), one position with `--at N`, or a self-contained HTML
//! page with `--html OUT.html`. Glue over `botlens-replay`, which takes a trace from anywhere.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use botlens_replay::{Output, ShowOptions};
use clap::Args;

/// Arguments of `botlens replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The trace of a finished game (JSON, as `botlens run` saves them).
    trace: PathBuf,
    /// Print the game as text frames even in a terminal.
    #[arg(long, conflicts_with = "html")]
    plain: bool,
    /// Print only the position after move N (0 is the start); with --html, open the page there.
    #[arg(long, value_name = "N")]
    at: Option<usize>,
    /// Write a self-contained HTML page that animates the game, instead of showing it.
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    /// Where the bot's relative source paths start [default: the bot's project directory
    /// recorded in the trace, else the current directory].
    #[arg(long, value_name = "DIR")]
    source_root: Option<PathBuf>,
}

/// Runs `botlens replay`.
pub fn run(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    let trace = botlens_replay::load(&args.trace)?;
    let output = match (&args.html, args.plain) {
        (Some(path), _) => Output::Html(path.clone()),
        (None, true) => Output::Plain,
        (None, false) => Output::Auto,
    };
    botlens_replay::show(
        trace,
        &ShowOptions { output, at: args.at, source_root: args.source_root },
    )?;
    if let Some(path) = args.html {
        writeln!(std::io::stderr(), "botlens: wrote {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

//! `botlens watch`: rebuild and replay a bot project's suite on every save (the loop itself is
//! in `botlens-watch`; this is its command line).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use botlens_engine::text::printable;
use botlens_watch::{Watch, WatchOptions};
use clap::Args;

use crate::shared::progress::INSTALLING;
use crate::shared::suite_args::SuiteArgs;

/// Arguments of `botlens watch`.
#[derive(Debug, Args)]
#[command(
    after_help = "Runs the suite now and again whenever a source file, Cargo.toml or the bot's
configuration changes (target/ and editors' temporary files are ignored). A change during a run
cancels it and starts a fresh one. Each run opens with `── run N (what changed) ──` and ends with
the table and what changed since the previous run; a failed build prints its first errors and
watching goes on. Ctrl-C stops.

Examples:
  botlens watch samples/tictactoe-panicky
  botlens watch --vs perfect --seeds 0..20"
)]
pub struct WatchArgs {
    /// The bot: a project or bot folder, or a lone source file (its game in a botlens.toml beside
    /// it) [default: the bot the current directory is in, this one or one above it, as cargo
    /// finds its manifest].
    project: Option<PathBuf>,
    #[command(flatten)]
    suite: SuiteArgs,
    /// Milliseconds the files must be quiet before a change counts.
    #[arg(long, default_value_t = 200, value_name = "MS")]
    debounce: u64,
}

/// Runs `botlens watch` until Ctrl-C.
pub fn run(args: WatchArgs) -> anyhow::Result<ExitCode> {
    let project = args.project.map_or_else(crate::shared::bot_arg::enclosing, Ok)?;
    let options =
        WatchOptions { run: args.suite.options()?, debounce: Duration::from_millis(args.debounce) };
    botlens_harness::pipeline::ensure_wasm_target(&mut || eprintln!("{INSTALLING}"))?;
    // The watch plays in the process's sandbox: made (and any note about it said) here first.
    crate::shared::sandbox()?;
    let watch = Watch::new(&project, options)?;
    watch.stop_on_ctrl_c()?;
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "watching {} (Ctrl-C to stop)",
        printable(&watch.root().display().to_string())
    )?;
    watch.run(&mut stdout)?;
    Ok(ExitCode::SUCCESS)
}

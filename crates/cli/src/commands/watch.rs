//! `botlens watch`: rebuild and replay a bot project's suite on every save (the loop itself is
//! in `botlens-watch`; this is its command line).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use botlens_engine::text::printable;
use std::sync::Arc;

use anyhow::Context;
use botlens_live::LiveView;
use botlens_watch::{RunEvent, RunObserver, Watch, WatchOptions};
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

With --serve, it also serves the live view: a page on 127.0.0.1 (its address, with an
unguessable token in it, is printed first) showing the latest run's table, its failures and each
failure's replay (marks the bot drew included), updating by itself after each save. Nothing in it
is fetched from the network.

Examples:
  botlens watch samples/tictactoe-panicky
  botlens watch --vs perfect --seeds 0..20
  botlens watch samples/battleships-heatmap --serve
  botlens watch --serve --port 8787"
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
    /// Also serve the live view: the latest run, its failures and their replays, in a browser.
    #[arg(long)]
    serve: bool,
    /// The port of the live view on 127.0.0.1 [default: any free port].
    #[arg(long, requires = "serve", value_name = "PORT")]
    port: Option<u16>,
}

/// Runs `botlens watch` until Ctrl-C.
pub fn run(args: WatchArgs) -> anyhow::Result<ExitCode> {
    let project = args.project.map_or_else(crate::shared::bot_arg::enclosing, Ok)?;
    let mut options = WatchOptions {
        run: args.suite.options()?,
        debounce: Duration::from_millis(args.debounce),
        observer: None,
    };
    botlens_harness::pipeline::ensure_wasm_target(&mut || eprintln!("{INSTALLING}"))?;
    // The watch plays in the process's sandbox: made (and any note about it said) here first.
    crate::shared::sandbox()?;
    let live = if args.serve {
        let name = project.file_name().map(|n| n.to_string_lossy().into_owned());
        let live = LiveView::start(&name.unwrap_or_default(), args.port.unwrap_or(0))
            .context("cannot serve the live view")?;
        let live = Arc::new(live);
        options.observer = Some(live_observer(Arc::clone(&live)));
        Some(live)
    } else {
        None
    };
    let watch = Watch::new(&project, options)?;
    watch.stop_on_ctrl_c()?;
    let mut stdout = std::io::stdout().lock();
    if let Some(live) = &live {
        writeln!(stdout, "live view: {}", live.url())?;
    }
    writeln!(
        stdout,
        "watching {} (Ctrl-C to stop)",
        printable(&watch.root().display().to_string())
    )?;
    watch.run(&mut stdout)?;
    Ok(ExitCode::SUCCESS)
}

/// Tells the live view of each run of the watch.
fn live_observer(live: Arc<LiveView>) -> RunObserver {
    RunObserver(Arc::new(move |event| match event {
        RunEvent::Started { number, reason } => live.running(number, reason),
        RunEvent::Played { number, reason, run, root } => live.finished(number, reason, run, root),
        RunEvent::Failed { number, reason, message } => live.failed(number, reason, message),
    }))
}

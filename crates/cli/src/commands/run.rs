//! `botlens run`: build a bot, play its suite, print the table and the grouped failures.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use botlens_harness::baseline::{self, Comparison, FailedGames};
use botlens_harness::pipeline::{self, RunOptions, Stage};
use botlens_harness::tally::SEEDS_LISTED;
use botlens_harness::{CancelToken, Target};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::suite_args::SuiteArgs;

/// Arguments of `botlens run`.
#[derive(Debug, Args)]
#[command(after_help = "The bot is one of:
  a bot project directory (default: the current one) — built with cargo for wasm32-wasip1;
  a .wasm module, with --game;
  a reference player's name, with --game (e.g. `--game battleships density`).

Examples:
  botlens run samples/battleships-hunter
  botlens run samples/battleships-hunter --vs density --seeds 0..1000 --json
  botlens run bot.wasm --game tictactoe --vs perfect,other.wasm
  botlens run --game klotski optimal --vs hengdaolima,generated --seeds 0..10
  botlens run samples/battleships-hunter --vs hunter --paired   # each seed in both seats
  botlens run samples/battleships-offbyone --failed     # only the games the last run lost by a fault

Every run of a bot project is kept as its last run (<project>/target/botlens/last-run.json):
`botlens replay PROJECT` opens its worst failure, `--failed` plays its failed games again.

Baselines (bot projects only) are kept in <project>/target/botlens/baselines/:
  botlens run --save-baseline main       save this run's report as `main`
  botlens run --baseline main            print what changed since `main` after the table,
                                         and the Elo verdict on the seeds both runs played
                                         (from 100 games on; fewer are too few to tell)

Exit status: 0 when no game was lost by a bot fault, 1 when one was, 2 on bad input or a
failed build.")]
pub struct RunArgs {
    /// The bot: a project directory, a .wasm module or a reference player's name.
    #[arg(default_value = ".")]
    bot: String,
    /// The game, for a .wasm module or a reference player (a project names its own).
    #[arg(long)]
    game: Option<String>,
    #[command(flatten)]
    suite: SuiteArgs,
    /// Write the trace of every game into this directory as the game ends (atomically, one file
    /// per game, `<opponent>-seed<N>.json`).
    #[arg(long)]
    trace_dir: Option<PathBuf>,
    /// Play each seed twice, the bot in seat 0 and then in seat 1 (the same fleets or board,
    /// the first mover and each side's luck swapped), and score the pairs: a pentanomial per
    /// opponent with the bot's Elo and LOS over it. Not for Klotski (one player).
    #[arg(long)]
    paired: bool,
    /// Print one JSON object (documented in `botlens_harness::report`) instead of the table;
    /// with --baseline it has a `comparison` field (documented in `botlens_harness::baseline`).
    #[arg(long)]
    json: bool,
    /// Save this run's report as the project's baseline NAME (replacing one of that name).
    #[arg(long, value_name = "NAME")]
    save_baseline: Option<String>,
    /// Compare this run with the project's saved baseline NAME: new and fixed failures, score
    /// changes per opponent, and the Elo verdict on the seeds both runs played.
    #[arg(long, value_name = "NAME")]
    baseline: Option<String>,
    /// Play again only the games the project's last run lost by a bot fault: the same
    /// opponents and seeds, each failed (opponent, seed) once (in both seats if it was paired).
    #[arg(long, conflicts_with_all = ["vs", "seeds"])]
    failed: bool,
}

/// Runs `botlens run`.
pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let target = Target::parse(&args.bot, args.game.as_deref())?;
    let project_root = target.project_dir();
    if project_root.is_none() && (args.baseline.is_some() || args.save_baseline.is_some()) {
        bail!(
            "baselines belong to a bot project: `{}` is not a project directory, so --baseline and --save-baseline cannot be used",
            args.bot
        );
    }
    // Loaded first, so a wrong name fails before a long build.
    let baseline = match (project_root, &args.baseline) {
        (Some(root), Some(name)) => Some((name, baseline::load(root, name)?)),
        _ => None,
    };
    let mut options = RunOptions {
        trace_dir: args.trace_dir.clone(),
        paired: args.paired,
        ..args.suite.options()?
    };
    if args.failed {
        let Some(failed) = failed_games(project_root, &args.bot)? else {
            eprintln!(
                "botlens: the last run of {} lost no game by a bot fault: nothing to play again",
                args.bot
            );
            return Ok(ExitCode::SUCCESS);
        };
        options = RunOptions {
            opponents: Some(failed.games.opponents),
            seeds: Some(failed.games.seeds),
            only: Some(failed.games.units),
            paired: options.paired || failed.paired,
            ..options
        };
    }
    let sandbox = super::sandbox()?;
    let run = StageProgress::around(args.json, |progress| {
        pipeline::run(&sandbox, &target, &options, progress, &CancelToken::new())
    })?;

    let report = &run.report;
    let comparison =
        baseline.as_ref().map(|(name, before)| (name, Comparison::between(before, report)));
    let mut stdout = std::io::stdout().lock();
    if args.json {
        let mut json = serde_json::to_value(report)?;
        if let (Some((_, comparison)), Some(object)) = (&comparison, json.as_object_mut()) {
            object.insert("comparison".into(), serde_json::to_value(comparison)?);
        }
        serde_json::to_writer(&mut stdout, &json)?;
        writeln!(stdout)?;
    } else {
        let base = std::env::current_dir().unwrap_or_default();
        write!(stdout, "{}", report.render(&base))?;
        if let Some((name, comparison)) = &comparison {
            write!(stdout, "\n{}", comparison.render(&format!("baseline `{name}`"), &base))?;
        }
    }
    if let Some(root) = project_root
        && let Err(error) = baseline::save_last_run(root, report)
    {
        eprintln!("botlens: warning: this run is not kept as the last run: {error}");
    }
    if let (Some(root), Some(name)) = (project_root, &args.save_baseline) {
        let file = baseline::save(root, name, report)?;
        eprintln!("botlens: saved baseline `{name}` in {}", file.display());
    }
    Ok(if report.has_faults() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The games the project's last run lost by a bot fault, and whether it was paired.
struct LastFailures {
    games: FailedGames,
    paired: bool,
}

/// What `--failed` plays: the last run's failed games (`None`: it failed none), said on stderr.
fn failed_games(project_root: Option<&Path>, bot: &str) -> anyhow::Result<Option<LastFailures>> {
    let Some(root) = project_root else {
        bail!("--failed plays a bot project's last run again: `{bot}` is not a project directory");
    };
    let Some(last) = baseline::load_last_run(root)? else {
        bail!("no run of {bot} is on record yet: `botlens run {bot}` first, then --failed");
    };
    let Some(games) = baseline::failed_games(&last).map_err(anyhow::Error::msg)? else {
        return Ok(None);
    };
    let units = games.units.len();
    let unlisted = if games.truncated {
        format!(
            " (the report lists at most {SEEDS_LISTED} seeds per failure and opponent: the others are not played)"
        )
    } else {
        String::new()
    };
    eprintln!(
        "botlens: playing again the {units} (opponent, seed) game{s} the last run lost by a bot fault{unlisted}",
        s = if units == 1 { "" } else { "s" }
    );
    let paired = last.opponents.iter().any(|row| row.pairs.is_some());
    Ok(Some(LastFailures { games, paired }))
}

/// What a user is told before rustup installs the wasm target.
pub const INSTALLING: &str =
    "botlens: installing the wasm32-wasip1 target with `rustup target add wasm32-wasip1` (once)…";

/// Progress on stderr when it is a terminal and the output is for people.
pub(super) struct StageProgress {
    bar: ProgressBar,
}

impl StageProgress {
    fn new(json: bool) -> Self {
        if json || !std::io::stderr().is_terminal() {
            return StageProgress { bar: ProgressBar::hidden() };
        }
        let bar = ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(100));
        StageProgress { bar }
    }

    fn show(&self, stage: Stage) {
        match stage {
            Stage::InstallingTarget => self.bar.suspend(|| eprintln!("{INSTALLING}")),
            Stage::Building { tool } => {
                self.bar.set_message(format!("building the bot with {tool}…"))
            }
            Stage::SettingUp { what } => self.bar.set_message(format!("{what}…")),
            Stage::Loading => self.bar.set_message("loading the module…"),
            Stage::Playing { done, total } => {
                if self.bar.length() != Some(total as u64) {
                    self.bar.set_length(total as u64);
                    self.bar.set_style(
                        ProgressStyle::with_template(
                            "{spinner} playing {pos}/{len} games {wide_bar} {eta}",
                        )
                        .expect("the template is valid"),
                    );
                }
                self.bar.set_position(done as u64);
            }
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Runs `work` with a progress display on stderr (none for `--json`), cleared when it ends.
    pub(super) fn around<T>(json: bool, work: impl FnOnce(&(dyn Fn(Stage) + Sync)) -> T) -> T {
        let progress = StageProgress::new(json);
        let done = work(&|stage| progress.show(stage));
        progress.finish();
        done
    }
}

//! `botlens run`: build a bot, play its suite, print the table and the grouped failures.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use botlens_games::GameKind;
use botlens_harness::baseline::{self, Comparison};
use botlens_harness::pipeline::{self, RunOptions, Stage};
use botlens_harness::suite::SuiteResults;
use botlens_harness::{BotProject, CancelToken, KeepTraces, Suite, SuiteReport, run_suite, traces};
use clap::Args;

use super::suite_args::SuiteArgs;
use indicatif::{ProgressBar, ProgressStyle};

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

Baselines (bot projects only) are kept in <project>/target/botlens/baselines/:
  botlens run --save-baseline main       save this run's report as `main`
  botlens run --baseline main            print what changed since `main` after the table

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
    /// Write the trace of every game into this directory (atomically, one file per game).
    #[arg(long)]
    trace_dir: Option<PathBuf>,
    /// Print one JSON object (documented in `botlens_harness::report`) instead of the table;
    /// with --baseline it has a `comparison` field (documented in `botlens_harness::baseline`).
    #[arg(long)]
    json: bool,
    /// Save this run's report as the project's baseline NAME (replacing one of that name).
    #[arg(long, value_name = "NAME")]
    save_baseline: Option<String>,
    /// Compare this run with the project's saved baseline NAME: new and fixed failures, score
    /// changes per opponent.
    #[arg(long, value_name = "NAME")]
    baseline: Option<String>,
}

/// Runs `botlens run`.
pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let path = Path::new(&args.bot);
    let project_root = path.is_dir().then_some(path);
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
    let (suite, results, replay_target) =
        if path.is_dir() { run_project_dir(path, &args)? } else { run_single(&args)? };

    if let Some(dir) = &args.trace_dir {
        for game in &results.games {
            if let Some(trace) = &game.trace {
                let name = traces::file_name(suite.opponents[game.opponent].name(), game.seed);
                traces::write_atomically(dir, &name, trace)
                    .with_context(|| format!("writing a trace into {}", dir.display()))?;
            }
        }
    }

    let report = SuiteReport::new(&suite, &results, &replay_target);
    let comparison =
        baseline.as_ref().map(|(name, before)| (name, Comparison::between(before, &report)));
    let mut stdout = std::io::stdout().lock();
    if args.json {
        let mut json = serde_json::to_value(&report)?;
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
    if let (Some(root), Some(name)) = (project_root, &args.save_baseline) {
        let file = baseline::save(root, name, &report)?;
        eprintln!("botlens: saved baseline `{name}` in {}", file.display());
    }
    Ok(if report.has_faults() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn options(args: &RunArgs) -> RunOptions {
    args.suite.options(if args.trace_dir.is_some() {
        KeepTraces::All
    } else {
        KeepTraces::Failures
    })
}

/// A bot project: build, load, play.
fn run_project_dir(dir: &Path, args: &RunArgs) -> anyhow::Result<(Suite, SuiteResults, String)> {
    let project = BotProject::load(dir)?;
    if let Some(game) = &args.game
        && game != project.game.name()
    {
        bail!("{} plays {}, not {game}", dir.display(), project.game);
    }
    botlens_harness::build::ensure_wasm_target(&mut |line| eprintln!("botlens: {line}"))?;
    let sandbox = pipeline::sandbox_for(&project.root)?;
    let progress = StageProgress::new(args.json);
    let run = pipeline::run_project(
        &sandbox,
        &project,
        &options(args),
        &|stage| progress.show(stage),
        &CancelToken::new(),
    );
    progress.finish();
    let run = run?;
    Ok((run.suite, run.results, dir.display().to_string()))
}

/// A `.wasm` module or a reference player, with `--game`.
fn run_single(args: &RunArgs) -> anyhow::Result<(Suite, SuiteResults, String)> {
    let game = game_for_single(&args.bot, args.game.as_deref())?;
    let cwd = std::env::current_dir()?;
    let sandbox = pipeline::sandbox_for(&cwd)?;
    let suite = pipeline::single_suite(&sandbox, game, &args.bot, &options(args), &cwd)?;
    let progress = StageProgress::new(args.json);
    let results = run_suite(
        &suite,
        &|done, total| progress.show(Stage::Playing { done, total }),
        &CancelToken::new(),
    );
    progress.finish();
    Ok((suite, results?, format!("{} --game {game}", args.bot)))
}

/// The game of a bot given as a module or reference name: `--game` is required.
pub fn game_for_single(bot: &str, game: Option<&str>) -> anyhow::Result<GameKind> {
    let Some(game_name) = game else {
        if pipeline::is_module_path(bot) {
            bail!("say which game {bot} plays with --game battleships|tictactoe|klotski");
        }
        bail!(
            "`{bot}` is not a bot project directory; give a project, a .wasm module with --game, or a reference player with --game"
        );
    };
    GameKind::from_name(game_name).with_context(|| {
        format!("unknown game `{game_name}` (known: battleships, tictactoe, klotski)")
    })
}

/// Progress on stderr when it is a terminal and the output is for people.
struct StageProgress {
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
            Stage::Building => self.bar.set_message("building the bot with cargo…"),
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
}

//! `botlens run`: build a bot, play its suite, print the table and the grouped failures (or
//! the report as JSON, SARIF or JUnit XML, and GitHub workflow annotations in GitHub Actions).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use botlens_ci::Sources;
use botlens_harness::analyze;
use botlens_harness::baseline::{self, Comparison, FailedGames};
use botlens_harness::pipeline::{self, RunOptions};
use botlens_harness::shard::RunPart;
use botlens_harness::tally::SEEDS_LISTED;
use botlens_harness::{CancelToken, Target};
use clap::{Args, ValueEnum};

use crate::shared::progress::StageProgress;
use crate::shared::shards;
use crate::shared::suite_args::SuiteArgs;

/// Arguments of `botlens run`.
#[derive(Debug, Args)]
#[command(after_help = "The bot is one of:
  a bot project directory — built with cargo for wasm32-wasip1;
  a bot folder or a lone source file in another language (docs/javascript.md, c.md, zig.md,
  assemblyscript.md);
  a .wasm module, with --game;
  a reference player's name, with --game (e.g. `--game battleships density`).
With no bot named, the bot the current directory is in: the nearest directory, this one or one
above it, with a botlens.toml or a Cargo.toml with [package.metadata.botlens] (as cargo finds
its manifest), so `botlens run` works from a project's src/.

Examples:
  botlens run samples/battleships-hunter
  botlens run samples/battleships-hunter --vs density --seeds 0..1000 --json
  botlens run bot.wasm --game tictactoe --vs perfect,other.wasm
  botlens run --game klotski optimal --vs hengdaolima,generated --seeds 0..10
  botlens run samples/battleships-hunter --vs hunter --paired   # each seed in both seats
  botlens run samples/battleships-offbyone --failed     # only the games the last run lost by a fault

In a bot's CI (docs/ci.md):
  botlens run my-bot --format sarif > botlens.sarif   # lost games as code-scanning alerts
  botlens run my-bot --format junit > botlens.xml     # an opponent a test suite, for test reports
  botlens run samples/tictactoe-forkblind --analyze   # and why it lost: its moves judged

--format json|sarif|junit writes a machine-readable report on stdout instead of the table (--json
is --format json). Paths in SARIF, JUnit and annotations are relative to the repository's root
(--source-root). With GITHUB_ACTIONS=true in the environment, as in GitHub Actions, run also
prints a workflow command per failure group and per line that wasted moves
(`::error file=…,line=…,title=…::…`), which GitHub shows as annotations on those lines: on stdout
after the table, on stderr when stdout carries a json, sarif or junit report. Nothing else botlens
prints (the table, a compiler's errors, a bot's messages) is read as a command: botlens stops
the runner reading them while it runs (`::stop-commands::` with a random token).

Every run of a bot project is kept as its last run (<project>/target/botlens/last-run.json):
`botlens replay PROJECT` opens its worst failure, `--failed` plays its failed games again.

Baselines (bot projects only) are kept in <project>/target/botlens/baselines/:
  botlens run --save-baseline main       save this run's report as `main`
  botlens run --baseline main            print what changed since `main` after the table,
                                         and the Elo verdict on the seeds both runs played
                                         (from 100 games on; fewer are too few to tell)

In shards, on a cluster (docs/scale.md): each shard plays a block of the seeds and writes a
part; `botlens merge` makes the report one run would have made (the same JSON, but for
duration_ms):
  botlens run my-bot --seeds 0..100000 --shard 0/4 --part parts/0.json   # … up to 3/4
  botlens run my-bot --seeds 0..100000 --shard auto --part parts/$SLURM_ARRAY_TASK_ID.json
  botlens merge parts/

Exit status: 0 when no game was lost by a bot fault, 1 when one was, 2 on bad input or a
failed build.")]
pub struct RunArgs {
    /// The bot: a project directory, a .wasm module or a reference player's name [default: the
    /// bot the current directory is in, this one or one above it, as cargo finds its manifest].
    bot: Option<String>,
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
    /// How the report is written on stdout: `text`, the table and grouped failures; `json`, one
    /// object (documented in `botlens_harness::report`; with --baseline it has a `comparison`
    /// field, documented in `botlens_harness::baseline`); `sarif`, SARIF 2.1.0 for code
    /// scanning; `junit`, JUnit XML for CI test reports (docs/ci.md).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,
    /// The same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// The repository's root, which the paths of SARIF, JUnit and GitHub annotations are
    /// relative to (default: the nearest directory from the current one up that holds `.git`,
    /// else the current directory).
    #[arg(long, value_name = "DIR")]
    source_root: Option<PathBuf>,
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
    /// Then judge every move of the bot by the game's oracle (as `botlens analyze` does, on the
    /// suite's seeds, the bot in seat 0): the text report ends with the decision profile and
    /// the games' losing moves, the JSON one has an `analysis` field.
    #[arg(long)]
    analyze: bool,
    /// Play only shard I of N: the I-th (counted from 0) of N consecutive blocks of the seeds,
    /// against every opponent, and write its part (--part) for `botlens merge`. `auto` is a
    /// Slurm job array's task (SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN, of
    /// SLURM_ARRAY_TASK_COUNT); `auto/N` a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (else a
    /// Slurm task's index) of N.
    #[arg(
        long,
        value_name = "I/N",
        requires = "part",
        conflicts_with_all = ["failed", "analyze", "baseline", "save_baseline"]
    )]
    shard: Option<String>,
    /// Where the shard's part is written (atomically; its directory made if missing).
    #[arg(long, value_name = "FILE", requires = "shard")]
    part: Option<PathBuf>,
}

/// How `botlens run` writes its report (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The table and the grouped failures, for people.
    Text,
    /// One JSON object (`botlens_harness::report`).
    Json,
    /// SARIF 2.1.0, for code scanning (`botlens_ci::sarif`).
    Sarif,
    /// JUnit XML, for CI test reports (`botlens_ci::junit`).
    Junit,
}

/// Runs `botlens run`.
pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let bot = crate::shared::bot_arg::named_or_enclosing(args.bot.clone())?;
    let target = Target::parse(&bot, args.game.as_deref())?;
    let project_root = target.project_dir();
    if project_root.is_none() && (args.baseline.is_some() || args.save_baseline.is_some()) {
        bail!(
            "baselines belong to a bot project: `{bot}` is not a project directory, so --baseline and --save-baseline cannot be used"
        );
    }
    // Loaded first, so a wrong name fails before a long build.
    let baseline = match (project_root, &args.baseline) {
        (Some(root), Some(name)) => Some((name, baseline::load(root, name)?)),
        _ => None,
    };
    let shard = args.shard.as_deref().map(shards::shard).transpose()?;
    let mut options = RunOptions {
        trace_dir: args.trace_dir.clone(),
        paired: args.paired,
        shard,
        ..args.suite.options()?
    };
    if args.failed {
        let Some(failed) = failed_games(project_root, &bot)? else {
            eprintln!(
                "botlens: the last run of {bot} lost no game by a bot fault: nothing to play again"
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
    let format = if args.json { Format::Json } else { args.format };
    if args.analyze && matches!(format, Format::Sarif | Format::Junit) {
        let name = if format == Format::Sarif { "sarif" } else { "junit" };
        bail!("--analyze adds to the text and JSON reports, not to --format {name}");
    }
    let annotate = crate::workflow::in_github_actions();
    let sources = sources(args.source_root.as_deref(), &target)?;
    let sandbox = crate::shared::sandbox()?;
    let run = StageProgress::around(format != Format::Text, |progress| {
        pipeline::run(&sandbox, &target, &options, progress, &CancelToken::new())
    })?;
    let analysis = match args.analyze {
        true => Some(StageProgress::around(format != Format::Text, |progress| {
            analyze::analyze_suite(&run.suite, progress, &CancelToken::new())
        })?),
        false => None,
    };

    let report = &run.report;
    let comparison =
        baseline.as_ref().map(|(name, before)| (name, Comparison::between(before, report)));
    let mut stdout = std::io::stdout().lock();
    match format {
        Format::Json => {
            let mut json = serde_json::to_value(report)?;
            if let (Some((_, comparison)), Some(object)) = (&comparison, json.as_object_mut()) {
                object.insert("comparison".into(), serde_json::to_value(comparison)?);
            }
            if let (Some(analysis), Some(object)) = (&analysis, json.as_object_mut()) {
                object.insert("analysis".into(), serde_json::to_value(analysis)?);
            }
            serde_json::to_writer(&mut stdout, &json)?;
            writeln!(stdout)?;
        }
        Format::Sarif => write!(stdout, "{}", botlens_ci::sarif::write(report, &sources))?,
        Format::Junit => write!(stdout, "{}", botlens_ci::junit::write(report, &sources))?,
        Format::Text => {
            let base = &sources.cwd;
            write!(stdout, "{}", report.render(base))?;
            if let Some((name, comparison)) = &comparison {
                write!(stdout, "\n{}", comparison.render(&format!("baseline `{name}`"), base))?;
            }
            if let Some(analysis) = &analysis {
                write!(stdout, "\n{}", analysis.render(base, 5))?;
            }
        }
    }
    if annotate {
        // The runner reads no command botlens did not write (`crate::workflow`) but these. A
        // machine-readable report keeps stdout to itself; the runner reads stderr too.
        let commands = botlens_ci::github::annotations(report, &sources);
        if format == Format::Text {
            crate::workflow::unguarded(&mut stdout, &commands)?;
        } else {
            crate::workflow::unguarded(&mut std::io::stderr().lock(), &commands)?;
        }
    }
    if let (Some(shard), Some(path)) = (shard, &args.part) {
        let results = &run.results;
        let target = target.to_string();
        let (tally, played) = (results.tally.clone(), results.played);
        let part = RunPart::new(shard, &run.suite, &target, tally, played, report.clone());
        let (offset, seeds) = shard.block(run.suite.seeds);
        let first = run.suite.seeds.first() + offset;
        let block = match seeds {
            0 => "no seed: there are fewer seeds than shards".to_owned(),
            n => format!("seeds {first}..={}", first + n - 1),
        };
        shards::write_part(&part, path, &block)?;
        // A shard's report is not the project's run: its last run stays.
        return Ok(if report.has_faults() { ExitCode::from(1) } else { ExitCode::SUCCESS });
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

/// Where the report's files are: the repository's root (`--source-root`, else the nearest
/// directory from the current one up holding `.git`, else the current one), the current
/// directory, and the bot's own file for results without a line.
fn sources(root: Option<&Path>, target: &Target) -> anyhow::Result<Sources> {
    let cwd = std::env::current_dir()?;
    let root = match root {
        Some(root) => std::fs::canonicalize(root)
            .map_err(|error| anyhow::anyhow!("--source-root {}: {error}", root.display()))?,
        None => cwd.ancestors().find(|dir| dir.join(".git").exists()).unwrap_or(&cwd).to_owned(),
    };
    Ok(Sources { root, cwd, bot_file: target.home_file() })
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

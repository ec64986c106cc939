//! `botlens compare A B`: is A stronger than B? Head to head, through a gauntlet of opponents,
//! or (Klotski) step by step; with an SPRT that stops at its verdict. Glue over
//! `botlens_experiments::compare`.

use std::path::PathBuf;
use std::process::ExitCode;

use botlens_engine::text::printable;
use botlens_experiments::compare::{self, Side};
use botlens_experiments::slurm;
use botlens_harness::CancelToken;
use botlens_harness::pipeline;
use clap::Args;

use crate::shared::games_args::GamesArgs;
use crate::shared::output::print_report;
use crate::shared::progress::show;
use crate::shared::shards;
use crate::shared::slurm_args::{SlurmArgs, show_slurm};

/// Arguments of `botlens compare`.
#[derive(Debug, Args)]
#[command(
    after_help = "A and B are each anything `botlens run` takes (a project directory, a .wasm
module or a reference player, the last two with --game), or DIR@REV: that git revision of the
bot in DIR (a project, or a bot folder in any language), checked out into a private temporary
worktree with the repository's hooks and filters off, and built (a project's dependencies'
builds kept in <project>/target/botlens/revisions/, or in $CARGO_TARGET_DIR/botlens/revisions/
when it is set).

Without --vs, A plays B head to head, each seed twice with the seats swapped. With --vs, A and B
each play those opponents on the same seeds (both seats), and each (opponent, seed) counts A's
pair points minus B's. Klotski compares the steps of A and B on each board and seed (sign and
Wilcoxon signed-rank tests).

The lines cutechess-cli prints come first, in its exact form, for the tools that read them:
`Score of A vs B: W - L - D  [score] N` (with --vs, per side and opponent), `Elo difference: X
+/- Y, LOS: Z %, DrawRatio: W %` and, with --sprt, `SPRT: llr L (P%), lbound A, ubound B` (with
` - H0 was accepted` or ` - H1 was accepted` once it stops). Their figures are botlens's:
fishtest's formulas on the pairs (with --vs, on the (opponent, seed) units; DrawRatio is then
the share of units A and B scored the same). botlens's own lines follow: fastchess's
`Ptnml(0-2): [..]` (with --vs, `Diff(-2..+2): [..]`, the units by A's points minus B's), the
logistic Elo with its 95% interval, `nElo` (normalized Elo, fishtest's default scale), `LOS`,
and with --sprt fastchess's `LLR: ...` line, the verdict and, once the test stops, fishtest's
bias-corrected Elo (the plain estimate of a test that stopped early is biased). Every empty
outcome counts 0.001, as in fishtest; below 20 pairs (or units) there are no figures: `too few
games` (`nan` in cutechess-cli's line). docs/statistics.md has the formulas.

Examples:
  botlens compare samples/battleships-hunter --game battleships hunter
  botlens compare my-bot my-bot@HEAD~1 --sprt elo0=0 elo1=10
  botlens compare my-bot my-bot@main --sprt elo0=0 elo1=2 --elo-model normalized
  botlens compare my-bot@main my-bot --vs random,hunter --seeds 0..500 --json
  botlens compare --game tictactoe perfect random --seeds 0..50
  botlens compare samples/klotski-solver --game klotski optimal --vs hengdaolima,generated --seeds 0..5
  botlens compare . .@origin/main --sprt elo0=-10 elo1=0 --fail-on-regression    (in CI)

In shards, on a cluster (docs/scale.md): each shard plays a block of the seeds and writes a
part; `botlens merge` prints the comparison of all the seeds (no SPRT: it needs a verdict as
the games come, which one shard cannot reach):
  botlens compare my-bot my-bot@main --seeds 0..100000 --shard 0/8 --part parts/0.json
  botlens merge parts/

On Slurm (docs/scale.md): with --sprt, --slurm builds both sides here, submits the test's
games as a job array (tasks of --slurm-task-games games, --slurm-tasks at once), merges the
tasks' parts from the first on as they finish, prints the LLR as it goes, and at the verdict
cancels what is still queued. The nodes must share this directory, the bots and their builds,
and --slurm-dir. A task that fails is run once more.
  botlens compare my-bot my-bot@main --sprt elo0=0 elo1=5 --slurm --slurm-partition cpu --slurm-tasks 32

With --fail-on-regression, the comparison is a regression check for CI: a non-regression SPRT
(elo1 at most 0, as fishtest tests a change that must not lose strength) fails when it accepts
H0, that is when A is elo0 or worse than B; Klotski, which has no SPRT, fails when A takes more
steps than B more often than chance allows (the sign test at p < 0.05). An SPRT that reaches
its games cap without a verdict does not fail. docs/ci.md has a workflow.

Exit status: 0 with the figures (whatever the verdict), 1 with --fail-on-regression when A is
worse than B, 2 on bad input or a failed build."
)]
pub struct CompareArgs {
    /// The first bot (A): a project, a .wasm module, a reference player, or PROJECT@REV.
    a: String,
    /// The second bot (B), the same kinds.
    b: String,
    /// The game, for .wasm modules and reference players (projects name their own).
    #[arg(long)]
    game: Option<String>,
    #[command(flatten)]
    games: GamesArgs,
    /// Print one JSON object (documented in `botlens_experiments::compare`) instead of the lines.
    #[arg(long)]
    json: bool,
    /// Exit with status 1 when A is worse than B: a non-regression SPRT (`--sprt elo0=-10
    /// elo1=0`) accepted H0, or (Klotski) A took more steps; for CI.
    #[arg(long)]
    fail_on_regression: bool,
    /// Play only shard I of N: the I-th (counted from 0) of N consecutive blocks of the seeds,
    /// and write its part (--part) for `botlens merge`; `auto` and `auto/N` read a Slurm job
    /// array's task or a Kubernetes Indexed Job's index, as `botlens run --shard` does.
    #[arg(long, value_name = "I/N", requires = "part", conflicts_with = "fail_on_regression")]
    shard: Option<String>,
    /// Where the shard's part is written (atomically; its directory made if missing).
    #[arg(long, value_name = "FILE", requires = "shard")]
    part: Option<PathBuf>,
    #[command(flatten)]
    slurm: SlurmArgs,
}

/// Runs `botlens compare`.
pub fn run(args: CompareArgs) -> anyhow::Result<ExitCode> {
    let a = Side::parse(&args.a, args.game.as_deref())?;
    let b = Side::parse(&args.b, args.game.as_deref())?;
    let options = args.games.options()?;
    if let (Some(spec), Some(path)) = (&args.shard, &args.part) {
        let shard = shards::shard(spec)?;
        let sandbox = pipeline::sandbox()?;
        let events = |event: compare::Event<'_>| show(event);
        let cancel = CancelToken::new();
        let (a, b) = compare::prepare_pair(&sandbox, &a, &b, &options, &events, &cancel)?;
        let part = compare::play_shard(&a, &b, &options, shard, &events, &cancel)?;
        let played = format!("{} played", shards::seeds(part.contents.seeds_played));
        shards::write_part(&part, path, &played)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.slurm.slurm {
        if args.shard.is_some() || args.fail_on_regression {
            anyhow::bail!(
                "--slurm plays the whole test: leave out --shard and --fail-on-regression"
            );
        }
        let report = slurm::compare_on_slurm(
            &pipeline::sandbox()?,
            &a,
            &b,
            &options,
            &args.slurm.options()?,
            &show_slurm,
            &CancelToken::new(),
        )?;
        print_report(args.json, &report, |report| report.render())?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.fail_on_regression {
        compare::check_regression_test(compare::common_game(&a, &b)?, options.sprt.as_ref())?;
    }
    let report = compare::compare(
        &pipeline::sandbox()?,
        &a,
        &b,
        &options,
        &|event| show(event),
        &CancelToken::new(),
    )?;
    print_report(args.json, &report, |report| report.render())?;
    if args.fail_on_regression && report.regression == Some(true) {
        eprintln!(
            "botlens: {} is worse than {}: a regression (exit status 1, --fail-on-regression)",
            printable(&report.a),
            printable(&report.b)
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

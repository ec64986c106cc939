//! `botlens tournament A B C …`: a paired round robin of several bots, with Bradley–Terry
//! ratings and the crosstable. Glue over `botlens_experiments::tournament`.

use std::path::PathBuf;
use std::process::ExitCode;

use botlens_experiments::compare::Side;
use botlens_experiments::slurm;
use botlens_experiments::tournament::{self, Event, TournamentOptions};
use botlens_harness::{CancelToken, SeedRange};
use clap::Args;

use crate::shared::games_args::PlayLimits;
use crate::shared::output::print_report;
use crate::shared::progress::show;
use crate::shared::shards;
use crate::shared::slurm_args::{SlurmArgs, show_slurm};

/// Arguments of `botlens tournament`.
#[derive(Debug, Args)]
#[command(
    after_help = "Each side is anything `botlens compare` takes: a project directory, a .wasm
module or a reference player (the last two with --game), or PROJECT@REV. Every pair of sides
plays head to head on the same seeds, each seed twice with the seats swapped, as `botlens
compare A B` plays them.

The ratings are Bradley-Terry (logistic Elo) by maximum likelihood over all pairs' scores (a
draw is half a point): the side rated r scores 1/(1 + 10^(-(r - r')/400)) against the one rated
r'. They are anchored at a mean of 0, with one virtual draw added to every pair so that a
sweep keeps a finite rating; each 95% interval is ±1.96 standard errors from the observed
Fisher information (against the field's mean). The crosstable shows each row's wins-losses-draws
against each column. Klotski is refused: solvers play no opponents.

Examples:
  botlens tournament --game tictactoe random perfect samples/tictactoe-minimax --seeds 0..20
  botlens tournament --game battleships random hunter density --seeds 0..50 --json
  botlens tournament my-bot my-bot@v1.0 my-bot@HEAD~3 --jobs 2

In shards, on a cluster (docs/scale.md): each shard plays every pair on a block of the seeds
and writes a part; `botlens merge` prints the round robin of all the seeds:
  botlens tournament a.wasm b.wasm c.wasm --game battleships --seeds 0..10000 --shard 0/4 --part parts/0.json
  botlens merge parts/

On Slurm: --slurm builds every side here, submits the shards as a job array (tasks of
--slurm-task-games games, --slurm-tasks at once), runs a failed task once more and merges:
  botlens tournament a b c --game battleships --seeds 0..100000 --slurm --slurm-tasks 16

Exit status: 0 with the table, 2 on bad input (one side, a side named twice, sides of
different games, an unknown name) or a failed build."
)]
pub struct TournamentArgs {
    /// The sides: projects, .wasm modules, reference players or PROJECT@REV, two or more.
    #[arg(required = true, value_name = "SIDE")]
    sides: Vec<String>,
    /// The game, for .wasm modules and reference players (projects name their own).
    #[arg(long)]
    game: Option<String>,
    /// Seeds: `A..B`, `A..=B` or `N` [default: the first side's project's, else 0..100].
    #[arg(long)]
    seeds: Option<SeedRange>,
    #[command(flatten)]
    play: PlayLimits,
    /// Print one JSON object (documented in `botlens_experiments::tournament`) instead of tables.
    #[arg(long)]
    json: bool,
    /// Play only shard I of N: every pair on the I-th (counted from 0) of N consecutive blocks
    /// of the seeds, and write its part (--part) for `botlens merge`; `auto` and `auto/N` read
    /// a Slurm job array's task or a Kubernetes Indexed Job's index, as `botlens run --shard`.
    #[arg(long, value_name = "I/N", requires = "part")]
    shard: Option<String>,
    /// Where the shard's part is written (atomically; its directory made if missing).
    #[arg(long, value_name = "FILE", requires = "shard")]
    part: Option<PathBuf>,
    #[command(flatten)]
    slurm: SlurmArgs,
}

/// Runs `botlens tournament`.
pub fn run(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    let sides = args
        .sides
        .iter()
        .map(|side| Side::parse(side, args.game.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    let options = TournamentOptions {
        seeds: args.seeds,
        max_turns: args.play.max_turns,
        jobs: args.play.jobs(),
        caps: args.play.caps.caps()?,
    };
    let events = |event: Event<'_>| match event {
        Event::Compare(event) => show(event),
        Event::PairDone { a, b, done, pairs, games } => {
            let (a, b) = (botlens_engine::text::printable(a), botlens_engine::text::printable(b));
            eprintln!("botlens: pair {done}/{pairs} done ({a} vs {b}): {games} games played");
        }
    };
    let sandbox = crate::shared::sandbox()?;
    if args.slurm.slurm {
        if args.shard.is_some() {
            anyhow::bail!("--slurm plays every shard: leave out --shard");
        }
        let slurm = args.slurm.options()?;
        let cancel = CancelToken::new();
        let report =
            slurm::tournament_on_slurm(&sandbox, &sides, &options, &slurm, &show_slurm, &cancel)?;
        print_report(args.json, &report, |report| report.render())?;
        return Ok(ExitCode::SUCCESS);
    }
    if let (Some(spec), Some(path)) = (&args.shard, &args.part) {
        let shard = shards::shard(spec)?;
        let cancel = CancelToken::new();
        let part =
            tournament::tournament_shard(&sandbox, &sides, &options, shard, &events, &cancel)?;
        let played = format!("{} played by every pair", shards::seeds(part.contents.seeds_played));
        shards::write_part(&part, path, &played)?;
        return Ok(ExitCode::SUCCESS);
    }
    let report = tournament::tournament(&sandbox, &sides, &options, &events, &CancelToken::new())?;
    print_report(args.json, &report, |report| report.render())?;
    Ok(ExitCode::SUCCESS)
}

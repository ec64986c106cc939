//! `botlens bisect PROJECT GOOD BAD`: the first commit that made the bot weaker, by a binary
//! search judged with `compare` SPRTs against GOOD. Glue over `botlens_experiments::bisect`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use botlens_experiments::bisect::{self, BisectEvent};
use botlens_harness::CancelToken;
use botlens_harness::pipeline;
use clap::Args;

use crate::shared::games_args::GamesArgs;
use crate::shared::progress::show;

/// Arguments of `botlens bisect`.
#[derive(Debug, Args)]
#[command(after_help = "Judges the commits after GOOD up to BAD (git rev-list --first-parent
GOOD..BAD), BAD first, then the one nearest the middle of those still in doubt, as git bisect
does. Each revision is checked out into a private temporary worktree, with the repository's
hooks and filters off, and built (a project's builds share
<project>/target/botlens/revisions/, or $CARGO_TARGET_DIR/botlens/revisions/; a bot folder in any language works too) and compared with GOOD's build by an SPRT (default
elo0=0 elo1=10: is GOOD stronger by 10 Elo rather than 0?): H1 accepted, the revision is bad;
H0 accepted (or the same module as GOOD), good; a revision that does not build, or a test
without a verdict within --max-games, is skipped. Without --vs, each revision plays GOOD head
to head; with --vs, both play those opponents.

Examples:
  botlens bisect my-bot v1.0 HEAD
  botlens bisect my-bot HEAD~20 HEAD --vs random,hunter --sprt elo0=0 elo1=20
  botlens bisect . main my-branch --max-games 4000

Exit status: 0 with the finding (whatever it is), 2 on bad input, when GOOD does not build, or
when the games fail.")]
pub struct BisectArgs {
    /// The bot project (inside a git repository).
    project: PathBuf,
    /// A revision where the bot is good.
    good: String,
    /// A later revision where it is weaker.
    bad: String,
    #[command(flatten)]
    games: GamesArgs,
}

/// Runs `botlens bisect`.
pub fn run(args: BisectArgs) -> anyhow::Result<ExitCode> {
    let options = args.games.options()?;
    let report = bisect::bisect(
        &pipeline::sandbox()?,
        &args.project,
        &args.good,
        &args.bad,
        &options,
        &|event| match event {
            BisectEvent::Compare(event) => show(event),
            BisectEvent::Judging { commit, in_doubt } => eprintln!(
                "botlens: judging {} {} ({in_doubt} in doubt)",
                commit.short(),
                botlens_engine::text::printable(&commit.subject)
            ),
            BisectEvent::Judged { commit, step } => {
                eprintln!("botlens: {} is {}", commit.short(), step.judgement.word())
            }
        },
        &CancelToken::new(),
    )?;
    write!(std::io::stdout().lock(), "{}", report.render())?;
    Ok(ExitCode::SUCCESS)
}

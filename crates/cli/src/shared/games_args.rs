//! The flags of commands that play many games between bots (`compare`, `bisect`, `diff`,
//! `tournament`): which games, with what SPRT, under what limits.

use botlens_experiments::compare::{self, CompareOptions};
use botlens_harness::SeedRange;
use botlens_stats::EloModel;
use clap::Args;

use crate::shared::caps_args::CapArgs;

/// How two bots are played against each other: the flags `compare` and `bisect` share.
#[derive(Debug, Args)]
pub struct GamesArgs {
    /// Opponents both bots play (a gauntlet), comma-separated; Klotski: boards [default: head
    /// to head; Klotski: A's project's boards, else the bundled ones].
    #[arg(long, value_delimiter = ',')]
    vs: Vec<String>,
    /// Seeds: `A..B`, `A..=B` or `N` [default: A's project's, else 0..100; with --sprt, from 0
    /// on for as long as the test needs].
    #[arg(long)]
    seeds: Option<SeedRange>,
    /// Stop at the verdict of a sequential probability ratio test: items `elo0=`, `elo1=`,
    /// `alpha=`, `beta=` (any subset; defaults elo0 0, elo1 10, alpha and beta 0.05).
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// The scale of --sprt's elo0 and elo1: `logistic` (cutechess-cli's and fastchess's, within
    /// ±1000) or `normalized` (fishtest's default, within ±200) [default: logistic].
    #[arg(long, value_name = "MODEL", requires = "sprt")]
    elo_model: Option<EloModel>,
    /// The most games to play in all [default with --sprt: 20000].
    #[arg(long, value_name = "N")]
    max_games: Option<u64>,
    #[command(flatten)]
    play: PlayLimits,
}

/// The turn cap, worker threads and caps on the projects' limits of commands that play many
/// games (`compare`, `bisect`, `diff`, `tournament`).
#[derive(Debug, Args)]
pub struct PlayLimits {
    /// Turn cap per game, 1 to 100000 [default: the projects', else the game's own].
    #[arg(long)]
    pub max_turns: Option<u32>,
    /// Worker threads [default: one per core]; the figures do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: Option<u16>,
    #[command(flatten)]
    pub caps: CapArgs,
}

impl PlayLimits {
    /// Worker threads for the harness: 0 means one per core.
    pub fn jobs(&self) -> usize {
        self.jobs.map_or(0, usize::from)
    }
}

impl GamesArgs {
    /// The options these flags ask for; a dirty `--sprt` spec is an error.
    pub fn options(&self) -> anyhow::Result<CompareOptions> {
        let sprt = self
            .sprt
            .as_deref()
            .map(|items| compare::parse_sprt(items, self.elo_model.unwrap_or_default()))
            .transpose()
            .map_err(anyhow::Error::msg)?;
        Ok(CompareOptions {
            opponents: (!self.vs.is_empty()).then(|| self.vs.clone()),
            seeds: self.seeds,
            max_turns: self.play.max_turns,
            jobs: self.play.jobs(),
            sprt,
            max_games: self.max_games,
            caps: self.play.caps.caps()?,
        })
    }
}

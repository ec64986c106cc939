//! The suite flags `run`, `watch` and `profile` share: which opponents, which seeds, how long,
//! how many threads, and the caps on the project's limits. Each overrides the project's
//! `[package.metadata.botlens]` (a cap bounds it).

use botlens_harness::SeedRange;
use botlens_harness::pipeline::RunOptions;
use clap::Args;

use crate::shared::caps_args::CapArgs;

/// Overrides of a project's suite.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// Opponents, comma-separated: reference names or .wasm modules; Klotski: board names or
    /// `generated` [default: the project's, else every reference opponent or bundled board].
    #[arg(long, value_delimiter = ',')]
    pub vs: Vec<String>,
    /// Seeds: `A..B` (A to B-1), `A..=B`, or one seed `N` [default: the project's, else 0..100].
    #[arg(long)]
    pub seeds: Option<SeedRange>,
    /// The most moves a game lasts (every seat's moves counted), 1 to 100000 [default: the
    /// project's, else the game's own].
    #[arg(long)]
    pub max_turns: Option<u32>,
    /// Worker threads, 1 to 256 [default: one per core].
    #[arg(long, value_parser = jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub caps: CapArgs,
}

/// Parses `--jobs`: a whole number from 1 to the harness's limit.
fn jobs(text: &str) -> Result<usize, String> {
    let max = botlens_harness::suite::MAX_JOBS;
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("expected a number of worker threads from 1 to {max}")),
    }
}

impl SuiteArgs {
    /// The harness options these flags ask for (the traces of failed games kept in memory);
    /// the caps' config file may be malformed.
    pub fn options(&self) -> anyhow::Result<RunOptions> {
        Ok(RunOptions {
            opponents: (!self.vs.is_empty()).then(|| self.vs.clone()),
            seeds: self.seeds,
            max_turns: self.max_turns,
            jobs: self.jobs.unwrap_or(0),
            caps: self.caps.caps()?,
            ..RunOptions::default()
        })
    }
}

//! `botlens solve` (being written).

use std::process::ExitCode;

use clap::Args;

/// Arguments of `botlens solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {}

/// Runs `botlens solve`.
pub fn run(_args: SolveArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("botlens solve is not written yet")
}

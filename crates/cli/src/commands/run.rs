//! `botlens run` (being written).

use std::process::ExitCode;

use clap::Args;

/// Arguments of `botlens run`.
#[derive(Debug, Args)]
pub struct RunArgs {}

/// Runs `botlens run`.
pub fn run(_args: RunArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("botlens run is not written yet")
}

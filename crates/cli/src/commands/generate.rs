//! `botlens generate` (being written).

use std::process::ExitCode;

use clap::Args;

/// Arguments of `botlens generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {}

/// Runs `botlens generate`.
pub fn run(_args: GenerateArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("botlens generate is not written yet")
}

//! Human Klotski play (being written).

use std::path::Path;
use std::process::ExitCode;

/// Plays Klotski on stdin/stdout.
pub fn run(_layout: Option<&Path>, _ascii: bool) -> anyhow::Result<ExitCode> {
    anyhow::bail!("botlens play klotski is not written yet")
}

//! The flags that cap the limits a project may ask for (`--max-fuel-per-turn`, …), shared by
//! every command that builds and plays a project, and the language server. Each overrides the
//! same cap of the user's config file; see `botlens_bots::caps` and docs/limits.md.

use botlens_bots::caps::{CapOverrides, LimitCaps};
use clap::Args;

/// The user's caps on what a project may ask for.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Caps on what a project may ask for (docs/limits.md)")]
pub struct CapArgs {
    /// The most `fuel_per_turn` a project may set [default: the user's config file's, else
    /// 4000000000]
    #[arg(long, value_name = "FUEL")]
    max_fuel_per_turn: Option<u64>,
    /// The most `fuel_per_game` [default: the config file's, else 100000000000]
    #[arg(long, value_name = "FUEL")]
    max_fuel_per_game: Option<u64>,
    /// The most `memory_bytes` of one game [default: the config file's, else 1073741824]
    #[arg(long, value_name = "BYTES")]
    max_memory_bytes: Option<u64>,
    /// The most `wall_clock_ms_per_turn` [default: the config file's, else 60000]
    #[arg(long, value_name = "MS")]
    max_wall_clock_ms_per_turn: Option<u64>,
    /// The most `build_timeout_secs` [default: the config file's, else 1800]
    #[arg(long, value_name = "SECS")]
    max_build_timeout_secs: Option<u64>,
}

impl CapArgs {
    /// The caps: botlens's defaults, then the user's config file, then these flags.
    pub fn caps(&self) -> anyhow::Result<LimitCaps> {
        Ok(LimitCaps::for_user(&CapOverrides {
            fuel_per_turn: self.max_fuel_per_turn,
            fuel_per_game: self.max_fuel_per_game,
            memory_bytes: self.max_memory_bytes,
            wall_clock_ms_per_turn: self.max_wall_clock_ms_per_turn,
            build_timeout_secs: self.max_build_timeout_secs,
        })?)
    }
}

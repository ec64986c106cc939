//! Settings: [`SandboxConfig`] for the sandbox as a whole, [`SandboxLimits`] for each game.
//!
//! Limits are part of the determinism contract (a game replays exactly only under the same
//! limits), so they serialize into traces. The sandbox configuration does not change what a game
//! does, only how fast it gets there (caching) and the wall-clock backstop's resolution.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// How a [`Sandbox`](crate::Sandbox) is set up.
///
/// ```
/// use botlens_sandbox::SandboxConfig;
///
/// let config = SandboxConfig { cache_dir: Some("target/botlens/cache".into()) };
/// assert!(config.cache_dir.is_some());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxConfig {
    /// Directory for compiled modules, created if missing; the harness uses
    /// `target/botlens/cache/`. Entries are keyed by the module's SHA-256, the wasmtime version
    /// and the compilation settings, so stale entries are never used. By default `None`: modules
    /// are cached in memory only.
    pub cache_dir: Option<PathBuf>,
}

/// What a bot may use in one game. Part of every trace.
///
/// Fuel is wasmtime's deterministic instruction budget: roughly one unit per WebAssembly
/// instruction, so the same bot on the same seed runs out at the same instruction on every
/// machine. Everything the bot runs during a turn counts against that turn (on its first turn
/// also instantiation, `_initialize` and `botlens_new`), and every turn against the game.
///
/// In TOML (`[package.metadata.botlens.limits]`) or JSON, missing fields take their defaults and
/// unknown fields are an error:
///
/// ```
/// use botlens_sandbox::SandboxLimits;
///
/// let limits: SandboxLimits = serde_json::from_str(r#"{"fuel_per_turn": 5000000}"#).unwrap();
/// assert_eq!(limits.fuel_per_turn, 5_000_000);
/// assert_eq!(limits.fuel_per_game, SandboxLimits::default().fuel_per_game);
/// assert!(serde_json::from_str::<SandboxLimits>(r#"{"fuel": 1}"#).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SandboxLimits {
    /// Fuel for one turn. By default 5,000,000,000: about a second, like the old arena's one
    /// second per move, but reproducible (wasmtime burns roughly 3 to 8 billion fuel per second
    /// on a 2.8 GHz x86-64 core, depending on the code).
    pub fuel_per_turn: u64,
    /// Fuel for the whole game (all turns of this bot). By default 125,000,000,000: like the old
    /// arena's 25 seconds per game.
    pub fuel_per_game: u64,
    /// Cap on the bot's linear memory in bytes; growing past it stops the bot with
    /// `memory_limit`. By default 64 MiB.
    pub memory_bytes: u64,
    /// Cap on the WebAssembly call stack in bytes; deeper recursion stops the bot with
    /// `stack_overflow`. Between [`SandboxLimits::MIN_STACK_BYTES`] and [`SandboxLimits::MAX_STACK_BYTES`]
    /// (the bot runs on the host thread's stack). By default 512 KiB.
    pub stack_bytes: u64,
    /// Bytes of output (stdout, stderr and `log` lines) kept per turn; the rest is dropped and
    /// the turn's log says how much. By default 64 KiB.
    pub output_bytes_per_turn: u64,
    /// Wall-clock backstop per turn in milliseconds, for what fuel cannot catch (a host call
    /// that blocks, a pathological compile of a huge function). Not deterministic, so set far
    /// above what `fuel_per_turn` takes; the game ends with `timeout`. By default 10,000.
    pub wall_clock_ms_per_turn: u64,
}

impl SandboxLimits {
    /// The smallest accepted [`SandboxLimits::stack_bytes`]: 64 KiB.
    pub const MIN_STACK_BYTES: u64 = 64 << 10;
    /// The largest accepted [`SandboxLimits::stack_bytes`]: 1 MiB, leaving room on a 2 MiB host thread.
    pub const MAX_STACK_BYTES: u64 = 1 << 20;

    /// Whether these limits can be used; the message says which field is out of range.
    ///
    /// ```
    /// use botlens_sandbox::SandboxLimits;
    ///
    /// assert!(SandboxLimits::default().check().is_ok());
    /// let huge = SandboxLimits { stack_bytes: 64 << 20, ..SandboxLimits::default() };
    /// assert!(huge.check().unwrap_err().contains("stack_bytes"));
    /// ```
    pub fn check(&self) -> Result<(), String> {
        if !(Self::MIN_STACK_BYTES..=Self::MAX_STACK_BYTES).contains(&self.stack_bytes) {
            return Err(format!(
                "stack_bytes = {} is out of range {}..={}",
                self.stack_bytes,
                Self::MIN_STACK_BYTES,
                Self::MAX_STACK_BYTES
            ));
        }
        if self.fuel_per_turn == 0 || self.fuel_per_game == 0 {
            return Err("fuel_per_turn and fuel_per_game must be positive".into());
        }
        if self.wall_clock_ms_per_turn == 0 {
            return Err("wall_clock_ms_per_turn must be positive".into());
        }
        Ok(())
    }
}

impl Default for SandboxLimits {
    fn default() -> Self {
        SandboxLimits {
            fuel_per_turn: 5_000_000_000,
            fuel_per_game: 125_000_000_000,
            memory_bytes: 64 << 20,
            stack_bytes: 512 << 10,
            output_bytes_per_turn: 64 << 10,
            wall_clock_ms_per_turn: 10_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_round_trip_through_json_with_every_field_named() {
        let json = serde_json::to_string(&SandboxLimits::default()).unwrap();
        assert_eq!(
            json,
            r#"{"fuel_per_turn":5000000000,"fuel_per_game":125000000000,"memory_bytes":67108864,"stack_bytes":524288,"output_bytes_per_turn":65536,"wall_clock_ms_per_turn":10000}"#
        );
        assert_eq!(serde_json::from_str::<SandboxLimits>(&json).unwrap(), SandboxLimits::default());
    }

    #[test]
    fn check_refuses_zero_fuel_and_a_zero_backstop() {
        assert!(SandboxLimits { fuel_per_game: 0, ..SandboxLimits::default() }.check().is_err());
        assert!(
            SandboxLimits { wall_clock_ms_per_turn: 0, ..SandboxLimits::default() }
                .check()
                .is_err()
        );
        assert!(SandboxLimits { stack_bytes: 1024, ..SandboxLimits::default() }.check().is_err());
    }
}

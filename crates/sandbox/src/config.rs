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
/// let config = SandboxConfig { cache_dir: Some("/home/me/.cache/botlens/modules".into()) };
/// assert!(config.cache_dir.is_some());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxConfig {
    /// Directory for compiled modules, created (mode 0700) if missing; the harness uses
    /// `modules/` in the user's cache directory. Compiled code is native code, so the directory
    /// is used only if it is the current user's and nobody else may write to it (on Unix: owned
    /// by the effective user, no group or other write permission), and every entry is
    /// authenticated (HMAC-SHA256 under a random key kept in the directory, readable by the user
    /// alone) against the module's SHA-256 and the engine's compilation settings: a file anyone
    /// else planted is deleted, never run. A directory that fails the checks is not used (see
    /// [`Sandbox::disk_cache_note`](crate::Sandbox::disk_cache_note)); modules are then cached in
    /// memory only. The directory is kept under
    /// [`SandboxConfig::DEFAULT_CACHE_BYTES`] (or the bound given to
    /// [`Sandbox::with_cache_bound`](crate::Sandbox::with_cache_bound)), least recently used
    /// entries deleted first. By default `None`: modules are cached in memory only.
    pub cache_dir: Option<PathBuf>,
}

impl SandboxConfig {
    /// The default bound on the disk cache's size: 512 MiB (a Rust bot's entry is about
    /// 300 KiB).
    pub const DEFAULT_CACHE_BYTES: u64 = 512 << 20;
}

/// What a bot may use in one game. Part of every trace.
///
/// Fuel is wasmtime's deterministic instruction budget: roughly one unit per WebAssembly
/// instruction, so the same bot on the same seed runs out at the same instruction on every
/// machine. Everything the bot runs during a turn counts against that turn (on its first turn
/// also instantiation, `_initialize` and `botlens_new`), and every turn against the game. Host
/// calls cost fuel too, in proportion to their work (`docs/abi.md` lists what each costs), so
/// fuel bounds wall time and the wall-clock backstop is only ever a backstop.
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
    /// Fuel for one turn. By default 400,000,000: the slowest-burning loop a bot can write
    /// (`loop br 0`, about 2 ns per unit) burns that in about 0.8 s on a 2.8 GHz x86-64 core,
    /// and no other instruction (each priced by what it takes, `docs/abi.md`) nor host call
    /// burns fuel much slower, so fuel runs out long before
    /// [`SandboxLimits::wall_clock_ms_per_turn`] (loads that miss every cache excepted).
    /// At least [`SandboxLimits::MIN_FUEL`].
    pub fuel_per_turn: u64,
    /// Fuel for the whole game (all turns of this bot). By default 10,000,000,000, 25 turns'
    /// worth. At least [`SandboxLimits::MIN_FUEL`].
    pub fuel_per_game: u64,
    /// Cap on the bot's linear memory in bytes; growing past it stops the bot with
    /// `memory_limit`. By default 64 MiB; between one WebAssembly page (64 KiB) and 4 GiB.
    pub memory_bytes: u64,
    /// Cap on the WebAssembly call stack in bytes; deeper recursion stops the bot with
    /// `stack_overflow`. By default 512 KiB; between [`SandboxLimits::MIN_STACK_BYTES`] and
    /// [`SandboxLimits::MAX_STACK_BYTES`] (the bot runs on the host thread's stack).
    pub stack_bytes: u64,
    /// Bytes of output (stdout, stderr and `log` lines) kept per turn; the rest is dropped and
    /// the turn's log says how much. By default 64 KiB; between 1 byte and
    /// [`SandboxLimits::MAX_OUTPUT_BYTES`].
    pub output_bytes_per_turn: u64,
    /// Lines of output kept per turn (an empty line counts too); later lines are dropped and the
    /// turn's log ends with `… N more lines`. By default 1,000; between 1 and
    /// [`SandboxLimits::MAX_OUTPUT_LINES`].
    pub output_lines_per_turn: u64,
    /// Backstop per turn in milliseconds, for what fuel cannot catch (loads waiting on memory, a
    /// bug): counted in the CPU time of the thread that runs the turn, so a loaded machine does
    /// not reach it sooner, and capped at ten times this by the wall clock (a host starved of
    /// CPU). Not deterministic, so set far above what `fuel_per_turn` takes: the game ends with
    /// `timeout`. By default 10,000 (ten times or more what the default turn's fuel takes at its
    /// slowest);
    /// between 1 and [`SandboxLimits::MAX_WALL_CLOCK_MS`] (an hour). A profiled turn's backstop
    /// is 50 times this ([`WasmPlayer::profiled`](crate::WasmPlayer::profiled)).
    pub wall_clock_ms_per_turn: u64,
}

impl SandboxLimits {
    /// The smallest accepted [`SandboxLimits::stack_bytes`]: 64 KiB.
    pub const MIN_STACK_BYTES: u64 = 64 << 10;
    /// The largest accepted [`SandboxLimits::stack_bytes`]: 1 MiB, leaving room on a 2 MiB host thread.
    pub const MAX_STACK_BYTES: u64 = 1 << 20;
    /// The smallest accepted fuel budget, per turn or per game: 10,000, enough to instantiate a
    /// small bot and make a move.
    pub const MIN_FUEL: u64 = 10_000;
    /// The smallest accepted [`SandboxLimits::memory_bytes`]: one WebAssembly page, 64 KiB.
    pub const MIN_MEMORY_BYTES: u64 = 64 << 10;
    /// The largest accepted [`SandboxLimits::memory_bytes`]: 4 GiB, all a 32-bit memory can
    /// address.
    pub const MAX_MEMORY_BYTES: u64 = 4 << 30;
    /// The largest accepted [`SandboxLimits::output_bytes_per_turn`]: 16 MiB.
    pub const MAX_OUTPUT_BYTES: u64 = 16 << 20;
    /// The largest accepted [`SandboxLimits::output_lines_per_turn`]: 100,000.
    pub const MAX_OUTPUT_LINES: u64 = 100_000;
    /// The largest accepted [`SandboxLimits::wall_clock_ms_per_turn`]: an hour.
    pub const MAX_WALL_CLOCK_MS: u64 = 3_600_000;

    /// Whether these limits can run a bot at all; the message says which field is out of range.
    ///
    /// ```
    /// use botlens_sandbox::SandboxLimits;
    ///
    /// assert!(SandboxLimits::default().check().is_ok());
    /// let huge = SandboxLimits { stack_bytes: 64 << 20, ..SandboxLimits::default() };
    /// assert!(huge.check().unwrap_err().contains("stack_bytes"));
    /// let no_memory = SandboxLimits { memory_bytes: 0, ..SandboxLimits::default() };
    /// assert!(no_memory.check().unwrap_err().contains("memory_bytes"));
    /// ```
    pub fn check(&self) -> Result<(), String> {
        let ranges = [
            ("fuel_per_turn", self.fuel_per_turn, Self::MIN_FUEL, u64::MAX),
            ("fuel_per_game", self.fuel_per_game, Self::MIN_FUEL, u64::MAX),
            ("memory_bytes", self.memory_bytes, Self::MIN_MEMORY_BYTES, Self::MAX_MEMORY_BYTES),
            ("stack_bytes", self.stack_bytes, Self::MIN_STACK_BYTES, Self::MAX_STACK_BYTES),
            ("output_bytes_per_turn", self.output_bytes_per_turn, 1, Self::MAX_OUTPUT_BYTES),
            ("output_lines_per_turn", self.output_lines_per_turn, 1, Self::MAX_OUTPUT_LINES),
            ("wall_clock_ms_per_turn", self.wall_clock_ms_per_turn, 1, Self::MAX_WALL_CLOCK_MS),
        ];
        for (name, value, min, max) in ranges {
            if !(min..=max).contains(&value) {
                let max = if max == u64::MAX { String::new() } else { max.to_string() };
                return Err(format!("{name} = {value} is out of range {min}..={max}"));
            }
        }
        Ok(())
    }
}

impl Default for SandboxLimits {
    fn default() -> Self {
        SandboxLimits {
            fuel_per_turn: 400_000_000,
            fuel_per_game: 10_000_000_000,
            memory_bytes: 64 << 20,
            stack_bytes: 512 << 10,
            output_bytes_per_turn: 64 << 10,
            output_lines_per_turn: 1_000,
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
            r#"{"fuel_per_turn":400000000,"fuel_per_game":10000000000,"memory_bytes":67108864,"stack_bytes":524288,"output_bytes_per_turn":65536,"output_lines_per_turn":1000,"wall_clock_ms_per_turn":10000}"#
        );
        assert_eq!(serde_json::from_str::<SandboxLimits>(&json).unwrap(), SandboxLimits::default());
    }

    #[test]
    fn check_refuses_limits_that_cannot_run_a_bot_naming_the_field_and_its_range() {
        let refused = |limits: SandboxLimits| limits.check().unwrap_err();
        let default = SandboxLimits::default();
        assert_eq!(
            refused(SandboxLimits { fuel_per_game: 0, ..default }),
            "fuel_per_game = 0 is out of range 10000..="
        );
        assert_eq!(
            refused(SandboxLimits { memory_bytes: 65535, ..default }),
            "memory_bytes = 65535 is out of range 65536..=4294967296"
        );
        assert_eq!(
            refused(SandboxLimits { output_bytes_per_turn: 0, ..default }),
            "output_bytes_per_turn = 0 is out of range 1..=16777216"
        );
        assert_eq!(
            refused(SandboxLimits { output_lines_per_turn: 0, ..default }),
            "output_lines_per_turn = 0 is out of range 1..=100000"
        );
        assert_eq!(
            refused(SandboxLimits { wall_clock_ms_per_turn: 0, ..default }),
            "wall_clock_ms_per_turn = 0 is out of range 1..=3600000"
        );
        assert_eq!(
            refused(SandboxLimits { stack_bytes: 1024, ..default }),
            "stack_bytes = 1024 is out of range 65536..=1048576"
        );
        let smallest = SandboxLimits {
            fuel_per_turn: SandboxLimits::MIN_FUEL,
            fuel_per_game: SandboxLimits::MIN_FUEL,
            memory_bytes: SandboxLimits::MIN_MEMORY_BYTES,
            stack_bytes: SandboxLimits::MIN_STACK_BYTES,
            output_bytes_per_turn: 1,
            output_lines_per_turn: 1,
            wall_clock_ms_per_turn: 1,
        };
        assert_eq!(smallest.check(), Ok(()));
    }
}

//! Limits the user sets: caps on the sandbox limits and the build timeout a project may ask for.
//!
//! A project chooses its own limits (`[package.metadata.botlens.limits]` and
//! `build_timeout_secs` in a Rust project's `Cargo.toml`, `[limits]` of a bot folder's
//! `botlens.toml`), and a project may be anyone's: an opponent's, a revision, a folder opened in
//! the editor. So it may lower its limits freely, and raise them only up to caps the user
//! controls. The caps come in layers, later ones winning:
//!
//! 1. botlens's defaults ([`LimitCaps::default`]): ten times the default turn's and game's fuel,
//!    16 times its memory (1 GiB), six times its wall-clock backstop (a minute), and three times
//!    the default build timeout (half an hour);
//! 2. the user's config file ([`config_path`]: the file `BOTLENS_CONFIG` names, else
//!    `$XDG_CONFIG_HOME/botlens/config.toml`, else `~/.config/botlens/config.toml`), its `[caps]`
//!    table, with the keys the project's settings use:
//!
//!    ```toml
//!    [caps]
//!    fuel_per_turn = 4_000_000_000
//!    fuel_per_game = 100_000_000_000
//!    memory_bytes = 1_073_741_824
//!    wall_clock_ms_per_turn = 60_000
//!    build_timeout_secs = 1_800
//!    ```
//!
//! 3. command-line flags of the commands that play games and of `botlens lsp`
//!    (`--max-fuel-per-turn`, `--max-fuel-per-game`, `--max-memory-bytes`,
//!    `--max-wall-clock-ms-per-turn`, `--max-build-timeout-secs`).
//!
//! A project that asks for more than a cap is refused, with an error naming the setting, the cap
//! and how the user raises it ([`LimitCaps::limits`], [`LimitCaps::build_timeout`]); it is never
//! clamped, since a clamped limit would play other games than the project's author sees. A
//! setting the project leaves out takes botlens's default, or the cap when the cap is lower.
//! The other limits (stack, output) are bounded by the sandbox itself
//! ([`SandboxLimits::check`]). A cap is per game: a suite plays `--jobs` games at once, each
//! with up to `memory_bytes` of memory.
//!
//! Not for: the limits themselves ([`SandboxLimits`]) or the settings a project may not set at
//! all.

use std::path::{Path, PathBuf};

use botlens_sandbox::SandboxLimits;
use serde::Deserialize;

/// The name of the user's config file in botlens's config directory.
pub const CONFIG_FILE: &str = "config.toml";

/// The variable naming the user's config file instead of the usual place.
pub const CONFIG_VAR: &str = "BOTLENS_CONFIG";

/// The most bytes of the user's config file botlens reads: 1 MiB.
const CONFIG_LIMIT: u64 = 1 << 20;

/// The longest build timeout a cap may allow: a day.
const MAX_BUILD_TIMEOUT_SECS: u64 = 86_400;

/// The caps on what a project may ask for; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitCaps {
    /// The most `fuel_per_turn` a project may set.
    pub fuel_per_turn: u64,
    /// The most `fuel_per_game`.
    pub fuel_per_game: u64,
    /// The most `memory_bytes`.
    pub memory_bytes: u64,
    /// The most `wall_clock_ms_per_turn`.
    pub wall_clock_ms_per_turn: u64,
    /// The most `build_timeout_secs`.
    pub build_timeout_secs: u64,
    /// The user's config file, where a message says the caps are raised (whether or not it
    /// exists); `None` when there is no place for one.
    pub config_file: Option<PathBuf>,
}

impl Default for LimitCaps {
    fn default() -> Self {
        let limits = SandboxLimits::default();
        LimitCaps {
            fuel_per_turn: limits.fuel_per_turn * 10,
            fuel_per_game: limits.fuel_per_game * 10,
            memory_bytes: 1 << 30,
            wall_clock_ms_per_turn: 60_000,
            build_timeout_secs: crate::build::DEFAULT_BUILD_TIMEOUT.as_secs() * 3,
            config_file: None,
        }
    }
}

/// Caps some layer sets (the `[caps]` table of the user's config file, the command line's
/// flags); what it leaves out stays as the layer below says.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapOverrides {
    /// `fuel_per_turn`'s cap.
    pub fuel_per_turn: Option<u64>,
    /// `fuel_per_game`'s cap.
    pub fuel_per_game: Option<u64>,
    /// `memory_bytes`'s cap.
    pub memory_bytes: Option<u64>,
    /// `wall_clock_ms_per_turn`'s cap.
    pub wall_clock_ms_per_turn: Option<u64>,
    /// `build_timeout_secs`'s cap.
    pub build_timeout_secs: Option<u64>,
}

/// The user's config file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct UserConfig {
    #[serde(default)]
    caps: CapOverrides,
}

/// A setting a cap bounds: its key (a project's, and `[caps]`'s), its flag, and the values a
/// cap of it may take.
struct Capped {
    key: &'static str,
    flag: &'static str,
    min: u64,
    max: u64,
}

/// Every capped setting, in the order of [`LimitCaps`]'s fields.
const CAPPED: [Capped; 5] = [
    Capped {
        key: "fuel_per_turn",
        flag: "--max-fuel-per-turn",
        min: SandboxLimits::MIN_FUEL,
        max: u64::MAX,
    },
    Capped {
        key: "fuel_per_game",
        flag: "--max-fuel-per-game",
        min: SandboxLimits::MIN_FUEL,
        max: u64::MAX,
    },
    Capped {
        key: "memory_bytes",
        flag: "--max-memory-bytes",
        min: SandboxLimits::MIN_MEMORY_BYTES,
        max: SandboxLimits::MAX_MEMORY_BYTES,
    },
    Capped {
        key: "wall_clock_ms_per_turn",
        flag: "--max-wall-clock-ms-per-turn",
        min: 1,
        max: SandboxLimits::MAX_WALL_CLOCK_MS,
    },
    Capped {
        key: "build_timeout_secs",
        flag: "--max-build-timeout-secs",
        min: 1,
        max: MAX_BUILD_TIMEOUT_SECS,
    },
];

/// Why the user's caps cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CapsError {
    /// The config file could not be read.
    #[error("cannot read botlens's config file {}: {error}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: botlens_files::ReadError,
    },
    /// The config file is malformed.
    #[error("{}: {message}", .path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong, where.
        message: String,
    },
    /// A cap is out of the range the sandbox accepts for its setting.
    #[error("{what}: the cap {key} = {value} is out of range {min}..={max}")]
    OutOfRange {
        /// Where it was set: the flag, or the config file.
        what: String,
        /// The setting.
        key: &'static str,
        /// The cap asked for.
        value: u64,
        /// The smallest cap.
        min: u64,
        /// The largest cap.
        max: u64,
    },
}

impl CapOverrides {
    /// The value of the setting `key`'s cap, if set.
    fn get(&self, key: &str) -> Option<u64> {
        match key {
            "fuel_per_turn" => self.fuel_per_turn,
            "fuel_per_game" => self.fuel_per_game,
            "memory_bytes" => self.memory_bytes,
            "wall_clock_ms_per_turn" => self.wall_clock_ms_per_turn,
            _ => self.build_timeout_secs,
        }
    }
}

impl LimitCaps {
    /// The cap on the setting `key`.
    fn get(&self, key: &str) -> u64 {
        match key {
            "fuel_per_turn" => self.fuel_per_turn,
            "fuel_per_game" => self.fuel_per_game,
            "memory_bytes" => self.memory_bytes,
            "wall_clock_ms_per_turn" => self.wall_clock_ms_per_turn,
            _ => self.build_timeout_secs,
        }
    }

    /// The cap on the setting `key`, to set.
    fn slot(&mut self, key: &str) -> &mut u64 {
        match key {
            "fuel_per_turn" => &mut self.fuel_per_turn,
            "fuel_per_game" => &mut self.fuel_per_game,
            "memory_bytes" => &mut self.memory_bytes,
            "wall_clock_ms_per_turn" => &mut self.wall_clock_ms_per_turn,
            _ => &mut self.build_timeout_secs,
        }
    }

    /// These caps with the ones `overrides` sets instead (`file`: the config file's, else the
    /// flags'); each must be in the range the sandbox accepts for its setting.
    fn overridden(
        mut self,
        overrides: &CapOverrides,
        file: Option<&Path>,
    ) -> Result<LimitCaps, CapsError> {
        for capped in &CAPPED {
            let Some(value) = overrides.get(capped.key) else { continue };
            if !(capped.min..=capped.max).contains(&value) {
                return Err(CapsError::OutOfRange {
                    what: file.map_or_else(
                        || capped.flag.to_owned(),
                        |file| format!("{} [caps]", file.display()),
                    ),
                    key: capped.key,
                    value,
                    min: capped.min,
                    max: capped.max,
                });
            }
            *self.slot(capped.key) = value;
        }
        Ok(self)
    }

    /// The user's caps: the defaults, then the user's config file ([`config_path`], when it
    /// exists), then `flags`.
    pub fn for_user(flags: &CapOverrides) -> Result<LimitCaps, CapsError> {
        LimitCaps::from_layers(config_path(), flags)
    }

    /// [`LimitCaps::for_user`] with the config file's place given.
    fn from_layers(
        file: Option<(PathBuf, bool)>,
        flags: &CapOverrides,
    ) -> Result<LimitCaps, CapsError> {
        let mut caps = LimitCaps::default();
        if let Some((path, named)) = file {
            let config = read_config(&path, named)?;
            caps = caps.overridden(&config.caps, Some(&path))?;
            caps.config_file = Some(path);
        }
        caps.overridden(flags, None)
    }

    /// The sandbox limits of a project's limits table (`[limits]`, `[package.metadata.botlens.
    /// limits]`): the defaults overridden by the table, each setting it names at most its cap,
    /// each it leaves out the default or the cap, whichever is lower. The error says what is
    /// wrong (for the caller to name the file and table).
    pub fn limits(&self, table: &toml::Table) -> Result<SandboxLimits, String> {
        let mut limits: SandboxLimits =
            table.clone().try_into().map_err(|e: toml::de::Error| e.message().to_owned())?;
        limits.check()?;
        for (capped, value) in CAPPED.iter().zip(sandbox_fields(&mut limits)) {
            let cap = self.get(capped.key);
            if !table.contains_key(capped.key) {
                *value = (*value).min(cap);
            } else if *value > cap {
                return Err(self.above(capped, *value));
            }
        }
        Ok(limits)
    }

    /// The build timeout of a project that asks for `asked` seconds (`None`: botlens's
    /// default), at most its cap; the error says why not.
    pub fn build_timeout(&self, asked: Option<u64>) -> Result<u64, String> {
        let capped = CAPPED.iter().find(|c| c.key == "build_timeout_secs").expect("capped");
        match asked {
            Some(asked) if asked > self.build_timeout_secs => Err(self.above(capped, asked)),
            Some(asked) => Ok(asked),
            None => Ok(crate::build::DEFAULT_BUILD_TIMEOUT.as_secs().min(self.build_timeout_secs)),
        }
    }

    /// What a project asking for `value` of `capped` is told.
    fn above(&self, capped: &Capped, value: u64) -> String {
        let file = self
            .config_file
            .as_ref()
            .map_or_else(|| "botlens's config file".to_owned(), |file| file.display().to_string());
        format!(
            "{key} = {value} is above the cap of {cap} the user allows (docs/limits.md); to run \
             this project as it asks, raise the cap with `{flag} {value}` or `{key} = {value}` \
             under [caps] in {file}",
            key = capped.key,
            cap = self.get(capped.key),
            flag = capped.flag,
        )
    }
}

/// The sandbox limits' capped fields, in the order of [`CAPPED`] (all but the build timeout).
fn sandbox_fields(limits: &mut SandboxLimits) -> [&mut u64; 4] {
    [
        &mut limits.fuel_per_turn,
        &mut limits.fuel_per_game,
        &mut limits.memory_bytes,
        &mut limits.wall_clock_ms_per_turn,
    ]
}

/// The user's config file: the one `BOTLENS_CONFIG` names (and `true`: it must exist), else
/// `config.toml` in `$XDG_CONFIG_HOME/botlens`, else in `~/.config/botlens`; `None` when none of
/// these is set.
pub fn config_path() -> Option<(PathBuf, bool)> {
    config_path_from(&|name| std::env::var_os(name))
}

/// [`config_path`] with the environment given.
fn config_path_from(env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Option<(PathBuf, bool)> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(named) = var(CONFIG_VAR) {
        return Some((named, true));
    }
    var("XDG_CONFIG_HOME")
        .or_else(|| var("HOME").map(|home| home.join(".config")))
        .map(|dir| (dir.join("botlens").join(CONFIG_FILE), false))
}

/// The config file at `path`; a missing one is the defaults unless it was `named`.
fn read_config(path: &Path, named: bool) -> Result<UserConfig, CapsError> {
    let text = match botlens_files::read_text(path, CONFIG_LIMIT) {
        Ok(text) => text,
        Err(botlens_files::ReadError::Io(io))
            if !named && io.kind() == std::io::ErrorKind::NotFound =>
        {
            return Ok(UserConfig::default());
        }
        Err(error) => return Err(CapsError::Read { path: path.to_owned(), error }),
    };
    toml::from_str(&text).map_err(|error: toml::de::Error| CapsError::Malformed {
        path: path.to_owned(),
        message: error.to_string().trim_end().to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> toml::Table {
        text.parse().unwrap()
    }

    #[test]
    fn a_project_lowers_its_limits_freely_and_raises_them_only_to_the_caps() {
        let caps = LimitCaps::default();
        assert_eq!(caps.limits(&table("")).unwrap(), SandboxLimits::default());
        let lower = caps.limits(&table("fuel_per_turn = 10_000\nmemory_bytes = 65536")).unwrap();
        assert_eq!((lower.fuel_per_turn, lower.memory_bytes), (10_000, 65_536));
        let at_cap = caps.limits(&table("wall_clock_ms_per_turn = 60000")).unwrap();
        assert_eq!(at_cap.wall_clock_ms_per_turn, 60_000);
        let refused = |text: &str| caps.limits(&table(text)).unwrap_err();
        assert_eq!(
            refused("wall_clock_ms_per_turn = 3600000\nfuel_per_turn = 9223372036854775807"),
            "fuel_per_turn = 9223372036854775807 is above the cap of 4000000000 the user allows \
             (docs/limits.md); to run this project as it asks, raise the cap with \
             `--max-fuel-per-turn 9223372036854775807` or `fuel_per_turn = 9223372036854775807` \
             under [caps] in botlens's config file"
        );
        assert!(refused("memory_bytes = 4294967296").starts_with(
            "memory_bytes = 4294967296 is above the cap of 1073741824 the user allows"
        ));
        assert!(
            refused("wall_clock_ms_per_turn = 3600000").contains("--max-wall-clock-ms-per-turn")
        );
        assert!(refused("fuel_per_game = 100000000001").contains("`--max-fuel-per-game"));
        assert_eq!(refused("stack_bytes = 1"), "stack_bytes = 1 is out of range 65536..=1048576");
        assert_eq!(
            refused("fuel = 1"),
            "unknown field `fuel`, expected one of `fuel_per_turn`, `fuel_per_game`, `memory_bytes`, `stack_bytes`, `output_bytes_per_turn`, `output_lines_per_turn`, `wall_clock_ms_per_turn`"
        );
    }

    #[test]
    fn a_cap_below_the_default_lowers_what_a_project_leaves_out() {
        let flags = CapOverrides {
            memory_bytes: Some(1 << 20),
            build_timeout_secs: Some(60),
            ..CapOverrides::default()
        };
        let caps = LimitCaps::default().overridden(&flags, None).unwrap();
        assert_eq!(caps.limits(&table("")).unwrap().memory_bytes, 1 << 20);
        assert!(caps.limits(&table("memory_bytes = 2097152")).is_err());
        assert_eq!(caps.build_timeout(None), Ok(60));
        assert_eq!(caps.build_timeout(Some(5)), Ok(5));
        assert!(
            caps.build_timeout(Some(61))
                .unwrap_err()
                .starts_with("build_timeout_secs = 61 is above the cap of 60 the user allows")
        );
        assert_eq!(LimitCaps::default().build_timeout(None), Ok(600));
        let zero = CapOverrides { fuel_per_turn: Some(5), ..CapOverrides::default() };
        assert_eq!(
            LimitCaps::default().overridden(&zero, None).unwrap_err().to_string(),
            "--max-fuel-per-turn: the cap fuel_per_turn = 5 is out of range 10000..=18446744073709551615"
        );
    }

    #[test]
    fn the_layers_are_the_defaults_then_the_users_file_then_the_flags() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        std::fs::write(&file, "[caps]\nfuel_per_turn = 20_000\nmemory_bytes = 131072\n").unwrap();
        let flags = CapOverrides { memory_bytes: Some(65_536), ..CapOverrides::default() };
        let caps = LimitCaps::from_layers(Some((file.clone(), false)), &flags).unwrap();
        assert_eq!((caps.fuel_per_turn, caps.memory_bytes), (20_000, 65_536));
        assert_eq!(caps.fuel_per_game, LimitCaps::default().fuel_per_game);
        assert!(
            caps.limits(&table("fuel_per_turn = 20001")).unwrap_err().ends_with(&format!(
                "or `fuel_per_turn = 20001` under [caps] in {}",
                file.display()
            ))
        );
        let missing = dir.path().join("none.toml");
        assert!(LimitCaps::from_layers(Some((missing.clone(), false)), &flags).is_ok());
        let error = LimitCaps::from_layers(Some((missing.clone(), true)), &flags).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(&format!("cannot read botlens's config file {}: ", missing.display()))
        );
        std::fs::write(&file, "[caps]\nfuel_per_turn = 1\n").unwrap();
        let error = LimitCaps::from_layers(Some((file.clone(), false)), &flags).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "{} [caps]: the cap fuel_per_turn = 1 is out of range 10000..=18446744073709551615",
                file.display()
            )
        );
        std::fs::write(&file, "[caps]\nfuel = 1\n").unwrap();
        let error = LimitCaps::from_layers(Some((file.clone(), false)), &flags).unwrap_err();
        assert!(error.to_string().contains("unknown field `fuel`"), "{error}");
        assert!(error.to_string().contains("line 2"), "{error}");
    }

    #[test]
    fn the_config_file_is_found_where_the_environment_says() {
        let path = |vars: &[(&str, &str)]| {
            let vars: Vec<(String, String)> =
                vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
            config_path_from(&|name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.into()))
        };
        let all = [("BOTLENS_CONFIG", "/c.toml"), ("XDG_CONFIG_HOME", "/x"), ("HOME", "/h")];
        assert_eq!(path(&all), Some(("/c.toml".into(), true)));
        assert_eq!(path(&all[1..]), Some(("/x/botlens/config.toml".into(), false)));
        assert_eq!(path(&all[2..]), Some(("/h/.config/botlens/config.toml".into(), false)));
        assert_eq!(path(&[]), None);
    }
}

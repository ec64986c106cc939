//! Bot projects: a Cargo package whose `Cargo.toml` has a `[package.metadata.botlens]` table
//! (a Rust bot, [`crate::toolchain::rust`]). For the language server a bot folder with a
//! `botlens.toml` (any other language) is read into the same [`BotProject`] too
//! ([`crate::toolchain::load_project`]).
//!
//! ```toml
//! [package.metadata.botlens]
//! game = "battleships"                 # a game of the registry: botlens_games::GameKind::names
//! opponents = ["random", "hunter"]     # by default every reference opponent of the game
//! seeds = "0..100"                     # by default 0..100 (100 seeds)
//! max_turns = 400                      # by default the game's own cap (at most 100,000)
//! build_timeout_secs = 600             # by default ten minutes
//!
//! [package.metadata.botlens.limits]    # sandbox limits; see `botlens_sandbox::SandboxLimits`
//! fuel_per_turn = 50_000_000
//! ```
//!
//! Configuration layers, later ones winning: the game's defaults → this table → command-line
//! flags (`--vs`, `--seeds`).
//!
//! Not for: building (see [`crate::build`]) or running (see `botlens-harness`).

use std::path::{Path, PathBuf};

use botlens_games::{GameKind, UnknownGame};
use serde::Deserialize;

use crate::settings::SuiteSettings;

/// The `[package.metadata.botlens]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotConfig {
    /// The game the bot plays.
    pub game: String,
    /// Opponents, seeds, turn cap and sandbox limits.
    #[serde(flatten)]
    pub suite: SuiteSettings,
    /// Seconds a build may take; by default [`DEFAULT_BUILD_TIMEOUT`](crate::build::DEFAULT_BUILD_TIMEOUT).
    #[serde(default)]
    pub build_timeout_secs: Option<u64>,
}

impl crate::settings::SettingsTable for BotConfig {
    const OWN_KEYS: &'static [&'static str] = &["game", "build_timeout_secs"];

    fn check_own<'de, D: serde::Deserializer<'de>>(key: &str, value: D) -> Result<(), D::Error> {
        match key {
            "build_timeout_secs" => u64::deserialize(value).map(drop),
            _ => String::deserialize(value).map(drop),
        }
    }
}

/// A bot project on disk.
#[derive(Debug, Clone)]
pub struct BotProject {
    /// The directory holding `Cargo.toml`.
    pub root: PathBuf,
    /// The Cargo package name (also the bot's display name).
    pub name: String,
    /// The game, resolved from `config.game`.
    pub game: GameKind,
    /// The botlens table.
    pub config: BotConfig,
}

/// Why a directory is not a usable bot project.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    /// No `Cargo.toml` where one was expected.
    #[error(
        "{0} is not a bot project: no Cargo.toml there (create one with `botlens new <game> <dir>`)"
    )]
    NoManifest(PathBuf),
    /// `Cargo.toml` could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The manifest path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// `Cargo.toml` is not valid TOML or the botlens table is malformed.
    #[error("{path}: {message}")]
    Malformed {
        /// The manifest path.
        path: PathBuf,
        /// What is wrong, with line and column when known.
        message: String,
    },
    /// `Cargo.toml` is a link out of the project, not a regular file, or too large
    /// ([`crate::own_files`]).
    #[error(transparent)]
    File(#[from] crate::own_files::FileError),
    /// A Cargo package without botlens metadata.
    #[error(
        "{0} has no [package.metadata.botlens] table; add one naming the game, e.g.\n\n[package.metadata.botlens]\ngame = \"battleships\""
    )]
    NotABot(PathBuf),
    /// The metadata names a game botlens does not have.
    #[error("{path}: {source}")]
    UnknownGame {
        /// The manifest path.
        path: PathBuf,
        /// The name given, and the games there are.
        source: UnknownGame,
    },
}

#[derive(Deserialize)]
struct Manifest {
    package: Option<Package>,
}

#[derive(Deserialize)]
struct Package {
    name: String,
    #[serde(default)]
    metadata: Option<Metadata>,
}

#[derive(Deserialize)]
struct Metadata {
    botlens: Option<toml::Value>,
}

impl BotProject {
    /// Reads the project whose `Cargo.toml` is in `root`. The project's root is kept as an
    /// absolute path, so builds, traces and editors agree on file names.
    pub fn load(root: &Path) -> Result<BotProject, ProjectError> {
        let path = root.join("Cargo.toml");
        if !path.is_file() {
            return Err(ProjectError::NoManifest(root.to_path_buf()));
        }
        let root = &root
            .canonicalize()
            .map_err(|source| ProjectError::Read { path: root.into(), source })?;
        let path = root.join("Cargo.toml");
        let limit = crate::own_files::MAX_SETTINGS_BYTES;
        let text = crate::own_files::read_text(root, &path, limit)?;
        Self::parse(root, &path, &text)
    }

    fn parse(root: &Path, path: &Path, text: &str) -> Result<BotProject, ProjectError> {
        let malformed = |message: String| ProjectError::Malformed { path: path.into(), message };
        let manifest: Manifest = toml::from_str(text).map_err(|e| malformed(toml_message(&e)))?;
        let package = manifest.package.ok_or_else(|| ProjectError::NotABot(path.into()))?;
        let table = package
            .metadata
            .and_then(|m| m.botlens)
            .ok_or_else(|| ProjectError::NotABot(path.into()))?;
        let bad =
            |e: toml::de::Error| malformed(format!("[package.metadata.botlens]: {}", e.message()));
        crate::settings::check_keys::<BotConfig, _>(table.clone()).map_err(bad)?;
        let config: BotConfig = table.try_into().map_err(bad)?;
        let game: GameKind = config
            .game
            .parse()
            .map_err(|source| ProjectError::UnknownGame { path: path.into(), source })?;
        Ok(BotProject { root: root.to_path_buf(), name: package.name, game, config })
    }
}

fn toml_message(error: &toml::de::Error) -> String {
    error.to_string().trim_end().replace('\n', "\n  ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SeedRange;

    fn parse(text: &str) -> Result<BotProject, ProjectError> {
        BotProject::parse(Path::new("/bot"), Path::new("/bot/Cargo.toml"), text)
    }

    #[test]
    fn reads_the_botlens_table_with_defaults() {
        let project = parse(
            "[package]\nname = \"sinker\"\n[package.metadata.botlens]\ngame = \"battleships\"\nopponents = [\"hunter\"]\n",
        )
        .unwrap();
        assert_eq!(project.name, "sinker");
        assert_eq!(project.game, GameKind::Battleships);
        assert_eq!(project.config.suite.opponents, vec!["hunter"]);
        assert_eq!(project.config.suite.seeds, SeedRange::default_suite());
    }

    #[test]
    fn every_key_of_the_table_is_read() {
        let project = parse(
            "[package]\nname = \"x\"\n[package.metadata.botlens]\ngame = \"tictactoe\"\n\
             build_timeout_secs = 5\nopponents = [\"perfect\"]\nseeds = \"2..4\"\nmax_turns = 9\n\
             [package.metadata.botlens.limits]\nfuel_per_turn = 7\n",
        )
        .unwrap();
        let config = project.config;
        assert_eq!((config.game.as_str(), config.build_timeout_secs), ("tictactoe", Some(5)));
        assert_eq!(config.suite.opponents, ["perfect"]);
        assert_eq!(
            (config.suite.seeds, config.suite.max_turns),
            ("2..4".parse().unwrap(), Some(9))
        );
        assert_eq!(config.suite.limits["fuel_per_turn"].as_integer(), Some(7));
        assert_eq!(config.suite.opponents_of(GameKind::TicTacToe), ["perfect"]);
        let defaults =
            parse("[package]\nname = \"x\"\n[package.metadata.botlens]\ngame = \"klotski\"\n")
                .unwrap()
                .config;
        assert_eq!(
            defaults.suite.opponents_of(GameKind::Klotski),
            GameKind::Klotski.default_opponents()
        );
        assert_eq!((defaults.build_timeout_secs, defaults.suite.max_turns), (None, None));
        assert!(defaults.suite.limits.is_empty());
    }

    #[test]
    fn bad_manifests_get_clear_errors() {
        let no_table = parse("[package]\nname = \"x\"\n").unwrap_err().to_string();
        assert!(no_table.contains("no [package.metadata.botlens] table"), "{no_table}");
        let unknown =
            parse("[package]\nname = \"x\"\n[package.metadata.botlens]\ngame = \"chess\"\n")
                .unwrap_err()
                .to_string();
        let listed = "Cargo.toml: unknown game `chess` (known: battleships, tictactoe, klotski)";
        assert!(unknown.ends_with(listed), "{unknown}");
        let typo = parse(
            "[package]\nname = \"x\"\n[package.metadata.botlens]\ngame = \"klotski\"\nsedes = \"1\"\n",
        )
        .unwrap_err()
        .to_string();
        let expected = "[package.metadata.botlens]: unknown field `sedes`, expected one of `game`, \
            `build_timeout_secs`, `opponents`, `seeds`, `max_turns`, `limits`";
        assert!(typo.ends_with(expected), "{typo}");
        let broken = parse("[package\nname = 1").unwrap_err().to_string();
        assert!(broken.contains("line 1"), "{broken}");
        let seeds = parse(
            "[package]\nname = \"x\"\n[package.metadata.botlens]\ngame = \"klotski\"\nseeds = \"9..2\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(seeds.contains("bad seed range"), "{seeds}");
    }
}

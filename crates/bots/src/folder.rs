//! Bot folders: a bot in a language botlens builds from a folder of sources (JavaScript, C, Zig,
//! AssemblyScript: [`crate::toolchain`]'s folder languages), with an optional `botlens.toml`,
//! and what every such language shares — the settings file, the game, the sandbox limits, the
//! sources' UTF-8 check and the errors.
//!
//! ```toml
//! # botlens.toml, beside the bot's sources
//! game = "battleships"                 # without it, --game, else the game whose move it calls
//! lang = "c"                           # "js", "c", "zig" or "assemblyscript"; by default the sources say
//! bot = "bot.js"                       # JavaScript: by default the folder's only .js file
//! opponents = ["random", "hunter"]     # by default every reference opponent of the game
//! seeds = "0..100"                     # by default 0..100
//! max_turns = 400                      # by default the game's own cap
//!
//! [limits]                             # sandbox limits; see `botlens_sandbox::SandboxLimits`
//! fuel_per_turn = 50_000_000
//! ```
//!
//! A bot may also be one source file (`bot.c`, `mine.ts`): the bot alone, the `botlens.toml`
//! of its folder its settings, built and cached as a folder's (`BotPath`).
//!
//! Which language a folder is, and what its `lang` may name, the table of languages says
//! ([`crate::toolchain::Lang::detect`]). A folder with a `Cargo.toml` is a Rust project instead
//! ([`crate::project`]).
//!
//! Not for: building or running (see [`crate::toolchain`] and `botlens-harness`'s `pipeline`).

use std::path::{Path, PathBuf};

use botlens_games::GameKind;
use botlens_sandbox::SandboxLimits;
use serde::Deserialize;

use crate::build::CompilerMessage;
use crate::caps::LimitCaps;
use crate::own_files::{Budget, FileError};
use crate::settings::SuiteSettings;

/// The name of a bot folder's settings file.
pub const CONFIG_FILE: &str = "botlens.toml";

/// The Debian packages clang needs to build C for WebAssembly (C bots, and the JavaScript
/// runner), as `apt-get install` takes them.
pub const PACKAGES: &str = "clang lld wasi-libc libclang-rt-dev-wasm32";

/// `botlens.toml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FolderConfig {
    /// The game the bot plays.
    #[serde(default)]
    pub game: Option<String>,
    /// The bot's language (`js`, `c`, `zig`, `assemblyscript`: a folder language of
    /// [`crate::toolchain`], which checks it); by default its sources say.
    #[serde(default)]
    pub lang: Option<String>,
    /// The bot's file, relative to the folder (JavaScript).
    #[serde(default)]
    pub bot: Option<String>,
    /// Opponents, seeds, turn cap and sandbox limits.
    #[serde(flatten)]
    pub suite: SuiteSettings,
}

impl crate::settings::SettingsTable for FolderConfig {
    const OWN_KEYS: &'static [&'static str] = &["game", "lang", "bot"];

    fn check_own<'de, D: serde::Deserializer<'de>>(_: &str, value: D) -> Result<(), D::Error> {
        String::deserialize(value).map(drop)
    }
}

/// A bot folder's settings, read and checked: the game decided, the limits parsed.
#[derive(Debug, Clone)]
pub struct Folder {
    /// The folder, absolute (where `botlens.toml` is, and opponent paths start).
    pub root: PathBuf,
    /// `botlens.toml`, or the defaults without one.
    pub config: FolderConfig,
    /// The game.
    pub game: GameKind,
}

/// Why a bot folder cannot be built or played.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// A file or folder could not be read or written.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// What was being read.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// `botlens.toml` is malformed.
    #[error("{}: {message}", .path.display())]
    Config {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The folder has no source file of its language, or several and no way to choose.
    #[error("{}: {message}", .dir.display())]
    NoBot {
        /// The folder.
        dir: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// No game: neither `--game` nor `botlens.toml` names one, and the bot's calls do not tell
    /// ([`game_of_sources`]).
    #[error(
        "say which game {} plays: --game {choices}, or `game = \"…\"` in a botlens.toml beside it",
        .0.display(),
        choices = GameKind::ALL.map(GameKind::name).join("|")
    )]
    NoGame(PathBuf),
    /// `--game` and `botlens.toml` disagree.
    #[error("{} plays {plays} (its botlens.toml says so), not {asked}", .path.display())]
    WrongGame {
        /// The bot's file or folder.
        path: PathBuf,
        /// The game of `botlens.toml`.
        plays: GameKind,
        /// The game asked for.
        asked: GameKind,
    },
    /// A source is not UTF-8.
    #[error("{}:{line}:{column}: the file is not UTF-8 text ({lang} sources must be UTF-8)", .path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// The line of the first bad byte.
        line: u32,
        /// Its column (in bytes).
        column: u32,
        /// The language, by its title (`C`).
        lang: &'static str,
    },
    /// The tools a build needs are missing.
    #[error("{building} needs {missing}: install it with `{install}`")]
    Toolchain {
        /// What was to be built (`building a C bot`).
        building: &'static str,
        /// What is missing, each with its package.
        missing: String,
        /// The command that installs it.
        install: String,
    },
    /// A language runner's build failed.
    #[error("building botlens's {runner} failed{hint}:\n{output}", hint = if *.needs_clang {
        format!(" (are {PACKAGES} installed? `sudo apt-get install -y {PACKAGES}`)")
    } else {
        String::new()
    })]
    RunnerBuild {
        /// The runner (`JavaScript runner`).
        runner: &'static str,
        /// Whether its build needs the C toolchain for WebAssembly (then a missing package is
        /// the likely cause, and the message names them).
        needs_clang: bool,
        /// The end of the build's output.
        output: String,
    },
    /// The bot's sources do not compile (or link): the compiler's messages, located.
    #[error("the bot does not compile ({} errors)", .0.len())]
    Compile(Vec<CompilerMessage>),
    /// A bundled file could not be unpacked.
    #[error(transparent)]
    Bundle(#[from] crate::bundled::BundleError),
    /// The build was cancelled (a newer save, Ctrl-C); the compiler and what it started were
    /// stopped.
    #[error("the build was cancelled")]
    Cancelled,
    /// The build took longer than its limit (seconds) and was stopped with what it started.
    #[error("the build took longer than {0} s and was stopped")]
    Timeout(u64),
    /// One of the bot's own files could not be read: missing, outside its folder, not a
    /// regular file, or too large ([`crate::own_files`]).
    #[error(transparent)]
    File(#[from] FileError),
}

impl Folder {
    /// The settings of the bot folder `root` (absolute) with its `botlens.toml` read
    /// ([`read_config`]; its `lang` is the table of languages' to check,
    /// [`crate::toolchain::Lang::of_folder_config`]); `asked` is `--game`, `path` the file or
    /// folder the user named (for messages).
    pub fn with_config(
        root: &Path,
        config: FolderConfig,
        asked: Option<GameKind>,
        path: &Path,
    ) -> Result<Folder, FolderError> {
        let config_file = root.join(CONFIG_FILE);
        let bad = |message: String| FolderError::Config { path: config_file.clone(), message };
        let plays = config
            .game
            .as_deref()
            .map(str::parse::<GameKind>)
            .transpose()
            .map_err(|error| bad(error.to_string()))?;
        let game = match (plays, asked) {
            (Some(plays), Some(asked)) if plays != asked => {
                return Err(FolderError::WrongGame { path: path.to_owned(), plays, asked });
            }
            (Some(game), _) | (None, Some(game)) => game,
            (None, None) => return Err(FolderError::NoGame(path.to_owned())),
        };
        Ok(Folder { root: root.to_owned(), config, game })
    }

    /// The bot's sandbox limits: the defaults overridden by `[limits]` of `botlens.toml`, within
    /// the user's `caps`.
    pub fn limits(&self, caps: &LimitCaps) -> Result<SandboxLimits, FolderError> {
        caps.limits(&self.config.suite.limits).map_err(|message| FolderError::Config {
            path: self.root.join(CONFIG_FILE),
            message: format!("[limits]: {message}"),
        })
    }

    /// The opponents to play by default: `opponents` of `botlens.toml`, else the game's.
    pub fn opponents(&self) -> Vec<String> {
        self.config.suite.opponents_of(self.game)
    }
}

/// What a bot's path names, in every language botlens builds: a folder of sources, or one
/// source file (the bot alone, its folder's `botlens.toml` its settings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BotPath {
    /// The folder, absolute: the named one, or the file's.
    pub root: PathBuf,
    /// The named file, absolute; `None` for a folder.
    pub file: Option<PathBuf>,
}

impl BotPath {
    /// The folder or file `path`; a path to nothing is refused.
    pub(crate) fn of(path: &Path) -> Result<BotPath, FolderError> {
        let absolute = std::path::absolute(path)
            .map_err(|source| FolderError::Read { path: path.to_owned(), source })?;
        if absolute.is_dir() {
            return Ok(BotPath { root: absolute, file: None });
        }
        if !absolute.is_file() {
            // A FIFO or a device is named as what it is (opened without blocking, nothing read).
            if let Err(error @ botlens_files::ReadError::NotRegular(_)) =
                botlens_files::read_prefix(&absolute, 0)
            {
                return Err(FileError::Read { path: path.to_owned(), error }.into());
            }
            let source = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
            return Err(FolderError::Read { path: path.to_owned(), source });
        }
        let root = absolute.parent().map_or_else(|| PathBuf::from("/"), Path::to_owned);
        // A file that is a link out of its folder is not the folder's bot (`own_files`).
        botlens_files::inside(&root, &absolute)
            .map_err(|error| FileError::Read { path: absolute.clone(), error })?;
        Ok(BotPath { root, file: Some(absolute) })
    }

    /// The bot's name: the stem of its one file `file` (a JavaScript bot's, or the named file),
    /// but the folder's for `bot.<extension>` or for a bot of several files (`None`).
    pub(crate) fn name(&self, file: Option<&Path>) -> String {
        let stem = file.and_then(Path::file_stem).map(|s| s.to_string_lossy().into_owned());
        match stem {
            Some(stem) if stem != "bot" => stem,
            _ => self.root.file_name().map_or_else(|| "bot".into(), |n| n.to_string_lossy().into()),
        }
    }
}

/// `botlens.toml` of the folder `root`, or the defaults when it has none.
pub fn read_config(root: &Path) -> Result<FolderConfig, FolderError> {
    let config_file = root.join(CONFIG_FILE);
    let limit = crate::own_files::MAX_SETTINGS_BYTES;
    match crate::own_files::read_text(root, &config_file, limit) {
        Ok(text) => {
            let bad = |error: toml::de::Error| FolderError::Config {
                path: config_file.clone(),
                message: error.to_string().trim_end().to_owned(),
            };
            let document = toml::de::Deserializer::parse(&text).map_err(bad)?;
            crate::settings::check_keys::<FolderConfig, _>(document).map_err(bad)?;
            toml::from_str::<FolderConfig>(&text).map_err(bad)
        }
        Err(error) if error.is_not_found() => Ok(FolderConfig::default()),
        Err(error) => Err(error.into()),
    }
}

/// The game whose SDK move call (`attack(…)`, `botlens_attack(…)`: [`botlens_games::Scored::SDK_MOVE`])
/// the sources `texts` make, when they make one game's and no other game's: how a bot without
/// `botlens.toml` or `--game` tells its game. Any identifier followed by `(` counts, so a
/// helper of one's own named like another game's call makes the game the user's to say.
pub fn game_of_sources(texts: &[impl AsRef<str>]) -> Option<GameKind> {
    let calls = |game: GameKind| {
        let call = game.info().sdk_move;
        let prefixed = format!("botlens_{call}");
        texts
            .iter()
            .any(|text| called_names(text.as_ref()).any(|name| name == call || name == prefixed))
    };
    let mut games = GameKind::ALL.into_iter().filter(|game| calls(*game));
    let game = games.next()?;
    games.next().is_none().then_some(game)
}

/// The identifiers in `text` directly followed (spaces aside) by `(`.
fn called_names(text: &str) -> impl Iterator<Item = &str> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut rest = text;
    std::iter::from_fn(move || {
        loop {
            let tail = &rest[rest.find(is_name)?..];
            let (name, after) =
                tail.split_at(tail.find(|c: char| !is_name(c)).unwrap_or(tail.len()));
            rest = after;
            if after.trim_start().starts_with('(') {
                return Some(name);
            }
        }
    })
}

/// The folder's source files of `extension` (`c`), sorted; a file that leads outside the folder
/// (a symbolic link to `/etc/shadow`) is none ([`crate::own_files::listed`]).
pub fn sources(dir: &Path, extension: &str) -> Vec<PathBuf> {
    crate::own_files::listed(dir, extension)
}

/// The contents of the bot's source `file`, read within `budget` (inside the bot's folder, a
/// regular file, bounded: [`crate::own_files`]), refused at its first bad byte when it is not
/// UTF-8 (`lang`, its language's title, says which sources must be).
pub fn read_source(
    budget: &mut Budget,
    file: &Path,
    lang: &'static str,
) -> Result<Vec<u8>, FolderError> {
    let bytes = budget.read(file)?;
    if let Err(error) = std::str::from_utf8(&bytes) {
        let before = &bytes[..error.valid_up_to()];
        let line = before.iter().filter(|b| **b == b'\n').count() as u32 + 1;
        let start = before.iter().rposition(|b| *b == b'\n').map_or(0, |at| at + 1);
        let column = (before.len() - start) as u32 + 1;
        return Err(FolderError::NotUtf8 { path: file.to_owned(), line, column, lang });
    }
    Ok(bytes)
}

/// The command that installs [`PACKAGES`].
pub(crate) fn apt_install() -> String {
    format!("sudo apt-get install -y {PACKAGES}")
}

/// The tools every clang build for WebAssembly needs that are missing from `path` (a `PATH`
/// value) or, for wasi-libc's headers, from `include`: each named with its Debian package.
pub(crate) fn missing_clang_tools(path: &std::ffi::OsStr, include: &Path) -> Vec<&'static str> {
    let mut missing = Vec::new();
    if !on_path(path, "clang") {
        missing.push("clang (package clang)");
    }
    if !on_path(path, "wasm-ld") {
        missing.push("wasm-ld (package lld)");
    }
    if !include.join("stdlib.h").is_file() {
        missing.push("wasi-libc's headers (package wasi-libc)");
    }
    missing
}

/// Whether the program `name` is in a directory of `path` (a `PATH` value).
pub(crate) fn on_path(path: &std::ffi::OsStr, name: &str) -> bool {
    std::env::split_paths(path).any(|dir| dir.join(name).is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SeedRange;

    #[test]
    fn settings_decide_the_game_and_refuse_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let load = |asked| {
            let config = read_config(dir.path())?;
            Folder::with_config(dir.path(), config, asked, dir.path())
        };
        assert!(matches!(load(None).unwrap_err(), FolderError::NoGame(_)));
        assert_eq!(load(Some(GameKind::Klotski)).unwrap().game, GameKind::Klotski);
        std::fs::write(dir.path().join(CONFIG_FILE), "game = \"chess\"\n").unwrap();
        let error = load(None).unwrap_err().to_string();
        assert!(error.ends_with("unknown game `chess` (known: battleships, tictactoe, klotski)"));
        std::fs::write(dir.path().join(CONFIG_FILE), "game = \"tictactoe\"\n").unwrap();
        let folder = load(None).unwrap();
        assert_eq!(folder.opponents(), GameKind::TicTacToe.default_opponents());
        let error = load(Some(GameKind::Battleships)).unwrap_err().to_string();
        assert!(error.ends_with("plays tictactoe (its botlens.toml says so), not battleships"));
    }

    #[test]
    fn the_suite_settings_are_read_with_their_defaults_and_unknown_keys_refused_where_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let suite = read_config(dir.path()).unwrap().suite;
        assert_eq!((suite.seeds, suite.max_turns), (SeedRange::default_suite(), None));
        assert!(suite.opponents.is_empty() && suite.limits.is_empty());
        let text = "game = \"tictactoe\"\nopponents = [\"perfect\"]\nseeds = \"3..5\"\n\
            max_turns = 7\n[limits]\nfuel_per_turn = 9\n";
        std::fs::write(dir.path().join(CONFIG_FILE), text).unwrap();
        let config = read_config(dir.path()).unwrap();
        assert_eq!(config.game.as_deref(), Some("tictactoe"));
        assert_eq!(config.suite.opponents, ["perfect"]);
        assert_eq!(
            (config.suite.seeds, config.suite.max_turns),
            ("3..5".parse().unwrap(), Some(7))
        );
        assert_eq!(config.suite.limits["fuel_per_turn"].as_integer(), Some(9));
        std::fs::write(dir.path().join(CONFIG_FILE), "game = \"tictactoe\"\nsedes = \"1\"\n")
            .unwrap();
        let error = read_config(dir.path()).unwrap_err().to_string();
        let expected = "unknown field `sedes`, expected one of `game`, `lang`, `bot`, `opponents`, \
            `seeds`, `max_turns`, `limits`";
        assert!(error.ends_with(expected), "{error}");
        assert!(error.contains("line 2"), "the error is at the key: {error}");
        std::fs::write(dir.path().join(CONFIG_FILE), "game = \"tictactoe\"\nseeds = [\n").unwrap();
        let error = read_config(dir.path()).unwrap_err().to_string();
        assert!(error.contains("TOML parse error at line 2"), "{error}");
        // A value out of its type's range, in the flattened settings: at the value, not at 1:1.
        let text = "game = \"tictactoe\"\nseeds = \"0..2\"\nmax_turns = 99999999999\n";
        std::fs::write(dir.path().join(CONFIG_FILE), text).unwrap();
        let error = read_config(dir.path()).unwrap_err().to_string();
        assert!(error.contains("TOML parse error at line 3, column 13"), "{error}");
        assert!(error.ends_with("invalid value: integer `99999999999`, expected u32"), "{error}");
    }

    #[test]
    fn a_bot_path_is_a_folder_or_one_file_named_by_its_stem() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("sinker");
        std::fs::create_dir(&folder).unwrap();
        let file = folder.join("mine.c");
        std::fs::write(&file, "").unwrap();
        std::fs::write(folder.join("bot.zig"), "").unwrap();
        let named = BotPath::of(&folder).unwrap();
        assert_eq!(named, BotPath { root: folder.clone(), file: None });
        assert_eq!(named.name(None), "sinker");
        let named = BotPath::of(&file).unwrap();
        assert_eq!(named, BotPath { root: folder.clone(), file: Some(file.clone()) });
        assert_eq!(named.name(Some(&file)), "mine");
        assert_eq!(named.name(Some(&folder.join("bot.zig"))), "sinker");
        let error = BotPath::of(&folder.join("gone.c")).unwrap_err().to_string();
        assert!(error.ends_with("gone.c: no such file"), "{error}");
        let fifo = botlens_files::testing::fifo(&folder, "pipe.js");
        let error = BotPath::of(&fifo).unwrap_err().to_string();
        assert!(error.ends_with("pipe.js: not a regular file (it is a named pipe)"), "{error}");
    }

    #[test]
    fn a_source_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot.c");
        std::fs::write(&file, b"int x;\n/* \xff */\n").unwrap();
        let error = read_source(&mut Budget::new(dir.path()), &file, "C").unwrap_err().to_string();
        assert!(
            error.ends_with("bot.c:2:4: the file is not UTF-8 text (C sources must be UTF-8)"),
            "{error}"
        );
    }

    #[test]
    fn a_game_is_told_by_one_games_sdk_calls_only() {
        let told = |texts: &[&str]| game_of_sources(texts);
        assert_eq!(told(&["var shot = turn.attack(x, y);"]), Some(GameKind::Battleships));
        assert_eq!(told(&["botlens_shot s = botlens_attack (x, y);"]), Some(GameKind::Battleships));
        assert_eq!(told(&["const after = botlens.mark(1, 2);"]), Some(GameKind::TicTacToe));
        assert_eq!(told(&["", "const slid = move(code, dir);"]), Some(GameKind::Klotski));
        // A call of one's own named like another game's leaves the game to the user.
        assert_eq!(told(&["turn.mark(x, y);", "function move(a) {}"]), None);
        // Names that only contain a call's name, and names not called, tell nothing.
        assert_eq!(told(&["reattack(1); var attack = 2; botlens_attacked(3);"]), None);
        assert_eq!(told(&[]), None);
    }
}

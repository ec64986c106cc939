//! Bot folders: a bot in a language botlens builds itself (JavaScript, C, Zig, AssemblyScript), as a folder of
//! sources with an optional `botlens.toml`, and what every such language shares — the settings
//! file, the game, the sandbox limits, the sources' UTF-8 check and the errors.
//!
//! ```toml
//! # botlens.toml, beside the bot's sources
//! game = "battleships"                 # without it, the game comes from --game
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
//! A folder is a C bot when `lang = "c"` says so, or, without `lang`, when it has a `.c` file
//! and no `.js` file; a Zig bot likewise with `.zig` files and neither; an AssemblyScript bot
//! with `.ts` files and none of those; a JavaScript bot when it has a `.js` file (or
//! `lang = "js"`). A folder with
//! a `Cargo.toml` is a Rust project instead ([`crate::project`]).
//!
//! Not for: building or running (see [`crate::toolchain::js`], [`crate::toolchain::c`] and [`crate::pipeline`]).

use std::fmt;
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

/// A language botlens builds a bot folder in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// JavaScript in the old arena's format, run by the bundled runner ([`crate::toolchain::js`]).
    JavaScript,
    /// C with the bundled `botlens.h`, built with clang ([`crate::toolchain::c`]).
    C,
    /// Zig with the bundled `botlens.zig`, built with zig ([`crate::toolchain::zig`]).
    Zig,
    /// AssemblyScript with the bundled `botlens` package, built with asc
    /// ([`crate::toolchain::assemblyscript`]).
    AssemblyScript,
}

impl Lang {
    /// Every language botlens builds, in the order a folder's sources decide it.
    pub const ALL: [Lang; 4] = [Lang::JavaScript, Lang::C, Lang::Zig, Lang::AssemblyScript];

    /// The language's name in `lang = "…"` and `--lang`.
    pub fn name(self) -> &'static str {
        match self {
            Lang::JavaScript => "js",
            Lang::C => "c",
            Lang::Zig => "zig",
            Lang::AssemblyScript => "assemblyscript",
        }
    }

    /// The extension of its source files.
    pub fn extension(self) -> &'static str {
        match self {
            Lang::JavaScript => "js",
            Lang::C => "c",
            Lang::Zig => "zig",
            Lang::AssemblyScript => "ts",
        }
    }

    /// The language of a source file's name (`bot.js`, `bot.c`, `bot.zig`, `bot.ts`), if
    /// botlens builds it.
    pub fn of_file(name: &str) -> Option<Lang> {
        let extension = Path::new(name).extension()?;
        Lang::ALL.into_iter().find(|lang| extension == lang.extension())
    }

    /// The extensions of the files botlens builds, for messages: `.js, .c, .zig or .ts`.
    pub fn extensions() -> String {
        let all = Lang::ALL.map(|lang| format!(".{}", lang.extension()));
        let (last, rest) = all.split_last().expect("there are languages");
        format!("{} or {last}", rest.join(", "))
    }

    /// The language of the bot folder `dir`, or `None` when it is not one: a `Cargo.toml` makes
    /// it a Rust project; else `lang` of its `botlens.toml`, else its sources (`.js` first).
    /// A folder with a `botlens.toml` and no sources is a JavaScript bot, so that the error
    /// says what is missing.
    pub fn of_dir(dir: &Path) -> Option<Lang> {
        if dir.join("Cargo.toml").exists() {
            return None;
        }
        let limit = crate::own_files::MAX_SETTINGS_BYTES;
        let named = crate::own_files::read_text(dir, &dir.join(CONFIG_FILE), limit)
            .ok()
            .and_then(|text| toml::from_str::<toml::Table>(&text).ok())
            .and_then(|table| Some(table.get("lang")?.as_str()?.to_owned()));
        if let Some(lang) = named.and_then(|name| name.parse().ok()) {
            return Some(lang);
        }
        Lang::ALL
            .into_iter()
            .find(|lang| !sources(dir, *lang).is_empty())
            .or_else(|| dir.join(CONFIG_FILE).is_file().then_some(Lang::JavaScript))
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Lang::JavaScript => "JavaScript",
            Lang::C => "C",
            Lang::Zig => "Zig",
            Lang::AssemblyScript => "AssemblyScript",
        })
    }
}

/// `rust`, `js`, `c`: an unknown name, with the known ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language `{0}` (known: js, c, zig, assemblyscript)")]
pub struct UnknownLang(pub String);

impl std::str::FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(name: &str) -> Result<Lang, UnknownLang> {
        match name {
            "js" | "javascript" => Ok(Lang::JavaScript),
            "c" => Ok(Lang::C),
            "zig" => Ok(Lang::Zig),
            "assemblyscript" | "as" => Ok(Lang::AssemblyScript),
            other => Err(UnknownLang(other.to_owned())),
        }
    }
}

/// `botlens.toml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FolderConfig {
    /// The game the bot plays.
    #[serde(default)]
    pub game: Option<String>,
    /// The bot's language (`js`, `c`, `zig`, `assemblyscript`); by default its sources say.
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
    /// No game: neither `--game` nor `botlens.toml` names one.
    #[error(
        "say which game {} plays: --game battleships|tictactoe|klotski, or `game = \"…\"` in a botlens.toml beside it",
        .0.display()
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
        /// The language.
        lang: Lang,
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
    /// The JavaScript runner's build failed.
    #[error(
        "building botlens's JavaScript runner failed (are {PACKAGES} installed? `sudo apt-get install -y {PACKAGES}`):\n{0}"
    )]
    RunnerBuild(String),
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
    /// The settings of the bot folder `root` (absolute); `asked` is `--game`, `path` the file
    /// or folder the user named (for messages).
    pub fn load(root: &Path, asked: Option<GameKind>, path: &Path) -> Result<Folder, FolderError> {
        Folder::with_config(root, read_config(root)?, asked, path)
    }

    /// [`Folder::load`] with `botlens.toml` already read ([`read_config`]).
    pub fn with_config(
        root: &Path,
        config: FolderConfig,
        asked: Option<GameKind>,
        path: &Path,
    ) -> Result<Folder, FolderError> {
        let config_file = root.join(CONFIG_FILE);
        let bad = |message: String| FolderError::Config { path: config_file.clone(), message };
        if let Some(lang) = &config.lang {
            lang.parse::<Lang>().map_err(|error| bad(error.to_string()))?;
        }
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

/// The folder's source files of `lang`, sorted; a file that leads outside the folder (a
/// symbolic link to `/etc/shadow`) is none ([`crate::own_files::listed`]).
pub fn sources(dir: &Path, lang: Lang) -> Vec<PathBuf> {
    crate::own_files::listed(dir, lang.extension())
}

/// The bot `path` names in a language whose bot is one root file (Zig, AssemblyScript), `game`
/// being `--game`: its name, the root file (the named file; in a folder `bot.<extension>`, else
/// its only source of `lang`; absolute) and its settings. `none` says what a bot is when the
/// folder has no source.
pub(crate) fn load_rooted(
    path: &Path,
    game: Option<GameKind>,
    lang: Lang,
    none: String,
) -> Result<(String, PathBuf, Folder), FolderError> {
    let named = BotPath::of(path)?;
    let root = named.root.clone();
    let folder = Folder::load(&root, game, path)?;
    let file = match &named.file {
        Some(file) => file.clone(),
        None => root_file(&root, lang, none)?,
    };
    Ok((named.name(named.file.as_deref()), file, folder))
}

/// The root file of the folder `root` in `lang`: `bot.<extension>`, else its only source.
fn root_file(root: &Path, lang: Lang, none: String) -> Result<PathBuf, FolderError> {
    let no_bot = |message: String| FolderError::NoBot { dir: root.to_owned(), message };
    let main = format!("bot.{}", lang.extension());
    match sources(root, lang).as_slice() {
        [] => Err(no_bot(none)),
        [one] => Ok(one.clone()),
        several => several.iter().find(|f| f.ends_with(&main)).cloned().ok_or_else(|| {
            let ext = lang.extension();
            no_bot(format!("several .{ext} files and no {main}: name the bot's root file {main}"))
        }),
    }
}

/// The contents of the bot's source `file`, read within `budget` (inside the bot's folder, a
/// regular file, bounded: [`crate::own_files`]), refused at its first bad byte when it is not
/// UTF-8.
pub fn read_source(budget: &mut Budget, file: &Path, lang: Lang) -> Result<Vec<u8>, FolderError> {
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
    fn a_folder_is_c_zig_or_javascript_by_its_sources_or_its_lang_key() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Lang::of_dir(dir.path()), None);
        std::fs::write(dir.path().join("bot.ts"), "").unwrap();
        assert_eq!(Lang::of_dir(dir.path()), Some(Lang::AssemblyScript));
        std::fs::write(dir.path().join("bot.zig"), "").unwrap();
        assert_eq!(Lang::of_dir(dir.path()), Some(Lang::Zig));
        std::fs::write(dir.path().join("bot.c"), "").unwrap();
        assert_eq!(Lang::of_dir(dir.path()), Some(Lang::C));
        std::fs::write(dir.path().join("tool.js"), "").unwrap();
        assert_eq!(Lang::of_dir(dir.path()), Some(Lang::JavaScript));
        std::fs::write(dir.path().join(CONFIG_FILE), "lang = \"c\"\n").unwrap();
        assert_eq!(Lang::of_dir(dir.path()), Some(Lang::C));
        std::fs::write(dir.path().join("Cargo.toml"), "").unwrap();
        assert_eq!(Lang::of_dir(dir.path()), None, "a Cargo package is a Rust project");
        assert_eq!("zig".parse::<Lang>(), Ok(Lang::Zig));
        assert_eq!("assemblyscript".parse::<Lang>(), Ok(Lang::AssemblyScript));
        assert_eq!(
            "go".parse::<Lang>().unwrap_err().to_string(),
            "unknown language `go` (known: js, c, zig, assemblyscript)"
        );
    }

    #[test]
    fn settings_decide_the_game_and_refuse_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let load = |asked| Folder::load(dir.path(), asked, dir.path());
        assert!(matches!(load(None).unwrap_err(), FolderError::NoGame(_)));
        assert_eq!(load(Some(GameKind::Klotski)).unwrap().game, GameKind::Klotski);
        std::fs::write(dir.path().join(CONFIG_FILE), "game = \"tictactoe\"\nlang = \"cobol\"\n")
            .unwrap();
        let error = load(None).unwrap_err().to_string();
        assert!(
            error.ends_with("unknown language `cobol` (known: js, c, zig, assemblyscript)"),
            "{error}"
        );
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
        assert_eq!(Lang::of_file("a/mine.ts"), Some(Lang::AssemblyScript));
        assert_eq!(Lang::of_file("bot.zig"), Some(Lang::Zig));
        assert_eq!(Lang::of_file("bot.py"), None);
        assert_eq!(Lang::extensions(), ".js, .c, .zig or .ts");
    }

    #[test]
    fn a_source_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot.c");
        std::fs::write(&file, b"int x;\n/* \xff */\n").unwrap();
        let error =
            read_source(&mut Budget::new(dir.path()), &file, Lang::C).unwrap_err().to_string();
        assert!(
            error.ends_with("bot.c:2:4: the file is not UTF-8 text (C sources must be UTF-8)"),
            "{error}"
        );
    }
}

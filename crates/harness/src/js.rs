//! JavaScript bots, in the old arena's format: a `.js` file, or a folder with one and an
//! optional `botlens.toml`, run by the JavaScript runner (QuickJS compiled to a WebAssembly bot
//! module, `crates/js-runner`) inside the same sandbox as every other bot.
//!
//! ```toml
//! # botlens.toml, beside the bot's .js file
//! game = "battleships"                 # without it, the game comes from --game
//! bot = "bot.js"                       # by default the folder's only .js file
//! opponents = ["random", "hunter"]     # by default every reference opponent of the game
//! seeds = "0..100"                     # by default 0..100
//! max_turns = 400                      # by default the game's own cap
//!
//! [limits]                             # sandbox limits; see `botlens_sandbox::SandboxLimits`
//! fuel_per_turn = 50_000_000
//! ```
//!
//! The runner is built once per botlens build, from the sources bundled in the binary
//! ([`crate::bundled::js_runner`]), into botlens's cache directory: [`runner()`]. Every JavaScript
//! bot is that one compiled module with the bot's source attached
//! ([`botlens_sandbox::BotModule::with_payload`]), so editing a bot needs no build.
//!
//! Not for: playing (see [`crate::pipeline`]).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use botlens_engine::runner::{self, MatchLimits};
use botlens_engine::{Failure, FailureKind, SeedRng, Stream};
use botlens_games::{GameKind, GameVisitor, Scored};
use botlens_sandbox::{BotModule, SandboxLimits};
use serde::Deserialize;

use crate::SeedRange;
use crate::build::CompilerMessage;

/// The name of a JavaScript bot's settings file.
pub const CONFIG_FILE: &str = "botlens.toml";

/// The Debian packages the runner's build needs, as `apt-get install` takes them.
pub const PACKAGES: &str = "clang lld wasi-libc libclang-rt-dev-wasm32";

/// Where Debian's wasi-libc puts its headers and libraries.
const WASI_INCLUDE: &str = "/usr/include/wasm32-wasi";
const WASI_LIB: &str = "/usr/lib/wasm32-wasi";

/// The start of the message the runner gives a syntax error in the bot's source.
const SYNTAX_ERROR: &str = "syntax error: ";

/// `botlens.toml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsConfig {
    /// The game the bot plays.
    #[serde(default)]
    pub game: Option<String>,
    /// The bot's file, relative to the folder.
    #[serde(default)]
    pub bot: Option<String>,
    /// Opponents to play by default.
    #[serde(default)]
    pub opponents: Vec<String>,
    /// Seeds to play by default.
    #[serde(default)]
    pub seeds: SeedRange,
    /// Turn cap; by default the game's.
    #[serde(default)]
    pub max_turns: Option<u32>,
    /// Sandbox limits, passed through to the sandbox as written.
    #[serde(default)]
    pub limits: toml::Table,
}

/// A JavaScript bot on disk.
#[derive(Debug, Clone)]
pub struct JsBot {
    /// The bot's `.js` file, absolute.
    pub file: PathBuf,
    /// Its folder (where `botlens.toml` is, and opponent paths start).
    pub root: PathBuf,
    /// The bot's name: the file's stem, or the folder's name for `bot.js`.
    pub name: String,
    /// The game.
    pub game: GameKind,
    /// `botlens.toml`, or the defaults without one.
    pub config: JsConfig,
}

/// Why a JavaScript bot cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum JsError {
    /// The file or folder could not be read.
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
    /// The folder has no `.js` file, or several and no `bot = …` to choose.
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
        /// The bot's file.
        path: PathBuf,
        /// The game of `botlens.toml`.
        plays: GameKind,
        /// The game asked for.
        asked: GameKind,
    },
    /// The source is not UTF-8.
    #[error("{}:{line}:{column}: the file is not UTF-8 text (JavaScript sources must be UTF-8)", .path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// The line of the first bad byte.
        line: u32,
        /// Its column (in bytes).
        column: u32,
    },
    /// The tools the runner's build needs are missing.
    #[error(
        "building botlens's JavaScript runner (once) needs {missing}: install it with `sudo apt-get install -y {PACKAGES}`"
    )]
    Toolchain {
        /// What is missing.
        missing: String,
    },
    /// The runner's build failed.
    #[error(
        "building botlens's JavaScript runner failed (are {PACKAGES} installed? `sudo apt-get install -y {PACKAGES}`):\n{0}"
    )]
    Build(String),
    /// The bundled runner could not be unpacked.
    #[error(transparent)]
    Bundle(#[from] crate::bundled::BundleError),
}

impl JsBot {
    /// The bot `path` names: a `.js` file, or a folder with one (and maybe `botlens.toml`);
    /// `game` is `--game`.
    pub fn load(path: &Path, game: Option<GameKind>) -> Result<JsBot, JsError> {
        let read = |source| JsError::Read { path: path.to_owned(), source };
        let absolute = std::path::absolute(path).map_err(read)?;
        let (root, named) = if absolute.is_dir() {
            (absolute, None)
        } else {
            let root = absolute.parent().map_or_else(|| PathBuf::from("/"), Path::to_owned);
            (root, Some(absolute))
        };
        let config_file = root.join(CONFIG_FILE);
        let config = match std::fs::read_to_string(&config_file) {
            Ok(text) => toml::from_str::<JsConfig>(&text).map_err(|error| JsError::Config {
                path: config_file.clone(),
                message: error.to_string().trim_end().to_owned(),
            })?,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => JsConfig::default(),
            Err(source) => return Err(JsError::Read { path: config_file, source }),
        };
        let file = match named {
            Some(file) => file,
            None => bot_file(&root, config.bot.as_deref())?,
        };
        if !file.is_file() {
            return Err(read(std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")));
        }
        let plays =
            config.game.as_deref().map(str::parse::<GameKind>).transpose().map_err(|error| {
                JsError::Config { path: config_file, message: error.to_string() }
            })?;
        let game = match (plays, game) {
            (Some(plays), Some(asked)) if plays != asked => {
                return Err(JsError::WrongGame { path: file, plays, asked });
            }
            (Some(game), _) | (None, Some(game)) => game,
            (None, None) => return Err(JsError::NoGame(file)),
        };
        let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let name = match root.file_name() {
            Some(dir) if stem == "bot" => dir.to_string_lossy().into_owned(),
            _ => stem,
        };
        Ok(JsBot { file, root, name, game, config })
    }

    /// What the runner is given: the game's name, the file name failures carry, the source.
    pub fn payload(&self) -> Result<Vec<u8>, JsError> {
        let bytes = std::fs::read(&self.file)
            .map_err(|source| JsError::Read { path: self.file.clone(), source })?;
        if let Err(error) = std::str::from_utf8(&bytes) {
            let before = &bytes[..error.valid_up_to()];
            let line = before.iter().filter(|b| **b == b'\n').count() as u32 + 1;
            let start = before.iter().rposition(|b| *b == b'\n').map_or(0, |at| at + 1);
            let column = (before.len() - start) as u32 + 1;
            return Err(JsError::NotUtf8 { path: self.file.clone(), line, column });
        }
        let mut payload = format!("{}\n{}\n", self.game.name(), self.file.display()).into_bytes();
        payload.extend_from_slice(&bytes);
        Ok(payload)
    }

    /// The bot's sandbox limits: the defaults overridden by `[limits]` of `botlens.toml`.
    pub fn limits(&self) -> Result<SandboxLimits, JsError> {
        let path = self.root.join(CONFIG_FILE);
        let bad = |message: String| JsError::Config { path: path.clone(), message };
        let limits: SandboxLimits = self
            .config
            .limits
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| bad(format!("[limits]: {}", e.message())))?;
        limits.check().map_err(|message| bad(format!("[limits]: {message}")))?;
        Ok(limits)
    }
}

/// Whether `dir` is a JavaScript bot's folder: no `Cargo.toml`, and a `botlens.toml` or a
/// `.js` file.
pub fn is_js_dir(dir: &Path) -> bool {
    !dir.join("Cargo.toml").exists()
        && (dir.join(CONFIG_FILE).is_file() || !js_files(dir).is_empty())
}

/// Whether `name` is a JavaScript file.
pub fn is_js_path(name: &str) -> bool {
    name.ends_with(".js")
}

fn js_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "js"))
        .collect();
    files.sort();
    files
}

/// The folder's bot file: `bot = …` of `botlens.toml`, else its only `.js` file.
fn bot_file(root: &Path, named: Option<&str>) -> Result<PathBuf, JsError> {
    if let Some(named) = named {
        return Ok(root.join(named));
    }
    let no_bot = |message: String| JsError::NoBot { dir: root.to_owned(), message };
    match js_files(root).as_slice() {
        [] => Err(no_bot(
            "no .js file here: a JavaScript bot is a .js file in the arena's format".into(),
        )),
        [one] => Ok(one.clone()),
        several => {
            let names: Vec<String> = several
                .iter()
                .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
                .collect();
            Err(no_bot(format!(
                "several .js files ({}): say which is the bot with `bot = \"…\"` in {CONFIG_FILE}",
                names.join(", ")
            )))
        }
    }
}

/// The compiled runner's file, built first if this build of botlens has not built it yet
/// (once: later calls, in this process or another, find it in the cache). `building` is called
/// before the build starts, which takes a minute or two.
pub fn runner(building: &mut dyn FnMut()) -> Result<PathBuf, JsError> {
    // One build at a time in this process; cargo's own lock serialises processes.
    static BUILDING: Mutex<()> = Mutex::new(());
    let _one = BUILDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = crate::bundled::js_runner()?;
    let wasm = dir.join("target/wasm32-wasip1/release/botlens_js_runner.wasm");
    if wasm.is_file() {
        return Ok(wasm);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let ar = check_toolchain(&path, Path::new(WASI_INCLUDE))?;
    building();
    let sysroot = sysroot(&dir)?;
    let output = Command::new("cargo")
        .args(["build", "--release", "--locked", "--target", "wasm32-wasip1", "--target-dir"])
        .arg(dir.join("target"))
        .current_dir(&dir)
        .env("RQUICKJS_SYS_NO_WASI_SDK", "1")
        .env("CC_wasm32_wasip1", "clang")
        .env("AR_wasm32_wasip1", ar)
        .env("CFLAGS_wasm32_wasip1", format!("--sysroot={}", sysroot.display()))
        .output()
        .map_err(|error| JsError::Build(format!("cannot run cargo: {error}")))?;
    if !output.status.success() || !wasm.is_file() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(JsError::Build(tail.join("\n")));
    }
    Ok(wasm)
}

/// Checks the tools the runner's build needs on `path` (a `PATH` value) and wasi-libc's headers
/// in `include`; returns the archiver's name.
fn check_toolchain(path: &std::ffi::OsStr, include: &Path) -> Result<String, JsError> {
    let on_path = |name: &str| std::env::split_paths(path).any(|dir| dir.join(name).is_file());
    let mut missing = Vec::new();
    if !on_path("clang") {
        missing.push("clang (package clang)");
    }
    if !on_path("wasm-ld") {
        missing.push("wasm-ld (package lld)");
    }
    let ar = std::iter::once("llvm-ar".to_owned())
        .chain((11..=22).rev().map(|version| format!("llvm-ar-{version}")))
        .find(|name| on_path(name));
    if ar.is_none() {
        missing.push("llvm-ar (package llvm, or clang's llvm-ar-NN)");
    }
    if !include.join("stdlib.h").is_file() {
        missing.push("wasi-libc's headers (package wasi-libc)");
    }
    match ar {
        Some(ar) if missing.is_empty() => Ok(ar),
        _ => Err(JsError::Toolchain { missing: missing.join(", ") }),
    }
}

/// A sysroot clang finds Debian's wasi-libc in for `wasm32-wasip1`: links to its headers and
/// libraries under the target names clang looks for.
fn sysroot(dir: &Path) -> Result<PathBuf, JsError> {
    let root = dir.join("sysroot");
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| JsError::Read { path, source }
    };
    std::fs::create_dir_all(root.join("lib")).map_err(io(&root))?;
    for (link, to) in
        [("include", WASI_INCLUDE), ("lib/wasm32-wasip1", WASI_LIB), ("lib/wasm32-wasi", WASI_LIB)]
    {
        let link = root.join(link);
        if std::fs::symlink_metadata(&link).is_err() {
            std::os::unix::fs::symlink(to, &link).map_err(io(&link))?;
        }
    }
    Ok(root)
}

/// The runner with `bot`'s source attached.
pub fn module(runner: &BotModule, bot: &JsBot) -> Result<BotModule, JsError> {
    Ok(runner.with_payload(bot.payload()?))
}

/// A syntax error in the bot's source, as a compiler message (the editor shows it like one),
/// found by starting one game before any is played.
pub fn check(bot: &JsBot, module: &BotModule, limits: &SandboxLimits) -> Option<CompilerMessage> {
    let failure = bot.game.visit(FirstTurn { module, limits })?;
    let message = failure.message.strip_prefix(SYNTAX_ERROR)?;
    let location = failure.location.as_ref();
    let (line, column) = location.map_or((0, 0), |at| (at.line, at.column));
    let headline = format!("SyntaxError: {}", message.lines().next().unwrap_or_default());
    Some(CompilerMessage {
        level: "error".into(),
        rendered: format!("error: {headline}\n  --> {}:{line}:{column}\n", bot.file.display()),
        message: headline,
        code: None,
        file: Some(bot.file.clone()),
        line,
        column,
        end_line: line,
        end_column: column + 1,
    })
}

/// Plays the first turns of one game (seed 0, against the game's first reference player) and
/// returns the bot's failure, if it failed.
struct FirstTurn<'a> {
    module: &'a BotModule,
    limits: &'a SandboxLimits,
}

impl GameVisitor for FirstTurn<'_> {
    type Output = Option<Failure>;

    fn visit<G: Scored>(self) -> Option<Failure> {
        let config = G::Config::default();
        let mut bot = self.module.player::<G>(0, 0, self.limits);
        let limits = MatchLimits { max_turns: Some(2) };
        let record = if G::new(&config, 0).seats() == 1 {
            runner::play_match::<G>(&config, 0, &mut [&mut bot], &limits)
        } else {
            let reference = G::reference_players().first()?;
            let mut other = (reference.create)(SeedRng::new(0, Stream::Player(1)));
            runner::play_match::<G>(&config, 0, &mut [&mut bot, other.as_mut()], &limits)
        };
        let fault = record.outcome.fault.filter(|fault| fault.seat == 0)?;
        (fault.failure.kind == FailureKind::Panic).then_some(fault.failure)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_toolchain_names_the_packages() {
        let empty = tempfile::tempdir().unwrap();
        let error = check_toolchain(empty.path().as_os_str(), empty.path()).unwrap_err();
        let text = error.to_string();
        for part in ["clang (package clang)", "package lld", "llvm-ar", "package wasi-libc"] {
            assert!(text.contains(part), "{text}");
        }
        assert!(text.contains(&format!("apt-get install -y {PACKAGES}")), "{text}");
    }

    #[test]
    fn a_folder_finds_its_bot_and_game_and_refuses_ambiguity() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.js"), "function Bot() {}").unwrap();
        let error = JsBot::load(dir.path(), None).unwrap_err();
        assert!(matches!(error, JsError::NoGame(_)), "{error}");
        let bot = JsBot::load(dir.path(), Some(GameKind::TicTacToe)).unwrap();
        assert_eq!((bot.name.as_str(), bot.game), ("a", GameKind::TicTacToe));
        std::fs::write(dir.path().join("b.js"), "").unwrap();
        let error = JsBot::load(dir.path(), Some(GameKind::TicTacToe)).unwrap_err();
        assert!(error.to_string().contains("several .js files (a.js, b.js)"), "{error}");
        std::fs::write(dir.path().join(CONFIG_FILE), "game = \"battleships\"\nbot = \"b.js\"\n")
            .unwrap();
        let bot = JsBot::load(dir.path(), None).unwrap();
        assert_eq!(
            (bot.file.file_name().unwrap().to_str(), bot.game),
            (Some("b.js"), GameKind::Battleships)
        );
        let error = JsBot::load(dir.path(), Some(GameKind::Klotski)).unwrap_err();
        assert!(error.to_string().contains("plays battleships"), "{error}");
        std::fs::write(dir.path().join(CONFIG_FILE), "gmae = 1\n").unwrap();
        let error = JsBot::load(dir.path(), None).unwrap_err();
        assert!(error.to_string().contains("unknown field `gmae`"), "{error}");
    }

    #[test]
    fn a_source_that_is_not_utf8_is_refused_at_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot.js");
        std::fs::write(&file, b"// ok\nvar s = '\xff';\n").unwrap();
        let bot = JsBot::load(&file, Some(GameKind::TicTacToe)).unwrap();
        let error = bot.payload().unwrap_err();
        assert!(
            error.to_string().ends_with(
                "bot.js:2:10: the file is not UTF-8 text (JavaScript sources must be UTF-8)"
            ),
            "{error}"
        );
        std::fs::write(&file, "function Bot() {}").unwrap();
        let payload = String::from_utf8(bot.payload().unwrap()).unwrap();
        assert_eq!(payload, format!("tictactoe\n{}\nfunction Bot() {{}}", file.display()));
    }
}

//! Bots a language runner plays (JavaScript, Python): a source file, or a folder with one and
//! an optional `botlens.toml` (the settings every bot folder shares, [`crate::folder`]; `bot = …`
//! names the file when the folder has several). The runner is an interpreter compiled to a
//! WebAssembly bot module, built once into the cache; every bot of the language is that one
//! module with the bot's source attached ([`botlens_sandbox::BotModule::with_payload`]), so
//! editing a bot needs no build, and a syntax error comes back from the first turn of a game
//! as a compile error before any game is played ([`check`]).
//!
//! Each runner language describes itself in a [`Script`]; its row of [`super::TOOLCHAINS`]
//! loads its bots here.
//!
//! Not for: playing (see `botlens-harness`'s `pipeline`).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use botlens_engine::runner::{self, MatchLimits};
use botlens_engine::{Failure, FailureKind, SeedRng, Stream};
use botlens_files::ReadError;
use botlens_games::{GameKind, GameVisitor, Scored};
use botlens_sandbox::{BotModule, Sandbox, SandboxLimits};

use super::Toolchain;
use super::{Bot, BuildFailure, BuildRequest, LoadError, Ready, Settings, Stage};
use crate::CancelToken;
use crate::build::{BuildError, CompilerMessage};
use crate::folder::{CONFIG_FILE, Folder, FolderError};

/// The start of the message a runner gives a syntax error in the bot's source.
const SYNTAX_ERROR: &str = "syntax error: ";

/// A language a runner plays: what its bots need of their row.
pub struct Script {
    /// Its row.
    pub toolchain: &'static dyn Toolchain,
    /// Builds the runner (once) and returns its module's file; calls its argument before a
    /// build starts.
    pub runner: fn(&mut dyn FnMut()) -> Result<PathBuf, FolderError>,
    /// What building the runner is, for progress.
    pub setting_up: &'static str,
    /// The compile error of a raw NUL character in the source.
    pub nul: &'static str,
    /// What a folder without a source is told a bot of the language is.
    pub lone_file: &'static str,
    /// The type a syntax error's headline is given (`SyntaxError`); `None` when the runner
    /// names it itself.
    pub error_type: Option<&'static str>,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script").field("toolchain", &self.toolchain.name()).finish_non_exhaustive()
    }
}

/// Loads the bot `path` names as a bot of `script`, for its row's [`Toolchain::load`].
pub fn load(
    script: &'static Script,
    path: &Path,
    game: Option<GameKind>,
) -> Result<Box<dyn Bot>, LoadError> {
    Ok(Box::new(ScriptBot::load(script, path, game)?))
}

/// A bot a runner plays, on disk.
#[derive(Debug, Clone)]
pub struct ScriptBot {
    /// Its language.
    pub script: &'static Script,
    /// The bot's source file, absolute.
    pub file: PathBuf,
    /// The bot's name: the file's stem, or the folder's name for `bot.<extension>`.
    pub name: String,
    /// Its folder's settings (`botlens.toml`, or the defaults without one) and game.
    pub folder: Folder,
}

impl ScriptBot {
    /// The bot `path` names in the language `script`: a source file, or a folder with one (and
    /// maybe `botlens.toml`); `game` is `--game`.
    pub fn load(
        script: &'static Script,
        path: &Path,
        game: Option<GameKind>,
    ) -> Result<ScriptBot, FolderError> {
        let named = crate::folder::BotPath::of(path)?;
        let root = &named.root;
        let config = crate::folder::read_config(root)?;
        let file = match &named.file {
            Some(file) => file.clone(),
            None => bot_file(script, root, config.bot.as_deref())?,
        };
        if let Some(c) = file.to_string_lossy().chars().find(|c| c.is_control()) {
            let message = format!(
                "the bot's path has a control character ({}); the runner names the bot's file in \
                 its stacks and messages, one per line: rename the file or its folders",
                c.escape_unicode()
            );
            return Err(FolderError::NoBot { dir: root.clone(), message });
        }
        if !file.is_file() {
            let source = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
            return Err(FolderError::Read { path: file, source });
        }
        let folder = super::checked_folder(root, config, game, &file)?;
        let name = named.name(Some(&file));
        Ok(ScriptBot { script, file, name, folder })
    }

    /// What the runner is given (`crates/js-runner`, `crates/py-runner`): the game's name and a newline, the length
    /// in bytes of the file name failures carry and a newline, that file name, then the source.
    /// The file name is counted, not ended by a newline, so no name can end early and have the
    /// rest of it read as source.
    pub fn payload(&self) -> Result<Vec<u8>, FolderError> {
        let mut budget = crate::own_files::Budget::new(&self.folder.root);
        let bytes =
            crate::folder::read_source(&mut budget, &self.file, self.script.toolchain.title())?;
        if let Some(at) = bytes.iter().position(|b| *b == 0) {
            return Err(FolderError::Compile(vec![self.raw_nul(&bytes[..at])]));
        }
        let file = self.file.display().to_string();
        let mut payload =
            format!("{}\n{}\n{file}", self.folder.game.name(), file.len()).into_bytes();
        payload.extend_from_slice(&bytes);
        Ok(payload)
    }

    /// The compile error of a raw NUL character after `before` in the source, which the
    /// language's engine cannot read ([`Script::nul`]).
    fn raw_nul(&self, before: &[u8]) -> CompilerMessage {
        let line = before.iter().filter(|b| **b == b'\n').count() as u32 + 1;
        let start = before.iter().rposition(|b| *b == b'\n').map_or(0, |at| at + 1);
        let column = String::from_utf8_lossy(&before[start..]).chars().count() as u32 + 1;
        let message = self.script.nul.to_owned();
        CompilerMessage {
            level: "error".into(),
            rendered: format!("error: {message}\n  --> {}:{line}:{column}\n", self.file.display()),
            message,
            code: None,
            file: Some(self.file.clone()),
            line,
            column,
            end_line: line,
            end_column: column + 1,
        }
    }
}

impl Bot for ScriptBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn settings(&self) -> Settings<'_> {
        Settings::Folder(&self.folder)
    }

    fn source(&self) -> &Path {
        &self.file
    }

    /// The source read and checked (its bounds, a raw NUL) before the runner's first build;
    /// the runner built (once) and loaded with the source attached, which is checked for syntax
    /// errors before any game (reported as compile errors).
    fn build(
        &self,
        sandbox: &Sandbox,
        request: &BuildRequest<'_>,
        progress: &(dyn Fn(Stage) + Sync),
        _cancel: &CancelToken,
    ) -> Result<Ready, BuildFailure> {
        let payload = self.payload()?;
        let started = Instant::now();
        let what = self.script.setting_up;
        let wasm = (self.script.runner)(&mut || progress(Stage::SettingUp { what }))?;
        let build = started.elapsed();
        progress(Stage::Loading);
        let started = Instant::now();
        let runner = super::load_module(sandbox, &wasm).map_err(BuildFailure::Load)?;
        let module = runner.with_payload(payload);
        if let Some(message) = check(self, &module, &request.limits) {
            return Err(BuildError::Compile(vec![message]).into());
        }
        Ok(Ready { module, wasm, warnings: Vec::new(), build, load: started.elapsed() })
    }
}

/// The folder's bot file: `bot = …` of `botlens.toml`, else its only source file. `bot` may
/// name only a file of the folder: an absolute path, a `..` or a symbolic link leading out of
/// it is refused.
fn bot_file(script: &Script, root: &Path, named: Option<&str>) -> Result<PathBuf, FolderError> {
    let extension = script.toolchain.extension();
    if let Some(named) = named {
        return match botlens_files::inside(root, &root.join(named)) {
            Err(ReadError::Outside { .. }) => Err(FolderError::Config {
                path: root.join(CONFIG_FILE),
                message: format!(
                    "bot = \"{}\" leads outside the bot's folder (by an absolute path, `..` or a \
                     symbolic link): name a .{extension} file inside it",
                    botlens_engine::text::clipped(named, 80)
                ),
            }),
            // A missing file is said by the caller, with the path.
            _ => Ok(root.join(named)),
        };
    }
    let no_bot = |message: String| FolderError::NoBot { dir: root.to_owned(), message };
    match crate::folder::sources(root, extension).as_slice() {
        [] => Err(no_bot(format!("no .{extension} file here: {}", script.lone_file))),
        [one] => Ok(one.clone()),
        several => {
            let names: Vec<String> = several
                .iter()
                .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
                .collect();
            Err(no_bot(format!(
                "several .{extension} files ({}): say which is the bot with `bot = \"…\"` in {CONFIG_FILE}",
                names.join(", ")
            )))
        }
    }
}

/// A syntax error in the bot's source, as a compiler message (the editor shows it like one),
/// found by starting one game before any is played.
pub fn check(
    bot: &ScriptBot,
    module: &BotModule,
    limits: &SandboxLimits,
) -> Option<CompilerMessage> {
    let failure = bot.folder.game.visit(FirstTurn { module, limits })?;
    let message = failure.message.strip_prefix(SYNTAX_ERROR)?;
    let location = failure.location.as_ref();
    let (line, column) = location.map_or((0, 0), |at| (at.line, at.column));
    let first = message.lines().next().unwrap_or_default();
    let headline = match bot.script.error_type {
        // The runner names the error's type itself (`IndentationError: …`).
        None => first.to_owned(),
        Some(kind) => format!("{kind}: {first}"),
    };
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

/// The bundled folder of the runners' shared guest crate (`crates/runner-guest`), which every
/// runner depends on by path.
const GUEST: &str = "runner-guest";

/// A language runner as [`build_runner`] builds it.
#[derive(Debug, Clone, Copy)]
pub struct Runner {
    /// What messages call it (`JavaScript runner`).
    pub name: &'static str,
    /// Its bundled folder (`js-runner`).
    pub sdk: &'static str,
    /// The module's file name in its target directory.
    pub wasm: &'static str,
    /// Whether its build needs the C toolchain for WebAssembly.
    pub needs_clang: bool,
}

/// The compiled `runner` in its bundled folder (a cargo workspace of its own,
/// `target/wasm32-wasip1/release/<wasm>`), built first if this build of botlens has not built it
/// yet (once: later calls, in this process or another, find it in the cache). `building` is
/// called before the build starts; `configure` adds the build's own environment.
pub fn build_runner(
    runner: &Runner,
    building: &mut dyn FnMut(),
    configure: &dyn Fn(&mut botlens_confine::Confined),
) -> Result<PathBuf, FolderError> {
    let (sdk, wasm) = (runner.sdk, runner.wasm);
    let failed = |output: String| FolderError::RunnerBuild {
        runner: runner.name,
        needs_clang: runner.needs_clang,
        output,
    };
    // One build at a time in this process; cargo's own lock serialises processes.
    static BUILDING: Mutex<()> = Mutex::new(());
    let _one = BUILDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = crate::bundled::folder(sdk)?;
    let wasm = dir.join("target/wasm32-wasip1/release").join(wasm);
    if wasm.is_file() {
        return Ok(wasm);
    }
    building();
    super::ensure_wasm_target(&mut || {}).map_err(|error| failed(error.to_string()))?;
    let homes = crate::tools::RustHomes::of_user();
    let (manifest, target) = (dir.join("Cargo.toml"), dir.join("target"));
    // The runners' shared guest code, a path dependency beside them, is read too.
    let sources = [dir.clone(), crate::bundled::folder(GUEST)?];
    let build = crate::build::CargoBuild {
        homes: &homes,
        manifest: &manifest,
        sources: &sources,
        target: &target,
    };
    let configure = |cargo: &mut botlens_confine::Confined| {
        cargo.args(["--release", "--locked", "--target", crate::build::WASM_TARGET]);
        configure(cargo);
    };
    let timeout = crate::build::DEFAULT_BUILD_TIMEOUT;
    let built = build.run(&configure, timeout, &crate::CancelToken::new()).map_err(|stopped| {
        failed(match stopped {
            crate::build::Stopped::Failed(error) => error.to_string(),
            crate::build::Stopped::Cancelled => "cancelled".into(),
        })
    })?;
    if !built.status.success() || !wasm.is_file() {
        let stderr = String::from_utf8_lossy(&built.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(failed(tail.join("\n")));
    }
    Ok(wasm)
}

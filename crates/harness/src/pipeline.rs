//! The one road from a [`Target`] to a report: build or load the bot, resolve its opponents,
//! play the suite, summarise it.
//!
//! `botlens run`, `botlens replay`, `botlens watch`, the language server and `botlens bench`
//! all come here. [`run`] is the whole job; it is [`prepare`] (everything up to a [`Suite`]
//! ready to play) followed by [`play`]. Each stage is reported through a progress callback, each
//! can be cancelled, and a failure at any stage comes back as a [`RunError`] naming it.
//!
//! ```no_run
//! use botlens_harness::pipeline::{self, RunOptions};
//! use botlens_harness::{CancelToken, Target};
//!
//! let sandbox = pipeline::sandbox()?;
//! let target = Target::parse("samples/battleships-hunter", None)?;
//! let run = pipeline::run(&sandbox, &target, &RunOptions::default(), &|_| {}, &CancelToken::new())?;
//! print!("{}", run.report.render(&std::env::current_dir()?));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Not for: presenting the report (the CLI, `watch` and the language server do that).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use botlens_engine::MatchLimits;
use botlens_games::GameKind;
use botlens_sandbox::{Sandbox, SandboxConfig, SandboxLimits};

use crate::report::SuiteReport;
use crate::suite::{self, Contender, KeepTraces, PlayOn, Suite, SuiteError, SuiteResults, WasmBot};
use crate::{BotProject, CancelToken, ProjectError, SeedRange};
use botlens_bots::Shard;
use botlens_bots::build::{self, BuildError, CompilerMessage};
use botlens_bots::caps::LimitCaps;
use botlens_bots::folder::{Folder, FolderError};
use botlens_bots::target::{Target, TargetError, is_module_path};
use botlens_bots::toolchain::Built;
pub use botlens_bots::toolchain::Stage;
use botlens_bots::toolchain::{BuildFailure, BuildRequest, Lang, LoadError, Ready, Settings};

/// Overrides of the target's suite (the command line's `--vs`, `--seeds`, …).
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Opponents instead of the project's (reference names, `.wasm` paths, board names).
    pub opponents: Option<Vec<String>>,
    /// Seeds instead of the project's.
    pub seeds: Option<SeedRange>,
    /// Turn cap instead of the project's.
    pub max_turns: Option<u32>,
    /// Worker threads; 0 means one per core.
    pub jobs: usize,
    /// Which traces to keep in the results.
    pub keep_traces: KeepTraces,
    /// A directory to write every game's trace into as the game ends.
    pub trace_dir: Option<PathBuf>,
    /// Play each seed twice, the bot in each seat ([`Suite::paired`]).
    pub paired: bool,
    /// Cargo's target directory for a project's build, instead of its own (see
    /// [`build::build_into`]).
    pub cargo_target_dir: Option<PathBuf>,
    /// A stored game to play on from ([`Suite::play_on`]).
    pub play_on: Option<PlayOn>,
    /// Only these (opponent index in `opponents`, seed) units ([`Suite::only`]).
    pub only: Option<Vec<(usize, u64)>>,
    /// Only this shard of the seeds ([`Suite::shard`]).
    pub shard: Option<Shard>,
    /// How much DWARF a project's build puts in the module (all of it for a debugger).
    pub debug_info: build::DebugInfo,
    /// The user's caps on the limits and the build timeout the project may ask for.
    pub caps: LimitCaps,
    /// The bot's module, built before by this botlens with these options: loaded instead of
    /// building the bot again (the game `botlens debug` hands its debugger, which may not run a
    /// build). The bot's settings are still read from its project or folder.
    pub prebuilt: Option<PathBuf>,
}

impl RunOptions {
    /// The options that re-play one game: `opponent` on `seed`, its trace kept.
    pub fn one_game(opponent: &str, seed: u64) -> RunOptions {
        RunOptions {
            opponents: Some(vec![opponent.to_owned()]),
            seeds: Some(SeedRange::new(seed, seed).expect("one seed is a range")),
            jobs: 1,
            keep_traces: KeepTraces::All,
            ..RunOptions::default()
        }
    }
}

/// How long each stage took.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Timings {
    /// Building the bot (zero for a module, a reference player or a bot built before).
    pub build: Duration,
    /// Loading and compiling the module, and resolving the opponents.
    pub load: Duration,
    /// Playing the suite.
    pub games: Duration,
}

/// A suite ready to play: the target built and loaded, its opponents resolved.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The suite.
    pub suite: Suite,
    /// Compiler warnings of the build (none unless the target is a project).
    pub warnings: Vec<CompilerMessage>,
    /// The module the bot was loaded from, when it is one.
    pub wasm: Option<PathBuf>,
    /// How long building and loading took.
    pub timings: Timings,
}

/// A played suite and its report.
#[derive(Debug, Clone)]
pub struct SuiteRun {
    /// The suite that was played.
    pub suite: Suite,
    /// Every game's result (with the traces [`RunOptions::keep_traces`] asked for).
    pub results: SuiteResults,
    /// The summary, with replay command lines naming the target as it was given.
    pub report: SuiteReport,
    /// Compiler warnings of the build.
    pub warnings: Vec<CompilerMessage>,
    /// The module the bot was loaded from, when it is one.
    pub wasm: Option<PathBuf>,
    /// Stage timings.
    pub timings: Timings,
}

/// Why a run did not produce a report.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// What the user named is not a bot.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// The project directory is not a usable bot project.
    #[error(transparent)]
    Project(#[from] ProjectError),
    /// The project plays another game than `--game` says.
    #[error("{dir} plays {plays}, not {asked}", dir = .dir.display())]
    WrongGame {
        /// The project directory.
        dir: PathBuf,
        /// The project's game.
        plays: GameKind,
        /// The game asked for.
        asked: GameKind,
    },
    /// The build failed (compile errors are in [`BuildError::Compile`]).
    #[error(transparent)]
    Build(BuildError),
    /// The module or an opponent module could not be loaded, or the sandbox could not start.
    #[error("{0}")]
    Load(String),
    /// The suite could not start (unknown opponent, bad limits).
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// The run was cancelled (a newer change, Ctrl-C).
    #[error("run cancelled")]
    Cancelled,
}

/// The process's sandbox, made on first use and shared by every run after it, so modules
/// compiled once stay compiled. Compiled modules are cached on disk in [`module_cache_dir`]
/// when there is one.
pub fn sandbox() -> Result<Sandbox, RunError> {
    static SANDBOX: OnceLock<Result<Sandbox, String>> = OnceLock::new();
    SANDBOX
        .get_or_init(|| {
            Sandbox::new(SandboxConfig { cache_dir: module_cache_dir() }).map_err(|e| e.to_string())
        })
        .clone()
        .map_err(RunError::Load)
}

/// Where compiled modules are cached: `modules/` in botlens's cache directory
/// ([`botlens_bots::bundled::cache_root`]); `None` (no disk cache) when there is none.
pub fn module_cache_dir() -> Option<PathBuf> {
    botlens_bots::bundled::cache_root().map(|root| root.join("modules"))
}

/// Builds or loads `target` and resolves its suite, then plays it: the whole job.
/// `progress` hears about every stage; cancelling stops the build or the suite.
pub fn run(
    sandbox: &Sandbox,
    target: &Target,
    options: &RunOptions,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
) -> Result<SuiteRun, RunError> {
    let prepared = prepare(sandbox, target, options, progress, cancel)?;
    play(prepared, target, progress, cancel)
}

/// Everything before the games: a project is loaded, checked and built, a module loaded, the
/// opponents resolved, the limits checked.
pub fn prepare(
    sandbox: &Sandbox,
    target: &Target,
    options: &RunOptions,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
) -> Result<Prepared, RunError> {
    match target {
        Target::Module { path, game } => {
            progress(Stage::Loading);
            let started = Instant::now();
            let name = path.file_stem().map_or_else(
                || path.display().to_string(),
                |stem| stem.to_string_lossy().into_owned(),
            );
            let source = path.display().to_string();
            let bot = Contender::Wasm(load_wasm(sandbox, path, &name, &source)?);
            let suite = suite_of(sandbox, *game, bot, &Defaults::of(*game)?, options)?;
            let timings = Timings { load: started.elapsed(), ..Timings::default() };
            Ok(Prepared { suite, warnings: Vec::new(), wasm: Some(path.clone()), timings })
        }
        Target::Bot { lang, path, game } => {
            prepare_bot(sandbox, *lang, path, *game, options, progress, cancel)
        }
        Target::Reference { name, game } => {
            let started = Instant::now();
            let bot = Contender::Reference(name.clone());
            let suite = suite_of(sandbox, *game, bot, &Defaults::of(*game)?, options)?;
            let timings = Timings { load: started.elapsed(), ..Timings::default() };
            Ok(Prepared { suite, warnings: Vec::new(), wasm: None, timings })
        }
    }
}

/// A bot in any language: loaded by its toolchain, its settings checked (before the long
/// build, naming the file they are in), built and loaded, its suite resolved.
fn prepare_bot(
    sandbox: &Sandbox,
    lang: Lang,
    path: &Path,
    game: Option<GameKind>,
    options: &RunOptions,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
) -> Result<Prepared, RunError> {
    let bot = lang.load(path, game).map_err(load_error)?;
    let (defaults, timeout_secs) = match bot.settings() {
        Settings::Project(project) => {
            if let Some(asked) = game.filter(|asked| *asked != project.game) {
                return Err(RunError::WrongGame {
                    dir: path.to_owned(),
                    plays: project.game,
                    asked,
                });
            }
            let (defaults, timeout) = Defaults::of_project(project, options)?;
            (defaults, Some(timeout))
        }
        Settings::Folder(folder) => (Defaults::of_folder(folder, options)?, None),
    };
    let request = BuildRequest {
        target_dir: options.cargo_target_dir.as_deref(),
        debug_info: options.debug_info,
        timeout_secs,
        limits: defaults.limits,
    };
    let ready = match &options.prebuilt {
        Some(wasm) => {
            let built =
                Built { wasm: wasm.clone(), warnings: Vec::new(), duration: Duration::ZERO };
            Ready::load(sandbox, built, progress)?
        }
        None => bot.build(sandbox, &request, progress, cancel)?,
    };
    let started = Instant::now();
    let source = bot.source().display().to_string();
    let contender =
        Contender::Wasm(WasmBot { name: bot.name().to_owned(), module: ready.module, source });
    let suite = suite_of(sandbox, bot.settings().game(), contender, &defaults, options)?;
    let load = ready.load + started.elapsed();
    let timings = Timings { build: ready.build, load, games: Duration::ZERO };
    Ok(Prepared { suite, warnings: ready.warnings, wasm: Some(ready.wasm), timings })
}

/// A bot's loading error as a run's.
fn load_error(error: LoadError) -> RunError {
    match error {
        LoadError::Project(error) => RunError::Project(error),
        LoadError::Folder(error) => folder_error(error),
    }
}

impl From<BuildFailure> for RunError {
    fn from(failure: BuildFailure) -> RunError {
        match failure {
            BuildFailure::Cancelled => RunError::Cancelled,
            BuildFailure::Build(error) => RunError::Build(error),
            BuildFailure::Load(message) => RunError::Load(message),
        }
    }
}

/// A bot folder's error as a run's: compile errors as a failed build's, the rest as loading's.
fn folder_error(error: FolderError) -> RunError {
    match error {
        FolderError::Compile(messages) => RunError::Build(BuildError::Compile(messages)),
        FolderError::Cancelled => RunError::Cancelled,
        FolderError::Timeout(seconds) => RunError::Build(BuildError::Timeout(seconds)),
        other => RunError::Load(other.to_string()),
    }
}

/// Plays a prepared suite and reports it; the report's replay lines name `target`.
pub fn play(
    prepared: Prepared,
    target: &Target,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
) -> Result<SuiteRun, RunError> {
    let Prepared { suite, warnings, wasm, mut timings } = prepared;
    let results =
        suite::run_suite(&suite, &|done, total| progress(Stage::Playing { done, total }), cancel)?;
    if results.cancelled {
        return Err(RunError::Cancelled);
    }
    timings.games = results.duration;
    let mut report = SuiteReport::new(&suite, &results, target);
    report.add_fuel_profiles(&suite, crate::fuel::failing_turns(&suite, &results));
    report.add_memory_growth(&suite, crate::fuel::memory_growth(&suite, &results));
    report.add_wasted_sites(&suite, crate::waste::locate(&suite, &results));
    Ok(SuiteRun { suite, results, report, warnings, wasm, timings })
}

/// The suite's settings before the command line's overrides: a project's
/// `[package.metadata.botlens]`, or the game's defaults.
struct Defaults {
    opponents: Vec<String>,
    seeds: SeedRange,
    max_turns: Option<u32>,
    limits: SandboxLimits,
    /// Where opponent module paths start: the project, or the working directory.
    base: PathBuf,
}

impl Defaults {
    fn of(game: GameKind) -> Result<Defaults, RunError> {
        let base = std::env::current_dir()
            .map_err(|e| RunError::Load(format!("the working directory: {e}")))?;
        Ok(Defaults {
            opponents: game.default_opponents(),
            seeds: SeedRange::default(),
            max_turns: None,
            limits: SandboxLimits::default(),
            base,
        })
    }

    /// A bot folder's settings, checked with the command line's before anything is built.
    fn of_folder(folder: &Folder, options: &RunOptions) -> Result<Defaults, RunError> {
        let defaults = Defaults {
            opponents: folder.opponents(),
            seeds: folder.config.suite.seeds,
            max_turns: folder.config.suite.max_turns,
            limits: folder.limits(&options.caps).map_err(folder_error)?,
            base: folder.root.clone(),
        };
        suite::check_turn_cap(defaults.max_turns)?;
        suite::check_turn_cap(options.max_turns)?;
        check_opponents(folder.game, &opponent_names(&defaults, options))?;
        let config = folder.root.join(botlens_bots::folder::CONFIG_FILE);
        check_inside(&folder.root, &folder.config.suite.opponents)
            .map_err(|error| RunError::Load(format!("{}: {error}", config.display())))?;
        Ok(defaults)
    }

    /// A project's settings, checked with the command line's before anything is built, naming
    /// the manifest they are in; and the seconds its build may take, within the user's cap.
    fn of_project(project: &BotProject, options: &RunOptions) -> Result<(Defaults, u64), RunError> {
        let config = &project.config.suite;
        let manifest = project.root.join("Cargo.toml");
        let in_table = |table: &str, error: &dyn std::fmt::Display| {
            RunError::Load(format!("{}: {table}: {error}", manifest.display()))
        };
        let in_manifest = |error: SuiteError| in_table("[package.metadata.botlens]", &error);
        check_inside(&project.root, &config.opponents)
            .map_err(|error| in_table("[package.metadata.botlens]", &error))?;
        let defaults = Defaults {
            opponents: config.opponents_of(project.game),
            seeds: config.seeds,
            max_turns: config.max_turns,
            limits: sandbox_limits(project, &options.caps)?,
            base: project.root.clone(),
        };
        // The build runs as long as the project asks, within the user's cap.
        let timeout = options
            .caps
            .build_timeout(project.config.build_timeout_secs)
            .map_err(|error| in_table("[package.metadata.botlens]", &error))?;
        suite::check_turn_cap(defaults.max_turns).map_err(in_manifest)?;
        suite::check_turn_cap(options.max_turns)?;
        suite::check_paired(project.game, options.paired)?;
        match &options.opponents {
            Some(names) => check_opponents(project.game, names)?,
            None => check_opponents(project.game, &defaults.opponents).map_err(|e| match e {
                RunError::Suite(error) => in_manifest(error),
                other => other,
            })?,
        }
        Ok((defaults, timeout))
    }
}

fn opponent_names(defaults: &Defaults, options: &RunOptions) -> Vec<String> {
    options.opponents.clone().unwrap_or_else(|| defaults.opponents.clone())
}

/// Refuses an opponent module a project's settings name (`opponents`) outside the project's
/// directory `root` (an absolute path, `..`, a symbolic link leading out): a project names only
/// files of its own. A module that does not exist is said when it is loaded.
fn check_inside(root: &Path, opponents: &[String]) -> Result<(), String> {
    for name in opponents.iter().filter(|name| is_module_path(name)) {
        if let Err(botlens_files::ReadError::Outside { .. }) =
            botlens_files::inside(root, &root.join(name))
        {
            return Err(format!(
                "opponents: `{}` leads outside the project (by an absolute path, `..` or a \
                 symbolic link): a project names only modules inside it (name others with --vs)",
                botlens_engine::text::clipped(name, 80)
            ));
        }
    }
    Ok(())
}

/// Refuses unknown reference opponents and boards (modules are checked when loaded).
fn check_opponents(game: GameKind, names: &[String]) -> Result<(), RunError> {
    let references: Vec<String> = names.iter().filter(|n| !is_module_path(n)).cloned().collect();
    Ok(suite::check_references(game, &references)?)
}

fn suite_of(
    sandbox: &Sandbox,
    game: GameKind,
    bot: Contender,
    defaults: &Defaults,
    options: &RunOptions,
) -> Result<Suite, RunError> {
    let opponents = opponent_names(defaults, options)
        .iter()
        .map(|name| contender(sandbox, name, &defaults.base))
        .collect::<Result<_, _>>()?;
    Ok(Suite {
        game,
        bot,
        opponents,
        seeds: options.seeds.unwrap_or(defaults.seeds),
        limits: MatchLimits { max_turns: options.max_turns.or(defaults.max_turns) },
        sandbox_limits: defaults.limits,
        jobs: options.jobs,
        keep_traces: options.keep_traces,
        trace_dir: options.trace_dir.clone(),
        paired: options.paired,
        play_on: options.play_on.clone(),
        only: options.only.clone(),
        shard: options.shard,
    })
}

/// The project's sandbox limits: defaults overridden by `[package.metadata.botlens.limits]`,
/// within the user's `caps`.
fn sandbox_limits(project: &BotProject, caps: &LimitCaps) -> Result<SandboxLimits, RunError> {
    let manifest = project.root.join("Cargo.toml");
    let table = "[package.metadata.botlens.limits]";
    caps.limits(&project.config.suite.limits)
        .map_err(|message| RunError::Load(format!("{}: {table}: {message}", manifest.display())))
}

/// Loads a `.wasm` (or `.wat`) file as a contender named `name`, recording `source` in traces
/// ([`botlens_bots::toolchain::load_module`]: a FIFO or a device is refused first).
fn load_wasm(
    sandbox: &Sandbox,
    path: &Path,
    name: &str,
    source: &str,
) -> Result<WasmBot, RunError> {
    let module = botlens_bots::toolchain::load_module(sandbox, path).map_err(RunError::Load)?;
    Ok(WasmBot { name: name.to_owned(), module, source: source.to_owned() })
}

/// One opponent by name: a module file (relative to `base`, named after its file stem), or a
/// reference player or board name (checked when the suite starts).
fn contender(sandbox: &Sandbox, name: &str, base: &Path) -> Result<Contender, RunError> {
    if !is_module_path(name) {
        return Ok(Contender::Reference(name.to_owned()));
    }
    let path = base.join(name);
    let stem = path.file_stem().map_or(name.to_owned(), |s| s.to_string_lossy().into());
    load_wasm(sandbox, &path, &stem, &path.display().to_string()).map(Contender::Wasm)
}

/// Makes sure the `wasm32-wasip1` target is installed (once per process: later calls are free,
/// [`botlens_bots::toolchain::ensure_wasm_target`]). [`run`] needs no such call: a build that
/// fails for want of the target installs it and builds again; a front end that keeps building
/// (`watch`) may do it up front, to say so before anything else. `installing` is called before a long install, so the user can
/// be told.
pub fn ensure_wasm_target(installing: &mut dyn FnMut()) -> Result<(), RunError> {
    botlens_bots::toolchain::ensure_wasm_target(installing).map_err(RunError::Build)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_target_plays_its_games_defaults_and_names_itself_in_replays() {
        let target = Target::parse("random", Some("tictactoe")).unwrap();
        let options = RunOptions { seeds: Some("0..6".parse().unwrap()), ..RunOptions::default() };
        let sandbox = sandbox().unwrap();
        let played = run(&sandbox, &target, &options, &|_| {}, &CancelToken::new()).unwrap();
        assert_eq!(played.report.games, 12, "random and perfect, six seeds each");
        assert!(played.wasm.is_none() && played.warnings.is_empty());
        let one = RunOptions::one_game("perfect", 3);
        let game = run(&sandbox, &target, &one, &|_| {}, &CancelToken::new()).unwrap();
        let [played] = game.results.kept.as_slice() else { panic!("{:?}", game.results.kept) };
        assert_eq!((played.seed, game.suite.opponents[0].name()), (3, "perfect"));
        assert!(played.trace.is_some(), "the one game's trace is kept");
    }

    #[test]
    fn unknown_opponents_and_a_cancelled_suite_are_errors() {
        let target = Target::parse("hunter", Some("battleships")).unwrap();
        let sandbox = sandbox().unwrap();
        let nobody = RunOptions { opponents: Some(vec!["nobody".into()]), ..RunOptions::default() };
        let error = run(&sandbox, &target, &nobody, &|_| {}, &CancelToken::new()).unwrap_err();
        assert!(error.to_string().contains("no reference player `nobody`"), "{error}");
        let cancel = CancelToken::new();
        cancel.cancel();
        let error = run(&sandbox, &target, &RunOptions::default(), &|_| {}, &cancel).unwrap_err();
        assert!(matches!(error, RunError::Cancelled), "{error}");
    }

    #[test]
    fn a_module_that_is_a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = botlens_files::testing::fifo(dir.path(), "bot.wasm");
        let target = Target::parse(&fifo.display().to_string(), Some("tictactoe")).unwrap();
        let started = Instant::now();
        let error =
            run(&sandbox().unwrap(), &target, &RunOptions::default(), &|_| {}, &CancelToken::new())
                .unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
        assert_eq!(
            error.to_string(),
            format!("{}: not a regular file (it is a named pipe)", fifo.display())
        );
    }
}

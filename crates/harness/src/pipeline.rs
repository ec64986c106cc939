//! The whole job for one bot project: build it, load the module, play its suite, report.
//!
//! This is what `botlens run`, `botlens watch` and the language server call on every save.
//! Each stage is reported through a progress callback and each can be cancelled; a failure at
//! any stage comes back as a [`RunError`] naming the stage.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use botlens_engine::MatchLimits;
use botlens_games::GameKind;
use botlens_sandbox::{Sandbox, SandboxLimits};

use crate::build::{self, BuildError, CompilerMessage};
use crate::report::SuiteReport;
use crate::suite::{self, Contender, KeepTraces, Suite, SuiteError, SuiteResults, WasmBot};
use crate::{BotProject, CancelToken, SeedRange};

/// Overrides of the project's configuration (the command line's `--vs`, `--seeds`, …).
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
}

/// Where a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// cargo is building the bot.
    Building,
    /// The module is being loaded and compiled (or fetched from the cache).
    Loading,
    /// Games are being played: `done` of `total`.
    Playing {
        /// Games finished.
        done: usize,
        /// Games in the suite.
        total: usize,
    },
}

/// How long each stage took.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Timings {
    /// cargo build.
    pub build: Duration,
    /// Loading and compiling the module.
    pub load: Duration,
    /// Playing the suite.
    pub games: Duration,
}

/// A finished run of a project.
#[derive(Debug, Clone)]
pub struct ProjectRun {
    /// The suite that was played.
    pub suite: Suite,
    /// Every game's result (with traces of the failed games).
    pub results: SuiteResults,
    /// The summary.
    pub report: SuiteReport,
    /// Compiler warnings of the build.
    pub warnings: Vec<CompilerMessage>,
    /// The module that was played.
    pub wasm: PathBuf,
    /// Stage timings.
    pub timings: Timings,
}

/// Why a run did not produce a report.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The build failed (compile errors are in [`BuildError::Compile`]).
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The module or an opponent module could not be loaded.
    #[error("{0}")]
    Load(String),
    /// The suite could not start (unknown opponent, bad limits).
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// A newer change cancelled the run.
    #[error("run cancelled")]
    Cancelled,
}

/// The sandbox for runs in `project_dir`: modules cached under `target/botlens/cache`.
pub fn sandbox_for(project_dir: &Path) -> Result<Sandbox, RunError> {
    Sandbox::new(botlens_sandbox::SandboxConfig {
        cache_dir: Some(project_dir.join("target").join("botlens").join("cache")),
    })
    .map_err(|e| RunError::Load(e.to_string()))
}

/// Builds `project`, then plays its suite. `progress` hears about every stage.
pub fn run_project(
    sandbox: &Sandbox,
    project: &BotProject,
    options: &RunOptions,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
) -> Result<ProjectRun, RunError> {
    progress(Stage::Building);
    let built = build::build(project, cancel)?;
    if cancel.is_cancelled() {
        return Err(RunError::Cancelled);
    }
    progress(Stage::Loading);
    let load_started = Instant::now();
    let bot = load_wasm(sandbox, &built.wasm, &project.name, &project.root.display().to_string())?;
    let sandbox_limits = sandbox_limits(project)?;
    let config = &project.config;
    let opponents = options.opponents.clone().unwrap_or_else(|| {
        if config.opponents.is_empty() {
            project.game.default_opponents()
        } else {
            config.opponents.clone()
        }
    });
    let suite = Suite {
        game: project.game,
        bot: Contender::Wasm(bot),
        opponents: resolve_opponents(sandbox, &opponents, &project.root)?,
        seeds: options.seeds.unwrap_or(config.seeds),
        limits: MatchLimits { max_turns: options.max_turns.or(config.max_turns) },
        sandbox_limits,
        jobs: options.jobs,
        keep_traces: options.keep_traces,
    };
    let load = load_started.elapsed();
    let results =
        suite::run_suite(&suite, &|done, total| progress(Stage::Playing { done, total }), cancel)?;
    if results.cancelled {
        return Err(RunError::Cancelled);
    }
    let report = SuiteReport::new(&suite, &results, &project.root.display().to_string());
    let timings = Timings { build: built.duration, load, games: results.duration };
    Ok(ProjectRun { suite, results, report, warnings: built.warnings, wasm: built.wasm, timings })
}

/// The suite for a bot that is not a project: a `.wasm` module (loaded through `sandbox`) or a
/// reference player's name, against `opponents` (default: the game's) with `options`.
/// Modules are resolved relative to `base`.
pub fn single_suite(
    sandbox: &Sandbox,
    game: GameKind,
    bot: &str,
    options: &RunOptions,
    base: &Path,
) -> Result<Suite, RunError> {
    let bot = contender(sandbox, bot, base)?;
    let opponents = options.opponents.clone().unwrap_or_else(|| game.default_opponents());
    Ok(Suite {
        game,
        bot,
        opponents: resolve_opponents(sandbox, &opponents, base)?,
        seeds: options.seeds.unwrap_or_default(),
        limits: MatchLimits { max_turns: options.max_turns },
        sandbox_limits: SandboxLimits::default(),
        jobs: options.jobs,
        keep_traces: options.keep_traces,
    })
}

/// The project's sandbox limits: defaults overridden by `[package.metadata.botlens.limits]`.
pub fn sandbox_limits(project: &BotProject) -> Result<SandboxLimits, RunError> {
    let limits: SandboxLimits =
        project.config.limits.clone().try_into().map_err(|e: toml::de::Error| {
            RunError::Load(format!(
                "{}: [package.metadata.botlens.limits]: {}",
                project.root.join("Cargo.toml").display(),
                e.message()
            ))
        })?;
    limits.check().map_err(|message| {
        RunError::Load(format!("[package.metadata.botlens.limits]: {message}"))
    })?;
    Ok(limits)
}

/// Loads a `.wasm` file as a contender named `name`.
pub fn load_wasm(
    sandbox: &Sandbox,
    path: &Path,
    name: &str,
    source: &str,
) -> Result<WasmBot, RunError> {
    let module =
        sandbox.load_file(path).map_err(|e| RunError::Load(format!("{}: {e}", path.display())))?;
    Ok(WasmBot { name: name.to_owned(), module, source: source.to_owned() })
}

/// Whether a bot or opponent name is a module file: `.wasm`, or WebAssembly text in `.wat`.
pub fn is_module_path(name: &str) -> bool {
    name.ends_with(".wasm") || name.ends_with(".wat")
}

/// Turns opponent names into contenders: module files (see [`is_module_path`]) are loaded
/// (relative to `base`), anything else is a reference player or board name, checked when the
/// suite starts.
pub fn resolve_opponents(
    sandbox: &Sandbox,
    names: &[String],
    base: &Path,
) -> Result<Vec<Contender>, RunError> {
    names.iter().map(|name| contender(sandbox, name, base)).collect()
}

/// One contender by name: a module file (relative to `base`, named after its file stem), or a
/// reference player or board name.
fn contender(sandbox: &Sandbox, name: &str, base: &Path) -> Result<Contender, RunError> {
    if !is_module_path(name) {
        return Ok(Contender::Reference(name.to_owned()));
    }
    let path = base.join(name);
    let stem = path.file_stem().map_or(name.to_owned(), |s| s.to_string_lossy().into());
    load_wasm(sandbox, &path, &stem, &path.display().to_string()).map(Contender::Wasm)
}

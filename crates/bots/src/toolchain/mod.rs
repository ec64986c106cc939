//! The languages botlens builds bots in: one module each — [`rust`], [`js`] (JavaScript),
//! [`python`], [`c`], [`zig`] and [`assemblyscript`] — implementing [`Toolchain`], and
//! [`TOOLCHAINS`], the one table that lists them; [`script`] is what the languages a runner
//! plays share.
//!
//! Whatever depends on a bot's language asks the table, never a list of its own:
//!
//! - which language a directory or a file is ([`Lang::detect`], [`Lang::of_dir`],
//!   [`Lang::of_file`]): a directory with a language's manifest (`Cargo.toml`) is that
//!   language's; else the `lang` of its `botlens.toml`; else the first row whose sources it
//!   holds;
//! - a language's names (`lang = "…"`, `--lang`, [`Lang::from_str`](std::str::FromStr), its
//!   title in sentences) and the extensions messages list ([`Lang::extensions`]);
//! - loading a bot's settings and building it ([`Toolchain::load`], [`Bot::build`]: through each
//!   language's own build, cancellable, saying its [`Stage`]s, the builder's name among them);
//! - the starting bot `botlens new` writes ([`Toolchain::scaffold`], from its SDK's folder,
//!   [`Toolchain::sdk`], whose files are library code the module names in its `botlens_sdk`
//!   section);
//! - whether a debugger can stop in its bots, how they are built for it, and why not
//!   ([`Toolchain::debugging`]);
//! - the files an editor or `botlens watch` watches ([`watched`]), the line of a bot's entry
//!   point, where an editor shows its scores ([`entry_line`]), the projects the language server
//!   finds ([`load_project`], [`find_project`]) and the root of the bot a command given none
//!   runs in ([`find_root`]).
//!
//! An unknown language is an error naming the known ones ([`UnknownLang`]), never a fallback.
//! Adding a language is its module here, its SDK's folder under `crates/` (with its starting
//! bots) and its row in [`TOOLCHAINS`] (ARCHITECTURE.md, "Adding a language").
//!
//! Not for: playing (see `botlens-harness`'s `pipeline`).

pub mod assemblyscript;
pub mod c;
pub mod js;
pub mod python;
pub mod rust;
pub mod script;
pub mod zig;

use std::fmt;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use botlens_games::GameKind;
use botlens_sandbox::{BotModule, Sandbox, SandboxLimits};

use crate::CancelToken;
use crate::build::{BuildError, CompilerMessage, DebugInfo};
pub use crate::compiled::Built;
use crate::folder::{CONFIG_FILE, Folder, FolderConfig, FolderError};
use crate::project::{BotProject, ProjectError};
use crate::scaffold::{CiSetup, Scaffold, ScaffoldError};

/// Every language botlens builds bots in, one row each. The order decides: a directory holding
/// several rows' sources is the first one's bot, and a directory that is no language's bot is
/// taken for the first row's (a Cargo project), so that its error says what is missing.
pub static TOOLCHAINS: [&dyn Toolchain; 6] = [
    &rust::Rust,
    &js::JavaScript,
    &python::Python,
    &c::C,
    &zig::Zig,
    &assemblyscript::AssemblyScript,
];

/// A language botlens builds bots in: what botlens needs to know of it, and how its bots are
/// loaded, built, started and debugged. Each implementation is one row of [`TOOLCHAINS`].
pub trait Toolchain: Sync {
    /// Its name in `lang = "…"`, `--lang` and the lists of messages: `js`.
    fn name(&self) -> &'static str;

    /// Other names `lang = "…"` and `--lang` take for it: `javascript`.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// Its name in sentences: `JavaScript`.
    fn title(&self) -> &'static str;

    /// What `botlens new --lang <name>` writes, for `--help`: `A folder with bot.js in the old
    /// arena's format`.
    fn about(&self) -> &'static str;

    /// The extension of its source files: `js`.
    fn extension(&self) -> &'static str;

    /// Whether `line` of one of its sources, its indentation trimmed, begins the bot's entry
    /// point, where an editor shows the suite's scores: `impl Bot for MyBot` (Rust), `function
    /// Bot()` (JavaScript), `void bot_play(void)` (C), `botlens.exportBot(@This());` (Zig),
    /// `exportBot(play, start);` (AssemblyScript). The starting bots have one
    /// ([`entry_line`]).
    fn is_entry(&self, line: &str) -> bool;

    /// The file that makes a directory a bot of this language whatever else it holds
    /// (`Cargo.toml`), if it has one. Such a language's bot is that directory: never a lone
    /// file, and never a `botlens.toml` folder's `lang`.
    fn manifest(&self) -> Option<&'static str> {
        None
    }

    /// The files its builds read besides its sources (`*.<extension>`), as file-name globs
    /// (`*.h`): what an editor and `botlens watch` watch for it ([`watched`]).
    fn also_watched(&self) -> &'static [&'static str] {
        &[]
    }

    /// The folder of its SDK in botlens's sources (`crates/<sdk>`), which botlens bundles: the
    /// library its bots build against (its files are library code, which the module names to
    /// the locator in its `botlens_sdk` section) and its starting bots
    /// (`starters/<game>.<extension>`).
    fn sdk(&self) -> &'static str;

    /// The program that builds its bots, as progress names it (`cargo`, `clang`); `None` when
    /// its bots are not built (a runner plays their source).
    fn builder(&self) -> Option<&'static str>;

    /// Whether a debugger can stop in its bots' lines, and how `botlens debug` builds them.
    fn debugging(&self) -> Debugging;

    /// Whether its bots play as botlens's runner for the language with their source attached
    /// (JavaScript): the module's code, its debug info and its fuel are the interpreter's, not
    /// the bot's.
    fn runner(&self) -> bool {
        false
    }

    /// Whether `botlens profile` shows its bots' own functions and lines: a built bot's come
    /// from its module's debug information; a runner's only if the runner states its script's
    /// frames at each sample (the Python runner does, the JavaScript runner does not).
    fn profiled(&self) -> bool {
        !self.runner()
    }

    /// The bot `path` names (a directory, or a lone source file of a language that has them),
    /// its settings read and checked, nothing built; `game` is `--game`, checked against a
    /// `botlens.toml`'s (a Cargo project's game is its own: the pipeline refuses another).
    fn load(&self, path: &Path, game: Option<GameKind>) -> Result<Box<dyn Bot>, LoadError>;

    /// What a CI runner installs for its bots to build, in the workflow `botlens new` writes.
    fn ci_setup(&self) -> CiSetup {
        CiSetup::Nothing
    }

    /// Writes a new bot for `game` into `dir`, a new or empty directory (`botlens new`); `sdk`
    /// is the SDK a project depends on by path (`--sdk`; by default its own copy of the bundled
    /// one), where the language has one.
    fn scaffold(
        &self,
        game: GameKind,
        dir: &Path,
        sdk: Option<&Path>,
    ) -> Result<Scaffold, ScaffoldError>;

    /// A file of the bot at `path` as a breakpoint names it (`bot.c`, `src/lib.rs`), for hints:
    /// the named file, else the folder's `bot.<extension>`, else its first source.
    fn example_file(&self, path: &Path) -> String {
        let root = format!("bot.{}", self.extension());
        let file = if path.is_file() {
            Some(path.to_owned())
        } else {
            let sources = crate::folder::sources(path, self.extension());
            let named = sources.iter().find(|file| file.ends_with(&root));
            named.or(sources.first()).cloned()
        };
        file.and_then(|file| Some(file.file_name()?.to_string_lossy().into_owned())).unwrap_or(root)
    }
}

/// Whether a debugger can stop in a language's bots ([`Toolchain::debugging`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Debugging {
    /// gdb and lldb stop in the bot's lines: its modules carry DWARF. `botlens debug` builds
    /// the bot again with all debug info and no optimisation ([`DebugInfo::Unoptimised`]), so
    /// every local prints.
    Debugger,
    /// No debugger shows the bot's lines: why, and what to do instead, as the rest of a
    /// sentence that starts with the bot's path (`is a JavaScript bot: …`).
    Refused(&'static str),
}

/// A bot loaded by its language ([`Toolchain::load`]): its settings read, ready to build.
pub trait Bot: fmt::Debug {
    /// Its name in reports: a crate's, a folder's, a lone file's stem.
    fn name(&self) -> &str;

    /// Its settings.
    fn settings(&self) -> Settings<'_>;

    /// What its games record as their source (traces, replays): the project's directory, the
    /// folder, a JavaScript bot's file.
    fn source(&self) -> &Path;

    /// Builds it (or finds it built) and loads its module into `sandbox`: `progress` hears of
    /// the stages up to [`Stage::Loading`], and `cancel` stops the build.
    fn build(
        &self,
        sandbox: &Sandbox,
        request: &BuildRequest<'_>,
        progress: &(dyn Fn(Stage) + Sync),
        cancel: &CancelToken,
    ) -> Result<Ready, BuildFailure>;
}

/// A loaded bot's settings: a Cargo project's `[package.metadata.botlens]`, or a bot folder's
/// `botlens.toml`.
#[derive(Debug, Clone, Copy)]
pub enum Settings<'a> {
    /// A Cargo package's.
    Project(&'a BotProject),
    /// A bot folder's.
    Folder(&'a Folder),
}

impl Settings<'_> {
    /// The game the bot plays.
    pub fn game(&self) -> GameKind {
        match self {
            Settings::Project(project) => project.game,
            Settings::Folder(folder) => folder.game,
        }
    }

    /// The directory they are in, absolute.
    pub fn root(&self) -> &Path {
        match self {
            Settings::Project(project) => &project.root,
            Settings::Folder(folder) => &folder.root,
        }
    }
}

/// What a build is asked for besides the bot.
#[derive(Debug, Clone, Copy)]
pub struct BuildRequest<'a> {
    /// Cargo's target directory instead of the project's own ([`crate::build::build_into`]).
    pub target_dir: Option<&'a Path>,
    /// How much DWARF the module gets, where the build chooses (a Cargo project's).
    pub debug_info: DebugInfo,
    /// Seconds the build may take, where the bot's settings say (within the user's cap);
    /// otherwise [`crate::build::DEFAULT_BUILD_TIMEOUT`].
    pub timeout_secs: Option<u64>,
    /// The limits its games play under (a source checked by playing its first turn).
    pub limits: SandboxLimits,
}

/// A bot built and loaded ([`Bot::build`]).
#[derive(Debug, Clone)]
pub struct Ready {
    /// Its module.
    pub module: BotModule,
    /// The file the module was loaded from.
    pub wasm: PathBuf,
    /// The compiler's warnings.
    pub warnings: Vec<CompilerMessage>,
    /// How long building took (zero when it was built before).
    pub build: Duration,
    /// How long loading took.
    pub load: Duration,
}

impl Ready {
    /// `built` loaded into `sandbox`, [`Stage::Loading`] said first.
    pub fn load(
        sandbox: &Sandbox,
        built: Built,
        progress: &(dyn Fn(Stage) + Sync),
    ) -> Result<Ready, BuildFailure> {
        progress(Stage::Loading);
        let started = Instant::now();
        let module = load_module(sandbox, &built.wasm).map_err(BuildFailure::Load)?;
        Ok(Ready {
            module,
            wasm: built.wasm,
            warnings: built.warnings,
            build: built.duration,
            load: started.elapsed(),
        })
    }
}

/// Where preparing a bot is (`botlens_bots::pipeline::run` hears of each stage).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The `wasm32-wasip1` target is being installed with rustup (once per machine).
    InstallingTarget,
    /// A toolchain is being set up, once: `what` says how (`installing the AssemblyScript
    /// compiler with npm (once, into botlens's cache)`).
    SettingUp {
        /// What is being done.
        what: &'static str,
    },
    /// The bot is being built by `tool` ([`Toolchain::builder`]: `cargo`, `clang`).
    Building {
        /// The program building it.
        tool: &'static str,
    },
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

/// Why a bot could not be loaded: its project's or its folder's error.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A Cargo project's.
    #[error(transparent)]
    Project(#[from] ProjectError),
    /// A bot folder's.
    #[error(transparent)]
    Folder(#[from] FolderError),
}

/// Why a bot was not built and loaded.
#[derive(Debug, thiserror::Error)]
pub enum BuildFailure {
    /// The build was cancelled (a newer save, Ctrl-C); the compiler and what it started were
    /// stopped.
    #[error("the build was cancelled")]
    Cancelled,
    /// The build failed (compile errors are in [`BuildError::Compile`]).
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The bot, its tools or its module could not be read, set up or loaded.
    #[error("{0}")]
    Load(String),
}

impl From<FolderError> for BuildFailure {
    fn from(error: FolderError) -> BuildFailure {
        match error {
            FolderError::Compile(messages) => BuildFailure::Build(BuildError::Compile(messages)),
            FolderError::Cancelled => BuildFailure::Cancelled,
            FolderError::Timeout(seconds) => BuildFailure::Build(BuildError::Timeout(seconds)),
            other => BuildFailure::Load(other.to_string()),
        }
    }
}

/// Makes sure the `wasm32-wasip1` target is installed (once per process: later calls are free),
/// which Rust bots and the JavaScript runner build for. `installing` is called before a long
/// install, so the user can be told.
pub fn ensure_wasm_target(installing: &mut dyn FnMut()) -> Result<(), BuildError> {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    crate::build::ensure_wasm_target(installing)?;
    let _ = INSTALLED.set(());
    Ok(())
}

/// The module file at `path`, loaded into `sandbox`. A FIFO or a device is refused first
/// (opened without blocking, nothing read): the sandbox's read would wait on a FIFO for a
/// writer.
pub fn load_module(sandbox: &Sandbox, path: &Path) -> Result<BotModule, String> {
    if let Err(error @ botlens_files::ReadError::NotRegular(_)) =
        botlens_files::read_prefix(path, 0)
    {
        return Err(format!("{}: {error}", path.display()));
    }
    sandbox.load_file(path).map_err(|error| format!("{}: {error}", path.display()))
}

/// A language of [`TOOLCHAINS`]: a handle to its row, compared by name.
#[derive(Clone, Copy)]
pub struct Lang(&'static dyn Toolchain);

/// A name that is no language botlens builds; the message lists the known ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language `{name}` (known: {known})")]
pub struct UnknownLang {
    /// The name given (clipped, printable).
    pub name: String,
    /// The languages that name could have been, by name.
    pub known: String,
}

impl Lang {
    /// Every language, in the table's order.
    pub fn all() -> impl Iterator<Item = Lang> + Clone {
        TOOLCHAINS.iter().map(|toolchain| Lang(*toolchain))
    }

    /// The languages whose bots are folders of sources or lone source files, with an optional
    /// `botlens.toml` (no manifest of their own), in the table's order.
    pub fn folders() -> impl Iterator<Item = Lang> + Clone {
        Lang::all().filter(|lang| lang.manifest().is_none())
    }

    /// Its row.
    pub fn toolchain(self) -> &'static dyn Toolchain {
        self.0
    }

    /// Whether its bots are folders (or lone files) with an optional `botlens.toml`.
    pub fn is_folder(self) -> bool {
        self.manifest().is_none()
    }

    /// The language `lang = "…"` of a `botlens.toml` names: a folder language, by name or
    /// alias.
    pub fn of_folder_config(name: &str) -> Result<Lang, UnknownLang> {
        find(Lang::folders(), name)
    }

    /// The language of a lone source file's name (`bot.js`, `mine.ts`), if botlens builds one.
    pub fn of_file(name: &str) -> Option<Lang> {
        let extension = Path::new(name).extension()?;
        Lang::folders().find(|lang| extension == lang.extension())
    }

    /// The extensions of the lone source files botlens builds, for messages: `.js, .py, .c, .zig
    /// or .ts`.
    pub fn extensions() -> String {
        let all: Vec<String> =
            Lang::folders().map(|lang| format!(".{}", lang.extension())).collect();
        match all.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => all.join(""),
        }
    }

    /// The language of the bot in the directory `dir`, or `None` when it holds no bot of any:
    /// a language whose manifest is there (a `Cargo.toml`: Rust); else the `lang` of its
    /// `botlens.toml`; else the first folder language with sources there; else, with a
    /// `botlens.toml`, the first folder language (so that its error says what is missing).
    pub fn detect(dir: &Path) -> Option<Lang> {
        if let Some(lang) =
            Lang::all().find(|lang| lang.manifest().is_some_and(|file| dir.join(file).exists()))
        {
            return Some(lang);
        }
        let limit = crate::own_files::MAX_SETTINGS_BYTES;
        let named = crate::own_files::read_text(dir, &dir.join(CONFIG_FILE), limit)
            .ok()
            .and_then(|text| toml::from_str::<toml::Table>(&text).ok())
            .and_then(|table| Some(table.get("lang")?.as_str()?.to_owned()));
        if let Some(lang) = named.and_then(|name| Lang::of_folder_config(&name).ok()) {
            return Some(lang);
        }
        Lang::folders()
            .find(|lang| !crate::folder::sources(dir, lang.extension()).is_empty())
            .or_else(|| dir.join(CONFIG_FILE).is_file().then(|| Lang::folders().next()).flatten())
    }

    /// The language of the bot in the directory `dir` ([`Lang::detect`]); a directory that
    /// holds no bot is taken for the first row's, a Cargo project, whose loading says what is
    /// missing.
    pub fn of_dir(dir: &Path) -> Lang {
        Lang::detect(dir).unwrap_or(Lang(TOOLCHAINS[0]))
    }
}

/// The language among `langs` named `name` (or by an alias).
fn find(langs: impl Iterator<Item = Lang> + Clone, name: &str) -> Result<Lang, UnknownLang> {
    let named = |lang: &Lang| lang.name() == name || lang.aliases().contains(&name);
    langs.clone().find(named).ok_or_else(|| UnknownLang {
        name: botlens_engine::text::clipped(name, 80),
        known: langs.map(|lang| lang.name()).collect::<Vec<_>>().join(", "),
    })
}

impl std::ops::Deref for Lang {
    type Target = dyn Toolchain;

    fn deref(&self) -> &(dyn Toolchain + 'static) {
        self.0
    }
}

impl PartialEq for Lang {
    fn eq(&self, other: &Lang) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Lang {}

impl Hash for Lang {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Lang").field(&self.name()).finish()
    }
}

/// Its title: `JavaScript`.
impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// Any language, by name or alias: `rust`, `js`, `javascript`, `assemblyscript`, `as`.
impl std::str::FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(name: &str) -> Result<Lang, UnknownLang> {
        find(Lang::all(), name)
    }
}

/// The 0-based line of the bot's entry point in `text`, a source of `lang`: the first line that
/// begins it ([`Toolchain::is_entry`]).
pub fn entry_line(lang: Lang, text: &str) -> Option<u32> {
    text.lines().position(|line| lang.is_entry(line.trim_start())).map(|n| n as u32)
}

/// The file-name globs of what a bot's build reads, in every language: each language's sources
/// (`*.<extension>`) and what else its build reads ([`Toolchain::also_watched`]), a bot
/// folder's `botlens.toml` and opponent modules (`*.wasm`). An editor watches `**/` and each;
/// `botlens watch` matches a changed file's name against them ([`is_watched`]).
pub fn watched() -> Vec<String> {
    let mut globs: Vec<String> = Vec::new();
    for lang in Lang::all() {
        let own = std::iter::once(format!("*.{}", lang.extension()));
        let manifest = lang.manifest().map(str::to_owned);
        let also = lang.also_watched().iter().map(|glob| (*glob).to_owned());
        for glob in own.chain(manifest).chain(also) {
            if !globs.contains(&glob) {
                globs.push(glob);
            }
        }
    }
    for common in [CONFIG_FILE, "*.wasm"] {
        if !globs.iter().any(|glob| glob == common) {
            globs.push(common.to_owned());
        }
    }
    globs
}

/// Whether a file named `name` is one a bot's build reads ([`watched`]): a glob is a whole
/// name, or `*` and the end of one.
pub fn is_watched(name: &str) -> bool {
    watched().iter().any(|glob| match glob.strip_prefix('*') {
        Some(end) => name.len() > end.len() && name.ends_with(end),
        None => name == glob,
    })
}

/// The bot project in the directory `dir`, as the language server keeps it: a Cargo project's
/// `[package.metadata.botlens]` ([`BotProject::load`]), or a bot folder's settings (its
/// `botlens.toml`, its game else told by its calls: [`crate::folder::game_of_sources`]), read
/// into a project named after the folder (play it as [`crate::Target::of_dir`] names it).
pub fn load_project(dir: &Path) -> Result<BotProject, ProjectError> {
    if !Lang::detect(dir).is_some_and(Lang::is_folder) {
        return BotProject::load(dir);
    }
    let root =
        dir.canonicalize().map_err(|source| ProjectError::Read { path: dir.to_owned(), source })?;
    let folder = folder_settings(&root, None, &root).map_err(|error| ProjectError::Malformed {
        path: root.join(CONFIG_FILE),
        message: error.to_string(),
    })?;
    let name = root.file_name().map_or_else(|| "bot".into(), |n| n.to_string_lossy().into());
    let config = crate::project::BotConfig {
        game: folder.game.name().to_owned(),
        suite: folder.config.suite,
        build_timeout_secs: None,
    };
    Ok(BotProject { root, name, game: folder.game, config })
}

/// The bot project containing `path` (a file or directory), walking up the tree: the first
/// directory with a language's manifest or a `botlens.toml` that loads as one
/// ([`load_project`]; a Cargo package without botlens's table is passed over). `Ok(None)` when
/// there is none.
pub fn find_project(path: &Path) -> Result<Option<BotProject>, ProjectError> {
    first_bot(path).map(|(_, loaded)| loaded).transpose()
}

/// The root of the bot the directory `dir` is in, as cargo finds its manifest: the directory
/// [`find_project`] stops at (`dir` itself, its parent, …), whether or not its settings load —
/// a folder's game may come from `--game`, and a malformed manifest is the bot's error to
/// report. `None` when no directory up is a bot's.
pub fn find_root(dir: &Path) -> Option<&Path> {
    first_bot(dir).map(|(root, _)| root)
}

/// The first directory from `path` up (itself when a directory, else its folder) with a
/// language's manifest or a `botlens.toml` that is a bot's, and what loading it gave: a Cargo
/// package without botlens's table ([`ProjectError::NotABot`]) is passed over. The first
/// directory is also a bot without either when it holds a folder language's sources that tell
/// their game (a lone `bot.js`); sources that do not are passed over.
fn first_bot(path: &Path) -> Option<(&Path, Result<BotProject, ProjectError>)> {
    let start = if path.is_dir() { Some(path) } else { path.parent() };
    let marked = |dir: &Path| {
        Lang::all()
            .filter_map(|lang| lang.manifest())
            .chain([CONFIG_FILE])
            .any(|file| dir.join(file).is_file())
    };
    let lone_bot = |dir: &Path| {
        let project = Lang::detect(dir).filter(|lang| lang.is_folder()).map(|_| load_project(dir));
        project.filter(Result::is_ok)
    };
    std::iter::successors(start, |dir| dir.parent())
        .filter_map(|dir| match marked(dir) {
            true => Some((dir, load_project(dir))),
            false if Some(dir) == start => lone_bot(dir).map(|project| (dir, project)),
            false => None,
        })
        .find(|(_, loaded)| !matches!(loaded, Err(ProjectError::NotABot(_))))
}

/// The settings of the bot folder `root` (absolute): its `botlens.toml` ([`Folder::load`]), its
/// `lang` a folder language's ([`Lang::of_folder_config`]). `game` is `--game`, `path` what the
/// user named (for messages).
pub(crate) fn folder_settings(
    root: &Path,
    game: Option<GameKind>,
    path: &Path,
) -> Result<Folder, FolderError> {
    checked_folder(root, crate::folder::read_config(root)?, game, path)
}

/// [`folder_settings`] with `botlens.toml` already read. Without a game from `--game` or the
/// settings, the bot's sources tell it ([`crate::folder::game_of_sources`]).
pub(crate) fn checked_folder(
    root: &Path,
    config: FolderConfig,
    game: Option<GameKind>,
    path: &Path,
) -> Result<Folder, FolderError> {
    if let Some(name) = &config.lang {
        Lang::of_folder_config(name).map_err(|error| FolderError::Config {
            path: root.join(CONFIG_FILE),
            message: error.to_string(),
        })?;
    }
    // Without a game said, the bot's calls tell it (`--game` and the settings still win).
    let told = match (&config.game, game) {
        (None, None) => crate::folder::game_of_sources(&bot_sources(root, path)),
        _ => game,
    };
    Folder::with_config(root, config, told, path)
}

/// The texts of the bot `path` names for [`crate::folder::game_of_sources`]: the named file, or the sources of
/// every folder language in the folder `root`, read as the build reads them (inside the
/// folder, bounded); a file that cannot be read is left out.
fn bot_sources(root: &Path, path: &Path) -> Vec<String> {
    let named = path.file_name().filter(|_| path.is_file()).map(|name| root.join(name));
    let files = match named {
        Some(file) => vec![file],
        None => Lang::folders()
            .flat_map(|lang| crate::folder::sources(root, lang.extension()))
            .collect(),
    };
    let mut budget = crate::own_files::Budget::new(root);
    let text = |file: &PathBuf| budget.read(file).ok().map(|b| String::from_utf8_lossy(&b).into());
    files.iter().filter_map(text).collect()
}

/// The bot `path` names in a language whose bot is one root file (Zig, AssemblyScript) with
/// sources of `extension`, `game` being `--game`: its name, the root file (the named file; in a
/// folder `bot.<extension>`, else its only source; absolute) and its settings. `none` says what
/// a bot is when the folder has no source.
pub(crate) fn load_rooted(
    path: &Path,
    game: Option<GameKind>,
    extension: &str,
    none: String,
) -> Result<(String, PathBuf, Folder), FolderError> {
    let named = crate::folder::BotPath::of(path)?;
    let root = named.root.clone();
    let folder = folder_settings(&root, game, path)?;
    let file = match &named.file {
        Some(file) => file.clone(),
        None => root_file(&root, extension, none)?,
    };
    Ok((named.name(named.file.as_deref()), file, folder))
}

/// The root file of the folder `root` with sources of `extension`: `bot.<extension>`, else its
/// only source.
fn root_file(root: &Path, extension: &str, none: String) -> Result<PathBuf, FolderError> {
    let no_bot = |message: String| FolderError::NoBot { dir: root.to_owned(), message };
    let main = format!("bot.{extension}");
    match crate::folder::sources(root, extension).as_slice() {
        [] => Err(no_bot(none)),
        [one] => Ok(one.clone()),
        several => several.iter().find(|f| f.ends_with(&main)).cloned().ok_or_else(|| {
            no_bot(format!(
                "several .{extension} files and no {main}: name the bot's root file {main}"
            ))
        }),
    }
}

/// A new bot folder in the folder language `toolchain` for `game` in `dir`, its README saying
/// `readme` (`botlens new --lang …`): its starting bot from its SDK's folder.
pub(crate) fn scaffold_folder(
    toolchain: &dyn Toolchain,
    readme: &crate::scaffold::FolderReadme,
    game: GameKind,
    dir: &Path,
) -> Result<Scaffold, ScaffoldError> {
    let starter = crate::scaffold::starter(toolchain.sdk(), game, toolchain.extension())?;
    let language = crate::scaffold::FolderLanguage {
        title: toolchain.title(),
        name: toolchain.name(),
        extension: toolchain.extension(),
        starter,
        ci_setup: toolchain.ci_setup(),
    };
    crate::scaffold::scaffold_folder(&language, readme, game, dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Target;

    fn lang(name: &str) -> Lang {
        name.parse().unwrap()
    }

    /// A fake botlens checkout's SDK, for new Rust projects to depend on.
    fn sdk(tmp: &Path) -> PathBuf {
        let sdk = tmp.join("botlens/crates/sdk");
        std::fs::create_dir_all(&sdk).unwrap();
        std::fs::write(sdk.join("Cargo.toml"), "[package]\nname = \"botlens-sdk\"\n").unwrap();
        sdk
    }

    #[test]
    fn each_language_is_detected_from_its_own_files() {
        let tmp = tempfile::tempdir().unwrap();
        for lang in Lang::all() {
            let dir = tmp.path().join(lang.name());
            std::fs::create_dir(&dir).unwrap();
            assert_eq!(Lang::detect(&dir), None, "an empty folder is no bot");
            let own = match lang.manifest() {
                Some(manifest) => manifest.to_owned(),
                None => format!("bot.{}", lang.extension()),
            };
            std::fs::write(dir.join(&own), "").unwrap();
            assert_eq!(Lang::detect(&dir), Some(lang), "{own}");
            assert_eq!(Target::of_dir(&dir), Target::Bot { lang, path: dir.clone(), game: None });
            let lone = format!("a/mine.{}", lang.extension());
            let expected = lang.is_folder().then_some(lang);
            assert_eq!(Lang::of_file(&lone), expected, "{lone}");
        }
        assert_eq!(Lang::of_file("bot.rb"), None);
        assert_eq!(Lang::of_dir(tmp.path()), lang("rust"), "no bot: taken for a Cargo project");
    }

    #[test]
    fn a_manifest_wins_then_the_lang_key_then_the_first_row_with_sources() {
        let dir = tempfile::tempdir().unwrap();
        let detected = || Lang::detect(dir.path()).map(|lang| lang.name());
        for lang in Lang::folders().collect::<Vec<_>>().into_iter().rev() {
            std::fs::write(dir.path().join(format!("x.{}", lang.extension())), "").unwrap();
            assert_eq!(detected(), Some(lang.name()), "the first row with sources");
        }
        std::fs::write(dir.path().join(CONFIG_FILE), "lang = \"zig\"\n").unwrap();
        assert_eq!(detected(), Some("zig"));
        std::fs::write(dir.path().join(CONFIG_FILE), "lang = \"as\"\n").unwrap();
        assert_eq!(detected(), Some("assemblyscript"), "by alias");
        // A `lang` no folder can have (or none at all) leaves the sources to say.
        for named in ["rust", "cobol"] {
            std::fs::write(dir.path().join(CONFIG_FILE), format!("lang = \"{named}\"\n")).unwrap();
            assert_eq!(detected(), Some("js"), "{named}");
        }
        std::fs::write(dir.path().join("Cargo.toml"), "").unwrap();
        assert_eq!(detected(), Some("rust"), "a Cargo package is a Rust project");
        let only_settings = tempfile::tempdir().unwrap();
        std::fs::write(only_settings.path().join(CONFIG_FILE), "game = \"tictactoe\"\n").unwrap();
        assert_eq!(
            Lang::detect(only_settings.path()),
            Lang::folders().next(),
            "settings and no source: the first folder language, whose error says what is missing"
        );
    }

    #[test]
    fn names_and_aliases_round_trip_and_unknown_ones_list_the_known() {
        for lang in Lang::all() {
            assert_eq!(lang.name().parse::<Lang>(), Ok(lang));
            for alias in lang.aliases() {
                assert_eq!(alias.parse::<Lang>(), Ok(lang), "{alias}");
            }
            assert_eq!(lang.to_string(), lang.title());
            assert_eq!(format!("{lang:?}"), format!("Lang({:?})", lang.name()));
            assert_eq!(Lang::of_folder_config(lang.name()).is_ok(), lang.is_folder());
        }
        let names: Vec<&str> = Lang::all().map(|lang| lang.name()).collect();
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(names, unique, "no two rows share a name");
        assert_eq!(
            "go".parse::<Lang>().unwrap_err().to_string(),
            "unknown language `go` (known: rust, js, python, c, zig, assemblyscript)"
        );
        assert_eq!(
            Lang::of_folder_config("rust").unwrap_err().to_string(),
            "unknown language `rust` (known: js, python, c, zig, assemblyscript)"
        );
        let long = format!("{}\u{1b}[2J", "x".repeat(10_000));
        let error = long.parse::<Lang>().unwrap_err();
        assert_eq!(error.name, format!("{}…", "x".repeat(80)), "a long name is clipped");
        assert_eq!(Lang::extensions(), ".js, .py, .c, .zig or .ts");
    }

    #[test]
    fn a_folders_lang_is_checked_against_the_table() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CONFIG_FILE), "game = \"tictactoe\"\nlang = \"cobol\"\n")
            .unwrap();
        let error = folder_settings(dir.path(), None, dir.path()).unwrap_err().to_string();
        assert!(
            error.ends_with("unknown language `cobol` (known: js, python, c, zig, assemblyscript)"),
            "{error}"
        );
        let error = load_project(dir.path()).unwrap_err().to_string();
        assert!(error.ends_with("(known: js, python, c, zig, assemblyscript)"), "{error}");
        std::fs::write(dir.path().join(CONFIG_FILE), "game = \"tictactoe\"\nlang = \"c\"\n")
            .unwrap();
        assert_eq!(
            folder_settings(dir.path(), None, dir.path()).unwrap().game,
            GameKind::TicTacToe
        );
    }

    #[test]
    fn the_watched_globs_cover_each_languages_sources_and_manifest() {
        let globs = watched();
        let mut unique = globs.clone();
        unique.dedup();
        assert_eq!(globs, unique);
        for lang in Lang::all() {
            let source = format!("bot.{}", lang.extension());
            assert!(is_watched(&source), "{source} in {globs:?}");
            for file in lang
                .manifest()
                .into_iter()
                .chain(["notes.h"].into_iter().filter(|_| lang.name() == "c"))
            {
                assert!(is_watched(file), "{file} in {globs:?}");
            }
        }
        for file in ["botlens.toml", "old.wasm", "Cargo.toml", "config.toml"] {
            assert!(is_watched(file), "{file}");
        }
        for file in ["README.md", "Cargo.lock", "bot.rb", ".c", "rs"] {
            assert!(!is_watched(file), "{file}");
        }
    }

    #[test]
    fn every_language_starts_a_bot_for_every_game_that_loads_as_itself() {
        let tmp = tempfile::tempdir().unwrap();
        let sdk = sdk(tmp.path());
        for lang in Lang::all() {
            for game in GameKind::ALL {
                let dir = tmp.path().join("botlens").join(format!("{} {}", lang.name(), game));
                let made = lang.scaffold(game, &dir, Some(&sdk)).unwrap();
                assert_eq!(Lang::detect(&made.root), Some(lang), "{lang} {game}");
                assert!(made.files.contains(&made.main), "{:?}", made.files);
                let bot = lang.load(&made.root, None).unwrap();
                assert_eq!(bot.settings().game(), game);
                assert_eq!(bot.settings().root(), made.root);
                let project = load_project(&made.root).unwrap();
                assert_eq!((project.game, project.root.as_path()), (game, made.root.as_path()));
                let source = std::fs::read_to_string(made.root.join(&made.main)).unwrap();
                let title = game.info().title;
                let header = format!("{}: a {title} bot for botlens", made.crate_name);
                assert!(source.contains(&header), "{lang} {game}: {source}");
                assert!(entry_line(lang, &source).is_some(), "{lang} {game}: no entry point");
                for file in &made.files {
                    let text = std::fs::read_to_string(made.root.join(file)).unwrap();
                    // GitHub's expressions, `${{ … }}`, are not placeholders.
                    let unfilled = text.replace("${{", "").contains("{{");
                    assert!(!unfilled, "{file:?} has an unfilled placeholder:\n{text}");
                }
                assert_eq!(
                    lang.example_file(&made.root),
                    lang.example_file(&made.root.join(&made.main))
                );
            }
        }
    }

    /// `config` with every commented-out setting taken in: each `# key = value` and `# [table]`
    /// line uncommented, prose comments left as they are; and how many lines it uncommented.
    fn uncommented(config: &str) -> (String, usize) {
        let mut count = 0;
        let lines = config.lines().map(|line| {
            let Some(body) = line.strip_prefix("# ") else { return line.to_owned() };
            let key = body.split_once(" = ").map(|(key, _)| key);
            let is_key = key.is_some_and(|key| {
                !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            let is_table = body.starts_with('[') && body.ends_with(']') && !body.contains(' ');
            if is_key || is_table {
                count += 1;
                body.to_owned()
            } else {
                line.to_owned()
            }
        });
        (lines.collect::<Vec<_>>().join("\n") + "\n", count)
    }

    #[test]
    fn every_starters_commented_settings_load_once_uncommented() {
        assert_eq!(
            uncommented("# A bot.\ngame = \"x\"\n# Limits:\n# [limits]\n# fuel_per_turn = 5\n"),
            ("# A bot.\ngame = \"x\"\n# Limits:\n[limits]\nfuel_per_turn = 5\n".to_owned(), 2)
        );
        let tmp = tempfile::tempdir().unwrap();
        let sdk = sdk(tmp.path());
        for lang in Lang::all() {
            for game in GameKind::ALL {
                let dir = tmp.path().join("botlens").join(format!("{} {} on", lang.name(), game));
                let made = lang.scaffold(game, &dir, Some(&sdk)).unwrap();
                let config = ["botlens.toml", "Cargo.toml"]
                    .map(|file| made.root.join(file))
                    .into_iter()
                    .find(|path| path.is_file())
                    .unwrap();
                let (text, count) = uncommented(&std::fs::read_to_string(&config).unwrap());
                assert!(count > 0, "{lang} {game}: nothing commented out in\n{text}");
                std::fs::write(&config, &text).unwrap();
                let bot = lang
                    .load(&made.root, None)
                    .unwrap_or_else(|e| panic!("{lang} {game}: {e}\n{text}"));
                let suite = match bot.settings() {
                    Settings::Project(project) => project.config.suite.clone(),
                    Settings::Folder(folder) => folder.config.suite.clone(),
                };
                let limits = crate::caps::LimitCaps::default().limits(&suite.limits);
                let limits = limits.unwrap_or_else(|e| panic!("{lang} {game}: {e}\n{text}"));
                assert!(
                    limits.fuel_per_turn < SandboxLimits::default().fuel_per_turn,
                    "{lang} {game}: the suggested limit is taken\n{text}"
                );
            }
        }
    }

    #[test]
    fn a_project_is_found_from_a_file_in_it_in_any_language() {
        let tmp = tempfile::tempdir().unwrap();
        let sdk = sdk(tmp.path());
        for lang in Lang::all() {
            let dir = tmp.path().join("botlens").join(lang.name());
            let made = lang.scaffold(GameKind::TicTacToe, &dir, Some(&sdk)).unwrap();
            let found = find_project(&made.root.join(&made.main)).unwrap().unwrap();
            assert_eq!(found.root, made.root, "{lang}");
        }
        let nowhere = tempfile::tempdir().unwrap();
        assert!(find_project(nowhere.path()).unwrap().is_none());
    }

    #[test]
    fn the_entry_point_is_the_line_that_hands_the_bot_to_botlens() {
        let named = |name: &str| name.parse::<Lang>().unwrap();
        let rust =
            "use botlens_sdk::Bot;\n\npub struct B;\n\nimpl Bot for B {\n    type Game = X;\n}\n";
        assert_eq!(entry_line(named("rust"), rust), Some(4));
        assert_eq!(entry_line(named("rust"), "impl<T> botlens_sdk::Bot for W<T> {}"), Some(0));
        assert_eq!(entry_line(named("rust"), "// a Bot for fun\nfn main() {}"), None);
        let js = "// function Bot() is below\nvar x;\nfunction Bot() {}\n";
        assert_eq!(entry_line(named("js"), js), Some(2));
        assert_eq!(entry_line(named("js"), "function Bottle() {}"), None);
        let c = "#include \"botlens.h\"\nvoid bot_new(int seat) {}\nvoid bot_play(void) {\n";
        assert_eq!(entry_line(named("c"), c), Some(2));
        assert_eq!(entry_line(named("c"), "void bot_player(void);"), None);
        let zig = "comptime {\n    botlens.exportBot(@This());\n}\n";
        assert_eq!(entry_line(named("zig"), zig), Some(1));
        let ts = "import { exportBot } from \"botlens\";\nexportBot(play, start);\n";
        assert_eq!(entry_line(named("assemblyscript"), ts), Some(1));
    }

    #[test]
    fn a_bots_root_is_the_nearest_bot_up_past_crates_that_are_no_bots() {
        let tmp = tempfile::tempdir().unwrap();
        let bot = tmp.path().join("bot");
        let manifest = |name: &str, table: &str| format!("[package]\nname = \"{name}\"\n{table}");
        let helper = bot.join("helper/src");
        std::fs::create_dir_all(&helper).unwrap();
        let botlens = "[package.metadata.botlens]\ngame = \"tictactoe\"\n";
        std::fs::write(bot.join("Cargo.toml"), manifest("bot", botlens)).unwrap();
        std::fs::write(bot.join("helper/Cargo.toml"), manifest("helper", "")).unwrap();
        assert_eq!(
            find_root(&helper),
            Some(bot.as_path()),
            "a crate inside the bot is passed over"
        );
        assert_eq!(find_root(&bot), Some(bot.as_path()));
        // A folder's game may come from --game, and a malformed manifest is its bot's to report:
        // either is a root without loading.
        let folder = tmp.path().join("folder");
        std::fs::create_dir_all(folder.join("lib")).unwrap();
        std::fs::write(folder.join(CONFIG_FILE), "").unwrap();
        assert_eq!(find_root(&folder.join("lib")), Some(folder.as_path()));
        let broken = tmp.path().join("broken");
        std::fs::create_dir_all(broken.join("src")).unwrap();
        std::fs::write(broken.join("Cargo.toml"), "[package\n").unwrap();
        assert_eq!(find_root(&broken.join("src")), Some(broken.as_path()));
        assert!(find_project(&broken.join("src")).is_err());
        // A Cargo package without botlens's table and nothing above it: no bot.
        let crate_only = tempfile::tempdir().unwrap();
        std::fs::create_dir(crate_only.path().join("src")).unwrap();
        std::fs::write(crate_only.path().join("Cargo.toml"), manifest("x", "")).unwrap();
        assert_eq!(find_root(&crate_only.path().join("src")), None);
    }

    #[test]
    fn what_a_debugger_cannot_do_is_said_in_a_sentence_after_the_bots_path() {
        for lang in Lang::all() {
            match lang.debugging() {
                Debugging::Refused(why) => {
                    assert!(why.starts_with("is a") && why.contains(lang.title()), "{why}");
                    assert!(why.contains("botlens replay"), "what to do instead: {why}");
                }
                Debugging::Debugger => assert!(!lang.runner(), "{lang}"),
            }
            assert_eq!(lang.builder().is_none(), lang.runner(), "{lang}: built, or run");
        }
    }

    #[test]
    fn every_starter_tells_its_game_by_its_calls() {
        for lang in Lang::folders() {
            for game in GameKind::ALL {
                let starter = crate::scaffold::starter(lang.sdk(), game, lang.extension()).unwrap();
                let told = crate::folder::game_of_sources(&[starter]);
                assert_eq!(told, Some(game), "{lang}'s {game} starter");
            }
        }
    }

    #[test]
    fn a_lone_source_that_tells_its_game_is_a_bot_and_other_sources_are_not() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("lone");
        std::fs::create_dir(&dir).unwrap();
        let file = dir.join("hunter.js");
        std::fs::write(
            &file,
            "function Bot() {}\nBot.prototype.play = function (turn) {\n  turn.attack(1, 2);\n};\n",
        )
        .unwrap();
        let project = find_project(&file).unwrap().expect("a lone bot");
        assert_eq!((project.game, project.name.as_str()), (GameKind::Battleships, "lone"));
        assert_eq!(find_root(&dir), Some(dir.as_path()));

        // Sources making no SDK call (a web page's script) are no bot: nothing is found.
        std::fs::write(&file, "document.title = 'hello';\n").unwrap();
        assert!(find_project(&file).unwrap().is_none());
        assert_eq!(find_root(&dir), None);
    }

    #[test]
    fn a_folder_without_a_game_takes_the_one_its_sources_call() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.c"), "void play(void) { botlens_mark(0, 0); }\n")
            .unwrap();
        let folder = folder_settings(dir.path(), None, dir.path());
        assert_eq!(folder.unwrap().game, GameKind::TicTacToe);
        // Named alone, a file is read alone.
        let other = dir.path().join("other.c");
        std::fs::write(&other, "void play(void) { botlens_attack(0, 0); }\n").unwrap();
        let folder = folder_settings(dir.path(), None, &other);
        assert_eq!(folder.unwrap().game, GameKind::Battleships);
        // Both together tell no one game.
        let both = folder_settings(dir.path(), None, dir.path());
        assert!(matches!(both.unwrap_err(), crate::folder::FolderError::NoGame(_)));
    }
}

//! Python bots: a `.py` file with `class Bot:` and `def play(self, turn):`, or a folder with one
//! and an optional `botlens.toml`, run by the Python runner (RustPython compiled to a
//! WebAssembly bot module, `crates/py-runner`) inside the same sandbox as every other bot.
//!
//! The runner is built once per botlens build, from the sources bundled in the binary
//! ([`crate::bundled::folder`]), into botlens's cache directory: [`runner()`]. It is pure Rust,
//! so it needs nothing but Rust's `wasm32-wasip1` target. Every Python bot is that one compiled
//! module with the bot's source attached ([`super::script`]), so editing a bot needs no build.
//!
//! Its row in [`super::TOOLCHAINS`] is [`Python`].
//!
//! Not for: playing (see `botlens-harness`'s `pipeline`).

use std::path::{Path, PathBuf};

use botlens_games::GameKind;

use super::Toolchain;
use super::script::{Runner, Script, build_runner};
use super::{Bot, Debugging, LoadError};
use crate::folder::FolderError;
use crate::scaffold::{FolderReadme, Scaffold, ScaffoldError};

/// What building the runner is, for progress.
const SETTING_UP: &str =
    "building botlens's Python runner (once per botlens build, several minutes)";

/// What a new Python bot's README says of it.
const README: FolderReadme = FolderReadme {
    about: "botlens runs bot.py, a Python class",
    how: "It is a Python class (`class Bot:` with `def play(self, turn):`); botlens runs it in its\nPython runner (RustPython in WebAssembly), which it builds once on first use with Rust alone.",
    faults: "an exception",
    manual: "docs/python.md",
    sdk: "the Python runner",
};

/// Python: a row of [`super::TOOLCHAINS`].
#[derive(Debug)]
pub struct Python;

impl Toolchain for Python {
    fn name(&self) -> &'static str {
        "python"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["py"]
    }

    fn title(&self) -> &'static str {
        "Python"
    }

    fn about(&self) -> &'static str {
        "A folder with bot.py, a Python class"
    }

    fn extension(&self) -> &'static str {
        "py"
    }

    fn is_entry(&self, line: &str) -> bool {
        line.strip_prefix("class Bot").is_some_and(|rest| rest.starts_with([':', '(', ' ']))
    }

    /// The runner, with the starting bots (a bot's source needs no library).
    fn sdk(&self) -> &'static str {
        PY_RUNNER
    }

    fn builder(&self) -> Option<&'static str> {
        None
    }

    fn debugging(&self) -> Debugging {
        Debugging::Refused(
            "is a Python bot: its module is the Python runner, whose debug info describes the interpreter, not the bot; step through its games with `botlens replay` instead",
        )
    }

    fn runner(&self) -> bool {
        true
    }

    fn profiled(&self) -> bool {
        true
    }

    fn load(&self, path: &Path, game: Option<GameKind>) -> Result<Box<dyn Bot>, LoadError> {
        super::script::load(&SCRIPT, path, game)
    }

    fn scaffold(
        &self,
        game: GameKind,
        dir: &Path,
        _sdk: Option<&Path>,
    ) -> Result<Scaffold, ScaffoldError> {
        super::scaffold_folder(self, &README, game, dir)
    }
}

/// Python bots as a runner plays them ([`super::script`]).
pub static SCRIPT: Script = Script {
    toolchain: &Python,
    runner,
    setting_up: SETTING_UP,
    nul: "SyntaxError: source code cannot contain null bytes (a raw U+0000): write it as `\\0` \
        (in a string literal) or remove it",
    lone_file: "a Python bot is a .py file with `class Bot:` and `def play(self, turn):`",
    error_type: None,
};

/// The runner's bundled folder.
const PY_RUNNER: &str = "py-runner";

/// The runner's module, as cargo names it.
const RUNNER_WASM: &str = "botlens_py_runner.wasm";

/// The Python runner: Rust alone builds it.
const RUNNER: Runner =
    Runner { name: "Python runner", sdk: PY_RUNNER, wasm: RUNNER_WASM, needs_clang: false };

/// The compiled runner's file, built first if this build of botlens has not built it yet
/// (once: later calls, in this process or another, find it in the cache). `building` is called
/// before the build starts, which takes several minutes.
pub fn runner(building: &mut dyn FnMut()) -> Result<PathBuf, FolderError> {
    build_runner(&RUNNER, building, &|_| {})
}

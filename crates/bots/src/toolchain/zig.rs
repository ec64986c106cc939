//! Zig bots: a folder with a `bot.zig` that imports the bundled `botlens.zig` as the module
//! `botlens` (`crates/sdk-zig`, unpacked by [`crate::bundled::folder`]) and, optionally, a
//! `botlens.toml` ([`crate::folder`]). botlens builds them with zig (the `ziglang` package on
//! PyPI, or a `zig` on `PATH`), in two steps: the bot's optimized LLVM module, then its machine
//! code, from that module, with LLVM's tail merging off:
//!
//! ```text
//! zig build-exe -target wasm32-freestanding -O ReleaseSafe -fno-strip -fno-entry -rdynamic \
//!     --dep bot --dep botlens -Mroot=<root.zig> --dep botlens -Mbot=bot.zig \
//!     -Mbotlens=<botlens.zig> -fno-emit-bin -femit-llvm-bc=bot.bc
//! zig build-exe -target wasm32-freestanding -O ReleaseSafe -fno-strip -fno-entry -rdynamic \
//!     -cflags -mllvm -enable-tail-merge=false -Xclang -disable-llvm-optzns -- bot.bc \
//!     -femit-bin=bot.wasm
//! ```
//!
//! For a debugger (`botlens debug`, [`DebugInfo::Unoptimised`]) both steps take `-O Debug`
//! instead, so every local lives where gdb and lldb read it.
//!
//! `zig build-exe` takes no `-mllvm` for Zig code, but it compiles an LLVM module as it does C,
//! with `-cflags`. Tail merging would join a function's calls of one argument-less panic
//! handler (an overflow, `unreachable`) into one call at line 0 of the DWARF, which botlens
//! could not locate; the second step runs no optimization again (the first did).
//!
//! The root module is the SDK's `root.zig`, which imports the bot's file as `bot` and declares
//! the SDK's panic handler (or the bot's own `panic`, if it has one): Zig takes the handler from
//! the root, so bots need not declare it.
//!
//! Zig has no syntax for custom sections, so [`build`] appends them to the built module: the
//! ABI version, the compact encoding, and in `botlens_sdk` the SDK's file and Zig's `std.zig`
//! (so the locator skips both directories). Diagnostics, the cache and errors are as for C
//! ([`crate::toolchain::c`]), and show nothing of a file outside the bot's folder, the SDK and Zig's std
//! ([`crate::shown`]).
//!
//! Its row in [`super::TOOLCHAINS`] is [`Zig`].
//!
//! Not for: playing (see `botlens-harness`'s `pipeline`).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use botlens_confine::Confined;
use botlens_games::GameKind;
use botlens_sandbox::Sandbox;

use super::Toolchain;
use super::{Bot, BuildFailure, BuildRequest, Debugging, LoadError, Ready, Settings, Stage};
use crate::CancelToken;
use crate::build::DebugInfo;
use crate::compiled::{Built, Fnv};
use crate::folder::{Folder, FolderError};
use crate::scaffold::{CiSetup, FolderReadme, Scaffold, ScaffoldError};
use crate::shown::Shown;

/// The SDK's module file.
pub const MODULE: &str = "botlens.zig";

/// The SDK's root file, beside [`MODULE`]: the module botlens builds, importing the bot's file.
const ROOT: &str = "root.zig";

/// What is built, in a missing tool's message.
const BUILDING: &str = "building a Zig bot";

/// How to install zig.
const INSTALL: &str = "pip install ziglang";

/// The program that builds Zig bots.
const ZIG: &str = "zig";

/// What a new Zig bot's README says of it.
const README: FolderReadme = FolderReadme {
    about: "botlens builds bot.zig with zig and the bundled botlens.zig",
    how: "It imports `botlens`, the Zig SDK, which botlens carries: nothing to install besides zig\n(`pip install ziglang`). `botlens run` builds `bot.zig` with `zig build-exe -target\nwasm32-freestanding -O ReleaseSafe`; the API is documented in `botlens.zig`.",
    faults: "an index out of bounds, `unreachable`",
    manual: "docs/zig.md",
    sdk: MODULE,
};

/// Zig: a row of [`super::TOOLCHAINS`].
#[derive(Debug)]
pub struct Zig;

impl Toolchain for Zig {
    fn name(&self) -> &'static str {
        "zig"
    }

    fn title(&self) -> &'static str {
        "Zig"
    }

    fn about(&self) -> &'static str {
        "A folder with bot.zig and the Zig SDK, botlens.zig"
    }

    fn extension(&self) -> &'static str {
        "zig"
    }

    fn is_entry(&self, line: &str) -> bool {
        line.starts_with("botlens.exportBot(")
    }

    fn sdk(&self) -> &'static str {
        "sdk-zig"
    }

    fn ci_setup(&self) -> CiSetup {
        CiSetup::Pip("ziglang")
    }

    fn builder(&self) -> Option<&'static str> {
        Some(ZIG)
    }

    fn debugging(&self) -> Debugging {
        Debugging::Debugger
    }

    fn load(&self, path: &Path, game: Option<GameKind>) -> Result<Box<dyn Bot>, LoadError> {
        Ok(Box::new(ZigBot::load(path, game)?))
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

/// zig's flags for both steps, besides their inputs and outputs: `ReleaseSafe`, but `Debug` for
/// a debugger ([`DebugInfo::optimised`]), so every local lives where gdb and lldb read it.
fn flags(debug_info: DebugInfo) -> [&'static str; 10] {
    [
        "build-exe",
        "-target",
        "wasm32-freestanding",
        "-O",
        if debug_info.optimised() { "ReleaseSafe" } else { "Debug" },
        "-fno-strip",
        "-fno-entry",
        "-rdynamic",
        "--color",
        "off",
    ]
}

/// The first step's flag besides its output: no machine code (only the LLVM module).
const TO_BITCODE: &str = "-fno-emit-bin";

/// The second step's flags before its input: clang compiles the LLVM module without tail
/// merging (which leaves an argument-less panic's call at line 0) or a second optimization.
const CODEGEN: [&str; 6] =
    ["-cflags", "-mllvm", "-enable-tail-merge=false", "-Xclang", "-disable-llvm-optzns", "--"];

/// A Zig bot on disk.
#[derive(Debug, Clone)]
pub struct ZigBot {
    /// The bot's name: its folder's, or a lone file's stem (`bot.<extension>`: the folder's).
    pub name: String,
    /// The root source file: `bot.zig`, else the folder's only `.zig` file; absolute.
    pub file: PathBuf,
    /// Its folder's settings and game.
    pub folder: Folder,
}

impl ZigBot {
    /// The Zig bot `path` names: a folder with a root file, or one `.zig` file; `game` is
    /// `--game`.
    pub fn load(dir: &Path, game: Option<GameKind>) -> Result<ZigBot, FolderError> {
        let none = format!("no .zig file here: a Zig bot is a bot.zig that imports {MODULE}");
        let (name, file, folder) = super::load_rooted(dir, game, Zig.extension(), none)?;
        Ok(ZigBot { name, file, folder })
    }
}

impl Bot for ZigBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn settings(&self) -> Settings<'_> {
        Settings::Folder(&self.folder)
    }

    fn source(&self) -> &Path {
        &self.folder.root
    }

    fn build(
        &self,
        sandbox: &Sandbox,
        request: &BuildRequest<'_>,
        progress: &(dyn Fn(Stage) + Sync),
        cancel: &CancelToken,
    ) -> Result<Ready, BuildFailure> {
        progress(Stage::Building { tool: ZIG });
        Ready::load(sandbox, build(self, request.debug_info, cancel)?, progress)
    }
}

/// Builds `bot` with zig (or finds it built in the cache), optimised unless `debug_info` says it
/// is for a debugger: compile errors come back as
/// [`FolderError::Compile`], a missing zig as [`FolderError::Toolchain`] naming `pip install
/// ziglang`. zig runs confined (`tools`): it reads its own installation, the bot's
/// folder and the SDK, writes a private directory and the bot's own zig caches, and is stopped
/// when `cancel` is cancelled.
pub fn build(
    bot: &ZigBot,
    debug_info: DebugInfo,
    cancel: &CancelToken,
) -> Result<Built, FolderError> {
    let cache = crate::bundled::cache_root().ok_or(crate::bundled::BundleError::NoCacheDir)?;
    let sdk = crate::bundled::folder(Zig.sdk())?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    build_with(bot, &flags(debug_info), &sdk, &cache, &path, cancel)
}

/// An installed zig.
#[derive(Debug, Clone)]
struct Installed {
    /// Its executable.
    program: PathBuf,
    /// Its standard library (`…/lib/std`), whose frames the locator skips.
    std_dir: Option<PathBuf>,
}

impl Installed {
    /// The zig on `path` (a `PATH` value): `zig`, else the one of Python's `ziglang` package;
    /// found once per `PATH`.
    fn find(path: &OsStr) -> Result<Installed, FolderError> {
        static FOUND: Mutex<Vec<(OsString, Installed)>> = Mutex::new(Vec::new());
        let mut found = FOUND.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, zig)) = found.iter().find(|(known, _)| known == path) {
            return Ok(zig.clone());
        }
        let program = botlens_confine::find_program(OsStr::new(ZIG), path)
            .and_then(|zig| zig.canonicalize().ok())
            .or_else(|| from_python(path))
            .ok_or_else(|| FolderError::Toolchain {
                building: BUILDING,
                missing: "zig (neither `zig` on PATH nor Python's `ziglang` package)".into(),
                install: INSTALL.into(),
            })?;
        let beside = program.parent().map(|dir| dir.join("lib").join("std"));
        let std_dir = beside.filter(|dir| dir.join("std.zig").is_file());
        let zig = Installed { program, std_dir };
        found.push((path.to_owned(), zig.clone()));
        Ok(zig)
    }

    /// zig confined, reading its own directory (`lib/` is beside the executable).
    fn command(&self, path: &OsStr) -> Confined {
        let mut zig = crate::tools::system(&self.program.to_string_lossy(), path);
        if let Some(home) = self.program.parent() {
            zig.read(home);
        }
        zig
    }
}

/// The zig executable of Python's `ziglang` package, asking `python3` (else `python`) on
/// `path` where the package is (confined, reading the interpreter's installation and the
/// user's own packages).
fn from_python(path: &OsStr) -> Option<PathBuf> {
    const WHERE: &str = "import os, ziglang; print(os.path.dirname(ziglang.__file__))";
    ["python3", "python"].into_iter().find_map(|name| {
        let program = botlens_confine::find_program(OsStr::new(name), path)?;
        let mut probe = crate::tools::system(name, path);
        probe.args(["-c", WHERE]);
        for dir in crate::tools::installation(&program) {
            probe.read(dir);
        }
        if let Some(user) = std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local"))
        {
            probe.env("PYTHONUSERBASE", &user).read(user);
        }
        let ran = crate::tools::run(&probe, &CancelToken::new()).ok()?;
        let dir = PathBuf::from(String::from_utf8_lossy(&ran.stdout).trim());
        let zig = dir.join("zig");
        (ran.status.success() && zig.is_file()).then_some(zig)
    })
}

/// [`build`] with zig's `flags`, the SDK's directory, botlens's cache directory and `PATH` given.
fn build_with(
    bot: &ZigBot,
    flags: &[&str],
    sdk_dir: &Path,
    cache: &Path,
    path: &OsStr,
    cancel: &CancelToken,
) -> Result<Built, FolderError> {
    let zig = Installed::find(path)?;
    let (sdk, root) = (sdk_dir.join(MODULE), sdk_dir.join(ROOT));
    let mut hash = Fnv::default();
    for file in [&sdk, &root] {
        hash.add(file.as_os_str().as_encoded_bytes());
        let read = std::fs::read(file);
        hash.add(&read.map_err(|source| FolderError::Read { path: file.clone(), source })?);
    }
    for flag in flags.iter().chain([&TO_BITCODE]).chain(&CODEGEN) {
        hash.add(flag.as_bytes());
    }
    let mut budget = crate::own_files::Budget::new(&bot.folder.root);
    for file in crate::folder::sources(&bot.folder.root, Zig.extension()) {
        hash.add(file.as_os_str().as_encoded_bytes());
        hash.add(&crate::folder::read_source(&mut budget, &file, Zig.title())?);
    }
    let modules = cache.join("zig-bots");
    let wasm = modules.join(format!("{}-{:016x}.wasm", bot.name, hash.0));
    if let Some(built) = crate::compiled::cached(&wasm, &modules, crate::toolchain::c::diagnostics)?
    {
        return Ok(built);
    }
    let output = crate::tools::output_dir(&modules)
        .map_err(|source| FolderError::Read { path: modules.clone(), source })?;
    let (partial, bitcode) = (output.path().join("bot.wasm"), output.path().join("bot.bc"));
    // zig's caches are the bot's own: a build that could write another bot's cache could
    // change what that bot is built from.
    let mut folder = Fnv::default();
    folder.add(bot.folder.root.as_os_str().as_encoded_bytes());
    let caches = cache.join("zig-cache").join(format!("{:016x}", folder.0));
    // Nothing of a file outside the bot's folder, the SDK and Zig's std reaches a message.
    let toolchain: Vec<&Path> = std::iter::once(sdk_dir).chain(zig.std_dir.as_deref()).collect();
    let shown = Shown::new(&bot.folder.root, &toolchain);
    let mut first = zig.command(path);
    step(&mut first, flags, bot, &caches, sdk_dir, output.path())
        .args(["--dep", "bot", "--dep", "botlens"])
        .arg(format!("-Mroot={}", root.display()))
        .args(["--dep", "botlens"])
        .arg(format!("-Mbot={}", bot.file.display()))
        .arg(format!("-Mbotlens={}", sdk.display()))
        .arg(TO_BITCODE)
        .arg(format!("-femit-llvm-bc={}", bitcode.display()));
    let first = compile(&first, &shown, cancel)?;
    let mut codegen = zig.command(path);
    step(&mut codegen, flags, bot, &caches, sdk_dir, output.path())
        .args(CODEGEN)
        .arg(&bitcode)
        .arg(format!("-femit-bin={}", partial.display()));
    let second = compile(&codegen, &shown, cancel)?;
    let stderr = format!("{}{}", first.stderr, second.stderr);
    let duration = first.duration + second.duration;
    let mut files = sdk.display().to_string();
    if let Some(std_dir) = &zig.std_dir {
        files = format!("{files}\n{}", std_dir.join("std.zig").display());
    }
    let sections: [(&str, &[u8]); 3] = [
        ("botlens_abi", b"1"),
        ("botlens_encoding", b"compact"),
        ("botlens_sdk", files.as_bytes()),
    ];
    crate::compiled::append_sections(&partial, &sections)?;
    crate::compiled::store(&partial, wasm, &stderr, duration, crate::toolchain::c::diagnostics)
}

/// `zig` with the `flags` of both build steps and the bot's own `caches`, run in `bot`'s
/// folder, reading it and the SDK's `sdk_dir`, writing `output`.
fn step<'a>(
    zig: &'a mut Confined,
    flags: &[&str],
    bot: &ZigBot,
    caches: &Path,
    sdk_dir: &Path,
    output: &Path,
) -> &'a mut Confined {
    zig.args(flags)
        .arg("--cache-dir")
        .arg(caches.join("local"))
        .arg("--global-cache-dir")
        .arg(caches.join("global"))
        .current_dir(&bot.folder.root)
        .read(&bot.folder.root)
        .read(sdk_dir)
        .write(caches)
        .write(output)
        .limits(crate::compiled::limits())
}

/// Runs a build step: its errors, if it fails, as [`FolderError::Compile`]; its output without
/// the text of files outside `shown` ([`crate::shown::clang_output`]).
fn compile(
    zig: &Confined,
    shown: &Shown,
    cancel: &CancelToken,
) -> Result<crate::compiled::Compiled, FolderError> {
    let mut run = crate::compiled::run(zig, BUILDING, "a zig", INSTALL, cancel)?;
    run.stderr = crate::shown::clang_output(&run.stderr, shown);
    if !run.success {
        return Err(FolderError::Compile(crate::toolchain::c::errors(&run.stderr)));
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_zig_the_pip_package_is_named() {
        let empty = tempfile::tempdir().unwrap();
        let error = Installed::find(empty.path().as_os_str()).unwrap_err().to_string();
        assert_eq!(
            error,
            "building a Zig bot needs zig (neither `zig` on PATH nor Python's `ziglang` package): install it with `pip install ziglang`"
        );
    }

    #[test]
    fn a_folder_finds_its_root_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("botlens.toml"), "game = \"tictactoe\"\n").unwrap();
        let error = ZigBot::load(dir.path(), None).unwrap_err().to_string();
        assert!(
            error.ends_with("no .zig file here: a Zig bot is a bot.zig that imports botlens.zig")
        );
        std::fs::write(dir.path().join("board.zig"), "").unwrap();
        std::fs::write(dir.path().join("rules.zig"), "").unwrap();
        let error = ZigBot::load(dir.path(), None).unwrap_err().to_string();
        assert!(error.contains("several .zig files and no bot.zig"), "{error}");
        let named = ZigBot::load(&dir.path().join("rules.zig"), None).unwrap();
        assert!(named.file.ends_with("rules.zig") && named.name == "rules", "{named:?}");
        std::fs::write(dir.path().join("bot.zig"), "").unwrap();
        assert!(ZigBot::load(dir.path(), None).unwrap().file.ends_with("bot.zig"));
    }
}

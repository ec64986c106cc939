//! C bots: a folder with `.c` files that include the bundled `botlens.h`
//! (`crates/sdk-c`, unpacked by [`crate::bundled::folder`]) and, optionally, a `botlens.toml`
//! (the settings every bot folder shares, [`crate::folder`]). botlens builds them itself with
//! clang and Debian's wasi-libc:
//!
//! ```text
//! clang --target=wasm32-wasi -g -O2 -I<botlens.h's dir> -c *.c
//! clang --target=wasm32-wasi -mexec-model=reactor *.o -o bot.wasm
//! ```
//!
//! The link is a step of its own, without `-O`: after an optimised link clang's driver runs
//! binaryen's `wasm-opt` when it finds one on `PATH`, which drops the module's DWARF (the lines
//! failures are located at) and makes the module depend on what the machine has installed.
//! For a debugger (`botlens debug`, [`DebugInfo::Unoptimised`]) it is `-O0` instead of `-O2`,
//! so every local lives in memory where gdb and lldb read it.
//!
//! [`build`] runs it, turns clang's diagnostics into located [`CompilerMessage`]s (the editor
//! shows them like rustc's; nothing of a file outside the bot's folder: [`crate::shown`]), names the Debian package of a missing tool, and caches the module
//! by a hash of the sources, the header and the flags, so an unchanged bot is not rebuilt.
//!
//! Its row in [`super::TOOLCHAINS`] is [`C`]. The header names itself in the module's
//! `botlens_sdk` section (a top-level `asm` directive), and wasi-libc's sources are the
//! locator's to skip.
//!
//! Not for: playing (see `botlens-harness`'s `pipeline`).

use botlens_games::GameKind;
use botlens_sandbox::Sandbox;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use super::Toolchain;
use super::{Bot, BuildFailure, BuildRequest, Debugging, LoadError, Ready, Settings, Stage};
use crate::CancelToken;
use crate::build::{CompilerMessage, DebugInfo};
use crate::compiled::{Built, Fnv, cached, store, unlocated};
use crate::folder::{Folder, FolderError, missing_clang_tools};
use crate::scaffold::{CiSetup, FolderReadme, Scaffold, ScaffoldError};
use crate::shown::Shown;

/// Where Debian's wasi-libc puts its headers.
pub(crate) const WASI_INCLUDE: &str = "/usr/include/wasm32-wasi";
/// Where Debian's wasi-libc puts its libraries.
pub(crate) const WASI_LIB: &str = "/usr/lib/wasm32-wasi";

/// The SDK's header, as a bot includes it.
pub const HEADER: &str = "botlens.h";

/// What is built, in a missing tool's message.
const BUILDING: &str = "building a C bot";

/// The program that builds C bots.
const CLANG: &str = "clang";

/// What a new C bot's README says of it.
const README: FolderReadme = FolderReadme {
    about: "botlens builds the .c files here with clang and the bundled botlens.h",
    how: "It includes `botlens.h`, the C SDK, which botlens carries and puts on the include path:\nnothing to install besides clang and wasi-libc (`sudo apt-get install -y clang lld wasi-libc\nlibclang-rt-dev-wasm32` on Debian or Ubuntu). `botlens run` builds every `.c` file here with\n`clang --target=wasm32-wasi -mexec-model=reactor -g -O2`; the API is documented in `botlens.h`.",
    faults: "a failed `assert`, an out-of-bounds access",
    manual: "docs/c.md",
    sdk: HEADER,
};

/// C: a row of [`super::TOOLCHAINS`].
#[derive(Debug)]
pub struct C;

impl Toolchain for C {
    fn name(&self) -> &'static str {
        "c"
    }

    fn title(&self) -> &'static str {
        "C"
    }

    fn about(&self) -> &'static str {
        "A folder with bot.c and the C SDK, botlens.h"
    }

    fn extension(&self) -> &'static str {
        "c"
    }

    fn is_entry(&self, line: &str) -> bool {
        line.strip_prefix("void bot_play").is_some_and(|rest| rest.starts_with([' ', '(']))
    }

    /// The folder's own headers, which its sources include.
    fn also_watched(&self) -> &'static [&'static str] {
        &["*.h"]
    }

    fn sdk(&self) -> &'static str {
        "sdk-c"
    }

    fn ci_setup(&self) -> CiSetup {
        CiSetup::Apt(crate::folder::PACKAGES)
    }

    fn builder(&self) -> Option<&'static str> {
        Some(CLANG)
    }

    fn debugging(&self) -> Debugging {
        Debugging::Debugger
    }

    fn load(&self, path: &Path, game: Option<GameKind>) -> Result<Box<dyn Bot>, LoadError> {
        Ok(Box::new(CBot::load(path, game)?))
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

/// clang's flags for the two steps of a build, besides the paths of their inputs and outputs.
#[derive(Debug, Clone, Copy)]
struct Flags {
    /// Compiling each source to an object: optimised (`-O2`) but for a debugger
    /// ([`DebugInfo::optimised`]).
    compile: [&'static str; 6],
    /// Linking the objects into the module: never with `-O`, which would make clang run a
    /// `wasm-opt` it finds on `PATH` (the module docs).
    link: [&'static str; 3],
}

impl Flags {
    /// Every flag, for the cache's key.
    fn all(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.compile.iter().chain(&self.link).copied()
    }
}

/// The flags of a build, optimised unless `debug_info` is for a debugger.
fn flags(debug_info: DebugInfo) -> Flags {
    Flags {
        compile: [
            "--target=wasm32-wasi",
            "-g",
            if debug_info.optimised() { "-O2" } else { "-O0" },
            "-fno-color-diagnostics",
            // Calling a function nothing declared (botlens.h not included) is an error, not a
            // link error later.
            "-Werror=implicit-function-declaration",
            "-Wall",
        ],
        link: ["--target=wasm32-wasi", "-mexec-model=reactor", "-fno-color-diagnostics"],
    }
}

/// A C bot on disk.
#[derive(Debug, Clone)]
pub struct CBot {
    /// The bot's name: its folder's, or a lone file's stem (`bot.c`: the folder's).
    pub name: String,
    /// The `.c` files, absolute and sorted (a lone file's bot, that file).
    pub sources: Vec<PathBuf>,
    /// Its folder's settings and game.
    pub folder: Folder,
}

impl CBot {
    /// The C bot `path` names: a folder of `.c` files, or one `.c` file (the bot alone);
    /// `game` is `--game`.
    pub fn load(path: &Path, game: Option<GameKind>) -> Result<CBot, FolderError> {
        let named = crate::folder::BotPath::of(path)?;
        let root = named.root.clone();
        let folder = super::folder_settings(&root, game, path)?;
        let sources = match &named.file {
            Some(file) => vec![file.clone()],
            None => crate::folder::sources(&root, C.extension()),
        };
        if sources.is_empty() {
            let message = format!("no .c file here: a C bot is .c files that include {HEADER}");
            return Err(FolderError::NoBot { dir: root, message });
        }
        let name = named.name(named.file.as_deref());
        Ok(CBot { name, sources, folder })
    }
}

impl Bot for CBot {
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
        progress(Stage::Building { tool: CLANG });
        Ready::load(sandbox, build(self, request.debug_info, cancel)?, progress)
    }
}

/// Builds `bot` with clang (or finds it built in the cache), optimised unless `debug_info` says
/// it is for a debugger: compile errors come back as
/// [`FolderError::Compile`], a missing tool as [`FolderError::Toolchain`] with its package.
/// clang runs confined (`tools`): it reads the bot's folder and the header's, writes a
/// private directory, and is stopped when `cancel` is cancelled.
pub fn build(
    bot: &CBot,
    debug_info: DebugInfo,
    cancel: &CancelToken,
) -> Result<Built, FolderError> {
    let cache = crate::bundled::cache_root().ok_or(crate::bundled::BundleError::NoCacheDir)?;
    let header = crate::bundled::folder(C.sdk())?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    let flags = flags(debug_info);
    build_with(bot, &flags, &header, &cache.join("c-bots"), &path, Path::new(WASI_INCLUDE), cancel)
}

/// [`build`] with clang's `flags`, the header's directory, the cache, `PATH` and wasi-libc's
/// headers given.
fn build_with(
    bot: &CBot,
    flags: &Flags,
    header_dir: &Path,
    cache: &Path,
    path: &OsStr,
    wasi_include: &Path,
    cancel: &CancelToken,
) -> Result<Built, FolderError> {
    let missing = missing_clang_tools(path, wasi_include);
    if !missing.is_empty() {
        let install = crate::folder::apt_install();
        return Err(FolderError::Toolchain {
            building: BUILDING,
            missing: missing.join(", "),
            install,
        });
    }
    let mut includes_header = false;
    let mut hash = Fnv::default();
    hash.add(header_dir.as_os_str().as_encoded_bytes());
    hash.add(&read(&header_dir.join(HEADER))?);
    for flag in flags.all() {
        hash.add(flag.as_bytes());
    }
    // The folder's own headers (a link leading out of it is not one: `own_files::listed`).
    let headers = crate::own_files::listed(&bot.folder.root, "h");
    let mut budget = crate::own_files::Budget::new(&bot.folder.root);
    for file in bot.sources.iter().chain(&headers) {
        let text = crate::folder::read_source(&mut budget, file, C.title())?;
        includes_header |= file.extension().is_some_and(|ext| ext == "c")
            && String::from_utf8_lossy(&text).contains(HEADER);
        hash.add(file.as_os_str().as_encoded_bytes());
        hash.add(&text);
    }
    let wasm = cache.join(format!("{}-{:016x}.wasm", bot.name, hash.0));
    if let Some(built) = cached(&wasm, cache, diagnostics)? {
        return Ok(built);
    }
    let output = crate::tools::output_dir(cache)
        .map_err(|source| FolderError::Read { path: cache.to_owned(), source })?;
    let partial = output.path().join("bot.wasm");
    // Each source's object goes where clang puts it, in the directory it runs in, named as the
    // source with `.o` for its last extension (the sources' names differ: they are the files
    // of one folder); the DWARF says the bot's folder is where it was compiled, as a build in
    // the folder would.
    let mut compiled_in = OsString::from("-fdebug-compilation-dir=");
    compiled_in.push(&bot.folder.root);
    let mut compile = crate::tools::system(CLANG, path);
    compile
        .args(flags.compile)
        .arg(compiled_in)
        .arg("-I")
        .arg(header_dir)
        .arg("-c")
        .args(&bot.sources)
        .current_dir(output.path())
        .read(&bot.folder.root)
        .read(header_dir)
        .write(output.path())
        .limits(crate::compiled::limits());
    let objects = bot.sources.iter().map(|source| {
        let mut object = source.file_stem().unwrap_or(source.as_os_str()).to_owned();
        object.push(".o");
        output.path().join(object)
    });
    let mut link = crate::tools::system(CLANG, path);
    link.args(flags.link)
        .args(objects)
        .arg("-o")
        .arg(&partial)
        .current_dir(output.path())
        .write(output.path())
        .limits(crate::compiled::limits());
    let install = crate::folder::apt_install();
    let missing = "a clang (package clang)";
    let mut run = crate::compiled::run(&compile, BUILDING, missing, &install, cancel)?;
    if run.success {
        let linked = crate::compiled::run(&link, BUILDING, missing, &install, cancel)?;
        run.success = linked.success;
        run.stderr.push_str(&linked.stderr);
        run.duration += linked.duration;
    }
    // Nothing of a file outside the bot's folder, the SDK and wasi-libc reaches a message.
    let shown = Shown::new(&bot.folder.root, &[header_dir, wasi_include]);
    let stderr = crate::shown::clang_output(&run.stderr, &shown);
    if !run.success {
        if stderr.contains("libclang_rt.builtins") {
            let missing = "compiler-rt for wasm32 (package libclang-rt-dev-wasm32)".to_owned();
            let install = crate::folder::apt_install();
            return Err(FolderError::Toolchain { building: BUILDING, missing, install });
        }
        let mut messages = errors(&stderr);
        if !includes_header {
            messages.push(no_header(&bot.sources[0]));
        }
        return Err(FolderError::Compile(messages));
    }
    if !includes_header {
        return Err(FolderError::Compile(vec![no_header(&bot.sources[0])]));
    }
    store(&partial, wasm, &stderr, run.duration, diagnostics)
}

/// The errors of a failed build's `stderr`: its located ones, else all of it as one.
pub(crate) fn errors(stderr: &str) -> Vec<CompilerMessage> {
    let mut messages: Vec<CompilerMessage> =
        diagnostics(stderr).into_iter().filter(|m| m.level.contains("error")).collect();
    if messages.is_empty() {
        messages.push(unlocated("error", stderr.trim(), stderr));
    }
    messages
}

fn read(file: &Path) -> Result<Vec<u8>, FolderError> {
    std::fs::read(file).map_err(|source| FolderError::Read { path: file.to_owned(), source })
}

/// The error of a bot whose `.c` files never include the header, at the first file's line 1.
fn no_header(file: &Path) -> CompilerMessage {
    let message = format!(
        "no .c file of this bot includes {HEADER}: add `#include \"{HEADER}\"` (botlens puts it on the include path; see docs/c.md)"
    );
    CompilerMessage {
        level: "error".into(),
        rendered: format!("{}:1:1: error: {message}\n", file.display()),
        message,
        code: None,
        file: Some(file.to_owned()),
        line: 1,
        column: 1,
        end_line: 1,
        end_column: 2,
    }
}

/// clang's diagnostics in `stderr` (`file:line:col: error: message`, with the lines after it
/// until the next as its rendering; zig writes them the same way), and the linker's
/// (`wasm-ld: error: …`, unlocated).
pub fn diagnostics(stderr: &str) -> Vec<CompilerMessage> {
    let mut messages: Vec<CompilerMessage> = Vec::new();
    for line in stderr.lines() {
        if let Some(message) = located(line) {
            messages.push(message);
        } else if let Some(text) = line.strip_prefix("wasm-ld: error: ") {
            messages.push(unlocated("error", text, line));
        } else if line.starts_with("clang: ") || line.ends_with(" generated.") {
            // clang's summary (`1 error generated.`) and the driver's `linker command failed`.
        } else if let Some(last) = messages.last_mut() {
            last.rendered.push_str(line);
            last.rendered.push('\n');
        }
    }
    messages
}

/// One `file:line:col: level: message` line of clang's.
fn located(line: &str) -> Option<CompilerMessage> {
    const LEVELS: [&str; 3] = ["fatal error", "error", "warning"];
    let (head, level, message) = LEVELS.iter().find_map(|level| {
        let at = line.find(&format!(": {level}: "))?;
        Some((&line[..at], *level, &line[at + level.len() + 4..]))
    })?;
    let mut parts = head.rsplitn(3, ':');
    let column: u32 = parts.next()?.parse().ok()?;
    let row: u32 = parts.next()?.parse().ok()?;
    let file = parts.next()?;
    Some(CompilerMessage {
        level: if level == "warning" { "warning" } else { "error" }.into(),
        message: message.to_owned(),
        code: None,
        rendered: format!("{line}\n"),
        file: Some(PathBuf::from(file)),
        line: row,
        column,
        end_line: row,
        end_column: column + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(dir: &Path, source: &str) -> CBot {
        std::fs::write(dir.join("bot.c"), source).unwrap();
        std::fs::write(dir.join("botlens.toml"), "game = \"tictactoe\"\n").unwrap();
        CBot::load(dir, None).unwrap()
    }

    #[test]
    fn clang_diagnostics_are_located_and_the_linkers_kept() {
        let stderr = "/b/bot.c:4:5: error: use of undeclared identifier 'x'\n    x = 1;\n    ^\n\
            /b/bot.c:2:1: warning: unused\n\
            wasm-ld: error: /tmp/bot.o: undefined symbol: bot_play\n\
            clang: error: linker command failed with exit code 1\n";
        let messages = diagnostics(stderr);
        let found: Vec<(&str, Option<&Path>, u32, u32)> = messages
            .iter()
            .map(|m| (m.level.as_str(), m.file.as_deref(), m.line, m.column))
            .collect();
        assert_eq!(
            found,
            [
                ("error", Some(Path::new("/b/bot.c")), 4, 5),
                ("warning", Some(Path::new("/b/bot.c")), 2, 1),
                ("error", None, 0, 0),
            ]
        );
        assert_eq!(messages[0].message, "use of undeclared identifier 'x'");
        assert!(messages[0].rendered.ends_with("    x = 1;\n    ^\n"), "{}", messages[0].rendered);
        assert_eq!(messages[2].message, "/tmp/bot.o: undefined symbol: bot_play");
    }

    #[test]
    fn a_missing_toolchain_names_its_packages_and_a_bot_without_the_header_is_told_where() {
        let dir = tempfile::tempdir().unwrap();
        let cbot = bot(dir.path(), "void bot_play(void) {}\n");
        let empty = tempfile::tempdir().unwrap();
        let error = build_with(
            &cbot,
            &flags(DebugInfo::LineTables),
            empty.path(),
            empty.path(),
            empty.path().as_os_str(),
            empty.path(),
            &CancelToken::new(),
        )
        .unwrap_err()
        .to_string();
        for part in ["building a C bot needs clang (package clang)", "package lld", "wasi-libc"] {
            assert!(error.contains(part), "{error}");
        }
        let wasi = empty.path().join("include");
        std::fs::create_dir_all(&wasi).unwrap();
        std::fs::write(wasi.join("stdlib.h"), "").unwrap();
        std::fs::write(empty.path().join(HEADER), "").unwrap();
        // A clang that compiles anything: the header check still finds the missing include.
        for tool in ["clang", "wasm-ld"] {
            let file = empty.path().join(tool);
            std::fs::write(&file, "#!/bin/sh\nexit 0\n").unwrap();
            std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o755))
                .unwrap();
        }
        let error = build_with(
            &cbot,
            &flags(DebugInfo::LineTables),
            empty.path(),
            empty.path(),
            empty.path().as_os_str(),
            &wasi,
            &CancelToken::new(),
        )
        .unwrap_err();
        let FolderError::Compile(messages) = error else { panic!("{error}") };
        assert_eq!((messages[0].line, messages[0].file.as_deref()), (1, Some(&*cbot.sources[0])));
        assert!(messages[0].message.contains("#include \"botlens.h\""), "{}", messages[0].message);
    }

    #[test]
    fn a_lone_c_file_is_the_bot_alone() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("helper.c"), "").unwrap();
        let file = dir.path().join("mine.c");
        std::fs::write(&file, "").unwrap();
        let bot = CBot::load(&file, Some(GameKind::TicTacToe)).unwrap();
        assert_eq!((bot.name.as_str(), bot.sources.as_slice()), ("mine", [file].as_slice()));
        let folder = CBot::load(dir.path(), Some(GameKind::TicTacToe)).unwrap();
        assert_eq!(folder.sources.len(), 2, "a folder's bot is every .c file");
    }

    #[test]
    fn a_folder_without_c_files_is_no_c_bot() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("botlens.toml"), "game = \"tictactoe\"\n").unwrap();
        let error = CBot::load(dir.path(), None).unwrap_err().to_string();
        assert!(error.ends_with("no .c file here: a C bot is .c files that include botlens.h"));
    }
}

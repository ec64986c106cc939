//! JavaScript bots, in the old arena's format: a `.js` file, or a folder with one and an
//! optional `botlens.toml` (the settings every bot folder shares, [`crate::folder`]; `bot = …`
//! names the file when the folder has several), run by the JavaScript runner (QuickJS compiled
//! to a WebAssembly bot module, `crates/js-runner`) inside the same sandbox as every other bot.
//!
//! The runner is built once per botlens build, from the sources bundled in the binary
//! ([`crate::bundled::folder`]), into botlens's cache directory: [`runner()`]. Every JavaScript
//! bot is that one compiled module with the bot's source attached
//! ([`botlens_sandbox::BotModule::with_payload`]), so editing a bot needs no build.
//!
//! Its row in [`super::TOOLCHAINS`] is [`JavaScript`].
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
use super::c::{WASI_INCLUDE, WASI_LIB};
use super::{Bot, BuildFailure, BuildRequest, Debugging, LoadError, Ready, Settings, Stage};
use crate::CancelToken;
use crate::build::{BuildError, CompilerMessage};
use crate::folder::{CONFIG_FILE, Folder, FolderError, missing_clang_tools, on_path};
use crate::scaffold::{CiSetup, FolderReadme, Scaffold, ScaffoldError};

/// The start of the message the runner gives a syntax error in the bot's source.
const SYNTAX_ERROR: &str = "syntax error: ";

/// What the runner's build is, in a missing tool's message.
const BUILDING_RUNNER: &str = "building botlens's JavaScript runner (once)";

/// What building the runner is, for progress.
const SETTING_UP: &str =
    "building botlens's JavaScript runner (once per botlens build, a minute or two)";

/// What a new JavaScript bot's README says of it.
const README: FolderReadme = FolderReadme {
    about: "botlens runs bot.js in the arena's format",
    how: "It is in the old arena's format (`function Bot`, `Bot.prototype.play(turn)`); botlens runs it\nin its JavaScript runner, which it builds once on first use (that build needs `sudo apt-get\ninstall -y clang lld wasi-libc libclang-rt-dev-wasm32` on Debian or Ubuntu).",
    faults: "an exception",
    manual: "docs/javascript.md",
    sdk: "the JavaScript runner",
};

/// JavaScript: a row of [`super::TOOLCHAINS`].
#[derive(Debug)]
pub struct JavaScript;

impl Toolchain for JavaScript {
    fn name(&self) -> &'static str {
        "js"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["javascript"]
    }

    fn title(&self) -> &'static str {
        "JavaScript"
    }

    fn about(&self) -> &'static str {
        "A folder with bot.js in the old arena's format"
    }

    fn extension(&self) -> &'static str {
        "js"
    }

    fn is_entry(&self, line: &str) -> bool {
        line.strip_prefix("function Bot").is_some_and(|rest| rest.starts_with([' ', '(']))
    }

    /// The runner, with the starting bots (a bot's source needs no library).
    fn sdk(&self) -> &'static str {
        "js-runner"
    }

    fn ci_setup(&self) -> CiSetup {
        CiSetup::Apt(crate::folder::PACKAGES)
    }

    fn builder(&self) -> Option<&'static str> {
        None
    }

    fn debugging(&self) -> Debugging {
        Debugging::Refused(
            "is a JavaScript bot: its module is the JavaScript runner, whose debug info describes the interpreter, not the bot; step through its games with `botlens replay` instead",
        )
    }

    fn runner(&self) -> bool {
        true
    }

    fn load(&self, path: &Path, game: Option<GameKind>) -> Result<Box<dyn Bot>, LoadError> {
        Ok(Box::new(JsBot::load(path, game)?))
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

/// A JavaScript bot on disk.
#[derive(Debug, Clone)]
pub struct JsBot {
    /// The bot's `.js` file, absolute.
    pub file: PathBuf,
    /// The bot's name: the file's stem, or the folder's name for `bot.js`.
    pub name: String,
    /// Its folder's settings (`botlens.toml`, or the defaults without one) and game.
    pub folder: Folder,
}

impl JsBot {
    /// The bot `path` names: a `.js` file, or a folder with one (and maybe `botlens.toml`);
    /// `game` is `--game`.
    pub fn load(path: &Path, game: Option<GameKind>) -> Result<JsBot, FolderError> {
        let named = crate::folder::BotPath::of(path)?;
        let root = &named.root;
        let config = crate::folder::read_config(root)?;
        let file = match &named.file {
            Some(file) => file.clone(),
            None => bot_file(root, config.bot.as_deref())?,
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
        Ok(JsBot { file, name, folder })
    }

    /// What the runner is given (`crates/js-runner`): the game's name and a newline, the length
    /// in bytes of the file name failures carry and a newline, that file name, then the source.
    /// The file name is counted, not ended by a newline, so no name can end early and have the
    /// rest of it read as JavaScript.
    pub fn payload(&self) -> Result<Vec<u8>, FolderError> {
        let mut budget = crate::own_files::Budget::new(&self.folder.root);
        let bytes = crate::folder::read_source(&mut budget, &self.file, JavaScript.title())?;
        if let Some(at) = bytes.iter().position(|b| *b == 0) {
            return Err(FolderError::Compile(vec![self.raw_nul(&bytes[..at])]));
        }
        let file = self.file.display().to_string();
        let mut payload =
            format!("{}\n{}\n{file}", self.folder.game.name(), file.len()).into_bytes();
        payload.extend_from_slice(&bytes);
        Ok(payload)
    }

    /// The compile error of a raw NUL character after `before` in the source: JavaScript allows
    /// one in a string literal, but the engine reads the source as a C string, which would end
    /// there.
    fn raw_nul(&self, before: &[u8]) -> CompilerMessage {
        let line = before.iter().filter(|b| **b == b'\n').count() as u32 + 1;
        let start = before.iter().rposition(|b| *b == b'\n').map_or(0, |at| at + 1);
        let column = String::from_utf8_lossy(&before[start..]).chars().count() as u32 + 1;
        let message = "SyntaxError: a raw NUL character (U+0000) in the source, which botlens's \
            JavaScript engine cannot read: write it as `\\0` (in a string literal) or remove it"
            .to_owned();
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

impl Bot for JsBot {
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
        super::ensure_wasm_target(&mut || progress(Stage::InstallingTarget))?;
        let wasm = runner(&mut || progress(Stage::SettingUp { what: SETTING_UP }))?;
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

/// The folder's bot file: `bot = …` of `botlens.toml`, else its only `.js` file. `bot` may
/// name only a file of the folder: an absolute path, a `..` or a symbolic link leading out of
/// it is refused.
fn bot_file(root: &Path, named: Option<&str>) -> Result<PathBuf, FolderError> {
    if let Some(named) = named {
        return match botlens_files::inside(root, &root.join(named)) {
            Err(ReadError::Outside { .. }) => Err(FolderError::Config {
                path: root.join(CONFIG_FILE),
                message: format!(
                    "bot = \"{}\" leads outside the bot's folder (by an absolute path, `..` or a \
                     symbolic link): name a .js file inside it",
                    botlens_engine::text::clipped(named, 80)
                ),
            }),
            // A missing file is said by the caller, with the path.
            _ => Ok(root.join(named)),
        };
    }
    let no_bot = |message: String| FolderError::NoBot { dir: root.to_owned(), message };
    match crate::folder::sources(root, JavaScript.extension()).as_slice() {
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
pub fn runner(building: &mut dyn FnMut()) -> Result<PathBuf, FolderError> {
    // One build at a time in this process; cargo's own lock serialises processes.
    static BUILDING: Mutex<()> = Mutex::new(());
    let _one = BUILDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = crate::bundled::folder(JavaScript.sdk())?;
    let wasm = dir.join("target/wasm32-wasip1/release/botlens_js_runner.wasm");
    if wasm.is_file() {
        return Ok(wasm);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let ar = check_toolchain(&path, Path::new(WASI_INCLUDE))?;
    building();
    let sysroot = sysroot(&dir)?;
    let homes = crate::tools::RustHomes::of_user();
    let (manifest, target) = (dir.join("Cargo.toml"), dir.join("target"));
    let sources = [dir.clone()];
    let build = crate::build::CargoBuild {
        homes: &homes,
        manifest: &manifest,
        sources: &sources,
        target: &target,
    };
    let configure = |cargo: &mut botlens_confine::Confined| {
        cargo
            .args(["--release", "--locked", "--target", crate::build::WASM_TARGET])
            .env("RQUICKJS_SYS_NO_WASI_SDK", "1")
            .env("CC_wasm32_wasip1", "clang")
            .env("AR_wasm32_wasip1", &ar)
            .env("CFLAGS_wasm32_wasip1", format!("--sysroot={}", sysroot.display()));
    };
    let timeout = crate::build::DEFAULT_BUILD_TIMEOUT;
    let built = build.run(&configure, timeout, &crate::CancelToken::new()).map_err(|stopped| {
        FolderError::RunnerBuild(match stopped {
            crate::build::Stopped::Failed(error) => error.to_string(),
            crate::build::Stopped::Cancelled => "cancelled".into(),
        })
    })?;
    if !built.status.success() || !wasm.is_file() {
        let stderr = String::from_utf8_lossy(&built.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(FolderError::RunnerBuild(tail.join("\n")));
    }
    Ok(wasm)
}

/// Checks the tools the runner's build needs on `path` (a `PATH` value) and wasi-libc's headers
/// in `include`; returns the archiver's name.
fn check_toolchain(path: &std::ffi::OsStr, include: &Path) -> Result<String, FolderError> {
    let mut missing = missing_clang_tools(path, include);
    let ar = std::iter::once("llvm-ar".to_owned())
        .chain((11..=22).rev().map(|version| format!("llvm-ar-{version}")))
        .find(|name| on_path(path, name));
    if ar.is_none() {
        missing.push("llvm-ar (package llvm, or clang's llvm-ar-NN)");
    }
    match ar {
        Some(ar) if missing.is_empty() => Ok(ar),
        _ => Err(FolderError::Toolchain {
            building: BUILDING_RUNNER,
            missing: missing.join(", "),
            install: crate::folder::apt_install(),
        }),
    }
}

/// A sysroot clang finds Debian's wasi-libc in for `wasm32-wasip1`: links to its headers and
/// libraries under the target names clang looks for.
fn sysroot(dir: &Path) -> Result<PathBuf, FolderError> {
    let root = dir.join("sysroot");
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| FolderError::Read { path, source }
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

/// A syntax error in the bot's source, as a compiler message (the editor shows it like one),
/// found by starting one game before any is played.
pub fn check(bot: &JsBot, module: &BotModule, limits: &SandboxLimits) -> Option<CompilerMessage> {
    let failure = bot.folder.game.visit(FirstTurn { module, limits })?;
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
        assert!(
            text.contains(&format!("apt-get install -y {}", crate::folder::PACKAGES)),
            "{text}"
        );
    }

    #[test]
    fn a_folder_finds_its_bot_and_game_and_refuses_ambiguity() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.js"), "function Bot() {}").unwrap();
        let error = JsBot::load(dir.path(), None).unwrap_err();
        assert!(matches!(error, FolderError::NoGame(_)), "{error}");
        let bot = JsBot::load(dir.path(), Some(GameKind::TicTacToe)).unwrap();
        assert_eq!((bot.name.as_str(), bot.folder.game), ("a", GameKind::TicTacToe));
        std::fs::write(dir.path().join("b.js"), "").unwrap();
        let error = JsBot::load(dir.path(), Some(GameKind::TicTacToe)).unwrap_err();
        assert!(error.to_string().contains("several .js files (a.js, b.js)"), "{error}");
        std::fs::write(dir.path().join(CONFIG_FILE), "game = \"battleships\"\nbot = \"b.js\"\n")
            .unwrap();
        let bot = JsBot::load(dir.path(), None).unwrap();
        assert_eq!(
            (bot.file.file_name().unwrap().to_str(), bot.folder.game),
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
        let name = file.display().to_string();
        assert_eq!(payload, format!("tictactoe\n{}\n{name}function Bot() {{}}", name.len()));
    }

    #[test]
    fn a_folder_may_not_name_or_link_a_bot_outside_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("bot");
        std::fs::create_dir(&root).unwrap();
        std::fs::write(dir.path().join("elsewhere.js"), "function Bot() {}").unwrap();
        let config = root.join(CONFIG_FILE);
        for named in ["/etc/hostname", "../elsewhere.js", "sub/../../elsewhere.js"] {
            std::fs::write(&config, format!("game = \"tictactoe\"\nbot = \"{named}\"\n")).unwrap();
            let error = JsBot::load(&root, None).unwrap_err().to_string();
            assert_eq!(
                error,
                format!(
                    "{}: bot = \"{named}\" leads outside the bot's folder (by an absolute path, `..` \
                     or a symbolic link): name a .js file inside it",
                    config.display()
                )
            );
        }
        // A link leading out of the folder is no source of it, named or found.
        std::os::unix::fs::symlink("/etc/hostname", root.join("host.js")).unwrap();
        std::fs::write(&config, "game = \"tictactoe\"\nbot = \"host.js\"\n").unwrap();
        let error = JsBot::load(&root, None).unwrap_err().to_string();
        assert!(error.contains("bot = \"host.js\" leads outside the bot's folder"), "{error}");
        std::fs::write(&config, "game = \"tictactoe\"\n").unwrap();
        let error = JsBot::load(&root, None).unwrap_err().to_string();
        assert!(
            error.ends_with(
                "no .js file here: a JavaScript bot is a .js file in the arena's format"
            ),
            "{error}"
        );
        let error = JsBot::load(&root.join("host.js"), None).unwrap_err().to_string();
        assert!(error.contains("host.js: it leads outside"), "{error}");
        // A link inside the folder is followed.
        std::fs::write(root.join("real.js"), "function Bot() {}").unwrap();
        std::os::unix::fs::symlink(root.join("real.js"), root.join("alias.js")).unwrap();
        std::fs::write(&config, "game = \"tictactoe\"\nbot = \"alias.js\"\n").unwrap();
        let bot = JsBot::load(&root, None).unwrap();
        assert!(bot.payload().unwrap().ends_with(b"function Bot() {}"));
    }

    #[test]
    fn a_path_with_a_newline_is_refused_before_it_reaches_the_runner() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("x\nthrow 1;//");
        std::fs::create_dir(&root).unwrap();
        std::fs::write(root.join("bot.js"), "function Bot() {}").unwrap();
        let error = JsBot::load(&root, Some(GameKind::TicTacToe)).unwrap_err().to_string();
        assert!(
            error.ends_with(
                "the bot's path has a control character (\\u{a}); the runner names the bot's file \
                 in its stacks and messages, one per line: rename the file or its folders"
            ),
            "{error}"
        );
    }

    #[test]
    fn a_raw_nul_in_the_source_is_a_compile_error_at_its_place() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot.js");
        std::fs::write(&file, "function Bot() {}\nvar s = 'é\0';\n").unwrap();
        let bot = JsBot::load(&file, Some(GameKind::TicTacToe)).unwrap();
        let FolderError::Compile(messages) = bot.payload().unwrap_err() else { panic!() };
        let [message] = messages.as_slice() else { panic!("{messages:?}") };
        assert_eq!((message.line, message.column, message.file.as_ref()), (2, 11, Some(&file)));
        assert_eq!(
            message.rendered,
            format!(
                "error: SyntaxError: a raw NUL character (U+0000) in the source, which botlens's \
                 JavaScript engine cannot read: write it as `\\0` (in a string literal) or remove it\n  --> {}:2:11\n",
                file.display()
            )
        );
    }
}

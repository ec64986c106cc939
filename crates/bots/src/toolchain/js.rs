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
//! Its row in [`super::TOOLCHAINS`] is [`JavaScript`]; its bots are [`super::script`]'s.
//!
//! Not for: playing (see `botlens-harness`'s `pipeline`).

use std::path::{Path, PathBuf};

use botlens_games::GameKind;

use super::Toolchain;
use super::c::{WASI_INCLUDE, WASI_LIB};
use super::script::{Runner, Script, build_runner};
use super::{Bot, Debugging, LoadError};
use crate::folder::{FolderError, missing_clang_tools, on_path};
use crate::scaffold::{CiSetup, FolderReadme, Scaffold, ScaffoldError};

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

/// JavaScript bots as a runner plays them ([`super::script`]).
pub static SCRIPT: Script = Script {
    toolchain: &JavaScript,
    runner,
    setting_up: SETTING_UP,
    nul: "SyntaxError: a raw NUL character (U+0000) in the source, which botlens's JavaScript \
        engine cannot read: write it as `\\0` (in a string literal) or remove it",
    lone_file: "a JavaScript bot is a .js file in the arena's format",
    error_type: Some("SyntaxError"),
};

/// The compiled runner's file, built first if this build of botlens has not built it yet
/// (once: later calls, in this process or another, find it in the cache). `building` is called
/// before the build starts, which takes a minute or two.
pub fn runner(building: &mut dyn FnMut()) -> Result<PathBuf, FolderError> {
    let dir = crate::bundled::folder(JavaScript.sdk())?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    // The C toolchain is checked only when the runner is to be built.
    let built = dir.join("target/wasm32-wasip1/release").join(RUNNER_WASM).is_file();
    let checked = match built {
        true => None,
        false => Some((check_toolchain(&path, Path::new(WASI_INCLUDE))?, sysroot(&dir)?)),
    };
    let configure = |cargo: &mut botlens_confine::Confined| {
        if let Some((ar, sysroot)) = &checked {
            cargo
                .env("RQUICKJS_SYS_NO_WASI_SDK", "1")
                .env("CC_wasm32_wasip1", "clang")
                .env("AR_wasm32_wasip1", ar)
                .env("CFLAGS_wasm32_wasip1", c_flags(sysroot, bundled_manifest()));
        }
    };
    let runner = Runner {
        name: "JavaScript runner",
        sdk: JavaScript.sdk(),
        wasm: RUNNER_WASM,
        needs_clang: true,
    };
    build_runner(&runner, building, &configure)
}

/// The runner's manifest as botlens bundles it.
fn bundled_manifest() -> &'static str {
    crate::bundled::file(&format!("{}/Cargo.toml", JavaScript.sdk())).unwrap_or_default()
}

/// The flags clang compiles QuickJS's C with: the sysroot, then the ones the runner's `manifest`
/// declares (`[package.metadata.botlens] c-flags`). Declared there, they are part of the bundle
/// the runner's build is cached under, so a change of them builds the runner again.
fn c_flags(sysroot: &Path, manifest: &str) -> String {
    let manifest: toml::Table = manifest.parse().unwrap_or_default();
    let declared = manifest
        .get("package")
        .and_then(|package| package.get("metadata"))
        .and_then(|metadata| metadata.get("botlens"))
        .and_then(|botlens| botlens.get("c-flags"))
        .and_then(toml::Value::as_array);
    let mut flags = format!("--sysroot={}", sysroot.display());
    for flag in declared.into_iter().flatten().filter_map(toml::Value::as_str) {
        flags.push(' ');
        flags.push_str(flag);
    }
    flags
}

/// The runner's module, as cargo names it.
const RUNNER_WASM: &str = "botlens_js_runner.wasm";

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::folder::CONFIG_FILE;
    use crate::toolchain::script::ScriptBot;

    #[test]
    fn quickjs_is_compiled_with_the_webassembly_features_the_runner_declares() {
        let flags = c_flags(Path::new("/cache/sysroot"), bundled_manifest());
        assert_eq!(
            flags,
            "--sysroot=/cache/sysroot -mbulk-memory -msign-ext -mnontrapping-fptoint \
             -mmutable-globals"
        );
        assert_eq!(c_flags(Path::new("/s"), "[package]\nname = \"x\"\n"), "--sysroot=/s");
    }

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
        let error = ScriptBot::load(&SCRIPT, dir.path(), None).unwrap_err();
        assert!(matches!(error, FolderError::NoGame(_)), "{error}");
        let bot = ScriptBot::load(&SCRIPT, dir.path(), Some(GameKind::TicTacToe)).unwrap();
        assert_eq!((bot.name.as_str(), bot.folder.game), ("a", GameKind::TicTacToe));
        std::fs::write(dir.path().join("b.js"), "").unwrap();
        let error = ScriptBot::load(&SCRIPT, dir.path(), Some(GameKind::TicTacToe)).unwrap_err();
        assert!(error.to_string().contains("several .js files (a.js, b.js)"), "{error}");
        std::fs::write(dir.path().join(CONFIG_FILE), "game = \"battleships\"\nbot = \"b.js\"\n")
            .unwrap();
        let bot = ScriptBot::load(&SCRIPT, dir.path(), None).unwrap();
        assert_eq!(
            (bot.file.file_name().unwrap().to_str(), bot.folder.game),
            (Some("b.js"), GameKind::Battleships)
        );
        let error = ScriptBot::load(&SCRIPT, dir.path(), Some(GameKind::Klotski)).unwrap_err();
        assert!(error.to_string().contains("plays battleships"), "{error}");
        std::fs::write(dir.path().join(CONFIG_FILE), "gmae = 1\n").unwrap();
        let error = ScriptBot::load(&SCRIPT, dir.path(), None).unwrap_err();
        assert!(error.to_string().contains("unknown field `gmae`"), "{error}");
    }

    #[test]
    fn a_source_that_is_not_utf8_is_refused_at_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot.js");
        std::fs::write(&file, b"// ok\nvar s = '\xff';\n").unwrap();
        let bot = ScriptBot::load(&SCRIPT, &file, Some(GameKind::TicTacToe)).unwrap();
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
            let error = ScriptBot::load(&SCRIPT, &root, None).unwrap_err().to_string();
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
        let error = ScriptBot::load(&SCRIPT, &root, None).unwrap_err().to_string();
        assert!(error.contains("bot = \"host.js\" leads outside the bot's folder"), "{error}");
        std::fs::write(&config, "game = \"tictactoe\"\n").unwrap();
        let error = ScriptBot::load(&SCRIPT, &root, None).unwrap_err().to_string();
        assert!(
            error.ends_with(
                "no .js file here: a JavaScript bot is a .js file in the arena's format"
            ),
            "{error}"
        );
        let error = ScriptBot::load(&SCRIPT, &root.join("host.js"), None).unwrap_err().to_string();
        assert!(error.contains("host.js: it leads outside"), "{error}");
        // A link inside the folder is followed.
        std::fs::write(root.join("real.js"), "function Bot() {}").unwrap();
        std::os::unix::fs::symlink(root.join("real.js"), root.join("alias.js")).unwrap();
        std::fs::write(&config, "game = \"tictactoe\"\nbot = \"alias.js\"\n").unwrap();
        let bot = ScriptBot::load(&SCRIPT, &root, None).unwrap();
        assert!(bot.payload().unwrap().ends_with(b"function Bot() {}"));
    }

    #[test]
    fn a_path_with_a_newline_is_refused_before_it_reaches_the_runner() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("x\nthrow 1;//");
        std::fs::create_dir(&root).unwrap();
        std::fs::write(root.join("bot.js"), "function Bot() {}").unwrap();
        let error =
            ScriptBot::load(&SCRIPT, &root, Some(GameKind::TicTacToe)).unwrap_err().to_string();
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
        let bot = ScriptBot::load(&SCRIPT, &file, Some(GameKind::TicTacToe)).unwrap();
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

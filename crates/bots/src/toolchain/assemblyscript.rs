//! AssemblyScript bots: a folder with a `bot.ts` that imports the bundled package `botlens`
//! (`crates/sdk-as`, unpacked by [`crate::bundled::folder`]) and, optionally, a `botlens.toml`
//! with `lang = "assemblyscript"` ([`crate::folder`]). botlens builds them with the
//! AssemblyScript compiler, which it installs with npm, pinned to [`VERSION`], into its cache
//! directory on first use ([`compiler`]; `BOTLENS_ASSEMBLYSCRIPT_DIR` names another directory):
//!
//! ```text
//! node <asc.js> bot.ts --path <sdk-as> --use abort=~lib/botlens/index/abort \
//!     --use seed=~lib/botlens/index/seed --exportStart _initialize --debug --sourceMap \
//!     --optimizeLevel 0 --noColors -o bot.wasm
//! ```
//!
//! AssemblyScript has no DWARF and no syntax for custom sections, so [`build`] appends them: the
//! ABI version, the compact encoding, and the source map the compiler wrote beside the module
//! (`botlens_source_map`, its sources absolute under the bot's folder but `~lib/…`), through
//! which the sandbox locates failures. The compiler's diagnostics (`ERROR TS2304: …` then `└─ in bot.ts(12,3)`)
//! become located [`CompilerMessage`]s; the module is cached by the sources' hash as C and Zig
//! bots are (`compiled.rs`).
//!
//! Its row in [`super::TOOLCHAINS`] is [`AssemblyScript`]. The SDK and AssemblyScript's standard
//! library are `~lib/…` in the source map, which the locator skips.
//!
//! Not for: playing (see `botlens-harness`'s `pipeline`).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use botlens_games::GameKind;
use botlens_sandbox::Sandbox;

use super::Toolchain;
use super::{Bot, BuildFailure, BuildRequest, Debugging, LoadError, Ready, Settings, Stage};
use crate::CancelToken;
use crate::build::CompilerMessage;
use crate::compiled::{self, Built, Fnv};
use crate::folder::{Folder, FolderError, on_path};
use crate::scaffold::{FolderReadme, Scaffold, ScaffoldError};
use crate::shown::{EXCERPT_NOT_SHOWN, MESSAGE_NOT_SHOWN, Shown};

/// The version of the `assemblyscript` package botlens installs and builds with.
pub const VERSION: &str = "0.28.20";

/// The SDK's package name, as a bot imports it.
pub const PACKAGE: &str = "botlens";

/// The variable naming the directory the compiler is installed in, instead of the cache's.
pub const COMPILER_DIR_VAR: &str = "BOTLENS_ASSEMBLYSCRIPT_DIR";

/// What is built, in a missing tool's message.
const BUILDING: &str = "building an AssemblyScript bot";

/// How to install Node.js and npm on Debian or Ubuntu.
const INSTALL_NODE: &str = "sudo apt-get install -y nodejs npm";

/// The program that builds AssemblyScript bots.
const ASC: &str = "asc";

/// What installing the compiler is, for progress.
const INSTALLING: &str =
    "installing the AssemblyScript compiler with npm (once, into botlens's cache)";

/// What a new AssemblyScript bot's README says of it.
const README: FolderReadme = FolderReadme {
    about: "botlens builds bot.ts with the AssemblyScript compiler and the bundled package botlens",
    how: "It imports `botlens`, the AssemblyScript SDK, which botlens carries. `botlens run` installs the\nAssemblyScript compiler with npm into botlens's cache on first use (it needs Node.js: `sudo\napt-get install -y nodejs npm` on Debian or Ubuntu), then builds `bot.ts` with `asc --debug\n--sourceMap`; the API is documented in the package's `index.ts`.",
    faults: "a failed `assert`, an index out of range",
    manual: "docs/assemblyscript.md",
    sdk: PACKAGE,
};

/// AssemblyScript: a row of [`super::TOOLCHAINS`].
#[derive(Debug)]
pub struct AssemblyScript;

impl Toolchain for AssemblyScript {
    fn name(&self) -> &'static str {
        "assemblyscript"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["as"]
    }

    fn title(&self) -> &'static str {
        "AssemblyScript"
    }

    fn about(&self) -> &'static str {
        "A folder with bot.ts and the AssemblyScript SDK, the package botlens"
    }

    fn extension(&self) -> &'static str {
        "ts"
    }

    fn is_entry(&self, line: &str) -> bool {
        line.starts_with("exportBot(")
    }

    fn sdk(&self) -> &'static str {
        "sdk-as"
    }

    fn builder(&self) -> Option<&'static str> {
        Some(ASC)
    }

    fn debugging(&self) -> Debugging {
        Debugging::Refused(
            "is an AssemblyScript bot: AssemblyScript compiles no DWARF debug info (only a source map, which gdb and lldb do not read), so a debugger would show neither its lines nor its variables; step through its games with `botlens replay` instead, which shows each failure at its line of the bot's .ts file",
        )
    }

    fn load(&self, path: &Path, game: Option<GameKind>) -> Result<Box<dyn Bot>, LoadError> {
        Ok(Box::new(AsBot::load(path, game)?))
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

/// How [`rooted`] rewrites the compiler's source map, in the build's hash: a module cached
/// before it changed is built again.
const MAP_REWRITE: &str = "rooted, mappings with a source only";

/// asc's flags besides the entry file, the package path and the output.
const FLAGS: [&str; 11] = [
    "--use",
    "abort=~lib/botlens/index/abort",
    "--use",
    "seed=~lib/botlens/index/seed",
    "--exportStart",
    "_initialize",
    "--debug",
    "--sourceMap",
    "--optimizeLevel",
    "0",
    "--noColors",
];

/// An AssemblyScript bot on disk.
#[derive(Debug, Clone)]
pub struct AsBot {
    /// The bot's name: its folder's, or a lone file's stem (`bot.<extension>`: the folder's).
    pub name: String,
    /// The entry file: `bot.ts`, else the folder's only `.ts` file; absolute.
    pub file: PathBuf,
    /// Its folder's settings and game.
    pub folder: Folder,
}

impl AsBot {
    /// The AssemblyScript bot `path` names: a folder with an entry file, or one `.ts` file;
    /// `game` is `--game`.
    pub fn load(dir: &Path, game: Option<GameKind>) -> Result<AsBot, FolderError> {
        let none = format!(
            "no .ts file here: an AssemblyScript bot is a bot.ts that imports \"{PACKAGE}\""
        );
        let extension = AssemblyScript.extension();
        let (name, file, folder) = super::load_rooted(dir, game, extension, none)?;
        Ok(AsBot { name, file, folder })
    }
}

impl Bot for AsBot {
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
        _request: &BuildRequest<'_>,
        progress: &(dyn Fn(Stage) + Sync),
        cancel: &CancelToken,
    ) -> Result<Ready, BuildFailure> {
        progress(Stage::Building { tool: ASC });
        let installing = &mut || progress(Stage::SettingUp { what: INSTALLING });
        Ready::load(sandbox, build(self, installing, cancel)?, progress)
    }
}

/// Builds `bot` with asc (or finds it built in the cache), installing the compiler first if
/// this machine has not got it (`installing` is told before that): compile errors come back as
/// [`FolderError::Compile`], a missing Node.js or a failed install as
/// [`FolderError::Toolchain`].
///
/// npm and asc run confined (`tools`): npm reaches the network and writes only the
/// compiler's new directory (with `--ignore-scripts`: no package's install script runs); asc
/// (with anything a bot's `asconfig.json` makes it load) reads the bot's folder, the SDK and
/// the compiler, writes a private directory, has no network, and is stopped when `cancel` is
/// cancelled.
pub fn build(
    bot: &AsBot,
    installing: &mut dyn FnMut(),
    cancel: &CancelToken,
) -> Result<Built, FolderError> {
    let cache = crate::bundled::cache_root().ok_or(crate::bundled::BundleError::NoCacheDir)?;
    let sdk = crate::bundled::folder(AssemblyScript.sdk())?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dir = std::env::var_os(COMPILER_DIR_VAR)
        .filter(|dir| !dir.is_empty())
        .map_or_else(|| cache.join(format!("assemblyscript-{VERSION}")), PathBuf::from);
    let asc = compiler(&dir, &path, installing)?;
    build_with(bot, &asc, &sdk, &cache.join("as-bots"), &path, cancel)
}

/// The compiler's entry script in `dir`, installed there with npm first when it is not:
/// `node_modules/assemblyscript/bin/asc.js`. `path` is the `PATH` node and npm are looked up on.
pub fn compiler(
    dir: &Path,
    path: &OsStr,
    installing: &mut dyn FnMut(),
) -> Result<PathBuf, FolderError> {
    let missing: Vec<&str> = ["node", "npm"].into_iter().filter(|t| !on_path(path, t)).collect();
    if !missing.is_empty() {
        return Err(FolderError::Toolchain {
            building: BUILDING,
            missing: format!("Node.js ({} not on PATH)", missing.join(" and ")),
            install: INSTALL_NODE.into(),
        });
    }
    let asc = |dir: &Path| dir.join("node_modules/assemblyscript/bin/asc.js");
    if asc(dir).is_file() {
        return Ok(asc(dir));
    }
    installing();
    let parent = dir.parent().unwrap_or(dir);
    let io = |source| FolderError::Read { path: parent.to_owned(), source };
    std::fs::create_dir_all(parent).map_err(io)?;
    // Installed beside the directory, then renamed into place: a copy is complete or absent.
    let name = dir.file_name().map_or_else(|| "assemblyscript".into(), |n| n.to_string_lossy());
    let temp = parent.join(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_dir_all(&temp);
    std::fs::create_dir_all(&temp).map_err(io)?;
    let package = format!("assemblyscript@{VERSION}");
    let mut npm = crate::tools::system("npm", path);
    npm.args(["install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-save"])
        .args(["--loglevel", "error", "--prefix"])
        .arg(&temp)
        .arg(&package)
        .write(&temp)
        .network(true)
        .limits(crate::compiled::limits());
    // The user's npm settings (registry, certificates), which npm alone reads.
    let user_config = std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".npmrc"));
    if let Some(user_config) = user_config.filter(|file| file.is_file()) {
        npm.env("NPM_CONFIG_USERCONFIG", &user_config).read(user_config);
    }
    let output = crate::tools::run(&npm, &CancelToken::new());
    let failed = |why: String| {
        let _ = std::fs::remove_dir_all(&temp);
        FolderError::Toolchain {
            building: BUILDING,
            missing: format!(
                "the AssemblyScript compiler, which `npm install {package}` did not install ({why})"
            ),
            install: format!("npm install --prefix {} {package}", dir.display()),
        }
    };
    match output {
        Err(error) => return Err(failed(error.to_string())),
        Ok(output) if !output.status.success() || !asc(&temp).is_file() => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let last: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
            let tail = last[last.len().saturating_sub(3)..].join(" / ");
            return Err(failed(if tail.is_empty() { output.status.to_string() } else { tail }));
        }
        Ok(_) => {}
    }
    match std::fs::rename(&temp, dir) {
        Ok(()) => {}
        // Another botlens installed it first: theirs is as good.
        Err(_) if asc(dir).is_file() => {
            let _ = std::fs::remove_dir_all(&temp);
        }
        Err(source) => {
            let _ = std::fs::remove_dir_all(&temp);
            return Err(FolderError::Read { path: dir.to_owned(), source });
        }
    }
    Ok(asc(dir))
}

/// [`build`] with the compiler's script, the SDK's directory, the cache of built bots and
/// `PATH` given.
fn build_with(
    bot: &AsBot,
    asc: &Path,
    sdk: &Path,
    cache: &Path,
    path: &OsStr,
    cancel: &CancelToken,
) -> Result<Built, FolderError> {
    let sdk_file = sdk.join(PACKAGE).join("index.ts");
    let mut hash = Fnv::default();
    hash.add(VERSION.as_bytes());
    hash.add(MAP_REWRITE.as_bytes());
    hash.add(sdk.as_os_str().as_encoded_bytes());
    hash.add(
        &std::fs::read(&sdk_file)
            .map_err(|source| FolderError::Read { path: sdk_file.clone(), source })?,
    );
    for flag in FLAGS {
        hash.add(flag.as_bytes());
    }
    hash.add(bot.file.as_os_str().as_encoded_bytes());
    let mut budget = crate::own_files::Budget::new(&bot.folder.root);
    let lang = AssemblyScript;
    for file in crate::folder::sources(&bot.folder.root, lang.extension()) {
        hash.add(file.as_os_str().as_encoded_bytes());
        hash.add(&crate::folder::read_source(&mut budget, &file, lang.title())?);
    }
    let wasm = cache.join(format!("{}-{:016x}.wasm", bot.name, hash.0));
    if let Some(built) = crate::compiled::cached(&wasm, cache, diagnostics)? {
        return Ok(built);
    }
    let output = crate::tools::output_dir(cache)
        .map_err(|source| FolderError::Read { path: cache.to_owned(), source })?;
    let partial = output.path().join("bot.wasm");
    let mut node = crate::tools::system("node", path);
    node.arg(asc)
        .arg(&bot.file)
        .arg("--path")
        .arg(sdk)
        .args(FLAGS)
        .arg("-o")
        .arg(&partial)
        .current_dir(&bot.folder.root)
        .read(&bot.folder.root)
        .read(sdk)
        .write(output.path())
        .limits(crate::compiled::limits());
    // The compiler's packages: `<dir>/node_modules/assemblyscript/bin/asc.js`.
    if let Some(packages) = asc.ancestors().nth(3) {
        node.read(packages);
    }
    let run = crate::compiled::run(&node, BUILDING, "a node", INSTALL_NODE, cancel)?;
    // Nothing of a file outside the bot's folder reaches a message (asc's own are `~lib/…`).
    let shown = Shown::new(&bot.folder.root, &[]);
    let map_file = PathBuf::from(format!("{}.map", partial.display()));
    if !run.success {
        return Err(FolderError::Compile(errors(&run.stderr, &shown)));
    }
    let map = std::fs::read(&map_file)
        .map_err(|source| FolderError::Read { path: map_file.clone(), source })?;
    let map = rooted(&map, &bot.folder.root).map_err(|message| {
        FolderError::Compile(vec![unlocated(&format!(
            "asc wrote a source map botlens cannot read: {message}"
        ))])
    })?;
    let sections: [(&str, &[u8]); 3] = [
        ("botlens_abi", b"1"),
        ("botlens_encoding", b"compact"),
        ("botlens_source_map", map.as_bytes()),
    ];
    crate::compiled::append_sections(&partial, &sections)?;
    let stderr = absolute_paths(&run.stderr, &shown);
    crate::compiled::store(&partial, wasm, &stderr, run.duration, diagnostics)
}

/// The source map `map` (JSON) with its sources made absolute under `root`, where asc ran
/// (asc's `sourceRoot` dropped), except AssemblyScript's own, `~lib/…`, which stay so named
/// (profiles show `~lib/string.ts`; the locator skips them); without `sourcesContent` (the sources are on disk, or not the bot's); and without
/// the mappings that have no source. Binaryen maps a call whose result is dropped (`mark(x,
/// y);` in a helper) to no source: left so, the locator would find no line for the helper's
/// frame and report the failure at its caller's line; without such a mapping the call keeps
/// the line of the expression before it in the same function, as DWARF's nearest line does.
fn rooted(map: &[u8], root: &Path) -> Result<String, String> {
    let mut map = sourcemap::SourceMap::from_slice(map).map_err(|e| e.to_string())?;
    // asc's own `sourceRoot` (the output's temporary folder) is replaced, not prefixed.
    map.set_source_root(None::<&str>);
    let tokens =
        map.tokens().map(|token| token.get_raw_token()).filter(|raw| raw.src_id != !0).collect();
    let strings = |iter: &mut dyn Iterator<Item = &str>| iter.map(Into::into).collect();
    let mapped = sourcemap::SourceMap::new(
        map.get_file().map(Into::into),
        tokens,
        strings(&mut map.names()),
        map.sources()
            .map(|source| match source.starts_with("~lib/") {
                true => source.into(),
                false => root.join(source).display().to_string().into(),
            })
            .collect(),
        None,
    );
    let mut json = Vec::new();
    mapped.to_writer(&mut json).map_err(|e| e.to_string())?;
    String::from_utf8(json).map_err(|e| e.to_string())
}

/// asc's output with the files of its diagnostics (`in bot.ts(3,5)`) made absolute under
/// the bot's folder and nothing of files outside `shown`, as the cache keeps it.
fn absolute_paths(stderr: &str, shown: &Shown) -> String {
    diagnostics_in(stderr, Some(shown)).iter().map(|m| m.rendered.as_str()).collect()
}

/// The errors of a failed build's output: its diagnostics that are errors (files under the
/// bot's folder, nothing of files outside `shown`), else all of it as one.
fn errors(stderr: &str, shown: &Shown) -> Vec<CompilerMessage> {
    let mut messages: Vec<CompilerMessage> = diagnostics_in(stderr, Some(shown))
        .into_iter()
        .filter(|m| m.level == "error")
        .map(headed)
        .collect();
    if messages.is_empty() {
        messages.push(unlocated(stderr.trim()));
    }
    messages
}

/// asc's diagnostics in `stderr`, as stored beside a built module (files already absolute).
fn diagnostics(stderr: &str) -> Vec<CompilerMessage> {
    diagnostics_in(stderr, None).into_iter().map(headed).collect()
}

/// `message` rendered as rustc's and clang's are, its location first:
/// `/bots/mine/bot.ts:12:3: error TS2304: Cannot find name 'x'.`, then asc's excerpt.
fn headed(mut message: CompilerMessage) -> CompilerMessage {
    if let Some(file) = &message.file {
        let code = message.code.as_deref().map(|code| format!(" {code}")).unwrap_or_default();
        let head = format!(
            "{}:{}:{}: {}{code}: {}\n",
            file.display(),
            message.line,
            message.column,
            message.level,
            message.message
        );
        let rest = message.rendered.split_once('\n').map_or("", |(_, rest)| rest);
        message.rendered = head + rest;
    }
    message
}

/// asc's diagnostics: `ERROR TS2304: message` or `WARNING AS235: message`, the lines after it
/// until the next as its rendering, located by its last line `└─ in bot.ts(12,3)`. With
/// `shown`, relative files are joined to the bot's folder, and a message located in a file
/// outside it (but asc's own, `~lib/…`) keeps its place alone ([`hidden`]). The summary
/// (`FAILURE 1 compile error(s)`) is dropped.
fn diagnostics_in(stderr: &str, shown: Option<&Shown>) -> Vec<CompilerMessage> {
    let root = shown.map(Shown::root);
    let mut messages: Vec<CompilerMessage> = Vec::new();
    for line in stderr.lines() {
        let head = [("ERROR ", "error"), ("WARNING ", "warning")]
            .into_iter()
            .find_map(|(start, level)| Some((line.strip_prefix(start)?, level)));
        if let Some((rest, level)) = head {
            let (code, message) = rest.split_once(": ").unwrap_or(("", rest));
            let mut new = unlocated(message);
            new.level = level.into();
            new.code = (!code.is_empty()).then(|| code.to_owned());
            new.rendered = format!("{}\n", line.trim_end());
            messages.push(new);
        } else if line.starts_with("FAILURE ") || line.trim().is_empty() {
            // The summary, and the blank line after each message.
        } else if let Some(last) = messages.last_mut() {
            let mut line = line.trim_end().to_owned();
            if let Some((file, row, column)) = located(&line) {
                let file = match root {
                    Some(root) if !file.starts_with("~lib/") => root.join(&file),
                    _ => PathBuf::from(&file),
                };
                let prefix = &line[..line.find("in ").unwrap_or(0)];
                line = format!("{prefix}in {}({row},{column})", file.display());
                last.file = Some(file);
                (last.line, last.column, last.end_line, last.end_column) =
                    (row, column, row, column + 1);
            }
            last.rendered.push_str(&line);
            last.rendered.push('\n');
        }
    }
    let Some(shown) = shown else { return messages };
    let outside = |file: &Path| !file.starts_with("~lib/") && !shown.shows(file);
    messages
        .into_iter()
        .map(|m| if m.file.as_deref().is_some_and(outside) { hidden(m) } else { m })
        .collect()
}

/// A message located in a file outside the bot's folder, as asc writes one, saying nothing of
/// the file but where ([`crate::shown`]).
fn hidden(message: CompilerMessage) -> CompilerMessage {
    let head = if message.level == "warning" { "WARNING" } else { "ERROR" };
    let code = message.code.as_deref().unwrap_or_default();
    let file = message.file.as_deref().unwrap_or(Path::new("")).display();
    CompilerMessage {
        rendered: format!(
            "{head} {code}: {MESSAGE_NOT_SHOWN}\n    {EXCERPT_NOT_SHOWN}\n    └─ in {file}({},{})\n",
            message.line, message.column
        ),
        message: MESSAGE_NOT_SHOWN.to_owned(),
        ..message
    }
}

/// The file, line and column of a diagnostic's last line, `└─ in bot.ts(12,3)`.
fn located(line: &str) -> Option<(String, u32, u32)> {
    let trimmed = line.trim_start_matches([' ', '│', '└', '─']);
    let rest = trimmed.strip_prefix("in ")?.strip_suffix(')')?;
    let (file, numbers) = rest.rsplit_once('(')?;
    let (row, column) = numbers.split_once(',')?;
    Some((file.to_owned(), row.parse().ok()?, column.parse().ok()?))
}

/// An error message with no place in a file.
fn unlocated(message: &str) -> CompilerMessage {
    compiled::unlocated("error", message, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUTPUT: &str = "ERROR TS2322: Type 'i32' is not assignable to type '~lib/string/String'.
    :
 17 │ const i: string = pick(view.board);
    │                   ~~~~~~~~~~~~~~~~
    └─ in bot.ts(17,21)

WARNING AS235: Only variables, functions and enums become WebAssembly module exports.
    :
  2 │ export class A {}
    └─ in ~lib/botlens/index.ts(2,1)

ERROR AS111: Element '~lib/botlens/index/abort' not found.

FAILURE 2 compile error(s)
";

    #[test]
    fn ascs_diagnostics_are_located_under_the_bots_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("bot.ts"), "").unwrap();
        let bot = root.join("bot.ts");
        let shown = Shown::new(&root, &[]);
        let messages = diagnostics_in(OUTPUT, Some(&shown));
        let found: Vec<_> = messages
            .iter()
            .map(|m| (m.level.as_str(), m.code.as_deref(), m.file.as_deref(), m.line, m.column))
            .collect();
        assert_eq!(
            found,
            [
                ("error", Some("TS2322"), Some(bot.as_path()), 17, 21),
                ("warning", Some("AS235"), Some(Path::new("~lib/botlens/index.ts")), 2, 1),
                ("error", Some("AS111"), None, 0, 0),
            ]
        );
        assert_eq!(
            messages[0].message,
            "Type 'i32' is not assignable to type '~lib/string/String'."
        );
        let located = format!("└─ in {}(17,21)\n", bot.display());
        assert!(messages[0].rendered.ends_with(&located), "{}", messages[0].rendered);
        let failed = super::errors(OUTPUT, &shown);
        let head = format!("{}:17:21: error TS2322: Type 'i32'", bot.display());
        assert!(failed[0].rendered.starts_with(&head), "{}", failed[0].rendered);
        assert!(failed[0].rendered.ends_with(&located));
        // Stored with absolute paths, the output reads back the same.
        let stored = absolute_paths(OUTPUT, &shown);
        let again = diagnostics(&stored);
        assert_eq!(again.len(), 3);
        assert_eq!(again[0].file.as_deref(), Some(bot.as_path()));
        let errors = errors(OUTPUT, &shown);
        assert_eq!(errors.len(), 2);
        let nothing = super::errors("Killed\n", &shown);
        assert_eq!((nothing[0].message.as_str(), nothing[0].file.as_ref()), ("Killed", None));
    }

    #[test]
    fn a_message_about_a_file_outside_the_folder_keeps_its_place_alone() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::os::unix::fs::symlink("/etc/passwd", root.join("notes.ts")).unwrap();
        let output = "ERROR TS1005: ';' expected.\n    :\n  1 │ root:x:0:0:root:/root:/bin/bash\n    \
            │     ~\n    └─ in notes.ts(1,5)\n\nFAILURE 1 compile error(s)\n";
        let shown = Shown::new(&root, &[]);
        let expected = format!(
            "ERROR TS1005: {MESSAGE_NOT_SHOWN}\n    {EXCERPT_NOT_SHOWN}\n    └─ in {}(1,5)\n",
            root.join("notes.ts").display()
        );
        assert_eq!(absolute_paths(output, &shown), expected);
        let [error] = errors(output, &shown).try_into().unwrap();
        assert_eq!((error.message.as_str(), error.line, error.column), (MESSAGE_NOT_SHOWN, 1, 5));
        assert!(!error.rendered.contains("root:"), "{}", error.rendered);
        assert_eq!(diagnostics(&expected)[0].message, MESSAGE_NOT_SHOWN, "as the cache reads it");
    }

    #[test]
    fn without_node_and_npm_the_packages_are_named() {
        let empty = tempfile::tempdir().unwrap();
        let error =
            compiler(empty.path(), empty.path().as_os_str(), &mut || panic!("nothing installs"))
                .unwrap_err()
                .to_string();
        assert_eq!(
            error,
            "building an AssemblyScript bot needs Node.js (node and npm not on PATH): install it with `sudo apt-get install -y nodejs npm`"
        );
    }

    #[test]
    fn a_failed_install_names_the_command_and_leaves_nothing_behind() {
        let tools = tempfile::tempdir().unwrap();
        for (tool, script) in
            [("node", "exit 0"), ("npm", "echo 'npm ERR! network unreachable' >&2; exit 1")]
        {
            let file = tools.path().join(tool);
            std::fs::write(&file, format!("#!/bin/sh\n{script}\n")).unwrap();
            std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o755))
                .unwrap();
        }
        let cache = tempfile::tempdir().unwrap();
        let dir = cache.path().join("asc");
        let mut told = false;
        let error = compiler(&dir, tools.path().as_os_str(), &mut || told = true).unwrap_err();
        assert!(told, "the install is announced");
        let text = error.to_string();
        assert!(text.contains("`npm install assemblyscript@0.28.20` did not install (npm ERR! network unreachable)"), "{text}");
        assert!(
            text.ends_with(&format!(
                "`npm install --prefix {} assemblyscript@0.28.20`",
                dir.display()
            )),
            "{text}"
        );
        let left: Vec<_> = std::fs::read_dir(cache.path()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn the_source_map_names_the_bots_files_under_its_folder_keeps_lib_and_only_mappings_with_a_source()
     {
        // Columns 0 and 2 map to no source; 1 to bot.ts:1:1, 3 to ~lib/array.ts:2:2 (0-based).
        let map = br#"{"version":3,"sourceRoot":"./out.tmp","sources":["bot.ts","~lib/array.ts"],"sourcesContent":["x",null],"names":[],"mappings":"A,CAAA,C,CCCC"}"#;
        let text = rooted(map, Path::new("/bots/mine")).unwrap();
        let rooted: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(rooted.get("sourceRoot").is_none(), "{rooted}");
        assert_eq!(rooted["sources"][0], "/bots/mine/bot.ts");
        assert!(rooted.get("sourcesContent").is_none(), "{rooted}");
        let decoded = sourcemap::SourceMap::from_slice(text.as_bytes()).unwrap();
        let tokens: Vec<(u32, Option<&str>, u32, u32)> = decoded
            .tokens()
            .map(|t| (t.get_dst_col(), t.get_source(), t.get_src_line(), t.get_src_col()))
            .collect();
        assert_eq!(
            tokens,
            [(1, Some("/bots/mine/bot.ts"), 0, 0), (3, Some("~lib/array.ts"), 1, 1)]
        );
        assert!(super::rooted(b"[1]", Path::new("/b")).is_err());
    }
}

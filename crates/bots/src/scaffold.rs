//! New bot projects (`botlens new <game> <dir>`): a Cargo package that builds and runs as is
//! ([`scaffold`]), or, with `--lang` another language, a bot folder in it ([`scaffold_folder`]:
//! `botlens.toml`, `bot.<extension>`, the starting bot of the language's SDK, `README.md`). Each
//! language's row of the table ([`crate::toolchain::Toolchain::scaffold`]) says which, and with
//! what words.
//!
//! [`scaffold`] writes into a new or empty directory:
//!
//! - `Cargo.toml`: a `cdylib` crate named after the directory (see [`crate_name`]), the SDK as a
//!   path dependency, line tables in release builds, a `[workspace]` table so the bot stands
//!   alone (excluding the SDK's copy, a dependency, not a member: a member's optional
//!   dependencies would be locked, and fetched from crates.io), and `[package.metadata.botlens]`
//!   naming the game and a short suite;
//! - `src/lib.rs`: the game's starting bot, a simple bot that only makes legal moves, with
//!   comments that teach the SDK;
//! - `botlens/`: a copy of the bundled SDK (`botlens/sdk`, with the protocol crate it uses
//!   beside it, [`crate::bundled::copy_sdk`]), unless `--sdk` names one to depend on instead;
//! - `README.md` (how to run it) and `.gitignore` (`target/`);
//! - `.github/workflows/botlens.yml` ([`workflow`]), as every new bot gets.
//!
//! `Cargo.toml` and `README.md` come from the `templates/` directory of this crate, compiled in;
//! the bot is its language's starting bot for the game, from its SDK's folder
//! (`crates/sdk/starters/<game>.rs`, `crates/sdk-c/starters/<game>.c`, …, bundled:
//! [`crate::bundled::starter`]); the game's title and its seeds come from the games registry
//! ([`GameKind::info`]);
//! `{{name}}` and the other placeholders are filled. The SDK is the project's own copy, so the
//! project builds on any machine with Rust and botlens (a CI runner, a teammate's laptop) and
//! keeps building with the SDK it was made with when botlens is upgraded. An SDK named with
//! `--sdk` is depended on where it is instead: by a path relative to the project when both are
//! in the same botlens checkout (the SDK at `<checkout>/crates/sdk`), so the checkout can move;
//! else absolute.
//!
//! Not for: building or running the new project (see [`crate::build`] and
//! `botlens-harness`'s `pipeline`).

use std::io;
use std::path::{Component, Path, PathBuf};

use botlens_games::GameKind;
use botlens_sandbox::SandboxLimits;

/// The `Cargo.toml` template.
const CARGO_TOML: &str = include_str!("../templates/Cargo.toml.in");
/// The `README.md` template.
const README: &str = include_str!("../templates/README.md.in");
/// A bot folder's `botlens.toml` template.
const FOLDER_CONFIG: &str = include_str!("../templates/folder-botlens.toml.in");
/// A bot folder's `README.md` template.
const FOLDER_README: &str = include_str!("../templates/folder-README.md.in");
/// The GitHub Actions workflow's template ([`workflow`]).
const WORKFLOW: &str = include_str!("../templates/github-workflow.yml.in");
/// Where a new bot's GitHub Actions workflow is written, relative to the bot.
pub const WORKFLOW_FILE: &str = ".github/workflows/botlens.yml";
/// Where a new Rust bot's copy of the SDK is written, relative to the project.
pub const SDK_COPY: &str = "botlens";
/// The `.gitignore` written as is.
const GITIGNORE: &str = "target/\n";

/// A project [`scaffold`] (or a bot folder [`scaffold_folder`]) wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scaffold {
    /// The project directory, absolute.
    pub root: PathBuf,
    /// The Cargo package name (a bot folder's bot's name, made the same way: [`crate_name`]).
    pub crate_name: String,
    /// The game the bot plays.
    pub game: GameKind,
    /// The SDK path as written in `Cargo.toml` (relative to the project, `botlens/sdk` for its
    /// own copy, or absolute); for a bot folder, what it builds with (`botlens.h`).
    pub sdk: String,
    /// What the bot builds with, for a sentence after "with": `the SDK from ../../crates/sdk
    /// (relative to the project)`, `botlens.h, from botlens itself`.
    pub uses: String,
    /// The files written, relative to `root`, in the order written.
    pub files: Vec<PathBuf>,
    /// The bot's source among them, the one to improve: `src/lib.rs`, `bot.c`.
    pub main: PathBuf,
}

/// Why no project was written.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    /// The SDK directory has no `Cargo.toml`.
    #[error("the botlens SDK is not at {0} (no Cargo.toml there)")]
    NoSdk(PathBuf),
    /// The target exists and is a file.
    #[error("{0} exists and is not a directory")]
    NotADirectory(PathBuf),
    /// The target directory already has files in it.
    #[error("{0} is not empty; a new project goes into a new or empty directory")]
    NotEmpty(PathBuf),
    /// The directory's name gives no crate name (the file-system root).
    #[error("{0} has no name to make a crate name of; give a directory such as `my-bot`")]
    NoName(PathBuf),
    /// This botlens carries no starting bot for the game in the language (its SDK's folder has
    /// no `starters/<game>.<extension>`).
    #[error("botlens has no starting bot for {game} in {folder}/starters")]
    NoStarter {
        /// The SDK's folder.
        folder: String,
        /// The game.
        game: GameKind,
    },
    /// The bundled SDK could not be unpacked.
    #[error(transparent)]
    Bundle(#[from] crate::bundled::BundleError),
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// What was being read or written.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> ScaffoldError + '_ {
    move |source| ScaffoldError::Io { path: path.to_path_buf(), source }
}

/// Names Cargo refuses for a package, separated by spaces: Rust keywords, the standard crates,
/// and the names of its own build directories.
const RESERVED: &str = "abstract alloc as async await become box break build const continue \
    core crate deps do dyn else enum examples extern false final fn for gen if impl in \
    incremental let loop macro match mod move mut override priv proc-macro proc_macro pub ref \
    return self static std struct super test trait true try type typeof unsafe unsized use \
    virtual where while yield";

/// The packages a new bot depends on (the SDK and everything it pulls in): a bot of the same
/// name would depend on itself, which Cargo refuses. Cargo treats `-` and `_` alike.
const DEPENDENCIES: &str = "botlens-sdk botlens-protocol";

/// A valid Cargo package name made from a directory name: lower-case ASCII letters, digits,
/// `-` and `_`; any other run of characters becomes one `-`. A name that would start with a
/// digit gets `bot-` in front, an empty or reserved one (`test`, `fn`, …) or the name of a
/// package the bot depends on (`botlens-sdk`, `botlens-protocol`) `-bot` after.
///
/// ```
/// use botlens_bots::scaffold::crate_name;
///
/// assert_eq!(crate_name("My Bot!"), "my-bot");
/// assert_eq!(crate_name("2048"), "bot-2048");
/// assert_eq!(crate_name("test"), "test-bot");
/// assert_eq!(crate_name("botlens_sdk"), "botlens_sdk-bot");
/// ```
pub fn crate_name(dir_name: &str) -> String {
    let mut name = String::new();
    for c in dir_name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            name.push(c.to_ascii_lowercase());
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_matches(['-', '_']);
    if name.is_empty() {
        "bot".to_owned()
    } else if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("bot-{name}")
    } else if RESERVED.split_whitespace().any(|reserved| reserved == name)
        || DEPENDENCIES.split_whitespace().any(|dependency| dependency == name.replace('_', "-"))
    {
        format!("{name}-bot")
    } else {
        name.to_owned()
    }
}

/// Writes a new project for `game` into `dir` (created if missing, refused if not empty) that
/// depends on the SDK at `sdk`, or, without one, on its own copy of the bundled SDK in
/// [`SDK_COPY`].
pub fn scaffold(game: GameKind, dir: &Path, sdk: Option<&Path>) -> Result<Scaffold, ScaffoldError> {
    let sdk = match sdk {
        Some(sdk) if !sdk.join("Cargo.toml").is_file() => {
            return Err(ScaffoldError::NoSdk(sdk.to_path_buf()));
        }
        Some(sdk) => Some(sdk.canonicalize().map_err(io_error(sdk))?),
        None => None,
    };
    let (root, crate_name) = new_dir(dir, "src")?;
    let (sdk_path, uses) = match &sdk {
        Some(sdk) => {
            let path = sdk_dependency(&root, sdk);
            let relative =
                if Path::new(&path).is_relative() { " (relative to the project)" } else { "" };
            let uses = format!("the SDK from {path}{relative}");
            (path, uses)
        }
        None => {
            crate::bundled::copy_sdk(&root.join(SDK_COPY))?;
            let version = env!("CARGO_PKG_VERSION");
            let uses = format!("its own copy of the SDK in {SDK_COPY}/ (botlens-sdk {version})");
            (format!("{SDK_COPY}/sdk"), uses)
        }
    };
    let sdk_about = match &sdk {
        Some(_) => format!("The bot depends on the botlens SDK at `{sdk_path}`."),
        None => format!(
            "`{SDK_COPY}/` holds the botlens SDK the bot builds with, a copy made by `botlens new`:\nkeep it with the bot, so that it builds wherever botlens is installed (as in CI)."
        ),
    };

    let fill = |template: &str| {
        fill(template, game, &crate_name)
            .replace("{{sdk}}", &toml_string(&sdk_path))
            .replace("{{sdk_copy}}", &toml_string(SDK_COPY))
            .replace("{{sdk_about}}", &sdk_about)
    };
    let starter = starter("sdk", game, "rs")?;
    let files = [
        ("Cargo.toml", fill(CARGO_TOML)),
        ("src/lib.rs", fill(starter)),
        ("README.md", fill(README)),
        (".gitignore", GITIGNORE.to_owned()),
        (WORKFLOW_FILE, workflow(game, &crate_name, CiSetup::Nothing, "Rust")),
    ];
    let mut written = write_files(&root, files)?;
    if sdk.is_none() {
        written.push(PathBuf::from(format!("{SDK_COPY}/")));
    }
    let main = PathBuf::from("src/lib.rs");
    Ok(Scaffold { root, crate_name, game, sdk: sdk_path, uses, files: written, main })
}

/// What a CI runner (GitHub's Ubuntu) installs for a language's bots to build, besides Rust
/// and botlens, in the workflow `botlens new` writes ([`workflow`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CiSetup {
    /// Nothing: botlens adds the `wasm32-wasip1` target itself, and installs what else it
    /// needs with tools the runner has (the AssemblyScript compiler, with npm).
    Nothing,
    /// Debian or Ubuntu packages, for `apt-get install`, separated by spaces.
    Apt(&'static str),
    /// Python packages, for `pip install`, separated by spaces.
    Pip(&'static str),
}

/// The GitHub Actions workflow of a new bot named `name` for `game` in `language` (its title),
/// whose builds need `setup`: on every push and pull request it plays the suite and uploads
/// the report to code scanning (`botlens run --format sarif`); on a pull request it compares
/// the branch with the base branch and fails on a regression (`botlens compare
/// --fail-on-regression`: a non-regression SPRT, or Klotski's steps).
pub fn workflow(game: GameKind, name: &str, setup: CiSetup, language: &str) -> String {
    let install = |how: &str| {
        format!("      - name: Install what {language} bots build with\n        run: {how}\n")
    };
    let setup = match setup {
        CiSetup::Nothing => String::new(),
        CiSetup::Apt(packages) => {
            install(&format!("sudo apt-get update && sudo apt-get install -y {packages}"))
        }
        CiSetup::Pip(packages) => {
            install(&format!("python3 -m pip install --user --break-system-packages {packages}"))
        }
    };
    let (about, args) = if game.is_puzzle() {
        ("Klotski has no SPRT: it fails when the branch takes more steps (the sign test).", "")
    } else {
        (
            "A non-regression SPRT, as fishtest runs: it fails when the branch is 10 Elo or more weaker.",
            "--sprt elo0=-10 elo1=0 ",
        )
    };
    WORKFLOW
        .replace("{{name}}", name)
        .replace("{{repository}}", env!("CARGO_PKG_REPOSITORY"))
        .replace("{{version}}", env!("CARGO_PKG_VERSION"))
        .replace("{{setup}}", &setup)
        .replace("{{compare_about}}", about)
        .replace("{{compare_args}}", args)
}

/// A folder language as a new bot folder names it ([`crate::toolchain::Toolchain`]).
#[derive(Debug, Clone, Copy)]
pub struct FolderLanguage {
    /// Its title: `C`.
    pub title: &'static str,
    /// Its name in `lang = "…"`: `c`.
    pub name: &'static str,
    /// The extension of its sources: the bot is `bot.<extension>`.
    pub extension: &'static str,
    /// The starting bot's source ([`starter`]).
    pub starter: &'static str,
    /// What a CI runner installs for its bots to build.
    pub ci_setup: CiSetup,
}

/// What a new bot folder's `README.md` says of its language.
#[derive(Debug, Clone, Copy)]
pub struct FolderReadme {
    /// What botlens does with the folder: `botlens builds the .c files here with clang and the
    /// bundled botlens.h`.
    pub about: &'static str,
    /// How, in a paragraph: the SDK, what to install, the build.
    pub how: &'static str,
    /// Faults the bot's author may meet: `a failed `assert`, an out-of-bounds access`.
    pub faults: &'static str,
    /// The manual: `docs/c.md`.
    pub manual: &'static str,
    /// What it builds with: `botlens.h`.
    pub sdk: &'static str,
}

/// Writes a new bot folder in `language` for `game` into `dir` (created if missing, refused if
/// not empty): `botlens.toml`, `bot.<extension>`, and `README.md` (saying `readme`). Nothing of
/// the SDK is copied: botlens builds with what it carries (`botlens.h`, `botlens.zig`, the
/// package `botlens`, the JavaScript runner), which [`Scaffold::sdk`] names.
pub fn scaffold_folder(
    language: &FolderLanguage,
    readme: &FolderReadme,
    game: GameKind,
    dir: &Path,
) -> Result<Scaffold, ScaffoldError> {
    let (root, name) = new_dir(dir, "")?;
    let file = format!("bot.{}", language.extension);
    let fill = |template: &str| {
        fill(template, game, &name)
            .replace("{{language}}", language.title)
            .replace("{{lang}}", language.name)
            .replace("{{file}}", &file)
            .replace("{{about}}", readme.about)
            .replace("{{how}}", readme.how)
            .replace("{{faults}}", readme.faults)
            .replace("{{manual}}", readme.manual)
    };
    let files = [
        ("botlens.toml", fill(FOLDER_CONFIG)),
        (file.as_str(), fill(language.starter)),
        ("README.md", fill(FOLDER_README)),
        (WORKFLOW_FILE, workflow(game, &name, language.ci_setup, language.title)),
    ];
    let written = write_files(&root, files)?;
    let uses = format!("{}, from botlens itself", readme.sdk);
    let (sdk, main) = (readme.sdk.to_owned(), PathBuf::from(&file));
    Ok(Scaffold { root, crate_name: name, game, sdk, uses, files: written, main })
}

/// The starting bot for `game` in the bundled SDK folder `folder`, its files' `extension`.
pub fn starter(
    folder: &str,
    game: GameKind,
    extension: &str,
) -> Result<&'static str, ScaffoldError> {
    crate::bundled::starter(folder, game.name(), extension)
        .ok_or_else(|| ScaffoldError::NoStarter { folder: folder.to_owned(), game })
}

/// `dir` made ready for a new bot: refused if it is a file or not empty, its name turned into
/// the bot's ([`crate_name`]) before anything is created, then created with `subdir` (if not
/// empty) in it;
/// returns it canonical, and the name.
fn new_dir(dir: &Path, subdir: &str) -> Result<(PathBuf, String), ScaffoldError> {
    match std::fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => return Err(ScaffoldError::NotADirectory(dir.to_path_buf())),
        Ok(_) => {
            let mut entries = std::fs::read_dir(dir).map_err(io_error(dir))?;
            if entries.next().is_some() {
                return Err(ScaffoldError::NotEmpty(dir.to_path_buf()));
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error(dir)(e)),
    }
    // Name the bot before creating anything, so a nameless target leaves no trace.
    let absolute = std::path::absolute(dir).map_err(io_error(dir))?;
    let dir_name =
        botlens_files::lexical(&absolute).file_name().map(|n| n.to_string_lossy().into_owned());
    let name = crate_name(&dir_name.ok_or_else(|| ScaffoldError::NoName(dir.into()))?);
    let made = if subdir.is_empty() { dir.to_path_buf() } else { dir.join(subdir) };
    std::fs::create_dir_all(made).map_err(io_error(dir))?;
    let root = dir.canonicalize().map_err(io_error(dir))?;
    Ok((root, name))
}

/// `template` with the placeholders of `game` and the bot's `name` filled (all but `{{sdk}}`).
fn fill(template: &str, game: GameKind, name: &str) -> String {
    let info = game.info();
    let opponents = game.default_opponents();
    let quoted: Vec<String> = opponents.iter().map(|o| format!("\"{o}\"")).collect();
    template
        .replace("{{name}}", name)
        .replace("{{game}}", info.name)
        .replace("{{title}}", info.title)
        .replace("{{seeds}}", info.starter_seeds)
        .replace("{{opponents}}", &opponents.join(", "))
        .replace("{{opponent_list}}", &quoted.join(", "))
        .replace("{{opponent}}", &opponents[0])
        .replace("{{fuel_per_turn}}", &grouped(SandboxLimits::default().fuel_per_turn))
}

/// Writes `files` (relative to `root`, with their text); the names written, in order.
fn write_files<const N: usize>(
    root: &Path,
    files: [(&str, String); N],
) -> Result<Vec<PathBuf>, ScaffoldError> {
    let mut written = Vec::new();
    for (file, text) in files {
        let path = root.join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        std::fs::write(&path, text).map_err(io_error(&path))?;
        written.push(PathBuf::from(file));
    }
    Ok(written)
}

/// The SDK path to write in the project at `root` (both canonical): relative when both are in
/// one botlens checkout (the SDK at `<checkout>/crates/sdk`), else absolute. Forward slashes
/// in the relative form, so the manifest reads the same on every system.
fn sdk_dependency(root: &Path, sdk: &Path) -> String {
    let checkout = sdk
        .parent()
        .filter(|crates| crates.file_name().is_some_and(|n| n == "crates"))
        .and_then(Path::parent);
    match checkout.filter(|checkout| root.starts_with(checkout)).and_then(|_| relative(root, sdk)) {
        Some(path) => path,
        None => sdk.display().to_string(),
    }
}

/// `to` relative to the directory `from`, both absolute and canonical, with `/` separators.
fn relative(from: &Path, to: &Path) -> Option<String> {
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let ups = std::iter::repeat_n("..".to_owned(), from.len() - common);
    let downs = to[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned());
    let parts: Vec<String> = ups.chain(downs).collect();
    Some(if parts.is_empty() { ".".to_owned() } else { parts.join("/") })
}

/// `n` with its thousands grouped: `400,000,000`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `text` as a TOML basic string, quotes included.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake botlens checkout in a temporary directory: `<tmp>/botlens/crates/sdk/Cargo.toml`.
    fn checkout() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let sdk = tmp.path().join("botlens/crates/sdk");
        std::fs::create_dir_all(&sdk).unwrap();
        std::fs::write(sdk.join("Cargo.toml"), "[package]\nname = \"botlens-sdk\"\n").unwrap();
        (tmp, sdk)
    }

    fn read(root: &Path, file: &str) -> String {
        std::fs::read_to_string(root.join(file)).unwrap()
    }

    #[test]
    fn without_an_sdk_named_the_project_gets_its_own_copy_and_builds_anywhere() {
        let tmp = tempfile::tempdir().unwrap();
        let made = scaffold(GameKind::Battleships, &tmp.path().join("mine"), None).unwrap();
        assert_eq!(made.sdk, "botlens/sdk");
        assert_eq!(made.files.last(), Some(&PathBuf::from("botlens/")));
        let manifest = read(&made.root, "Cargo.toml");
        assert!(manifest.contains("botlens-sdk = { path = \"botlens/sdk\" }"), "{manifest}");
        assert!(made.root.join("botlens/sdk/src/lib.rs").is_file());
        assert!(made.root.join("botlens/protocol/Cargo.toml").is_file());
        let readme = read(&made.root, "README.md");
        assert!(
            readme.contains("`botlens/` holds the botlens SDK the bot builds with"),
            "{readme}"
        );
        assert!(!readme.contains("{{"), "{readme}");
        // Moved elsewhere, the project still finds its SDK.
        let moved = tmp.path().join("moved");
        std::fs::rename(&made.root, &moved).unwrap();
        let project = crate::BotProject::load(&moved).unwrap();
        assert_eq!(project.name, "mine");
    }

    #[test]
    fn a_new_project_locks_only_the_bot_and_the_sdks_crates_with_no_registry_at_hand() {
        let tmp = tempfile::tempdir().unwrap();
        let made = scaffold(GameKind::TicTacToe, &tmp.path().join("mine"), None).unwrap();
        // An empty cargo home: no registry index, nothing downloaded.
        let home = tmp.path().join("cargo-home");
        let locked = std::process::Command::new("cargo")
            .args(["generate-lockfile", "--offline"])
            .current_dir(&made.root)
            .env("CARGO_HOME", &home)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&locked.stderr);
        assert!(locked.status.success(), "{stderr}");
        let lock: toml::Table = read(&made.root, "Cargo.lock").parse().unwrap();
        let names: Vec<&str> = lock["package"]
            .as_array()
            .unwrap()
            .iter()
            .map(|package| package["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["botlens-protocol", "botlens-sdk", "mine"]);
    }

    #[test]
    fn the_workflow_sets_up_the_language_and_tests_the_game_its_way() {
        for game in GameKind::ALL {
            for setup in [CiSetup::Nothing, CiSetup::Apt("clang lld"), CiSetup::Pip("ziglang")] {
                let text = workflow(game, "my-bot", setup, "C");
                assert!(text.starts_with("# botlens in the CI of my-bot, written by"), "{text}");
                // GitHub's expressions, `${{ … }}`, are not placeholders.
                let unfilled = text.replace("${{", "").contains("{{");
                assert!(!unfilled, "an unfilled placeholder in\n{text}");
                let install = match setup {
                    CiSetup::Nothing => None,
                    CiSetup::Apt(_) => {
                        Some("sudo apt-get update && sudo apt-get install -y clang lld")
                    }
                    CiSetup::Pip(_) => {
                        Some("python3 -m pip install --user --break-system-packages ziglang")
                    }
                };
                let step = text.lines().skip_while(|l| !l.contains("Install what C bots")).nth(1);
                assert_eq!(step.map(|l| l.trim_start().trim_start_matches("run: ")), install);
                let sprt = !game.is_puzzle();
                assert_eq!(text.contains("--sprt elo0=-10 elo1=0 --fail-on-regression"), sprt);
                assert!(text.ends_with("--fail-on-regression\n"), "{text}");
            }
        }
    }

    #[test]
    fn writes_a_bot_project_for_every_game() {
        let (tmp, sdk) = checkout();
        for game in GameKind::ALL {
            let dir = tmp.path().join(format!("{}-bot", game.name()));
            let made = scaffold(game, &dir, Some(&sdk)).unwrap();
            assert_eq!(made.crate_name, format!("{}-bot", game.name()));
            assert_eq!(
                made.files,
                ["Cargo.toml", "src/lib.rs", "README.md", ".gitignore", WORKFLOW_FILE]
                    .map(PathBuf::from)
            );
            let project = crate::BotProject::load(&made.root).unwrap();
            assert_eq!((project.game, project.name.as_str()), (game, made.crate_name.as_str()));
            let manifest = read(&made.root, "Cargo.toml");
            for needle in [
                "crate-type = [\"cdylib\"]",
                "debug = \"line-tables-only\"",
                "\n[workspace]\nexclude = [\"botlens\"]\n",
            ] {
                assert!(manifest.contains(needle), "{needle} missing from\n{manifest}");
            }
            let bot = read(&made.root, "src/lib.rs");
            assert!(bot.starts_with(&format!("//! {}: ", made.crate_name)), "{bot}");
            assert!(bot.contains("export!(MyBot);"), "{bot}");
            assert_eq!(read(&made.root, ".gitignore"), "target/\n");
            let readme = read(&made.root, "README.md");
            assert!(readme.starts_with(&format!("# {}\n", made.crate_name)), "{readme}");
            for (file, text) in
                [("Cargo.toml", &manifest), ("src/lib.rs", &bot), ("README.md", &readme)]
            {
                assert!(!text.contains("{{"), "{file} has an unfilled placeholder:\n{text}");
            }
        }
    }

    #[test]
    fn the_manifest_parses_with_the_sdk_as_a_path_dependency() {
        let (tmp, sdk) = checkout();
        let made = scaffold(GameKind::TicTacToe, &tmp.path().join("x"), Some(&sdk)).unwrap();
        let manifest: toml::Table = read(&made.root, "Cargo.toml").parse().unwrap();
        let path = &manifest["dependencies"]["botlens-sdk"]["path"];
        assert_eq!(path.as_str(), Some(made.sdk.as_str()));
        assert!(made.root.join(&made.sdk).join("Cargo.toml").is_file(), "{}", made.sdk);
    }

    #[test]
    fn the_sdk_path_is_relative_inside_the_checkout_and_absolute_outside() {
        let (tmp, sdk) = checkout();
        let inside =
            scaffold(GameKind::Klotski, &tmp.path().join("botlens/samples/mine"), Some(&sdk));
        assert_eq!(inside.unwrap().sdk, "../../crates/sdk");
        let outside =
            scaffold(GameKind::Klotski, &tmp.path().join("elsewhere/mine"), Some(&sdk)).unwrap();
        assert_eq!(Path::new(&outside.sdk), sdk.canonicalize().unwrap());
    }

    #[test]
    fn an_empty_directory_is_used_and_a_non_empty_one_refused() {
        let (tmp, sdk) = checkout();
        let empty = tmp.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        assert!(scaffold(GameKind::Battleships, &empty, Some(&sdk)).is_ok());
        let error = scaffold(GameKind::Battleships, &empty, Some(&sdk)).unwrap_err();
        assert!(matches!(error, ScaffoldError::NotEmpty(_)), "{error}");
        assert!(error.to_string().contains("is not empty"), "{error}");
        // The refusal left the first project as it was.
        assert!(read(&empty, "src/lib.rs").contains("Battleships bot"));
    }

    #[test]
    fn a_file_and_a_missing_sdk_are_refused() {
        let (tmp, sdk) = checkout();
        let file = tmp.path().join("file");
        std::fs::write(&file, "").unwrap();
        let error = scaffold(GameKind::TicTacToe, &file, Some(&sdk)).unwrap_err();
        assert!(matches!(error, ScaffoldError::NotADirectory(_)), "{error}");
        let nowhere = tmp.path().join("no-sdk-here");
        let target = tmp.path().join("bot");
        let error = scaffold(GameKind::TicTacToe, &target, Some(&nowhere)).unwrap_err();
        assert!(error.to_string().contains("SDK is not at"), "{error}");
        assert!(!target.exists(), "nothing is written when the SDK is missing");
    }

    #[test]
    fn crate_names_are_sanitised_directory_names() {
        let cases = [
            ("my-bot", "my-bot"),
            ("My_Bot", "my_bot"),
            ("my bot v2.0", "my-bot-v2-0"),
            ("--edge--", "edge"),
            ("émile", "mile"),
            ("机器人", "bot"),
            ("", "bot"),
            ("7seas", "bot-7seas"),
            ("fn", "fn-bot"),
            ("build", "build-bot"),
            ("proc-macro", "proc-macro-bot"),
            // A bot may not share a name with a package it depends on.
            ("botlens-sdk", "botlens-sdk-bot"),
            ("Botlens_Protocol", "botlens_protocol-bot"),
            // Nothing else is in a bot's dependency tree.
            ("serde", "serde"),
        ];
        for (dir, expected) in cases {
            assert_eq!(crate_name(dir), expected, "{dir:?}");
        }
    }

    #[test]
    fn the_crate_is_named_after_the_directory_even_when_given_as_dot() {
        let (tmp, sdk) = checkout();
        let dir = tmp.path().join("Dotted Bot");
        std::fs::create_dir(&dir).unwrap();
        let made = scaffold(GameKind::TicTacToe, &dir.join("."), Some(&sdk)).unwrap();
        assert_eq!(made.crate_name, "dotted-bot");
    }
}

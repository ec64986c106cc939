//! What a user names as the bot to play, resolved once: a bot in a language botlens builds (a
//! Cargo project, a bot folder or a lone source file: which language, the table of languages
//! says, [`crate::toolchain::Lang`]), a module file (`.wasm`, or WebAssembly text in `.wat`),
//! or a reference player of a game.
//!
//! Every front end turns what it was given into a [`Target`] here — the command line from its
//! argument and `--game` (with no argument, the bot it runs in, found upward:
//! [`Target::enclosing`]), `watch` and the language server from a project directory — and hands
//! it to `botlens-harness`'s `pipeline`, which plays it. A target also names itself in the command that
//! replays one of its games ([`Target::replay_command`]), so reports, the editor and the
//! terminal print the same line.
//!
//! Not for: loading, building or playing (see `botlens-harness`'s `pipeline`).

use std::fmt;
use std::path::{Path, PathBuf};

use botlens_games::{GameKind, UnknownGame};

use crate::folder::CONFIG_FILE;
use crate::toolchain::{Lang, LoadError, find_root};

/// A bot to play, as the user named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A bot botlens builds from its sources, in a language of [`crate::toolchain`]: a Cargo
    /// project (a directory with `Cargo.toml`), a bot folder, or one source file (`.js`, `.c`,
    /// `.zig`, `.ts`), a folder's maybe with a `botlens.toml`.
    Bot {
        /// The language.
        lang: Lang,
        /// The directory or file, as named (relative paths stay relative, so replay lines read
        /// as typed).
        path: PathBuf,
        /// The game the user said it plays (`--game`), checked against the bot's own settings.
        game: Option<GameKind>,
    },
    /// A module file: `.wasm`, or WebAssembly text in `.wat`.
    Module {
        /// The file, as named.
        path: PathBuf,
        /// The game it plays.
        game: GameKind,
    },
    /// A reference player of a game, by name (`hunter`, `perfect`, `optimal`, …).
    Reference {
        /// The player's name.
        name: String,
        /// Its game.
        game: GameKind,
    },
}

/// Why a name is not a bot botlens can play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// `--game` names no game.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// A module file without `--game`.
    #[error("say which game {0} plays with --game {choices}", choices = game_choices())]
    ModuleWithoutGame(String),
    /// A file botlens neither builds nor loads, by its extension.
    #[error(
        "`{0}` is not a bot botlens can play: give a source file ({exts}), a folder of them, a Rust bot project, or a .wasm/.wat module with --game",
        exts = Lang::extensions()
    )]
    UnknownFile(String),
    /// Neither a directory nor a module file, and no `--game` to make it a reference player.
    #[error(
        "`{0}` is not a bot project directory; give a project, a .wasm module with --game, or a reference player with --game"
    )]
    Unknown(String),
    /// No bot named, and none in the directory a command ran in or in a directory above it.
    #[error(
        "`{}` is not in a bot project: no botlens.toml, and no Cargo.toml with [package.metadata.botlens], there or in a directory above it (create one with `botlens new <game> <dir>`, or name the bot)",
        .0.display()
    )]
    NoBotHere(PathBuf),
}

fn game_choices() -> String {
    GameKind::ALL.map(GameKind::name).join("|")
}

/// Whether a bot or opponent name is a module file: `.wasm`, or WebAssembly text in `.wat`.
pub fn is_module_path(name: &str) -> bool {
    name.ends_with(".wasm") || name.ends_with(".wat")
}

impl Target {
    /// The target `text` names, with the game of `--game` if given: a directory is a bot in
    /// the language its files say ([`Lang::of_dir`]: a project or a bot folder), a lone source
    /// file (`.js`, `.c`, `.zig`, `.ts`: [`Lang::of_file`]) a bot botlens builds, a
    /// `.wasm`/`.wat` name a module, another file an error, anything else a reference player.
    /// Modules and reference players need the game.
    ///
    /// ```
    /// use botlens_bots::target::Target;
    ///
    /// let perfect = Target::parse("perfect", Some("tictactoe")).unwrap();
    /// assert_eq!(perfect.replay_command("random", 3), "botlens replay perfect --game tictactoe --vs random --seed 3");
    /// assert!(Target::parse("bot.wasm", None).unwrap_err().to_string().contains("--game"));
    /// ```
    pub fn parse(text: &str, game: Option<&str>) -> Result<Target, TargetError> {
        let game = game.map(str::parse::<GameKind>).transpose()?;
        if Path::new(text).is_dir() {
            return Ok(Target::Bot {
                lang: Lang::of_dir(Path::new(text)),
                path: text.into(),
                game,
            });
        }
        if let Some(lang) = Lang::of_file(text) {
            return Ok(Target::Bot { lang, path: text.into(), game });
        }
        if Path::new(text).is_file() && !is_module_path(text) {
            return Err(TargetError::UnknownFile(text.to_owned()));
        }
        match game {
            Some(game) if is_module_path(text) => Ok(Target::Module { path: text.into(), game }),
            Some(game) => Ok(Target::Reference { name: text.to_owned(), game }),
            None if is_module_path(text) => Err(TargetError::ModuleWithoutGame(text.to_owned())),
            None => Err(TargetError::Unknown(text.to_owned())),
        }
    }

    /// The bot a command plays when given none, run in the directory `cwd` (absolute): the
    /// bot `cwd` is in, found upward as cargo finds its manifest ([`find_root`]: the nearest
    /// directory, `cwd` itself or one above it, with a `botlens.toml` or a `Cargo.toml` with
    /// `[package.metadata.botlens]`), named relative to `cwd` (`.`, `..`, `../..`) so that the
    /// replay lines of its games run there as printed. With none up the tree, `.` when `cwd`
    /// itself holds a bot of a language (a folder of sources, its game from `--game`; a Cargo
    /// package, whose loading says what it lacks), else [`TargetError::NoBotHere`]. A name the
    /// user gives is never searched for: it goes to [`Target::parse`] as typed.
    pub fn enclosing(cwd: &Path) -> Result<PathBuf, TargetError> {
        if let Some(root) = find_root(cwd) {
            let up = cwd.ancestors().position(|dir| dir == root).unwrap_or(0);
            return Ok(match up {
                0 => PathBuf::from("."),
                up => std::iter::repeat_n("..", up).collect(),
            });
        }
        match Lang::detect(cwd) {
            Some(_) => Ok(PathBuf::from(".")),
            None => Err(TargetError::NoBotHere(cwd.to_owned())),
        }
    }

    /// The bot in the directory `dir`, as `watch` and the language server name theirs: in the
    /// language its files say ([`Lang::of_dir`]; a directory with no bot is taken for a Cargo
    /// project, whose loading says what is missing).
    pub fn of_dir(dir: impl Into<PathBuf>) -> Target {
        let path = dir.into();
        Target::Bot { lang: Lang::of_dir(&path), path, game: None }
    }

    /// The bot at `path`, as `watch` names it: a lone source file of a language botlens builds
    /// (`.js`, `.c`, `.zig`, `.ts`), else the bot in the directory ([`Target::of_dir`]).
    pub fn of_path(path: impl Into<PathBuf>) -> Target {
        let path = path.into();
        match Lang::of_file(&path.to_string_lossy()) {
            Some(lang) if path.is_file() => Target::Bot { lang, path, game: None },
            _ => Target::of_dir(path),
        }
    }

    /// The bot's directory: the one named, or a lone source file's.
    pub fn project_dir(&self) -> Option<&Path> {
        let Target::Bot { path, .. } = self else { return None };
        let lone_file = !path.is_dir() && Lang::of_file(&path.to_string_lossy()).is_some();
        if !lone_file {
            return Some(path);
        }
        path.parent().map(|dir| if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
    }

    /// The file that stands for the bot where a report must name a file and a failure has no
    /// line (a code-scanning result needs one): a lone source file or a module as named, a
    /// project's manifest, a folder's `botlens.toml` or else its first source; `None` for a
    /// reference player, or a directory with none of them.
    pub fn home_file(&self) -> Option<PathBuf> {
        match self {
            Target::Bot { lang, path, .. } if path.is_dir() => {
                let toolchain = lang.toolchain();
                let named = toolchain.manifest().into_iter().chain([CONFIG_FILE]);
                let named = named.map(|name| path.join(name)).find(|file| file.is_file());
                named.or_else(|| {
                    crate::folder::sources(path, toolchain.extension()).into_iter().next()
                })
            }
            Target::Bot { path, .. } | Target::Module { path, .. } => Some(path.clone()),
            Target::Reference { .. } => None,
        }
    }

    /// The game the target plays, known before anything is built: a bot's from its settings
    /// (`--game` checked against a bot folder's), a module's or a reference player's as given.
    pub fn game(&self) -> Result<GameKind, LoadError> {
        match self {
            Target::Bot { lang, path, game } => Ok(lang.load(path, *game)?.settings().game()),
            Target::Module { game, .. } | Target::Reference { game, .. } => Ok(*game),
        }
    }

    /// The command line that re-plays the game against `opponent` on `seed` and steps through
    /// it; words a shell would split are quoted.
    ///
    /// ```
    /// use botlens_bots::target::Target;
    ///
    /// let bot = Target::of_dir("my bots/sinker");
    /// assert_eq!(bot.replay_command("hunter", 4), "botlens replay 'my bots/sinker' --vs hunter --seed 4");
    /// ```
    pub fn replay_command(&self, opponent: &str, seed: u64) -> String {
        self.replay_command_in_seat(opponent, seed, 0)
    }

    /// [`Target::replay_command`] for the game with the bot in `seat`: seat 1 (a paired suite's
    /// second game) adds `--seat 1`.
    ///
    /// ```
    /// use botlens_bots::target::Target;
    ///
    /// let bot = Target::of_dir("bot");
    /// assert_eq!(bot.replay_command_in_seat("hunter", 4, 1), "botlens replay bot --vs hunter --seed 4 --seat 1");
    /// ```
    pub fn replay_command_in_seat(&self, opponent: &str, seed: u64, seat: usize) -> String {
        replay_command(&self.to_string(), opponent, seed, seat)
    }

    /// The command line that plays the game against `opponent` on `seed` again under a
    /// debugger, stopped as the bot begins the turn it failed on (`botlens debug`).
    ///
    /// ```
    /// use botlens_bots::target::Target;
    ///
    /// let bot = Target::of_dir("bot");
    /// assert_eq!(bot.debug_command("hunter", 4), "botlens debug bot --vs hunter --seed 4");
    /// ```
    pub fn debug_command(&self, opponent: &str, seed: u64) -> String {
        game_command("debug", &self.to_string(), opponent, seed)
    }
}

/// The command line that steps through the game of the bot `bot` (a target as it displays,
/// [`Target`]'s `Display`) against `opponent` on `seed`, the bot in `seat` (1 adds `--seat 1`).
///
/// ```
/// use botlens_bots::target::replay_command;
///
/// assert_eq!(replay_command("bot", "hunter", 4, 0), "botlens replay bot --vs hunter --seed 4");
/// ```
pub fn replay_command(bot: &str, opponent: &str, seed: u64, seat: usize) -> String {
    let seat = if seat == 0 { String::new() } else { format!(" --seat {seat}") };
    format!("{}{seat}", game_command("replay", bot, opponent, seed))
}

/// `botlens <verb>` for the game of `bot` against `opponent` on `seed`.
fn game_command(verb: &str, bot: &str, opponent: &str, seed: u64) -> String {
    format!("botlens {verb} {bot} --vs {} --seed {seed}", shell_word(opponent))
}

/// The target as the command line names it: `samples/bot`, `bot.wasm --game tictactoe`.
impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Module { path, game } => {
                write!(f, "{} --game {game}", shell_word(&path.display().to_string()))
            }
            Target::Bot { path, game, .. } => {
                f.write_str(&shell_word(&path.display().to_string()))?;
                game.map_or(Ok(()), |game| write!(f, " --game {game}"))
            }
            Target::Reference { name, game } => write!(f, "{} --game {game}", shell_word(name)),
        }
    }
}

/// `word` as one word for a POSIX shell: as is when it is plain, else in single quotes.
///
/// ```
/// use botlens_bots::target::shell_word;
///
/// assert_eq!(shell_word("bots/my-bot"), "bots/my-bot");
/// assert_eq!(shell_word("it's"), "'it'\\''s'");
/// ```
pub fn shell_word(word: &str) -> String {
    if is_plain(word) { word.to_owned() } else { format!("'{}'", word.replace('\'', "'\\''")) }
}

/// Whether `word` is a word a shell takes as it is: not empty, and only characters no shell
/// treats specially.
fn is_plain(word: &str) -> bool {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:@%+=,".contains(c);
    !word.is_empty() && word.chars().all(plain)
}

/// Whether `text` is a target as [`Target`]'s `Display` writes it: one word as [`shell_word`]
/// writes it, perhaps followed by ` --game NAME` (a plain name). A command line made with such
/// a text names that one target and runs nothing else; a text read from a file (a shard's
/// part) is checked so before it goes into the replay commands a report prints.
///
/// ```
/// use botlens_bots::target::is_displayed_target;
///
/// assert!(is_displayed_target("'my bots/x' --game battleships"));
/// assert!(is_displayed_target("'a --game b'"));
/// assert!(!is_displayed_target("bot; rm -rf ~"));
/// assert!(!is_displayed_target("'it's'"));
/// ```
pub fn is_displayed_target(text: &str) -> bool {
    let one_word = |word: &str| {
        let unquoted = match word.strip_prefix('\'').and_then(|rest| rest.strip_suffix('\'')) {
            Some(inner) => inner.replace("'\\''", "'"),
            None => word.to_owned(),
        };
        shell_word(&unquoted) == word
    };
    one_word(text)
        || text.rsplit_once(" --game ").is_some_and(|(word, game)| one_word(word) && is_plain(game))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str) -> Lang {
        name.parse().unwrap()
    }

    #[test]
    fn directories_are_projects_and_other_names_need_a_game() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().display().to_string();
        assert_eq!(Target::parse(&text, None).unwrap(), Target::of_dir(&text));
        assert_eq!(
            Target::parse(&text, Some("klotski")).unwrap(),
            Target::Bot {
                lang: named("rust"),
                path: text.clone().into(),
                game: Some(GameKind::Klotski)
            }
        );
        std::fs::write(dir.path().join("bot.c"), "").unwrap();
        assert_eq!(
            Target::parse(&text, None).unwrap(),
            Target::Bot { lang: named("c"), path: text.clone().into(), game: None }
        );
        for (file, lang) in
            [("bot.js", "js"), ("bot.c", "c"), ("mine.zig", "zig"), ("bot.ts", "assemblyscript")]
        {
            let lang = named(lang);
            let path = dir.path().join(file).display().to_string();
            assert_eq!(
                Target::parse(&path, Some("tictactoe")).unwrap(),
                Target::Bot { lang, path: path.clone().into(), game: Some(GameKind::TicTacToe) },
                "{file}"
            );
        }
        let ruby = dir.path().join("bot.rb");
        std::fs::write(&ruby, "").unwrap();
        let error = Target::parse(&ruby.display().to_string(), Some("tictactoe")).unwrap_err();
        assert!(
            error.to_string().ends_with(
                "bot.rb` is not a bot botlens can play: give a source file (.js, .py, .c, .zig or .ts), a folder of them, a Rust bot project, or a .wasm/.wat module with --game"
            ),
            "{error}"
        );
        assert_eq!(
            Target::parse("x.wat", Some("battleships")).unwrap(),
            Target::Module { path: "x.wat".into(), game: GameKind::Battleships }
        );
        assert_eq!(
            Target::parse("hunter", Some("battleships")).unwrap(),
            Target::Reference { name: "hunter".into(), game: GameKind::Battleships }
        );
        assert_eq!(
            Target::parse("bot.wasm", None).unwrap_err().to_string(),
            "say which game bot.wasm plays with --game battleships|tictactoe|klotski"
        );
        assert!(
            Target::parse("nowhere", None).unwrap_err().to_string().contains("not a bot project")
        );
        assert_eq!(
            Target::parse("hunter", Some("chess")).unwrap_err().to_string(),
            "unknown game `chess` (known: battleships, tictactoe, klotski)"
        );
    }

    #[test]
    fn a_command_given_no_bot_plays_the_one_it_runs_in_found_upward() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let bot = root.join("bot");
        std::fs::create_dir_all(bot.join("src/deep")).unwrap();
        let manifest =
            "[package]\nname = \"bot\"\n[package.metadata.botlens]\ngame = \"klotski\"\n";
        std::fs::write(bot.join("Cargo.toml"), manifest).unwrap();
        assert_eq!(Target::enclosing(&bot).unwrap(), Path::new("."));
        assert_eq!(Target::enclosing(&bot.join("src")).unwrap(), Path::new(".."));
        assert_eq!(Target::enclosing(&bot.join("src/deep")).unwrap(), Path::new("../.."));
        // A folder of sources without settings is a bot where it is (its game from --game);
        // above it there is none.
        let sources = root.join("sources");
        std::fs::create_dir(&sources).unwrap();
        std::fs::write(sources.join("bot.c"), "").unwrap();
        assert_eq!(Target::enclosing(&sources).unwrap(), Path::new("."));
        // Nothing here or up the tree: the error names where it looked.
        let empty = root.join("empty");
        std::fs::create_dir(&empty).unwrap();
        assert_eq!(
            Target::enclosing(&empty).unwrap_err().to_string(),
            format!(
                "`{}` is not in a bot project: no botlens.toml, and no Cargo.toml with [package.metadata.botlens], there or in a directory above it (create one with `botlens new <game> <dir>`, or name the bot)",
                empty.display()
            )
        );
    }

    #[test]
    fn a_path_is_a_lone_source_file_or_the_bot_in_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mine.zig");
        assert_eq!(Target::of_path(&file), Target::of_dir(&file), "no such file");
        assert_eq!(
            Target::of_dir(&file),
            Target::Bot { lang: named("rust"), path: file.clone(), game: None }
        );
        std::fs::write(&file, "").unwrap();
        assert_eq!(
            Target::of_path(&file),
            Target::Bot { lang: named("zig"), path: file.clone(), game: None }
        );
        assert_eq!(
            Target::of_path(dir.path()),
            Target::Bot { lang: named("zig"), path: dir.path().into(), game: None }
        );
    }

    #[test]
    fn a_bots_directory_is_the_one_named_or_a_lone_files_and_its_game_is_its_settings() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("botlens.toml"), "game = \"klotski\"\n").unwrap();
        let file = dir.path().join("mine.c");
        std::fs::write(&file, "").unwrap();
        let lone = Target::of_path(&file);
        assert_eq!(lone.project_dir(), Some(dir.path()));
        assert_eq!(lone.game().unwrap(), GameKind::Klotski);
        assert_eq!(Target::of_dir(dir.path()).project_dir(), Some(dir.path()));
        let gone = dir.path().join("gone");
        assert_eq!(Target::of_dir(&gone).project_dir(), Some(gone.as_path()), "a project, named");
        assert!(Target::of_dir(&gone).game().unwrap_err().to_string().contains("no Cargo.toml"));
        let asked = Target::parse(&file.display().to_string(), Some("tictactoe")).unwrap();
        let error = asked.game().unwrap_err().to_string();
        assert!(
            error.ends_with("plays klotski (its botlens.toml says so), not tictactoe"),
            "{error}"
        );
        let reference = Target::parse("perfect", Some("tictactoe")).unwrap();
        assert_eq!(
            (reference.project_dir(), reference.game().unwrap()),
            (None, GameKind::TicTacToe)
        );
    }

    #[test]
    fn a_bots_home_file_is_its_manifest_its_settings_or_its_source() {
        let dir = tempfile::tempdir().unwrap();
        let module = Target::Module { path: "bots/x.wasm".into(), game: GameKind::TicTacToe };
        assert_eq!(module.home_file(), Some(PathBuf::from("bots/x.wasm")));
        let reference = Target::parse("perfect", Some("tictactoe")).unwrap();
        assert_eq!(reference.home_file(), None);
        let folder = dir.path().join("folder");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("bot.js"), "function Bot() {}").unwrap();
        assert_eq!(Target::of_dir(&folder).home_file(), Some(folder.join("bot.js")));
        std::fs::write(folder.join(CONFIG_FILE), "game = \"tictactoe\"\n").unwrap();
        assert_eq!(Target::of_dir(&folder).home_file(), Some(folder.join(CONFIG_FILE)));
        let project = dir.path().join("project");
        std::fs::create_dir(&project).unwrap();
        std::fs::write(project.join("Cargo.toml"), "[package]\n").unwrap();
        assert_eq!(Target::of_dir(&project).home_file(), Some(project.join("Cargo.toml")));
        let lone = folder.join("bot.js");
        assert_eq!(Target::of_path(&lone).home_file(), Some(lone));
    }

    #[test]
    fn replay_commands_name_the_target_as_typed_and_quote_what_a_shell_would_split() {
        let module = Target::Module { path: "bots/x.wasm".into(), game: GameKind::TicTacToe };
        assert_eq!(
            module.replay_command("other bot.wasm", 0),
            "botlens replay bots/x.wasm --game tictactoe --vs 'other bot.wasm' --seed 0"
        );
        assert_eq!(
            Target::of_dir(".").replay_command("random", 9),
            "botlens replay . --vs random --seed 9"
        );
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("~/bots"), "'~/bots'", "a quoted path is not expanded again");
    }

    #[test]
    fn every_target_as_displayed_is_one_displayed_target() {
        for path in ["bot", "my bots/x", "it's", "a --game b", "'", "$(rm -rf ~)", "x\ny"] {
            let shown = Target::of_dir(path).to_string();
            assert!(is_displayed_target(&shown), "{shown}");
            assert!(!is_displayed_target(&format!("{shown}; true")), "{shown}; true");
        }
        let module = Target::parse("a b.wasm", Some("tictactoe")).unwrap().to_string();
        assert!(is_displayed_target(&module), "{module}");
    }
}

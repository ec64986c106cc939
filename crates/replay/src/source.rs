//! The source line a failure points at, read from disk — or a plain statement of why it is not
//! shown (the file is gone, it no longer has that line, or it may not be read). Never a guess at
//! where it went.
//!
//! # Which files may be read
//!
//! A trace is untrusted: whoever hands one to the user chooses its failure's file name and its
//! recorded project directory, and a bot chooses the file it reports (`/etc/shadow`,
//! `../../.ssh/id_rsa`, `/dev/zero`). So source lines come from one directory only, the
//! [`SourceRoot`]:
//!
//! 1. the root the caller gives (`--source-root`, the language server's project), else
//! 2. the failing player's recorded `source`, resolved from the current directory, when it lies
//!    inside the current directory and is a bot project (a directory with a `Cargo.toml`) or a
//!    module file (`.wasm`, `.wat`; then its directory). A recorded source outside the current
//!    directory is refused, not replaced: the trace can narrow what is read, never widen it past
//!    where the user is working. One that does not exist here (a trace from another machine)
//!    counts as not recorded;
//! 3. else the current directory, when it is a bot project (so a trace replayed from a home
//!    directory reads nothing).
//!
//! A file is read only when its path, with `..` taken lexically and then with symlinks resolved,
//! stays inside the root; when it is a regular file (checked on the opened descriptor, and opened
//! so that a FIFO cannot block); and only its first [`SOURCE_LIMIT`] bytes. Anything else is
//! shown as the location without its text, saying why.

use std::path::{Path, PathBuf};

use botlens_engine::text::printable;
use botlens_engine::{PlayerInfo, SourceLocation};
use serde::Serialize;

use botlens_files::ReadError;

/// Tabs in source lines are shown as this many spaces, so the caret under the column lines up.
const TAB_WIDTH: usize = 4;

/// The most bytes read of a source file; a line past them is not shown.
pub(crate) const SOURCE_LIMIT: u64 = 4 << 20;

/// What the replayer could read at a failure's source location.
///
/// Every string is printable (`botlens_engine::text::printable`): the path and the line come
/// from untrusted places and may hold terminal escapes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum SourceLine {
    /// The file exists and has the line.
    Found {
        /// The file as read.
        path: String,
        /// 1-based line number.
        line: u32,
        /// 1-based column; 0 when unknown.
        column: u32,
        /// The line's text, tabs expanded, without its line ending.
        text: String,
        /// Where the column falls in `text` (0-based, tabs expanded), when the column is known
        /// and on the line.
        caret: Option<usize>,
    },
    /// The file cannot be read (usually: it moved or was deleted since the game was played).
    Missing {
        /// The path tried.
        path: String,
        /// Why it could not be read (`No such file or directory`, …).
        reason: String,
    },
    /// The file exists but is shorter than the recorded line: it changed since the game.
    OutOfRange {
        /// The file as read.
        path: String,
        /// The recorded 1-based line.
        line: u32,
        /// How many lines the file has now.
        lines: usize,
    },
    /// The file may not be read: it is outside the bot's project, not a regular file, or the
    /// line is too far into a large file (see the module docs).
    Refused {
        /// The path as recorded, or as resolved against the root.
        path: String,
        /// Why it is not read.
        reason: String,
    },
}

/// The one directory a replay reads source files from, or why it reads none (see the module
/// docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SourceRoot {
    /// Files inside this directory (canonical) may be read.
    Dir(PathBuf),
    /// No file may be read, for this reason.
    Refused(String),
}

impl SourceRoot {
    /// The root for a failure of `player`: `explicit` when given, else the player's recorded
    /// source or `cwd` under the rules of the module docs.
    pub(crate) fn choose(
        explicit: Option<&Path>,
        player: Option<&PlayerInfo>,
        cwd: Option<&Path>,
    ) -> SourceRoot {
        if let Some(dir) = explicit {
            let named = printable(&dir.display().to_string()).into_owned();
            return match dir.canonicalize() {
                Ok(dir) if dir.is_dir() => SourceRoot::Dir(dir),
                Ok(_) => SourceRoot::Refused(format!("the source root {named} is not a directory")),
                Err(err) => {
                    SourceRoot::Refused(format!("the source root {named} cannot be read ({err})"))
                }
            };
        }
        let Some(cwd) = cwd.and_then(|cwd| cwd.canonicalize().ok()) else {
            return SourceRoot::Refused("the current directory cannot be read".into());
        };
        let recorded = player.and_then(|player| player.source.as_deref());
        if let Some(recorded) = recorded
            && let Ok(found) = cwd.join(recorded).canonicalize()
        {
            return recorded_root(found, &cwd, recorded);
        }
        if is_project(&cwd) {
            SourceRoot::Dir(cwd)
        } else {
            SourceRoot::Refused(
                "the trace names no bot project here and the current directory is not one (it \
                 has no Cargo.toml); pass --source-root DIR to read the bot's files"
                    .into(),
            )
        }
    }
}

/// The root a trace's recorded source `found` (canonical, named `recorded` in the trace) gives,
/// when the current directory is `cwd` (canonical).
fn recorded_root(found: PathBuf, cwd: &Path, recorded: &str) -> SourceRoot {
    let named = printable(recorded);
    if !found.starts_with(cwd) {
        return SourceRoot::Refused(format!(
            "the trace names the bot's project {named}, outside the current directory; pass \
             --source-root DIR to read from it"
        ));
    }
    if found.is_dir() && is_project(&found) {
        return SourceRoot::Dir(found);
    }
    let module = matches!(found.extension().and_then(|e| e.to_str()), Some("wasm" | "wat"));
    match found.parent() {
        Some(dir) if module && found.is_file() => SourceRoot::Dir(dir.to_path_buf()),
        _ => SourceRoot::Refused(format!(
            "the trace names {named} as the bot, which is neither a project directory (with a \
             Cargo.toml) nor a module file"
        )),
    }
}

/// Whether `dir` is a bot project: a directory with a `Cargo.toml`.
fn is_project(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file()
}

/// A path for messages, escaped.
fn shown(path: &Path) -> String {
    printable(&path.display().to_string()).into_owned()
}

impl SourceLine {
    /// Reads the line `location` points at, if `root` allows (see the module docs); relative
    /// paths are taken from the root.
    pub(crate) fn read(root: &SourceRoot, location: &SourceLocation) -> SourceLine {
        let file = Path::new(&location.file);
        let dir = match root {
            SourceRoot::Dir(dir) => dir,
            SourceRoot::Refused(reason) => {
                return SourceLine::Refused { path: shown(file), reason: reason.clone() };
            }
        };
        let path = dir.join(file);
        let shown_path = shown(&path);
        let outside = || SourceLine::Refused {
            path: shown_path.clone(),
            reason: format!("outside the bot's project directory {}", shown(dir)),
        };
        let real = match botlens_files::inside(dir, &path) {
            Ok(real) => real,
            Err(ReadError::Outside { .. }) => return outside(),
            Err(err) => return SourceLine::Missing { path: shown_path, reason: err.to_string() },
        };
        let prefix = match botlens_files::read_prefix(&real, SOURCE_LIMIT) {
            Ok(prefix) => prefix,
            Err(ReadError::Io(err)) => {
                return SourceLine::Missing { path: shown_path, reason: err.to_string() };
            }
            Err(other) => {
                return SourceLine::Refused { path: shown_path, reason: other.to_string() };
            }
        };
        let text = String::from_utf8_lossy(&prefix.bytes);
        // Of a file read in part, the text after the last line break may be half a line.
        let whole_lines = if prefix.complete {
            &text[..]
        } else {
            text.rfind('\n').map_or("", |end| &text[..=end])
        };
        let wanted = (location.line as usize).checked_sub(1);
        match wanted.and_then(|index| whole_lines.lines().nth(index)) {
            Some(line) => {
                let line = line.trim_end_matches('\r');
                SourceLine::Found {
                    path: shown_path,
                    line: location.line,
                    column: location.column,
                    text: displayed(line),
                    caret: caret(line, location.column),
                }
            }
            None if !prefix.complete => SourceLine::Refused {
                path: shown_path,
                reason: format!(
                    "line {} is too far into a large file (botlens reads its first {} MiB)",
                    location.line,
                    SOURCE_LIMIT >> 20
                ),
            },
            None => SourceLine::OutOfRange {
                path: shown_path,
                line: location.line,
                lines: whole_lines.lines().count(),
            },
        }
    }

    /// The source line as text, numbered, with a caret under the column when it is known; or
    /// one line saying why the source is not shown.
    pub fn lines(&self) -> Vec<String> {
        match self {
            SourceLine::Found { line, text, caret, .. } => {
                let number = line.to_string();
                let mut lines = vec![format!("{number} │ {text}")];
                if let Some(caret) = caret {
                    let gutter = " ".repeat(number.len());
                    lines.push(format!("{gutter} │ {}^", " ".repeat(*caret)));
                }
                lines
            }
            SourceLine::Missing { path, reason } => vec![format!(
                "source missing: cannot read {path} ({reason}); it may have moved since the game was played"
            )],
            SourceLine::OutOfRange { path, line, lines } => vec![format!(
                "source moved: {path} has {lines} lines, no line {line}; it changed since the game was played"
            )],
            SourceLine::Refused { path, reason } => {
                vec![format!("source not shown: {path} ({reason})")]
            }
        }
    }
}

/// A source line as shown: tabs expanded, anything unprintable escaped.
fn displayed(text: &str) -> String {
    printable(&text.replace('\t', &" ".repeat(TAB_WIDTH))).into_owned()
}

/// The display offset of 1-based `column` in `line` once shown (see [`displayed`]); `None` when
/// the column is unknown (0) or past the end of the line.
fn caret(line: &str, column: u32) -> Option<usize> {
    let before = (column as usize).checked_sub(1)?;
    if before > line.chars().count() {
        return None;
    }
    let prefix: String = line.chars().take(before).collect();
    Some(displayed(&prefix).chars().count())
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use botlens_files::testing::fifo;

    fn at(file: &str, line: u32, column: u32) -> SourceLocation {
        SourceLocation { file: file.into(), line, column }
    }

    /// A bot project (with a `Cargo.toml`) whose `src/lib.rs` is `source`.
    fn project(source: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("src")).expect("src dir");
        std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"bot\"\n").expect("toml");
        std::fs::write(dir.path().join("src/lib.rs"), source).expect("source file");
        dir
    }

    /// The root of `dir`, as an explicit source root gives it.
    fn root(dir: &Path) -> SourceRoot {
        SourceRoot::choose(Some(dir), None, None)
    }

    fn canonical(dir: &Path) -> PathBuf {
        dir.canonicalize().expect("exists")
    }

    /// The reason a location was refused, or a panic naming what was read instead.
    fn refused(read: &SourceLine) -> &str {
        match read {
            SourceLine::Refused { reason, .. } => reason,
            other => panic!("read: {other:?}"),
        }
    }

    #[test]
    fn the_recorded_line_is_read_with_a_caret_under_the_column() {
        let dir = project("fn play() {\n\tturn.mark(3, 0)?;\r\n}\n");
        let found = SourceLine::read(&root(dir.path()), &at("src/lib.rs", 2, 6));
        let path = canonical(dir.path()).join("src/lib.rs").display().to_string();
        let text = "    turn.mark(3, 0)?;".to_owned();
        assert_eq!(found, SourceLine::Found { path, line: 2, column: 6, text, caret: Some(8) });
        // Column 6 counts the tab as one character: the caret sits under the `.`.
        assert_eq!(found.lines(), ["2 │     turn.mark(3, 0)?;", "  │         ^"]);
    }

    #[test]
    fn an_unknown_or_impossible_column_shows_no_caret() {
        let dir = project("let x = 1;\n");
        for column in [0, 40] {
            let found = SourceLine::read(&root(dir.path()), &at("src/lib.rs", 1, column));
            assert_eq!(found.lines(), ["1 │ let x = 1;"], "column {column}");
        }
    }

    #[test]
    fn escapes_in_a_source_line_are_shown_escaped_and_the_caret_still_lines_up() {
        let dir = project("let t = \"\u{1b}]0;owned\u{7}\"; boom();\n");
        // Column 23 is the `b` of `boom`.
        let found = SourceLine::read(&root(dir.path()), &at("src/lib.rs", 1, 23));
        let SourceLine::Found { text, caret: Some(caret), .. } = &found else {
            panic!("{found:?}")
        };
        assert_eq!(text, "let t = \"\\u{1b}]0;owned\\u{7}\"; boom();");
        assert_eq!(&text[*caret..], "boom();", "the caret counts the escapes as shown");
        let shown = found.lines().join("\n");
        assert!(!shown.contains('\u{1b}') && !shown.contains('\u{7}'), "{shown:?}");
    }

    #[test]
    fn absolute_paths_inside_the_root_are_read() {
        let dir = project("a\nb\n");
        let file = canonical(dir.path()).join("src/lib.rs").display().to_string();
        let found = SourceLine::read(&root(dir.path()), &at(&file, 2, 1));
        assert!(matches!(found, SourceLine::Found { ref text, .. } if text == "b"), "{found:?}");
    }

    #[test]
    fn paths_outside_the_project_are_refused_without_reading_them() {
        let dir = project("a\n");
        let outside = tempfile::tempdir().expect("temp dir");
        let secret = outside.path().join("secret.txt");
        std::fs::write(&secret, "TOP SECRET\n").expect("secret");
        let up = format!("../{}/secret.txt", outside.path().file_name().unwrap().to_str().unwrap());
        let root = root(dir.path());
        for file in [
            "/etc/passwd",
            "/etc/shadow",
            "/proc/self/environ",
            "../../../etc/passwd",
            "src/../../x",
            "/dev/zero",
            secret.to_str().unwrap(),
            &up,
        ] {
            let read = SourceLine::read(&root, &at(file, 1, 1));
            let reason = refused(&read);
            assert!(reason.starts_with("outside the bot's project directory "), "{file}: {reason}");
            let shown = read.lines().join("\n");
            assert!(shown.starts_with("source not shown: "), "{shown}");
            assert!(!shown.contains("TOP SECRET") && !shown.contains("root:"), "{shown}");
        }
    }

    #[test]
    fn a_symlink_out_of_the_project_is_refused_and_one_inside_is_followed() {
        let dir = project("inside\n");
        let outside = tempfile::tempdir().expect("temp dir");
        std::fs::write(outside.path().join("secret.txt"), "TOP SECRET\n").expect("secret");
        let src = dir.path().join("src");
        std::os::unix::fs::symlink(outside.path().join("secret.txt"), src.join("out.rs"))
            .expect("symlink");
        std::os::unix::fs::symlink(outside.path(), src.join("linked")).expect("symlink");
        std::os::unix::fs::symlink("/dev/zero", src.join("zero.rs")).expect("symlink");
        std::os::unix::fs::symlink("lib.rs", src.join("alias.rs")).expect("symlink");
        let root = root(dir.path());
        for file in ["src/out.rs", "src/linked/secret.txt", "src/zero.rs"] {
            let read = SourceLine::read(&root, &at(file, 1, 1));
            assert!(refused(&read).starts_with("outside the bot's project"), "{file}: {read:?}");
        }
        let alias = SourceLine::read(&root, &at("src/alias.rs", 1, 1));
        assert!(matches!(alias, SourceLine::Found { ref text, .. } if text == "inside"));
    }

    #[test]
    fn a_fifo_or_a_directory_in_the_project_is_not_read() {
        let dir = project("");
        fifo(&dir.path().join("src"), "pipe.rs");
        let started = Instant::now();
        let read = SourceLine::read(&root(dir.path()), &at("src/pipe.rs", 1, 1));
        assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
        assert_eq!(refused(&read), "not a regular file (it is a named pipe)");
        let read = SourceLine::read(&root(dir.path()), &at("src", 1, 1));
        assert_eq!(refused(&read), "not a regular file (it is a directory)");
    }

    #[test]
    fn only_the_start_of_a_huge_file_is_read() {
        let dir = project("");
        let lines = SOURCE_LIMIT / 2;
        // Two bytes a line: exactly `lines` whole lines fit in the bytes read, then more follow.
        let huge = "x\n".repeat(lines as usize + 50);
        std::fs::write(dir.path().join("src/huge.rs"), huge).expect("huge file");
        let root = root(dir.path());
        let last = SourceLine::read(&root, &at("src/huge.rs", lines as u32, 1));
        assert!(matches!(last, SourceLine::Found { ref text, .. } if text == "x"), "{last:?}");
        let past = SourceLine::read(&root, &at("src/huge.rs", lines as u32 + 1, 1));
        assert_eq!(
            refused(&past),
            format!(
                "line {} is too far into a large file (botlens reads its first 4 MiB)",
                lines + 1
            )
        );
    }

    #[test]
    fn a_missing_file_is_reported_not_guessed() {
        let dir = project("");
        let missing = SourceLine::read(&root(dir.path()), &at("src/moved.rs", 3, 1));
        let SourceLine::Missing { path, .. } = &missing else { panic!("{missing:?}") };
        assert!(path.ends_with("src/moved.rs"), "{path}");
        let text = missing.lines().join("\n");
        assert!(text.starts_with("source missing: cannot read "), "{text}");
        assert!(text.contains("src/moved.rs"), "{text}");
    }

    #[test]
    fn an_escape_in_a_file_name_is_shown_escaped() {
        let dir = project("");
        let read = SourceLine::read(&root(dir.path()), &at("src/\u{1b}[2J.rs", 1, 1));
        let text = read.lines().join("\n");
        assert!(text.contains("src/\\u{1b}[2J.rs") && !text.contains('\u{1b}'), "{text:?}");
        let nowhere = SourceRoot::Refused("no root".into());
        let read = SourceLine::read(&nowhere, &at("\u{1b}]0;x\u{7}", 1, 1));
        assert_eq!(read.lines(), ["source not shown: \\u{1b}]0;x\\u{7} (no root)"]);
    }

    #[test]
    fn a_line_past_the_end_or_line_zero_says_the_source_moved() {
        let dir = project("one\ntwo\n");
        for line in [3, 0] {
            let moved = SourceLine::read(&root(dir.path()), &at("src/lib.rs", line, 1));
            assert!(matches!(moved, SourceLine::OutOfRange { lines: 2, .. }), "{moved:?}");
            let text = moved.lines().join("\n");
            assert!(text.contains(&format!("has 2 lines, no line {line}")), "{text}");
        }
    }

    /// A player whose trace records `source`.
    fn bot(source: &Path) -> PlayerInfo {
        let mut bot = PlayerInfo::reference("bot");
        bot.source = Some(source.display().to_string());
        bot
    }

    #[test]
    fn an_explicit_root_wins_over_anything_the_trace_records() {
        let work = project("");
        let explicit = project("");
        let recorded = bot(work.path());
        let chosen = SourceRoot::choose(Some(explicit.path()), Some(&recorded), Some(work.path()));
        assert_eq!(chosen, SourceRoot::Dir(canonical(explicit.path())));
        let gone = explicit.path().join("gone");
        let SourceRoot::Refused(why) = SourceRoot::choose(Some(&gone), None, None) else {
            panic!("a missing root is no root")
        };
        assert!(why.starts_with("the source root ") && why.contains("cannot be read"), "{why}");
    }

    #[test]
    fn a_recorded_project_is_trusted_only_inside_the_current_directory() {
        let work = tempfile::tempdir().expect("temp dir");
        let inside = project("");
        let nested = work.path().join("bots/mine");
        std::fs::create_dir_all(&nested).expect("nested");
        std::fs::rename(inside.path().join("Cargo.toml"), nested.join("Cargo.toml")).expect("mv");
        let cwd = Some(work.path());
        let chosen = SourceRoot::choose(None, Some(&bot(&nested)), cwd);
        assert_eq!(chosen, SourceRoot::Dir(canonical(&nested)), "absolute and inside");
        let relative = bot(Path::new("bots/./mine"));
        assert_eq!(SourceRoot::choose(None, Some(&relative), cwd), chosen, "relative to the cwd");

        let outside = project("");
        for source in [outside.path(), Path::new("/"), Path::new("..")] {
            let SourceRoot::Refused(why) = SourceRoot::choose(None, Some(&bot(source)), cwd) else {
                panic!("{} is outside the current directory", source.display())
            };
            assert!(why.contains("outside the current directory"), "{why}");
            assert!(why.contains("--source-root"), "says how to read it anyway: {why}");
        }
        let not_a_project = bot(&work.path().join("bots"));
        let SourceRoot::Refused(why) = SourceRoot::choose(None, Some(&not_a_project), cwd) else {
            panic!("a directory without Cargo.toml is not a project")
        };
        assert!(why.contains("neither a project directory"), "{why}");
    }

    #[test]
    fn a_recorded_module_gives_its_directory() {
        let work = project("");
        let release = work.path().join("target/release");
        std::fs::create_dir_all(&release).expect("dirs");
        std::fs::write(release.join("bot.wasm"), b"\0asm").expect("module");
        std::fs::write(release.join("notes.txt"), "").expect("file");
        let cwd = Some(work.path());
        let module = bot(&release.join("bot.wasm"));
        assert_eq!(
            SourceRoot::choose(None, Some(&module), cwd),
            SourceRoot::Dir(canonical(&release))
        );
        let other = bot(&release.join("notes.txt"));
        assert!(matches!(SourceRoot::choose(None, Some(&other), cwd), SourceRoot::Refused(_)));
    }

    #[test]
    fn without_a_usable_record_the_current_directory_counts_only_when_it_is_a_project() {
        let work = project("");
        let cwd = Some(work.path());
        let here = SourceRoot::Dir(canonical(work.path()));
        assert_eq!(SourceRoot::choose(None, None, cwd), here);
        let elsewhere = bot(Path::new("/no/such/machine/bot"));
        assert_eq!(SourceRoot::choose(None, Some(&elsewhere), cwd), here, "recorded elsewhere");
        let home = tempfile::tempdir().expect("temp dir");
        let SourceRoot::Refused(why) = SourceRoot::choose(None, None, Some(home.path())) else {
            panic!("a directory without Cargo.toml is not a project")
        };
        assert!(why.contains("has no Cargo.toml"), "{why}");
        assert!(matches!(SourceRoot::choose(None, None, None), SourceRoot::Refused(_)));
    }
}

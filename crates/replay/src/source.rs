//! The source line a failure points at, read from disk — or a plain statement of why it cannot be
//! shown (the file is gone, or it no longer has that line). Never a guess at where it went.

use std::path::{Path, PathBuf};

use botlens_engine::{PlayerInfo, SourceLocation};
use serde::Serialize;

/// Tabs in source lines are shown as this many spaces, so the caret under the column lines up.
const TAB_WIDTH: usize = 4;

/// What the replayer could read at a failure's source location.
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
}

impl SourceLine {
    /// Reads the line `location` points at; relative paths are taken from `root` (the current
    /// directory when `None`).
    pub fn read(root: Option<&Path>, location: &SourceLocation) -> SourceLine {
        let file = Path::new(&location.file);
        let path = match root {
            Some(root) if file.is_relative() => root.join(file),
            _ => file.to_path_buf(),
        };
        let shown = path.display().to_string();
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) => return SourceLine::Missing { path: shown, reason: err.to_string() },
        };
        let text = String::from_utf8_lossy(&bytes);
        let wanted = (location.line as usize).checked_sub(1);
        match wanted.and_then(|index| text.lines().nth(index)) {
            Some(line) => {
                let line = line.trim_end_matches('\r');
                SourceLine::Found {
                    path: shown,
                    line: location.line,
                    column: location.column,
                    text: line.replace('\t', &" ".repeat(TAB_WIDTH)),
                    caret: caret(line, location.column),
                }
            }
            None => SourceLine::OutOfRange {
                path: shown,
                line: location.line,
                lines: text.lines().count(),
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
        }
    }
}

/// The display offset of 1-based `column` in `line` once tabs are expanded; `None` when the
/// column is unknown (0) or past the end of the line.
fn caret(line: &str, column: u32) -> Option<usize> {
    let before = (column as usize).checked_sub(1)?;
    if before > line.chars().count() {
        return None;
    }
    Some(line.chars().take(before).map(|c| if c == '\t' { TAB_WIDTH } else { 1 }).sum())
}

/// The directory a failing player's relative source paths start from: `explicit` when given,
/// else the player's project directory when the trace names an existing one, else none (the
/// current directory).
pub(crate) fn root_for(explicit: Option<&Path>, player: Option<&PlayerInfo>) -> Option<PathBuf> {
    if let Some(root) = explicit {
        return Some(root.to_path_buf());
    }
    player
        .and_then(|player| player.source.as_deref())
        .map(PathBuf::from)
        .filter(|source| source.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: &str, line: u32, column: u32) -> SourceLocation {
        SourceLocation { file: file.into(), line, column }
    }

    fn project(source: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("src")).expect("src dir");
        std::fs::write(dir.path().join("src/lib.rs"), source).expect("source file");
        dir
    }

    #[test]
    fn the_recorded_line_is_read_with_a_caret_under_the_column() {
        let dir = project("fn play() {\n\tturn.mark(3, 0)?;\r\n}\n");
        let found = SourceLine::read(Some(dir.path()), &at("src/lib.rs", 2, 6));
        let path = dir.path().join("src/lib.rs").display().to_string();
        let text = "    turn.mark(3, 0)?;".to_owned();
        assert_eq!(found, SourceLine::Found { path, line: 2, column: 6, text, caret: Some(8) });
        // Column 6 counts the tab as one character: the caret sits under the `.`.
        assert_eq!(found.lines(), ["2 │     turn.mark(3, 0)?;", "  │         ^"]);
    }

    #[test]
    fn an_unknown_or_impossible_column_shows_no_caret() {
        let dir = project("let x = 1;\n");
        for column in [0, 40] {
            let found = SourceLine::read(Some(dir.path()), &at("src/lib.rs", 1, column));
            assert_eq!(found.lines(), ["1 │ let x = 1;"], "column {column}");
        }
    }

    #[test]
    fn absolute_paths_ignore_the_root() {
        let dir = project("a\nb\n");
        let file = dir.path().join("src/lib.rs").display().to_string();
        let found = SourceLine::read(Some(Path::new("/nowhere")), &at(&file, 2, 1));
        assert!(matches!(found, SourceLine::Found { ref text, .. } if text == "b"), "{found:?}");
    }

    #[test]
    fn a_missing_file_is_reported_not_guessed() {
        let dir = project("");
        let missing = SourceLine::read(Some(dir.path()), &at("src/moved.rs", 3, 1));
        let SourceLine::Missing { path, .. } = &missing else { panic!("{missing:?}") };
        assert!(path.ends_with("src/moved.rs"), "{path}");
        let text = missing.lines().join("\n");
        assert!(text.starts_with("source missing: cannot read "), "{text}");
        assert!(text.contains("src/moved.rs"), "{text}");
    }

    #[test]
    fn a_line_past_the_end_or_line_zero_says_the_source_moved() {
        let dir = project("one\ntwo\n");
        for line in [3, 0] {
            let moved = SourceLine::read(Some(dir.path()), &at("src/lib.rs", line, 1));
            assert!(matches!(moved, SourceLine::OutOfRange { lines: 2, .. }), "{moved:?}");
            let text = moved.lines().join("\n");
            assert!(text.contains(&format!("has 2 lines, no line {line}")), "{text}");
        }
    }

    #[test]
    fn the_root_is_the_explicit_one_then_the_bots_project_directory() {
        let dir = project("");
        let mut bot = PlayerInfo::reference("bot");
        bot.source = Some(dir.path().display().to_string());
        let explicit = Path::new("/elsewhere");
        assert_eq!(root_for(Some(explicit), Some(&bot)), Some(explicit.to_path_buf()));
        assert_eq!(root_for(None, Some(&bot)), Some(dir.path().to_path_buf()));
        bot.source = Some(dir.path().join("bot.wasm").display().to_string());
        assert_eq!(root_for(None, Some(&bot)), None, "a module path is not a project directory");
        assert_eq!(root_for(None, None), None);
    }
}

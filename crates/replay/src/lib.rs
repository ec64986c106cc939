//! Step through a finished botlens game: the board after every move, the move list, the bot's
//! log lines for each move and the failure that lost the game, down to the source line.
//!
//! # Example
//!
//! ```no_run
//! use botlens_replay::{Output, ShowOptions};
//!
//! let trace = botlens_replay::load("traces/hunter-seed4.json".as_ref())?;
//! botlens_replay::show(trace, &ShowOptions { output: Output::Plain, ..ShowOptions::default() }, None)?;
//! # Ok::<(), botlens_replay::ReplayError>(())
//! ```
//!
//! # Concepts
//!
//! A [`Replay`] is built once from a [`Trace`] (any game botlens knows, through
//! `botlens_games::GameKind`): one [`Frame`] per position, frame 0 the start and frame `n` the
//! position after move `n`, each with the board as the game renders it and, for a game that
//! pictures it, as a [`Drawing`] with the cells its move touched; the [`MoveEntry`] list;
//! and the [`FailurePanel`] with the source line read from disk. What a bot drew on its board
//! during a move (`botlens.draw`) is a [`Layer`] of its [`MoveEntry`], placed on the grid its
//! seat draws on; each frame shows each seat's latest layer ([`Frame::layers`]), and
//! [`Replay::marks_text`] writes them as plain text for the editor's hover. Building checks that every
//! recorded move still replays, so a truncated or edited trace is refused rather than shown
//! wrong. Three viewers read the model: the terminal viewer (`tui`, driven by the pure
//! [`Viewer`] state machine), plain text (`text`) and a self-contained HTML page (`html`).
//!
//! [`show`] takes a trace from anywhere — a file, or a game just played — and presents it.
//!
//! A trace is untrusted input, and so is everything a bot wrote into it. Loading reads only a
//! regular file of at most [`TRACE_LIMIT`] bytes ([`read_text`], which the command line also uses
//! for layout files); every string of the model is printable, terminal escapes made visible;
//! and the failing source line is read only from inside the bot's project (the rules are on
//! [`Replay::from_trace`]).
//!
//! Not for: playing games (the engine and harness do that) or reading traces of unknown games.

mod html;
mod marks;
mod model;
mod source;
mod text;
mod tui;
mod viewer;

#[cfg(test)]
mod fixtures;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use botlens_engine::{Trace, TraceError};

pub use botlens_files::{ReadError, read_text};
pub use html::page as html_page;
pub use marks::{HeatMap, Layer, Overlay, Paint, Placed, PlacedKind, StatusLine};
pub use model::{Drawing, DrawnBlock, DrawnGrid, FailurePanel, Frame, Judged, MoveEntry, Replay};
pub use source::SourceLine;
pub use text::{write_game, write_one};
pub use tui::draw;
pub use viewer::{Control, Key, Speed, Viewer};

/// The most bytes of a trace file [`load`] reads: traces of several MB are normal, and a file
/// larger than this is refused rather than read into memory.
pub const TRACE_LIMIT: u64 = 256 << 20;

/// Why a game could not be replayed.
///
/// Each message is complete on its own (it includes the underlying error), so the variants
/// expose no `source()` — but for [`ReplayError::Print`], whose I/O error is its source so that
/// the command line can tell a reader that closed the pipe: an error chain printed with `{:#}`
/// says everything once.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The trace file could not be read (or is not a regular file, or is too large).
    #[error("cannot read trace {path}: {error}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why not.
        error: ReadError,
    },
    /// The trace is malformed, from a newer botlens, or its moves no longer replay.
    #[error("{context}{error}")]
    Trace {
        /// Which trace, when it came from a file (`traces/x.json: `).
        context: String,
        /// What is wrong with it.
        error: TraceError,
    },
    /// The trace is of a game this build does not know.
    #[error("the trace is of an unknown game `{name}` (this botlens knows {known})")]
    UnknownGame {
        /// The game named in the trace.
        name: String,
        /// The games this build knows.
        known: String,
    },
    /// A move number past the end of the game was asked for.
    #[error("there is no move {requested}: the game has {moves} moves (0 is the start)")]
    NoSuchMove {
        /// The move asked for.
        requested: usize,
        /// How many moves the game has.
        moves: usize,
    },
    /// Writing the HTML page failed.
    #[error("cannot write {path}: {error}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// Printing to standard output failed (a closed pipe too: the caller decides what that
    /// means).
    #[error("cannot print the replay")]
    Print(#[source] std::io::Error),
    /// The terminal viewer could not run.
    #[error("terminal: {0}")]
    Terminal(std::io::Error),
}

impl From<TraceError> for ReplayError {
    fn from(error: TraceError) -> Self {
        ReplayError::Trace { context: String::new(), error }
    }
}

/// A game played on from a move of the one shown (the terminal viewer's `c` key).
#[derive(Debug, Clone)]
pub struct PlayedOn {
    /// The whole game: the shown game's opening, then the bot's moves.
    pub trace: Trace,
    /// The directory its failing source line may be read from (the bot's project).
    pub source_root: Option<PathBuf>,
    /// One line for the status bar: how the game played on ended.
    pub summary: String,
}

/// What the terminal viewer's `c` key calls: plays the game shown on from move `N` with the
/// bot's build, or says why it cannot.
pub type PlayOnHook<'a> = &'a dyn Fn(&Trace, usize) -> Result<PlayedOn, String>;

/// How [`show`] presents a game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Output {
    /// The terminal viewer when standard output is a terminal, else plain text (the default).
    #[default]
    Auto,
    /// Plain text frames on standard output.
    Plain,
    /// A self-contained HTML page written to this file.
    Html(PathBuf),
}

/// Options of [`show`]; by default the terminal viewer (or text without a terminal) of the whole
/// game, with source paths taken from the bot's project directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShowOptions {
    /// How to present the game.
    pub output: Output,
    /// One position only: as text, move `N` (0 is the start); with [`Output::Html`], the page
    /// opens there. By default every frame.
    pub at: Option<usize>,
    /// Where the terminal viewer and the HTML page open when `at` is not given: move `N` (0,
    /// the start, by default).
    pub start: usize,
    /// The directory source lines may be read from; by default the project directory recorded
    /// in the trace when it lies inside the current directory, else the current directory when
    /// it is a bot project (see [`Replay::from_trace`]).
    pub source_root: Option<PathBuf>,
}

/// Reads and parses a trace file, refusing newer formats, malformed files, files that are not
/// regular (a FIFO, a device) and files over [`TRACE_LIMIT`] with an error that names the file.
/// A UTF-8 byte-order mark at the start is skipped.
pub fn load(path: &Path) -> Result<Trace, ReplayError> {
    let text = read_text(path, TRACE_LIMIT)
        .map_err(|error| ReplayError::Read { path: path.to_path_buf(), error })?;
    Trace::from_json(text.strip_prefix('\u{feff}').unwrap_or(&text))
        .map_err(|error| ReplayError::Trace { context: format!("{}: ", path.display()), error })
}

/// Presents a finished game as `options` say: the terminal viewer, text frames, or an HTML page,
/// its moves judged by the game's oracle ([`Replay::judged_from_trace`]).
///
/// The trace may come from a file ([`load`]) or straight from a game just played. `play_on`
/// is what the terminal viewer's `c` key calls ([`PlayOnHook`]); without it the key says it is
/// not available.
pub fn show(
    trace: Trace,
    options: &ShowOptions,
    play_on: Option<PlayOnHook<'_>>,
) -> Result<(), ReplayError> {
    let replay = Replay::judged_from_trace(&trace, options.source_root.as_deref())?;
    let start = options.at.unwrap_or(options.start);
    replay.frame(start)?;
    match &options.output {
        Output::Html(path) => std::fs::write(path, html_page(&replay, start))
            .map_err(|error| ReplayError::Write { path: path.clone(), error }),
        Output::Auto if options.at.is_none() && std::io::stdout().is_terminal() => {
            tui::run(trace, replay, start, play_on).map_err(ReplayError::Terminal)
        }
        Output::Auto | Output::Plain => {
            let mut out = std::io::stdout().lock();
            match options.at {
                Some(at) => write_one(&mut out, &replay, at),
                None => write_game(&mut out, &replay).map_err(ReplayError::Print),
            }?;
            out.flush().map_err(ReplayError::Print)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use botlens_engine::TRACE_FORMAT_VERSION;

    use super::*;
    use crate::fixtures::{bot_project, failed_game};

    /// A trace file in a temp dir holding `text`.
    fn trace_file(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("game.json");
        std::fs::write(&path, text).expect("trace file");
        (dir, path)
    }

    #[test]
    fn a_saved_trace_loads_back() {
        let project = bot_project();
        let trace = failed_game(project.path());
        let (_dir, path) = trace_file(&trace.to_json());
        assert_eq!(load(&path).expect("loads"), trace);
    }

    #[test]
    fn bad_trace_files_are_refused_naming_the_file_and_saying_it_once() {
        let project = bot_project();
        let mut newer = failed_game(project.path());
        newer.format_version = TRACE_FORMAT_VERSION + 1;
        let json = failed_game(project.path()).to_json();
        let cases = [
            (newer.to_json(), "is newer than this botlens supports"),
            (json[..json.len() / 2].to_owned(), "not a valid trace: EOF while parsing"),
            ("{}".to_owned(), "not a valid trace: missing field `format_version`"),
        ];
        for (text, expected) in cases {
            let (_dir, path) = trace_file(&text);
            let err = load(&path).unwrap_err();
            let message = err.to_string();
            assert!(message.starts_with(&format!("{}: ", path.display())), "{message}");
            assert_eq!(message.matches(expected).count(), 1, "{message}");
            assert!(err.source().is_none(), "the message already carries the cause");
        }
        let missing = load(Path::new("/no/such/trace.json")).unwrap_err().to_string();
        assert!(missing.starts_with("cannot read trace /no/such/trace.json: "), "{missing}");
    }

    #[test]
    fn a_trace_with_a_byte_order_mark_loads() {
        let project = bot_project();
        let trace = failed_game(project.path());
        let (_dir, path) = trace_file(&format!("\u{feff}{}", trace.to_json()));
        assert_eq!(load(&path).expect("loads"), trace);
    }

    #[test]
    fn a_fifo_a_device_or_a_huge_file_is_refused_at_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = botlens_files::testing::fifo(dir.path(), "trace.json");
        let huge = dir.path().join("huge.json");
        std::fs::File::create(&huge)
            .and_then(|file| file.set_len(TRACE_LIMIT + 1))
            .expect("sparse file");
        let started = std::time::Instant::now();
        for (path, why) in [
            (fifo.as_path(), "not a regular file (it is a named pipe)"),
            (Path::new("/dev/zero"), "not a regular file (it is a device)"),
            (&huge, "larger than 256 MiB, the most botlens reads of it"),
        ] {
            let err = load(path).unwrap_err().to_string();
            assert_eq!(err, format!("cannot read trace {}: {why}", path.display()));
        }
        assert!(started.elapsed().as_secs() < 1, "took {:?}", started.elapsed());
    }

    #[test]
    fn a_failed_print_keeps_the_io_error_as_its_source() {
        let err = ReplayError::Print(std::io::ErrorKind::BrokenPipe.into());
        let cause = err.source().and_then(|cause| cause.downcast_ref::<std::io::Error>());
        assert_eq!(cause.map(std::io::Error::kind), Some(std::io::ErrorKind::BrokenPipe));
        assert_eq!(err.to_string(), "cannot print the replay");
    }

    #[test]
    fn show_writes_a_self_contained_page() {
        let project = bot_project();
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("game.html");
        let options =
            ShowOptions { output: Output::Html(out.clone()), at: Some(2), ..Default::default() };
        show(failed_game(project.path()), &options, None).expect("writes the page");
        let html = std::fs::read_to_string(&out).expect("page written");
        assert!(html.starts_with("<!doctype html>"), "{html}");
        assert!(html.contains(r#"{"start":2,"replay":{"game":"tictactoe""#), "{html}");
    }

    #[test]
    fn show_refuses_a_move_past_the_end_before_writing_anything() {
        let project = bot_project();
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("game.html");
        let options =
            ShowOptions { output: Output::Html(out.clone()), at: Some(6), ..Default::default() };
        let err = show(failed_game(project.path()), &options, None).unwrap_err();
        assert!(matches!(err, ReplayError::NoSuchMove { requested: 6, moves: 5 }), "{err}");
        assert!(!out.exists());
    }

    #[test]
    fn show_reports_an_unwritable_page() {
        let project = bot_project();
        let out = project.path().join("no-such-dir/game.html");
        let options = ShowOptions { output: Output::Html(out.clone()), ..Default::default() };
        let err = show(failed_game(project.path()), &options, None).unwrap_err().to_string();
        assert!(err.starts_with(&format!("cannot write {}: ", out.display())), "{err}");
    }
}
